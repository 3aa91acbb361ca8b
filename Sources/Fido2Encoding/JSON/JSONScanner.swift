/// Reads a JSON document front to back without building a ``JSONValue`` tree, for hot paths
/// that know which members they want (WebAuthn options and responses).
///
/// It applies the same grammar, limits and duplicate-name rule as ``JSONReader`` and reports
/// the same ``Fido2EncodingError`` codes, but member names are compared in place, strings are
/// unescaped only when they hold escapes, and base64url members decode straight from the
/// input. A scanner exists only inside ``scan(_:options:mapError:_:)``; ``Name`` values are
/// valid until the next call on the scanner.
///
/// Reading pattern: check ``peek()``, then `read…` a scalar, or `beginObject()` and loop over
/// ``nextMember()`` (read or ``skipValue()`` each value), or `beginArray()` and loop over
/// ``nextElement()``. Whatever the body leaves unread is still checked when it returns.
@_spi(Fido2Internals) public struct JSONScanner {
    /// What the next value is, judged by its first byte.
    @_spi(Fido2Internals) public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// `{`.
        case object
        /// `[`.
        case array
        /// `"`.
        case string
        /// `-` or a digit.
        case number
        /// `true` or `false`.
        case boolean
        /// `null`.
        case null

        /// `an object`, `a string`, `null`, … for error messages.
        @_spi(Fido2Internals) public var description: String {
            switch self {
            case .object: return "an object"
            case .array: return "an array"
            case .string: return "a string"
            case .number: return "a number"
            case .boolean: return "a boolean"
            case .null: return "null"
            }
        }
    }

    /// A member name as read, compared with literals without making a `String`.
    @_spi(Fido2Internals) public struct Name: CustomStringConvertible {
        @usableFromInline let input: UnsafeBufferPointer<UInt8>
        @usableFromInline let range: Range<Int>
        /// The unescaped bytes when the name had escapes (rare).
        @usableFromInline let unescaped: [UInt8]?

        @usableFromInline
        init(input: UnsafeBufferPointer<UInt8>, range: Range<Int>, unescaped: [UInt8]?) {
            self.input = input
            self.range = range
            self.unescaped = unescaped
        }

        fileprivate func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result
        {
            if let unescaped {
                return unescaped.withUnsafeBufferPointer(body)
            }
            return body(UnsafeBufferPointer(rebasing: input[range]))
        }

        // Inlinable: a `switch` over member names compares each name with several literals, and
        // a call across the module boundary per comparison cost more than the comparisons.
        /// Whether the name is exactly `literal`, byte for byte.
        @inlinable
        @_spi(Fido2Internals) public static func == (name: Name, literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            let expected = UnsafeBufferPointer(start: literal.utf8Start, count: count)
            if let unescaped = name.unescaped { return unescaped.elementsEqual(expected) }
            guard name.range.count == count else { return false }
            let bytes = UnsafeBufferPointer(rebasing: name.input[name.range])
            for index in 0..<count where bytes[index] != expected[index] { return false }
            return true
        }

        /// Lets `switch name { case "challenge": … }` match names against literals.
        @inlinable
        @_spi(Fido2Internals) public static func ~= (literal: StaticString, name: Name) -> Bool {
            name == literal
        }

        /// The name as a `String`.
        @_spi(Fido2Internals) public var string: String {
            withBytes { String(decoding: $0, as: UTF8.self) }
        }

        /// The name.
        @_spi(Fido2Internals) public var description: String { string }
    }

    /// An open array or object.
    private struct Container {
        let isObject: Bool
        /// No member or element read yet, so no comma is due.
        var first = true
        /// Where this object's names start in `names`.
        let namesStart: Int
    }

    private var parser: JSONParser
    private var containers: [Container] = []
    /// Member names of the open objects, as ranges into the input or into `escapedNames`.
    private var names: [(range: Range<Int>, escaped: Int?)] = []
    private var escapedNames: [[UInt8]] = []
    /// Names of large open objects by nesting level, for duplicate checks without a quadratic
    /// scan (rare: WebAuthn objects are small).
    private var largeObjectNames: [Int: Set<[UInt8]>] = [:]
    /// Whether the top-level value has been read completely.
    private var topLevelDone = false
    /// Whether a member name or an array slot has been read and its value not yet.
    private var valuePending = false
    /// Whether a scanner call has failed: the position is then unreliable, so nothing more is
    /// checked after the body returns. Every public operation sets it first and puts back the
    /// earlier value only when it succeeds, so a failure sticks even if the body catches it.
    @usableFromInline var poisoned = false

    @usableFromInline init(input: UnsafeBufferPointer<UInt8>, options: JSONReader.Options) {
        parser = JSONParser(input: input, options: options)
        containers.reserveCapacity(8)
        names.reserveCapacity(16)
    }

    /// Scans `bytes` with `body`, then checks whatever `body` left unread and that nothing but
    /// whitespace follows the value.
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 JSON document to scan.
    ///   - options: the limits and duplicate-name policy, as ``JSONReader`` applies them.
    ///   - mapError: turns the scanner's errors into the body's error type.
    ///   - body: reads the document through the scanner it is given and returns the result.
    /// - Throws: what `body` throws, or `mapError` of a ``Fido2EncodingError`` (the codes of
    ///   ``JSONReader/read(_:)-(Bytes)`` and, from ``readBase64URL()``, those of
    ///   ``Base64URL/decode(_:)``). When `body` fails on content (a missing member, say) but the
    ///   document is also malformed later on, the malformation is reported instead, so broken
    ///   JSON is always reported as broken JSON.
    @inlinable
    @_spi(Fido2Internals) public static func scan<Result, Failure: Error>(
        _ bytes: [UInt8], options: JSONReader.Options = JSONReader.Options(),
        mapError: (Fido2EncodingError) -> Failure,
        _ body: (inout JSONScanner) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        // Inlinable so callers specialize it: generic metadata lookups cost more than a small
        // document's scan.
        if let tooLarge = sizeError(bytes.count, options) { throw mapError(tooLarge) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> Result in
            var scanner = JSONScanner(input: buffer, options: options)
            let result: Result
            do throws(Failure) {
                result = try body(&scanner)
            } catch {
                // Prefer reporting a malformed document over a content error.
                if !scanner.poisoned, case .failure(let malformed) = scanner.finish() {
                    throw mapError(malformed)
                }
                throw error
            }
            if case .failure(let malformed) = scanner.finish() {
                throw mapError(malformed)
            }
            return result
        }
    }

    /// The error for an input longer than the options allow, if it is.
    @usableFromInline
    static func sizeError(_ count: Int, _ options: JSONReader.Options) -> Fido2EncodingError? {
        guard count > options.maximumInputLength else { return nil }
        return Fido2EncodingError(
            .inputTooLarge,
            "input of \(count) bytes exceeds the limit of \(options.maximumInputLength)",
            offset: options.maximumInputLength)
    }

    /// The byte offset of the next unread byte.
    @_spi(Fido2Internals) public var offset: Int { parser.position }

    /// Notes that a value has been read completely.
    private mutating func valueDone() {
        valuePending = false
        if containers.isEmpty { topLevelDone = true }
    }

    // MARK: Looking ahead

    /// The kind of the next value, without consuming it.
    ///
    /// - Throws: ``Fido2EncodingError`` `truncated` or `unexpectedCharacter`.
    @_spi(Fido2Internals) public mutating func peek() throws(Fido2EncodingError) -> Kind {
        let failedBefore = poisoned
        poisoned = true
        let result = try peekKind()
        poisoned = failedBefore
        return result
    }

    @inline(__always)
    private mutating func peekKind() throws(Fido2EncodingError) -> Kind {
        parser.skipWhitespace()
        guard parser.position < parser.input.count else { throw parser.truncated("a value") }
        switch parser.input[parser.position] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        default: throw parser.unexpected("a value")
        }
    }

    // MARK: Containers

    /// Enters the object that comes next.
    ///
    /// - Throws: ``Fido2EncodingError`` `unexpectedKind` when the next value is well-formed but
    ///   not an object (the scanner stays usable), or a syntax or limit code.
    @_spi(Fido2Internals) public mutating func beginObject() throws(Fido2EncodingError) {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.object)
        let failedBefore = poisoned
        poisoned = true
        try begin(isObject: true)
        poisoned = failedBefore
    }

    /// Enters the array that comes next.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``beginObject()`` does.
    @_spi(Fido2Internals) public mutating func beginArray() throws(Fido2EncodingError) {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.array)
        let failedBefore = poisoned
        poisoned = true
        try begin(isObject: false)
        poisoned = failedBefore
    }

    private mutating func begin(isObject: Bool) throws(Fido2EncodingError) {
        try parser.checkDepth(containers.count + 1)
        parser.position += 1
        valuePending = false
        containers.append(Container(isObject: isObject, namesStart: names.count))
    }

    /// The name of the next member of the current object, positioned before its value, or nil
    /// when the object has ended (and is then left).
    ///
    /// - Throws: ``Fido2EncodingError`` for a malformed object or a repeated name (unless the
    ///   options allow duplicates).
    @_spi(Fido2Internals) public mutating func nextMember() throws(Fido2EncodingError) -> Name? {
        let failedBefore = poisoned
        poisoned = true
        let result = try advanceMember()
        poisoned = failedBefore
        return result
    }

    @inline(__always)
    private mutating func advanceMember() throws(Fido2EncodingError) -> Name? {
        guard var container = containers.last, container.isObject else {
            throw Fido2EncodingError(
                .unexpectedCharacter, "nextMember() outside an object", offset: parser.position)
        }
        parser.skipWhitespace()
        guard parser.position < parser.input.count else {
            throw parser.truncated(container.first ? "a member name or '}'" : "',' or '}'")
        }
        if parser.input[parser.position] == UInt8(ascii: "}") {
            parser.position += 1
            names.removeSubrange(container.namesStart...)
            if names.isEmpty { escapedNames.removeAll(keepingCapacity: true) }
            if !largeObjectNames.isEmpty { largeObjectNames[containers.count] = nil }
            containers.removeLast()
            valueDone()
            return nil
        }
        if !container.first {
            guard parser.input[parser.position] == UInt8(ascii: ",") else {
                throw parser.unexpected("',' or '}'")
            }
            parser.position += 1
            parser.skipWhitespace()
            guard parser.position < parser.input.count else {
                throw parser.truncated("a member name")
            }
        }
        guard parser.input[parser.position] == UInt8(ascii: "\"") else {
            throw parser.unexpected("a member name in double quotes")
        }
        let nameOffset = parser.position
        let name: Name
        switch try parser.scanString() {
        case .input(let range):
            name = Name(input: parser.input, range: range, unescaped: nil)
        case .scratch:
            name = Name(input: parser.input, range: 0..<0, unescaped: parser.scratch)
        }
        if !parser.options.allowsDuplicateMemberNames {
            try record(name, in: &container, at: nameOffset)
        }
        container.first = false
        containers[containers.count - 1] = container
        parser.skipWhitespace()
        guard parser.position < parser.input.count else { throw parser.truncated("':'") }
        guard parser.input[parser.position] == UInt8(ascii: ":") else {
            throw parser.unexpected("':'")
        }
        parser.position += 1
        valuePending = true
        return name
    }

    /// Notes `name` for the current object, failing when it already has one of that name.
    private mutating func record(
        _ name: Name, in container: inout Container, at offset: Int
    )
        throws(Fido2EncodingError)
    {
        let level = containers.count
        let duplicate: Bool
        if name.unescaped == nil, largeObjectNames.isEmpty,
            names.count - container.namesStart < 16
        {
            // The common case (names without escapes in a small object), without a closure.
            duplicate = isRepeated(
                UnsafeBufferPointer(rebasing: parser.input[name.range]),
                since: container.namesStart)
        } else {
            duplicate = name.withBytes { bytes -> Bool in
                if largeObjectNames[level] == nil, names.count - container.namesStart < 16 {
                    return isRepeated(bytes, since: container.namesStart)
                }
                var set =
                    largeObjectNames.removeValue(forKey: level)
                    ?? Set(
                        names[container.namesStart...].map { seen in
                            seen.escaped.map { escapedNames[$0] } ?? Array(parser.input[seen.range])
                        })
                let inserted = set.insert(Array(bytes)).inserted
                largeObjectNames[level] = set
                return !inserted
            }
        }
        if duplicate {
            throw Fido2EncodingError(
                .duplicateMemberName, "member name \"\(name.string)\" appears twice in one object",
                offset: offset)
        }
        if let unescaped = name.unescaped {
            escapedNames.append(unescaped)
            names.append((0..<0, escapedNames.count - 1))
        } else {
            names.append((name.range, nil))
        }
    }

    /// Whether the `index`th recorded name is `bytes`.
    private func isName(_ index: Int, equalTo bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let seen = names[index]
        if let escaped = seen.escaped {
            return escapedNames[escaped].elementsEqual(bytes)
        }
        return seen.range.count == bytes.count
            && UnsafeBufferPointer(rebasing: parser.input[seen.range]).elementsEqual(bytes)
    }

    /// Whether `bytes` equals a name recorded from `start` on.
    private func isRepeated(_ bytes: UnsafeBufferPointer<UInt8>, since start: Int) -> Bool {
        for index in start..<names.count where isName(index, equalTo: bytes) {
            return true
        }
        return false
    }

    /// Whether the current array has another element, positioned before it; false when the
    /// array has ended (and is then left).
    ///
    /// - Throws: ``Fido2EncodingError`` for a malformed array.
    @_spi(Fido2Internals) public mutating func nextElement() throws(Fido2EncodingError) -> Bool {
        let failedBefore = poisoned
        poisoned = true
        let result = try advanceElement()
        poisoned = failedBefore
        return result
    }

    @inline(__always)
    private mutating func advanceElement() throws(Fido2EncodingError) -> Bool {
        guard var container = containers.last, !container.isObject else {
            throw Fido2EncodingError(
                .unexpectedCharacter, "nextElement() outside an array", offset: parser.position)
        }
        parser.skipWhitespace()
        guard parser.position < parser.input.count else {
            throw parser.truncated(container.first ? "a value or ']'" : "',' or ']'")
        }
        if parser.input[parser.position] == UInt8(ascii: "]") {
            parser.position += 1
            containers.removeLast()
            valueDone()
            return false
        }
        if !container.first {
            guard parser.input[parser.position] == UInt8(ascii: ",") else {
                throw parser.unexpected("',' or ']'")
            }
            parser.position += 1
        }
        container.first = false
        containers[containers.count - 1] = container
        valuePending = true
        return true
    }

    // MARK: Scalars

    /// Reads the string that comes next.
    ///
    /// - Throws: ``Fido2EncodingError`` `unexpectedKind` when the next value is not a string
    ///   (the scanner stays usable), or a syntax or limit code.
    @_spi(Fido2Internals) public mutating func readString() throws(Fido2EncodingError) -> String {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.string)
        let failedBefore = poisoned
        poisoned = true
        let text = try parser.parseString()
        valueDone()
        poisoned = failedBefore
        return text
    }

    /// Reads the string that comes next and passes its unescaped UTF-8 bytes to `body`, without
    /// making a `String`.
    ///
    /// - Throws: ``Fido2EncodingError`` `unexpectedKind` when the next value is not a string
    ///   (the scanner stays usable), or a syntax or limit code.
    package mutating func readStringUTF8<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) -> Result
    )
        throws(Fido2EncodingError) -> Result
    {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.string)
        let failedBefore = poisoned
        poisoned = true
        let scanned = try parser.scanString()
        valueDone()
        poisoned = failedBefore
        switch scanned {
        case .input(let range):
            return body(UnsafeBufferPointer(rebasing: parser.input[range]))
        case .scratch:
            return parser.scratch.withUnsafeBufferPointer(body)
        }
    }

    /// Reads the string that comes next as unpadded base64url (exact padding tolerated, as
    /// ``Base64URL`` allows) and returns the bytes it encodes, decoded straight from the input.
    ///
    /// - Throws: ``Fido2EncodingError`` `unexpectedKind` when the next value is not a string (the
    ///   scanner stays usable), a syntax or limit code, or a ``Base64URL`` code with the offset
    ///   of the bad character in the input (of the string's opening quote when the string
    ///   holds escapes).
    package mutating func readBase64URL() throws(Fido2EncodingError) -> [UInt8] {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.string)
        let failedBefore = poisoned
        poisoned = true
        let result = try base64URL()
        poisoned = failedBefore
        return result
    }

    private mutating func base64URL() throws(Fido2EncodingError) -> [UInt8] {
        let quote = parser.position
        let scanned = try parser.scanString()
        let result: Swift.Result<[UInt8], Fido2EncodingError>
        let base: Int
        switch scanned {
        case .input(let range):
            base = range.lowerBound
            result = Base64Engine.decodeBuffer(
                UnsafeBufferPointer(rebasing: parser.input[range]), alphabet: Base64Engine.url,
                padding: .optional)
        case .scratch:
            // Escapes in base64url are pointless but legal JSON; offsets then name the string.
            base = quote
            result = parser.scratch.withUnsafeBufferPointer {
                Base64Engine.decodeBuffer($0, alphabet: Base64Engine.url, padding: .optional)
            }
        }
        valueDone()
        switch result {
        case .success(let bytes):
            return bytes
        case .failure(let error):
            let offset = scanned.isInput ? base + (error.offset ?? 0) : base
            throw Fido2EncodingError(error.code, error.reason, offset: offset)
        }
    }

    /// Reads the number that comes next.
    ///
    /// - Throws: ``Fido2EncodingError`` `unexpectedKind` when the next value is not a number
    ///   (the scanner stays usable), or a syntax or limit code.
    @_spi(Fido2Internals) public mutating func readNumber() throws(Fido2EncodingError) -> JSONNumber
    {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.number)
        let failedBefore = poisoned
        poisoned = true
        let number = try parser.parseNumber()
        valueDone()
        poisoned = failedBefore
        return number
    }

    /// Reads the `true` or `false` that comes next.
    ///
    /// - Throws: ``Fido2EncodingError`` `unexpectedKind` when the next value is not a boolean
    ///   (the scanner stays usable), or a syntax or limit code.
    @_spi(Fido2Internals) public mutating func readBool() throws(Fido2EncodingError) -> Bool {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.boolean)
        let failedBefore = poisoned
        poisoned = true
        let flag = parser.input[parser.position] == UInt8(ascii: "t")
        try parser.expectLiteral(flag ? "true" : "false")
        valueDone()
        poisoned = failedBefore
        return flag
    }

    /// Reads the `null` that comes next.
    ///
    /// - Throws: ``Fido2EncodingError`` `unexpectedKind` when the next value is not `null` (the
    ///   scanner stays usable), or a syntax or limit code.
    @_spi(Fido2Internals) public mutating func readNull() throws(Fido2EncodingError) {
        // A value of another kind leaves the scanner usable, so it does not poison it.
        try expect(.null)
        let failedBefore = poisoned
        poisoned = true
        try parser.expectLiteral("null")
        valueDone()
        poisoned = failedBefore
    }

    /// Reads the value that comes next, whatever it is, as a tree.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``JSONReader/read(_:)-(Bytes)`` does.
    @_spi(Fido2Internals) public mutating func readValue() throws(Fido2EncodingError) -> JSONValue {
        let failedBefore = poisoned
        poisoned = true
        let result = try value()
        poisoned = failedBefore
        return result
    }

    private mutating func value() throws(Fido2EncodingError) -> JSONValue {
        _ = try peekKind()
        let value = try parser.parseValue(depth: containers.count)
        valueDone()
        return value
    }

    /// Checks and skips the value that comes next.
    ///
    /// - Throws: ``Fido2EncodingError`` as ``readValue()`` does.
    package mutating func skipValue() throws(Fido2EncodingError) {
        _ = try readValue()
    }

    private mutating func expect(_ kind: Kind) throws(Fido2EncodingError) {
        let found = try peekKind()
        guard found == kind else {
            throw Fido2EncodingError(
                .unexpectedKind, "expected \(kind), found \(found)", offset: parser.position)
        }
        try countItem()
    }

    private mutating func countItem() throws(Fido2EncodingError) {
        parser.itemCount += 1
        if parser.itemCount > parser.options.maximumItemCount {
            throw Fido2EncodingError(
                .tooManyItems,
                "more than \(parser.options.maximumItemCount) values in one document",
                offset: parser.position)
        }
    }

    // MARK: Finishing

    /// Reads whatever the body left (the value if it read none, the rest of open containers),
    /// then checks that only whitespace follows.
    @usableFromInline mutating func finish() -> Swift.Result<Void, Fido2EncodingError> {
        do throws(Fido2EncodingError) {
            if valuePending || (containers.isEmpty && !topLevelDone) {
                _ = try value()
            }
            while let container = containers.last {
                if container.isObject {
                    if try advanceMember() != nil { _ = try value() }
                } else if try advanceElement() {
                    _ = try value()
                }
            }
            parser.skipWhitespace()
            if parser.position < parser.input.count {
                throw Fido2EncodingError(
                    .trailingContent, "content after the JSON value", offset: parser.position)
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

extension JSONParser.ScannedString {
    /// Whether the bytes are in the input.
    var isInput: Bool {
        if case .input = self { return true }
        return false
    }
}
