/// The keyUsage extension (RFC 5280 §4.2.1.3): what the certified key may be used for.
///
/// Bit `n` of ``rawValue`` is the named bit `n` of the extension's BIT STRING
/// (digitalSignature is bit 0).
public struct KeyUsage: OptionSet, Hashable, Sendable {
    /// The named bits, bit 0 (digitalSignature) in the least significant position.
    public let rawValue: UInt16

    /// Key usage from its named bits.
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// digitalSignature (0): signatures other than on certificates and CRLs.
    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    /// nonRepudiation / contentCommitment (1).
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    /// keyEncipherment (2).
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    /// dataEncipherment (3).
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    /// keyAgreement (4).
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    /// keyCertSign (5): signing certificates (CAs).
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    /// cRLSign (6).
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    /// encipherOnly (7).
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    /// decipherOnly (8).
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// Parses the extension value, a BIT STRING.
    ///
    /// - Throws: the reader's `der…` errors.
    public init<C: Collection<UInt8>>(derEncoded: C) throws {
        let bytes = Array(derEncoded)
        var reader = try DERReader(bytes)
        let bits = try reader.readBitString()
        try reader.finish()
        var raw: UInt16 = 0
        for index in 0..<9 where bits.isSet(index) { raw |= 1 << UInt16(index) }
        rawValue = raw
    }

    /// The DER of the extension value: a BIT STRING without trailing zero bits (DER's rule for
    /// named bit lists).
    public var derEncoded: [UInt8] {
        var octets: [UInt8] = []
        var highest = -1
        for index in 0..<9 where rawValue & (1 << UInt16(index)) != 0 { highest = index }
        if highest >= 0 {
            octets = [UInt8](repeating: 0, count: highest / 8 + 1)
            for index in 0...highest where rawValue & (1 << UInt16(index)) != 0 {
                octets[index / 8] |= 0x80 >> UInt8(index % 8)
            }
        }
        let unused = highest >= 0 ? 7 - highest % 8 : 0
        var writer = DERWriter()
        writer.appendElement(.bitString, contents: [UInt8(unused)] + octets)
        return writer.bytes
    }
}
