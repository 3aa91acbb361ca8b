/// An ECDSA signature (r, s), convertible between the DER `Ecdsa-Sig-Value` that WebAuthn and
/// X.509 carry and the fixed-width raw `r ‖ s` (IEEE P1363) form that COSE, JOSE and some
/// authenticators use.
public struct ECDSASignature: Hashable, Sendable {
    /// r as a big-endian unsigned integer without leading zeros (empty for zero).
    public let r: [UInt8]
    /// s as a big-endian unsigned integer without leading zeros (empty for zero).
    public let s: [UInt8]

    /// Makes a signature from big-endian r and s (leading zeros are dropped).
    @inlinable
    public init<R: Collection<UInt8>, S: Collection<UInt8>>(r: R, s: S) {
        self.r = Array(r.drop(while: { $0 == 0 }))
        self.s = Array(s.drop(while: { $0 == 0 }))
    }

    /// Parses a strict DER `SEQUENCE { INTEGER r, INTEGER s }`: definite minimal lengths,
    /// minimal non-negative integers, nothing after the sequence.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidSignatureEncoding`` for anything else
    ///   (truncation, BER lengths, negative or padded integers, trailing bytes).
    @inlinable
    public init<C: Collection<UInt8>>(derRepresentation: C) throws {
        self = try ByteAccess.with(derRepresentation) { (der) throws(CryptoError) in
            try ECDSASignature(derBuffer: der)
        }
    }

    @usableFromInline
    init(derBuffer bytes: UnsafeRawBufferPointer) throws(CryptoError) {
        var index = 0
        func fail(_ why: String) -> CryptoError {
            CryptoError(.invalidSignatureEncoding, "ECDSA DER signature: \(why)")
        }
        func readLength() throws(CryptoError) -> Int {
            guard index < bytes.count else { throw fail("truncated length") }
            let first = bytes[index]
            index += 1
            if first < 0x80 { return Int(first) }
            let count = Int(first & 0x7f)
            guard count >= 1, count <= 2, index + count <= bytes.count else {
                throw fail("unsupported or truncated length")
            }
            var length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
            guard length >= 0x80, count == 1 || length >= 0x100 else {
                throw fail("non-minimal length")
            }
            return length
        }
        func readInteger() throws(CryptoError) -> Slice<UnsafeRawBufferPointer> {
            guard index < bytes.count, bytes[index] == 0x02 else { throw fail("expected INTEGER") }
            index += 1
            let length = try readLength()
            guard length >= 1, length <= bytes.count - index else {
                throw fail("empty or truncated INTEGER")
            }
            let content = bytes[index..<(index + length)]
            index += length
            guard content[content.startIndex] & 0x80 == 0 else { throw fail("negative INTEGER") }
            if length > 1, content[content.startIndex] == 0,
                content[content.startIndex + 1] & 0x80 == 0
            {
                throw fail("non-minimal INTEGER")
            }
            return content
        }
        guard bytes.first == 0x30 else { throw fail("expected SEQUENCE") }
        index = 1
        let length = try readLength()
        guard length == bytes.count - index else {
            throw fail(length > bytes.count - index ? "truncated SEQUENCE" : "trailing bytes")
        }
        let r = try readInteger()
        let s = try readInteger()
        guard index == bytes.count else { throw fail("extra data inside SEQUENCE") }
        self.r = Array(r.drop(while: { $0 == 0 }))
        self.s = Array(s.drop(while: { $0 == 0 }))
    }

    /// Splits a raw `r ‖ s` of exactly twice the curve's coordinate size (64, 96 or 132 bytes).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidSignatureEncoding`` for another length;
    ///   ``CryptoError/Code-swift.struct/unsupportedKeyType`` when `kind` is not an ECDSA curve.
    @inlinable
    public init<C: Collection<UInt8>>(rawRepresentation: C, kind: KeyKind) throws {
        self = try ByteAccess.with(rawRepresentation) { (raw) throws(CryptoError) in
            try ECDSASignature(rawBuffer: raw, kind: kind)
        }
    }

    @usableFromInline
    init(rawBuffer rawRepresentation: UnsafeRawBufferPointer, kind: KeyKind) throws(CryptoError) {
        guard let width = kind.coordinateByteCount else {
            throw CryptoError(.unsupportedKeyType, "\(kind) is not an ECDSA curve")
        }
        guard rawRepresentation.count == 2 * width else {
            throw CryptoError(
                .invalidSignatureEncoding,
                "raw \(kind) signature must be \(2 * width) bytes, not \(rawRepresentation.count)")
        }
        r = Array(rawRepresentation[..<width].drop(while: { $0 == 0 }))
        s = Array(rawRepresentation[width...].drop(while: { $0 == 0 }))
    }

    /// The DER encoding: a `SEQUENCE` of two minimal non-negative `INTEGER`s with definite
    /// minimal lengths, written by this module's DER writer.
    ///
    /// Any r and s encode, however long. A length of 65,536 or more takes a length field of
    /// more than two octets: still DER, but more than ``init(derRepresentation:)`` accepts, so
    /// such a signature does not parse back.
    public var derRepresentation: [UInt8] {
        var writer = DERWriter()
        writer.appendSequence { (sequence: inout DERWriter) in
            sequence.appendInteger(unsignedBigEndian: r)
            sequence.appendInteger(unsignedBigEndian: s)
        }
        return writer.bytes
    }

    /// The raw `r ‖ s`, each left-padded to the curve's coordinate size.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/invalidSignatureEncoding`` when r or s does not
    ///   fit; ``CryptoError/Code-swift.struct/unsupportedKeyType`` for non-ECDSA kinds.
    public func rawRepresentation(kind: KeyKind) throws -> [UInt8] {
        guard let width = kind.coordinateByteCount else {
            throw CryptoError(.unsupportedKeyType, "\(kind) is not an ECDSA curve")
        }
        guard r.count <= width, s.count <= width else {
            throw CryptoError(
                .invalidSignatureEncoding, "r or s is longer than a \(kind) coordinate")
        }
        var out = [UInt8](repeating: 0, count: 2 * width)
        out.replaceSubrange((width - r.count)..<width, with: r)
        out.replaceSubrange((2 * width - s.count)..<(2 * width), with: s)
        return out
    }
}
