/// Somewhere CBOR items can be written: a growable array (``CBORWriter``) or the storage of an
/// array whose size is known in advance (``CBORBufferWriter``).
///
/// Conforming types provide the two primitive writes; every `write…` method comes from this
/// protocol's extension and always uses preferred serialization: the shortest head for every
/// integer, length and tag, and the shortest float that keeps the value (with the one canonical
/// NaN, `f9 7e00`). Map keys are written in the order given: code that writes known keys (COSE
/// keys, attestation objects) writes them in CTAP2 canonical order, which costs nothing; use
/// ``writeValue(_:)`` or ``writeCanonicalMap(_:)`` to have keys sorted.
public protocol CBOROutput {
    /// Writes a head, major type and argument, in its shortest form.
    mutating func writeHead(majorType: CBORMajorType, argument: UInt64)
    /// Appends bytes as they are (the content of a string, or an item already encoded).
    mutating func writeRawBytes(_ bytes: UnsafeRawBufferPointer)
}

/// Encoded sizes, for reserving exactly the room an encoding needs.
public enum CBORSize {
    /// The size of a head carrying `argument`: 1, 2, 3, 5 or 9 bytes.
    @inlinable
    public static func head(_ argument: UInt64) -> Int {
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
    public static func string(count: Int) -> Int { head(UInt64(count)) + count }

    /// The encoded size of an integer.
    @inlinable
    public static func int(_ value: Int64) -> Int {
        head(value >= 0 ? UInt64(value) : UInt64(~value))
    }

    /// The additional information and argument width of the shortest head for `argument`.
    @inlinable
    static func headShape(_ argument: UInt64) -> (info: UInt8, width: Int) {
        switch argument {
        case 0..<24: return (UInt8(truncatingIfNeeded: argument), 0)
        case 24...0xff: return (24, 1)
        case 0x100...0xffff: return (25, 2)
        case 0x1_0000...0xffff_ffff: return (26, 4)
        default: return (27, 8)
        }
    }

    /// Stores the shortest head for `argument` at `destination` (which has room for it) and
    /// returns its length.
    @inlinable
    static func storeHead(
        majorType: CBORMajorType, argument: UInt64, at destination: UnsafeMutableRawPointer
    ) -> Int {
        let (info, width) = headShape(argument)
        destination.storeBytes(of: majorType.rawValue << 5 | info, as: UInt8.self)
        switch width {
        case 0: break
        case 1:
            (destination + 1).storeBytes(of: UInt8(truncatingIfNeeded: argument), as: UInt8.self)
        case 2:
            (destination + 1).storeBytes(
                of: UInt16(truncatingIfNeeded: argument).bigEndian, as: UInt16.self)
        case 4:
            (destination + 1).storeBytes(
                of: UInt32(truncatingIfNeeded: argument).bigEndian, as: UInt32.self)
        default: (destination + 1).storeBytes(of: argument.bigEndian, as: UInt64.self)
        }
        return 1 &+ width
    }
}

extension CBOROutput {
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
    public mutating func writeByteString(_ content: UnsafeRawBufferPointer) {
        writeHead(majorType: .byteString, argument: UInt64(content.count))
        writeRawBytes(content)
    }

    /// Writes a byte string (major type 2).
    @inlinable
    public mutating func writeByteString(_ content: [UInt8]) {
        content.withUnsafeBytes { writeByteString($0) }
    }

    /// Writes a byte string (major type 2).
    @inlinable
    public mutating func writeByteString(_ content: ArraySlice<UInt8>) {
        content.withUnsafeBytes { writeByteString($0) }
    }

    /// Writes a text string (major type 3).
    @inlinable
    public mutating func writeTextString(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            writeHead(majorType: .textString, argument: UInt64(utf8.count))
            writeRawBytes(UnsafeRawBufferPointer(utf8))
        }
    }

    /// Writes a text string known at compile time, such as a map key, without going through
    /// `String`.
    @inlinable
    public mutating func writeTextLiteral(_ text: StaticString) {
        if text.hasPointerRepresentation {
            writeHead(majorType: .textString, argument: UInt64(text.utf8CodeUnitCount))
            writeRawBytes(
                UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        } else {
            writeTextString(text.description)
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
    public mutating func writeBool(_ value: Bool) {
        writeHead(majorType: .simpleOrFloat, argument: value ? 21 : 20)
    }

    /// Writes `null`.
    @inlinable
    public mutating func writeNull() { writeHead(majorType: .simpleOrFloat, argument: 22) }

    /// Writes `undefined`.
    @inlinable
    public mutating func writeUndefined() { writeHead(majorType: .simpleOrFloat, argument: 23) }

    /// Writes a simple value other than false, true, null and undefined.
    @inlinable
    public mutating func writeSimple(_ value: CBORSimpleValue) {
        writeHead(majorType: .simpleOrFloat, argument: UInt64(value.rawValue))
    }

    /// Writes a float in the shortest of half, single and double precision that keeps its value
    /// exactly; every NaN is written as the canonical half-precision NaN `f9 7e00`.
    public mutating func writeFloat(_ value: Double) {
        var encoded: (UInt8, UInt64) = (0xf9, 0x7e00)
        var width = 2
        if !value.isNaN {
            let single = Float(value)
            if Double(single) != value {
                encoded = (0xfb, value.bitPattern)
                width = 8
            } else if let half = FloatBits.halfBits(exactly: single) {
                encoded = (0xf9, UInt64(half))
            } else {
                encoded = (0xfa, UInt64(single.bitPattern))
                width = 4
            }
        }
        var bytes = (encoded.0, encoded.1.bigEndian)
        withUnsafeBytes(of: &bytes.0) { writeRawBytes($0) }
        withUnsafeBytes(of: &bytes.1) {
            writeRawBytes(UnsafeRawBufferPointer(rebasing: $0[(8 - width)...]))
        }
    }

    /// Appends an item that is already encoded, such as a COSE key kept as bytes. The caller
    /// vouches that `encoded` is exactly one well-formed item.
    @inlinable
    public mutating func writeEncodedItem(_ encoded: [UInt8]) {
        encoded.withUnsafeBytes { writeRawBytes($0) }
    }

    /// Appends an item that is already encoded; see ``writeEncodedItem(_:)-([UInt8])``.
    @inlinable
    public mutating func writeEncodedItem(_ encoded: ArraySlice<UInt8>) {
        encoded.withUnsafeBytes { writeRawBytes($0) }
    }
}
