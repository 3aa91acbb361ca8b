@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// A verified FIDO Metadata Service BLOB (MDS3 §3.1.6, the `MetadataBLOBPayload` of a signed
/// JWS), indexed by AAGUID and by attestation certificate key identifier.
///
/// Reading a BLOB checks, in order, each failure its own error: the JWS compact form and its
/// header (`alg` one of the algorithms fido2kit verifies: RS256, RS384, RS512, PS256, PS384,
/// PS512, ES256, ES384, ES512, EdDSA; an `x5c` chain); the signature with the key of the first
/// `x5c` certificate; the `x5c` chain to the trust anchor (by default
/// ``WellKnownAttestationRoots/globalSignRootCAR3``) at the validation time, and, when CRLs
/// are given, every certificate of that chain but the anchor against them (without CRLs,
/// ``revocationChecked`` is false: nothing is fetched); the payload (`no`, `nextUpdate`,
/// `entries`); and that `nextUpdate` has not passed at the validation time, unless
/// ``VerificationOptions/allowsStale``.
///
/// Nothing is downloaded: the operator fetches the BLOB (see docs/metadata.md) and, on each
/// refresh, keeps the new one only if ``checkRefresh(replacing:)`` accepts it, which refuses a
/// BLOB whose ``number`` is not greater than the current one's (a rollback).
///
/// Look-ups (``entry(aaguid:)``, ``entry(keyIdentifier:)``, ``entry(attestationCertificate:)``)
/// are dictionary reads: statements and their certificates are parsed when the BLOB is read.
public struct MetadataBLOB: Sendable {
    /// How a BLOB is verified.
    public struct VerificationOptions: Sendable {
        /// The certificates the BLOB's `x5c` chain must verify to; nil (the default) means
        /// ``WellKnownAttestationRoots/globalSignRootCAR3``.
        public var trustAnchors: [Certificate]?
        /// The time at which the chain and `nextUpdate` are judged, in seconds since the Unix
        /// epoch; nil means now.
        public var validationTime: Int64?
        /// CRLs of the chain's issuers; when not empty, every certificate of the chain but the
        /// anchor must have a current CRL from its issuer that does not list it
        /// (`RevocationCheck.chain(_:)` of Fido2Crypto). Empty (the default): revocation is not checked.
        public var revocationLists: [CertificateRevocationList]
        /// Whether a BLOB past its `nextUpdate` is accepted (then ``isStale`` says so).
        /// Default false.
        public var allowsStale: Bool
        /// The largest compact JWS accepted, in bytes. Default 64 MiB (production BLOBs are a
        /// few MiB).
        public var maximumSize: Int

        /// Options with the defaults documented on each property.
        public init(
            trustAnchors: [Certificate]? = nil, validationTime: Int64? = nil,
            revocationLists: [CertificateRevocationList] = [], allowsStale: Bool = false,
            maximumSize: Int = 64 << 20
        ) {
            self.trustAnchors = trustAnchors
            self.validationTime = validationTime
            self.revocationLists = revocationLists
            self.allowsStale = allowsStale
            self.maximumSize = maximumSize
        }
    }

    /// The BLOB's serial number (`no`): each BLOB the service publishes has a greater one.
    public let number: Int64
    /// `nextUpdate` as the BLOB writes it (`YYYY-MM-DD`): the day a new BLOB is due.
    public let nextUpdate: String
    /// ``nextUpdate`` at 00:00:00 UTC, in seconds since the Unix epoch.
    public let nextUpdateTime: Int64
    /// `legalHeader`, when present.
    public let legalHeader: String?
    /// The entries, in the BLOB's order.
    public let entries: [MetadataEntry]
    /// The JWS `alg`, such as `RS256`.
    public let algorithm: String
    /// The signing chain as verified: signer first, trust anchor last.
    public let signerPath: [Certificate]
    /// Whether the signing chain was checked against CRLs (only when the caller gave some).
    public let revocationChecked: Bool
    /// Whether `nextUpdate` had passed at the validation time (possible only with
    /// ``VerificationOptions/allowsStale``).
    public let isStale: Bool

