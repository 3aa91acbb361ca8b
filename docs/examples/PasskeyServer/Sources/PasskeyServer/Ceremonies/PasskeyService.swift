import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Foundation

/// The server's two ceremonies, each a begin and a finish, on fido2kit's ``RelyingParty`` and
/// the ``PasskeyStore``, and the signed-in account: what the API endpoints do, without HTTP.
///
/// The begin calls keep the library's state under the session's ID and return the options
/// JSON for the page. The finish calls take that state out first, so a state is used once
/// whatever the outcome, then let the library verify the response, then do the parts of the
/// verification the library leaves to the server because they need the database: that a new
/// credential ID is registered to nobody yet (§7.1 step 26) and that a sign-in's credential
/// belongs to the user (§7.2 step 6).
struct PasskeyService: Sendable {
    /// The relying party: RP ID `localhost`, the one origin the server is reached at.
    let relyingParty: RelyingParty
    /// Users, credentials, sessions and ceremony states: SQLite or PostgreSQL.
    let store: any PasskeyStorage
    /// Provider names by AAGUID, shown beside each passkey (display only).
    var providerNames = ProviderNameDirectory()
    /// How long a ceremony may take, in milliseconds: the options' `timeout`, and how long the
    /// state is accepted (the library refuses it after that, `ceremonyExpired`).
    var ceremonyTimeout: UInt32 = RegistrationOptions.defaultTimeout
    /// The key decoy credential IDs are derived under (``ServerKey/decoyName``).
    let decoyKey: [UInt8]

    /// Options for the page, and the session they were made in (its cookie is sent when the
    /// request's cookie named another, or none).
    struct Begun: Sendable {
        /// The options JSON.
        let optionsJSON: String
        /// The session the ceremony's state is kept under.
        let sessionID: String
    }

    /// What a ceremony that verified answers, and the fresh signed-in session it started.
    struct Finished<Outcome: Sendable>: Sendable {
        /// The answer's body.
        let outcome: Outcome
        /// The new session's ID, for the cookie.
        let sessionID: String
    }

    // MARK: Registration

    /// Begins a registration and returns the `PublicKeyCredentialCreationOptionsJSON` for the
    /// page (resident key and user verification `preferred`):
    ///
    /// - with a `username`, a sign-up: the name must be no account's, and the account is made
    ///   only when the first passkey verifies, so an abandoned sign-up leaves no row behind but
    ///   its ceremony, which expires;
    /// - without one, another passkey for the account signed in on `session`, its passkeys
    ///   excluded.
    ///
    /// Nothing in the options is another account's: a sign-up gets a fresh user handle and
    /// excludes nothing.
    ///
    /// - Throws: ``ServerError``: `usernameUnavailable` for a name an account has;
    ///   `notSignedIn` without a name on a session nobody signed in on; a failure of the
    ///   database.
    func beginRegistration(
        username: Username?, session: String?
    ) async throws(ServerError) -> Begun {
        var registrationOptions = RegistrationOptions()
        registrationOptions.timeout = ceremonyTimeout
        let current = try await store.currentOrNewSession(session)
        var ceremony = CeremonyRow(
            session: current.id, ceremony: .registration, userID: nil, username: nil,
            userHandle: nil, state: "", expiresAt: 0)
        let user: PublicKeyCredentialUserEntityJSON
        var excluded: [CredentialRecord] = []
        if let username {
            guard try await store.user(named: username.value) == nil else {
                throw .usernameUnavailable
            }
            let userHandle = RandomBytes.make(count: UserRow.userHandleLength)
            user = PublicKeyCredentialUserEntityJSON(
                id: userHandle, name: username.value, displayName: username.value)
            ceremony.username = username.value
            ceremony.userHandle = Data(userHandle)
        } else {
            guard let userID = current.userID, let account = try await store.user(id: userID)
            else { throw .notSignedIn }
            user = PublicKeyCredentialUserEntityJSON(
                id: Array(account.userHandle), name: account.username,
                displayName: account.username)
            excluded = try await store.credentials(ofUser: userID).map {
                row throws(ServerError) in try row.credentialRecord()
            }
            ceremony.userID = userID
        }
        do {
            let registration = try relyingParty.beginRegistration(
                user: user, excludeCredentials: excluded, options: registrationOptions)
            ceremony.state = String(decoding: registration.state.jsonBytes(), as: UTF8.self)
            ceremony.expiresAt = registration.state.expiresAt
            try await store.putCeremony(ceremony)
            return Begun(optionsJSON: registration.optionsJSON, sessionID: current.id)
        } catch {
            throw .wrapping(error)
        }
    }

