import Fido2Encoding

/// Typed builders for the client extension inputs of the options
/// (``RegistrationOptions/extensions``, ``AuthenticationOptions/extensions``): each call adds
/// or replaces one extension's input in ``json``, which the options carry as written.
/// Inputs of other extensions go in as JSON (``adding(_:_:)``).
///
/// ```swift
/// var options = RegistrationOptions()
/// options.extensions = ExtensionInputs().credentialProperties().pseudoRandomFunction().json
/// ```
public struct ExtensionInputs: Sendable, Hashable {
    /// `largeBlob.support` at registration.
    public enum LargeBlobSupport: String, Sendable, Hashable {
        /// The credential must be able to store a large blob.
        case required
        /// A credential that can store one is preferred.
        case preferred
    }

    /// The inputs, as the options' `extensions` member.
    public var json: JSONObject

    /// Inputs starting from `json` (none by default).
    public init(_ json: JSONObject = [:]) { self.json = json }

    /// The inputs with `name` set to `value` (replacing an earlier input of that name).
    public func adding(_ name: String, _ value: JSONValue) -> ExtensionInputs {
        var copy = self
        copy.json.members.removeAll { $0.name == name }
        copy.json.members.append(JSONMember(name, value))
        return copy
    }

    /// `credProps: true` (registration, §10.1.3): asks the client whether the credential is
    /// discoverable.
    public func credentialProperties() -> ExtensionInputs { adding("credProps", .bool(true)) }

    /// `prf` (§10.1.4): at registration without inputs (`{}`, asks whether the credential
    /// supports a PRF), or with `eval: {first, second?}` (base64url), whose outputs the
    /// response returns.
    public func pseudoRandomFunction(
        first: [UInt8]? = nil, second: [UInt8]? = nil
    )
        -> ExtensionInputs
    {
        guard let first else { return adding("prf", .object([:])) }
        var eval: JSONObject = ["first": .string(Base64URL.encode(first))]
        if let second {
            eval.members.append(JSONMember("second", .string(Base64URL.encode(second))))
        }
        return adding("prf", .object(["eval": .object(eval)]))
    }

    /// `largeBlob: {support}` (registration, §10.1.5).
    public func largeBlob(support: LargeBlobSupport) -> ExtensionInputs {
        adding("largeBlob", .object(["support": .string(support.rawValue)]))
    }

    /// `largeBlob: {read: true}` (authentication, §10.1.5): reads the credential's blob.
    public func largeBlobRead() -> ExtensionInputs {
        adding("largeBlob", .object(["read": .bool(true)]))
    }

    /// `largeBlob: {write}` (authentication, §10.1.5): stores `blob` with the credential.
    public func largeBlobWrite(_ blob: [UInt8]) -> ExtensionInputs {
        adding("largeBlob", .object(["write": .string(Base64URL.encode(blob))]))
    }

    /// `appid` (authentication, §10.1.1): lets a credential registered through the U2F API
    /// under `appID` (a URL, such as `https://example.com/app-id.json`) sign in.
    public func appID(_ appID: String) -> ExtensionInputs { adding("appid", .string(appID)) }

    /// `appidExclude` (registration, §10.1.2): the excluded credentials are matched under
    /// `appID` too.
    public func appIDExclude(_ appID: String) -> ExtensionInputs {
        adding("appidExclude", .string(appID))
    }
}