    private let indexByAAGUID: [AAGUID: Int]
    private let indexByKeyIdentifier: [String: [Int]]

    /// Reads and verifies a BLOB in JWS compact form (the body of
    /// `https://mds3.fidoalliance.org/`, surrounding whitespace allowed).
    ///
    /// - Throws: `WebAuthnError` naming the failed check: `metadataInvalid` (not a compact
    ///   JWS, a header or payload member missing or mistyped, a certificate that does not
    ///   parse, a BLOB larger than ``VerificationOptions/maximumSize``);
    ///   `metadataSignatureInvalid` (an algorithm fido2kit does not verify or one that does
    ///   not fit the key, a signature that does not verify); `metadataTrustPathInvalid` (the
    ///   chain does not verify to an anchor at the validation time, or a CRL revokes or cannot
    ///   vouch for a certificate of it); `metadataStale`.
    public init<Bytes: Collection<UInt8>>(
        compact bytes: Bytes, options: VerificationOptions = VerificationOptions()
    ) throws {
        guard bytes.count <= options.maximumSize else {
            throw WebAuthnError(
                .metadataInvalid,
                "the BLOB is \(bytes.count) bytes, more than the \(options.maximumSize) allowed")
        }
        var compact = ArraySlice(bytes)
        while let last = compact.last, Self.isWhitespace(last) { compact.removeLast() }
        while let first = compact.first, Self.isWhitespace(first) { compact.removeFirst() }
        let reader = JSONReader(
            options: JSONReader.Options(
                maximumInputLength: options.maximumSize, maximumDepth: 32,
                maximumItemCount: 8_000_000, maximumStringLength: 4 << 20))
        let jws: CompactJWS
        do {
            jws = try CompactJWS(compact: compact, reader: reader)
        } catch {
            throw WebAuthnError(.metadataInvalid, error.reason, field: error.field)
        }
        algorithm = jws.algorithm
        guard let algorithm = COSEAlgorithm(joseName: jws.algorithm) else {
            throw WebAuthnError(
                .metadataSignatureInvalid, "JWS algorithm \"\(jws.algorithm)\" is not supported",
                field: "header.alg")
        }
        guard !jws.certificates.isEmpty else {
            throw WebAuthnError(
                .metadataInvalid, "the JWS header has no x5c certificate chain",
                field: "header.x5c")
        }
        var chain: [Certificate] = []
        for (index, der) in jws.certificates.enumerated() {
            do {
                chain.append(try Certificate(derEncoded: der))
            } catch {
                throw WebAuthnError(
                    .metadataInvalid, "not a certificate: \(error)", field: "header.x5c[\(index)]")
            }
        }
        try Self.checkSignature(jws, algorithm: algorithm, key: chain[0].publicKey)
        (signerPath, revocationChecked) = try Self.verifyChain(chain, options: options)

        let payload = MetadataPayloadReader(jws.payload)
        number = try payload.number()
        nextUpdate = try payload.nextUpdate()
        guard let time = Self.unixSeconds(ofDay: nextUpdate) else {
            throw WebAuthnError(
                .metadataInvalid, "not a YYYY-MM-DD date: \(nextUpdate)", field: "nextUpdate")
        }
        nextUpdateTime = time
        let now = options.validationTime ?? Self.currentTime()
        isStale = now > nextUpdateTime
        if isStale && !options.allowsStale {
            throw WebAuthnError(
                .metadataStale,
                "the BLOB (no \(number)) was due to be replaced on \(nextUpdate); fetch a new one (or allow a stale BLOB explicitly)",
                field: "nextUpdate")
        }
        legalHeader = payload.legalHeader()
        entries = try payload.entries()

        var byAAGUID: [AAGUID: Int] = [:]
        var byKeyIdentifier: [String: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            if let aaguid = entry.aaguid, byAAGUID[aaguid] == nil { byAAGUID[aaguid] = index }
            for identifier in entry.attestationCertificateKeyIdentifiers
            where byKeyIdentifier[identifier]?.last != index {
                byKeyIdentifier[identifier, default: []].append(index)
            }
        }
        indexByAAGUID = byAAGUID
        indexByKeyIdentifier = byKeyIdentifier
    }

