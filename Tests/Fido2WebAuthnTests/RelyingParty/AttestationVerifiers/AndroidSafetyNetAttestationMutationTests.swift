import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Flipping any single bit of the JWS payload or of the JWS signature in every valid
/// `android-safetynet` vector is rejected: as a JWS that no longer parses, or as a signature
/// that no longer verifies (the signature covers the payload's base64url text).
@Suite struct AndroidSafetyNetAttestationMutationTests {
    struct Vector: CustomTestStringConvertible, Sendable {
        let registration: DeviceRegistration
        let policy: AttestationTrustPolicy
        var testDescription: String { registration.id }
    }

    /// The valid real responses with the options their sources use (the recorded responses'
    /// timestamps are not near their pinned times; reg-064's CTS profile does not match), and
    /// one ES256 response made here.
    static let vectors: [Vector] = {
        var vectors: [Vector] = []
        let real = ((try? RealDeviceCase.all()) ?? []).filter {
            $0.format == "android-safetynet" && $0.expectedResult == "ok"
        }
        for vector in real {
            var policy = AttestationTrustPolicy(validationTime: vector.pinnedTime)
            policy.androidSafetyNet.skipsTimestampCheck = vector.id != "reg-064"
            policy.androidSafetyNet.acceptsCTSProfileMismatch = vector.id == "reg-064"
            vectors.append(Vector(registration: vector.registration, policy: policy))
        }
        if let parts = try? AndroidSafetyNetAttestationTestParts.make(),
            let registration = try? parts.registration()
        {
            vectors.append(Vector(registration: registration, policy: parts.policy))
        }
        return vectors
    }()

    @Test func coversThreeRealResponsesAndOneMadeHere() {
        #expect(Self.vectors.map(\.registration.id).prefix(3) == ["reg-012", "reg-027", "reg-064"])
        #expect(Self.vectors.count == 4)
    }

    @Test(arguments: vectors)
    func rejectsEveryBitFlipOfPayloadAndSignature(_ vector: Vector) throws {
        let registration = vector.registration
        _ = try registration.verify(policy: vector.policy)
        guard case .androidSafetyNet(let statement) = try registration.parse().statement else {
            Issue.record("\(registration.id) is not android-safetynet")
            return
        }
        let response = statement.response
        let dots = response.indices.filter { response[$0] == UInt8(ascii: ".") }
        try #require(dots.count == 2)
        let regions = [(dots[0] + 1)..<dots[1], (dots[1] + 1)..<response.endIndex]
        let expected: Set<WebAuthnError.Code> = [.attestationSignatureInvalid, .invalidJWS]
        for range in regions {
            for index in range {
                for bit in 0..<8 {
                    let code = registration.replacing(
                        attestationObject: flippingBit(
                            registration.attestationObject, at: index, bit: bit)
                    ).failureCode(policy: vector.policy)
                    guard let code, expected.contains(code) else {
                        Issue.record(
                            "\(registration.id): bit \(bit) of byte \(index) gave \(String(describing: code))"
                        )
                        continue
                    }
                }
            }
        }
    }
}
