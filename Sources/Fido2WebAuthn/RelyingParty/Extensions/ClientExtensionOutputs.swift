import Fido2Encoding
import Fido2WebAuthnWire

/// The client extension outputs (`clientExtensionResults`) of a response that this library
/// reads into typed values: `credProps` (WebAuthn Level 3 §10.1.3), `prf` (§10.1.4),
/// `largeBlob` (§10.1.5) and the AppID extensions' `appid` / `appidExclude` (§10.1.1,
/// §10.1.2). Other outputs stay in ``unknown``, as sent.
///
/// The client, not the authenticator, writes these outputs and nothing signs them: they
/// report what happened (whether a credential is discoverable, a PRF's result) and prove
/// nothing. Read them with ``init(_:)`` or from a verified result
/// (``VerifiedRegistration/clientExtensionOutputs()``,
/// ``VerifiedAuthentication/clientExtensionOutputs()``).
public struct ClientExtensionOutputs: Sendable, Hashable {
    /// `credProps`: the credential's properties, as the client knows them.
    public struct CredentialProperties: Sendable, Hashable {
        /// `rk`: whether the credential is discoverable; nil when the client did not say.
        public var residentKey: Bool?

        /// Credential properties.
        public init(residentKey: Bool? = nil) { self.residentKey = residentKey }
    }

    /// `prf`: whether the credential has a PRF and the outputs of the evaluation asked for.
    public struct PseudoRandomFunction: Sendable, Hashable {
        /// `enabled` (registration): whether the credential supports the PRF.
        public var enabled: Bool?
        /// `results.first`: the PRF of the first input.
        public var first: [UInt8]?
        /// `results.second`: the PRF of the second input, when one was given.
        public var second: [UInt8]?

        /// PRF outputs.
        public init(enabled: Bool? = nil, first: [UInt8]? = nil, second: [UInt8]? = nil) {
            self.enabled = enabled
            self.first = first
            self.second = second
        }
    }

    /// `largeBlob`: the large-blob support and the read or write asked for.
    public struct LargeBlob: Sendable, Hashable {
        /// `supported` (registration): whether the credential can store a large blob.
        public var supported: Bool?
        /// `blob` (authentication): the blob read.
        public var blob: [UInt8]?
        /// `written` (authentication): whether the blob asked for was written.
        public var written: Bool?

        /// Large-blob outputs.
        public init(supported: Bool? = nil, blob: [UInt8]? = nil, written: Bool? = nil) {
            self.supported = supported
            self.blob = blob
            self.written = written
        }
    }

    /// `credProps`; nil when absent.
    public var credentialProperties: CredentialProperties?
    /// `prf`; nil when absent.
    public var pseudoRandomFunction: PseudoRandomFunction?
    /// `largeBlob`; nil when absent.
    public var largeBlob: LargeBlob?
    /// `appid`: whether the client used the AppID instead of the RP ID; nil when absent.
    public var appID: Bool?
    /// `appidExclude`: whether the client checked the excluded credentials under the AppID
    /// too; nil when absent.
    public var appIDExclude: Bool?
    /// The other outputs, as sent.
    public var unknown: JSONObject

    /// Outputs from their parts.
    public init(
        credentialProperties: CredentialProperties? = nil,
        pseudoRandomFunction: PseudoRandomFunction? = nil, largeBlob: LargeBlob? = nil,
        appID: Bool? = nil, appIDExclude: Bool? = nil, unknown: JSONObject = [:]
    ) {
        self.credentialProperties = credentialProperties
        self.pseudoRandomFunction = pseudoRandomFunction
        self.largeBlob = largeBlob
        self.appID = appID
        self.appIDExclude = appIDExclude
        self.unknown = unknown
    }

    /// Reads `clientExtensionResults`. Unknown members of the known outputs are ignored.
    ///
    /// - Throws: `WebAuthnError` with code `wrongType` or `invalidValue` and the field
    ///   (`clientExtensionResults.prf.results.first`, say) when a known output has another
    ///   shape: not an object, a flag that is not a boolean, bytes that are not base64url.
    public init(_ results: JSONObject) throws(WebAuthnError) {
        var outputs = ClientExtensionOutputs()
        for member in results {
            let field = "clientExtensionResults." + member.name
            switch member.name {
            case "credProps":
                let object = try Self.object(member.value, field)
                outputs.credentialProperties = CredentialProperties(
                    residentKey: try Self.bool(object["rk"], field + ".rk"))
            case "prf":
                let object = try Self.object(member.value, field)
                var prf = PseudoRandomFunction(
                    enabled: try Self.bool(object["enabled"], field + ".enabled"))
                if let results = object["results"], results != .null {
                    let values = try Self.object(results, field + ".results")
                    prf.first = try Self.bytes(values["first"], field + ".results.first")
                    prf.second = try Self.bytes(values["second"], field + ".results.second")
                }
                outputs.pseudoRandomFunction = prf
            case "largeBlob":
                let object = try Self.object(member.value, field)
                outputs.largeBlob = LargeBlob(
                    supported: try Self.bool(object["supported"], field + ".supported"),
                    blob: try Self.bytes(object["blob"], field + ".blob"),
                    written: try Self.bool(object["written"], field + ".written"))
            case "appid": outputs.appID = try Self.bool(member.value, field)
            case "appidExclude": outputs.appIDExclude = try Self.bool(member.value, field)
            default: outputs.unknown.members.append(member)
            }
        }
        self = outputs
    }

    private static func object(
        _ value: JSONValue, _ field: String
    ) throws(WebAuthnError)
        -> JSONObject
    {
        guard case .object(let object) = value else {
            throw WebAuthnError(.wrongType, "\(field) is not an object", field: field)
        }
        return object
    }

    private static func bool(_ value: JSONValue?, _ field: String) throws(WebAuthnError) -> Bool? {
        switch value {
        case nil, .null?: return nil
        case .bool(let flag)?: return flag
        default: throw WebAuthnError(.wrongType, "\(field) is not a boolean", field: field)
        }
    }

    private static func bytes(
        _ value: JSONValue?, _ field: String
    ) throws(WebAuthnError)
        -> [UInt8]?
    {
        switch value {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let bytes = try? Base64URL.decode(text) else {
                throw WebAuthnError(.invalidValue, "\(field) is not base64url", field: field)
            }
            return bytes
        default: throw WebAuthnError(.wrongType, "\(field) is not a base64url string", field: field)
        }
    }
}
