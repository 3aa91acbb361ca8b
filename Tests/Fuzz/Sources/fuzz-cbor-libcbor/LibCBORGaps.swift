/// The items RFC 8949 calls well-formed that libcbor 0.8 refuses, found by their heads: simple
/// values 0–19 (`e0`–`f3`), every two-byte simple value (`f8 xx`), and tags 6–20 in their
/// one-byte form (`c6`–`d4`). Tags 6–20 written with a longer head (`d8 06`) are not a gap, so
/// they stay in the comparison.
enum LibCBORGaps {
    /// Whether `bytes`, already accepted as one well-formed item, holds any of the gaps.
    static func contains(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let initial = bytes[offset]
            switch initial {
            case 0xc6...0xd4, 0xe0...0xf3, 0xf8: return true
            default: break
            }
            offset += 1
            let info = initial & 0x1f
            let width = info < 24 || info == 31 ? 0 : 1 << Int(info - 24)
            guard offset + width <= bytes.count else { return false }
            var argument: UInt64 = info < 24 ? UInt64(info) : 0
            for byte in bytes[offset..<(offset + width)] { argument = argument << 8 | UInt64(byte) }
            offset += width
            // Skip string content; every other head is followed by its nested items' heads.
            if initial >> 5 == 2 || initial >> 5 == 3, info != 31 {
                guard argument <= UInt64(bytes.count - offset) else { return false }
                offset += Int(argument)
            }
        }
        return false
    }
}
