/// The one error type of `Fido2Encoding`: malformed base64, base64url or JSON input, or a JSON
/// input that exceeds the reader's limits.
///
/// Named `Fido2EncodingError` rather than `EncodingError` so it never shadows the standard
/// library's `EncodingError` (the `Encodable` failure) in a file that imports this module.
///
/// Compare errors by ``code``; ``reason`` is prose for people and may change.
public struct Fido2EncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes may be added in later versions, so switch over
    /// codes with a `default` branch.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            // Base64 and base64url.
            case invalidCharacter
            case invalidLength
            case invalidPadding
            case nonZeroTrailingBits
            // JSON reading.
            case unexpectedCharacter
            case truncated
            case invalidEscape
            case loneSurrogate
            case invalidUTF8
            case controlCharacterInString
            case leadingZero
            case invalidNumber
            case trailingContent
            case depthExceeded
            case duplicateMemberName
            case inputTooLarge
            case tooManyItems
            case stringTooLong
            case unexpectedKind
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// A byte that is not in the base64 or base64url alphabet (nor allowed whitespace).
        public static let invalidCharacter = Code(.invalidCharacter)
        /// A base64 text whose length cannot encode whole bytes (one character left over), or
        /// standard base64 that lacks its required padding.
        public static let invalidLength = Code(.invalidLength)
        /// `=` where no padding may stand, or the wrong number of `=`.
        public static let invalidPadding = Code(.invalidPadding)
        /// The last base64 character carries bits beyond the encoded bytes that are not zero, so
        /// the text is not the canonical encoding of any byte string.
        public static let nonZeroTrailingBits = Code(.nonZeroTrailingBits)
        /// A byte that cannot start or continue the JSON value being read.
        public static let unexpectedCharacter = Code(.unexpectedCharacter)
        /// The JSON input ended inside a value.
        public static let truncated = Code(.truncated)
        /// A backslash escape that RFC 8259 does not define, or a `\u` without four hex digits.
        public static let invalidEscape = Code(.invalidEscape)
        /// A `\u` escape of a UTF-16 surrogate without its partner.
        public static let loneSurrogate = Code(.loneSurrogate)
        /// Bytes that are not well-formed UTF-8 (overlong forms, encoded surrogates, code points
        /// above U+10FFFF, stray continuation bytes, truncated sequences).
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// A raw control character (U+0000–U+001F) inside a JSON string.
        public static let controlCharacterInString = Code(.controlCharacterInString)
        /// A JSON number with a superfluous leading zero (`01`, `-00`).
        public static let leadingZero = Code(.leadingZero)
        /// A JSON number that breaks the RFC 8259 grammar (`-`, `1.`, `1e`, `.5`).
        public static let invalidNumber = Code(.invalidNumber)
        /// Bytes other than whitespace after the JSON value.
        public static let trailingContent = Code(.trailingContent)
        /// Arrays and objects nested deeper than the reader allows.
        public static let depthExceeded = Code(.depthExceeded)
        /// An object with two members of the same name, which the reader rejects by default.
        public static let duplicateMemberName = Code(.duplicateMemberName)
        /// An input longer than the reader allows.
        public static let inputTooLarge = Code(.inputTooLarge)
        /// More values in one document than the reader allows.
        public static let tooManyItems = Code(.tooManyItems)
        /// A string longer (in UTF-8 bytes, after unescaping) than the reader allows.
        public static let stringTooLong = Code(.stringTooLong)
        /// A well-formed value of another kind than the caller of `JSONScanner` (the SPI
        /// reader fido2kit's own modules use) asked for (a number where a string was
        /// expected); the scanner can go on from there.
        public static let unexpectedKind = Code(.unexpectedKind)

        /// The code's name, such as `invalidCharacter`.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A human-readable explanation.
    public let reason: String
    /// The byte offset in the input where the problem was found, when there is one.
    public let offset: Int?

    /// Makes an error; used by this module's decoders.
    public init(_ code: Code, _ reason: String, offset: Int? = nil) {
        self.code = code
        self.reason = reason
        self.offset = offset
    }

    /// `code at offset N: reason`.
    public var description: String {
        if let offset {
            return "\(code) at offset \(offset): \(reason)"
        }
        return "\(code): \(reason)"
    }
}
