/// Writes CBOR straight into the storage of a new array whose size is known in advance: the
/// fastest way to encode, with the array as the only allocation and no growth checks beyond one
/// comparison per write. See ``CBOROutput`` for the `write…` methods.
///
/// ```swift
/// let bytes = CBORBufferWriter.encode(byteCount: size) { writer in
///     writer.writeMapHeader(count: 1)
///     writer.writeTextLiteral("fmt")
///     writer.writeTextLiteral("none")
/// }
/// ```
///
/// A writer exists only inside ``encode(byteCount:_:)``'s closure; do not keep it beyond it.
public struct CBORBufferWriter: CBOROutput {
    @usableFromInline let base: UnsafeMutableRawPointer?
    @usableFromInline let capacity: Int
    /// The bytes the writes so far needed, stored or not.
    @usableFromInline var needed: Int = 0

    @usableFromInline
    init(base: UnsafeMutableRawPointer?, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The number of bytes written so far.
    public var count: Int { needed }

    /// Encodes with `body` into a new array, reserving `byteCount` bytes for it.
    ///
    /// When `byteCount` is exact the array's storage is allocated once and written in place.
    /// When it is too small, nothing is lost: `body` runs a second time with the size the first
    /// run needed, so `body` must write the same items each time it is called.
    @inlinable
    public static func encode(byteCount: Int, _ body: (inout CBORBufferWriter) -> Void) -> [UInt8] {
        guard byteCount > 0 else {
            // Measure without an array: `[UInt8](unsafeUninitializedCapacity: 0)` would store
            // into the stdlib's shared empty-array storage, which races with other threads.
            var writer = CBORBufferWriter(base: nil, capacity: 0)
            body(&writer)
            return writer.needed == 0 ? [] : encode(byteCount: writer.needed, body)
        }
        var needed = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, written in
            var writer = CBORBufferWriter(
                base: UnsafeMutableRawPointer(buffer.baseAddress), capacity: buffer.count)
            body(&writer)
            needed = writer.needed
            written = min(writer.needed, buffer.count)
        }
        if needed <= bytes.count { return bytes }
        return encode(byteCount: needed, body)
    }

    /// Writes a head in its shortest form.
    @inlinable
    public mutating func writeHead(majorType: CBORMajorType, argument: UInt64) {
        let length = CBORSize.head(argument)
        if let base, capacity &- needed >= length {
            _ = CBORSize.storeHead(majorType: majorType, argument: argument, at: base + needed)
        }
        needed &+= length
    }

    /// Appends bytes as they are.
    @inlinable
    public mutating func writeRawBytes(_ raw: UnsafeRawBufferPointer) {
        if let base, let source = raw.baseAddress, capacity &- needed >= raw.count {
            (base + needed).copyMemory(from: source, byteCount: raw.count)
        }
        needed &+= raw.count
    }
}
