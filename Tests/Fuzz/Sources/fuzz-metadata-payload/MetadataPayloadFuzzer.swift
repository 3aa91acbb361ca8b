// The MDS3 metadata payload reader (Fido2WebAuthn.MetadataBLOB's MetadataBLOBPayload reading,
// behind the signature check).
// dictionary: json
// seeds: metadata-payloads
@_spi(Fido2Internals) import Fido2WebAuthn
@_spi(Fido2Internals) import Fido2WebAuthnWire
import FuzzSupport

/// Invariants on every payload that reads:
/// - it reads the same twice (the reader keeps no state);
/// - every entry has a description, and its key identifiers are non-empty hex;
/// - an entry's latest status is its first report's, and a refused status is found among its
///   reports exactly when one of them carries it.
@main
enum MetadataPayloadFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        guard let payload = try? MetadataBLOB.readPayload(json: input) else { return }
        guard let again = try? MetadataBLOB.readPayload(json: input) else {
            FuzzCheck.fail("a payload that read once does not read again")
        }
        FuzzCheck.require(
            again.number == payload.number && again.nextUpdate == payload.nextUpdate
                && again.entries == payload.entries,
            "the payload reads differently twice")
        for entry in payload.entries {
            for identifier in entry.attestationCertificateKeyIdentifiers {
                FuzzCheck.require(
                    !identifier.isEmpty && identifier.allSatisfy(\.isHexDigit),
                    "a key identifier that is not hex was accepted: \(identifier)")
            }
            FuzzCheck.require(
                entry.status == entry.statusReports.first?.status,
                "the latest status is not the first report's")
            let refused = entry.firstStatus(in: AuthenticatorStatus.refusedByDefault)
            let carried = entry.statusReports.contains {
                AuthenticatorStatus.refusedByDefault.contains($0.status)
            }
            FuzzCheck.require(
                (refused != nil) == carried, "a refused status is missed or invented")
        }
    }
}
