/// UTF-8 validation without allocating (RFC 3629: no overlongs, no surrogates, at most U+10FFFF).
enum UTF8Validation {
    /// Whether `buffer[range]` is well-formed UTF-8.
    @inline(__always)
    static func isValid(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        // All ASCII is the common case (keys, identifiers, origins): OR-ing the bytes is cheap
        // and vectorizes, and stays inline.
        var combined: UInt8 = 0
        for index in range { combined |= buffer[index] }
        return combined < 0x80 || isValidMultibyte(buffer, range)
    }

    /// The full check, for text with non-ASCII bytes.
    @inline(never)
    static func isValidMultibyte(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    )
        -> Bool
    {
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            let lead = buffer[index]
            if lead < 0x80 {
                index &+= 1
                continue
            }
            let length: Int
            var lowerBound: UInt8 = 0x80
            var upperBound: UInt8 = 0xbf
            switch lead {
            case 0xc2...0xdf: length = 2
            case 0xe0:
                length = 3
                lowerBound = 0xa0
            case 0xe1...0xec, 0xee...0xef: length = 3
            case 0xed:
                length = 3
                upperBound = 0x9f
            case 0xf0:
                length = 4
                lowerBound = 0x90
            case 0xf1...0xf3: length = 4
            case 0xf4:
                length = 4
                upperBound = 0x8f
            default: return false
            }
            guard end &- index >= length else { return false }
            let second = buffer[index &+ 1]
            guard second >= lowerBound && second <= upperBound else { return false }
            var continuation = index &+ 2
            while continuation < index &+ length {
                guard buffer[continuation] & 0xc0 == 0x80 else { return false }
                continuation &+= 1
            }
            index &+= length
        }
        return true
    }
}
