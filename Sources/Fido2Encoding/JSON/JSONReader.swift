/// A strict RFC 8259 JSON reader with limits, producing a ``JSONValue``.
///
/// Strict means: exactly one value with only whitespace (space, tab, CR, LF) around it; no
/// comments, trailing commas, single quotes, `NaN`, leading zeros or byte-order mark; strings of
/// well-formed UTF-8 with no raw control characters and only the escapes RFC 8259 defines, and
/// `\u` surrogates only in valid pairs; and, unless ``Options/allowsDuplicateMemberNames`` is
/// set, no object with two members of the same name. Every failure is a
/// ``Fido2EncodingError`` carrying the byte offset where it was found.
public struct JSONReader: Sendable {
    /// Limits and policies for one read.
    public struct Options: Sendable, Hashable {
        /// The longest input accepted, in bytes. Default 4 MiB.
        public var maximumInputLength: Int
        /// The deepest nesting of arrays and objects accepted; the top-level container is depth
        /// 1. Default 64. Values above 512 are treated as 512 so that reading can never exhaust
        /// the stack.
        public var maximumDepth: Int
        /// The most values (scalars, arrays and objects, at every depth) in one document.
        /// Default 1,000,000.
        public var maximumItemCount: Int
        /// The longest string (member names included), in UTF-8 bytes after unescaping.
        /// Default 1 MiB.
        public var maximumStringLength: Int
        /// Whether an object may repeat a member name (then every member is kept, and lookups
        /// return the last, as `JSON.parse` does). Default false: a repeated name is an error,
        /// because two readers that pick different duplicates see different documents.
        public var allowsDuplicateMemberNames: Bool

        /// Options with the given limits; every argument has the default documented above.
        public init(
            maximumInputLength: Int = 4 << 20, maximumDepth: Int = 64,
            maximumItemCount: Int = 1_000_000, maximumStringLength: Int = 1 << 20,
            allowsDuplicateMemberNames: Bool = false
        ) {
            self.maximumInputLength = maximumInputLength
            self.maximumDepth = maximumDepth
            self.maximumItemCount = maximumItemCount
            self.maximumStringLength = maximumStringLength
            self.allowsDuplicateMemberNames = allowsDuplicateMemberNames
        }
    }

    /// The hard ceiling on ``Options/maximumDepth``: the reader recurses once per level.
    static let depthCeiling = 512

    /// The limits and policies this reader applies.
    public var options: Options

    /// A reader with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Reads one JSON document from UTF-8 bytes.
    ///
    /// - Throws: ``Fido2EncodingError`` with the offset of the problem: `unexpectedCharacter`,
    ///   `truncated`, `invalidEscape`, `loneSurrogate`, `invalidUTF8`,
    ///   `controlCharacterInString`, `leadingZero`, `invalidNumber`, `trailingContent`,
    ///   `duplicateMemberName`, or a limit: `inputTooLarge`, `depthExceeded`, `tooManyItems`,
    ///   `stringTooLong`.
    public func read<Bytes: Collection>(_ bytes: Bytes) throws -> JSONValue
    where Bytes.Element == UInt8 {
        try Base64Engine.withContiguous(bytes) { buffer in
            read(buffer: buffer)
        }.get()
    }

    /// Reads one JSON document from UTF-8 bytes (the common case, without generic dispatch).
    ///
    /// - Throws: ``Fido2EncodingError`` as ``read(_:)-(Bytes)`` does.
    public func read(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in read(buffer: buffer) }.get()
    }

    /// Reads one JSON document from text.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``read(_:)-(Bytes)`` does.
    public func read(_ text: String) throws -> JSONValue {
        try read(text.utf8)
    }

    private func read(buffer: UnsafeBufferPointer<UInt8>) -> Result<JSONValue, Fido2EncodingError> {
        guard buffer.count <= options.maximumInputLength else {
            return .failure(
                Fido2EncodingError(
                    .inputTooLarge,
                    "input of \(buffer.count) bytes exceeds the limit of "
                        + "\(options.maximumInputLength)",
                    offset: options.maximumInputLength))
        }
        var parser = JSONParser(input: buffer, options: options)
        do {
            return .success(try parser.parseDocument())
        } catch {
            return .failure(error)
        }
    }
}
