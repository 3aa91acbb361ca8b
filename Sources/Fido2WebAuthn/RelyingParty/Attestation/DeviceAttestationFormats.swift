extension AttestationFormatVerifiers {
    /// `tpm`, `android-key`, `android-safetynet` and `apple`.
    static let deviceFormats: [any AttestationFormatVerifier.Type] = []
}
