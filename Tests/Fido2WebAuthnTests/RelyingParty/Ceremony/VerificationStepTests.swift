import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Foundation
import Testing

/// `VerificationStep`: how steps read and print, and the step tables, which the DocC article
/// shows as rendered (the map of steps to codes lives once, in code).
@Suite struct VerificationStepTests {
    static let article = SharedVectors.packageRoot.appendingPathComponent(
        "Sources/Fido2WebAuthn/Fido2WebAuthn.docc/RelyingPartyVerification.md")

    @Test func readsAndPrintsStepsAndSections() {
        let step: VerificationStep = "§7.1 step 13"
        #expect(step == .registration(13) && step.description == "§7.1 step 13")
        #expect(step.isCeremonyStep)
        let section: VerificationStep = "§8.3.1"
        #expect(section.section == "8.3.1" && section.number == nil && !section.isCeremonyStep)
        #expect(section.description == "§8.3.1")
        #expect(VerificationStep.authentication(22).description == "§7.2 step 22")
    }

    @Test func everyCheckHasCodesAndTheTablesFollowTheSpecificationsOrder() {
        for checks in [VerificationStep.registrationSteps, VerificationStep.authenticationSteps] {
            #expect(checks.allSatisfy { !$0.codes.isEmpty })
            #expect(Set(checks.map(\.step)).count == checks.count)
        }
        // §7.2 runs in the order of its numbers; §7.1 runs the cheap checks of steps 25 and 28
        // before the attestation statement (21, 22, 24).
        let numbers = VerificationStep.authenticationSteps.compactMap(\.step.number)
        #expect(numbers == numbers.sorted())
    }

    /// The article's tables are the rendering of the code's. With FIDO2KIT_UPDATE_DOCS=1 the
    /// test writes them instead (then commit the article).
    @Test func theArticleShowsTheTablesOfTheCode() throws {
        var text = try String(contentsOf: Self.article, encoding: .utf8)
        let original = text
        for (name, checks) in [
            ("registrationSteps", VerificationStep.registrationSteps),
            ("authenticationSteps", VerificationStep.authenticationSteps),
        ] {
            let begin =
                "<!-- VerificationStep.\(name), rendered by VerificationStep.markdownTable -->"
            let end = "<!-- end of VerificationStep.\(name) -->"
            let start = try #require(text.range(of: begin), "no \(begin)")
            let stop = try #require(text.range(of: end), "no \(end)")
            text.replaceSubrange(
                start.upperBound..<stop.lowerBound,
                with: "\n" + VerificationStep.markdownTable(checks) + "\n")
        }
        if ProcessInfo.processInfo.environment["FIDO2KIT_UPDATE_DOCS"] == "1" {
            try text.write(to: Self.article, atomically: true, encoding: .utf8)
        } else {
            #expect(text == original, "the article's step tables differ from VerificationStep's")
        }
    }
}
