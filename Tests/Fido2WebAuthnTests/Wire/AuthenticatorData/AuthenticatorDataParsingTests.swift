import Fido2Authenticator
import Fido2CBOR
import Fido2Crypto
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Registration authenticator data with attested credential data and an extensions map.
func sampleAuthenticatorData(
    credentialIdLength: Int = 16, extensions: AuthenticatorExtensionOutputs? = nil
) throws -> AuthenticatorData {
    let key = try PrivateKey(rawScalar: [UInt8](repeating: 7, count: 32), kind: .p256)
    let attested = try AttestedCredentialData(
        aaguid: try #require(AAGUID(bytes: [UInt8](0..<16))),
        credentialId: [UInt8](repeating: 0xab, count: credentialIdLength),
        credentialPublicKey: try COSEKey(publicKey: key.publicKey, algorithm: .es256))
    return try AuthenticatorData(
        relyingPartyID: "example.org", flags: [.userPresent, .userVerified], signCount: 42,
        attestedCredentialData: attested, extensions: extensions)
}

@Suite struct AuthenticatorDataParsingTests {
    @Test func rejectsEveryTruncation() throws {
        let extensions = try AuthenticatorExtensionOutputs(
            credProtect: 2, hmacSecret: .enabled(true),
            unknown: [.init(identifier: "txAuthSimple", value: "hello")])
        let full = try sampleAuthenticatorData(extensions: extensions)
        var samples = [full.bytes, try sampleAuthenticatorData().bytes]
        samples.append(
            try AuthenticatorData(
                relyingPartyID: "example.org", flags: .userPresent, signCount: 1,
                extensions: extensions
            ).bytes)
        for bytes in samples {
            #expect(try AuthenticatorData(bytes: bytes) == AuthenticatorData(bytes: Array(bytes)))
            for length in 0..<bytes.count {
                do {
                    _ = try AuthenticatorData(bytes: Array(bytes.prefix(length)))
                    Issue.record("accepted a truncation to \(length) of \(bytes.count) bytes")
                } catch let error as WebAuthnError {
                    let expected: [WebAuthnError.Code] = [
                        .truncated, .attestedCredentialDataFlagMismatch, .extensionDataFlagMismatch,
                    ]
                    #expect(expected.contains(error.code), "\(length): \(error)")
                } catch {
                    Issue.record("expected a WebAuthnError, got \(error)")
                }
            }
        }
    }

    @Test func namesTheTruncatedPart() throws {
        let bytes = Array(try sampleAuthenticatorData().bytes)
        let cases: [(Int, String)] = [
            (10, "rpIdHash"), (32, "flags"), (35, "signCount"),
            (40, "attestedCredentialData.aaguid"),
            (54, "attestedCredentialData.credentialIdLength"),
            (60, "attestedCredentialData.credentialId"),
            (75, "attestedCredentialData.credentialPublicKey"),
            (80, "attestedCredentialData.credentialPublicKey"),
        ]
        for (length, field) in cases {
            do {
                _ = try AuthenticatorData(bytes: Array(bytes.prefix(length)))
                Issue.record("accepted \(length)")
            } catch let error as WebAuthnError {
                #expect(error.code == .truncated, "\(length): \(error)")
                #expect(error.field == field, "\(length): \(error)")
            } catch {
                Issue.record("expected a WebAuthnError, got \(error)")
            }
        }
    }

    @Test func rejectsTrailingBytes() throws {
        let registration = Array(try sampleAuthenticatorData().bytes)
        expectCode(.trailingBytes) { _ = try AuthenticatorData(bytes: registration + [0]) }
        let assertion = Array(
            try AuthenticatorData(relyingPartyID: "a.example", flags: .userPresent, signCount: 0)
                .bytes)
        expectCode(.trailingBytes) { _ = try AuthenticatorData(bytes: assertion + [0xa0]) }
        let withExtensions = Array(
            try AuthenticatorData(
                relyingPartyID: "a.example", flags: .userPresent, signCount: 0,
                extensions: try AuthenticatorExtensionOutputs(credProtect: 1)
            ).bytes)
        expectCode(.trailingBytes) { _ = try AuthenticatorData(bytes: withExtensions + [0xa0]) }
    }

