/// Writes CBOR into a growable byte array it owns, item by item (see ``CBOROutput`` for the
/// `write…` methods and the encoding rules).
///
/// Reserve the exact size with ``init(capacity:)`` (``CBORSize`` computes it) and the output
/// array is the only allocation; when the size is known up front, ``CBORBufferWriter/encode(byteCount:_:)``
/// is faster still, writing into the array's storage directly.
public struct CBORWriter: CBOROutput, Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Creates a writer whose buffer has room for `capacity` bytes before it must grow.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Creates a writer that appends to `buffer`.
    public init(appendingTo buffer: [UInt8]) { bytes = buffer }

    /// The size of a head carrying `argument`: 1, 2, 3, 5 or 9 bytes (``CBORSize/head(_:)``).
    @inlinable
    public static func headLength(for argument: UInt64) -> Int { CBORSize.head(argument) }

    /// The encoded size of a byte or text string of `count` bytes (``CBORSize/string(count:)``).
    @inlinable
    public static func stringLength(count: Int) -> Int { CBORSize.string(count: count) }

    /// Writes a head in its shortest form, in one append.
    @inlinable
    public mutating func writeHead(majorType: CBORMajorType, argument: UInt64) {
        if argument < 24 {
            bytes.append(majorType.rawValue << 5 | UInt8(truncatingIfNeeded: argument))
            return
        }
        var storage: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &storage) { raw in
            let length = CBORSize.storeHead(
                majorType: majorType, argument: argument, at: raw.baseAddress!)
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[0..<length]))
        }
    }

    /// Appends bytes as they are.
    @inlinable
    public mutating func writeRawBytes(_ raw: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: raw)
    }
}
