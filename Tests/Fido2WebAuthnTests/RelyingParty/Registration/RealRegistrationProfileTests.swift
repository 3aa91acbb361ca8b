import Fido2Encoding
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The verification profiles on the registrations of `real-registrations.json` (real
/// authenticators and the FIDO conformance tool), each with the relying party its source used
/// (Fido2Vectors' `RealRegistrationsSuite`, whose runner judges every case in
/// `VectorSuiteTests`).
@Suite struct RealRegistrationProfileTests {
    static func suite() throws -> RealRegistrationsSuite {
        let json = try sharedVectorJSON("real-registrations.json")
        guard let suite = RealRegistrationsSuite(name: "real-registrations.json", json: json) else {
            throw VectorShapeError(description: "real-registrations.json is not a suite")
        }
        return suite
    }

    /// The conformance tool's objects (map keys out of canonical order) are the real
    /// registrations that need the compatible profile: the strict profile refuses them at
    /// decoding, the compatible one verifies them and reports where the order breaks; the
    /// others that verify do so strictly, with nothing to report but what their source's
    /// relaxations let through.
    @Test func strictProfileRefusesOnlyNonCanonicalKeyOrder() throws {
        let nonCanonical: Set<String> = ["reg-032", "reg-033", "reg-040", "reg-041"]
        // reg-016's early-Edge tokenBinding status: ignored and reported, refused strictly.
        let tokenBinding: Set<String> = ["reg-016"]
        var verified = 0
        for entry in try Self.suite().cases {
            switch RealVectorExpectation(entry, registration: true).kind {
            case .ok, .notJudgeable: break
            default: continue
            }
            let id = entry["case_id"]?.stringValue ?? "?"
            var (relyingParty, response, expectations) = try RealRegistrationsSuite.ceremony(entry)
            let compatible = try relyingParty.verifyRegistration(response, expecting: expectations)
            verified += 1
            let profileKinds = Set(
                compatible.deviations.filter { $0.relaxation == nil }.map(\.kind))
            #expect(
                profileKinds
                    == (nonCanonical.contains(id)
                        ? [.cborEncoding]
                        : tokenBinding.contains(id) ? [.tokenBindingIgnored] : []),
                "\(id): \(compatible.deviations)")
            #expect(
                compatible.deviations.allSatisfy {
                    ($0.kind == .relaxedCheck) == ($0.relaxation != nil)
                },
                "\(id): \(compatible.deviations)")
            relyingParty.profile = .strict
            do {
                _ = try relyingParty.verifyRegistration(response, expecting: expectations)
                #expect(
                    !nonCanonical.contains(id) && !tokenBinding.contains(id),
                    "\(id) verified strictly")
            } catch let error as WebAuthnError {
                if nonCanonical.contains(id) {
                    #expect(error.code == .malformedCBOR, "\(id): \(error)")
                    #expect(error.step == "§7.1 step 13", "\(id): \(error)")
                } else if tokenBinding.contains(id) {
                    #expect(error.code == .invalidValue, "\(id): \(error)")
                    #expect(error.step == "§7.1 step 6", "\(id): \(error)")
                } else {
                    Issue.record("\(id): \(error)")
                }
            }
        }
        // The file's `ok` cases without an inferred basis or an ML-DSA key, and the `revoked`
        // ones it carries no CRL for, and reg-016 (a Level 2 tokenBinding refusal).
        #expect(verified == 51)
    }

    /// reg-003's source configured a wrong anchor for its packed chain; reg-018 is the same
    /// object without it.
    @Test func wrongAnchorIsTheOnlyDifference() throws {
        let suite = try Self.suite()
        let withAnchor = try #require(suite.entry("reg-003"))
        let without = try #require(suite.entry("reg-018"))
        #expect(
            try RealRegistrationsSuite.ceremony(withAnchor).response.response.attestationObject
                == RealRegistrationsSuite.ceremony(without).response.response.attestationObject)
        #expect(withAnchor["rp_trust_anchor_config"] != nil)
        #expect(without["rp_trust_anchor_config"] == nil)
    }
}
