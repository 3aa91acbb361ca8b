/// A payment intent's `fido_options` mapped to plain values for the authenticator layer.
///
/// The mapping from ``BelvoFidoAssertionOptions``: `challenge` and every `public-key`
/// `allowCredentials[].id` are base64url-decoded (non-empty), in order; entries of other types
/// are skipped (WebAuthn §5.1.4). An empty or absent `allowCredentials` stays empty: it asks for
/// a discoverable credential, which is the authenticator's to find or refuse. `timeout` and
/// `userVerification` pass through; extensions (e.g. `appid`, which only matters for FIDO U2F
/// credentials, never created by fido2kit) are ignored and listed in ``ignoredExtensions``.
public struct BelvoAssertionOptions: Sendable, Hashable {
    /// The RP ID, e.g. `belvo.com`.
    public let rpId: String
    /// The challenge bytes the assertion's clientDataJSON must carry.
    public let challenge: [UInt8]
    /// Ids of the credentials that may answer, in Belvo's order; empty asks for a discoverable one.
    public let allowCredentials: [[UInt8]]
    /// The ceremony time-out in milliseconds, when sent (Belvo's sample: 300000).
    public let timeout: Int?
    /// The user verification requirement, when sent.
    public let userVerification: String?
    /// Extensions present in the options that the mapping ignores, sorted.
    public let ignoredExtensions: [String]

    /// The origin an iOS app's platform authenticator reports for these options:
    /// `https://` + ``rpId`` (see ``BelvoRegistrationOptions/defaultOrigin``).
    public var defaultOrigin: String { "https://\(rpId)" }

    /// Maps `fido_options` as Belvo sent them.
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions`` naming the member at fault (empty
    ///   `rpId`, challenge or credential id that is not non-empty base64url, negative time-out).
    public init(_ options: BelvoFidoAssertionOptions) throws {
        guard !options.rpId.isEmpty else {
            throw BelvoError(.malformedFidoOptions, "rpId is empty", field: "rpId")
        }
        var allowed = [[UInt8]]()
        for (index, descriptor) in (options.allowCredentials ?? []).enumerated()
        where descriptor.type == "public-key" {
            allowed.append(try FIDOValues.bytes(descriptor.id, "allowCredentials[\(index)].id"))
        }
        self.rpId = options.rpId
        self.challenge = try FIDOValues.bytes(options.challenge, "challenge")
        self.allowCredentials = allowed
        self.timeout = try FIDOValues.timeout(options.timeout)
        self.userVerification = options.userVerification
        self.ignoredExtensions = options.extensions?.identifiers ?? []
    }

    /// Decodes and maps a `fido_options` JSON object (what the SDK's
    /// `startSigning(fidoResponseString:fallbackCredential:)` takes).
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions``, as ``init(_:)`` and
    ///   ``BelvoFidoAssertionOptions/init(json:)`` do.
    public init(json: some Collection<UInt8>) throws {
        try self.init(BelvoFidoAssertionOptions(json: json))
    }
}
