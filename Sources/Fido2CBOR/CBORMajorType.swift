/// The eight CBOR major types (RFC 8949 §3.1), the top three bits of every head.
public enum CBORMajorType: UInt8, Sendable, Hashable, CaseIterable {
    /// Major type 0: an unsigned integer 0 ... 2^64-1.
    case unsigned = 0
    /// Major type 1: a negative integer -2^64 ... -1.
    case negative = 1
    /// Major type 2: a byte string.
    case byteString = 2
    /// Major type 3: a UTF-8 text string.
    case textString = 3
    /// Major type 4: an array.
    case array = 4
    /// Major type 5: a map.
    case map = 5
    /// Major type 6: a tag and its content.
    case tag = 6
    /// Major type 7: a simple value (false, true, null, undefined, others) or a float.
    case simpleOrFloat = 7
}
