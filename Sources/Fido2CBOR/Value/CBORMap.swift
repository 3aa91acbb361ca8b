/// The entries of a CBOR map, in the order they were decoded or added.
///
/// Order is kept so that diagnostic output and lenient inputs (which may repeat keys or use any
/// order) are represented faithfully; encoding a map through ``CBORWriter/writeValue(_:)`` or
/// ``CBORValue/encoded()`` always sorts the keys into CTAP2 canonical order. Two maps are equal
/// when they hold the same entries in the same order.
public struct CBORMap: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One key-value pair.
    public struct Entry: Sendable, Hashable {
        /// The key.
        public var key: CBORValue
        /// The value.
        public var value: CBORValue

        /// Creates an entry.
        public init(key: CBORValue, value: CBORValue) {
            self.key = key
            self.value = value
        }
    }

    /// The entries in order.
    public var entries: [Entry]

    /// Creates a map from entries, kept in the order given.
    public init(_ entries: [Entry] = []) { self.entries = entries }

    /// Creates a map from a dictionary literal, kept in source order.
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        entries = elements.map { Entry(key: $0.0, value: $0.1) }
    }

    /// The number of entries.
    public var count: Int { entries.count }

    /// The value of the first entry whose key equals `key`, or nil.
    public subscript(key: CBORValue) -> CBORValue? {
        entries.first { $0.key == key }?.value
    }

    /// The first key that occurs more than once, or nil when all keys are distinct.
    public var firstDuplicateKey: CBORValue? {
        var seen = Set<CBORValue>()
        for entry in entries where !seen.insert(entry.key).inserted {
            return entry.key
        }
        return nil
    }

    /// Diagnostic notation of the map.
    public var description: String { CBORValue.map(self).description }
}
