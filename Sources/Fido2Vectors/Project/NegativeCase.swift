/// A negative case of the project's vectors: what it changes in an otherwise genuine response
/// and the verification step that must reject it.
struct NegativeCase<Parts> {
    /// The case ID.
    let id: String
    /// One line saying what the case is.
    let title: String
    /// What differs from what a genuine authenticator and client would send.
    let mutation: String
    /// The step that must reject it, in WebAuthn Level 3's numbering (`§7.1 step 8`).
    let step: String
    /// What that step checks.
    let check: String
    /// fido2kit's error code for it (`challengeMismatch`).
    let code: String
    /// Applies the change to the genuine parts.
    let change: (inout Parts) -> Void
}
