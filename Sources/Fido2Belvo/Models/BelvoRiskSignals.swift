import Foundation

/// The risk signals object the SDK's `collectRiskSignals(accountTenure:)` returns, kept as the
/// exact JSON text it was given.
///
/// Belvo receives risk signals in `POST /enrollments/` (`details.risk_signals`) and in
/// `POST /payment-intents/{id}/authorize/` (`risk_signals`). They are opaque to the merchant and
/// partly encrypted (the `deviceId`), so this type never parses them into a dictionary and
/// re-encodes them: the bodies we write embed ``json`` byte for byte.
public struct BelvoRiskSignals: Sendable, Hashable {
    /// The JSON object exactly as given (UTF-8).
    public let json: [UInt8]

    /// Risk signals from their serialized JSON.
    ///
    /// - Throws: ``BelvoError/Code/malformedRiskSignals`` when `json` is not UTF-8 text holding
    ///   exactly one JSON object (surrounding whitespace is allowed and kept; a byte order mark
    ///   is not).
    public init(json: some Collection<UInt8>) throws(BelvoError) {
        let bytes = Array(json)
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw BelvoError(.malformedRiskSignals, "risk signals are not UTF-8 text")
        }
        // A byte order mark is allowed at the start of a JSON text, but not inside the body we
        // embed the signals in.
        guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]) else {
            throw BelvoError(.malformedRiskSignals, "risk signals start with a byte order mark")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(bytes), options: .fragmentsAllowed)
        } catch {
            throw BelvoError(.malformedRiskSignals, "risk signals are not valid JSON")
        }
        guard parsed is [String: Any] else {
            throw BelvoError(.malformedRiskSignals, "risk signals must be a JSON object")
        }
        self.json = bytes
    }

    /// Risk signals from their serialized JSON text.
    ///
    /// - Throws: ``BelvoError/Code/malformedRiskSignals`` when `json` is not one JSON object.
    public init(jsonString json: String) throws(BelvoError) {
        try self.init(json: Array(json.utf8))
    }
}
