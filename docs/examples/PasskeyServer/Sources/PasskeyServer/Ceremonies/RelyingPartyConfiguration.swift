import ArgumentParser
import Fido2WebAuthn
import Foundation

/// What the server derives from its relying party at start-up: the `/.well-known/webauthn`
/// document of its origins and the provider names it shows beside passkeys.
struct RelyingPartyConfiguration: Sendable {
    /// The largest provider-names file read (the community list is well under 1 MiB).
    static let maximumProviderNamesSize = 8 << 20

    /// The body of `GET /.well-known/webauthn`: `{"origins":[…]}` (WebAuthn Level 3 §5.11).
    let relatedOriginsDocument: [UInt8]
    /// Provider names by AAGUID: the operator's list when given, then the built-in table.
    let providerNames: ProviderNameDirectory

    /// The configuration of `relyingParty`, with the provider names of the file at
    /// `providerNamesFile` (the community `aaguid.json` format) when given.
    ///
    /// - Throws: `ValidationError` when the origins span more than 5 registrable-domain
    ///   labels or one is not an origin, or when the file does not read as a provider list.
    init(relyingParty: RelyingParty, providerNamesFile: String?) throws {
        do {
            relatedOriginsDocument = try relyingParty.relatedOriginsDocument().jsonBytes()
        } catch {
            throw ValidationError("--origin: \(error)")
        }
        guard let providerNamesFile else {
            providerNames = ProviderNameDirectory()
            return
        }
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: providerNamesFile))
            defer { try? handle.close() }
            let bytes = try handle.read(upToCount: Self.maximumProviderNamesSize + 1) ?? Data()
            providerNames = try ProviderNameDirectory(
                communityListJSON: Array(bytes), maximumSize: Self.maximumProviderNamesSize)
        } catch {
            throw ValidationError("--provider-names \(providerNamesFile): \(error)")
        }
    }
}
