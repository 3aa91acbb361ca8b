import Fido2WebAuthn

extension PasskeyService {
    /// The refusal of a sign-in whose credential ID no account has (§7.2 step 6, the server's
    /// part), carrying the `signalUnknownCredential` payload: the look-up found nothing, so
    /// the page may tell the user's provider to hide the passkey. Only this refusal carries
    /// it; a sign-in that fails for another reason says nothing about the credential.
    static func unknownCredential(
        _ reference: CredentialReference, relyingParty: RelyingParty
    ) -> ServerError {
        var error = ServerError(
            WebAuthnError(
                .credentialNotFound, "no credential with this ID is registered",
                field: "rawId", step: .authentication(6)))
        if let signal = try? relyingParty.unknownCredentialSignal(for: reference, lookedUp: nil) {
            error.unknownCredential = SignalPayloads.UnknownCredential(signal)
        }
        return error
    }

    /// The `signalCurrentUserDetails` payload for `user`, sent after each sign-in; nil when
    /// the relying party has no RP ID.
    static func currentUserDetails(
        of user: UserRow, relyingParty: RelyingParty
    ) -> SignalPayloads.CurrentUserDetails? {
        (try? relyingParty.currentUserDetailsSignal(
            userHandle: Array(user.userHandle), name: user.username,
            displayName: user.username)).map(SignalPayloads.CurrentUserDetails.init)
    }

    /// The account's passkeys as the account view shows them, with each one's provider name,
    /// and the `signalAllAcceptedCredentials` payload listing them all (the page sends it
    /// after a deletion).
    func accountView(of user: UserRow, rows: [CredentialRow]) throws(ServerError) -> AccountView {
        var records: [CredentialRecord] = []
        var passkeys: [AccountView.Passkey] = []
        for row in rows {
            let record = try row.credentialRecord()
            records.append(record)
            passkeys.append(
                AccountView.Passkey(
                    credentialId: row.id, name: row.name, createdAt: row.createdAt,
                    lastUsedAt: row.lastUsedAt, backupEligible: record.backupEligible,
                    backedUp: record.backupState,
                    provider: providerNames.name(for: record)?.name))
        }
        // The records kept no user handle of their own here: every row is the account's.
        let accepted = try? relyingParty.allAcceptedCredentialsSignal(
            userHandle: Array(user.userHandle), records: records)
        return AccountView(
            username: user.username, passkeys: passkeys,
            allAcceptedCredentials: accepted.map(SignalPayloads.AllAcceptedCredentials.init))
    }
}