    /// Finishes the session's registration with the page's `RegistrationResponseJSON`, stores
    /// the new credential (and, for a sign-up, the account) and signs the user in on a new
    /// session.
    ///
    /// - Throws: ``ServerError``: `noCeremony` when the session has no registration in
    ///   progress; the library's refusal (expired state, wrong challenge or origin, …);
    ///   `credentialExists` (§7.1 step 26) when the credential ID is registered already;
    ///   `usernameUnavailable` when another sign-up took the name meanwhile; `notSignedIn`
    ///   when the session that began adding a passkey was signed out meanwhile.
    func finishRegistration(
        responseBytes: [UInt8], session: String?
    ) async throws(ServerError) -> Finished<RegistrationOutcome> {
        let ceremony = try await takeCeremony(.registration, session: session)
        let state: RegistrationState
        do {
            state = try RegistrationState(jsonBytes: Array(ceremony.state.utf8))
        } catch {
            throw .corruptData("the registration state", error)
        }
        let record: CredentialRecord
        do {
            record = try relyingParty.finishRegistration(
                responseBytes: responseBytes, state: state)
        } catch {
            throw .wrapping(error)
        }
        let (user, signedIn) = try await store.register(record, ceremony: ceremony)
        return Finished(
            outcome: RegistrationOutcome(
                credentialId: Base64URL.encode(record.id), username: user.username),
            sessionID: signedIn.id)
    }

    // MARK: Authentication

    /// Begins a sign-in and returns the `PublicKeyCredentialRequestOptionsJSON` for the page:
    /// for `username`, with their credentials in `allowCredentials`; without one (nil), a
    /// discoverable sign-in, where the credential the user picks names the account.
    ///
    /// A name with no account (or no passkey) gets options of the same shape, with decoy
    /// credential IDs derived from the name (``decoyCredentials(for:)``): the answer does not
    /// tell who has an account, and asking again gives the same IDs. No credential matches a
    /// decoy, so such a sign-in fails at verification like a wrong passkey.
    ///
    /// - Throws: ``ServerError`` when the database fails.
    func beginAuthentication(
        username: Username?, session: String?
    ) async throws(ServerError) -> Begun {
        var authenticationOptions = AuthenticationOptions()
        authenticationOptions.timeout = ceremonyTimeout
        let decoys = try username.map { name throws(ServerError) in try decoyCredentials(for: name)
        }
        let candidates = try await store.authenticationCandidates(
            session: session, username: username?.value)
        let current = candidates.session
        var userID = candidates.user?.id
        var records = try candidates.credentials.map {
            row throws(ServerError) in try row.credentialRecord()
        }
        if username != nil, records.isEmpty {
            records = decoys ?? []
            userID = nil
        }
        do {
            let authentication = try relyingParty.beginAuthentication(
                allowCredentials: records, options: authenticationOptions)
            try await store.putCeremony(
                CeremonyRow(
                    session: current.id, ceremony: .authentication, userID: userID,
                    username: nil, userHandle: nil,
                    state: String(decoding: authentication.state.jsonBytes(), as: UTF8.self),
                    expiresAt: authentication.state.expiresAt))
            return Begun(optionsJSON: authentication.optionsJSON, sessionID: current.id)
        } catch {
            throw .wrapping(error)
        }
    }

