@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What a relying party accepts among the authenticator extension outputs (WebAuthn Level 3
/// §7.1 step 28, §7.2 step 23).
///
/// The outputs are always parsed and type-checked (`credProtect`, `hmac-secret`, `credBlob`,
/// `minPinLength`, `largeBlobKey`) and returned in the result for the caller to process.
public enum ExtensionPolicy: Sendable, Hashable {
    /// Any output is accepted: unsolicited ones are returned with the rest, for the caller to
    /// ignore or act on (WebAuthn lets relying parties ignore unsolicited extensions).
    case acceptAll
    /// Only outputs of these extension identifiers may appear; any other fails the ceremony
    /// with `WebAuthnError.Code.extensionNotAllowed`.
    case allowOnly(Set<String>)

    /// The first identifier in `outputs` the policy refuses, or nil.
    func refused(_ outputs: AuthenticatorExtensionOutputs?) -> String? {
        guard case .allowOnly(let allowed) = self, let outputs else { return nil }
        var present: [String] = []
        if outputs.credProtect != nil { present.append("credProtect") }
        if outputs.hmacSecret != nil { present.append("hmac-secret") }
        if outputs.credBlob != nil { present.append("credBlob") }
        if outputs.minPinLength != nil { present.append("minPinLength") }
        if outputs.largeBlobKey != nil { present.append("largeBlobKey") }
        present.append(contentsOf: outputs.unknown.map(\.identifier))
        return present.first { !allowed.contains($0) }
    }
}
