import Fido2Encoding

/// The risk signals object the SDK's `collectRiskSignals(accountTenure:)` returns, kept as the
/// exact JSON text it was given.
///
/// Belvo receives risk signals in `POST /enrollments/` (`details.risk_signals`) and in
/// `POST /payment-intents/{id}/authorize/` (`risk_signals`). They are opaque to the merchant and
/// partly encrypted (the `deviceId`), so this type never parses them into a dictionary and
/// re-encodes them: the bodies we write embed ``json`` byte for byte.
public struct BelvoRiskSignals: Sendable, Hashable {
    /// The strict reader that checks the signals.
    private static let reader = JSONReader()

    /// The JSON object exactly as given (UTF-8).
    public let json: [UInt8]

    /// Risk signals from their serialized JSON.
    ///
    /// - Throws: ``BelvoError/Code/malformedRiskSignals`` when `json` is not UTF-8 text holding
    ///   exactly one JSON object under RFC 8259's grammar, with unique member names and within
    ///   `Fido2Encoding.JSONReader`'s default limits (surrounding whitespace is allowed and
    ///   kept; a byte order mark, trailing commas, comments and repeated names are not).
    public init(json: some Collection<UInt8>) throws {
        let bytes = Array(json)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw BelvoError(.malformedRiskSignals, "risk signals are not UTF-8 text")
        }
        // A byte order mark is allowed at the start of a JSON text, but not inside the body we
        // embed the signals in.
        guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else {
            throw BelvoError(.malformedRiskSignals, "risk signals start with a byte order mark")
        }
        // RFC 8259 exactly, with unique member names: the signals are embedded verbatim, so
        // whatever reads the body (Belvo, a proxy, a log pipeline) must read what we checked.
        // Foundation's parser accepts more (trailing commas, for one) and is not used here.
        let parsed: JSONValue
        do {
            parsed = try Self.reader.read(bytes)
        } catch {
            throw BelvoError(
                .malformedRiskSignals, "risk signals are not valid JSON: \(error)")
        }
        guard case .object = parsed else {
            throw BelvoError(.malformedRiskSignals, "risk signals must be a JSON object")
        }
        self.json = bytes
    }

    /// Risk signals from their serialized JSON text.
    ///
    /// - Throws: ``BelvoError/Code/malformedRiskSignals`` when `json` is not one JSON object.
    public init(jsonString json: String) throws {
        try self.init(json: Array(json.utf8))
    }
}
