import Fido2Crypto
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Flipping any single bit of `certInfo`, `pubArea` or `sig` in every valid `tpm` vector (the
/// W3C one and the real TPMs) is rejected, and the error names the check the changed field
/// feeds.
@Suite struct TPMAttestationMutationTests {
    static let vectors: [DeviceRegistration] = {
        var vectors: [DeviceRegistration] = []
        if let w3c = try? W3CDeviceVectors.registration("tpm-es256") { vectors.append(w3c) }
        let real = (try? RealDeviceCase.all()) ?? []
        vectors += real.filter { $0.format == "tpm" && $0.expectedResult == "ok" }
            .map(\.registration)
        return vectors
    }()

    @Test func coversTheW3CVectorAndThirteenRealTPMs() {
        #expect(Self.vectors.count == 14)
    }

    /// What a flipped bit at each byte of `certInfo` must be rejected as; nil where any
    /// rejection will do (the 16-bit sizes, which shift every later field).
    static func expectedCodes(
        for certInfo: TPMSAttest
    ) -> [(range: Range<Int>, codes: Set<WebAuthnError.Code>?)] {
        let start = certInfo.bytes.startIndex
        var layout: [(Int, Set<WebAuthnError.Code>?)] = [
            (4, [.invalidTPMStructure]), (2, [.invalidTPMStructure]),
            (2, nil), (certInfo.qualifiedSigner.count, [.attestationSignatureInvalid]),
            (2, nil), (certInfo.extraData.count, [.attestationNonceMismatch]),
            (17 + 8, [.attestationSignatureInvalid]),
            (2, nil), (certInfo.attestedName?.count ?? 0, [.attestationKeyMismatch]),
            (2, nil),
            (certInfo.attestedQualifiedName?.count ?? 0, [.attestationSignatureInvalid]),
        ]
        layout.removeAll { $0.0 == 0 }
        var offset = start
        return layout.map { length, codes in
            defer { offset += length }
            return (offset..<(offset + length), codes)
        }
    }

    @Test(arguments: vectors)
    func rejectsEveryBitFlipOfCertInfoPubAreaAndSignature(_ vector: DeviceRegistration) throws {
        let policy = AttestationTrustPolicy()
        _ = try vector.verify(policy: policy)
        guard case .tpm(let statement) = try vector.parse().statement else {
            Issue.record("\(vector.id) is not tpm")
            return
        }
        var regions = Self.expectedCodes(for: statement.certInfo)
        #expect(regions.last?.range.upperBound == statement.certInfo.bytes.endIndex)
        // Any change to pubArea changes its name; it is rejected as not the credential key, or
        // earlier as a structure that does not parse.
        regions.append(
            (
                statement.pubArea.bytes.indices,
                [.attestationKeyMismatch, .invalidTPMStructure, .truncated, .trailingBytes]
            ))
        regions.append((statement.signature.indices, [.attestationSignatureInvalid]))
        var flips = 0
        for (range, codes) in regions {
            for index in range {
                for bit in 0..<8 {
                    let mutated = vector.replacing(
                        attestationObject: flippingBit(
                            vector.attestationObject, at: index, bit: bit))
                    let code = mutated.failureCode(policy: policy)
                    flips += 1
                    guard let code else {
                        Issue.record("\(vector.id): flipping bit \(bit) of byte \(index) verifies")
                        continue
                    }
                    if let codes, !codes.contains(code) {
                        Issue.record(
                            "\(vector.id): bit \(bit) of byte \(index) gives \(code), expected one of \(codes)"
                        )
                    }
                }
            }
        }
        #expect(
            flips
                == 8
                * (statement.certInfo.bytes.count + statement.pubArea.bytes.count
                    + statement.signature.count))
    }
}
