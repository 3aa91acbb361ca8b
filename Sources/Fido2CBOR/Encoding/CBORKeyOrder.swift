/// The CTAP2 canonical order of encoded map keys (CTAP 2.1 §8, after RFC 7049 §3.9).
///
/// Keys sort by major type, then by the length of their encoding, then byte by byte. For the
/// keys WebAuthn and COSE use (integers and short text strings in their shortest encodings) this
/// is the same order as RFC 8949 §4.2.1's bytewise lexicographic order.
public enum CBORKeyOrder {
    /// Compares two encoded keys: negative when `lhs` sorts first, zero when equal, positive
    /// when `rhs` sorts first. Empty encodings (never produced by a decoder) sort first.
    public static func compare(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Int
    {
        if lhs.isEmpty || rhs.isEmpty { return lhs.count - rhs.count }
        let leftMajor = lhs[0] >> 5
        let rightMajor = rhs[0] >> 5
        if leftMajor != rightMajor { return leftMajor < rightMajor ? -1 : 1 }
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        for index in 0..<lhs.count where lhs[index] != rhs[index] {
            return lhs[index] < rhs[index] ? -1 : 1
        }
        return 0
    }

    /// ``compare(_:_:)`` on two encoded keys held in byte arrays.
    public static func compare(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
        lhs.withUnsafeBytes { left in rhs.withUnsafeBytes { right in compare(left, right) } }
    }
}
