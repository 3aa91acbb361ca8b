/// The step labels the ceremonies put in `WebAuthnError.step`: the numbers of the verification
/// procedures in WebAuthn Level 3 §7.1 (registering a new credential) and §7.2 (verifying an
/// authentication assertion), as the current editor's draft numbers them (with the
/// `crossOrigin` and `topOrigin` steps). The one place a step's number is written: the tables
/// of ``VerificationStep`` and the relying party's checks name these constants.
package enum CeremonyStep {
    /// §7.1, registration.
    package enum Registration {
        /// Step 1: the options, kept as the ceremony state until the response comes.
        package static let state: VerificationStep = "§7.1 step 1"
        /// Steps 2–3: the credential and its `response` (the JSON form).
        package static let response: VerificationStep = "§7.1 step 3"
        /// Steps 5–6: C, the client data parsed from clientDataJSON.
        package static let clientData: VerificationStep = "§7.1 step 6"
        /// Step 7: `C.type` is `webauthn.create`.
        package static let type: VerificationStep = "§7.1 step 7"
        /// Step 8: `C.challenge` is the challenge the RP issued.
        package static let challenge: VerificationStep = "§7.1 step 8"
        /// Step 9: `C.origin` is an origin the RP expects.
        package static let origin: VerificationStep = "§7.1 step 9"
        /// Step 10: `C.crossOrigin` is true only where the RP expects an iframe.
        package static let crossOrigin: VerificationStep = "§7.1 step 10"
        /// Step 11: `C.topOrigin`, when present, is a page the RP expects to be framed in.
        package static let topOrigin: VerificationStep = "§7.1 step 11"
        /// Step 12: the hash of clientDataJSON.
        package static let clientDataHash: VerificationStep = "§7.1 step 12"
        /// Step 13: CBOR decoding of the attestation object into fmt, authData and attStmt.
        package static let decoding: VerificationStep = "§7.1 step 13"
        /// Step 14: rpIdHash is SHA-256 of the RP ID.
        package static let rpIdHash: VerificationStep = "§7.1 step 14"
        /// Step 15: the UP flag is set.
        package static let userPresence: VerificationStep = "§7.1 step 15"
        /// Step 16: the UV flag is set when user verification is required.
        package static let userVerification: VerificationStep = "§7.1 step 16"
        /// Step 17: BS is set only together with BE.
        package static let backupState: VerificationStep = "§7.1 step 17"
        /// Step 20: the credential's algorithm is one of the RP's `pubKeyCredParams`.
        package static let algorithm: VerificationStep = "§7.1 step 20"
        /// Step 21: the attestation statement format is one this library verifies.
        package static let format: VerificationStep = "§7.1 step 21"
        /// Step 22: the format's verification procedure accepts the statement.
        package static let statement: VerificationStep = "§7.1 step 22"
        /// Steps 23–24: the attestation type and trust path are acceptable.
        package static let trust: VerificationStep = "§7.1 step 24"
        /// Step 25: the credential ID has at most 1023 bytes (and is the one the response
        /// names: `rawId`).
        package static let credentialId: VerificationStep = "§7.1 step 25"
        /// Step 26: the credential ID is not registered yet (of which the library checks the
        /// IDs in `excludeCredentials`).
        package static let notRegistered: VerificationStep = "§7.1 step 26"
        /// Step 28: the extension outputs are as expected.
        package static let extensions: VerificationStep = "§7.1 step 28"
    }

    /// §7.2, authentication.
    package enum Authentication {
        /// Step 1: the options, kept as the ceremony state until the response comes.
        package static let state: VerificationStep = "§7.2 step 1"
        /// Steps 2–3: the credential and its `response` (the JSON form).
        package static let response: VerificationStep = "§7.2 step 3"
        /// Step 5: the credential is in `allowCredentials`.
        package static let allowCredentials: VerificationStep = "§7.2 step 5"
        /// Step 6: the credential record and the user handle.
        package static let credentialRecord: VerificationStep = "§7.2 step 6"
        /// Step 7: cData, authData and sig (authData is parsed here).
        package static let authenticatorData: VerificationStep = "§7.2 step 7"
        /// Steps 8–9: C, the client data parsed from cData.
        package static let clientData: VerificationStep = "§7.2 step 9"
        /// Step 10: `C.type` is `webauthn.get`.
        package static let type: VerificationStep = "§7.2 step 10"
        /// Step 11: `C.challenge` is the challenge the RP issued.
        package static let challenge: VerificationStep = "§7.2 step 11"
        /// Step 12: `C.origin` is an origin the RP expects.
        package static let origin: VerificationStep = "§7.2 step 12"
        /// Step 13: `C.crossOrigin` is true only where the RP expects an iframe.
        package static let crossOrigin: VerificationStep = "§7.2 step 13"
        /// Step 14: `C.topOrigin`, when present, is a page the RP expects to be framed in.
        package static let topOrigin: VerificationStep = "§7.2 step 14"
        /// Step 15: rpIdHash is SHA-256 of the RP ID.
        package static let rpIdHash: VerificationStep = "§7.2 step 15"
        /// Step 16: the UP flag is set.
        package static let userPresence: VerificationStep = "§7.2 step 16"
        /// Step 17: the UV flag is set when user verification is required.
        package static let userVerification: VerificationStep = "§7.2 step 17"
        /// Step 18: BS is set only together with BE.
        package static let backupState: VerificationStep = "§7.2 step 18"
        /// Step 19: BE is what the credential record says.
        package static let backupEligibility: VerificationStep = "§7.2 step 19"
        /// Steps 20–21: the signature over authData ‖ SHA-256(cData) with the stored key.
        package static let signature: VerificationStep = "§7.2 step 21"
        /// Step 22: the signature counter.
        package static let signCount: VerificationStep = "§7.2 step 22"
        /// Step 23: the extension outputs are as expected.
        package static let extensions: VerificationStep = "§7.2 step 23"
    }
}
