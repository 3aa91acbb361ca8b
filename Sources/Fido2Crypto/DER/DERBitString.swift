/// The value of a DER BIT STRING: whole octets, of which the last holds `unusedBitCount`
/// padding bits (zero, as DER requires).
@_spi(Fido2Internals) public struct DERBitString: Hashable, Sendable {
    /// The octets, first bit in the most significant bit of the first octet.
    @_spi(Fido2Internals) public let bytes: ArraySlice<UInt8>
    /// How many low-order bits of the last octet are padding (0–7; 0 when empty).
    @_spi(Fido2Internals) public let unusedBitCount: Int

    /// A bit string of whole octets with `unusedBitCount` padding bits in the last.
    @_spi(Fido2Internals) public init(bytes: ArraySlice<UInt8>, unusedBitCount: Int) {
        self.bytes = bytes
        self.unusedBitCount = unusedBitCount
    }

    /// The number of significant bits.
    @_spi(Fido2Internals) public var bitCount: Int { bytes.count * 8 - unusedBitCount }

    /// Whether bit `index` (0 is the most significant bit of the first octet, as in named-bit
    /// lists such as keyUsage) is set; false past the end.
    @_spi(Fido2Internals) public func isSet(_ index: Int) -> Bool {
        guard index >= 0, index < bitCount else { return false }
        let byte = bytes[bytes.startIndex + index / 8]
        return byte & (0x80 >> UInt8(index % 8)) != 0
    }
}
