/// The identifier of a DER element: its class, whether it is constructed, and its number
/// (X.690 §8.1.2).
///
/// Tag numbers up to 30 fit the identifier octet; larger numbers use the high-tag-number form.
/// The reader admits numbers up to `UInt32.max`.
public struct DERTag: Hashable, Sendable, CustomStringConvertible {
    /// The four tag classes of X.690.
    public enum TagClass: UInt8, Hashable, Sendable {
        /// Types defined by X.680 itself (INTEGER, SEQUENCE, …).
        case universal = 0
        /// Application-wide types.
        case application = 1
        /// Tags local to one structure (`[0]`, `[3]`, …): explicit and implicit tagging.
        case contextSpecific = 2
        /// Private-use types.
        case `private` = 3
    }

    /// The tag's class.
    public let tagClass: TagClass
    /// Whether the contents are a series of elements (SEQUENCE, SET, explicit tags) rather than
    /// a primitive value.
    public let isConstructed: Bool
    /// The tag number within its class.
    public let number: UInt32

    /// A tag from its parts.
    public init(_ tagClass: TagClass, number: UInt32, constructed: Bool) {
        self.tagClass = tagClass
        self.number = number
        self.isConstructed = constructed
    }

    /// A context-specific tag `[number]`: constructed for explicit tagging (and for implicit
    /// tagging of constructed types), primitive for implicit tagging of primitive types.
    public static func contextSpecific(_ number: UInt32, constructed: Bool) -> DERTag {
        DERTag(.contextSpecific, number: number, constructed: constructed)
    }

    /// UNIVERSAL 1, primitive.
    public static let boolean = DERTag(.universal, number: 1, constructed: false)
    /// UNIVERSAL 2, primitive.
    public static let integer = DERTag(.universal, number: 2, constructed: false)
    /// UNIVERSAL 3, primitive (DER forbids the constructed form).
    public static let bitString = DERTag(.universal, number: 3, constructed: false)
    /// UNIVERSAL 4, primitive (DER forbids the constructed form).
    public static let octetString = DERTag(.universal, number: 4, constructed: false)
    /// UNIVERSAL 5, primitive.
    public static let null = DERTag(.universal, number: 5, constructed: false)
    /// UNIVERSAL 6, primitive.
    public static let objectIdentifier = DERTag(.universal, number: 6, constructed: false)
    /// UNIVERSAL 10, primitive.
    public static let enumerated = DERTag(.universal, number: 10, constructed: false)
    /// UNIVERSAL 12, primitive.
    public static let utf8String = DERTag(.universal, number: 12, constructed: false)
    /// UNIVERSAL 16, constructed (SEQUENCE and SEQUENCE OF).
    public static let sequence = DERTag(.universal, number: 16, constructed: true)
    /// UNIVERSAL 17, constructed (SET and SET OF).
    public static let set = DERTag(.universal, number: 17, constructed: true)
    /// UNIVERSAL 18, primitive: digits and space.
    public static let numericString = DERTag(.universal, number: 18, constructed: false)
    /// UNIVERSAL 19, primitive: `A–Z a–z 0–9 '()+,-./:=?` and space.
    public static let printableString = DERTag(.universal, number: 19, constructed: false)
    /// UNIVERSAL 20, primitive (T.61; read as ISO 8859-1, as most software does).
    public static let teletexString = DERTag(.universal, number: 20, constructed: false)
    /// UNIVERSAL 22, primitive: 7-bit ASCII.
    public static let ia5String = DERTag(.universal, number: 22, constructed: false)
    /// UNIVERSAL 23, primitive: `YYMMDDHHMMSSZ`.
    public static let utcTime = DERTag(.universal, number: 23, constructed: false)
    /// UNIVERSAL 24, primitive: `YYYYMMDDHHMMSSZ`.
    public static let generalizedTime = DERTag(.universal, number: 24, constructed: false)
    /// UNIVERSAL 26, primitive: printable ASCII.
    public static let visibleString = DERTag(.universal, number: 26, constructed: false)
    /// UNIVERSAL 28, primitive: UTF-32BE.
    public static let universalString = DERTag(.universal, number: 28, constructed: false)
    /// UNIVERSAL 30, primitive: UTF-16BE.
    public static let bmpString = DERTag(.universal, number: 30, constructed: false)

    /// `"[UNIVERSAL 16] constructed"`, `"[2] primitive"` and so on.
    public var description: String {
        let name: String
        switch tagClass {
        case .universal: name = "UNIVERSAL \(number)"
        case .application: name = "APPLICATION \(number)"
        case .contextSpecific: name = "\(number)"
        case .private: name = "PRIVATE \(number)"
        }
        return "[\(name)] \(isConstructed ? "constructed" : "primitive")"
    }

    /// The number of identifier octets this tag takes.
    var encodedCount: Int {
        guard number >= 31 else { return 1 }
        var count = 1
        var rest = number
        while rest > 0 {
            count += 1
            rest >>= 7
        }
        return count
    }

    /// Appends the identifier octets (X.690 §8.1.2): the short form below 31, else 0x1f and
    /// base-128 digits, most significant first, with no leading 0x80.
    func append(to output: inout [UInt8]) {
        let leading = tagClass.rawValue << 6 | (isConstructed ? 0x20 : 0)
        guard number >= 31 else {
            output.append(leading | UInt8(number))
            return
        }
        output.append(leading | 0x1f)
        var shift = 28
        while shift > 0, number >> UInt32(shift) == 0 { shift -= 7 }
        while shift > 0 {
            output.append(UInt8(truncatingIfNeeded: number >> UInt32(shift)) & 0x7f | 0x80)
            shift -= 7
        }
        output.append(UInt8(truncatingIfNeeded: number) & 0x7f)
    }
}
