import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension TPMAttestationVerifier {
    /// Checks the AIK certificate requirements of WebAuthn §8.3.1 and the AAGUID extension.
    ///
    /// - Version 3.
    /// - An empty subject.
    /// - A subjectAltName marked critical (TPMv2 EK profile §3.2.9: critical because the subject
    ///   is empty) whose directoryName entries hold tcg-at-tpmManufacturer (`id:` and eight hex
    ///   digits, the TCG vendor ID), tcg-at-tpmModel and tcg-at-tpmVersion, each exactly once
    ///   and as non-empty text. The manufacturer is not checked against the TCG vendor
    ///   registry (the W3C test vector uses `id:00000000`); a relying party that keeps a vendor
    ///   list reads the SAN itself.
    /// - An extendedKeyUsage containing tcg-kp-AIKCertificate (2.23.133.8.3).
    /// - A basicConstraints extension with cA false (absent reads as an end-entity certificate
    ///   under the compatible profile, and is returned as a deviation).
    /// - When the FIDO AAGUID extension (1.3.6.1.4.1.45724.1.1.4) is present, its value equals
    ///   `aaguid`, the authenticator data's.
    ///
    /// - Throws: `attestationCertificateInvalid` naming the requirement;
    ///   `attestationAAGUIDMismatch` for the AAGUID.
    static func checkAIKCertificate(
        _ aik: Certificate, aaguid: AAGUID?, in context: AttestationVerificationContext
    ) throws(WebAuthnError) -> [ToleratedDeviation] {
        func invalid(_ reason: String) -> WebAuthnError {
            WebAuthnError(
                .attestationCertificateInvalid, "AIK certificate: \(reason)",
                field: "attStmt.x5c[0]", step: certificateStep)
        }
        guard aik.version == 3 else { throw invalid("version is \(aik.version), not 3") }
        guard aik.subject.isEmpty else { throw invalid("subject is not empty (\(aik.subject))") }
        guard let extensionEntry = aik.findExtension(.subjectAltName),
            let names = aik.subjectAlternativeNames
        else { throw invalid("subjectAltName is missing") }
        guard extensionEntry.isCritical else {
            throw invalid("subjectAltName is not critical although the subject is empty")
        }
        var attributes: [DistinguishedName.Attribute] = []
        for case .directoryName(let name) in names { attributes += name.attributes }
        func tpmAttribute(
            _ type: ASN1ObjectIdentifier, _ label: String
        ) throws(WebAuthnError)
            -> String
        {
            let matches = attributes.filter { $0.type == type }
            guard matches.count == 1, let value = matches[0].value, !value.isEmpty else {
                throw invalid(
                    "subjectAltName needs exactly one text \(label) (\(type)), found \(matches.count)"
                )
            }
            return value
        }
        let manufacturer = try tpmAttribute(.tcgTPMManufacturer, "tpmManufacturer")
        _ = try tpmAttribute(.tcgTPMModel, "tpmModel")
        _ = try tpmAttribute(.tcgTPMVersion, "tpmVersion")
        guard isVendorID(manufacturer) else {
            throw invalid("tpmManufacturer \"\(manufacturer)\" is not id: and eight hex digits")
        }
        guard let purposes = aik.extendedKeyUsage, purposes.contains(.tcgKPAIKCertificate) else {
            throw invalid("extendedKeyUsage lacks tcg-kp-AIKCertificate (2.23.133.8.3)")
        }
        var deviations: [ToleratedDeviation] = []
        if let constraints = aik.basicConstraints {
            guard !constraints.isCertificateAuthority else {
                throw invalid("basicConstraints says cA")
            }
        } else {
            deviations.append(
                try context.missingBasicConstraints(
                    field: "attStmt.x5c[0]", prefix: "AIK certificate: ", step: certificateStep))
        }
        if let certified = aik.fidoAAGUID {
            guard let aaguid, certified.elementsEqual(aaguid.bytes) else {
                throw WebAuthnError(
                    .attestationAAGUIDMismatch,
                    "the AIK certificate's AAGUID extension (1.3.6.1.4.1.45724.1.1.4) differs from authenticatorData's AAGUID",
                    field: "attStmt.x5c[0]", step: step)
            }
        }
        return deviations
    }

    /// Whether `text` is a TCG vendor ID as the EK profile writes it: `id:` and eight hex digits.
    static func isVendorID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 11, bytes.starts(with: Array("id:".utf8)) else { return false }
        return bytes[3...].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
                UInt8(ascii: "A")...UInt8(ascii: "F"):
                true
            default: false
            }
        }
    }
}
