/// Reads big-endian integers and length-prefixed fields from a byte slice, front to back,
/// without copying: authenticator data and the TPM structures are read with it.
///
/// Every read checks the bytes that remain first and reports a short input as
/// ``WebAuthnError/Code-swift.struct/truncated`` naming the field and the offset (counted from
/// the start of the slice) where it should have started.
struct BinaryCursor {
    /// The whole input.
    let bytes: ArraySlice<UInt8>
    /// The index (in `bytes`' own indices) of the next byte.
    private(set) var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// The offset of the next byte from the start of the input.
    var offset: Int { index - bytes.startIndex }

    /// How many bytes are left.
    var remaining: Int { bytes.endIndex - index }

    /// Whether every byte has been read.
    var isAtEnd: Bool { index == bytes.endIndex }

    /// The bytes not read yet.
    var rest: ArraySlice<UInt8> { bytes[index...] }

    /// Moves past `count` bytes that were consumed elsewhere (a CBOR item).
    mutating func skip(_ count: Int) {
        index += min(count, remaining)
    }

    /// The next `count` bytes.
    mutating func take(
        _ count: Int, _ field: @autoclosure () -> String
    ) throws(WebAuthnError)
        -> ArraySlice<UInt8>
    {
        guard count >= 0, count <= remaining else {
            throw WebAuthnError(
                .truncated,
                "needs \(count) byte\(count == 1 ? "" : "s"), \(remaining) left",
                field: field(), offset: offset)
        }
        let slice = bytes[index..<(index + count)]
        index += count
        return slice
    }

    mutating func uint8(_ field: @autoclosure () -> String) throws(WebAuthnError) -> UInt8 {
        let slice = try take(1, field())
        return slice[slice.startIndex]
    }

    mutating func uint16(_ field: @autoclosure () -> String) throws(WebAuthnError) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(2, field()))
    }

    mutating func uint32(_ field: @autoclosure () -> String) throws(WebAuthnError) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(4, field()))
    }

    mutating func uint64(_ field: @autoclosure () -> String) throws(WebAuthnError) -> UInt64 {
        try integer(8, field())
    }

    /// A TPM2B structure: a 16-bit size, then that many bytes.
    mutating func sized16(
        _ field: @autoclosure () -> String
    ) throws(WebAuthnError)
        -> ArraySlice<UInt8>
    {
        let name = field()
        let size = try uint16(name + ".size")
        return try take(Int(size), name)
    }

    private mutating func integer(
        _ width: Int, _ field: @autoclosure () -> String
    )
        throws(WebAuthnError) -> UInt64
    {
        var value: UInt64 = 0
        for byte in try take(width, field()) { value = value << 8 | UInt64(byte) }
        return value
    }
}

extension Array where Element == UInt8 {
    /// Appends `value` big-endian in `width` bytes.
    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether the array ends with `suffix`.
    package func ends(with suffix: some Collection<UInt8>) -> Bool {
        count >= suffix.count && self.suffix(suffix.count).elementsEqual(suffix)
    }
}
