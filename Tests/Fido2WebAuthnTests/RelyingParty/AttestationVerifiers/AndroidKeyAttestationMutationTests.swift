import Fido2Crypto
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Flipping any single bit of the statement signature or of the KeyDescription's
/// attestationChallenge in every valid `android-key` vector is rejected with the error of that
/// check.
@Suite struct AndroidKeyAttestationMutationTests {
    static let vectors: [DeviceRegistration] = {
        var vectors: [DeviceRegistration] = []
        if let w3c = try? W3CDeviceVectors.registration("android-key-es256") { vectors.append(w3c) }
        let real = (try? RealDeviceCase.all()) ?? []
        vectors += real.filter { $0.format == "android-key" && $0.expectedResult == "ok" }
            .map(\.registration)
        return vectors
    }()

    /// The W3C vector's empty authorization lists need the relaxation; the real ones do not.
    static func policy(for vector: DeviceRegistration) -> AttestationTrustPolicy {
        var policy = AttestationTrustPolicy()
        policy.androidKey.acceptsMissingOriginAndPurpose = vector.id == "android-key-es256"
        return policy
    }

    @Test func coversTheW3CVectorAndFiveRealOnes() {
        #expect(Self.vectors.count == 6)
    }

    @Test(arguments: vectors)
    func rejectsEveryBitFlipOfSignatureAndChallenge(_ vector: DeviceRegistration) throws {
        let policy = Self.policy(for: vector)
        _ = try vector.verify(policy: policy)
        guard case .androidKey(let statement) = try vector.parse().statement else {
            Issue.record("\(vector.id) is not android-key")
            return
        }
        let leaf = try #require(statement.certificates.first)
        let found = try #require(rangeOf(vector.clientDataHash, in: Array(leaf)))
        let challenge = (leaf.startIndex + found.lowerBound)..<(leaf.startIndex + found.upperBound)
        let regions: [(Range<Int>, WebAuthnError.Code)] = [
            (statement.signature.indices, .attestationSignatureInvalid),
            (challenge, .attestationNonceMismatch),
        ]
        for (range, expected) in regions {
            for index in range {
                for bit in 0..<8 {
                    let code = vector.replacing(
                        attestationObject: flippingBit(
                            vector.attestationObject, at: index, bit: bit)
                    ).failureCode(policy: policy)
                    #expect(
                        code == expected,
                        "\(vector.id): bit \(bit) of byte \(index) gave \(String(describing: code))"
                    )
                }
            }
        }
    }
}