    /// The entry of the model with `aaguid`, or nil.
    public func entry(aaguid: AAGUID) -> MetadataEntry? {
        indexByAAGUID[aaguid].map { entries[$0] }
    }

    /// The first entry listing the attestation certificate key identifier `keyIdentifier`
    /// (hex, either case), or nil.
    public func entry(keyIdentifier: String) -> MetadataEntry? {
        indexByKeyIdentifier[keyIdentifier.lowercased()]?.first.map { entries[$0] }
    }

    /// Every entry listing the attestation certificate key identifier `keyIdentifier` (hex,
    /// either case), in BLOB order.
    public func entries(keyIdentifier: String) -> [MetadataEntry] {
        (indexByKeyIdentifier[keyIdentifier.lowercased()] ?? []).map { entries[$0] }
    }

    /// The entry listing the key identifier of `certificate`
    /// (``keyIdentifier(of:)``), or nil.
    public func entry(attestationCertificate certificate: Certificate) -> MetadataEntry? {
        guard let identifier = Self.keyIdentifier(of: certificate) else { return nil }
        return entry(keyIdentifier: identifier)
    }

    /// The attestation certificate key identifier of `certificate` as MDS3 defines it: the
    /// lower-case hex SHA-1 of the BIT STRING subjectPublicKey (excluding tag, length and
    /// unused-bits octet), as RFC 5280 §4.2.1.2 method 1 computes a key identifier; nil if the
    /// certificate's SubjectPublicKeyInfo does not read.
    public static func keyIdentifier(of certificate: Certificate) -> String? {
        let info = certificate.subjectPublicKeyInfoDER
        guard var reader = try? DERReader(info[...]),
            let key = try? reader.readSequence({ (spki) throws(CryptoError) -> DERBitString in
                _ = try spki.readElement(.sequence)
                return try spki.readBitString()
            })
        else { return nil }
        return Hex.encode(DigestAlgorithm.sha1.hash(key.bytes))
    }

    /// The rollback rule: a refreshed BLOB replaces `current` only if its ``number`` is greater.
    ///
    /// - Throws: `WebAuthnError.Code.metadataRollback` when this BLOB's number
    ///   is lower than or equal to `current`'s.
    public func checkRefresh(replacing current: MetadataBLOB?) throws {
        try checkRefresh(replacingNumber: current?.number)
    }

    /// The rollback rule against the number of the BLOB in use (nil: none yet, anything is
    /// accepted); see ``checkRefresh(replacing:)``.
    ///
    /// - Throws: `WebAuthnError.Code.metadataRollback` when this BLOB's number
    ///   is lower than or equal to `currentNumber`.
    public func checkRefresh(replacingNumber currentNumber: Int64?) throws {
        guard let currentNumber, number <= currentNumber else { return }
        throw WebAuthnError(
            .metadataRollback,
            "the BLOB's no \(number) is not greater than that of the BLOB in use (\(currentNumber)): keeping the one in use",
            field: "no")
    }

