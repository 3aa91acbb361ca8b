import Fido2Crypto
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Flipping any single bit of the nonce in credCert's extension 1.2.840.113635.100.8.2 in every
/// valid `apple` vector is rejected as a nonce mismatch.
@Suite struct AppleAttestationMutationTests {
    static let vectors: [DeviceRegistration] = {
        var vectors: [DeviceRegistration] = []
        if let w3c = try? W3CDeviceVectors.registration("apple-es256") { vectors.append(w3c) }
        let real = (try? RealDeviceCase.all()) ?? []
        vectors += real.filter { $0.format == "apple" }.map(\.registration)
        return vectors
    }()

    @Test func coversTheW3CVectorAndTwoRealOnes() {
        #expect(Self.vectors.count == 3)
    }

    @Test(arguments: vectors)
    func rejectsEveryBitFlipOfTheNonce(_ vector: DeviceRegistration) throws {
        let policy = AttestationTrustPolicy()
        _ = try vector.verify(policy: policy)
        let object = try vector.parse()
        guard case .apple(let statement) = object.statement else {
            Issue.record("\(vector.id) is not apple")
            return
        }
        let nonce = DigestAlgorithm.sha256.hash(
            object.authenticatorData.bytes, vector.clientDataHash)
        let credCert = try #require(statement.certificates.first)
        let found = try #require(rangeOf(nonce, in: Array(credCert)))
        for index
            in (credCert.startIndex + found.lowerBound)..<(credCert.startIndex + found.upperBound)
        {
            for bit in 0..<8 {
                let code = vector.replacing(
                    attestationObject: flippingBit(vector.attestationObject, at: index, bit: bit)
                ).failureCode(policy: policy)
                #expect(
                    code == .attestationNonceMismatch,
                    "\(vector.id): bit \(bit) of byte \(index) gave \(String(describing: code))")
            }
        }
    }
}
