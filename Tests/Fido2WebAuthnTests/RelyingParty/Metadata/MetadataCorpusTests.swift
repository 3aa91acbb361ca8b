import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Real registrations of `real-registrations.json` and `../interop/peer-registrations.json`
/// judged with trust from the production MDS3 BLOB no. 31 at 2023-09-15: the authenticators it
/// lists (YubiKeys and Security Keys, packed and fido-u2f, Windows Hello TPMs, ATKey.Pro) have
/// a trust path verified to their entry's roots.
@Suite struct MetadataCorpusTests {
    /// The cases the BLOB vouches for, with the description of the entry that does.
    static let verified: [String: String] = [
        "reg-042": "Security Key by Yubico with NFC",
        "reg-044": "Security Key by Yubico with NFC",
        "reg-020": "Windows Hello Hardware Authenticator",
        "reg-022": "Windows Hello VBS Hardware Authenticator",
        "preg-001": "YubiKey NEO",
        "preg-002": "YK4 Series Key by Yubico",
        "preg-003": "YubiKey 5 Series with NFC",
        "preg-005": "YubiKey 5 Series with NFC",
        "preg-006": "YubiKey 5 Series with NFC",
        "preg-007": "YubiKey 5 Series",
        "preg-008": "YubiKey 5 Series with Lightning",
        // Its certificate's signature BIT STRING declares two unused bits.
        "preg-009": "Security Key by Yubico",
        "preg-010": "Security Key by Yubico",
        "preg-012": "YubiKey 5 FIPS Series with NFC",
        "preg-014": "YubiKey Bio Series",
        "preg-044": "Security Key by Yubico with NFC",
        "preg-045": "ATKey.Pro CTAP2.0",
        "preg-051": "Security Key by Yubico",
    ]

    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let json: JSONValue
        var testDescription: String { id }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for name in ["real-registrations.json", "../interop/peer-registrations.json"] {
            guard let items = try? sharedVectorJSON(name).arrayValue else { continue }
            for item in items {
                guard let id = item["case_id"]?.stringValue, verified[id] != nil else { continue }
                cases.append(Case(id: id, json: item))
            }
        }
        return cases.sorted { $0.id < $1.id }
    }()

    static let validationTime: Int64 = 1_694_736_000  // 2023-09-15T00:00:00Z

    /// The production BLOB, verified once for every case (nil if it does not verify, which
    /// `MetadataBLOBTests` reports).
    static let blob: MetadataBLOB? = try? MetadataBLOBTests.production()

    /// The source's identifiers and origins, with trust from `blob` alone.
    static func relyingParty(
        _ source: RelyingParty, blob: MetadataBLOB, mode: MetadataTrustPolicy.Mode
    ) -> RelyingParty {
        var policy = AttestationTrustPolicy(validationTime: validationTime)
        policy.metadata = MetadataTrustPolicy(blob: blob, mode: mode)
        return RelyingParty(
            identifiers: source.identifiers, origins: source.origins, trustPolicy: policy,
            profile: .compatible)
    }

    @Test func findsEveryCase() {
        #expect(Self.cases.count == Self.verified.count)
    }

    @Test(arguments: cases)
    func verifiesToTheEntrysRoots(_ vector: Case) throws {
        let blob = try #require(Self.blob)
        let (source, response, expectations) = try RealRegistrationsSuite.ceremony(vector.json)
        let result = try Self.relyingParty(source, blob: blob, mode: .strict).verifyRegistration(
            response, expecting: RegistrationExpectations(challenge: expectations.challenge))
        guard case .verified = result.trustPath else {
            Issue.record("\(vector.id): \(result.trustPath)")
            return
        }
        #expect(result.metadataEntry?.description == Self.verified[vector.id])
        #expect(result.metadataEntry?.status != nil)
    }
}
