/// The `extensions` object of Belvo's FIDO options, read only far enough to know what it asks.
///
/// Belvo's registration options carry `"extensions": {"appid": "true"}`: the `appid` extension
/// (WebAuthn §10.1.1) with a string value. Extension values vary in type, so only their names
/// are kept, plus the `appid` value as text (a JSON string as is, a boolean as `true`/`false`).
public struct BelvoFidoExtensions: Decodable, Sendable, Hashable {
    /// The names of the extensions present, sorted.
    public let identifiers: [String]
    /// The `appid` value as text, when present as a string or boolean.
    public let appid: String?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON object, keeping its member names and the `appid` value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        identifiers = container.allKeys.map(\.stringValue).sorted()
        let appidKey = Key(stringValue: "appid")
        if let text = try? container.decode(String.self, forKey: appidKey) {
            appid = text
        } else if let flag = try? container.decode(Bool.self, forKey: appidKey) {
            appid = flag ? "true" : "false"
        } else {
            appid = nil
        }
    }
}
