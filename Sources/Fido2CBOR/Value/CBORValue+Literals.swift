extension CBORValue: ExpressibleByIntegerLiteral {
    /// An integer literal, as `.unsigned` or `.negative`.
    public init(integerLiteral value: Int64) { self.init(value) }
}

extension CBORValue: ExpressibleByStringLiteral {
    /// A string literal, as `.textString`.
    public init(stringLiteral value: String) { self = .textString(value) }
}

extension CBORValue: ExpressibleByBooleanLiteral {
    /// A Boolean literal, as `.boolean`.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
}

extension CBORValue: ExpressibleByFloatLiteral {
    /// A float literal, as `.float`.
    public init(floatLiteral value: Double) { self = .float(value) }
}

extension CBORValue: ExpressibleByNilLiteral {
    /// `nil`, as `.null`.
    public init(nilLiteral: ()) { self = .null }
}

extension CBORValue: ExpressibleByArrayLiteral {
    /// An array literal, as `.array`.
    public init(arrayLiteral elements: CBORValue...) { self = .array(elements) }
}

extension CBORValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal, as `.map` with the entries in source order.
    public init(dictionaryLiteral elements: (CBORValue, CBORValue)...) {
        self = .map(CBORMap(elements.map { CBORMap.Entry(key: $0.0, value: $0.1) }))
    }
}
