import BenchmarkHarness
import CPeers
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// Relying-party verification against the bare signature check it is built around (issue 5:
/// verifying an ES256 assertion from its JSON with a stored COSE key costs at most 1.2x a bare
/// OpenSSL ES256 verify with a cached key).
///
/// The fido2kit side does the whole §7.2 procedure: it reads the AuthenticationResponseJSON
/// (base64url of clientDataJSON, authenticatorData and signature), parses clientDataJSON and
/// the authenticator data, checks type, challenge, origin, rpIdHash, flags and counter, hashes
/// clientDataJSON and verifies the signature with the record's key. The peer verifies the same
/// signature over the already concatenated authenticatorData ‖ clientDataHash with its cached
/// key (`openssl_peer_es256_verify`).
enum RelyingPartyScenarios {
    struct Fixture: @unchecked Sendable {
        let json: [UInt8]
        let message: [UInt8]
        let signature: [UInt8]
        let record: CredentialRecord
        let recordKeyBytes: [UInt8]
        let expectations: AuthenticationExpectations
        let relyingParty: RelyingParty
        let peer: PeerHandle
    }

    static func makeFixture() throws -> Fixture {
        let key = try PrivateKey(generating: .p256)
        let rsa = try PrivateKey(generating: .rsa(modulusBits: 2048))
        let keyDER = try key.pkcs8DER
        let rsaDER = try rsa.pkcs8DER
        guard
            let peer = keyDER.withUnsafeBufferPointer({ p in
                rsaDER.withUnsafeBufferPointer { r in
                    openssl_peer_create(p.baseAddress, p.count, r.baseAddress, r.count)
                }
            })
        else { throw BenchmarkSetupError("the OpenSSL peer could not load the keys") }

        let challenge = [UInt8]((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        let credentialId = [UInt8]((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 53 &+ 3) })
        let clientDataJSON = ClientDataJSON(
            try CollectedClientData(
                type: .get, challenge: challenge, origin: "https://example.org")
        ).bytes
        let authenticatorData = Array(
            try AuthenticatorData(
                relyingPartyID: "example.org", flags: [.userPresent, .userVerified],
                signCount: 42
            ).bytes)
        let clientDataHash = DigestAlgorithm.sha256.hash(clientDataJSON)
        let signature = try key.signature(
            for: authenticatorData, clientDataHash, algorithm: .es256)
        let json = AuthenticationResponseJSON(
            rawId: credentialId,
            response: AuthenticatorAssertionResponseJSON(
                clientDataJSON: clientDataJSON, authenticatorData: authenticatorData,
                signature: signature, userHandle: [1, 2, 3, 4])
        ).jsonBytes()
        let cose = try COSEKey(publicKey: key.publicKey, algorithm: .es256)
        let record = try CredentialRecord(
            id: credentialId, publicKey: cose, signCount: 41, backupEligible: false,
            userHandle: [1, 2, 3, 4])
        let relyingParty = RelyingParty(id: "example.org", origins: ["https://example.org"])
        let expectations = AuthenticationExpectations(
            challenge: challenge, credential: record, allowCredentials: [credentialId],
            requiresUserVerification: true)
        let fixture = Fixture(
            json: json, message: authenticatorData + clientDataHash, signature: signature,
            record: record, recordKeyBytes: try cose.cborEncoded, expectations: expectations,
            relyingParty: relyingParty, peer: PeerHandle(raw: peer))
        guard verify(fixture) == 42, verifyParsingKey(fixture) == 42, peerVerify(fixture) == 1
        else { throw BenchmarkSetupError("the assertion does not verify") }
        return fixture
    }

    /// The whole §7.2 procedure from JSON bytes, with the record's parsed key.
    static func verify(_ f: Fixture) -> UInt64 {
        guard
            let result = try? f.relyingParty.verifyAuthentication(
                jsonBytes: f.json, expecting: f.expectations)
        else { return 0 }
        return UInt64(result.signCount)
    }

    /// The same, reading the record's COSE_Key bytes first (a record loaded from storage).
    static func verifyParsingKey(_ f: Fixture) -> UInt64 {
        guard
            let record = try? CredentialRecord(
                id: f.record.id, publicKeyBytes: f.recordKeyBytes, signCount: 41,
                backupEligible: false, userHandle: f.record.userHandle)
        else { return 0 }
        var expectations = f.expectations
        expectations.credential = record
        guard
            let result = try? f.relyingParty.verifyAuthentication(
                jsonBytes: f.json, expecting: expectations)
        else { return 0 }
        return UInt64(result.signCount)
    }

    static func peerVerify(_ f: Fixture) -> UInt64 {
        let ok = f.message.withUnsafeBufferPointer { m in
            f.signature.withUnsafeBufferPointer {
                openssl_peer_es256_verify(
                    f.peer.raw, m.baseAddress, m.count, $0.baseAddress, $0.count)
            }
        }
        return UInt64(ok)
    }

    static func all() throws -> [Scenario] {
        let f = try makeFixture()
        return [
            Scenario(
                "ES256 assertion: §7.2 from JSON with a stored COSE key",
                competitors: [
                    Competitor("fido2kit verifyAuthentication") { verify(f) },
                    Competitor("fido2kit, COSE key read per call") { verifyParsingKey(f) },
                    Competitor("C loop (OpenSSL ES256 verify)") { peerVerify(f) },
                ],
                checks: [
                    .init(
                        "fido2kit verifyAuthentication", against: "C loop (OpenSSL ES256 verify)",
                        .costOfBaseline(atMost: 1.2))
                ])
        ]
    }
}
