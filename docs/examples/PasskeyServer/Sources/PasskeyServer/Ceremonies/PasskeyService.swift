import Fido2WebAuthn
import Foundation
import GRDB

/// The server's two ceremonies, each a begin and a finish, on fido2kit's ``RelyingParty`` and
/// the ``PasskeyStore``: what the four API endpoints do, without HTTP.
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
    /// Users, credentials and ceremony states.
    let store: PasskeyStore
    /// How long a ceremony may take, in milliseconds: the options' `timeout`, and how long the
    /// state is accepted (the library refuses it after that, `ceremonyExpired`).
    var ceremonyTimeout: UInt32 = RegistrationOptions.defaultTimeout

    // MARK: Registration

    /// Begins registering a credential for `username`, creating the account when it is new,
    /// and returns the `PublicKeyCredentialCreationOptionsJSON` for the page (resident key and
    /// user verification `preferred`, the user's credentials excluded).
    ///
    /// An existing account gets one more credential: a real service asks the user to sign in
    /// first; this example lets anyone add a passkey to any name, to keep to the point.
    ///
    /// - Throws: ``ServerError`` when the database fails.
    func beginRegistration(
        username: Username, session: String
    ) async throws(ServerError) -> String {
        let relyingParty = relyingParty
        var registrationOptions = RegistrationOptions()
        registrationOptions.timeout = ceremonyTimeout
        return try await store.write { [registrationOptions] db in
            try CeremonyRow.pruneExpired(in: db)
            let user = try UserRow.findOrCreate(named: username.value, in: db)
            guard let userID = user.id else { throw ServerError.corruptData("users", "no row ID") }
            let registration = try relyingParty.beginRegistration(
                user: PublicKeyCredentialUserEntityJSON(
                    id: Array(user.userHandle), name: user.username, displayName: user.username),
                excludeCredentials: try CredentialRow.records(ofUser: userID, in: db),
                options: registrationOptions)
            try CeremonyRow(
                session: session, ceremony: .registration, userID: userID,
                state: String(decoding: registration.state.jsonBytes(), as: UTF8.self),
                expiresAt: registration.state.expiresAt
            ).put(in: db)
            return registration.optionsJSON
        }
    }

    /// Finishes the session's registration with the page's `RegistrationResponseJSON` and
    /// stores the new credential.
    ///
    /// - Throws: ``ServerError``: `noCeremony` when the session has no registration in
    ///   progress; the library's refusal (expired state, wrong challenge or origin, …);
    ///   `credentialExists` (§7.1 step 26) when the credential ID is registered already.
    func finishRegistration(
        responseJSON: String, session: String?
    ) async throws(ServerError) -> RegistrationOutcome {
        let ceremony = try await takeCeremony(.registration, session: session)
        guard let userID = ceremony.userID else {
            throw .corruptData("the registration state", "no user")
        }
        let state: RegistrationState
        do {
            state = try RegistrationState(jsonBytes: Array(ceremony.state.utf8))
        } catch {
            throw .corruptData("the registration state", error)
        }
        let record: CredentialRecord
        do {
            record = try relyingParty.finishRegistration(responseJSON: responseJSON, state: state)
        } catch {
            throw .wrapping(error)
        }
        return try await store.write { db in
            // §7.1 step 26, the server's part: the ID is no one's credential yet. The library
            // checked the IDs the options excluded, this user's.
            guard try CredentialRow.withID(record.id, in: db) == nil else {
                throw ServerError(
                    WebAuthnError(
                        .credentialExists, "the credential ID is registered already",
                        field: "rawId", step: .registration(26)))
            }
            try CredentialRow(record: record, userID: userID).insert(db)
            return RegistrationOutcome(credentialId: Base64URL.encode(record.id))
        }
    }

    // MARK: Authentication

    /// Begins a sign-in and returns the `PublicKeyCredentialRequestOptionsJSON` for the page:
    /// for `username`, with their credentials in `allowCredentials`; without one (nil), a
    /// discoverable sign-in, where the credential the user picks names the account.
    ///
    /// - Throws: ``ServerError``: `unknownUser` when `username` has no credential; a failure
    ///   of the database.
    func beginAuthentication(
        username: Username?, session: String
    ) async throws(ServerError) -> String {
        let relyingParty = relyingParty
        var authenticationOptions = AuthenticationOptions()
        authenticationOptions.timeout = ceremonyTimeout
        return try await store.write { [authenticationOptions] db in
            try CeremonyRow.pruneExpired(in: db)
            var userID: Int64?
            var records: [CredentialRecord] = []
            if let username {
                guard let user = try UserRow.named(username.value, in: db), let id = user.id
                else { throw ServerError.unknownUser(username.value) }
                records = try CredentialRow.records(ofUser: id, in: db)
                // No credential would make the options discoverable: refuse instead.
                guard !records.isEmpty else { throw ServerError.unknownUser(username.value) }
                userID = id
            }
            let authentication = try relyingParty.beginAuthentication(
                allowCredentials: records, options: authenticationOptions)
            try CeremonyRow(
                session: session, ceremony: .authentication, userID: userID,
                state: String(decoding: authentication.state.jsonBytes(), as: UTF8.self),
                expiresAt: authentication.state.expiresAt
            ).put(in: db)
            return authentication.optionsJSON
        }
    }

    /// Finishes the session's sign-in with the page's `AuthenticationResponseJSON` and stores
    /// the credential's updated record (counter, backup state).
    ///
    /// - Throws: ``ServerError``: `noCeremony` when the session has no sign-in in progress;
    ///   `credentialNotFound`, `credentialNotAllowed` or `userHandleMismatch` (§7.2 step 6)
    ///   when the credential is unknown or not the user's; the library's refusal (expired
    ///   state, wrong challenge or origin, bad signature, a counter gone backwards, …).
    func finishAuthentication(
        responseJSON: String, session: String?
    ) async throws(ServerError) -> AuthenticationOutcome {
        let ceremony = try await takeCeremony(.authentication, session: session)
        let state: AuthenticationState
        do {
            state = try AuthenticationState(jsonBytes: Array(ceremony.state.utf8))
        } catch {
            throw .corruptData("the authentication state", error)
        }
        let reference: CredentialReference
        do {
            reference = try relyingParty.credentialReference(responseJSON: responseJSON)
        } catch {
            throw .wrapping(error)
        }
        let relyingParty = relyingParty
        // Look-up, verification and update in one transaction: two sign-ins with the same
        // credential, even from two processes, each see the counter the other left.
        return try await store.write { db in
            let row = try Self.credential(for: reference, userID: ceremony.userID, in: db)
            let verified = try relyingParty.finishAuthentication(
                responseJSON: responseJSON, state: state, credential: try row.credentialRecord())
            try row.signedIn(updating: verified.updatedRecord).update(db)
            guard let user = try UserRow.fetchOne(db, key: row.userID) else {
                throw ServerError.corruptData("credential \(row.id)", "its user is missing")
            }
            return AuthenticationOutcome(
                username: user.username, signCount: verified.updatedRecord.signCount)
        }
    }

    // MARK: Parts

    /// Takes the session's state for `kind` out of the store.
    ///
    /// - Throws: ``ServerError`` `noCeremony` when there is none (or no session).
    private func takeCeremony(
        _ kind: CeremonyKind, session: String?
    ) async throws(ServerError) -> CeremonyRow {
        guard let session else { throw .noCeremony(kind) }
        let ceremony = try await store.write { db in
            try CeremonyRow.take(session: session, kind: kind, in: db)
        }
        guard let ceremony else { throw .noCeremony(kind) }
        return ceremony
    }

    /// §7.2 step 6, the server's part: the record of the credential the response names, which
    /// must be the user's: the user the options were for (`userID`), or in a discoverable
    /// sign-in the user whose handle the response carries.
    ///
    /// - Throws: ``ServerError``: `credentialNotFound`, `credentialNotAllowed`,
    ///   `userHandleMismatch`.
    private static func credential(
        for reference: CredentialReference, userID: Int64?, in db: Database
    ) throws -> CredentialRow {
        let step = VerificationStep.authentication(6)
        guard let row = try CredentialRow.withID(reference.credentialId, in: db) else {
            throw ServerError(
                WebAuthnError(
                    .credentialNotFound, "no credential with this ID is registered",
                    field: "rawId", step: step))
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
            guard let owner = try UserRow.withUserHandle(userHandle, in: db),
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
