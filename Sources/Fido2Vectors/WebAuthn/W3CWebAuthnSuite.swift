import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The W3C WebAuthn Level 3 test vectors (`webauthn-l3-test-vectors.json`): 15 credentials,
/// each counted as two cases, its registration and its authentication.
///
/// Registration: the credential key rebuilt from the spec's private key must be the COSE key the
/// file derives; clientDataJSON and authenticator data rebuilt from the spec's inputs must be
/// the published bytes, and for `none`, `packed` and `fido-u2f` the whole attestation object too
/// (re-signed with RFC 6979, the certificates taken from the published statement); then the
/// response verifies through `RelyingParty` (§7.1) with the file's attestation root as the
/// anchor of every format at 2025-06-01T00:00:00Z, user verification required when the
/// credential has UV, and the result must carry the file's credential ID, public key, algorithm,
/// flags, AAGUID and format, the attestation type the format proves, and a trust path ending at
/// the root. `android-key-es256` verifies only with the named relaxation
/// `AndroidKeyAttestationOptions.acceptsMissingOriginAndPurpose` (its KeyDescription has empty
/// authorization lists); the output says so.
///
/// Authentication: clientDataJSON, authenticator data and the signature rebuilt from the inputs
/// must be the published bytes, and the assertion verifies (§7.2) against the credential record
/// the verified registration returned.
package struct W3CWebAuthnSuite: VectorSuite {
    package let name: String
    private let json: JSONValue

    /// 2025-06-01T00:00:00Z, inside the vectors' certificate validity (2024–3024).
    static let validationTime: Int64 = 1_748_736_000

    package init?(name: String, json: JSONValue) {
        guard json["attestation_root"] != nil,
            let cases = json["cases"]?.arrayValue, !cases.isEmpty,
            cases.allSatisfy({ $0["registration"] != nil && $0["authentication"] != nil })
        else { return nil }
        self.name = name
        self.json = json
    }

    package func run() -> [VectorCaseResult] {
        let cases = json["cases"]?.arrayValue ?? []
        let root: Certificate
        do {
            root = try attestationRoot()
        } catch {
            return cases.enumerated().flatMap { index, entry in
                let id = entry["id"]?.stringValue ?? "case \(index)"
                return [
                    VectorCaseResult.fail("\(id) registration", "attestation root: \(error)"),
                    .fail("\(id) authentication", "attestation root: \(error)"),
                ]
            }
        }
        var results: [VectorCaseResult] = []
        for (index, entry) in cases.enumerated() {
            let id = entry["id"]?.stringValue ?? "case \(index)"
            let vector: W3CVector
            do {
                vector = try W3CVector(entry, common: json["common"])
            } catch {
                results.append(.fail("\(id) registration", "\(error)"))
                results.append(.fail("\(id) authentication", "\(error)"))
                continue
            }
            let relaxed = vector.format == "android-key"
            var record: CredentialRecord?
            do {
                record = try vector.verifyRegistration(root: root, relaxAndroidKey: relaxed)
                results.append(
                    .pass(
                        "\(id) registration",
                        note: relaxed
                            ? "verified with AndroidKeyAttestationOptions.acceptsMissingOriginAndPurpose "
                                + "(the vector's KeyDescription has empty authorization lists)"
                            : nil))
            } catch {
                results.append(.fail("\(id) registration", "\(error)"))
            }
            do {
                guard let record else {
                    throw VectorDataError("the registration did not verify: no credential record")
                }
                try vector.verifyAuthentication(record: record, root: root)
                results.append(.pass("\(id) authentication"))
            } catch {
                results.append(.fail("\(id) authentication", "\(error)"))
            }
        }
        return results
    }

    /// The root certificate, checked against the CA key the file gives.
    private func attestationRoot() throws -> Certificate {
        let values = json["attestation_root"]?["values"]
        guard let certificateHex = values?["attestation_ca_cert"]?.stringValue,
            let keyHex = values?["attestation_ca_key"]?.stringValue
        else { throw VectorDataError("attestation_ca_cert or attestation_ca_key missing") }
        let certificate = try Certificate(derEncoded: Hex.decode(certificateHex))
        let key = try PrivateKey(rawScalar: Hex.decode(keyHex), kind: .p256)
        guard try key.publicKey.spkiDER == certificate.subjectPublicKeyInfoDER else {
            throw VectorDataError("the root certificate does not certify attestation_ca_key")
        }
        return certificate
    }
}
