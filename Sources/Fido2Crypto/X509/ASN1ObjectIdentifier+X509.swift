extension ASN1ObjectIdentifier {
    // MARK: Name attributes (X.520)

    /// id-at-commonName, 2.5.4.3 (CN).
    public static let commonName = ASN1ObjectIdentifier(valid: 2, 5, 4, 3)
    /// id-at-serialNumber, 2.5.4.5.
    public static let serialNumberAttribute = ASN1ObjectIdentifier(valid: 2, 5, 4, 5)
    /// id-at-countryName, 2.5.4.6 (C).
    public static let countryName = ASN1ObjectIdentifier(valid: 2, 5, 4, 6)
    /// id-at-localityName, 2.5.4.7 (L).
    public static let localityName = ASN1ObjectIdentifier(valid: 2, 5, 4, 7)
    /// id-at-stateOrProvinceName, 2.5.4.8 (ST).
    public static let stateOrProvinceName = ASN1ObjectIdentifier(valid: 2, 5, 4, 8)
    /// id-at-organizationName, 2.5.4.10 (O).
    public static let organizationName = ASN1ObjectIdentifier(valid: 2, 5, 4, 10)
    /// id-at-organizationalUnitName, 2.5.4.11 (OU).
    public static let organizationalUnitName = ASN1ObjectIdentifier(valid: 2, 5, 4, 11)
    /// emailAddress (PKCS #9), 1.2.840.113549.1.9.1.
    public static let emailAddress = ASN1ObjectIdentifier(valid: 1, 2, 840, 113_549, 1, 9, 1)

    // MARK: Certificate extensions (RFC 5280)

    /// id-ce-subjectKeyIdentifier, 2.5.29.14.
    public static let subjectKeyIdentifier = ASN1ObjectIdentifier(valid: 2, 5, 29, 14)
    /// id-ce-keyUsage, 2.5.29.15.
    public static let keyUsage = ASN1ObjectIdentifier(valid: 2, 5, 29, 15)
    /// id-ce-subjectAltName, 2.5.29.17.
    public static let subjectAltName = ASN1ObjectIdentifier(valid: 2, 5, 29, 17)
    /// id-ce-basicConstraints, 2.5.29.19.
    public static let basicConstraints = ASN1ObjectIdentifier(valid: 2, 5, 29, 19)
    /// id-ce-cRLNumber, 2.5.29.20 (a CRL extension).
    public static let crlNumber = ASN1ObjectIdentifier(valid: 2, 5, 29, 20)
    /// id-ce-nameConstraints, 2.5.29.30.
    public static let nameConstraints = ASN1ObjectIdentifier(valid: 2, 5, 29, 30)
    /// id-ce-certificatePolicies, 2.5.29.32.
    public static let certificatePolicies = ASN1ObjectIdentifier(valid: 2, 5, 29, 32)
    /// id-ce-authorityKeyIdentifier, 2.5.29.35.
    public static let authorityKeyIdentifier = ASN1ObjectIdentifier(valid: 2, 5, 29, 35)
    /// id-ce-extKeyUsage, 2.5.29.37.
    public static let extendedKeyUsage = ASN1ObjectIdentifier(valid: 2, 5, 29, 37)

    // MARK: FIDO, TCG, Android, Apple

    /// id-fido-gen-ce-aaguid, 1.3.6.1.4.1.45724.1.1.4: the authenticator's AAGUID as an
    /// OCTET STRING of 16 bytes (WebAuthn §8.2.1).
    public static let fidoAAGUID = ASN1ObjectIdentifier(valid: 1, 3, 6, 1, 4, 1, 45724, 1, 1, 4)
    /// tcg-at-tpmManufacturer, 2.23.133.2.1 (in a TPM AIK certificate's SAN directoryName).
    public static let tcgTPMManufacturer = ASN1ObjectIdentifier(valid: 2, 23, 133, 2, 1)
    /// tcg-at-tpmModel, 2.23.133.2.2.
    public static let tcgTPMModel = ASN1ObjectIdentifier(valid: 2, 23, 133, 2, 2)
    /// tcg-at-tpmVersion, 2.23.133.2.3.
    public static let tcgTPMVersion = ASN1ObjectIdentifier(valid: 2, 23, 133, 2, 3)
    /// tcg-kp-AIKCertificate, 2.23.133.8.3: the extended key usage a TPM AIK certificate must
    /// carry (WebAuthn §8.3.1).
    public static let tcgKPAIKCertificate = ASN1ObjectIdentifier(valid: 2, 23, 133, 8, 3)
    /// The Android key attestation extension (KeyDescription), 1.3.6.1.4.1.11129.2.1.17.
    public static let androidKeyAttestation = ASN1ObjectIdentifier(
        valid: 1, 3, 6, 1, 4, 1, 11129, 2, 1, 17)
    /// Apple's anonymous attestation nonce extension, 1.2.840.113635.100.8.2.
    public static let appleAttestationNonce = ASN1ObjectIdentifier(
        valid: 1, 2, 840, 113_635, 100, 8, 2)

    // MARK: Algorithms

    /// id-ecPublicKey, 1.2.840.10045.2.1.
    public static let ecPublicKey = ASN1ObjectIdentifier(valid: 1, 2, 840, 10045, 2, 1)
    /// rsaEncryption, 1.2.840.113549.1.1.1.
    public static let rsaEncryption = ASN1ObjectIdentifier(valid: 1, 2, 840, 113_549, 1, 1, 1)
    /// ecdsa-with-SHA256, 1.2.840.10045.4.3.2.
    public static let ecdsaWithSHA256 = ASN1ObjectIdentifier(valid: 1, 2, 840, 10045, 4, 3, 2)
    /// ecdsa-with-SHA384, 1.2.840.10045.4.3.3.
    public static let ecdsaWithSHA384 = ASN1ObjectIdentifier(valid: 1, 2, 840, 10045, 4, 3, 3)
    /// ecdsa-with-SHA512, 1.2.840.10045.4.3.4.
    public static let ecdsaWithSHA512 = ASN1ObjectIdentifier(valid: 1, 2, 840, 10045, 4, 3, 4)
    /// sha256WithRSAEncryption, 1.2.840.113549.1.1.11.
    public static let sha256WithRSAEncryption = ASN1ObjectIdentifier(
        valid: 1, 2, 840, 113_549, 1, 1, 11)
}
