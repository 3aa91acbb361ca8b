import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Flips every single bit of the signed regions of the 15 W3C assertions (authenticator data,
/// clientDataJSON and the signature) and checks that each mutation is rejected by the right
/// step of §7.2.
@Suite struct MutationAuthenticationTests {
    static let vectors: [W3CVector] = (try? W3CVector.all()) ?? []

    @Test func coversEveryAssertion() { #expect(Self.vectors.count == 15) }

    @Test(arguments: vectors)
    func everyFlippedBitIsRejectedByTheRightStep(_ vector: W3CVector) throws {
        let relyingParty = try vector.relyingParty()
        let expectations = try vector.authenticationExpectations()
        let original = try vector.authenticationResponse()
        let flags = try vector.assertionFlags().rawValue

        func verify(_ response: AuthenticationResponseJSON) throws {
            _ = try relyingParty.verifyAuthentication(response, expecting: expectations)
        }
        func step(_ number: Int) -> Set<String> { ["§7.2 step \(number)"] }
        func authDataSteps(_ offset: Int, _ bit: Int) -> Set<String> {
            let isSet = flags & (1 << bit) != 0
            switch offset {
            case 0..<32: return step(15)
            case 32:
                switch bit {
                case 0: return step(16)  // UP cleared
                case 2: return isSet ? step(17) : step(21)  // UV is required when set
                // BE lost fails step 19 (step 18 with BS set); BE gained is accepted by the
                // compatible profile, so the signature (step 21) catches the flipped bit.
                case 3: return isSet ? (flags & 0x10 != 0 ? step(18) : step(19)) : step(21)
                case 4: return !isSet && flags & 0x08 == 0 ? step(18) : step(21)  // BS
                case 6, 7: return step(7)  // AT / ED set with nothing after the counter
                default: return step(21)  // reserved bits
                }
            default: return step(21)  // signCount
            }
        }

        var run = BitFlipRun()
        let authData = original.response.authenticatorData
        run.flipEveryBit(
            of: authData, in: authData.indices, label: "authenticatorData",
            expected: { authDataSteps($1, $2) },
            verify: { (mutated) throws in
                var response = original
                response.response.authenticatorData = mutated
                try verify(response)
            })
        let signature = original.response.signature
        run.flipEveryBit(
            of: signature, in: signature.indices, label: "signature",
            expected: { _, _, _ in step(21) },
            verify: { (mutated) throws in
                var response = original
                response.response.signature = mutated
                try verify(response)
            })
        let crossOrigin = vector.json["derived"]?["cross_origin"]?.boolValue ?? false
        let oracle = MutationOracle(
            steps: .authentication, type: "webauthn.get",
            challenge: try vector.authenticationBytes("challenge"),
            origins: relyingParty.origins.allowedOrigins, allowsCrossOrigin: crossOrigin,
            topOrigins: crossOrigin ? ["https://example.com"] : [])
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
