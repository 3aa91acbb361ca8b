import Fido2WebAuthn
import Fido2WebAuthnWire

extension VerificationStep {
    /// Whether the step tables (``VerificationStep/registrationSteps`` and
    /// ``VerificationStep/authenticationSteps``, which the documentation renders) list `code`
    /// for this step; true for steps outside §7.1 and §7.2. Every ceremony failure a vector
    /// expects, and every one a test expects, must be such a row.
    package func lists(_ code: WebAuthnError.Code) -> Bool {
        guard isCeremonyStep else { return true }
        let checks = Self.registrationSteps + Self.authenticationSteps
        return checks.contains { check in
            let first = check.step.number ?? 0
            let last = check.lastStep?.number ?? first
            return check.step.section == section && (first...last).contains(number ?? -1)
                && check.codes.contains(code)
        }
    }
}
