import Fido2WebAuthn

/// The two ceremonies a session can have in progress, one of each at a time.
enum CeremonyKind: String, Codable, Sendable {
    /// Registering a new credential (WebAuthn Level 3 §7.1).
    case registration
    /// Signing in with a registered credential (§7.2).
    case authentication

    /// The step whose options the state keeps: step 1 of the ceremony's procedure, which a
    /// missing state fails.
    var stateStep: VerificationStep {
        switch self {
        case .registration: .registration(1)
        case .authentication: .authentication(1)
        }
    }
}
