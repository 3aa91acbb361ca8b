extension String {
    /// Whether the two strings have the same UTF-8 bytes. JSON compares member names code unit
    /// by code unit; Swift's `==` would also equate canonically equivalent spellings (`é` and
    /// `e` + U+0301, `K` and the Kelvin sign). Cheap for native strings: a length check, then
    /// a byte loop over their contiguous storage.
    func hasSameUTF8(as other: String) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        let result = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                for index in 0..<count where a[index] != b[index] { return false }
                return true
            }
        }
        if let result, let result { return result }
        return utf8.elementsEqual(other.utf8)
    }
}
