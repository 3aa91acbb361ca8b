import Fido2Crypto
import Fido2Support
import Fido2WebAuthnWire

/// The software authenticator's memory of the last origin and RP ID it accepted, with the RP
/// ID's SHA-256. An authenticator mostly serves one relying party; parsing the origin, checking
/// the RP ID against it and hashing the RP ID again on every ceremony cost about a tenth of an
/// ES256 signature. Failures are not remembered, so every refusal is made afresh.
final class RelyingPartyMemo: Sendable {
    /// An accepted (origin, requested RP ID) pair and what was worked out from it.
    struct Entry: Sendable {
        let origin: String
        let requestedID: String?
        let webOrigin: WebOrigin
        let relyingPartyID: String
        let rpIdHash: [UInt8]
    }

    private let last = LockedState<Entry?>(nil)

    /// The origin and RP ID for `origin` and `requestedID` (the options' RP ID, or nil for the
    /// origin's host), checked by ``WebOrigin`` and ``RelyingPartyIDPolicy``.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidOrigin`, `invalidRelyingPartyID`.
    func resolve(origin: String, requestedID: String?) throws -> Entry {
        if let entry = last.withLock({ $0 }), entry.origin == origin,
            entry.requestedID == requestedID
        {
            return entry
        }
        let webOrigin = try WebOrigin(origin)
        let relyingPartyID = try RelyingPartyIDPolicy.validate(
            requestedID ?? webOrigin.host, for: webOrigin)
        let entry = Entry(
            origin: origin, requestedID: requestedID, webOrigin: webOrigin,
            relyingPartyID: relyingPartyID, rpIdHash: AuthenticatorData.hash(relyingPartyID))
        last.withLock { $0 = entry }
        return entry
    }
}