    @Test func rejectsFlagsThatDisagreeWithTheContent() throws {
        var assertion = Array(
            try AuthenticatorData(relyingPartyID: "a.example", flags: .userPresent, signCount: 0)
                .bytes)
        assertion[32] |= 0x40
        expectCode(.attestedCredentialDataFlagMismatch) {
            _ = try AuthenticatorData(bytes: assertion)
        }
        assertion[32] = 0x81
        expectCode(.extensionDataFlagMismatch) { _ = try AuthenticatorData(bytes: assertion) }
        // AT cleared on registration data: the credential reads as trailing bytes.
        var registration = Array(try sampleAuthenticatorData().bytes)
        registration[32] &= ~0x40
        expectCode(.trailingBytes) { _ = try AuthenticatorData(bytes: registration) }
        // ED set where attested data ends the bytes: the data after AT has no map left.
        registration[32] |= 0xc0
        expectCode(.extensionDataFlagMismatch) { _ = try AuthenticatorData(bytes: registration) }
    }

    @Test func rejectsBackupStateWithoutEligibility() throws {
        var bytes = Array(
            try AuthenticatorData(relyingPartyID: "a.example", flags: .userPresent, signCount: 0)
                .bytes)
        bytes[32] |= 0x10
        expectCode(.backupStateWithoutEligibility) { _ = try AuthenticatorData(bytes: bytes) }
        bytes[32] |= 0x08
        #expect(
            try AuthenticatorData(bytes: bytes).flags == [
                .userPresent, .backupEligible, .backupState,
            ])
        expectCode(.backupStateWithoutEligibility) {
            _ = try AuthenticatorData(
                relyingPartyID: "a.example", flags: [.userPresent, .backupState], signCount: 0)
        }
    }

    @Test func rejectsEmptyAndOversizeCredentialIds() throws {
        var bytes = Array(try sampleAuthenticatorData().bytes)
        for length in [0, 1024, 0xffff] {
            bytes[53] = UInt8(length >> 8)
            bytes[54] = UInt8(length & 0xff)
            expectCode(.invalidCredentialIdLength) { _ = try AuthenticatorData(bytes: bytes) }
        }
        let key = try COSEKey(
            publicKey: try PrivateKey(generating: .p256).publicKey, algorithm: .es256)
        expectCode(.invalidCredentialIdLength) {
            _ = try AttestedCredentialData(
                aaguid: .zero, credentialId: [], credentialPublicKey: key)
        }
        expectCode(.invalidCredentialIdLength) {
            _ = try AttestedCredentialData(
                aaguid: .zero, credentialId: [UInt8](repeating: 1, count: 1024),
                credentialPublicKey: key)
        }
    }

    @Test func acceptsTheLongestCredentialId() throws {
        let data = try sampleAuthenticatorData(credentialIdLength: 1023)
        let parsed = try AuthenticatorData(bytes: Array(data.bytes))
        #expect(parsed.attestedCredentialData?.credentialId.count == 1023)
        #expect(parsed == data)
    }

    @Test func keepsTheReservedBits() throws {
        var bytes = Array(
            try AuthenticatorData(relyingPartyID: "a.example", flags: .userPresent, signCount: 9)
                .bytes)
        bytes[32] |= 0x22
        let parsed = try AuthenticatorData(bytes: bytes)
        #expect(parsed.flags.contains(.reservedBit1) && parsed.flags.contains(.reservedBit5))
        let rebuilt = try AuthenticatorData(
            rpIdHash: parsed.rpIdHash, flags: parsed.flags, signCount: parsed.signCount)
        #expect(Array(rebuilt.bytes) == bytes)
        #expect(parsed.signCount == 9)
        #expect(parsed.flags.description == "UP|RFU1|RFU2")
    }

    @Test func reportsUnsupportedAndInvalidKeys() throws {
        let prefix = Array(try sampleAuthenticatorData().bytes.prefix(55 + 16))
        // {1: 7 (AKP), 3: -49 (ML-DSA-65), -1: h'00'}
        let mlDSA: [UInt8] = [0xa3, 0x01, 0x07, 0x03, 0x38, 0x30, 0x20, 0x41, 0x00]
        expectCode(.unsupportedAlgorithm) { _ = try AuthenticatorData(bytes: prefix + mlDSA) }
        // A canonical map that is no COSE key, and a non-canonical one.
        expectCode(.invalidCredentialPublicKey) {
            _ = try AuthenticatorData(bytes: prefix + [0xa1, 0x01, 0x02])
        }
        expectCode(.malformedCBOR) {
            _ = try AuthenticatorData(bytes: prefix + [0xa2, 0x03, 0x26, 0x01, 0x02])
        }
        expectCode(.malformedCBOR) { _ = try AuthenticatorData(bytes: prefix + [0xff]) }
    }

    @Test func rejectsABadRpIdHashWhenBuilding() {
        expectCode(.invalidValue) {
            _ = try AuthenticatorData(
                rpIdHash: [UInt8](repeating: 0, count: 31), flags: [], signCount: 0)
        }
    }
}

