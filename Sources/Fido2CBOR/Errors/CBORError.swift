/// The one error type of the CBOR module: what was wrong with the input and where.
///
/// Every decoding failure, whether the input is not well-formed (RFC 8949 §3), breaks a rule of
/// the strict (CTAP2 canonical) profile, exceeds a configured limit, or does not have the type a
/// typed read asked for, is reported as a `CBORError` carrying a ``Code`` and the byte offset,
/// counted from the start of the input, of the item or byte at fault.
public struct CBORError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. New codes may be added in later versions; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Reason: Hashable, Sendable {
            case truncated, reservedAdditionalInfo, unexpectedBreak, invalidIndefiniteItem
            case invalidIndefiniteChunk, invalidSimpleValue, nonShortestEncoding
            case indefiniteLengthNotAllowed, duplicateMapKey, mapKeysOutOfOrder, trailingBytes
            case invalidUTF8, nestingTooDeep, tooManyItems, inputTooLarge, lengthExceedsInput
            case typeMismatch, integerOutOfRange
        }

        private let reason: Reason
        private init(_ reason: Reason) { self.reason = reason }

        /// The input ended inside an item (a head, a string's content, or a container's items).
        public static let truncated = Code(.truncated)
        /// An additional-information value of 28, 29 or 30, which RFC 8949 reserves.
        public static let reservedAdditionalInfo = Code(.reservedAdditionalInfo)
        /// A break stop code (0xff) outside an indefinite-length item, or in a map's value position.
        public static let unexpectedBreak = Code(.unexpectedBreak)
        /// Additional information 31 on an integer or a tag, which have no indefinite form.
        public static let invalidIndefiniteItem = Code(.invalidIndefiniteItem)
        /// A chunk of an indefinite-length string that is not a definite string of the same type.
        public static let invalidIndefiniteChunk = Code(.invalidIndefiniteChunk)
        /// A two-byte simple value (0xf8) below 32, which RFC 8949 §3.3 makes not well-formed.
        public static let invalidSimpleValue = Code(.invalidSimpleValue)
        /// Strict mode: an integer, length or tag head that is longer than needed.
        public static let nonShortestEncoding = Code(.nonShortestEncoding)
        /// Strict mode: an indefinite-length string, array or map.
        public static let indefiniteLengthNotAllowed = Code(.indefiniteLengthNotAllowed)
        /// A map key that appears twice in the same map.
        public static let duplicateMapKey = Code(.duplicateMapKey)
        /// Strict mode: map keys not in CTAP2 canonical order.
        public static let mapKeysOutOfOrder = Code(.mapKeysOutOfOrder)
        /// Bytes after the single item the input must contain.
        public static let trailingBytes = Code(.trailingBytes)
        /// A text string that is not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// Containers nested deeper than ``CBORDecodingOptions/maximumDepth``.
        public static let nestingTooDeep = Code(.nestingTooDeep)
        /// More data items than ``CBORDecodingOptions/maximumItemCount``.
        public static let tooManyItems = Code(.tooManyItems)
        /// An input longer than ``CBORDecodingOptions/maximumInputSize``.
        public static let inputTooLarge = Code(.inputTooLarge)
        /// A declared string length or item count that the remaining bytes cannot hold.
        public static let lengthExceedsInput = Code(.lengthExceedsInput)
        /// A typed read found an item of another type.
        public static let typeMismatch = Code(.typeMismatch)
        /// An integer that does not fit the type it was read as.
        public static let integerOutOfRange = Code(.integerOutOfRange)

        /// A short phrase naming the problem.
        public var description: String {
            switch reason {
            case .truncated: return "input ends inside an item"
            case .reservedAdditionalInfo: return "reserved additional information value (28-30)"
            case .unexpectedBreak: return "break stop code outside an indefinite-length item"
            case .invalidIndefiniteItem: return "indefinite length on an integer or tag"
            case .invalidIndefiniteChunk:
                return "indefinite-length string chunk is not a definite string of the same type"
            case .invalidSimpleValue: return "two-byte simple value below 32"
            case .nonShortestEncoding: return "integer, length or tag not in its shortest form"
            case .indefiniteLengthNotAllowed: return "indefinite-length item not allowed"
            case .duplicateMapKey: return "duplicate map key"
            case .mapKeysOutOfOrder: return "map keys not in canonical order"
            case .trailingBytes: return "trailing bytes after the item"
            case .invalidUTF8: return "text string is not valid UTF-8"
            case .nestingTooDeep: return "nesting deeper than the configured maximum"
            case .tooManyItems: return "more items than the configured maximum"
            case .inputTooLarge: return "input larger than the configured maximum"
            case .lengthExceedsInput: return "declared length exceeds the remaining input"
            case .typeMismatch: return "unexpected item type"
            case .integerOutOfRange: return "integer out of range"
            }
        }
    }

    /// What went wrong.
    public let code: Code
    /// The byte offset, from the start of the input, of the item or byte at fault.
    public let offset: Int
    /// Extra context, such as the type a typed read expected; empty when the code says it all.
    public let detail: String

    /// Creates an error; the decoder makes these, tests and callers wrapping it may too.
    public init(_ code: Code, at offset: Int, detail: String = "") {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// One line saying what and where, e.g. `duplicate map key at offset 12`.
    public var description: String {
        detail.isEmpty
            ? "\(code) at offset \(offset)" : "\(code) at offset \(offset): \(detail)"
    }
}