    /// Reads a `MetadataBLOBPayload` JSON document as ``init(compact:options:)`` reads a
    /// verified payload, without a signature, a chain or a date: what the fuzz target for the
    /// payload reader drives. Not for relying parties, which must only read signed BLOBs.
    ///
    /// - Throws: `WebAuthnError.Code.metadataInvalid` naming the member, for
    ///   JSON that does not read within the BLOB limits or a payload of another shape.
    @_spi(Fido2Internals)
    public static func readPayload(
        json bytes: [UInt8], maximumSize: Int = 64 << 20
    ) throws(WebAuthnError) -> (number: Int64, nextUpdate: String, entries: [MetadataEntry]) {
        let reader = JSONReader(
            options: JSONReader.Options(
                maximumInputLength: maximumSize, maximumDepth: 32,
                maximumItemCount: 8_000_000, maximumStringLength: 4 << 20))
        let object: JSONObject
        do {
            guard case .object(let value) = try reader.read(bytes) else {
                throw WebAuthnError(.metadataInvalid, "not a JSON object", field: "payload")
            }
            object = value
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.metadataInvalid, "not JSON: \(error)", field: "payload")
        }
        let payload = MetadataPayloadReader(object)
        return (try payload.number(), try payload.nextUpdate(), try payload.entries())
    }

    // MARK: Checks

    /// The JWS signature over `header.payload`; ECDSA signatures arrive as raw `r ‖ s`.
    private static func checkSignature(
        _ jws: CompactJWS, algorithm: COSEAlgorithm, key: PublicKey
    ) throws(WebAuthnError) {
        var signature = jws.signature
        if algorithm.keyType == .ec2 {
            guard key.kind.isECDSA,
                let der = try? ECDSASignature(rawRepresentation: jws.signature, kind: key.kind)
                    .derRepresentation
            else {
                throw WebAuthnError(
                    .metadataSignatureInvalid,
                    "the \(algorithm) signature is not a raw r ‖ s for a \(key.kind) key",
                    field: "signature")
            }
            signature = der
        }
        let valid: Bool
        do {
            valid = try key.isValidSignature(signature, for: jws.signingInput, algorithm: algorithm)
        } catch {
            throw WebAuthnError(
                .metadataSignatureInvalid,
                "\(jws.algorithm) cannot be verified with the signer's \(key.kind) key: \(error)",
                field: "header.alg")
        }
        guard valid else {
            throw WebAuthnError(
                .metadataSignatureInvalid,
                "the \(jws.algorithm) signature does not verify with the key of x5c[0] (a changed payload or header, or another signer)",
                field: "signature")
        }
    }

    /// The `x5c` chain to the anchors at the validation time, with the CRLs when given.
    private static func verifyChain(
        _ chain: [Certificate], options: VerificationOptions
    ) throws(WebAuthnError) -> ([Certificate], Bool) {
        let anchors: [Certificate]
        do {
            anchors =
                try options.trustAnchors ?? [
                    WellKnownAttestationRoots.globalSignRootCAR3.certificate()
                ]
        } catch {
            throw WebAuthnError(
                .metadataTrustPathInvalid, "the default root does not load: \(error)",
                field: "header.x5c")
        }
        let lists = options.revocationLists
        do {
            let verifier = try CertificateChainVerifier(
                trustAnchors: anchors, revocation: lists.isEmpty ? .none : .chain(lists))
            return (try verifier.verify(chain: chain, at: options.validationTime), !lists.isEmpty)
        } catch {
            let depth = (error as? CryptoError)?.depth.map { " (certificate \($0))" } ?? ""
            throw WebAuthnError(
                .metadataTrustPathInvalid,
                "the BLOB's signing chain does not verify to the trust anchor\(depth): \(error)",
                field: "header.x5c")
        }
    }

    // MARK: Helpers

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Seconds since the epoch now.
    static func currentTime() -> Int64 { CeremonySupport.currentTimeMilliseconds() / 1000 }

    /// `YYYY-MM-DD` at 00:00:00 UTC, in seconds since the epoch; nil for anything else.
    static func unixSeconds(ofDay text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-")
        else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for byte in bytes[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        // Days from civil (Howard Hinnant's algorithm).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return (era * 146_097 + dayOfEra - 719_468) * 86_400
    }
}
