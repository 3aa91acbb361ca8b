/// The payment intent's `fido_options` exactly as Belvo sends them
/// (`payment_method_information.open_finance_biometric_pix.fido_options`).
///
/// The documented sample decodes as is:
/// ```json
/// {"rpId": "belvo.com", "timeout": 300000,
///  "challenge": "oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4",
///  "allowCredentials": [{"id": "AfD-uI4L…", "type": "public-key"}]}
/// ```
/// Strings stay strings here; ``BelvoAssertionOptions`` turns them into bytes. Members Belvo adds
/// are tolerated.
public struct BelvoFidoAssertionOptions: Decodable, Sendable, Hashable {
    /// The RP ID the credential was registered for, e.g. `belvo.com`.
    public let rpId: String
    /// The challenge, base64url.
    public let challenge: String
    /// The ceremony time-out in milliseconds, when sent.
    public let timeout: Int?
    /// The credentials that may answer; empty or absent means a discoverable credential.
    public let allowCredentials: [BelvoCredentialDescriptor]?
    /// `discouraged`, `preferred` or `required`, when sent.
    public let userVerification: String?
    /// The extensions asked for, when sent.
    public let extensions: BelvoFidoExtensions?

    /// The options decoded from Belvo's JSON (the `fido_options` object alone).
    ///
    /// - Throws: ``BelvoError/Code/malformedFidoOptions`` naming the member at fault when the
    ///   JSON lacks a required member or has one of the wrong type.
    public init(json: some Collection<UInt8>) throws {
        self = try JSONReading.decode(
            Self.self, from: json, code: .malformedFidoOptions, what: "payment fido_options")
    }
}
