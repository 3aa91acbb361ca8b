import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import PropertyBased
import Testing

private let seeds = Gen<UInt64>.value(in: 0...UInt64.max)

/// parse(serialize(x)) == x, and serialize is stable.
private func checkRoundTrip<Form: WebAuthnJSONForm>(_ form: Form) {
    let bytes = form.jsonBytes()
    do {
        let reread = try Form(jsonBytes: bytes)
        #expect(reread == form)
        #expect(reread.jsonBytes() == bytes)
    } catch {
        Issue.record("rejected its own output \(String(decoding: bytes, as: UTF8.self)): \(error)")
    }
}

@Test func roundTripsRandomRegistrationResponses() async {
    await propertyCheck(count: 300, input: seeds) { seed in
        var random = SplitMix(seed: seed)
        checkRoundTrip(randomRegistrationResponse(&random))
    }
}

@Test func roundTripsRandomAuthenticationResponses() async {
    await propertyCheck(count: 300, input: seeds) { seed in
        var random = SplitMix(seed: seed)
        checkRoundTrip(randomAuthenticationResponse(&random))
    }
}

@Test func roundTripsRandomCreationOptions() async {
    await propertyCheck(count: 300, input: seeds) { seed in
        var random = SplitMix(seed: seed)
        checkRoundTrip(randomCreationOptions(&random))
    }
}

@Test func roundTripsRandomRequestOptions() async {
    await propertyCheck(count: 300, input: seeds) { seed in
        var random = SplitMix(seed: seed)
        checkRoundTrip(randomRequestOptions(&random))
    }
}

private func randomExtensions(_ random: inout SplitMix) -> JSONObject {
    var object = JSONObject()
    for index in 0..<random.below(3) { object.append("ext\(index)", random.jsonValue(depth: 1)) }
    return object
}

private func randomTransports(_ random: inout SplitMix) -> [AuthenticatorTransport] {
    let known: [AuthenticatorTransport] = [.usb, .nfc, .ble, .smartCard, .hybrid, .internal]
    return (0..<random.below(4)).map { _ in
        random.below(5) == 0
            ? AuthenticatorTransport(rawValue: random.jsonString())
            : known[random.below(known.count)]
    }
}

private func randomAttachment(_ random: inout SplitMix) -> AuthenticatorAttachment? {
    random.optional { random in random.below(2) == 0 ? .platform : .crossPlatform }
}

private func randomDescriptor(_ random: inout SplitMix) -> PublicKeyCredentialDescriptorJSON {
    PublicKeyCredentialDescriptorJSON(
        type: random.below(4) == 0 ? random.jsonString() : "public-key", id: random.bytes(),
        transports: random.optional(randomTransports))
}

func randomRegistrationResponse(_ random: inout SplitMix) -> RegistrationResponseJSON {
    let response = AuthenticatorAttestationResponseJSON(
        clientDataJSON: random.bytes(maximum: 200),
        authenticatorData: random.optional { $0.bytes(maximum: 200) },
        transports: random.optional(randomTransports),
        publicKey: random.optional { $0.bytes(maximum: 100) },
        publicKeyAlgorithm: random.optional { Int(Int32(truncatingIfNeeded: $0.next())) },
        attestationObject: random.bytes(maximum: 300))
    return RegistrationResponseJSON(
        rawId: random.bytes(maximum: 64), response: response,
        authenticatorAttachment: randomAttachment(&random),
        clientExtensionResults: randomExtensions(&random))
}

func randomAuthenticationResponse(_ random: inout SplitMix) -> AuthenticationResponseJSON {
    let response = AuthenticatorAssertionResponseJSON(
        clientDataJSON: random.bytes(maximum: 200), authenticatorData: random.bytes(maximum: 100),
        signature: random.bytes(maximum: 80), userHandle: random.optional { $0.bytes(maximum: 64) })
    return AuthenticationResponseJSON(
        rawId: random.bytes(maximum: 64), response: response,
        authenticatorAttachment: randomAttachment(&random),
        clientExtensionResults: randomExtensions(&random))
}

func randomCreationOptions(_ random: inout SplitMix) -> PublicKeyCredentialCreationOptionsJSON {
    let selection = random.optional { random in
        AuthenticatorSelectionCriteria(
            authenticatorAttachment: randomAttachment(&random),
            residentKey: random.optional { ResidentKeyRequirement(rawValue: $0.jsonString()) },
            requireResidentKey: random.below(2) == 0,
            userVerification: [.required, .preferred, .discouraged][random.below(3)])
    }
    return PublicKeyCredentialCreationOptionsJSON(
        rp: PublicKeyCredentialRpEntity(
            name: random.jsonString(), id: random.optional { $0.jsonString() }),
        user: PublicKeyCredentialUserEntityJSON(
            id: random.bytes(maximum: 64), name: random.jsonString(),
            displayName: random.jsonString()),
        challenge: random.bytes(),
        pubKeyCredParams: (0..<random.below(4)).map { _ in
            PublicKeyCredentialParameters(alg: Int(Int32(truncatingIfNeeded: random.next())))
        },
        timeout: random.optional { UInt32(truncatingIfNeeded: $0.next()) },
        excludeCredentials: (0..<random.below(3)).map { _ in randomDescriptor(&random) },
        authenticatorSelection: selection,
        hints: (0..<random.below(3)).map { _ in
            PublicKeyCredentialHint(rawValue: random.jsonString())
        },
        attestation: [.none, .indirect, .direct, .enterprise][random.below(4)],
        attestationFormats: (0..<random.below(3)).map { _ in random.jsonString() },
        extensions: random.optional(randomExtensions))
}

func randomRequestOptions(_ random: inout SplitMix) -> PublicKeyCredentialRequestOptionsJSON {
    PublicKeyCredentialRequestOptionsJSON(
        challenge: random.bytes(),
        timeout: random.optional { UInt32(truncatingIfNeeded: $0.next()) },
        rpId: random.optional { $0.jsonString() },
        allowCredentials: (0..<random.below(3)).map { _ in randomDescriptor(&random) },
        userVerification: UserVerificationRequirement(rawValue: random.jsonString()),
        hints: [.securityKey, .clientDevice, .hybrid].filter { _ in random.below(2) == 0 },
        extensions: random.optional(randomExtensions))
}
