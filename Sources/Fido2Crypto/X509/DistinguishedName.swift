import Fido2CBOR

/// An X.501 Name (a certificate's issuer or subject, or a SAN `directoryName`) as the ordered
/// list of its attributes, with its exact DER.
///
/// Attributes keep the order of the encoding; the attributes of a multi-valued relative
/// distinguished name (several in one SET, as the TPM AIK certificate's SAN has) follow each
/// other in their encoded order. Two names are equal when their DER is equal.
public struct DistinguishedName: Hashable, Sendable, CustomStringConvertible {
    /// One attribute: its type and value.
    public struct Attribute: Hashable, Sendable, CustomStringConvertible {
        /// The attribute type, such as ``ASN1ObjectIdentifier/commonName``.
        public let type: ASN1ObjectIdentifier
        /// The value as text, or nil when it is not a character string or its bytes break the
        /// rules of its string type (the bytes are in ``encodedValue``).
        public let value: String?
        /// The value's tag (UTF8String, PrintableString, …).
        public let valueTag: DERTag
        /// The whole DER element of the value (tag, length and contents).
        public let encodedValue: [UInt8]

        /// An attribute whose value is `value` encoded as `encoding` (UTF8String by default;
        /// RFC 5280 asks for PrintableString for countryName, which ``country(_:)`` uses).
        ///
        /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` when `value` has
        ///   characters `encoding` cannot hold; ``CryptoError/Code-swift.struct/derUnexpectedTag``
        ///   when `encoding` is not a character string type.
        public init(
            type: ASN1ObjectIdentifier, value: String, encoding: DERTag = .utf8String
        ) throws {
            var writer = DERWriter()
            try writer.appendString(value, as: encoding)
            self.type = type
            self.value = value
            self.valueTag = encoding
            self.encodedValue = writer.bytes
        }

        init(type: ASN1ObjectIdentifier, value: String?, valueTag: DERTag, encodedValue: [UInt8]) {
            self.type = type
            self.value = value
            self.valueTag = valueTag
            self.encodedValue = encodedValue
        }

        /// countryName as a PrintableString (a two-letter ISO 3166 code).
        ///
        /// - Throws: ``CryptoError/Code-swift.struct/derInvalidValue`` for characters outside
        ///   PrintableString.
        public static func country(_ code: String) throws -> Attribute {
            try Attribute(type: .countryName, value: code, encoding: .printableString)
        }

        /// organizationName as a UTF8String.
        ///
        /// - Throws: never in practice (any text is UTF-8); typed for symmetry.
        public static func organization(_ name: String) throws -> Attribute {
            try Attribute(type: .organizationName, value: name)
        }

        /// organizationalUnitName as a UTF8String.
        ///
        /// - Throws: never in practice; typed for symmetry.
        public static func organizationalUnit(_ name: String) throws -> Attribute {
            try Attribute(type: .organizationalUnitName, value: name)
        }

        /// commonName as a UTF8String.
        ///
        /// - Throws: never in practice; typed for symmetry.
        public static func commonName(_ name: String) throws -> Attribute {
            try Attribute(type: .commonName, value: name)
        }

        /// `"CN=value"` with a short name for well-known types, the dotted OID otherwise.
        public var description: String {
            "\(DistinguishedName.shortName(type))=\(value ?? "#\(CBORDiagnostic.hex(encodedValue))")"
        }
    }

    /// The attributes in encoded order.
    public let attributes: [Attribute]
    /// The DER of the whole Name (a SEQUENCE OF RelativeDistinguishedName).
    public let derEncoded: [UInt8]

    /// A name with each attribute in its own relative distinguished name, in the given order.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/derLimitExceeded`` if the name grows past
    ///   the DER reader's size limit (1 MiB).
    public init(_ attributes: [Attribute]) throws {
        var writer = DERWriter()
        try writer.appendSequence { (name) throws(CryptoError) in
            for attribute in attributes {
                try name.appendSet { (set) throws(CryptoError) in
                    try set.appendSequence { (pair) throws(CryptoError) in
                        pair.appendObjectIdentifier(attribute.type)
                        pair.appendTrustedEncoded(attribute.encodedValue)
                    }
                }
            }
        }
        self.attributes = attributes
        self.derEncoded = writer.bytes
    }

    /// Parses the DER of a Name.
    ///
    /// - Throws: the reader's `der…` errors for malformed DER or trailing bytes;
    ///   ``CryptoError/Code-swift.struct/invalidCertificate`` for an empty relative
    ///   distinguished name.
    public init<C: Collection<UInt8>>(derEncoded: C) throws {
        let bytes = Array(derEncoded)
        // Attribute values are of type ANY: their insides must be DER as well.
        try DERReader.validate(bytes[...])
        var reader = try DERReader(bytes)
        self = try reader.readDistinguishedName()
        try reader.finish()
    }

    init(attributes: [Attribute], derEncoded: [UInt8]) {
        self.attributes = attributes
        self.derEncoded = derEncoded
    }

    /// Whether the name has no attributes (as a TPM AIK certificate's subject).
    public var isEmpty: Bool { attributes.isEmpty }

    /// The text values of every attribute of `type`, in order.
    public func values(of type: ASN1ObjectIdentifier) -> [String] {
        attributes.compactMap { $0.type == type ? $0.value : nil }
    }

    /// The text value of the first attribute of `type`, if any.
    public func first(_ type: ASN1ObjectIdentifier) -> String? {
        attributes.first { $0.type == type }?.value
    }

    /// The first commonName (CN).
    public var commonName: String? { first(.commonName) }
    /// The first organizationName (O).
    public var organization: String? { first(.organizationName) }
    /// The first organizationalUnitName (OU).
    public var organizationalUnit: String? { first(.organizationalUnitName) }
    /// The first countryName (C).
    public var country: String? { first(.countryName) }

    /// The attributes in encoded order, `"C=US, O=Example, CN=Root"`.
    public var description: String {
        attributes.map(\.description).joined(separator: ", ")
    }

    /// Equal when the DER is equal.
    public static func == (lhs: DistinguishedName, rhs: DistinguishedName) -> Bool {
        lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes the DER.
    public func hash(into hasher: inout Hasher) { hasher.combine(derEncoded) }

    static func shortName(_ type: ASN1ObjectIdentifier) -> String {
        switch type {
        case .commonName: "CN"
        case .countryName: "C"
        case .localityName: "L"
        case .stateOrProvinceName: "ST"
        case .organizationName: "O"
        case .organizationalUnitName: "OU"
        case .serialNumberAttribute: "serialNumber"
        case .emailAddress: "emailAddress"
        default: type.dotted
        }
    }
}

extension DERReader {
    /// Reads a Name: SEQUENCE OF SET OF SEQUENCE { type OBJECT IDENTIFIER, value ANY }.
    mutating func readDistinguishedName() throws(CryptoError) -> DistinguishedName {
        let element = try readElement(.sequence)
        var name = try nestedReader(element)
        var attributes: [DistinguishedName.Attribute] = []
        while !name.isAtEnd {
            let setElement = try name.readElement(.set)
            var set = try name.nestedReader(setElement)
            guard !set.isAtEnd else {
                throw CryptoError(
                    .invalidCertificate, "empty relative distinguished name",
                    offset: setElement.offset)
            }
            while !set.isAtEnd {
                let attribute = try set.readSequence { (pair) throws(CryptoError) in
                    let type = try pair.readObjectIdentifier()
                    let value = try pair.readElement()
                    let text = try? value.decodeString()
                    return DistinguishedName.Attribute(
                        type: type, value: text, valueTag: value.tag,
                        encodedValue: Array(value.encoded))
                }
                attributes.append(attribute)
            }
        }
        return DistinguishedName(attributes: attributes, derEncoded: Array(element.encoded))
    }
}
