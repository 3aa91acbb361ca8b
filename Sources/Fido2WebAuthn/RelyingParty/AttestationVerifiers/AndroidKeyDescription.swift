@_spi(Fido2Internals) import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// The Android key attestation extension (`KeyDescription`, OID 1.3.6.1.4.1.11129.2.1.17) of an
/// `android-key` attestation certificate, read with the strict DER reader:
///
/// ```
/// KeyDescription ::= SEQUENCE {
///   attestationVersion INTEGER, attestationSecurityLevel ENUMERATED,
///   keyMintVersion INTEGER, keyMintSecurityLevel ENUMERATED,
///   attestationChallenge OCTET STRING, uniqueId OCTET STRING,
///   softwareEnforced AuthorizationList, hardwareEnforced AuthorizationList }
/// ```
///
/// WebAuthn calls the last list `teeEnforced` (Keymaster's name); KeyMint calls it
/// `hardwareEnforced`.
package struct AndroidKeyDescription: Sendable, Hashable {
    /// `attestationVersion` (1–4 for Keymaster, 100, 200, 300, 400 for KeyMint).
    package let attestationVersion: Int64
    /// `attestationSecurityLevel`: 0 software, 1 trusted environment, 2 StrongBox.
    package let attestationSecurityLevel: Int64
    /// `keymasterVersion` / `keyMintVersion`.
    package let keymasterVersion: Int64
    /// `keymasterSecurityLevel` / `keyMintSecurityLevel`.
    package let keymasterSecurityLevel: Int64
    /// `attestationChallenge`: for WebAuthn, the clientDataHash.
    package let attestationChallenge: [UInt8]
    /// `uniqueId`.
    package let uniqueID: [UInt8]
    /// `softwareEnforced`.
    package let softwareEnforced: AndroidKeyAuthorizationList
    /// `teeEnforced` (`hardwareEnforced`).
    package let teeEnforced: AndroidKeyAuthorizationList

    /// Parses the extension value (the DER inside extnValue).
    ///
    /// - Throws: `WebAuthnError` `attestationCertificateInvalid` for DER that is malformed,
    ///   not minimal, not this structure, or followed by bytes; `WebAuthnError.offset` is
    ///   within `derEncoded`.
    package init<C: Collection<UInt8>>(derEncoded: C) throws(WebAuthnError) {
        let bytes = Array(derEncoded)
        do throws(CryptoError) {
            var reader = try DERReader(bytes)
            self = try reader.readSequence { (sequence) throws(CryptoError) in
                let attestationVersion = try sequence.readInt64()
                let attestationSecurityLevel = try sequence.readEnumerated()
                let keymasterVersion = try sequence.readInt64()
                let keymasterSecurityLevel = try sequence.readEnumerated()
                let challenge = try sequence.readOctetString()
                let uniqueID = try sequence.readOctetString()
                let software = try AndroidKeyAuthorizationList(reading: &sequence)
                let tee = try AndroidKeyAuthorizationList(reading: &sequence)
                return AndroidKeyDescription(
                    attestationVersion: attestationVersion,
                    attestationSecurityLevel: attestationSecurityLevel,
                    keymasterVersion: keymasterVersion,
                    keymasterSecurityLevel: keymasterSecurityLevel,
                    attestationChallenge: Array(challenge), uniqueID: Array(uniqueID),
                    softwareEnforced: software, teeEnforced: tee)
            }
            try reader.finish()
        } catch {
            throw WebAuthnError(
                .attestationCertificateInvalid, "KeyDescription: \(error.reason)",
                field: "attStmt.x5c[0].keyDescription", step: AndroidKeyAttestationVerifier.step,
                offset: error.offset)
        }
    }

    /// A description from its fields.
    package init(
        attestationVersion: Int64, attestationSecurityLevel: Int64, keymasterVersion: Int64,
        keymasterSecurityLevel: Int64, attestationChallenge: [UInt8], uniqueID: [UInt8],
        softwareEnforced: AndroidKeyAuthorizationList, teeEnforced: AndroidKeyAuthorizationList
    ) {
        self.attestationVersion = attestationVersion
        self.attestationSecurityLevel = attestationSecurityLevel
        self.keymasterVersion = keymasterVersion
        self.keymasterSecurityLevel = keymasterSecurityLevel
        self.attestationChallenge = attestationChallenge
        self.uniqueID = uniqueID
        self.softwareEnforced = softwareEnforced
        self.teeEnforced = teeEnforced
    }
}
