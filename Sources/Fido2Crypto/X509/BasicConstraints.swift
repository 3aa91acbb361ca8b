/// The basicConstraints extension (RFC 5280 §4.2.1.9): whether the subject is a CA and how
/// many CA certificates may follow it in a path.
public struct BasicConstraints: Hashable, Sendable {
    /// Whether the certified key may sign certificates (cA).
    public var isCertificateAuthority: Bool
    /// The most non-self-issued intermediate CA certificates that may follow this one in a
    /// path (pathLenConstraint), when limited.
    public var pathLengthConstraint: Int?

    /// Constraints for a CA (`isCertificateAuthority`) or an end entity.
    public init(isCertificateAuthority: Bool, pathLengthConstraint: Int? = nil) {
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
    }

    /// Parses the extension value: SEQUENCE { cA BOOLEAN DEFAULT FALSE, pathLenConstraint
    /// INTEGER (0..MAX) OPTIONAL }. An explicitly encoded cA FALSE, which DER forbids but
    /// deployed attestation certificates carry, is accepted.
    ///
    /// - Throws: the reader's `der…` errors; ``CryptoError/Code-swift.struct/derInvalidValue``
    ///   for a negative path length.
    public init<C: Collection<UInt8>>(derEncoded: C) throws {
        let bytes = Array(derEncoded)
        var reader = try DERReader(bytes)
        self = try reader.readSequence { (sequence) throws(CryptoError) in
            let isCA = try sequence.readOptionalElement(.boolean)?.decodeBoolean() ?? false
            var pathLength: Int?
            if let element = try sequence.readOptionalElement(.integer) {
                let value = try element.decodeInt64()
                guard value >= 0, value <= Int64(Int32.max) else {
                    throw CryptoError(
                        .derInvalidValue, "pathLenConstraint \(value) is out of range",
                        offset: element.offset)
                }
                pathLength = Int(value)
            }
            return BasicConstraints(isCertificateAuthority: isCA, pathLengthConstraint: pathLength)
        }
        try reader.finish()
    }

    /// The DER of the extension value (cA omitted when false, as DER requires).
    public var derEncoded: [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { sequence in
            if isCertificateAuthority { sequence.appendBoolean(true) }
            if let pathLengthConstraint { sequence.appendInteger(Int64(pathLengthConstraint)) }
        }
        return writer.bytes
    }
}
