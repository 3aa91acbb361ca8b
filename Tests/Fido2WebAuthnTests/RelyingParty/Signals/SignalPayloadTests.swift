import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Testing

/// The Signal API payloads (WebAuthn Level 3 §5.1.10–§5.1.12) and their refusals.
@Suite struct SignalPayloadTests {
    static let rp = RelyingParty(id: "example.org", origins: ["https://example.org"])
    static let userHandle: [UInt8] = [0xFB, 0xEF, 0x01]

    static func record(
        _ id: [UInt8], userHandle: [UInt8]? = Self.userHandle
    ) throws
        -> CredentialRecord
    {
        try CredentialRecord(
            id: id,
            publicKey: try COSEKey(
                publicKey: try PrivateKey(generating: .p256).publicKey, algorithm: .es256),
            signCount: 0, backupEligible: true, userHandle: userHandle)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func signalsAnUnknownCredentialOnlyWhenTheLookUpFoundNone() throws {
        let reference = CredentialReference(credentialId: [0xFF, 0xEE], userHandle: nil)
        let signal = try #require(
            try Self.rp.unknownCredentialSignal(for: reference, lookedUp: nil))
        #expect(Self.text(signal.jsonBytes()) == #"{"rpId":"example.org","credentialId":"_-4"}"#)
        let known = try Self.record([0xFF, 0xEE])
        #expect(try Self.rp.unknownCredentialSignal(for: reference, lookedUp: known) == nil)
        // A record of another ID (found by the user handle, say) does not make it known.
        let other = try Self.record([0x01])
        #expect(try Self.rp.unknownCredentialSignal(for: reference, lookedUp: other) != nil)
    }

    @Test func listsEveryAcceptedCredentialOnce() throws {
        let records = [try Self.record([1, 2]), try Self.record([3]), try Self.record([1, 2])]
        let signal = try Self.rp.allAcceptedCredentialsSignal(
            userHandle: Self.userHandle, records: records)
        #expect(
            Self.text(signal.jsonBytes())
                == #"{"rpId":"example.org","userId":"--8B","allAcceptedCredentialIds":["AQI","Aw"]}"#
        )
    }

    @Test func refusesAnEmptyAcceptedListUnlessAllowed() throws {
        expectCode(.emptyAcceptedCredentialList) {
            _ = try Self.rp.allAcceptedCredentialsSignal(userHandle: Self.userHandle, records: [])
        }
        let signal = try Self.rp.allAcceptedCredentialsSignal(
            userHandle: Self.userHandle, records: [], allowingEmpty: true)
        #expect(
            Self.text(signal.jsonBytes())
                == #"{"rpId":"example.org","userId":"--8B","allAcceptedCredentialIds":[]}"#)
    }

    @Test func refusesAnotherAccountsRecord() throws {
        let error = webAuthnError {
            try Self.rp.allAcceptedCredentialsSignal(
                userHandle: Self.userHandle,
                records: [try Self.record([1]), try Self.record([2], userHandle: [9])])
        }
        #expect(error?.code == .invalidValue)
        #expect(error?.field == "records[1].userHandle")
    }

    @Test func writesTheCurrentUserDetails() throws {
        let signal = try Self.rp.currentUserDetailsSignal(
            userHandle: Self.userHandle, name: "ana@example.org", displayName: "Ana \"A\" Lima")
        #expect(
            Self.text(signal.jsonBytes())
                == #"{"rpId":"example.org","userId":"--8B","name":"ana@example.org","displayName":"Ana \"A\" Lima"}"#
        )
    }

    @Test func refusesARelyingPartyWithoutAnRPID() {
        let rp = RelyingParty(identifiers: [], origins: OriginPolicy(allowedOrigins: []))
        expectCode(.invalidRelyingPartyID) {
            _ = try rp.currentUserDetailsSignal(userHandle: [1], name: "a", displayName: "a")
        }
        expectCode(.invalidRelyingPartyID) {
            _ = try rp.unknownCredentialSignal(
                for: CredentialReference(credentialId: [1], userHandle: nil), lookedUp: nil)
        }
    }
}
