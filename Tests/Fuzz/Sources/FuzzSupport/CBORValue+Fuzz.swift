import Fido2CBOR

extension CBORValue {
    /// Whether a float appears anywhere in the value. Floats keep their width on the wire (CTAP2
    /// canonical CBOR leaves float representations alone) but not in ``CBORValue``, so items
    /// with floats re-encode equal in value, not byte for byte.
    public var containsFloat: Bool {
        switch self {
        case .float: return true
        case .array(let elements): return elements.contains { $0.containsFloat }
        case .map(let map):
            return map.entries.contains { $0.key.containsFloat || $0.value.containsFloat }
        case .tagged(_, let content): return content.containsFloat
        default: return false
        }
    }

    /// Whether any map in the value holds the same key twice (lenient input may).
    public var hasDuplicateKeys: Bool {
        switch self {
        case .array(let elements): return elements.contains { $0.hasDuplicateKeys }
        case .map(let map):
            return map.firstDuplicateKey != nil
                || map.entries.contains { $0.key.hasDuplicateKeys || $0.value.hasDuplicateKeys }
        case .tagged(_, let content): return content.hasDuplicateKeys
        default: return false
        }
    }
}