    /// Finishes the session's sign-in with the page's `AuthenticationResponseJSON`, stores
    /// the credential's updated record (counter, backup state) and signs the user in on a new
    /// session.
    ///
    /// - Throws: ``ServerError``: `noCeremony` when the session has no sign-in in progress;
    ///   `credentialNotFound`, `credentialNotAllowed` or `userHandleMismatch` (§7.2 step 6)
    ///   when the credential is unknown or not the user's; the library's refusal (expired
    ///   state, wrong challenge or origin, bad signature, a counter gone backwards, a
    ///   credential the options did not allow, …).
    func finishAuthentication(
        responseBytes: [UInt8], session: String?
    ) async throws(ServerError) -> Finished<AuthenticationOutcome> {
        guard let session else { throw .noCeremony(.authentication) }
        let reference: CredentialReference
        do {
            // Read once: the reference keeps the parsed response for the verification below.
            reference = try relyingParty.credentialReference(responseBytes: responseBytes)
        } catch {
            // The state is used once whatever the outcome: a response that does not parse
            // ends the ceremony too, and without a ceremony the answer is still `noCeremony`.
            _ = try await takeCeremony(.authentication, session: session)
            throw .wrapping(error)
        }
        // The state taken out and the look-up in one store call, then verification outside
        // any transaction, then the update as a compare-and-set on the row that was checked:
        // two sign-ins with the same credential, even on two instances, cannot both store
        // their counter over the same old one.
        let found = try await store.takeAuthentication(
            session: session, credentialID: reference.credentialId,
            userHandle: reference.userHandle)
        guard let ceremony = found.ceremony else { throw .noCeremony(.authentication) }
        let state: AuthenticationState
        do {
            state = try AuthenticationState(jsonBytes: Array(ceremony.state.utf8))
        } catch {
            throw .corruptData("the authentication state", error)
        }
        let row = try Self.credential(
            found.credential, for: reference, allowed: state.allowedCredentials,
            userID: ceremony.userID, handleOwner: found.handleOwner, relyingParty: relyingParty)
        let verified: VerifiedAuthentication
        do {
            verified = try relyingParty.finishAuthentication(
                reference, state: state, credential: try row.credentialRecord())
        } catch {
            throw .wrapping(error)
        }
        let (user, signedIn) = try await store.signIn(
            ceremony: ceremony, checked: row, updated: verified.updatedRecord)
        return Finished(
            outcome: AuthenticationOutcome(
                username: user.username, signCount: verified.updatedRecord.signCount,
                currentUserDetails: Self.currentUserDetails(of: user, relyingParty: relyingParty)),
            sessionID: signedIn.id)
    }

    /// The decoy `allowCredentials` for a name with no account: one credential whose ID is
    /// HMAC-SHA-256(decoy key, name), 32 bytes as many authenticators' IDs are, with a synced
    /// passkey's transports. The same name gives the same ID while the database keeps its key.
    ///
    /// - Throws: ``ServerError`` when HMAC fails.
    func decoyCredentials(for username: Username) throws(ServerError) -> [CredentialRecord] {
        do {
            let code = try HMAC.authenticationCode(
                for: Array("decoy credential\u{0}\(username.value)".utf8), key: decoyKey)
            return [
                try CredentialRecord(
                    id: code, publicKeyBytes: Self.decoyPublicKey, signCount: 0,
                    backupEligible: true, transports: [.hybrid, .internal])
            ]
        } catch {
            throw .wrapping(error)
        }
    }

    /// A P-256 public key as a COSE_Key (the curve's generator point), only for the decoy
    /// records: the library builds `allowCredentials` from records, and only their ID and
    /// transports reach the options.
    private static let decoyPublicKey: [UInt8] =
        [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]
        + [
            0x6B, 0x17, 0xD1, 0xF2, 0xE1, 0x2C, 0x42, 0x47, 0xF8, 0xBC, 0xE6, 0xE5, 0x63, 0xA4,
            0x40, 0xF2, 0x77, 0x03, 0x7D, 0x81, 0x2D, 0xEB, 0x33, 0xA0, 0xF4, 0xA1, 0x39, 0x45,
            0xD8, 0x98, 0xC2, 0x96,
        ] + [0x22, 0x58, 0x20]
        + [
            0x4F, 0xE3, 0x42, 0xE2, 0xFE, 0x1A, 0x7F, 0x9B, 0x8E, 0xE7, 0xEB, 0x4A, 0x7C, 0x0F,
            0x9E, 0x16, 0x2B, 0xCE, 0x33, 0x57, 0x6B, 0x31, 0x5E, 0xCE, 0xCB, 0xB6, 0x40, 0x68,
            0x37, 0xBF, 0x51, 0xF5,
        ]

    // MARK: Sessions and the account

    /// Ends the session `session`, if there is one.
    ///
    /// - Throws: ``ServerError`` when the database fails.
    func signOut(session: String?) async throws(ServerError) {
        guard let session else { return }
        try await store.endSession(session)
    }

