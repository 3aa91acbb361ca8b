@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What the signature counter of an assertion says (WebAuthn Level 3 §7.2 step 22).
public enum SignCountVerdict: Sendable, Hashable {
    /// Both the stored and the received counter are zero: the authenticator keeps no counter.
    case notUsed
    /// The received counter is greater than the stored one.
    case advanced
    /// The received counter is not greater than the stored one while one of them is non-zero:
    /// a sign that the credential's private key may exist twice (a cloned authenticator).
    /// The relying party decides what to do; WebAuthn leaves it to its risk policy.
    case possibleClone(stored: UInt32, received: UInt32)

    /// The verdict for `received` after `stored`.
    init(stored: UInt32, received: UInt32) {
        if stored == 0 && received == 0 {
            self = .notUsed
        } else if received > stored {
            self = .advanced
        } else {
            self = .possibleClone(stored: stored, received: received)
        }
    }
}
