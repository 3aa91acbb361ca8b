/// Writes CBOR into a byte buffer it owns, item by item, always in preferred serialization:
/// the shortest head for every integer, length and tag, and the shortest float that keeps the
/// value (with the one canonical NaN, `f9 7e00`).
///
/// The writer does not sort map keys on its own: code that writes known keys (COSE keys,
/// attestation objects) writes them in CTAP2 canonical order, which costs nothing; use
/// ``writeValue(_:)`` or ``writeCanonicalMap(_:)`` to have keys sorted. Reserve the exact size
/// with ``init(capacity:)`` (see ``headLength(for:)``) and the output buffer is the only
/// allocation.
public struct CBORWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8]

    /// Creates a writer whose buffer has room for `capacity` bytes before it must grow.
    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Creates a writer that appends to `buffer`.
    public init(appendingTo buffer: [UInt8]) { bytes = buffer }

    /// The size of a head carrying `argument`: 1, 2, 3, 5 or 9 bytes.
    @inlinable
    public static func headLength(for argument: UInt64) -> Int {
        switch argument {
        case 0..<24: return 1
        case 24...0xff: return 2
        case 0x100...0xffff: return 3
        case 0x1_0000...0xffff_ffff: return 5
        default: return 9
        }
    }

    /// The encoded size of a byte or text string of `count` bytes.
    @inlinable
    public static func stringLength(count: Int) -> Int {
        headLength(for: UInt64(count)) + count
    }

    /// Writes a head: major type (0...7) and argument, in the shortest form.
    @inlinable
    public mutating func writeHead(majorType: CBORMajorType, argument: UInt64) {
        let initial = majorType.rawValue << 5
        switch argument {
        case 0..<24:
            bytes.append(initial | UInt8(truncatingIfNeeded: argument))
        case 24...0xff:
            bytes.append(initial | 24)
            bytes.append(UInt8(truncatingIfNeeded: argument))
        case 0x100...0xffff:
            bytes.append(initial | 25)
            appendBigEndian(UInt16(truncatingIfNeeded: argument))
        case 0x1_0000...0xffff_ffff:
            bytes.append(initial | 26)
            appendBigEndian(UInt32(truncatingIfNeeded: argument))
        default:
            bytes.append(initial | 27)
            appendBigEndian(argument)
        }
    }

    @inlinable
    mutating func appendBigEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Writes an unsigned integer (major type 0).
    @inlinable
    public mutating func writeUnsigned(_ value: UInt64) {
        writeHead(majorType: .unsigned, argument: value)
    }

    /// Writes the negative integer `-1 - n` (major type 1).
    @inlinable
    public mutating func writeNegative(_ n: UInt64) {
        writeHead(majorType: .negative, argument: n)
    }

    /// Writes a signed integer as major type 0 or 1.
    @inlinable
    public mutating func writeInt(_ value: Int64) {
        if value >= 0 {
            writeHead(majorType: .unsigned, argument: UInt64(value))
        } else {
            writeHead(majorType: .negative, argument: UInt64(~value))
        }
    }

    /// Writes a signed integer as major type 0 or 1.
    @inlinable
    public mutating func writeInt(_ value: Int) { writeInt(Int64(value)) }

    /// Writes a byte string (major type 2).
    @inlinable
    public mutating func writeByteString(_ content: [UInt8]) {
        writeHead(majorType: .byteString, argument: UInt64(content.count))
        bytes.append(contentsOf: content)
    }

    /// Writes a byte string (major type 2).
    @inlinable
    public mutating func writeByteString(_ content: ArraySlice<UInt8>) {
        writeHead(majorType: .byteString, argument: UInt64(content.count))
        bytes.append(contentsOf: content)
    }

    /// Writes a byte string (major type 2).
    @inlinable
    public mutating func writeByteString(_ content: UnsafeRawBufferPointer) {
        writeHead(majorType: .byteString, argument: UInt64(content.count))
        bytes.append(contentsOf: content)
    }

    /// Writes a text string (major type 3).
    @inlinable
    public mutating func writeTextString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            writeHead(majorType: .textString, argument: UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// Writes the head of a definite-length array of `count` items; write the items next.
    @inlinable
    public mutating func writeArrayHeader(count: Int) {
        writeHead(majorType: .array, argument: UInt64(count))
    }

    /// Writes the head of a definite-length map of `count` entries; write key, value, key, …
    /// next, in canonical key order when the output must be deterministic.
    @inlinable
    public mutating func writeMapHeader(count: Int) {
        writeHead(majorType: .map, argument: UInt64(count))
    }

    /// Writes a tag number (major type 6); write the tagged item next.
    @inlinable
    public mutating func writeTag(_ tag: UInt64) {
        writeHead(majorType: .tag, argument: tag)
    }

    /// Writes `false` or `true`.
    @inlinable
    public mutating func writeBool(_ value: Bool) { bytes.append(value ? 0xf5 : 0xf4) }

    /// Writes `null`.
    @inlinable
    public mutating func writeNull() { bytes.append(0xf6) }

    /// Writes `undefined`.
    @inlinable
    public mutating func writeUndefined() { bytes.append(0xf7) }

    /// Writes a simple value other than false, true, null and undefined.
    @inlinable
    public mutating func writeSimple(_ value: CBORSimpleValue) {
        writeHead(majorType: .simpleOrFloat, argument: UInt64(value.rawValue))
    }

    /// Writes a float in the shortest of half, single and double precision that keeps its value
    /// exactly; every NaN is written as the canonical half-precision NaN `f9 7e00`.
    public mutating func writeFloat(_ value: Double) {
        if value.isNaN {
            bytes.append(contentsOf: [0xf9, 0x7e, 0x00] as [UInt8])
            return
        }
        let single = Float(value)
        if Double(single) == value {
            if let half = FloatBits.halfBits(exactly: single) {
                bytes.append(0xf9)
                appendBigEndian(half)
            } else {
                bytes.append(0xfa)
                appendBigEndian(single.bitPattern)
            }
        } else {
            bytes.append(0xfb)
            appendBigEndian(value.bitPattern)
        }
    }

    /// Appends an item that is already encoded, such as a COSE key kept as bytes. The caller
    /// vouches that `encoded` is exactly one well-formed item.
    @inlinable
    public mutating func writeEncodedItem(_ encoded: [UInt8]) {
        bytes.append(contentsOf: encoded)
    }

    /// Appends an item that is already encoded; see ``writeEncodedItem(_:)-([UInt8])``.
    @inlinable
    public mutating func writeEncodedItem(_ encoded: ArraySlice<UInt8>) {
        bytes.append(contentsOf: encoded)
    }
}
