/// How strictly to decode, and the limits that bound the work any input can cause.
///
/// Two profiles cover nearly every use: ``strict`` is the CTAP2 canonical profile that WebAuthn
/// and CTAP2 data must follow; ``lenient`` accepts anything RFC 8949 calls well-formed. The limits
/// apply in both, and a declared length or item count is always checked against the bytes that
/// remain before any work or allocation, so a 9-byte input claiming 2^63 items costs nothing.
public struct CBORDecodingOptions: Sendable, Hashable {
    /// The rules beyond well-formedness that the decoder enforces.
    public struct Checks: OptionSet, Sendable, Hashable {
        /// The raw bit set.
        public let rawValue: UInt8
        /// Creates a set from its raw bits.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Integers, lengths, tags and simple values use their shortest head.
        public static let shortestHeads = Checks(rawValue: 1 << 0)
        /// No indefinite-length strings, arrays or maps.
        public static let definiteLengths = Checks(rawValue: 1 << 1)
        /// Map keys appear in CTAP2 canonical order (see ``CBORKeyOrder``).
        public static let canonicalKeyOrder = Checks(rawValue: 1 << 2)
        /// No map holds the same key twice. Keys are compared by their encoding: without
        /// ``shortestHeads`` and ``definiteLengths`` one value written two ways (`0` and a
        /// long-head `0`) passes as two keys; ``CBORReader/canonicalizingFirstItem(in:options:tolerating:)``
        /// refuses those too.
        public static let uniqueKeys = Checks(rawValue: 1 << 3)
        /// Every text string is valid UTF-8 (reads into `String` always require it).
        public static let validUTF8 = Checks(rawValue: 1 << 4)
        /// The input is exactly one item; without this it may be a CBOR sequence (RFC 8742).
        public static let noTrailingBytes = Checks(rawValue: 1 << 5)

        /// Every check: the CTAP2 canonical profile.
        public static let all: Checks = [
            .shortestHeads, .definiteLengths, .canonicalKeyOrder, .uniqueKeys, .validUTF8,
            .noTrailingBytes,
        ]
    }

    /// The largest depth `maximumDepth` may take; deeper settings are treated as this.
    ///
    /// Decoding into ``CBORValue`` recurses once per level, so the depth bound is also a stack
    /// bound; 1024 levels stay far inside the smallest thread stacks Swift uses on Linux.
    public static let depthCeiling = 1024

    /// The rules enforced beyond well-formedness.
    public var checks: Checks
    /// The deepest nesting of arrays, maps, tags and indefinite-length strings allowed (default 32).
    public var maximumDepth: Int
    /// The most data items (every head, including keys, values, tags and chunks) allowed
    /// (default 65,536).
    public var maximumItemCount: Int
    /// The largest input, in bytes, that is looked at (default 1 MiB).
    public var maximumInputSize: Int

    /// Creates options with the given checks and limits.
    public init(
        checks: Checks,
        maximumDepth: Int = 32,
        maximumItemCount: Int = 65_536,
        maximumInputSize: Int = 1 << 20
    ) {
        self.checks = checks
        self.maximumDepth = maximumDepth
        self.maximumItemCount = maximumItemCount
        self.maximumInputSize = maximumInputSize
    }

    /// CTAP2 canonical CBOR: shortest heads, definite lengths, canonical and unique map keys,
    /// valid UTF-8, exactly one item. What CTAP2 and WebAuthn data must satisfy.
    public static let strict = CBORDecodingOptions(checks: .all)

    /// RFC 8949 well-formedness only: non-shortest heads, indefinite lengths, any key order and
    /// duplicate keys are accepted, and the input may be a CBOR sequence.
    public static let lenient = CBORDecodingOptions(checks: [])

    /// The depth limit actually applied: `maximumDepth` clamped to `0...depthCeiling`.
    var effectiveDepth: Int { max(0, min(maximumDepth, Self.depthCeiling)) }
}
