import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Foundation
import Testing

@testable import Fido2Authenticator

/// Assertions made at once on one credential never share a signature counter: the
/// authenticator advances it in one read-modify-write of the store (issue 21).
@Suite struct CredentialStoreConcurrencyTests {
    /// Runs `perTask` assertions from each of `tasks` tasks with one authenticator and returns
    /// every counter handed out.
    static func counters(
        store: any CredentialStore, tasks: Int, perTask: Int
    ) async throws -> (counters: [UInt32], id: [UInt8]) {
        let authenticator = SoftwareAuthenticator(store: store)
        let id = try authenticator.makeCredential(
            options: creationOptions(algorithms: [-7]), origin: "https://example.org"
        ).rawId
        let options = requestOptions(allow: [id])
        let counters = try await withThrowingTaskGroup(of: [UInt32].self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var seen: [UInt32] = []
                    for _ in 0..<perTask {
                        let response = try authenticator.getAssertion(
                            options: options, origin: "https://example.org")
                        seen.append(
                            try AuthenticatorData(bytes: response.response.authenticatorData)
                                .signCount)
                    }
                    return seen
                }
            }
            var all: [UInt32] = []
            for try await seen in group { all += seen }
            return all
        }
        return (counters.sorted(), id)
    }

    @Test func assertionsFromManyTasksOnAnInMemoryStoreGetConsecutiveCounters() async throws {
        let store = InMemoryCredentialStore()
        let (counters, id) = try await Self.counters(store: store, tasks: 16, perTask: 50)
        #expect(counters == Array(1...800), "\(Set(counters).count) distinct of \(counters.count)")
        #expect(try store.credential(id: id)?.signCount == 800)
    }

    @Test func assertionsFromManyTasksOnADirectoryStoreGetConsecutiveCounters() async throws {
        let path = CredentialStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Each task's calls open their own lock descriptor, so threads of one process exclude
        // each other as processes do.
        let store = try DirectoryCredentialStore(path: path)
        let (counters, id) = try await Self.counters(store: store, tasks: 8, perTask: 8)
        #expect(counters == Array(1...64), "\(Set(counters).count) distinct of \(counters.count)")
        #expect(try store.credential(id: id)?.signCount == 64)
        #expect(try CredentialStoreTests.files(in: path).count == 1)
    }

    @Test func updatesFromManyTasksAreNeverLost() async throws {
        let path = CredentialStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stores: [any CredentialStore] = [
            InMemoryCredentialStore(), try DirectoryCredentialStore(path: path),
        ]
        for store in stores {
            var credential = try CredentialStoreTests.credential([7, 7])
            credential.signCount = 0
            try store.add(credential)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        for _ in 0..<10 {
                            _ = try store.update(id: [7, 7]) { $0.signCount += 1 }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try store.credential(id: [7, 7])?.signCount == 80, "\(type(of: store))")
        }
    }

    @Test func anUpdateThatThrowsChangesNothing() throws {
        let path = CredentialStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for store in [
            try DirectoryCredentialStore(path: path) as any CredentialStore,
            InMemoryCredentialStore(),
        ] {
            try store.add(try CredentialStoreTests.credential([3]))
            expectAuthenticatorError(.signCountExhausted) {
                _ = try store.update(id: [3]) { (credential) throws in
                    credential.signCount = 99
                    throw AuthenticatorError(.signCountExhausted, "refused by the test")
                }
            }
            #expect(try store.credential(id: [3])?.signCount == 5)
            expectAuthenticatorError(.credentialNotFound) { _ = try store.update(id: [4]) { _ in } }
            let other = try CredentialStoreTests.credential([4])
            expectAuthenticatorError(.invalidValue) { _ = try store.update(id: [3]) { $0 = other } }
            #expect(try store.credential(id: [4]) == nil)
        }
        #expect(try CredentialStoreTests.files(in: path).count == 1)
    }

    @Test func removedCredentialsAreGone() throws {
        let path = CredentialStoreTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        for store in [
            try DirectoryCredentialStore(path: path) as any CredentialStore,
            InMemoryCredentialStore(),
        ] {
            for id in [[1], [2], [3]] as [[UInt8]] {
                try store.add(try CredentialStoreTests.credential(id))
            }
            try store.remove(id: [2])
            #expect(try store.credential(id: [2]) == nil)
            expectAuthenticatorError(.credentialNotFound) { try store.remove(id: [2]) }
            // The others are still found by ID (the in-memory index moved with them).
            #expect(try store.credential(id: [3])?.id == [3])
            #expect(try store.credential(id: [1])?.id == [1])
            #expect(try store.credentials(relyingPartyID: "example.org").count == 2)
            try store.add(try CredentialStoreTests.credential([2]))
        }
    }
}
