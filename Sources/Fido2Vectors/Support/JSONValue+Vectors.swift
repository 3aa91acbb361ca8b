import Fido2Encoding

extension JSONValue {
    /// Bytes as an unpadded base64url string, as WebAuthn JSON writes binary members.
    static func base64URL(_ bytes: some Collection<UInt8>) -> JSONValue {
        .string(Base64URL.encode(Array(bytes)))
    }

    /// An integer.
    static func integer(_ value: some BinaryInteger) -> JSONValue {
        .number(JSONNumber(Int64(value)))
    }

    /// The bytes of a base64url member, or nil when it is missing or not base64url.
    func base64URLBytes(_ name: String) -> [UInt8]? {
        self[name]?.stringValue.flatMap { try? Base64URL.decode($0) }
    }

    /// The strings of a member holding a string or an array of strings (empty otherwise).
    func strings(_ name: String) -> [String] {
        if let text = self[name]?.stringValue { return [text] }
        return self[name]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
