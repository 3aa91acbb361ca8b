// Attestation statement verification (WebAuthn Level 3 §8) by the device format verifiers on
// main: tpm, android-key, android-safetynet and apple. Input: the 32-byte clientDataHash, then
// the attestation object, so seeds from real registrations reach every step.
// dictionary: cbor
// seeds: attestation-verification
import Fido2CBOR
import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthn
@_spi(Fido2Internals) import Fido2WebAuthnWire
import FuzzSupport

/// Invariants:
/// - a verifier handed another format's statement refuses it, and no verification traps;
/// - a statement that verifies reports its own format, a trust path "not evaluated" when no
///   anchors are configured, and, verified again against the well-known roots, either a
///   verified path or a trust-path error.
@main
enum AttestationVerifyFuzzer: FuzzTarget {
    static let verifiers: [any AttestationFormatVerifier.Type] = [
        TPMAttestationVerifier.self, AndroidKeyAttestationVerifier.self,
        AndroidSafetyNetAttestationVerifier.self, AppleAttestationVerifier.self,
    ]
    /// 2021-09-01T00:00:00Z, inside the validity of most real registrations' certificates.
    static let validationTime: Int64 = 1_630_454_400
    static let noAnchors = AttestationTrustPolicy(validationTime: validationTime)
    static let wellKnownRoots: AttestationTrustPolicy = {
        do {
            return try AttestationTrustPolicy.wellKnownRoots(validationTime: validationTime)
        } catch {
            FuzzCheck.fail("the well-known roots do not load: \(error)")
        }
    }()

    /// Loads the well-known roots before fuzzing starts.
    static func prepare() { _ = wellKnownRoots }

    static func fuzz(_ input: [UInt8]) {
        guard input.count > 32 else { return }
        let clientDataHash = Array(input[..<32])
        guard let object = try? AttestationObject(bytes: Array(input[32...])),
            let attested = object.authenticatorData.attestedCredentialData
        else { return }
        let statement = object.statement
        let context = AttestationVerificationContext(
            authenticatorData: object.authenticatorData, clientDataHash: clientDataHash,
            credentialPublicKey: attested.credentialPublicKey, policy: noAnchors)

        for verifier in verifiers {
            let result: AttestationVerificationResult
            do {
                result = try verifier.verify(statement, in: context)
            } catch let error as WebAuthnError {
                if verifier.format != statement.format {
                    FuzzCheck.require(
                        error.code == .invalidAttestationStatement,
                        "\(verifier.format) verifier on a \(statement.format) statement: \(error)")
                }
                continue
            } catch {
                FuzzCheck.fail("expected a WebAuthnError, got \(error)")
            }
            FuzzCheck.require(
                verifier.format == statement.format && result.format == statement.format,
                "\(verifier.format) verifier accepts a \(statement.format) statement")
            if case .verified = result.trustPath {
                FuzzCheck.fail("a trust path is verified without anchors")
            }
            let anchored = AttestationVerificationContext(
                authenticatorData: object.authenticatorData, clientDataHash: clientDataHash,
                credentialPublicKey: attested.credentialPublicKey, policy: wellKnownRoots)
            do {
                let again = try verifier.verify(statement, in: anchored)
                if case .verified = again.trustPath {
                } else {
                    FuzzCheck.fail(
                        "anchors are configured but the trust path is \(again.trustPath)")
                }
            } catch let error as WebAuthnError {
                FuzzCheck.require(
                    error.code == .attestationTrustPathInvalid,
                    "adding anchors changes a verified statement into \(error)")
            } catch {
                FuzzCheck.fail("expected a WebAuthnError, got \(error)")
            }
        }
    }
}
