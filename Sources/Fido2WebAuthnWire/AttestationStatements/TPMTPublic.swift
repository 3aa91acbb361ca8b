/// A TPM `TPMT_PUBLIC` structure (TPM 2.0 Part 2 §12.2.4), the `pubArea` of a `tpm`
/// attestation statement: the public area of the credential key inside the TPM.
///
/// RSA and ECC keys are read in full; any other key type is an `invalidTPMStructure` error.
package struct TPMTPublic: Sendable, Equatable {
    /// The parameters of an RSA key (`TPMS_RSA_PARMS`).
    package struct RSAParameters: Sendable, Equatable {
        /// `symmetric`.
        package let symmetric: TPMAlgorithmSelection
        /// `scheme`.
        package let scheme: TPMAlgorithmSelection
        /// `keyBits`.
        package let keyBits: UInt16
        /// `exponent`; 0 means the default, 65537.
        package let exponent: UInt32
    }

    /// The parameters of an ECC key (`TPMS_ECC_PARMS`).
    package struct ECCParameters: Sendable, Equatable {
        /// `symmetric`.
        package let symmetric: TPMAlgorithmSelection
        /// `scheme`.
        package let scheme: TPMAlgorithmSelection
        /// `curveID` (`TPM_ECC_NIST_P256` = 0x0003, P384 = 0x0004, P521 = 0x0005).
        package let curveID: UInt16
        /// `kdf`.
        package let kdf: TPMAlgorithmSelection
    }

    /// The key-type-specific parameters.
    package enum Parameters: Sendable, Equatable {
        /// An RSA key's.
        case rsa(RSAParameters)
        /// An ECC key's.
        case ecc(ECCParameters)
    }

    /// The key itself (`TPMU_PUBLIC_ID`).
    package enum Unique: Sendable, Equatable {
        /// An RSA modulus, big-endian.
        case rsa(modulus: ArraySlice<UInt8>)
        /// An ECC point.
        case ecc(x: ArraySlice<UInt8>, y: ArraySlice<UInt8>)
    }

    /// The encoded structure (what the attested name is a digest of).
    package let bytes: ArraySlice<UInt8>
    /// `type`: ``TPMAlgorithm/rsa`` or ``TPMAlgorithm/ecc``.
    package let type: TPMAlgorithm
    /// `nameAlg`: the hash of the key's name.
    package let nameAlgorithm: TPMAlgorithm
    /// `objectAttributes`.
    package let objectAttributes: UInt32
    /// `authPolicy`.
    package let authPolicy: ArraySlice<UInt8>
    /// `parameters`.
    package let parameters: Parameters
    /// `unique`.
    package let unique: Unique
    /// Whether `scheme` names an algorithm but is written without its details
    /// (`TPMU_ASYM_SCHEME`, such as RSASSA's hash algorithm), as some test authenticators write
    /// it and deployed relying parties read it. Such a structure parses only that way; a
    /// relying party decides whether to accept it (the compatible profile does, and reports it).
    package let omitsSchemeDetails: Bool

    /// Parses `pubArea` as TPM 2.0 Part 2 lays it out; a structure that parses only with the
    /// scheme's details left out is read that way, and says so in ``omitsSchemeDetails``.
    ///
    /// - Throws: ``WebAuthnError`` `truncated` naming the field that does not fit;
    ///   `invalidTPMStructure` for a key type other than RSA and ECC; `trailingBytes` for bytes
    ///   after `unique`.
    package init(bytes: ArraySlice<UInt8>) throws(WebAuthnError) {
        do {
            try self.init(bytes: bytes, schemeDetails: true)
        } catch {
            guard let reading = try? Self(bytes: bytes, schemeDetails: false),
                reading.omitsSchemeDetails
            else { throw error }
            self = reading
        }
    }

    private init(bytes: ArraySlice<UInt8>, schemeDetails: Bool) throws(WebAuthnError) {
        var cursor = BinaryCursor(bytes)
        type = TPMAlgorithm(rawValue: try cursor.uint16("pubArea.type"))
        nameAlgorithm = TPMAlgorithm(rawValue: try cursor.uint16("pubArea.nameAlg"))
        objectAttributes = try cursor.uint32("pubArea.objectAttributes")
        authPolicy = try cursor.sized16("pubArea.authPolicy")
        let symmetric = try TPMAlgorithmSelection(
            reading: &cursor, "pubArea.parameters.symmetric", detailLength: { _ in 4 })
        let scheme = try TPMAlgorithmSelection(
            reading: &cursor, "pubArea.parameters.scheme",
            detailLength: { schemeDetails ? ($0 == .ecdaa ? 4 : 2) : 0 })
        omitsSchemeDetails = !schemeDetails && scheme.algorithm != .null
        switch type {
        case .rsa:
            parameters = .rsa(
                RSAParameters(
                    symmetric: symmetric, scheme: scheme,
                    keyBits: try cursor.uint16("pubArea.parameters.keyBits"),
                    exponent: try cursor.uint32("pubArea.parameters.exponent")))
            unique = .rsa(modulus: try cursor.sized16("pubArea.unique"))
        case .ecc:
            let curveID = try cursor.uint16("pubArea.parameters.curveID")
            let kdf = try TPMAlgorithmSelection(
                reading: &cursor, "pubArea.parameters.kdf", detailLength: { _ in 2 })
            parameters = .ecc(
                ECCParameters(symmetric: symmetric, scheme: scheme, curveID: curveID, kdf: kdf))
            unique = .ecc(
                x: try cursor.sized16("pubArea.unique.x"),
                y: try cursor.sized16("pubArea.unique.y"))
        default:
            throw WebAuthnError(
                .invalidTPMStructure, "key type \(type) is neither RSA nor ECC",
                field: "pubArea.type", offset: 0)
        }
        guard cursor.isAtEnd else {
            throw WebAuthnError(
                .trailingBytes, "\(cursor.remaining) bytes follow unique", field: "pubArea",
                offset: cursor.offset)
        }
        self.bytes = bytes
    }
}
