import Fido2Authenticator
import Fido2WebAuthnTestSupport
import Foundation
import Synchronization
import Testing

/// Who may use a `DirectoryCredentialStore`'s files, whether opening one creates it, and how
/// long a change waits for a lock another holder keeps (issue 32).
@Suite struct DirectoryCredentialStoreAccessTests {
    /// Every call that reads the credential file, each expected to fail with `code` and a
    /// reason containing `words`.
    static func expectEveryReadFails(
        _ store: DirectoryCredentialStore, _ code: AuthenticatorError.Code, _ words: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let calls: [() throws -> Void] = [
            { _ = try store.credential(id: [1, 2]) },
            { _ = try store.credentials(relyingPartyID: "example.org") },
            { _ = try store.update(id: [1, 2]) { $0.signCount += 1 } },
        ]
        for call in calls {
            let error = expectAuthenticatorError(code, sourceLocation: sourceLocation, call)
            #expect(
                error?.reason.contains(words) == true, "\(String(describing: error))",
                sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o620, 0o602, 0o610, 0o601, 0o660])
    func refusesACredentialFileGroupOrOthersMayUse(mode: Int) throws {
        let (path, store, file) = try DirectoryCredentialStoreSafetyTests.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chmod(file, mode_t(mode)) == 0)
        Self.expectEveryReadFails(
            store, .storageFailure, "open to group or others (mode \(String(mode, radix: 8)))")
        #expect(chmod(file, 0o600) == 0)
        #expect(try store.credential(id: [1, 2])?.signCount == 5)
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func refusesACredentialFileOfAnotherUser() throws {
        let (path, store, file) = try DirectoryCredentialStoreSafetyTests.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(chown(file, 12345, 12345) == 0)
        Self.expectEveryReadFails(store, .storageFailure, "belongs to user 12345")
        #expect(chown(file, geteuid(), getegid()) == 0)
        #expect(try store.credential(id: [1, 2]) != nil)
    }

    @Test func createsNoMissingDirectoryWhenAskedNotTo() throws {
        let top = CredentialStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: top) }
        let path = top + "/store"
        let error = expectAuthenticatorError(.storageFailure) {
            _ = try DirectoryCredentialStore(path: path, createsDirectory: false)
        }
        #expect(error?.reason.contains("no such credential store") == true)
        #expect(!FileManager.default.fileExists(atPath: top))
        _ = try DirectoryCredentialStore(path: path)
        _ = try DirectoryCredentialStore(path: path, createsDirectory: false)
    }

    /// The store at `path` holding its lock file's lock on a descriptor of its own (`flock`
    /// belongs to the open file description, so the store's own descriptor is excluded).
    static func holdLock(_ path: String) throws -> Int32 {
        let descriptor = open(path + "/.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX) == 0)
        return descriptor
    }

    @Test func givesUpOnALockHeldLongerThanItsTimeoutAfterSayingItWaits() throws {
        let (path, _, _) = try DirectoryCredentialStoreSafetyTests.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let notices = Mutex<[String]>([])
        let store = try DirectoryCredentialStore(
            path: path, lockTimeout: .milliseconds(1300),
            onLockWait: { message in notices.withLock { $0.append(message) } })
        let holder = try Self.holdLock(path)
        defer { close(holder) }
        let before = try CredentialStoreTests.files(in: path)
        let start = ContinuousClock.now
        let error = expectAuthenticatorError(.storeLocked) {
            try store.add(try CredentialStoreTests.credential([3]))
        }
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(1300) && waited < .seconds(10), "\(waited)")
        #expect(error?.reason.contains("/.lock") == true, "\(String(describing: error))")
        let said = notices.withLock { $0 }
        #expect(said.count == 1, "\(said)")
        #expect(said.first?.contains("waiting for \(path)/.lock") == true, "\(said)")
        #expect(try CredentialStoreTests.files(in: path) == before)
        expectAuthenticatorError(.storeLocked) { _ = try store.update(id: [1, 2]) { _ in } }
        expectAuthenticatorError(.storeLocked) { try store.remove(id: [1, 2]) }
        #expect(try store.credential(id: [1, 2])?.signCount == 5)
    }

    @Test func aZeroTimeoutFailsAtOnceWithoutANotice() throws {
        let (path, _, _) = try DirectoryCredentialStoreSafetyTests.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let notices = Mutex(0)
        let store = try DirectoryCredentialStore(
            path: path, lockTimeout: .zero, onLockWait: { _ in notices.withLock { $0 += 1 } })
        let holder = try Self.holdLock(path)
        defer { close(holder) }
        let start = ContinuousClock.now
        expectAuthenticatorError(.storeLocked) { _ = try store.update(id: [1, 2]) { _ in } }
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(notices.withLock { $0 } == 0)
    }

    @Test func takesALockReleasedWithinItsTimeout() throws {
        let (path, _, _) = try DirectoryCredentialStoreSafetyTests.storeWithOneCredential()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try DirectoryCredentialStore(path: path, lockTimeout: .seconds(20))
        let holder = try Self.holdLock(path)
        Thread.detachNewThread {
            usleep(300_000)
            close(holder)
        }
        let start = ContinuousClock.now
        let updated = try store.update(id: [1, 2]) { $0.signCount += 1 }
        #expect(updated.signCount == 6)
        #expect(ContinuousClock.now - start >= .milliseconds(250))
    }
}
