import Fido2CBOR
import Fido2Crypto
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import PropertyBased
import Testing

/// A few keys made once: property tests pick among them.
let roundTripKeys: [COSEKey] = {
    let pairs: [(KeyKind, COSEAlgorithm)] = [
        (.p256, .es256), (.p384, .es384), (.p521, .es512), (.ed25519, .edDSA), (.ed448, .ed448),
    ]
    return pairs.compactMap { kind, algorithm in
        guard let key = try? PrivateKey(generating: kind) else { return nil }
        return try? COSEKey(publicKey: key.publicKey, algorithm: algorithm)
    }
}()

func randomAuthenticatorData(_ random: inout SplitMix) throws -> AuthenticatorData {
    var flags = AuthenticatorDataFlags(rawValue: UInt8(truncatingIfNeeded: random.next()) & 0x3f)
    if !flags.contains(.backupEligible) { flags.remove(.backupState) }
    var attested: AttestedCredentialData?
    if random.below(2) == 0 {
        let length = random.below(8) == 0 ? 1023 : 1 + random.below(64)
        attested = try AttestedCredentialData(
            aaguid: AAGUID(bytes: (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) })
                ?? .zero,
            credentialId: (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) },
            credentialPublicKey: roundTripKeys[random.below(roundTripKeys.count)])
    }
    var extensions: AuthenticatorExtensionOutputs?
    if random.below(3) == 0 {
        extensions = try AuthenticatorExtensionOutputs(
            credProtect: random.optional { UInt8(1 + $0.below(3)) },
            hmacSecret: random.optional {
                $0.below(2) == 0 ? .enabled($0.below(2) == 0) : .output($0.bytes(maximum: 80))
            },
            credBlob: random.optional {
                $0.below(2) == 0 ? .stored($0.below(2) == 0) : .blob($0.bytes(maximum: 32))
            },
            minPinLength: random.optional { UInt64($0.below(64)) },
            largeBlobKey: random.optional { $0.bytes(maximum: 32) },
            unknown: (0..<random.below(3)).map { index in
                .init(identifier: "x-\(index)", value: .byteString(random.bytes()))
            })
    }
    return try AuthenticatorData(
        relyingPartyID: random.jsonString(), flags: flags,
        signCount: UInt32(truncatingIfNeeded: random.next()),
        attestedCredentialData: attested, extensions: extensions)
}

@Test func readsBackRandomAuthenticatorData() async {
    await propertyCheck(count: 300, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
        var random = SplitMix(seed: seed)
        do {
            let data = try randomAuthenticatorData(&random)
            let parsed = try AuthenticatorData(bytes: Array(data.bytes))
            #expect(parsed == data)
            #expect(parsed.flags == data.flags)
            #expect(parsed.signCount == data.signCount)
            #expect(parsed.attestedCredentialData == data.attestedCredentialData)
            #expect(
                parsed.attestedCredentialData?.credentialPublicKey
                    == data.attestedCredentialData?.credentialPublicKey)
            #expect(parsed.extensions == data.extensions)
            #expect(parsed.extensions?.credProtect == data.extensions?.credProtect)
            #expect(parsed.extensions?.hmacSecret == data.extensions?.hmacSecret)
            #expect(parsed.extensions?.credBlob == data.extensions?.credBlob)
            #expect(parsed.extensions?.unknown == data.extensions?.unknown)
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }
}

@Test func rejectsEveryTruncationOfRandomAuthenticatorData() async {
    await propertyCheck(count: 60, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
        var random = SplitMix(seed: seed)
        guard let data = try? randomAuthenticatorData(&random) else {
            Issue.record("seed \(seed): generator failed")
            return
        }
        let bytes = Array(data.bytes)
        for length in 0..<bytes.count {
            #expect(throws: WebAuthnError.self, "seed \(seed) length \(length)") {
                try AuthenticatorData(bytes: Array(bytes.prefix(length)))
            }
        }
    }
}

@Test func readsBackRandomAttestationObjects() async {
    await propertyCheck(count: 300, input: Gen<UInt64>.value(in: 0...UInt64.max)) { seed in
        var random = SplitMix(seed: seed)
        do {
            let data = try randomAuthenticatorData(&random)
            let certificates = (0..<(1 + random.below(3))).map { _ in random.bytes(maximum: 300) }
            let algorithm = COSEAlgorithm(rawValue: -1 - random.below(300))
            let statements: [AttestationStatement] = [
                .none,
                .packed(
                    PackedAttestationStatement(algorithm: algorithm, signature: random.bytes())),
                .packed(
                    PackedAttestationStatement(
                        algorithm: algorithm, signature: random.bytes(), certificates: certificates)
                ),
                .fidoU2F(
                    FIDOU2FAttestationStatement(
                        signature: random.bytes(), certificates: certificates)),
                .androidKey(
                    AndroidKeyAttestationStatement(
                        algorithm: algorithm, signature: random.bytes(), certificates: certificates)
                ),
                .apple(AppleAttestationStatement(certificates: certificates)),
                .apple(AppleAttestationStatement(certificates: certificates, algorithm: .es256)),
                .unknown(
                    format: "x-" + random.jsonString(),
                    encoded: CBORValue.map(["k": .byteString(random.bytes())]).encoded()[...]),
            ]
            let statement = statements[random.below(statements.count)]
            let object = AttestationObject(authenticatorData: data, statement: statement)
            let parsed = try AttestationObject(bytes: Array(object.bytes))
            #expect(parsed == object)
            #expect(parsed.statement == statement)
            #expect(parsed.authenticatorData == data)
            #expect(parsed.format == statement.format)
            // The writer's exact size: the encoding is what the generic CBOR writer makes.
            #expect(Array(object.bytes) == (try CBORValue.decode(object.bytes)).encoded())
        } catch {
            Issue.record("seed \(seed): \(error)")
        }
    }
}
