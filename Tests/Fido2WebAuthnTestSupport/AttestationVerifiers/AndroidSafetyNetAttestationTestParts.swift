import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// A SafetyNet response made here: the W3C `apple-es256` registration's authenticator data and
/// client data hash, a JWS signed by a key whose `attest.android.com` certificate the W3C
/// vectors' CA issues, and a payload any test may change.
package struct AndroidSafetyNetAttestationTestParts {
    package var version = "212621037"
    package var algorithm = "ES256"
    package var certificates: [[UInt8]]
    package var includesCertificates = true
    package var payload: JSONObject
    /// The signature to send; nil signs `header.payload` with `signingKey`.
    package var signature: [UInt8]?
    package let signingKey: PrivateKey
    package let authData: ArraySlice<UInt8>
    package let clientDataHash: [UInt8]
    package let authority: TestCertificateAuthority

    /// The validation time these parts are made for: a day into the CA's validity.
    package var validationTime: Int64 { authority.certificate.notBefore + 86_400 }

    /// A policy trusting the W3C CA for `android-safetynet` at ``validationTime``.
    package var policy: AttestationTrustPolicy {
        AttestationTrustPolicy(
            anchors: ["android-safetynet": [authority.certificate]],
            validationTime: validationTime)
    }

    package static let rsaKey: PrivateKey? = try? PrivateKey(generating: .rsa(modulusBits: 2048))

    package static func make(rsa: Bool = false) throws -> AndroidSafetyNetAttestationTestParts {
        let registration = try W3CDeviceVectors.registration("apple-es256")
        let object = try registration.parse()
        let key = rsa ? try #require(rsaKey) : try PrivateKey(generating: .p256)
        var parts = AndroidSafetyNetAttestationTestParts(
            algorithm: rsa ? "RS256" : "ES256", certificates: [], payload: JSONObject(),
            signature: nil, signingKey: key, authData: object.authenticatorData.bytes,
            clientDataHash: registration.clientDataHash,
            authority: try W3CDeviceVectors.attestationAuthority())
        try parts.reissueLeaf(subject: [.commonName("attest.android.com")])
        parts.payload = [
            "nonce": .string(Base64.encode(try parts.expectedNonce)),
            "timestampMs": .number(JSONNumber(parts.validationTime * 1000)),
            "apkPackageName": .string("com.google.android.gms"),
            "ctsProfileMatch": .bool(true), "basicIntegrity": .bool(true),
        ]
        return parts
    }

    /// Sets payload member `name` to `value`, in place when it exists.
    package mutating func setPayload(_ name: String, _ value: JSONValue) {
        if let index = payload.members.firstIndex(where: { $0.name == name }) {
            payload.members[index].value = value
        } else {
            payload.append(name, value)
        }
    }

    package var expectedNonce: [UInt8] {
        get throws { DigestAlgorithm.sha256.hash(authData, clientDataHash) }
    }

    /// Replaces the signing certificate with one for `subject` (and `dnsNames`, when given).
    package mutating func reissueLeaf(
        subject: [DistinguishedName.Attribute], dnsNames: [String] = []
    ) throws {
        var builder = try authority.builder(
            subject: try DistinguishedName(subject), subjectKey: try signingKey.publicKey,
            serialNumber: [0x5a, 0xfe], notBefore: authority.certificate.notBefore,
            notAfter: authority.certificate.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.keyUsage = [.digitalSignature]
        if !dnsNames.isEmpty {
            var writer = DERWriter()
            writer.appendSequence { names in
                for name in dnsNames {
                    names.appendElement(
                        .contextSpecific(2, constructed: false), contents: Array(name.utf8))
                }
            }
            builder.additionalExtensions = [
                CertificateExtension(oid: .subjectAltName, isCritical: false, value: writer.bytes)
            ]
        }
        certificates = [try builder.sign(with: authority.privateKey).derEncoded]
    }

    /// The compact JWS.
    package func response() throws -> [UInt8] {
        var header: JSONObject = ["alg": .string(algorithm)]
        if includesCertificates {
            header.append("x5c", .array(certificates.map { .string(Base64.encode($0)) }))
        }
        let signingInput =
            Base64URL.encode(JSONValue.object(header).serialized()) + "."
            + Base64URL.encode(JSONValue.object(payload).serialized())
        let sig: [UInt8]
        if let signature {
            sig = signature
        } else if signingKey.kind.isRSA {
            sig = try signingKey.signature(for: Array(signingInput.utf8), algorithm: .rs256)
        } else {
            let der = try signingKey.signature(for: Array(signingInput.utf8), algorithm: .es256)
            sig = try ECDSASignature(derRepresentation: der).rawRepresentation(kind: .p256)
        }
        return Array((signingInput + "." + Base64URL.encode(sig)).utf8)
    }

    package func registration() throws -> DeviceRegistration {
        DeviceRegistration(
            id: "android-safetynet (made here)", format: "android-safetynet",
            attestationObject: deviceAttestationObject(
                format: "android-safetynet",
                members: [
                    ("ver", .textString(version)), ("response", .byteString(try response())),
                ],
                authData: authData),
            clientDataHash: clientDataHash)
    }
}
