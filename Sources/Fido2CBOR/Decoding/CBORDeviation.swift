/// An encoding rule of CTAP2 canonical CBOR that an otherwise well-formed input breaks, and
/// where it first does: what ``CBORReader/canonicalizingFirstItem(in:options:tolerating:)``
/// reports when it accepts such an input.
public struct CBORDeviation: Sendable, Hashable, CustomStringConvertible {
    /// The check the input fails: ``CBORDecodingOptions/Checks/shortestHeads``,
    /// ``CBORDecodingOptions/Checks/definiteLengths`` or
    /// ``CBORDecodingOptions/Checks/canonicalKeyOrder``.
    public let check: CBORDecodingOptions.Checks
    /// The offset of the first item that breaks it, from the start of the input.
    public let offset: Int

    /// A deviation from `check` first seen at `offset`.
    public init(check: CBORDecodingOptions.Checks, offset: Int) {
        self.check = check
        self.offset = offset
    }

    /// What the input broke, in words, without the offset: `"map keys not in canonical order"`.
    public var summary: String {
        switch check {
        case .shortestHeads: return CBORError.Code.nonShortestEncoding.description
        case .definiteLengths: return "indefinite-length item"
        case .canonicalKeyOrder: return CBORError.Code.mapKeysOutOfOrder.description
        default: return "encoding rule \(check.rawValue)"
        }
    }

    /// `"map keys not in canonical order at offset 12"`.
    public var description: String { "\(summary) at offset \(offset)" }

    /// The encoding check whose failure `code` reports, or nil when `code` is not about how an
    /// item is encoded (malformed input, a duplicate key, invalid UTF-8, a limit).
    static func check(failedBy code: CBORError.Code) -> CBORDecodingOptions.Checks? {
        switch code {
        case .nonShortestEncoding: return .shortestHeads
        case .indefiniteLengthNotAllowed: return .definiteLengths
        case .mapKeysOutOfOrder: return .canonicalKeyOrder
        default: return nil
        }
    }
}
