import Fido2CBOR
import Fido2Encoding

/// An `android-safetynet` attestation statement (WebAuthn §8.5): `{ver, response}`, where
/// `response` is a compact JWS from the SafetyNet API whose payload's `nonce` is
/// base64(SHA-256(authenticatorData ‖ clientDataHash)). Parsed here; verified by the relying
/// party.
public struct AndroidSafetyNetAttestationStatement: Sendable, Equatable {
    /// `ver`: the Google Play Services version that answered.
    public let version: String
    /// `response`: the JWS bytes as sent.
    public let response: ArraySlice<UInt8>
    /// The JWS, decoded.
    package let jws: CompactJWS

    /// The payload's `nonce` (standard base64 text).
    public var nonce: String? { jws.payload["nonce"]?.stringValue }
    /// The payload's `timestampMs`.
    public var timestampMs: Int64? { jws.payload["timestampMs"]?.int64Value }
    /// The payload's `ctsProfileMatch`.
    public var ctsProfileMatch: Bool? { jws.payload["ctsProfileMatch"]?.boolValue }
    /// The payload's `basicIntegrity`.
    public var basicIntegrity: Bool? { jws.payload["basicIntegrity"]?.boolValue }
    /// The payload's `apkPackageName`.
    public var apkPackageName: String? { jws.payload["apkPackageName"]?.stringValue }

    init(
        reading encoded: ArraySlice<UInt8>, options: CBORDecodingOptions, base: Int
    )
        throws(WebAuthnError)
    {
        var map = try StatementMapReader(
            encoded, format: "android-safetynet", options: options, base: base)
        var version: String?
        var response: ArraySlice<UInt8>?
        try map.members { (map, name) throws(WebAuthnError) in
            switch name {
            case "ver": version = try map.text(name)
            case "response": response = try map.bytes(name)
            default: return false
            }
            return true
        }
        guard let version else { throw map.missing("ver") }
        guard let response else { throw map.missing("response") }
        self.version = version
        self.response = response
        self.jws = try withinField("attStmt.response") { () throws(WebAuthnError) in
            try CompactJWS(compact: response)
        }
    }

    var encodedCount: Int {
        1 + StatementSize.text(3) + StatementSize.text(version.utf8.count)
            + StatementSize.text(8) + StatementSize.bytes(response.count)
    }

    func write<Output: CBOROutput>(to writer: inout Output) {
        writer.writeMapHeader(count: 2)
        writer.writeTextLiteral("ver")
        writer.writeTextString(version)
        writer.writeTextLiteral("response")
        writer.writeByteString(response)
    }
}
