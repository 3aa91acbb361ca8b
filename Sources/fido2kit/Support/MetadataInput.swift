import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire

/// Reads and verifies a FIDO metadata BLOB file for `mds` and `verify registration --mds`.
enum MetadataInput {
    /// The BLOB at `path`, verified to the certificates of the PEM file `rootPath` (nil: the
    /// shipped GlobalSign Root CA - R3) at `validationTime` (nil: now), with `crls`; a BLOB past
    /// its nextUpdate is refused unless `allowsStale`.
    ///
    /// - Throws: ``CommandFailure`` naming the file, or the BLOB's `WebAuthnError`.
    static func blob(
        _ path: String, rootPath: String?, validationTime: Int64?,
        crls: [CertificateRevocationList] = [], allowsStale: Bool = false
    ) throws -> MetadataBLOB {
        var anchors: [Certificate]?
        if let rootPath {
            let text = try InputFile.readText(rootPath, limit: .pem)
            do {
                anchors = try Certificate.certificates(pemEncoded: text)
            } catch {
                throw CommandFailure("\(rootPath): \(error)")
            }
        }
        let bytes = try InputFile.read(path, limit: .metadataBLOB)
        do {
            return try MetadataBLOB(
                compact: bytes,
                options: MetadataBLOB.VerificationOptions(
                    trustAnchors: anchors, validationTime: validationTime, revocationLists: crls,
                    allowsStale: allowsStale))
        } catch let error as WebAuthnError
            where validationTime == nil && error.code == .metadataTrustPathInvalid
            && "\(error)".lowercased().contains("expired")
        {
            throw CommandFailure(
                "\(path): \(error); a certificate of its chain has expired: --at checks the BLOB at an earlier time (such as a day before its nextUpdate)"
            )
        } catch {
            throw CommandFailure("\(path): \(error)")
        }
    }

    /// `text` (an ISO 8601 / RFC 3339 date-time) in seconds since the epoch; nil for nil.
    ///
    /// - Throws: ``CommandFailure`` for text that is not a date-time.
    static func time(_ text: String?) throws -> Int64? {
        guard let text else { return nil }
        guard let seconds = ISO8601Time.seconds(text) else {
            throw CommandFailure.usage(
                "--at is not an ISO 8601 / RFC 3339 date-time (such as 2025-01-08T00:00:00Z): \(text)"
            )
        }
        return seconds
    }
}
