import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Names for people of passkey providers and authenticator models, by AAGUID: what an
/// account page shows beside each passkey ("iCloud Keychain", "YubiKey 5 Series with NFC").
///
/// **For display only.** The AAGUID is the authenticator's own claim; passkey providers send
/// `none` attestation and nothing vouches for it. A name never enters a trust decision, and
/// nothing in fido2kit reads one; decide on ``VerifiedRegistration/attestationTrust`` and
/// ``MetadataTrustPolicy``.
///
/// A look-up consults, in order, and takes the first name found:
/// 1. **the operator's list** (``init(communityListJSON:metadata:maximumSize:)``): the
///    community list's JSON (`passkeydeveloper/passkey-authenticator-aaguids`, `aaguid.json`)
///    or one of the same shape, downloaded and reviewed by the operator. It comes first
///    because the operator chose it, and it carries icons; fido2kit does not bundle it (it
///    has no licence).
/// 2. **the metadata BLOB** when one is given: the entry's `friendlyNames` in
///    ``preferredLanguage`` (else `en-US`, else the first by tag), else its `description`.
///    Signed by the FIDO Alliance, it names security keys and certified models.
/// 3. **the built-in table** (``builtInNames``): the platforms' and major password
///    managers' published AAGUIDs, so that the common providers have names with no
///    configuration at all.
///
/// The all-zero AAGUID (`AAGUID.zero`) has no name: it says the model is not disclosed.
public struct ProviderNameDirectory: Sendable {
    /// The operator's names, by AAGUID.
    public var operatorNames: [AAGUID: ProviderNameDirectory.Entry]
    /// The metadata BLOB whose entries name models, when one is loaded.
    public var metadata: MetadataBLOB?
    /// The language of the metadata's `friendlyNames` preferred (`en-US` by default).
    public var preferredLanguage: String

    /// The built-in names: iCloud Keychain, Google Password Manager, Windows Hello, Chrome and
    /// Edge on Mac, Samsung Pass, 1Password, Bitwarden, Dashlane, KeePassXC, Proton Pass,
    /// NordPass, Keeper, Enpass, LastPass.
    public static let builtInNames: [AAGUID: String] = {
        var names: [AAGUID: String] = [:]
        for (text, name) in BuiltInProviderNames.table {
            if let aaguid = AAGUID(uuidString: text) { names[aaguid] = name }
        }
        return names
    }()

    /// A directory of the built-in names, and `operatorNames` and `metadata` when given.
    public init(
        operatorNames: [AAGUID: ProviderNameDirectory.Entry] = [:], metadata: MetadataBLOB? = nil,
        preferredLanguage: String = "en-US"
    ) {
        self.operatorNames = operatorNames
        self.metadata = metadata
        self.preferredLanguage = preferredLanguage
    }

    /// A directory whose operator list is the community list's JSON
    /// (`{"<aaguid>": {"name": …, "icon_dark": …, "icon_light": …}, …}`), with `metadata`
    /// when given. Members other than `name`, `icon_dark` and `icon_light` are ignored.
    ///
    /// - Parameters:
    ///   - json: the list's bytes, at most `maximumSize`.
    ///   - metadata: a verified metadata BLOB, or nil.
    ///   - maximumSize: the largest list read; 8 MiB by default (the community list, icons
    ///     included, is well under 1 MiB).
    /// - Throws: `WebAuthnError` with code `malformedJSON` for bytes that are not JSON within
    ///   the limits, `invalidValue` naming the member for a key that is not an AAGUID, an
    ///   entry that is not an object, or a `name` that is missing or not a string,
    ///   `wrongType` for an icon that is not a string.
    public init(
        communityListJSON json: some Collection<UInt8>, metadata: MetadataBLOB? = nil,
        maximumSize: Int = 8 << 20
    ) throws {
        guard json.count <= maximumSize else {
            throw WebAuthnError(
                .malformedJSON, "the list is \(json.count) bytes, more than \(maximumSize)")
        }
        let reader = JSONReader(
            options: JSONReader.Options(
                maximumInputLength: maximumSize, maximumDepth: 8, maximumItemCount: 1 << 20,
                maximumStringLength: 1 << 20))
        let object: JSONObject
        do {
            guard case .object(let value) = try reader.read(json) else {
                throw WebAuthnError(.invalidValue, "the list is not a JSON object")
            }
            object = value
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw WebAuthnError(.malformedJSON, "the list is not JSON: \(error)")
        }
        var names: [AAGUID: ProviderNameDirectory.Entry] = [:]
        for member in object.members {
            guard let aaguid = AAGUID(uuidString: member.name) else {
                throw WebAuthnError(
                    .invalidValue, "\(quotedInput(member.name)) is not an AAGUID",
                    field: member.name)
            }
            guard let entry = member.value.objectValue else {
                throw WebAuthnError(.invalidValue, "not an object", field: member.name)
            }
            guard let name = entry["name"]?.stringValue else {
                throw WebAuthnError(
                    .invalidValue, "missing or not a string", field: member.name + ".name")
            }
            func icon(_ key: String) throws(WebAuthnError) -> String? {
                guard let value = entry[key], value != .null else { return nil }
                guard let text = value.stringValue else {
                    throw WebAuthnError(.wrongType, "not a string", field: member.name + "." + key)
                }
                return text
            }
            names[aaguid] = ProviderNameDirectory.Entry(
                name: name, source: .operatorList, iconDark: try icon("icon_dark"),
                iconLight: try icon("icon_light"))
        }
        self.init(operatorNames: names, metadata: metadata)
    }

    /// The name of the provider or model with `aaguid`, from the first source that has one
    /// (operator list, metadata, built-in); nil for the all-zero AAGUID and for an AAGUID no
    /// source knows.
    public func name(for aaguid: AAGUID) -> ProviderNameDirectory.Entry? {
        guard aaguid != .zero else { return nil }
        if let name = operatorNames[aaguid] { return name }
        if let entry = metadata?.entry(aaguid: aaguid) {
            let names = entry.friendlyNames
            let chosen =
                names[preferredLanguage] ?? names["en-US"]
                ?? names.keys.sorted().first.flatMap { names[$0] }
            return ProviderNameDirectory.Entry(name: chosen ?? entry.description, source: .metadata)
        }
        if let name = Self.builtInNames[aaguid] {
            return ProviderNameDirectory.Entry(name: name, source: .builtIn)
        }
        return nil
    }

    /// The name for the credential of `record`, by the AAGUID of the registration it keeps
    /// (``CredentialRecord/aaguid``); nil when the record keeps no attestation object or
    /// its AAGUID has no name.
    public func name(for record: CredentialRecord) -> ProviderNameDirectory.Entry? {
        record.aaguid.flatMap { name(for: $0) }
    }
}
