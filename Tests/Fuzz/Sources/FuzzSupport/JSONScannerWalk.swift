@_spi(Fido2Internals) import Fido2Encoding

/// Reads a whole document through ``JSONScanner``'s pull API into a ``JSONValue``, so a fuzz
/// target can compare the scanner with ``JSONReader``.
public enum JSONScannerWalk {
    /// The document as the scanner reads it, member by member.
    ///
    /// - Throws: the scanner's ``Fido2EncodingError``.
    public static func value(
        of bytes: [UInt8], options: JSONReader.Options = JSONReader.Options()
    ) throws(Fido2EncodingError) -> JSONValue {
        try JSONScanner.scan(bytes, options: options, mapError: { $0 }) {
            (scanner) throws(Fido2EncodingError) in try walk(&scanner)
        }
    }

    /// Scans the document without reading anything, leaving the scanner to check it all.
    ///
    /// - Throws: the scanner's ``Fido2EncodingError``.
    public static func skip(_ bytes: [UInt8]) throws(Fido2EncodingError) {
        try JSONScanner.scan(bytes, mapError: { $0 }) {
            (_: inout JSONScanner) throws(Fido2EncodingError) in
        }
    }

    private static func walk(_ scanner: inout JSONScanner) throws(Fido2EncodingError) -> JSONValue {
        switch try scanner.peek() {
        case .object:
            try scanner.beginObject()
            var object = JSONObject()
            while let name = try scanner.nextMember() {
                object.append(name.string, try walk(&scanner))
            }
            return .object(object)
        case .array:
            try scanner.beginArray()
            var elements: [JSONValue] = []
            while try scanner.nextElement() {
                elements.append(try walk(&scanner))
            }
            return .array(elements)
        case .string: return .string(try scanner.readString())
        case .number: return .number(try scanner.readNumber())
        case .boolean: return .bool(try scanner.readBool())
        case .null:
            try scanner.readNull()
            return .null
        }
    }
}
