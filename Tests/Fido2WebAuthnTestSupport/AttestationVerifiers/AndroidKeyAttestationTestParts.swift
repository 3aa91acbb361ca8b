import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// The W3C `android-key-es256` vector taken apart: the credential key signs, and the vectors'
/// CA can issue a new leaf certificate for that key with any KeyDescription.
package struct AndroidKeyAttestationTestParts {
    package var algorithm = COSEAlgorithm.es256
    package var certificates: [[UInt8]]
    /// The signature to send; nil signs authData ‖ clientDataHash with the credential key.
    package var signature: [UInt8]?
    package let authData: ArraySlice<UInt8>
    package let clientDataHash: [UInt8]
    package let credentialKey: PrivateKey
    package let authority: TestCertificateAuthority

    package static func w3c() throws -> AndroidKeyAttestationTestParts {
        let registration = try W3CDeviceVectors.registration("android-key-es256")
        let object = try registration.parse()
        guard case .androidKey(let statement) = object.statement else {
            throw VectorShapeError(description: "android-key-es256 is not android-key")
        }
        return AndroidKeyAttestationTestParts(
            certificates: statement.certificates.map { Array($0) }, signature: nil,
            authData: object.authenticatorData.bytes, clientDataHash: registration.clientDataHash,
            credentialKey: try W3CDeviceVectors.credentialKey("android-key-es256"),
            authority: try W3CDeviceVectors.attestationAuthority())
    }

    package func attestationObject() throws -> [UInt8] {
        let sig =
            try signature
            ?? credentialKey.signature(
                for: authData, clientDataHash, algorithm: .es256, nonce: .deterministic)
        return deviceAttestationObject(
            format: "android-key",
            members: [
                ("alg", CBORValue(algorithm.rawValue)), ("sig", .byteString(sig)),
                ("x5c", .array(certificates.map { .byteString($0) })),
            ], authData: authData)
    }

    package func registration() throws -> DeviceRegistration {
        DeviceRegistration(
            id: "android-key-es256 (modified)", format: "android-key",
            attestationObject: try attestationObject(), clientDataHash: clientDataHash)
    }

    /// Replaces the leaf with one the vectors' CA issues for `subjectKey` (by default the
    /// credential key) carrying `keyDescription` (DER) when given.
    package mutating func reissueLeaf(keyDescription: [UInt8]?, subjectKey: PublicKey? = nil) throws
    {
        var builder = try authority.builder(
            subject: try DistinguishedName([.commonName("Android Keystore Key")]),
            subjectKey: try subjectKey ?? credentialKey.publicKey, serialNumber: [0x1f, 0xf9],
            notBefore: authority.certificate.notBefore, notAfter: authority.certificate.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        builder.keyUsage = [.digitalSignature]
        if let keyDescription {
            builder.additionalExtensions = [
                CertificateExtension(
                    oid: .androidKeyAttestation, isCritical: false, value: keyDescription)
            ]
        }
        certificates = [try builder.sign(with: authority.privateKey).derEncoded]
    }

    /// One AuthorizationList's fields, in ascending tag order when written.
    package struct Authorizations {
        package var purposes: [Int64]? = [2]
        package var allApplications = false
        package var origin: Int64? = 0
        /// Written as `[tag] EXPLICIT NULL` after the others (out of order when below 702).
        package var extraTags: [UInt32] = []

        /// The lists the tests start from: purpose SIGN, origin GENERATED.
        package init(
            purposes: [Int64]? = [2], allApplications: Bool = false, origin: Int64? = 0,
            extraTags: [UInt32] = []
        ) {
            self.purposes = purposes
            self.allApplications = allApplications
            self.origin = origin
            self.extraTags = extraTags
        }

        package static let empty = Authorizations(purposes: nil, origin: nil)

        package func write(to writer: inout DERWriter) throws {
            try writer.appendSequence { (list) throws in
                if let purposes {
                    try list.appendExplicit(1) { (field) throws in
                        try field.appendSet { set in
                            for purpose in purposes { set.appendInteger(purpose) }
                        }
                    }
                }
                if allApplications { list.appendExplicit(600) { $0.appendNull() } }
                if let origin { list.appendExplicit(702) { $0.appendInteger(origin) } }
                for tag in extraTags { list.appendExplicit(tag) { $0.appendNull() } }
            }
        }
    }

    /// A KeyDescription (attestation version 300, TEE security levels).
    package static func keyDescription(
        challenge: [UInt8], software: Authorizations = .empty, tee: Authorizations = .init()
    ) throws -> [UInt8] {
        var writer = DERWriter()
        var failure: (any Error)?
        writer.appendSequence { sequence in
            sequence.appendInteger(300)
            sequence.appendEnumerated(1)
            sequence.appendInteger(300)
            sequence.appendEnumerated(1)
            sequence.appendOctetString(challenge)
            sequence.appendOctetString([UInt8]())
            do {
                try software.write(to: &sequence)
                try tee.write(to: &sequence)
            } catch { failure = error }
        }
        if let failure { throw failure }
        return writer.bytes
    }
}
