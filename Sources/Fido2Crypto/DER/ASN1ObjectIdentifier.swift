/// An ASN.1 OBJECT IDENTIFIER (X.680 §32), such as `2.5.29.19` (basicConstraints).
///
/// Named so as not to clash with the standard library's `ObjectIdentifier`. Arcs are `UInt64`;
/// the first is 0, 1 or 2, and the second is below 40 when the first is 0 or 1.
public struct ASN1ObjectIdentifier: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The arcs, such as `[2, 5, 29, 19]`.
    public let components: [UInt64]

    /// An identifier from its arcs.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` for fewer than two arcs, a
    ///   first arc above 2, a second arc of 40 or more under 0 or 1, or a first sub-identifier
    ///   (40 × first + second) above `UInt64.max`.
    public init(components: [UInt64]) throws {
        guard components.count >= 2, components[0] <= 2 else {
            throw CryptoError(
                .derInvalidValue, "an OBJECT IDENTIFIER has at least two arcs, the first 0–2")
        }
        guard components[0] == 2 || components[1] < 40 else {
            throw CryptoError(.derInvalidValue, "second arc must be below 40 under arc 0 or 1")
        }
        guard components[1] <= UInt64.max - 80 else {
            throw CryptoError(.derInvalidValue, "second arc too large to encode")
        }
        self.components = components
    }

    /// An identifier known to be valid (constants in this module).
    init(valid components: UInt64...) {
        self.components = components
    }

    /// An identifier from its dotted form (`"1.3.6.1.4.1.45724.1.1.4"`); nil when the text is
    /// not decimal arcs separated by single dots (no signs, spaces or leading zeros) or breaks
    /// the rules of ``init(components:)``.
    public init?(dotted text: String) {
        var arcs: [UInt64] = []
        for part in text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        {
            guard !part.isEmpty, part.count == 1 || part.first != UInt8(ascii: "0") else {
                return nil
            }
            var value: UInt64 = 0
            for byte in part {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(
                    UInt64(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
            }
            arcs.append(value)
        }
        guard let valid = try? ASN1ObjectIdentifier(components: arcs) else { return nil }
        self = valid
    }

    /// Decodes the contents octets of a DER OBJECT IDENTIFIER.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` when empty or when the
    ///   last sub-identifier is cut off; ``CryptoError/Code-swift.struct/derNonMinimalEncoding``
    ///   for a sub-identifier with a leading 0x80 octet;
    ///   ``CryptoError/Code-swift.struct/derLimitExceeded`` for a sub-identifier above
    ///   `UInt64.max`. Offsets are within `contents`.
    public init<C: Collection<UInt8>>(derContents contents: C) throws {
        try self.init(decoding: contents)
    }

    /// ``init(derContents:)`` with its one error type, for this package's DER reader.
    package init<C: Collection<UInt8>>(decoding contents: C) throws(CryptoError) {
        guard !contents.isEmpty else {
            throw CryptoError(.derInvalidValue, "empty OBJECT IDENTIFIER", offset: 0)
        }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var start = true
        for (position, byte) in contents.enumerated() {
            if start && byte == 0x80 {
                throw CryptoError(
                    .derNonMinimalEncoding, "sub-identifier with a leading 0x80 octet",
                    offset: position)
            }
            guard value >> 57 == 0 else {
                throw CryptoError(
                    .derLimitExceeded, "sub-identifier larger than 64 bits", offset: position)
            }
            value = value << 7 | UInt64(byte & 0x7f)
            start = byte & 0x80 == 0
            if start {
                if arcs.isEmpty {
                    let first: UInt64 = value < 40 ? 0 : value < 80 ? 1 : 2
                    arcs.append(first)
                    arcs.append(value - first * 40)
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        guard start else {
            throw CryptoError(
                .derInvalidValue, "last sub-identifier is cut off", offset: contents.count - 1)
        }
        components = arcs
    }

    /// The contents octets of the DER encoding (without tag and length).
    public var derContents: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(components.count * 2)
        Self.appendBase128(components[0] * 40 + components[1], to: &out)
        for arc in components.dropFirst(2) { Self.appendBase128(arc, to: &out) }
        return out
    }

    private static func appendBase128(_ value: UInt64, to out: inout [UInt8]) {
        var shift: UInt64 = 63
        while shift > 0, value >> shift == 0 { shift -= 7 }
        while shift > 0 {
            out.append(UInt8(truncatingIfNeeded: value >> shift) & 0x7f | 0x80)
            shift -= 7
        }
        out.append(UInt8(truncatingIfNeeded: value) & 0x7f)
    }

    /// The dotted form, `"2.5.29.19"`.
    public var dotted: String {
        components.map { String($0) }.joined(separator: ".")
    }

    /// The dotted form.
    public var description: String { dotted }

    /// Arc-by-arc order (a prefix sorts first), for stable sorting.
    public static func < (lhs: ASN1ObjectIdentifier, rhs: ASN1ObjectIdentifier) -> Bool {
        lhs.components.lexicographicallyPrecedes(rhs.components)
    }
}
