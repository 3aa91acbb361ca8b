import Fido2Authenticator
import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The two verification profiles: the compatible one (the default) reads the CBOR encodings
/// deployed authenticators write and reports each deviation; the strict one refuses them and
/// says which profile would read them; neither lets through a duplicate key, trailing bytes or
/// a bad signature.
@Suite struct VerificationProfileTests {
    static let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)

    /// A packed self-attestation registration written as a test authenticator of another
    /// library writes it: the attestation object an indefinite-length map with its keys out of
    /// order, the credential key an indefinite-length map with alg before kty and a long head.
    /// Every signature covers the bytes as sent.
    struct LooseRegistration {
        let ceremony: SyntheticCeremony
        let keyBytes: [UInt8]
        let authData: [UInt8]
        let response: RegistrationResponseJSON

        init(
            keyEncoding: (inout CBORWriter, [UInt8], [UInt8]) -> Void = Self.looseKey,
            breakSignature: Bool = false, trailing: [UInt8] = []
        ) throws {
            let ceremony = try SyntheticCeremony.p256()
            let point = try ceremony.credentialKey.publicKey.uncompressedPoint
            var key = CBORWriter()
            keyEncoding(&key, Array(point[1..<33]), Array(point[33...]))
            var authData = DigestAlgorithm.sha256.hash(SyntheticCeremony.rpID.utf8)
            authData += [0x45, 0, 0, 0, 0] + SyntheticCeremony.aaguid.bytes
            authData += [0, UInt8(ceremony.credentialId.count)] + ceremony.credentialId
            authData += key.bytes
            var signature = try ceremony.credentialKey.signature(
                for: authData, DigestAlgorithm.sha256.hash(try ceremony.clientDataJSON),
                algorithm: .es256)
            if breakSignature { signature[signature.count - 1] ^= 0x01 }
            var object = CBORWriter()
            object.bytes += [0xbf]
            object.writeTextString("authData")
            object.writeByteString(authData)
            object.writeTextString("fmt")
            object.writeTextString("packed")
            object.writeTextString("attStmt")
            object.writeMapHeader(count: 2)
            object.writeTextString("sig")
            object.writeByteString(signature)
            object.writeTextString("alg")
            object.writeInt(-7)
            object.bytes += [0xff] + trailing
            self.ceremony = ceremony
            self.keyBytes = key.bytes
            self.authData = authData
            self.response = RegistrationResponseJSON(
                rawId: ceremony.credentialId,
                response: AuthenticatorAttestationResponseJSON(
                    clientDataJSON: try ceremony.clientDataJSON, attestationObject: object.bytes))
        }

        /// `{_ 3: -7, 1: 2, -1: 1 (long head), -2: x, -3: y}`.
        static func looseKey(_ writer: inout CBORWriter, _ x: [UInt8], _ y: [UInt8]) {
            writer.bytes += [0xbf, 0x03, 0x26, 0x01, 0x02, 0x20, 0x18, 0x01]
            writer.writeInt(-2)
            writer.writeByteString(x)
            writer.writeInt(-3)
            writer.writeByteString(y)
            writer.bytes += [0xff]
        }
    }

    @Test func compatibleProfileReadsLooseCBORAndReportsEachDeviation() throws {
        let loose = try LooseRegistration()
        let result = try SyntheticCeremony.relyingParty().verifyRegistration(
            loose.response, expecting: Self.expectations)
        #expect(result.attestationType == .selfAttestation)
        #expect(result.credentialPublicKey == (try loose.ceremony.credentialPublicKey))
        // The key is kept as the authenticator wrote it: that is what the record stores.
        #expect(result.credentialPublicKeyBytes == loose.keyBytes)
        // Each rule once, where it is first broken, in the order the reader meets them; the
        // key's offsets count from the start of the authenticator data.
        let key = "attestationObject.authData.attestedCredentialData.credentialPublicKey"
        let keyStart = loose.authData.count - loose.keyBytes.count
        let found = result.deviations.map { "\($0.field) @\($0.offset ?? -1): \($0.detail)" }
        #expect(
            found == [
                "attestationObject @0: indefinite-length item",
                "attestationObject @\(1 + 9 + 2 + loose.authData.count): map keys not in canonical order",
                "\(key) @\(keyStart): indefinite-length item",
                "\(key) @\(keyStart + 3): map keys not in canonical order",
                "\(key) @\(keyStart + 6): integer, length or tag not in its shortest form",
            ], "\(found)")
        #expect(result.deviations.allSatisfy { $0.kind == .cborEncoding && $0.relaxation == nil })
        // The stored key verifies the credential's assertions.
        let record = try CredentialRecord(
            id: result.credentialId, publicKeyBytes: result.credentialPublicKeyBytes,
            signCount: 0, backupEligible: false)
        var assertion = loose.ceremony
        assertion.type = .get
        assertion.signCount = 1
        _ = try SyntheticCeremony.relyingParty().verifyAuthentication(
            try assertion.assertion(),
            expecting: AuthenticationExpectations(
                challenge: SyntheticCeremony.challenge, credential: record))
    }

    @Test func strictProfileRefusesLooseCBORAndNamesTheWayOut() throws {
        let loose = try LooseRegistration()
        let error = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty(profile: .strict).verifyRegistration(
                loose.response, expecting: Self.expectations)
        }
        #expect(error?.code == .malformedCBOR)
        #expect(error?.step == "§7.1 step 13")
        #expect(error?.reason.contains("VerificationProfile.compatible") == true)
        #expect(error?.reason.contains("without --strict") == true)
        // A stored key in a loose encoding is read only when the caller allows it.
        #expect(throws: WebAuthnError.self) {
            try CredentialRecord(
                id: [1], publicKeyBytes: loose.keyBytes, signCount: 0, backupEligible: false,
                tolerating: [])
        }
    }

    @Test func neitherProfileAcceptsABadSignatureInLooseCBOR() throws {
        let loose = try LooseRegistration(breakSignature: true)
        expectFailure(.attestationSignatureInvalid, step: "§7.1 step 22") {
            () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                loose.response, expecting: Self.expectations)
        }
    }

    @Test func neitherProfileAcceptsADuplicateKeyOrTrailingBytes() throws {
        let duplicate = try LooseRegistration { writer, x, y in
            writer.bytes += [0xbf, 0x01, 0x02, 0x03, 0x26, 0x03, 0x26, 0x20, 0x01]
            writer.writeInt(-2)
            writer.writeByteString(x)
            writer.writeInt(-3)
            writer.writeByteString(y)
            writer.bytes += [0xff]
        }
        let trailing = try LooseRegistration(trailing: [0x00])
        for profile in [VerificationProfile.compatible, .strict] {
            for (loose, what) in [(duplicate, "duplicate map key"), (trailing, "trailing bytes")] {
                let error = webAuthnError { () throws in
                    try SyntheticCeremony.relyingParty(profile: profile).verifyRegistration(
                        loose.response, expecting: Self.expectations)
                }
                #expect(
                    error?.code == .malformedCBOR,
                    "\(profile) \(what): \(String(describing: error))")
                #expect(error?.step == "§7.1 step 13", "\(profile) \(what)")
                // The compatible profile reads past the encoding and refuses what it found;
                // the strict one stops at the first encoding rule, with no hint, since the
                // compatible profile would refuse the input too.
                if profile == .compatible {
                    #expect(
                        error?.description.contains(what) == true,
                        "\(profile): \(error?.description ?? "")")
                }
                let field =
                    profile == .compatible && what == "duplicate map key"
                    ? "attestationObject.authData.attestedCredentialData.credentialPublicKey"
                    : "attestationObject"
                #expect(error?.field == field, "\(error?.description ?? "")")
                #expect(error?.reason.contains("compatible profile") == false, "\(profile) \(what)")
            }
        }
    }

    @Test func aCanonicalResponseHasNothingToReport() throws {
        let ceremony = try SyntheticCeremony.p256()
        let result = try SyntheticCeremony.relyingParty().verifyRegistration(
            try ceremony.registration(), expecting: Self.expectations)
        #expect(result.deviations.isEmpty)
    }

    // MARK: The response's convenience members

    @Test func refusesConvenienceMembersThatContradictTheAttestationObject() throws {
        let ceremony = try SyntheticCeremony.p256()
        let other = try PrivateKey(generating: .p256).publicKey
        let changes:
            [(
                String, VerificationStep,
                (inout AuthenticatorAttestationResponseJSON) throws -> Void
            )] = [
                ("response.publicKey", "§7.1 step 20", { $0.publicKey = try other.spkiDER }),
                ("response.publicKey", "§7.1 step 20", { $0.publicKey = [0x30, 0x00] }),
                ("response.publicKeyAlgorithm", "§7.1 step 20", { $0.publicKeyAlgorithm = -257 }),
                ("response.authenticatorData", "§7.1 step 13", { $0.authenticatorData = [0x00] }),
            ]
        for (field, step, change) in changes {
            var response = try ceremony.registration()
            try change(&response.response)
            let error = webAuthnError { () throws in
                try SyntheticCeremony.relyingParty().verifyRegistration(
                    response, expecting: Self.expectations)
            }
            #expect(error?.code == .inconsistentResponse, "\(field)")
            #expect(error?.field == field && error?.step == step, "\(String(describing: error))")
        }
    }

    @Test func acceptsConvenienceMembersThatAgree() throws {
        let ceremony = try SyntheticCeremony.p256()
        var response = try ceremony.registration()
        response.response.publicKey = try ceremony.credentialKey.publicKey.spkiDER
        response.response.publicKeyAlgorithm = -7
        response.response.authenticatorData = Array(
            try ceremony.registrationAuthenticatorData().bytes)
        _ = try SyntheticCeremony.relyingParty().verifyRegistration(
            response, expecting: Self.expectations)
    }
}
