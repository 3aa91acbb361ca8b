import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension AttestationTrustPolicy {
    /// A policy that trusts every root of ``WellKnownAttestationRoots`` for its formats
    /// (`apple`, `android-key`, `android-safetynet`, `tpm`), judged at `validationTime` (nil:
    /// now), with the strict default rules.
    ///
    /// ```swift
    /// var policy = try AttestationTrustPolicy.wellKnownRoots()
    /// policy = try policy.trusting(pemEncoded: yubicoRootPEM, for: "packed")
    /// ```
    ///
    /// - Throws: `CryptoError` if a shipped root no longer parses or matches its fingerprint
    ///   (see ``WellKnownAttestationRoot/certificate()``).
    public static func wellKnownRoots(
        validationTime: Int64? = nil
    ) throws -> AttestationTrustPolicy {
        try AttestationTrustPolicy(validationTime: validationTime).trustingWellKnownRoots()
    }

    /// A copy that also trusts `roots` (by default all of ``WellKnownAttestationRoots``), each
    /// for its own formats.
    ///
    /// - Throws: as ``WellKnownAttestationRoot/certificate()``.
    public func trustingWellKnownRoots(
        _ roots: [WellKnownAttestationRoot] = WellKnownAttestationRoots.all
    ) throws -> AttestationTrustPolicy {
        var copy = self
        for root in roots {
            let certificate = try root.certificate()
            for format in root.formats { copy = copy.trusting([certificate], for: format) }
        }
        return copy
    }

    /// A copy that also trusts every certificate of a PEM bundle for `format`: the way to load
    /// roots the caller keeps in files (read the text with any file API) or receives from a
    /// vendor, such as a newer Google attestation root or a FIDO metadata root.
    ///
    /// - Throws: as `Certificate.certificates(pemEncoded:)`: `invalidPEM` for text without a
    ///   `CERTIFICATE` block, the DER errors for a certificate that does not parse.
    public func trusting(
        pemEncoded text: String, for format: String
    ) throws -> AttestationTrustPolicy {
        trusting(try Certificate.certificates(pemEncoded: text), for: format)
    }
}
