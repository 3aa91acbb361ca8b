import Fido2Authenticator
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Provider names by AAGUID: the built-in table, the metadata BLOB's names and the operator's
/// list, consulted in that order from the operator's down.
@Suite struct ProviderNameDirectoryTests {
    static let iCloud = AAGUID(uuidString: "fbfc3007-154e-4ecc-8c0b-6e020557d7bd")!
    static let googlePasswordManager = AAGUID(
        uuidString: "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4")!
    static let securityKey = AAGUID(uuidString: "11111111-2222-3333-4444-555555555555")!

    @Test func namesTheMajorProvidersWithoutConfiguration() throws {
        let directory = ProviderNameDirectory()
        #expect(
            directory.name(for: Self.iCloud)
                == ProviderNameDirectory.Entry(name: "iCloud Keychain", source: .builtIn))
        #expect(directory.name(for: Self.googlePasswordManager)?.name == "Google Password Manager")
        #expect(directory.name(for: Self.securityKey) == nil)
        #expect(directory.name(for: .zero) == nil)
        #expect(ProviderNameDirectory.builtInNames.count == 19)
    }

    static func metadataEntry(friendlyNames: String?) -> String {
        let names = friendlyNames.map { ",\"friendlyNames\":\($0)" } ?? ""
        return
            "{\"aaguid\":\"\(securityKey)\",\"metadataStatement\":{\"description\":\"Test Key Series\"\(names),\"attestationTypes\":[\"basic_full\"]},\"statusReports\":[{\"status\":\"FIDO_CERTIFIED\"}]}"
    }

    @Test func readsFriendlyNamesFromTheMetadata() throws {
        let service = try TestMetadataService()
        let blob = try service.verified(entries: [
            Self.metadataEntry(friendlyNames: #"{"de-DE":"Testschlüssel","en-US":"Test Key"}"#)
        ])
        #expect(
            blob.entry(aaguid: Self.securityKey)?.friendlyNames
                == ["de-DE": "Testschlüssel", "en-US": "Test Key"])
        var directory = ProviderNameDirectory(metadata: blob)
        #expect(
            directory.name(for: Self.securityKey)
                == ProviderNameDirectory.Entry(name: "Test Key", source: .metadata))
        directory.preferredLanguage = "de-DE"
        #expect(directory.name(for: Self.securityKey)?.name == "Testschlüssel")
        let plain = try service.verified(entries: [Self.metadataEntry(friendlyNames: nil)])
        #expect(
            ProviderNameDirectory(metadata: plain).name(for: Self.securityKey)?.name
                == "Test Key Series")
        expectCode(.metadataInvalid) {
            _ = try service.verified(entries: [Self.metadataEntry(friendlyNames: #"{"en-US":1}"#)])
        }
    }

    @Test func theOperatorListComesFirst() throws {
        let json = """
            {"fbfc3007-154e-4ecc-8c0b-6e020557d7bd": {"name": "Apple Passwords", "icon_dark": "data:image/svg+xml;base64,AA==", "icon_light": null},
             "11111111-2222-3333-4444-555555555555": {"name": "Operator Key", "other": 1}}
            """
        let service = try TestMetadataService()
        let blob = try service.verified(entries: [Self.metadataEntry(friendlyNames: nil)])
        let directory = try ProviderNameDirectory(
            communityListJSON: Array(json.utf8), metadata: blob)
        #expect(
            directory.name(for: Self.iCloud)
                == ProviderNameDirectory.Entry(
                    name: "Apple Passwords", source: .operatorList,
                    iconDark: "data:image/svg+xml;base64,AA==", iconLight: nil))
        #expect(directory.name(for: Self.securityKey)?.source == .operatorList)
        #expect(directory.name(for: Self.googlePasswordManager)?.source == .builtIn)
    }

    @Test(arguments: [
        (#"[]"#, WebAuthnError.Code.invalidValue), (#"{"not-a-uuid":{"name":"x"}}"#, .invalidValue),
        (#"{"fbfc3007-154e-4ecc-8c0b-6e020557d7bd":"x"}"#, .invalidValue),
        (#"{"fbfc3007-154e-4ecc-8c0b-6e020557d7bd":{}}"#, .invalidValue),
        (#"{"fbfc3007-154e-4ecc-8c0b-6e020557d7bd":{"name":"x","icon_dark":1}}"#, .wrongType),
        (#"{"#, .malformedJSON),
    ])
    func refusesAListOfAnotherShape(_ json: String, _ code: WebAuthnError.Code) {
        expectCode(code) { _ = try ProviderNameDirectory(communityListJSON: Array(json.utf8)) }
    }

    @Test func refusesAnOversizedList() {
        expectCode(.malformedJSON) {
            _ = try ProviderNameDirectory(
                communityListJSON: [UInt8](repeating: 0x20, count: 65), maximumSize: 64)
        }
    }

    @Test func namesARecordByTheAAGUIDItsRegistrationKept() throws {
        var configuration = AuthenticatorConfiguration()
        configuration.aaguid = Self.googlePasswordManager
        let authenticator = SoftwareAuthenticator(
            configuration: configuration, store: InMemoryCredentialStore())
        let rp = RelyingParty(id: "example.org", origins: ["https://example.org"])
        let registration = try rp.verifyRegistration(
            authenticator.makeCredential(options: creationOptions(), origin: "https://example.org"),
            expecting: RegistrationExpectations(challenge: [UInt8](repeating: 0x11, count: 32)))
        var record = registration.credentialRecord()
        #expect(record.aaguid == Self.googlePasswordManager)
        #expect(ProviderNameDirectory().name(for: record)?.name == "Google Password Manager")
        record.attestationObject = nil
        #expect(record.aaguid == nil)
        #expect(ProviderNameDirectory().name(for: record) == nil)
    }
}
