import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Flips every single bit of the signed regions of the W3C registrations of the core formats
/// (authenticator data, clientDataJSON and the attestation signature) and checks that each
/// mutation is rejected by the right step of §7.1.
///
/// Signed regions: `packed` signs all of authData (and clientDataJSON through its hash);
/// `fido-u2f` signs rpIdHash, the credential ID and the credential public key of authData
/// (and clientDataJSON), not the flags, counter, AAGUID or ID length. `none` signs nothing, so
/// its registrations have no signed region (their assertions are mutated in
/// `MutationAuthenticationTests`). tpm's certInfo is `rp-attestation`'s.
@Suite struct MutationRegistrationTests {
    static let vectors: [W3CVector] =
        ((try? W3CVector.all()) ?? []).filter { ["packed", "fido-u2f"].contains($0.format) }

    @Test func coversEverySignedRegistration() { #expect(Self.vectors.count == 8) }

    @Test(arguments: vectors)
    func everyFlippedBitIsRejectedByTheRightStep(_ vector: W3CVector) throws {
        let relyingParty = try vector.relyingParty()
        let expectations = try vector.registrationExpectations()
        let original = try vector.registrationResponse()
        let object = try AttestationObject(bytes: original.response.attestationObject)
        let attested = try #require(object.authenticatorData.attestedCredentialData)
        let flags = object.authenticatorData.flags.rawValue
        let authData = object.authenticatorData.bytes.indices
        let idStart = authData.lowerBound + 55
        let keyStart = idStart + attested.credentialId.count

        func verify(_ response: RegistrationResponseJSON) throws {
            _ = try relyingParty.verifyRegistration(response, expecting: expectations)
        }
        func verifyObject(_ bytes: [UInt8]) throws {
            var response = original
            response.response.attestationObject = bytes
            try verify(response)
        }
        func step(_ number: Int) -> Set<String> { ["§7.1 step \(number)"] }
        func authDataSteps(_ index: Int, _ bit: Int) -> Set<String> {
            let offset = index - authData.lowerBound
            let isSet = flags & (1 << bit) != 0
            switch offset {
            case 0..<32: return step(14)
            case 32:
                switch bit {
                case 0: return step(15)  // UP cleared
                case 2: return isSet ? step(16) : step(22)  // UV is required when set
                case 3: return isSet && flags & 0x10 != 0 ? step(17) : step(22)  // BE
                case 4: return !isSet && flags & 0x08 == 0 ? step(17) : step(22)  // BS
                case 6, 7: return step(13)  // AT cleared / ED set: the layout breaks
                default: return step(22)  // reserved bits
                }
            case 33..<53: return step(22)  // signCount, AAGUID
            case 53..<55: return [13, 20, 25].reduce(into: []) { $0.formUnion(step($1)) }
            default:
                return index < keyStart
                    ? step(25)  // the credential ID is no longer rawId
                    : [13, 20, 22].reduce(into: []) { $0.formUnion(step($1)) }  // the key
            }
        }

        var run = BitFlipRun()
        let objectBytes = original.response.attestationObject
        if vector.format == "packed" {
            run.flipEveryBit(
                of: objectBytes, in: authData, label: "authData",
                expected: { authDataSteps($1, $2) }, verify: verifyObject)
        } else {
            for region in [
                authData.lowerBound..<(authData.lowerBound + 32), idStart..<authData.upperBound,
            ] {
                run.flipEveryBit(
                    of: objectBytes, in: region, label: "authData",
                    expected: { authDataSteps($1, $2) }, verify: verifyObject)
            }
        }
        let signature: ArraySlice<UInt8>
        switch object.statement {
        case .packed(let packed): signature = packed.signature
        case .fidoU2F(let u2f): signature = u2f.signature
        default: throw VectorShapeError(description: "\(vector.id) is not packed or fido-u2f")
        }
        run.flipEveryBit(
            of: objectBytes, in: signature.indices, label: "attStmt.sig",
            expected: { _, _, _ in step(22) }, verify: verifyObject)

        let oracle = MutationOracle(
            steps: .registration, type: "webauthn.create",
            challenge: try vector.registrationBytes("challenge"),
            origins: relyingParty.origins.allowedOrigins, allowsCrossOrigin: false, topOrigins: [])
        let clientDataJSON = original.response.clientDataJSON
        run.flipEveryBit(
            of: clientDataJSON, in: clientDataJSON.indices, label: "clientDataJSON",
            expected: { mutated, _, _ in [oracle.step(forClientData: mutated)] },
            verify: { (mutated) throws in
                var response = original
                response.response.clientDataJSON = mutated
                try verify(response)
            })
        run.report(vector.id)
    }
}
