import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Foundation
import Testing

@Suite struct CredentialStoreTests {
    /// The store's files, without its lock file.
    static func files(in path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { $0 != ".lock" }.sorted()
    }

    static func temporaryDirectory() -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("fido2kit-store-\(UUID().uuidString)").path
        return path
    }

    static func credential(
        _ id: [UInt8], rp: String = "example.org", key: PrivateKey? = nil
    ) throws
        -> StoredCredential
    {
        StoredCredential(
            id: id, relyingPartyID: rp, userHandle: [1, 2, 3], userName: "alice \"quoted\"\n",
            userDisplayName: "Alice ✓", privateKey: try key ?? PrivateKey(generating: .ed25519),
            algorithm: .edDSA, signCount: 5, isDiscoverable: true, backupEligible: true,
            backupState: false, usesSignCounter: true)
    }

    @Test func keepsCredentialsInFilesOfMode0600() throws {
        let top = Self.temporaryDirectory()
        let path = top + "/nested/store"
        defer { try? FileManager.default.removeItem(atPath: top) }
        let store = try DirectoryCredentialStore(path: path)
        let original = try Self.credential([UInt8](repeating: 0xcd, count: 1023))
        try store.add(original)
        try store.add(try Self.credential([9], rp: "other.example"))
        let read = try #require(try store.credential(id: original.id))
        #expect(read.id == original.id && read.relyingPartyID == "example.org")
        #expect(
            read.userName == original.userName && read.userDisplayName == original.userDisplayName)
        #expect(
            read.signCount == 5 && read.backupEligible && !read.backupState && read.isDiscoverable)
        #expect(try read.privateKey.pkcs8DER == original.privateKey.pkcs8DER)
        #expect(try store.credentials(relyingPartyID: "example.org").map(\.id) == [original.id])
        #expect(try store.credential(id: [1]) == nil)

        let files = try Self.files(in: path)
        #expect(files.count == 2 && files.allSatisfy { $0.hasSuffix(".credential") })
        for file in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: path + "/" + file)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
            #expect(text.hasPrefix("fido2kit-credential 1\n{"))
            #expect(text.contains("-----BEGIN PRIVATE KEY-----"))
        }
        let directory = try FileManager.default.attributesOfItem(atPath: path)
        #expect((directory[.posixPermissions] as? Int) == 0o700)

        var updated = read
        updated.signCount = 6
        try store.replace(updated)
        #expect(try store.credential(id: original.id)?.signCount == 6)
        #expect(try Self.files(in: path).count == 2)
    }

    @Test func refusesDuplicatesAndUnknownReplacements() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for store in [
            try DirectoryCredentialStore(path: path) as any CredentialStore,
            InMemoryCredentialStore(),
        ] {
            let credential = try Self.credential([4, 4])
            try store.add(credential)
            var other = try Self.credential([4, 4])
            other.signCount = 99
            expectAuthenticatorError(.credentialExists) { try store.add(other) }
            #expect(try store.credential(id: [4, 4])?.signCount == 5)
            expectAuthenticatorError(.credentialNotFound) {
                try store.replace(try Self.credential([5]))
            }
            #expect(try store.credential(id: [5]) == nil)
        }
        // No temporary files are left behind.
        #expect(try Self.files(in: path).count == 1)
    }

    @Test func reportsCorruptFilesInsteadOfSkippingThem() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try DirectoryCredentialStore(path: path)
        let credential = try Self.credential([1, 2])
        try store.add(credential)
        let name = try #require(try Self.files(in: path).first)
        let file = path + "/" + name
        let good = try String(contentsOfFile: file, encoding: .utf8)
        let lines = good.split(separator: "\n", maxSplits: 2).map(String.init)
        let corruptions: [String] = [
            "",
            "not a credential",
            good.replacingOccurrences(of: "fido2kit-credential 1", with: "fido2kit-credential 2"),
            lines[0] + "\n{\"id\":\"AQI\"}\n" + lines[2],
            lines[0] + "\n" + lines[1].replacingOccurrences(of: "\"alg\":-8", with: "\"alg\":-7")
                + "\n" + lines[2],
            lines[0] + "\n"
                + lines[1].replacingOccurrences(of: "\"signCount\":5", with: "\"signCount\":-1")
                + "\n" + lines[2],
            lines[0] + "\n" + lines[1].replacingOccurrences(of: "}", with: ",\"x\":1}") + "\n"
                + lines[2],
            lines[0] + "\n" + lines[1]
                + "\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            lines[0] + "\n" + lines[1] + "\n",
            lines[0] + "\n"
                + lines[1].replacingOccurrences(of: "\"id\":\"AQI\"", with: "\"id\":\"AQM\"") + "\n"
                + lines[2],
        ]
        for corrupt in corruptions {
            try corrupt.write(toFile: file, atomically: false, encoding: .utf8)
            expectAuthenticatorError(.corruptCredential) {
                _ = try store.credentials(relyingPartyID: "example.org")
            }
            expectAuthenticatorError(.corruptCredential) { _ = try store.credential(id: [1, 2]) }
        }
        try good.write(toFile: file, atomically: false, encoding: .utf8)
        #expect(try store.credentials(relyingPartyID: "example.org").count == 1)
        // Leftover temporary files and unrelated files are not credentials.
        try "junk".write(toFile: path + "/.\(name).tmp-1-1", atomically: false, encoding: .utf8)
        try "notes".write(toFile: path + "/README", atomically: false, encoding: .utf8)
        #expect(try store.credentials(relyingPartyID: "example.org").count == 1)
    }

    @Test func refusesAPathThatIsNotADirectory() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "file".write(toFile: path, atomically: false, encoding: .utf8)
        expectAuthenticatorError(.storageFailure) { _ = try DirectoryCredentialStore(path: path) }
    }

    @Test func anAuthenticatorOnADirectoryStoreSurvivesARestart() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let registration = try SoftwareAuthenticator(
            store: try DirectoryCredentialStore(path: path)
        )
        .makeCredential(options: creationOptions(algorithms: [-257]), origin: "https://example.org")
        let key = try checkRegistration(registration)
        for expected in 1...2 {
            let reopened = SoftwareAuthenticator(store: try DirectoryCredentialStore(path: path))
            let assertion = try reopened.getAssertion(
                options: requestOptions(), origin: "https://example.org")
            #expect(try checkAssertion(assertion, key: key).signCount == UInt32(expected))
        }
    }
}