    /// The account signed in on `session`, with its passkeys and their provider names.
    ///
    /// - Throws: ``ServerError`` `notSignedIn`; a failure of the database.
    func account(session: String?) async throws(ServerError) -> AccountView {
        let user = try await store.signedInUser(session: session)
        guard let userID = user.id else { throw .corruptData("users", "no row ID") }
        return try accountView(of: user, rows: try await store.credentials(ofUser: userID))
    }

    /// Renames the signed-in account's passkey `credentialID`.
    ///
    /// - Throws: ``ServerError``: `notSignedIn`; `passkeyNotFound` when the account has no
    ///   such passkey; a failure of the database.
    func renamePasskey(
        _ credentialID: String, to name: PasskeyName, session: String?
    ) async throws(ServerError) {
        let user = try await store.signedInUser(session: session)
        guard let userID = user.id else { throw .corruptData("users", "no row ID") }
        try await store.renamePasskey(credentialID, userID: userID, to: name.value)
    }

    /// Deletes the signed-in account's passkey `credentialID`, unless it is the last one.
    ///
    /// - Throws: ``ServerError``: `notSignedIn`; `passkeyNotFound`; `lastPasskey`; a failure
    ///   of the database.
    func deletePasskey(_ credentialID: String, session: String?) async throws(ServerError) {
        let user = try await store.signedInUser(session: session)
        guard let userID = user.id else { throw .corruptData("users", "no row ID") }
        try await store.deletePasskey(credentialID, userID: userID)
    }

    /// Deletes expired ceremony states (and with them never-finished sign-ups) and expired
    /// sessions; returns how many rows went.
    ///
    /// - Throws: ``ServerError`` when the database fails.
    @discardableResult
    func prune() async throws(ServerError) -> Int {
        try await store.pruneExpired()
    }

    // MARK: Parts

    /// Takes the session's state for `kind` out of the store.
    ///
    /// - Throws: ``ServerError`` `noCeremony` when there is none (or no session).
    private func takeCeremony(
        _ kind: CeremonyKind, session: String?
    ) async throws(ServerError) -> CeremonyRow {
        guard let session else { throw .noCeremony(kind) }
        let ceremony = try await store.takeCeremony(session: session, kind: kind)
        guard let ceremony else { throw .noCeremony(kind) }
        return ceremony
    }

    /// §7.2 steps 5 and 6, the server's part: the record of the credential the response names,
    /// which must be one the options allowed (`allowed`, when they listed any) and the user's:
    /// the user the options were for (`userID`), or in a discoverable sign-in the user whose
    /// handle the response carries.
    ///
    /// Step 5 comes first, as in the library: a known credential outside the options is refused
    /// alike whether the options were a real account's or an unknown name's decoys. Checked in
    /// the other order, another account's credential would get "not the user's" for a real
    /// name and a different refusal for a decoy, telling which names have accounts.
    ///
    /// - Throws: ``ServerError``: `credentialNotFound` (with the `signalUnknownCredential`
    ///   payload), `credentialNotAllowed`, `userHandleMismatch`.
    private static func credential(
        _ found: CredentialRow?, for reference: CredentialReference, allowed: [[UInt8]],
        userID: Int64?, handleOwner: UserRow?, relyingParty: RelyingParty
    ) throws(ServerError) -> CredentialRow {
        let step = VerificationStep.authentication(6)
        guard let row = found else {
            throw unknownCredential(reference, relyingParty: relyingParty)
        }
        guard allowed.isEmpty || allowed.contains(reference.credentialId) else {
            throw ServerError(
                WebAuthnError(
                    .credentialNotAllowed, "the credential is not in allowCredentials",
                    field: "rawId", step: .authentication(5)))
        }
        if let userID {
            guard row.userID == userID else {
                throw ServerError(
                    WebAuthnError(
                        .credentialNotAllowed, "the credential is not the user's", field: "rawId",
                        step: step))
            }
        } else {
            guard let userHandle = reference.userHandle else {
                throw ServerError(
                    WebAuthnError(
                        .userHandleMismatch,
                        "a sign-in without a username needs the response's userHandle",
                        field: "response.userHandle", step: step))
            }
            guard let owner = handleOwner, owner.userHandle == Data(userHandle),
                owner.id == row.userID
            else {
                throw ServerError(
                    WebAuthnError(
                        .userHandleMismatch, "userHandle is not the credential's user",
                        field: "response.userHandle", step: step))
            }
        }
        return row
    }
}
