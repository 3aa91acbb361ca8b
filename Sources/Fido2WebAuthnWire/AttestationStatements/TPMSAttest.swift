/// A TPM `TPMS_ATTEST` structure (TPM 2.0 Part 2 §10.12.8), the `certInfo` of a `tpm`
/// attestation statement: what the TPM's attestation key signed.
///
/// Every field is read as it is; judging them (the magic, the type, `extraData` against the
/// hash of authData ‖ clientDataHash, the attested name against `pubArea`) is the relying
/// party's work. `clockInfo.safe` is kept as its raw byte: TPM 2.0 defines it as a boolean,
/// but real TPMs and the W3C vectors (0x33) put other values there.
package struct TPMSAttest: Sendable, Equatable {
    /// The encoded structure (what the signature covers).
    package let bytes: ArraySlice<UInt8>
    /// `magic`: ``generatedValue`` for structures the TPM made.
    package let magic: UInt32
    /// `type`: ``attestCertify`` for WebAuthn.
    package let type: UInt16
    /// `qualifiedSigner`: the qualified name of the signing key.
    package let qualifiedSigner: ArraySlice<UInt8>
    /// `extraData`: for WebAuthn, the hash of authenticatorData ‖ clientDataHash.
    package let extraData: ArraySlice<UInt8>
    /// `clockInfo`.
    package let clockInfo: TPMSClockInfo
    /// `firmwareVersion`.
    package let firmwareVersion: UInt64
    /// `attested`: the type-specific part, as encoded.
    package let attested: ArraySlice<UInt8>
    /// `attested.name` of a `TPMS_CERTIFY_INFO` (when `type` is ``attestCertify``): the name
    /// of the certified key (its nameAlg then the digest of its `pubArea`).
    package let attestedName: ArraySlice<UInt8>?
    /// `attested.qualifiedName` of a `TPMS_CERTIFY_INFO`.
    package let attestedQualifiedName: ArraySlice<UInt8>?

    /// `TPM_GENERATED_VALUE`, 0xff544347 ("\xffTCG").
    package static let generatedValue: UInt32 = 0xff54_4347
    /// `TPM_ST_ATTEST_CERTIFY`, 0x8017.
    package static let attestCertify: UInt16 = 0x8017

    /// Parses `certInfo`.
    ///
    /// - Throws: ``WebAuthnError`` `truncated` naming the field (`certInfo.extraData`, …)
    ///   that does not fit; `trailingBytes` for bytes after a `TPMS_CERTIFY_INFO`. Offsets are
    ///   within `bytes`.
    package init(bytes: ArraySlice<UInt8>) throws(WebAuthnError) {
        var cursor = BinaryCursor(bytes)
        magic = try cursor.uint32("certInfo.magic")
        type = try cursor.uint16("certInfo.type")
        qualifiedSigner = try cursor.sized16("certInfo.qualifiedSigner")
        extraData = try cursor.sized16("certInfo.extraData")
        clockInfo = TPMSClockInfo(
            clock: try cursor.uint64("certInfo.clockInfo.clock"),
            resetCount: try cursor.uint32("certInfo.clockInfo.resetCount"),
            restartCount: try cursor.uint32("certInfo.clockInfo.restartCount"),
            safe: try cursor.uint8("certInfo.clockInfo.safe"))
        firmwareVersion = try cursor.uint64("certInfo.firmwareVersion")
        attested = cursor.rest
        if type == Self.attestCertify {
            attestedName = try cursor.sized16("certInfo.attested.name")
            attestedQualifiedName = try cursor.sized16("certInfo.attested.qualifiedName")
            guard cursor.isAtEnd else {
                throw WebAuthnError(
                    .trailingBytes, "\(cursor.remaining) bytes follow TPMS_CERTIFY_INFO",
                    field: "certInfo", offset: cursor.offset)
            }
        } else {
            attestedName = nil
            attestedQualifiedName = nil
        }
        self.bytes = bytes
    }
}

/// `TPMS_CLOCK_INFO` (TPM 2.0 Part 2 §10.11.1).
package struct TPMSClockInfo: Sendable, Hashable {
    /// `clock`: milliseconds the TPM has been powered.
    package let clock: UInt64
    /// `resetCount`.
    package let resetCount: UInt32
    /// `restartCount`.
    package let restartCount: UInt32
    /// `safe`, as its raw byte (TPM 2.0 says YES = 1 / NO = 0; see `TPMSAttest`).
    package let safe: UInt8
}
