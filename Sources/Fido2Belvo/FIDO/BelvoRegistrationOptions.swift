import Fido2Encoding

/// Belvo's registration options mapped to plain values for the authenticator layer.
///
/// The mapping from ``BelvoFidoRegistrationOptions``:
/// - `user.id` → ``userHandle`` per ``BelvoUserHandleMapping`` (default: the UUID string's UTF-8
///   bytes, as the iOS SDK does); it must give 1 to 64 bytes (WebAuthn §5.4.3).
/// - `challenge` → ``challenge``, base64url-decoded; it must not be empty. WebAuthn asks RPs for
///   at least 16 random bytes, but Belvo's own sample has 14, so shorter is accepted.
/// - `pubKeyCredParams` → ``algorithms``: the `alg` of every `public-key` entry, in the RP's
///   order of preference (entries of other types are skipped, as WebAuthn §5.1.3 says). An empty
///   list, or one naming no algorithm in ``supportedAlgorithms``, is refused: WebAuthn would
///   default an empty list to ES256 and RS256, but from Belvo it means a broken answer.
/// - `extensions.appid` is ignored and listed in ``ignoredExtensions``: `appid` (WebAuthn
///   §10.1.1) is an authentication extension for credentials registered under a FIDO U2F AppID;
///   a registration has no use for it (its registration-time sibling is `appidExclude`), and
///   Belvo's value is the string `"true"`, not an AppID URL. Other extensions are ignored too.
/// - `excludeCredentials` ids are base64url-decoded; `timeout`, `attestation`,
///   `authenticatorSelection.userVerification` and `.residentKey` pass through.
public struct BelvoRegistrationOptions: Sendable, Hashable {
    /// The COSE algorithms fido2kit's authenticator can create: ES256, EdDSA, ES384, ES512,
    /// PS256, RS256.
    public static let supportedAlgorithms: Set<Int> = [-7, -8, -35, -36, -37, -257]

    /// The RP ID, e.g. `belvo.com`.
    public let rpId: String
    /// The RP's display name.
    public let rpName: String
    /// The user handle bytes stored with the credential and returned in assertions.
    public let userHandle: [UInt8]
    /// The account name.
    public let userName: String
    /// The name to display.
    public let userDisplayName: String
    /// The challenge bytes the attestation's clientDataJSON must carry.
    public let challenge: [UInt8]
    /// COSE algorithm identifiers in the RP's order of preference (at least one supported).
    public let algorithms: [Int]
    /// The ceremony time-out in milliseconds, when sent.
    public let timeout: Int?
    /// Ids of credentials that must not be registered again.
    public let excludeCredentials: [[UInt8]]
    /// The attestation conveyance preference, when sent.
    public let attestation: String?
    /// The user verification requirement, when sent.
    public let userVerification: String?
    /// The resident key requirement, when sent.
    public let residentKey: String?
    /// Extensions present in the options that the mapping ignores (e.g. `appid`), sorted.
    public let ignoredExtensions: [String]

    /// The origin an iOS app's platform authenticator reports for these options:
    /// `https://` + ``rpId``. A native app proves the RP ID through its associated domain
    /// (`webcredentials:belvo.com`), and AuthenticationServices then writes that domain's HTTPS
    /// origin into clientDataJSON. Callers reproducing another client can pass their own.
    public var defaultOrigin: String { "https://\(rpId)" }

    /// Maps options as Belvo sent them.
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions`` naming the member at fault (empty RP
    ///   ID, user id that maps to no bytes or more than 64, challenge that is not non-empty
    ///   base64url, negative time-out, excluded credential id that is not base64url);
    ///   ``BelvoError/Code/unsupportedAlgorithms`` when `pubKeyCredParams` is empty or names no
    ///   supported algorithm.
    public init(
        _ options: BelvoFidoRegistrationOptions, userHandleMapping: BelvoUserHandleMapping = .utf8
    ) throws {
        guard !options.rp.id.isEmpty else {
            throw BelvoError(.malformedFidoOptions, "rp.id is empty", field: "rp.id")
        }
        let handle: [UInt8]?
        switch userHandleMapping {
        case .utf8: handle = Array(options.user.id.utf8)
        case .base64url: handle = try? Base64URL.decode(options.user.id)
        }
        guard let handle, (1...64).contains(handle.count) else {
            throw BelvoError(
                .malformedFidoOptions,
                "user.id \"\(options.user.id)\" does not map to a user handle of 1 to 64 bytes",
                field: "user.id")
        }
        let algorithms = options.pubKeyCredParams.filter { $0.type == "public-key" }.map(\.alg)
        guard !algorithms.isEmpty else {
            throw BelvoError(
                .unsupportedAlgorithms, "pubKeyCredParams lists no public-key algorithm",
                field: "pubKeyCredParams")
        }
        guard algorithms.contains(where: Self.supportedAlgorithms.contains) else {
            throw BelvoError(
                .unsupportedAlgorithms,
                "pubKeyCredParams lists no supported algorithm (got \(algorithms); supported: "
                    + "\(Self.supportedAlgorithms.sorted()))",
                field: "pubKeyCredParams")
        }
        var excluded = [[UInt8]]()
        for (index, descriptor) in (options.excludeCredentials ?? []).enumerated()
        where descriptor.type == "public-key" {
            excluded.append(
                try FIDOValues.bytes(descriptor.id, "excludeCredentials[\(index)].id"))
        }
        self.rpId = options.rp.id
        self.rpName = options.rp.name
        self.userHandle = handle
        self.userName = options.user.name
        self.userDisplayName = options.user.displayName
        self.challenge = try FIDOValues.bytes(options.challenge, "challenge")
        self.algorithms = algorithms
        self.timeout = try FIDOValues.timeout(options.timeout)
        self.excludeCredentials = excluded
        self.attestation = options.attestation
        self.userVerification = options.authenticatorSelection?.userVerification
        self.residentKey = options.authenticatorSelection?.residentKey
        self.ignoredExtensions = options.extensions?.identifiers ?? []
    }

    /// Decodes and maps the registration options JSON Belvo sent (what the SDK's
    /// `startRegistration(fidoResponseString:)` takes).
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions`` or
    ///   ``BelvoError/Code/unsupportedAlgorithms``, as ``init(_:userHandleMapping:)`` and
    ///   ``BelvoFidoRegistrationOptions/init(json:)`` do.
    public init(
        json: some Collection<UInt8>, userHandleMapping: BelvoUserHandleMapping = .utf8
    ) throws {
        try self.init(
            BelvoFidoRegistrationOptions(json: json), userHandleMapping: userHandleMapping)
    }
}
