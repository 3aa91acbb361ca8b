@_spi(Fido2Internals) import Fido2WebAuthnWire

extension RelyingParty {
    /// The `signalUnknownCredential` payload for a sign-in that presented a credential ID the
    /// server does not know, or nil when it knows it.
    ///
    /// Read the reference before verifying (``credentialReference(responseBytes:)``), look its
    /// ``CredentialReference/credentialId`` up in the database, and pass what the look-up
    /// found. The signal is made only when the look-up found nothing (or a record of another
    /// ID): a verification that fails for another reason (an expired ceremony, a bad
    /// signature) says nothing about whether the credential exists, and has no way in here.
    ///
    /// ```swift
    /// let reference = try rp.credentialReference(responseBytes: body)
    /// let record = try database.record(id: reference.credentialId)
    /// if let signal = try rp.unknownCredentialSignal(for: reference, lookedUp: record) {
    ///     return notFound(signal: signal.jsonBytes())  // the page calls the Signal API
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - reference: what the sign-in response presented.
    ///   - record: the record the server's look-up of `reference.credentialId` returned; nil
    ///     when it found none.
    /// - Returns: the signal for RP ID ``identifiers``' first; nil when `record` is the
    ///   presented credential's.
    /// - Throws: `WebAuthnError.Code.invalidRelyingPartyID` when the relying party has no RP
    ///   ID.
    public func unknownCredentialSignal(
        for reference: CredentialReference, lookedUp record: CredentialRecord?
    ) throws -> PublicKeyCredentialSignal.UnknownCredential? {
        if let record, record.id == reference.credentialId { return nil }
        return PublicKeyCredentialSignal.UnknownCredential(
            relyingPartyID: try signalRelyingPartyID(), credentialId: reference.credentialId)
    }

    /// The `signalAllAcceptedCredentials` payload for the account `userHandle`, listing the
    /// IDs of `records`: every credential record the account has, as the database holds them
    /// now (after a deletion, say).
    ///
    /// - Parameters:
    ///   - userHandle: the account's user handle (`user.id`).
    ///   - records: every credential record of the account.
    ///   - allowingEmpty: whether an account without credentials may be signalled; false by
    ///     default, since an empty list tells the provider to hide every passkey the account
    ///     has there.
    /// - Throws: `WebAuthnError` with code `emptyAcceptedCredentialList` for no records
    ///   without `allowingEmpty`; `invalidValue` (field `records[i].userHandle`) for a record
    ///   that keeps another account's user handle; `invalidRelyingPartyID` when the relying
    ///   party has no RP ID.
    public func allAcceptedCredentialsSignal(
        userHandle: [UInt8], records: [CredentialRecord], allowingEmpty: Bool = false
    ) throws -> PublicKeyCredentialSignal.AllAcceptedCredentials {
        guard !records.isEmpty || allowingEmpty else {
            throw WebAuthnError(
                .emptyAcceptedCredentialList,
                "no credential records: an empty list hides every passkey of the account; pass allowingEmpty: true if that is meant",
                field: "records")
        }
        var ids: [[UInt8]] = []
        for (index, record) in records.enumerated() {
            if let handle = record.userHandle, handle != userHandle {
                throw WebAuthnError(
                    .invalidValue, "the record belongs to another account",
                    field: "records[\(index)].userHandle")
            }
            if !ids.contains(record.id) { ids.append(record.id) }
        }
        return PublicKeyCredentialSignal.AllAcceptedCredentials(
            relyingPartyID: try signalRelyingPartyID(), userHandle: userHandle,
            acceptedCredentialIds: ids)
    }

    /// The `signalCurrentUserDetails` payload for the account `userHandle` with its current
    /// names.
    ///
    /// - Throws: `WebAuthnError.Code.invalidRelyingPartyID` when the relying party has no RP
    ///   ID.
    public func currentUserDetailsSignal(
        userHandle: [UInt8], name: String, displayName: String
    ) throws -> PublicKeyCredentialSignal.CurrentUserDetails {
        PublicKeyCredentialSignal.CurrentUserDetails(
            relyingPartyID: try signalRelyingPartyID(), userHandle: userHandle, name: name,
            displayName: displayName)
    }

    /// The RP ID signals name: the one ceremonies put in their options.
    private func signalRelyingPartyID() throws(WebAuthnError) -> String {
        guard let id = identifiers.first else {
            throw WebAuthnError(.invalidRelyingPartyID, "the relying party has no RP ID")
        }
        return id
    }
}
