import Fido2Encoding

/// The Authenticator Attestation GUID: 16 bytes naming an authenticator model, shown as a
/// UUID (`8446ccb9-ab1d-b374-750b-2367ff6f3a1f`). All zeros means "not disclosed".
public struct AAGUID: Sendable, Hashable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    /// The all-zero AAGUID that authenticators without attestation (and clients that strip it)
    /// report.
    public static let zero = AAGUID(high: 0, low: 0)

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// The AAGUID of exactly 16 bytes, or nil for any other length.
    public init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            if index < 8 {
                high = high << 8 | UInt64(byte)
            } else {
                low = low << 8 | UInt64(byte)
            }
        }
        self.init(high: high, low: low)
    }

    /// Reads a UUID string (`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, either case) or 32 hex
    /// digits without dashes; nil for anything else.
    public init?(uuidString: String) {
        var digits: [UInt8] = []
        for (index, char) in uuidString.utf8.enumerated() {
            if char == UInt8(ascii: "-") {
                guard uuidString.utf8.count == 36, [8, 13, 18, 23].contains(index) else {
                    return nil
                }
                continue
            }
            guard let value = Hex.value(of: char) else { return nil }
            digits.append(value)
        }
        guard digits.count == 32, uuidString.utf8.count == 32 || uuidString.utf8.count == 36
        else { return nil }
        var bytes: [UInt8] = []
        for pair in stride(from: 0, to: 32, by: 2) {
            bytes.append(digits[pair] << 4 | digits[pair + 1])
        }
        self.init(bytes: bytes)
    }

    /// The 16 bytes.
    public var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        bytes.appendBigEndian(high, width: 8)
        bytes.appendBigEndian(low, width: 8)
        return bytes
    }

    /// Writes the 16 bytes at `destination`.
    func store(to destination: UnsafeMutableRawPointer) {
        destination.storeBytes(of: high.bigEndian, as: UInt64.self)
        (destination + 8).storeBytes(of: low.bigEndian, as: UInt64.self)
    }

    /// The lower-case UUID form.
    public var description: String {
        let bytes = bytes
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { Hex.encode(bytes[$0]) }
            .joined(separator: "-")
    }
}
