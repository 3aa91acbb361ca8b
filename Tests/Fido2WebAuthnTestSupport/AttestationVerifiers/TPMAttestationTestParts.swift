import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// The W3C `tpm-es256` vector taken apart, so that a test can change one piece, re-sign what
/// must stay signed (the AIK key and the vectors' CA key are published) and write a new
/// attestation object.
package struct TPMAttestationTestParts {
    package var algorithm = COSEAlgorithm.es256
    package var version = "2.0"
    package var certificates: [[UInt8]]
    package var pubArea: [UInt8]
    package var certInfo: CertInfo
    /// The signature to send; nil signs `certInfo` with the AIK key.
    package var signature: [UInt8]?
    package let authData: ArraySlice<UInt8>
    package let clientDataHash: [UInt8]
    package let aikKey: PrivateKey
    package let authority: TestCertificateAuthority

    /// The fields of a TPMS_ATTEST with TPMS_CERTIFY_INFO, in encoding order.
    package struct CertInfo {
        package var magic: UInt32
        package var type: UInt16
        package var qualifiedSigner: [UInt8]
        package var extraData: [UInt8]
        package var clock: UInt64
        package var resetCount: UInt32
        package var restartCount: UInt32
        package var safe: UInt8
        package var firmwareVersion: UInt64
        package var name: [UInt8]
        package var qualifiedName: [UInt8]

        package init(_ parsed: TPMSAttest) throws {
            magic = parsed.magic
            type = parsed.type
            qualifiedSigner = Array(parsed.qualifiedSigner)
            extraData = Array(parsed.extraData)
            clock = parsed.clockInfo.clock
            resetCount = parsed.clockInfo.resetCount
            restartCount = parsed.clockInfo.restartCount
            safe = parsed.clockInfo.safe
            firmwareVersion = parsed.firmwareVersion
            name = Array(try #require(parsed.attestedName))
            qualifiedName = Array(try #require(parsed.attestedQualifiedName))
        }

        package var encoded: [UInt8] {
            var out: [UInt8] = []
            func integer<T: FixedWidthInteger>(_ value: T) {
                for shift in stride(from: T.bitWidth - 8, through: 0, by: -8) {
                    out.append(UInt8(truncatingIfNeeded: value >> shift))
                }
            }
            func sized(_ bytes: [UInt8]) {
                integer(UInt16(bytes.count))
                out += bytes
            }
            integer(magic)
            integer(type)
            sized(qualifiedSigner)
            sized(extraData)
            integer(clock)
            integer(resetCount)
            integer(restartCount)
            out.append(safe)
            integer(firmwareVersion)
            sized(name)
            sized(qualifiedName)
            return out
        }
    }

    package static func w3c() throws -> TPMAttestationTestParts {
        let registration = try W3CDeviceVectors.registration("tpm-es256")
        let object = try registration.parse()
        guard case .tpm(let statement) = object.statement else {
            throw VectorShapeError(description: "tpm-es256 is not tpm")
        }
        return TPMAttestationTestParts(
            certificates: statement.certificates.map { Array($0) },
            pubArea: Array(statement.pubArea.bytes), certInfo: try CertInfo(statement.certInfo),
            signature: nil, authData: object.authenticatorData.bytes,
            clientDataHash: registration.clientDataHash,
            aikKey: try W3CDeviceVectors.attestationKey("tpm-es256"),
            authority: try W3CDeviceVectors.attestationAuthority())
    }

    /// The attestation object, `sig` made by the AIK key over `certInfo` unless given.
    package func attestationObject() throws -> [UInt8] {
        let info = certInfo.encoded
        let sig =
            try signature
            ?? aikKey.signature(for: info, algorithm: .es256, nonce: .deterministic)
        return deviceAttestationObject(
            format: "tpm",
            members: [
                ("alg", CBORValue(algorithm.rawValue)), ("sig", .byteString(sig)),
                ("ver", .textString(version)),
                ("x5c", .array(certificates.map { .byteString($0) })),
                ("pubArea", .byteString(pubArea)), ("certInfo", .byteString(info)),
            ], authData: authData)
    }

    package func registration() throws -> DeviceRegistration {
        DeviceRegistration(
            id: "tpm-es256 (modified)", format: "tpm", attestationObject: try attestationObject(),
            clientDataHash: clientDataHash)
    }

    /// Replaces the AIK certificate with one the vectors' CA issues for the same key, built
    /// like the vector's and then changed by `change`.
    package mutating func reissueAIKCertificate(
        _ change: (inout CertificateBuilder, inout AIKNames) throws -> Void
    ) throws {
        var builder = try authority.builder(
            subject: try DistinguishedName([]), subjectKey: try aikKey.publicKey,
            serialNumber: [0x31, 0x1f], notBefore: authority.certificate.notBefore,
            notAfter: authority.certificate.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.keyUsage = [.digitalSignature]
        var names = AIKNames()
        try change(&builder, &names)
        builder.additionalExtensions += try names.extensions()
        certificates = [try builder.sign(with: authority.privateKey).derEncoded]
    }

    /// The subjectAltName and extendedKeyUsage of an AIK certificate.
    package struct AIKNames {
        package var attributes: [(ASN1ObjectIdentifier, String)] = [
            (.tcgTPMManufacturer, "id:00000000"), (.tcgTPMModel, "WebAuthn test vectors"),
            (.tcgTPMVersion, "id:00000000"),
        ]
        package var subjectAltNameIsCritical = true
        package var includesSubjectAltName = true
        package var purposes: [ASN1ObjectIdentifier]? = [.tcgKPAIKCertificate]

        package func extensions() throws -> [CertificateExtension] {
            var list: [CertificateExtension] = []
            if let purposes {
                var writer = DERWriter()
                writer.appendSequence { sequence in
                    for purpose in purposes { sequence.appendObjectIdentifier(purpose) }
                }
                list.append(
                    CertificateExtension(
                        oid: .extendedKeyUsage, isCritical: false, value: writer.bytes))
            }
            if includesSubjectAltName {
                let name = try DistinguishedName(
                    attributes.map { try DistinguishedName.Attribute(type: $0.0, value: $0.1) })
                var writer = DERWriter()
                try writer.appendSequence { (sequence) throws in
                    try sequence.appendExplicit(4) { (entry) throws in
                        try entry.appendEncoded(name.derEncoded)
                    }
                }
                list.append(
                    CertificateExtension(
                        oid: .subjectAltName, isCritical: subjectAltNameIsCritical,
                        value: writer.bytes))
            }
            return list
        }
    }
}
