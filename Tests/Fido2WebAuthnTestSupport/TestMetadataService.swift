@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire

/// A metadata service for tests: a root CA and an ES256 signer it certifies, signing BLOBs
/// whose entries the tests write.
package struct TestMetadataService: Sendable {
    /// 2025-07-02T00:00:00Z, inside the test PKIs' validity.
    package static let validationTime: Int64 = 1_751_414_400
    /// 2024-01-01, as the attestation test PKI.
    package static let notBefore: Int64 = 1_704_067_200
    /// 2100-01-01, as the attestation test PKI.
    package static let notAfter: Int64 = 4_102_444_800

    package let root: TestCertificateAuthority
    package let signerKey: PrivateKey
    package let signer: Certificate

    /// A new root and signer, both valid over the test PKIs' validity.
    package init() throws {
        root = try TestCertificateAuthority(
            privateKey: try PrivateKey(generating: .p256),
            subject: try DistinguishedName([.commonName("fido2kit test MDS root")]),
            serialNumber: [1], notBefore: Self.notBefore,
            notAfter: Self.notAfter)
        signerKey = try PrivateKey(generating: .p256)
        var builder = try root.builder(
            subject: try DistinguishedName([.commonName("fido2kit test MDS signer")]),
            subjectKey: try signerKey.publicKey, serialNumber: [2],
            notBefore: Self.notBefore, notAfter: Self.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        signer = try builder.sign(with: root.privateKey)
    }

    /// An entry for `aaguid` (or key identifiers) trusting `roots`, with `statuses` (latest
    /// first, one day apart).
    package static func entry(
        aaguid: AAGUID? = nil, keyIdentifiers: [String] = [], roots: [Certificate],
        statuses: [String] = ["FIDO_CERTIFIED_L1"], description: String = "Test Authenticator"
    ) -> String {
        var members: [String] = []
        if let aaguid { members.append("\"aaguid\":\"\(aaguid)\"") }
        if !keyIdentifiers.isEmpty {
            members.append(
                "\"attestationCertificateKeyIdentifiers\":["
                    + keyIdentifiers.map { "\"\($0)\"" }.joined(separator: ",") + "]")
        }
        let rootList = roots.map { "\"\(Base64.encode($0.derEncoded))\"" }.joined(separator: ",")
        members.append(
            "\"metadataStatement\":{\"description\":\"\(description)\",\"attestationTypes\":[\"basic_full\"],\"attestationRootCertificates\":[\(rootList)]}"
        )
        let reports = statuses.enumerated().map { index, status in
            "{\"status\":\"\(status)\",\"effectiveDate\":\"2025-0\(6 - min(index, 5))-01\"}"
        }
        members.append("\"statusReports\":[" + reports.joined(separator: ",") + "]")
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A compact JWS BLOB numbered `number` with `entries`, signed ES256 by ``signer``.
    package func blob(
        number: Int = 5, nextUpdate: String = "2025-08-01", entries: [String]
    ) throws
        -> [UInt8]
    {
        let header =
            "{\"alg\":\"ES256\",\"typ\":\"JWT\",\"x5c\":[\"\(Base64.encode(signer.derEncoded))\"]}"
        let payload =
            "{\"legalHeader\":\"test\",\"no\":\(number),\"nextUpdate\":\"\(nextUpdate)\",\"entries\":["
            + entries.joined(separator: ",") + "]}"
        let signingInput =
            Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let der = try signerKey.signature(for: Array(signingInput.utf8), algorithm: .es256)
        let raw = try ECDSASignature(derRepresentation: der).rawRepresentation(kind: .p256)
        return Array((signingInput + "." + Base64URL.encode(raw)).utf8)
    }

    /// ``blob(number:nextUpdate:entries:)`` verified against ``root``.
    package func verified(
        number: Int = 5, entries: [String], revocationLists: [CertificateRevocationList] = []
    ) throws -> MetadataBLOB {
        try MetadataBLOB(
            compact: try blob(number: number, entries: entries),
            options: MetadataBLOB.VerificationOptions(
                trustAnchors: [root.certificate], validationTime: Self.validationTime,
                revocationLists: revocationLists))
    }
}
