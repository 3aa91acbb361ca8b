import Fido2Authenticator
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Foundation
import Testing

/// `DirectoryCredentialStore` checks what it finds on disk: a directory others can write to,
/// files that are not regular files, and temporary files that killed writers left (issue 21).
@Suite struct DirectoryCredentialStoreSafetyTests {
    /// A store holding one credential, and the path of that credential's file.
    static func storeWithOneCredential() throws -> (
        path: String, store: DirectoryCredentialStore, file: String
    ) {
        let path = CredentialStoreTests.temporaryDirectory()
        let store = try DirectoryCredentialStore(path: path)
        try store.add(try CredentialStoreTests.credential([1, 2]))
        let file = path + "/" + (try #require(try CredentialStoreTests.files(in: path).first))
        return (path, store, file)
    }

    @Test(arguments: [0o777, 0o770, 0o707, 0o720, 0o702])
    func refusesADirectoryOthersCanWriteTo(mode: Int) throws {
        let (path, _, _) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chmod(path, mode_t(mode)) == 0)
        do {
            _ = try DirectoryCredentialStore(path: path)
            Issue.record("a store of mode \(String(mode, radix: 8)) was opened")
        } catch let error as AuthenticatorError {
            #expect(error.code == .storageFailure)
            #expect(error.reason.contains("writable by group or others"), "\(error)")
        } catch {
            Issue.record("expected a AuthenticatorError, got \(error)")
        }
        #expect(chmod(path, 0o755) == 0)
        _ = try DirectoryCredentialStore(path: path)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a directory to another user"))
    func refusesADirectoryOfAnotherUser() throws {
        let (path, _, _) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chown(path, 12345, 12345) == 0)
        do {
            _ = try DirectoryCredentialStore(path: path)
            Issue.record("a store of another user was opened")
        } catch let error as AuthenticatorError {
            #expect(error.code == .storageFailure)
            #expect(error.reason.contains("belongs to user 12345"), "\(error)")
        } catch {
            Issue.record("expected a AuthenticatorError, got \(error)")
        }
    }

    @Test func refusesAFIFOUnderACredentialsNameWithoutBlocking() throws {
        let (path, store, file) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(unlink(file) == 0)
        #expect(mkfifo(file, 0o600) == 0)
        // Opening a FIFO for reading waits for a writer; the store must not.
        expectAuthenticatorError(.corruptCredential) { _ = try store.credential(id: [1, 2]) }
        expectAuthenticatorError(.corruptCredential) {
            _ = try store.credentials(relyingPartyID: "example.org")
        }
        expectAuthenticatorError(.corruptCredential) {
            _ = try store.update(id: [1, 2]) { $0.signCount += 1 }
        }
    }

    @Test func reportsADanglingSymbolicLinkAsACorruptCredential() throws {
        let (path, store, file) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(unlink(file) == 0)
        #expect(symlink(path + "/nowhere", file) == 0)
        do {
            _ = try store.credential(id: [1, 2])
            Issue.record("a dangling link read as a credential or as none")
        } catch let error as AuthenticatorError {
            #expect(error.code == .corruptCredential)
            #expect(error.reason.contains("symbolic link"), "\(error)")
        } catch {
            Issue.record("expected a AuthenticatorError, got \(error)")
        }
        expectAuthenticatorError(.corruptCredential) {
            _ = try store.credentials(relyingPartyID: "example.org")
        }
        // A link to a real credential is not followed out of the store either.
        #expect(unlink(file) == 0)
        let elsewhere = path + "-elsewhere"
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        let other = try DirectoryCredentialStore(path: elsewhere)
        try other.add(try CredentialStoreTests.credential([1, 2]))
        #expect(symlink(elsewhere + "/" + (file as NSString).lastPathComponent, file) == 0)
        expectAuthenticatorError(.corruptCredential) { _ = try store.credential(id: [1, 2]) }
    }

    @Test func refusesADirectoryUnderACredentialsName() throws {
        let (path, store, file) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(unlink(file) == 0)
        #expect(mkdir(file, 0o700) == 0)
        expectAuthenticatorError(.corruptCredential) { _ = try store.credential(id: [1, 2]) }
    }

    @Test func wipesAndRemovesStaleTemporaryFilesWhenOpened() throws {
        let (path, _, file) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let name = (file as NSString).lastPathComponent
        let secret = Array(try String(contentsOfFile: file, encoding: .utf8).utf8)
        let leftovers = [".\(name).tmp-\(getpid())-1", ".\(name).tmp-0123456789abcdef"]
        var descriptors: [Int32] = []
        for leftover in leftovers {
            let descriptor = open(path + "/" + leftover, O_RDWR | O_CREAT | O_EXCL, 0o600)
            #expect(descriptor >= 0)
            #expect(write(descriptor, secret, secret.count) == secret.count)
            descriptors.append(descriptor)
        }
        defer { descriptors.forEach { close($0) } }
        let unrelated = path + "/.notes.tmp-1"
        try "keep".write(toFile: unrelated, atomically: false, encoding: .utf8)

        let store = try DirectoryCredentialStore(path: path)
        #expect(try CredentialStoreTests.files(in: path) == [".notes.tmp-1", name])
        // The bytes are gone, not only the names: read through descriptors opened before.
        for descriptor in descriptors {
            var bytes = [UInt8](repeating: 0xff, count: secret.count)
            #expect(pread(descriptor, &bytes, bytes.count, 0) == secret.count)
            #expect(bytes.allSatisfy { $0 == 0 })
        }
        #expect(try store.credential(id: [1, 2])?.signCount == 5)
    }

    @Test func leavesACredentialSharingItsInodeWithALeftoverIntact() throws {
        let (path, _, file) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // What an earlier version left when killed between link() and unlink().
        let leftover = path + "/." + (file as NSString).lastPathComponent + ".tmp-77-1"
        #expect(link(file, leftover) == 0)
        let store = try DirectoryCredentialStore(path: path)
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(try store.credential(id: [1, 2])?.signCount == 5)
    }

    @Test func temporaryFilesNamedForThisProcessDoNotBlockWrites() throws {
        let (path, store, file) = try Self.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Earlier versions named temporary files .<name>.tmp-<pid>-<n> and gave up on EEXIST.
        let name = (file as NSString).lastPathComponent
        for number in 1...4096 {
            let descriptor = open(
                path + "/.\(name).tmp-\(getpid())-\(number)", O_WRONLY | O_CREAT, 0o600)
            #expect(descriptor >= 0)
            close(descriptor)
        }
        for expected in 6...8 {
            #expect(try store.update(id: [1, 2]) { $0.signCount += 1 }.signCount == expected)
        }
        try store.add(try CredentialStoreTests.credential([3, 4]))
        #expect(try CredentialStoreTests.files(in: path).count == 4096 + 2)
        _ = try DirectoryCredentialStore(path: path)
        #expect(try CredentialStoreTests.files(in: path).count == 2)
    }
}
