@_spi(Fido2Internals) import Fido2WebAuthnWire

/// The attestation statement formats a relying party verifies (WebAuthn Level 3 §7.1 step 21),
/// each with its verifier.
///
/// ``standard`` holds every format fido2kit verifies. A relying party may refuse a format
/// (``remove(format:)``, say `android-safetynet`, which Google has retired) or add one fido2kit
/// does not verify (``register(_:)``: the statement reaches the verifier as
/// `AttestationStatement.unknown(format:encoded:)`, and ``AttestationVerificationContext``
/// offers the certificate parsing and trust path evaluation the built-in verifiers use). The
/// built-in verifiers themselves are not part of the public API; the registry is how a policy
/// chooses among them, so the set can change without a user naming a verifier type.
public struct AttestationFormatRegistry: Sendable {
    private var verifiers: [any AttestationFormatVerifier.Type]

    /// `none`, `packed`, `fido-u2f`, `tpm`, `android-key`, `android-safetynet`, `apple` and
    /// `compound` (whose entries are verified with the verifiers of the registry in use, so a
    /// format removed from it is refused inside a compound statement too).
    public static let standard = AttestationFormatRegistry(
        verifiers: AttestationFormatVerifiers.coreFormats
            + AttestationFormatVerifiers.deviceFormats + [CompoundAttestationVerifier.self])

    private init(verifiers: [any AttestationFormatVerifier.Type]) {
        self.verifiers = verifiers
    }

    /// The format identifiers registered, in registration order.
    public var formats: [String] { verifiers.map { $0.format } }

    /// Registers `verifier` for its ``AttestationFormatVerifier/format``, replacing a verifier
    /// already registered for that format.
    public mutating func register(_ verifier: any AttestationFormatVerifier.Type) {
        remove(format: verifier.format)
        verifiers.append(verifier)
    }

    /// Removes the verifier of `format`: statements of that format then fail with
    /// `WebAuthnError.Code.attestationFormatUnsupported`.
    public mutating func remove(format: String) {
        verifiers.removeAll { $0.format == format }
    }

    /// The verifier registered for `format`, or nil.
    public func verifier(for format: String) -> (any AttestationFormatVerifier.Type)? {
        verifiers.first { $0.format == format }
    }
}
