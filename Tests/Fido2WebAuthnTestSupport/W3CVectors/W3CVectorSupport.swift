import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnWire
import Testing

/// The tests read `webauthn-l3-test-vectors.json` through Fido2Vectors' `W3CVector`, the
/// loader `W3CWebAuthnSuite` runs; what follows only names its values for the tests.
extension W3CVector: CustomTestStringConvertible {
    package var testDescription: String { id }

    package var registration: JSONValue { json["registration"]?["values"] ?? .null }
    package var authentication: JSONValue { json["authentication"]?["values"] ?? .null }

    package func registrationBytes(_ name: String) throws -> [UInt8] {
        try bytes("registration", name)
    }

    package func authenticationBytes(_ name: String) throws -> [UInt8] {
        try bytes("authentication", name)
    }

    package static func all() throws -> [W3CVector] {
        try all(try sharedVectorJSON("webauthn-l3-test-vectors.json"))
    }

    package static func named(_ id: String) throws -> W3CVector {
        guard let vector = try all().first(where: { $0.id == id }) else {
            throw VectorShapeError(description: "no case \(id)")
        }
        return vector
    }
}
