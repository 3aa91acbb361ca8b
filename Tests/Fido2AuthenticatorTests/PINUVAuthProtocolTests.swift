import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// PIN/UV auth protocols one and two beyond the W3C prf vectors (which Fido2Vectors' PRFSuite
/// runs): each authenticates with its own key and code length, and refuses what it cannot use.
struct PINUVAuthProtocolTests {
    @Test func protocolsAuthenticateWithTheirOwnKeyAndLength() throws {
        let one = [UInt8](repeating: 1, count: 32)
        let two = [UInt8](repeating: 2, count: 64)
        #expect(try PINUVAuthProtocol.one.authenticate([1, 2, 3], sharedSecret: one).count == 16)
        let code = try PINUVAuthProtocol.two.authenticate([1, 2, 3], sharedSecret: two)
        #expect(
            code == (try HMAC.authenticationCode(for: [1, 2, 3] as [UInt8], key: two.prefix(32))))
        #expect(throws: AuthenticatorError.self) {
            try PINUVAuthProtocol.one.authenticate([], sharedSecret: two)
        }
        #expect(throws: AuthenticatorError.self) {
            try PINUVAuthProtocol.two.encrypt([0], sharedSecret: two, iv: one.prefix(16).map { $0 })
        }
        #expect(throws: AuthenticatorError.self) {
            try PINUVAuthProtocol.two.decrypt([1, 2], sharedSecret: two)
        }
        #expect(throws: AuthenticatorError.self) {
            try PRFEvaluation.output(credentialRandom: one, salt: [1])
        }
        #expect(throws: AuthenticatorError.self) {
            try PRFEvaluation.output(credentialRandom: [], salt: one)
        }
    }
}