@Suite struct AuthenticatorExtensionTests {
    @Test func readsTypedAndUnknownOutputs() throws {
        let outputs = try AuthenticatorExtensionOutputs(
            credProtect: 3, hmacSecret: .output([1, 2, 3]), credBlob: .stored(true),
            minPinLength: 6, largeBlobKey: [UInt8](repeating: 9, count: 32),
            unknown: [.init(identifier: "example.ext", value: ["a": 1])])
        let data = try AuthenticatorData(
            relyingPartyID: "example.org", flags: .userPresent, signCount: 0, extensions: outputs)
        let parsed = try #require(try AuthenticatorData(bytes: Array(data.bytes)).extensions)
        #expect(parsed.credProtect == 3)
        #expect(parsed.hmacSecret == .output([1, 2, 3]))
        #expect(parsed.credBlob == .stored(true))
        #expect(parsed.minPinLength == 6)
        #expect(parsed.largeBlobKey == [UInt8](repeating: 9, count: 32))
        #expect(parsed.unknown.map(\.identifier) == ["example.ext"])
        #expect(try parsed.unknown.first?.value() == ["a": 1])
        #expect(parsed == outputs)
        // Canonical order: shorter keys first.
        let map = try CBORValue.decode(Array(parsed.bytes))
        #expect(
            map.mapValue?.entries.map { $0.key.stringValue ?? "" } == [
                "credBlob", "credProtect", "example.ext", "hmac-secret", "largeBlobKey",
                "minPinLength",
            ])
    }

    static func withExtensions(_ map: [UInt8]) throws -> [UInt8] {
        var bytes = Array(
            try AuthenticatorData(relyingPartyID: "a.example", flags: .userPresent, signCount: 0)
                .bytes)
        bytes[32] |= 0x80
        return bytes + map
    }

    @Test func rejectsMistypedOutputs() throws {
        let cases: [[UInt8]] = [
            // {"credProtect": "x"}
            [0xa1, 0x6b] + Array("credProtect".utf8) + [0x61, 0x78],
            // {"credProtect": 256}
            [0xa1, 0x6b] + Array("credProtect".utf8) + [0x19, 0x01, 0x00],
            // {"hmac-secret": 1}
            [0xa1, 0x6b] + Array("hmac-secret".utf8) + [0x01],
            // {"credBlob": null}
            [0xa1, 0x68] + Array("credBlob".utf8) + [0xf6],
            // {"minPinLength": -1}
            [0xa1, 0x6c] + Array("minPinLength".utf8) + [0x20],
            // {"largeBlobKey": true}
            [0xa1, 0x6c] + Array("largeBlobKey".utf8) + [0xf5],
            // {1: 2}: identifiers are text.
            [0xa1, 0x01, 0x02],
            // [1]: not a map.
            [0x81, 0x01],
        ]
        expectCode(.malformedCBOR) {
            _ = try AuthenticatorData(bytes: try Self.withExtensions([0xff]))
        }
        expectCode(.malformedCBOR) {
            // {"b": 1, "a": 2}: keys out of canonical order.
            _ = try AuthenticatorData(
                bytes: try Self.withExtensions([0xa2, 0x61, 0x62, 0x01, 0x61, 0x61, 0x02]))
        }
        for map in cases {
            expectCode(.invalidExtensions) {
                _ = try AuthenticatorData(bytes: try! Self.withExtensions(map))
            }
        }
    }

    @Test func rejectsRepeatedIdentifiersWhenBuilding() {
        expectCode(.invalidExtensions) {
            _ = try AuthenticatorExtensionOutputs(
                credProtect: 1, unknown: [.init(identifier: "credProtect", value: 2)])
        }
        expectCode(.invalidExtensions) {
            _ = try AuthenticatorExtensionOutputs(
                unknown: [.init(identifier: "x", value: 1), .init(identifier: "x", value: 2)])
        }
    }
}
