import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

extension TPMAttestationVerifier {
    /// Checks that the key `pubArea` describes (its `parameters` and `unique`) is `credential`.
    ///
    /// RSA: the modulus in `unique` and the exponent in `parameters` (0 standing for 65537) equal
    /// the credential key's. ECC: `curveID` (`TPM_ECC_NIST_P256/384/521`) names the credential
    /// key's curve and `unique.x`/`unique.y` are its coordinates. Leading zero octets are not
    /// significant on either side: TPM2B buffers and COSE coordinates may differ in them.
    ///
    /// - Throws: `attestationKeyMismatch` naming the part that differs.
    static func checkPublicArea(
        _ pubArea: TPMTPublic, matches credential: PublicKey
    ) throws(WebAuthnError) {
        func mismatch(_ reason: String, _ field: String) -> WebAuthnError {
            WebAuthnError(
                .attestationKeyMismatch, reason, field: "attStmt.pubArea.\(field)", step: step)
        }
        switch (pubArea.parameters, pubArea.unique) {
        case (.rsa(let parameters), .rsa(let modulus)):
            guard credential.kind.isRSA,
                let n = try? credential.rsaModulus, let e = try? credential.rsaExponent
            else {
                throw mismatch(
                    "pubArea holds an RSA key, the credential a \(credential.kind) key", "type")
            }
            guard modulus.drop(while: { $0 == 0 }).elementsEqual(n) else {
                throw mismatch("the modulus is not the credential key's", "unique")
            }
            let exponent = parameters.exponent == 0 ? 65537 : parameters.exponent
            let exponentBytes = (0..<4).reversed().map {
                UInt8(truncatingIfNeeded: exponent >> ($0 * 8))
            }
            guard exponentBytes.drop(while: { $0 == 0 }).elementsEqual(e) else {
                throw mismatch("the exponent is not the credential key's", "parameters.exponent")
            }
        case (.ecc(let parameters), .ecc(let x, let y)):
            let kind: KeyKind
            switch parameters.curveID {
            case 0x0003: kind = .p256
            case 0x0004: kind = .p384
            case 0x0005: kind = .p521
            default:
                throw mismatch(
                    "curve 0x\(String(parameters.curveID, radix: 16)) is not a NIST curve this library supports",
                    "parameters.curveID")
            }
            guard credential.kind == kind, let width = kind.coordinateByteCount,
                let point = try? credential.uncompressedPoint, point.count == 1 + 2 * width
            else {
                throw mismatch(
                    "pubArea holds a \(kind) key, the credential a \(credential.kind) key",
                    "parameters.curveID")
            }
            let credentialX = point[1...width].drop(while: { $0 == 0 })
            let credentialY = point[(1 + width)...].drop(while: { $0 == 0 })
            guard x.drop(while: { $0 == 0 }).elementsEqual(credentialX),
                y.drop(while: { $0 == 0 }).elementsEqual(credentialY)
            else {
                throw mismatch("the point is not the credential key's", "unique")
            }
        default:
            // TPMTPublic's parser always pairs them; kept so that no input can slip through.
            throw mismatch("parameters and unique describe different key types", "unique")
        }
    }
}
