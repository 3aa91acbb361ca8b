import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
@_spi(Fido2Internals) import Fido2WebAuthn
@_spi(Fido2Internals) import Fido2WebAuthnWire
import Testing

/// The device format verifiers (`tpm`, `android-key`, `android-safetynet`, `apple`), called
/// through the `AttestationFormatVerifier` protocol.
package enum DeviceVerifiers {
    package static let all: [any AttestationFormatVerifier.Type] = [
        TPMAttestationVerifier.self, AndroidKeyAttestationVerifier.self,
        AndroidSafetyNetAttestationVerifier.self, AppleAttestationVerifier.self,
    ]

    package static func verifier(for format: String) -> (any AttestationFormatVerifier.Type)? {
        all.first { $0.format == format }
    }
}

/// An attestation object and the hash of its client data: what a device format verifier
/// needs besides the policy.
package struct DeviceRegistration: CustomTestStringConvertible, Sendable {
    package let id: String
    package let format: String
    package let attestationObject: [UInt8]
    package let clientDataHash: [UInt8]

    package var testDescription: String { id }

    package init(
        id: String, format: String, attestationObject: [UInt8], clientDataJSON: [UInt8]
    ) throws {
        self.id = id
        self.format = format
        self.attestationObject = attestationObject
        self.clientDataHash = DigestAlgorithm.sha256.hash(clientDataJSON)
    }

    package init(id: String, format: String, attestationObject: [UInt8], clientDataHash: [UInt8]) {
        self.id = id
        self.format = format
        self.attestationObject = attestationObject
        self.clientDataHash = clientDataHash
    }

    /// The same registration with other attestation object bytes.
    package func replacing(attestationObject bytes: [UInt8]) -> DeviceRegistration {
        DeviceRegistration(
            id: id, format: format, attestationObject: bytes, clientDataHash: clientDataHash)
    }

    /// Parses the attestation object: strictly, or (for the FIDO conformance tool's objects,
    /// whose map keys are not in canonical order) without the key-order rule.
    package func parse() throws -> AttestationObject {
        do {
            return try AttestationObject(bytes: attestationObject)
        } catch let error as WebAuthnError where error.code == .malformedCBOR {
            var relaxed = CBORDecodingOptions.strict
            relaxed.checks.remove(.canonicalKeyOrder)
            return try AttestationObject(bytes: attestationObject, options: relaxed)
        }
    }

    /// The verification context for `object` under `policy`, read with `profile`.
    package func context(
        _ object: AttestationObject, policy: AttestationTrustPolicy,
        profile: VerificationProfile = .compatible
    ) throws -> AttestationVerificationContext {
        let key = try #require(object.authenticatorData.attestedCredentialData?.credentialPublicKey)
        return AttestationVerificationContext(
            authenticatorData: object.authenticatorData, clientDataHash: clientDataHash,
            credentialPublicKey: key, policy: policy, profile: profile)
    }

    /// Parses and verifies through the protocol of the statement's format.
    package func verify(
        policy: AttestationTrustPolicy, profile: VerificationProfile = .compatible
    ) throws -> AttestationVerificationResult {
        let object = try parse()
        let verifier = try #require(DeviceVerifiers.verifier(for: object.format), "\(id)")
        return try verifier.verify(
            object.statement, in: try context(object, policy: policy, profile: profile))
    }

    /// The error `verify(policy:)` throws, or nil (recorded as an issue) when it verifies.
    package func failure(
        policy: AttestationTrustPolicy, profile: VerificationProfile = .compatible,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> WebAuthnError? {
        do {
            let result = try verify(policy: policy, profile: profile)
            Issue.record("\(id) verified: \(result.trustPath)", sourceLocation: sourceLocation)
            return nil
        } catch let error as WebAuthnError {
            return error
        } catch {
            Issue.record("\(id): not a WebAuthnError: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// The code `verify(policy:)` throws with this attestation object, or nil when it verifies
    /// (no issue recorded: for mutation loops that report the byte themselves).
    package func failureCode(policy: AttestationTrustPolicy) -> WebAuthnError.Code? {
        do {
            _ = try verify(policy: policy)
            return nil
        } catch let error as WebAuthnError {
            return error.code
        } catch {
            return WebAuthnError.Code.invalidValue
        }
    }
}

// MARK: W3C vectors

/// The W3C WebAuthn Level 3 test vectors of the device formats, with their attestation root,
/// read once.
package enum W3CDeviceVectors {
    private static let cached: JSONValue? = try? sharedVectorJSON("webauthn-l3-test-vectors.json")

    /// The vector file (read once; when it cannot be read, the error of reading it again).
    package static func document() throws -> JSONValue {
        if let cached { return cached }
        return try sharedVectorJSON("webauthn-l3-test-vectors.json")
    }

    package static func registrationValues(_ id: String) throws -> JSONValue {
        guard
            let vector = try document().array("cases").first(where: {
                $0["id"]?.stringValue == id
            })
        else { throw VectorShapeError(description: "no case \(id)") }
        return try vector.member("registration.values")
    }

    package static func registration(_ id: String) throws -> DeviceRegistration {
        let values = try registrationValues(id)
        let object = try values.hexBytes("attestationObject")
        return try DeviceRegistration(
            id: id, format: try AttestationObject(bytes: object).format,
            attestationObject: object, clientDataJSON: try values.hexBytes("clientDataJSON"))
    }

    /// The P-256 attestation private key of a vector (the TPM AIK key for `tpm-es256`).
    package static func attestationKey(_ id: String) throws -> PrivateKey {
        try PrivateKey(
            rawScalar: try registrationValues(id).hexBytes("attestation_private_key"),
            kind: .p256)
    }

    /// The P-256 credential private key of a vector.
    package static func credentialKey(_ id: String) throws -> PrivateKey {
        try PrivateKey(
            rawScalar: try registrationValues(id).hexBytes("credential_private_key"), kind: .p256)
    }

    /// The vectors' attestation root CA certificate.
    package static func attestationRoot() throws -> Certificate {
        try Certificate(
            derEncoded: try document().hexBytes(
                "attestation_root.values.attestation_ca_cert"))
    }

    /// The vectors' attestation root CA as a test CA (its private key is published).
    package static func attestationAuthority() throws -> TestCertificateAuthority {
        let key = try PrivateKey(
            rawScalar: try document().hexBytes("attestation_root.values.attestation_ca_key"),
            kind: .p256)
        return try TestCertificateAuthority(privateKey: key, certificate: try attestationRoot())
    }

    /// A policy trusting the vectors' root for `format`, a day after the root's notBefore.
    package static func policy(for format: String) throws -> AttestationTrustPolicy {
        let root = try attestationRoot()
        return AttestationTrustPolicy(
            anchors: [format: [root]], validationTime: root.notBefore + 86_400)
    }
}

// MARK: Real registrations

/// A case of `real-registrations.json` in a device format.
package struct RealDeviceCase: CustomTestStringConvertible, Sendable {
    package let registration: DeviceRegistration
    package let expectedResult: String
    package let pinnedTime: Int64?

    package var id: String { registration.id }
    package var format: String { registration.format }
    package var testDescription: String { id }

    package static let formats: Set<String> = ["tpm", "android-key", "android-safetynet", "apple"]

    private static let cached: [RealDeviceCase]? = try? load()

    /// Every case in a device format (read once; when the file cannot be read, the error of
    /// reading it again).
    package static func all() throws -> [RealDeviceCase] {
        if let cached { return cached }
        return try load()
    }

    private static func load() throws -> [RealDeviceCase] {
        try sharedVectorJSON("real-registrations.json").array().compactMap { item in
            let format = try item.string("format")
            guard formats.contains(format) else { return nil }
            let registration = try DeviceRegistration(
                id: try item.string("case_id"), format: format,
                attestationObject: try Base64URL.decode(
                    try item.string("credential.response.attestationObject")),
                clientDataJSON: try Base64URL.decode(
                    try item.string("credential.response.clientDataJSON")))
            let pinned = item["source_pinned_validation_time"]?.stringValue
            return RealDeviceCase(
                registration: registration, expectedResult: try item.string("expected_result"),
                pinnedTime: try pinned.map { text in
                    guard let seconds = ISO8601Time.seconds(text) else {
                        throw VectorShapeError(description: "bad time \(text)")
                    }
                    return seconds
                })
        }
    }

    package static func named(_ id: String) throws -> RealDeviceCase {
        guard let found = try all().first(where: { $0.id == id }) else {
            throw VectorShapeError(description: "no case \(id)")
        }
        return found
    }

    /// The statement's certificate chain (for SafetyNet, the JWS header's).
    package func chain() throws -> [Certificate] {
        switch try registration.parse().statement {
        case .tpm(let statement): try statement.certificates.map { try Certificate(derEncoded: $0) }
        case .androidKey(let statement):
            try statement.certificates.map { try Certificate(derEncoded: $0) }
        case .apple(let statement):
            try statement.certificates.map { try Certificate(derEncoded: $0) }
        case .androidSafetyNet(let statement):
            try statement.jws.certificates.map { try Certificate(derEncoded: $0) }
        default: throw VectorShapeError(description: "\(id) is not a device format")
        }
    }

    /// A time inside every certificate of the chain: the middle of their common validity.
    package func timeInsideChainValidity() throws -> Int64 {
        let chain = try chain()
        let start = chain.map(\.notBefore).max() ?? 0
        let end = chain.map(\.notAfter).min() ?? 0
        guard start <= end else { throw VectorShapeError(description: "\(id): no common validity") }
        return start + (end - start) / 2
    }
}

// MARK: Building statements

/// Writes an attestation object `{fmt, attStmt, authData}` whose statement has `members` in
/// the order given (give them in CTAP2 canonical order to parse strictly).
package func deviceAttestationObject(
    format: String, members: [(String, CBORValue)], authData: ArraySlice<UInt8>
) -> [UInt8] {
    let statement = CBORMap(members.map { CBORMap.Entry(key: .textString($0.0), value: $0.1) })
    let object: CBORMap = [
        .textString("fmt"): .textString(format), .textString("attStmt"): .map(statement),
        .textString("authData"): .byteString(Array(authData)),
    ]
    return CBORValue.map(object).encoded()
}

/// Flips bit `bit` of byte `index`.
package func flippingBit(_ bytes: [UInt8], at index: Int, bit: Int) -> [UInt8] {
    var copy = bytes
    copy[index] ^= UInt8(1) << UInt8(bit)
    return copy
}

/// The indices of the first occurrence of `needle` in `haystack`.
package func rangeOf(_ needle: [UInt8], in haystack: [UInt8]) -> Range<Int>? {
    guard !needle.isEmpty, needle.count <= haystack.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
        return start..<(start + needle.count)
    }
    return nil
}
