import Fido2Authenticator
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation
import Testing

/// What a user outside the package can build on the public API alone (this target imports no
/// SPI and nothing `@testable`): a credential store backed by its own storage and a random
/// source of its own, both throwing fido2kit's errors through their public initializers.

/// A credential store on a dictionary of encoded records, as a store on a key-value database
/// would keep them.
final class DictionaryCredentialStore: CredentialStore, @unchecked Sendable {
    private let lock = NSLock()
    private var records: [[UInt8]: [UInt8]] = [:]

    func credential(id: [UInt8]) throws -> StoredCredential? {
        try lock.withLock { try records[id].map { try StoredCredential(encoded: $0) } }
    }

    func credentials(relyingPartyID: String) throws -> [StoredCredential] {
        try lock.withLock {
            try records.values.map { try StoredCredential(encoded: $0) }
                .filter { $0.relyingPartyID == relyingPartyID }
        }
    }

    func add(_ credential: StoredCredential) throws {
        try lock.withLock {
            guard records[credential.id] == nil else {
                throw AuthenticatorError(
                    .credentialExists, "credential already stored", field: "id")
            }
            records[credential.id] = try credential.encoded()
        }
    }

    func replace(_ credential: StoredCredential) throws {
        try lock.withLock {
            guard records[credential.id] != nil else {
                throw AuthenticatorError(.credentialNotFound, "no such credential", field: "id")
            }
            records[credential.id] = try credential.encoded()
        }
    }

    func update(
        id: [UInt8], _ change: (inout StoredCredential) throws -> Void
    ) throws -> StoredCredential {
        try lock.withLock {
            guard let record = records[id] else {
                throw AuthenticatorError(.credentialNotFound, "no such credential", field: "id")
            }
            var credential = try StoredCredential(encoded: record)
            try change(&credential)
            records[id] = try credential.encoded()
            return credential
        }
    }

    func remove(id: [UInt8]) throws {
        try lock.withLock {
            guard records.removeValue(forKey: id) != nil else {
                throw AuthenticatorError(.credentialNotFound, "no such credential", field: "id")
            }
        }
    }

    var count: Int { lock.withLock { records.count } }
}

/// A random source that counts its draws and fails after `limit` of them.
final class CountingRandomSource: RandomSource, @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var draws = 0

    init(failingAfter limit: Int) { self.limit = limit }

    func fill(_ buffer: UnsafeMutableRawBufferPointer) throws {
        try lock.withLock {
            guard draws < limit else {
                throw CryptoError(.randomGenerationFailed, "the test source is exhausted")
            }
            draws += 1
        }
        try SystemRandomSource().fill(buffer)
    }
}

@Suite struct ExternalConformanceTests {
    static let origin = "https://example.org"

    static func creationOptions(challenge: [UInt8]) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: "Example", id: "example.org"),
            user: PublicKeyCredentialUserEntityJSON(
                id: Array("user-1".utf8), name: "alice", displayName: "Alice"),
            challenge: challenge, pubKeyCredParams: [PublicKeyCredentialParameters(alg: -7)],
            authenticatorSelection: AuthenticatorSelectionCriteria(residentKey: .required))
    }

    @Test func theAuthenticatorRegistersAndSignsWithAStoreOfTheUsers() throws {
        let store = DictionaryCredentialStore()
        let authenticator = SoftwareAuthenticator(
            configuration: AuthenticatorConfiguration(), store: store)
        let challenge = Array(repeating: UInt8(7), count: 32)
        let registration = try authenticator.makeCredential(
            options: Self.creationOptions(challenge: challenge), origin: Self.origin)
        #expect(store.count == 1)
        let relyingParty = RelyingParty(id: "example.org", origins: [Self.origin])
        let verified = try relyingParty.verifyRegistration(
            registration, expecting: RegistrationExpectations(challenge: challenge))
        var record = verified.credentialRecord()
        for round in 1...3 {
            let assertion = try authenticator.getAssertion(
                options: PublicKeyCredentialRequestOptionsJSON(
                    challenge: challenge, rpId: "example.org",
                    allowCredentials: [PublicKeyCredentialDescriptorJSON(id: record.id)]),
                origin: Self.origin)
            let result = try relyingParty.verifyAuthentication(
                assertion,
                expecting: AuthenticationExpectations(
                    challenge: challenge, credential: record))
            #expect(result.signCount == UInt32(round))
            record = result.updatedRecord
        }
    }

    @Test func theUsersStoreErrorsReachTheCallerAsThrown() throws {
        let store = DictionaryCredentialStore()
        let key = try PrivateKey(generating: .p256)
        let credential = StoredCredential(
            id: [1, 2, 3], relyingPartyID: "example.org", userHandle: [9], userName: "alice",
            userDisplayName: "Alice", privateKey: key, algorithm: .es256, isDiscoverable: true)
        try store.add(credential)
        #expect {
            try store.add(credential)
        } throws: { error in
            (error as? AuthenticatorError)?.code == .credentialExists
        }
        #expect {
            try store.remove(id: [4])
        } throws: { error in
            (error as? AuthenticatorError)?.code == .credentialNotFound
        }
        let read = try #require(try store.credential(id: [1, 2, 3]))
        #expect(read.userName == "alice" && read.privateKey.kind == .p256)
    }

    @Test func theUsersRandomSourceFeedsTheAuthenticatorAndItsFailureIsReported() throws {
        var configuration = AuthenticatorConfiguration()
        configuration.random = CountingRandomSource(failingAfter: 0)
        let store = DictionaryCredentialStore()
        let authenticator = SoftwareAuthenticator(configuration: configuration, store: store)
        #expect {
            _ = try authenticator.makeCredential(
                options: Self.creationOptions(challenge: Array(repeating: 1, count: 32)),
                origin: Self.origin)
        } throws: { error in
            (error as? AuthenticatorError)?.code == .keyGenerationFailed
        }
        #expect(store.count == 0)
        configuration.random = CountingRandomSource(failingAfter: 100)
        _ = try SoftwareAuthenticator(configuration: configuration, store: store).makeCredential(
            options: Self.creationOptions(challenge: Array(repeating: 1, count: 32)),
            origin: Self.origin)
        #expect(store.count == 1)
    }
}
