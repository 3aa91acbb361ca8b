/// A decoded item head (RFC 8949 §3): the initial byte's two fields, the argument, and where the
/// item's content begins.
struct CBORHead {
    /// The major type, 0...7.
    var majorType: UInt8
    /// The additional information, 0...31 (28...30 are rejected while decoding).
    var additionalInfo: UInt8
    /// The argument: the value, length, count, tag number or simple value (0 when indefinite).
    var argument: UInt64
    /// The offset just past the head.
    var contentStart: Int

    /// Additional information 31: an indefinite-length item, or a break in major type 7.
    @inline(__always) var isIndefinite: Bool { additionalInfo == 31 }

    /// Whether a longer head than needed was used for the argument.
    @inline(__always) var isNonShortest: Bool {
        switch additionalInfo {
        case 24: return argument < 24
        case 25: return argument <= 0xff
        case 26: return argument <= 0xffff
        case 27: return argument <= 0xffff_ffff
        default: return false
        }
    }

    /// Decodes the head at `offset`, checking only that it is complete and not reserved.
    @inline(__always)
    static func decode(
        _ buffer: UnsafeBufferPointer<UInt8>, at offset: Int
    ) throws(CBORError)
        -> CBORHead
    {
        guard offset < buffer.count else { throw CBORError(.truncated, at: offset) }
        let initial = buffer[offset]
        let major = initial &>> 5
        let info = initial & 0x1f
        let argumentStart = offset &+ 1
        let width: Int
        switch info {
        case 0..<24:
            return CBORHead(
                majorType: major, additionalInfo: info, argument: UInt64(info),
                contentStart: argumentStart)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        case 27: width = 8
        case 31:
            return CBORHead(
                majorType: major, additionalInfo: info, argument: 0, contentStart: argumentStart)
        default:
            throw CBORError(.reservedAdditionalInfo, at: offset)
        }
        guard buffer.count &- argumentStart >= width else {
            throw CBORError(.truncated, at: offset)
        }
        let raw = UnsafeRawBufferPointer(buffer)
        let argument: UInt64
        switch width {
        case 1: argument = UInt64(buffer[argumentStart])
        case 2:
            argument = UInt64(
                UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: argumentStart, as: UInt16.self))
            )
        case 4:
            argument = UInt64(
                UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: argumentStart, as: UInt32.self))
            )
        default:
            argument = UInt64(
                bigEndian: raw.loadUnaligned(fromByteOffset: argumentStart, as: UInt64.self))
        }
        return CBORHead(
            majorType: major, additionalInfo: info, argument: argument,
            contentStart: argumentStart &+ width)
    }
}
