import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// What a relying party expects of one authentication ceremony: what it put in the
/// `PublicKeyCredentialRequestOptions`, the credential record it holds, and its policies.
public struct AuthenticationExpectations: Sendable {
    /// How the user came to be known (§7.2 step 6).
    public enum UserIdentification: Sendable, Hashable {
        /// The user was identified before the ceremony (a username, a cookie): a `userHandle`
        /// in the response is optional and, when present, must be the record's.
        case beforeCeremony
        /// The user is identified by the ceremony (a discoverable credential, empty
        /// `allowCredentials`): the response must carry a `userHandle`, and it must be the
        /// record's.
        case byUserHandle
    }

    /// The challenge sent in the options (compared in constant time, §7.2 step 11).
    public var challenge: [UInt8]
    /// The record of the credential the response names (looked up by `rawId`, or by
    /// `userHandle` and `rawId`).
    public var credential: CredentialRecord
    /// The IDs of `allowCredentials`; empty when the options listed none (§7.2 step 5).
    public var allowCredentials: [[UInt8]]
    /// How the user came to be known.
    public var userIdentification: UserIdentification
    /// Whether the UV flag must be set (`userVerification: "required"`, §7.2 step 17).
    public var requiresUserVerification: Bool
    /// Which extension outputs may appear (§7.2 step 23).
    public var extensions: ExtensionPolicy
    /// The AppID the options sent in the `appid` extension input (§10.1.1), for credentials
    /// registered through the U2F API; nil when they sent none. Only with it, and only when
    /// the client's `appid` output is `true`, is rpIdHash checked against SHA-256 of the AppID
    /// instead of the RP ID (§7.2 step 15); an `appid: true` output without it fails.
    public var appID: String?

    /// Expectations for a ceremony that sent `challenge`, to be answered by `credential`.
    public init(
        challenge: [UInt8], credential: CredentialRecord, allowCredentials: [[UInt8]] = [],
        userIdentification: UserIdentification = .beforeCeremony,
        requiresUserVerification: Bool = false, extensions: ExtensionPolicy = .acceptAll,
        appID: String? = nil
    ) {
        self.appID = appID
        self.challenge = challenge
        self.credential = credential
        self.allowCredentials = allowCredentials
        self.userIdentification = userIdentification
        self.requiresUserVerification = requiresUserVerification
        self.extensions = extensions
    }

    /// Expectations read from the options the relying party sent: the challenge, the IDs of
    /// `allowCredentials` (and, when it is empty, a user to be identified by the response's
    /// `userHandle`), UV required when `userVerification` is `required`, and the `appid`
    /// extension input when it is a string.
    public init(
        options: PublicKeyCredentialRequestOptionsJSON, credential: CredentialRecord,
        extensions: ExtensionPolicy = .acceptAll
    ) {
        let allowed = options.allowCredentials.filter { $0.type == "public-key" }.map(\.id)
        self.init(
            challenge: options.challenge, credential: credential, allowCredentials: allowed,
            userIdentification: allowed.isEmpty ? .byUserHandle : .beforeCeremony,
            requiresUserVerification: options.userVerification == .required,
            extensions: extensions, appID: Self.appID(in: options.extensions))
    }

    /// The `appid` input of `extensions`, when it is a string.
    static func appID(in extensions: JSONObject?) -> String? {
        guard case .string(let appID)? = extensions?["appid"] else { return nil }
        return appID
    }
}
