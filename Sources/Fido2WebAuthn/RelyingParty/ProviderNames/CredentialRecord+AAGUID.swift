import Fido2CBOR
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension CredentialRecord {
    /// The AAGUID of the authenticator model that registered the credential, read from the
    /// registration's ``attestationObject``; nil when the record keeps none (or it does not
    /// read). Like every AAGUID, a claim of the authenticator's: for display
    /// (``ProviderNameDirectory``), not for trust.
    public var aaguid: AAGUID? {
        guard let attestationObject else { return nil }
        let object =
            (try? AttestationObject(bytes: attestationObject))
            ?? (try? AttestationObject(bytes: attestationObject, options: .lenient))
        return object?.authenticatorData.attestedCredentialData?.aaguid
    }
}
