import Fido2Authenticator
import Fido2Belvo
import Fido2BelvoDevice
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The Belvo Biometric Pix cases of the project's vectors (`belvo.json`): Belvo's registration
/// options and a payment intent's `fido_options` in Belvo's published shapes, answered by
/// `Fido2Belvo`'s `BelvoDevice` (the iOS SDK's `startRegistration`/`startSigning` on the
/// software authenticator: ES256 only, user verification, origin `https://belvo.com`), and the
/// two request bodies the phone sends: `POST /enrollments/{id}/confirm/` and
/// `POST /payment-intents/{id}/authorize/`, as `BelvoConfirmEnrollmentRequest` and
/// `BelvoAuthorizePaymentRequest` write them.
struct BelvoVectorCases {
    static let relyingPartyID = "belvo.com"
    static let origin = "https://belvo.com"
    /// Risk signals stand in for the SDK's (opaque to the relying party, embedded as is).
    static let riskSignals =
        #"{"deviceId":"fido2kit-vectors-device","accountTenure":"2025-01-01"}"#

    let pki: VectorTestPKI

    func cases() throws -> [JSONValue] {
        let configuration = try AuthenticatorConfiguration.deterministic(
            seed: ProjectVectors.seed("authenticator: belvo"),
            base: BelvoDevice.iOSPlatformConfiguration)
        let device = BelvoDevice(
            store: InMemoryCredentialStore(), origin: Self.origin, configuration: configuration)

        // Enrollment: GET /enrollments/{id}/fido-registration-options/, then confirm.
        let enrollmentChallenge = try ProjectVectorGenerator.challenge("belvo-confirm-enrollment")
        let userID = Self.uuid(try ProjectVectors.draw("belvo user id", count: 16))
        let fidoOptions: JSONValue = [
            "rp": ["id": .string(Self.relyingPartyID), "name": "fido2kit test bank"],
            "user": [
                "id": .string(userID), "name": "Pagador de Teste",
                "displayName": "Pagador de Teste",
            ],
            "challenge": .base64URL(enrollmentChallenge),
            "pubKeyCredParams": [
                ["alg": -257, "type": "public-key"], ["alg": -7, "type": "public-key"],
            ],
            "extensions": ["appid": "true"],
        ]
        let confirm = try device.confirmEnrollmentRequest(fidoOptions: fidoOptions.serialized())
        let registration = try BelvoConfirmEnrollmentRequest.registrationResponse(
            body: confirm.body)
        let object = try AttestationObject(bytes: registration.response.attestationObject)
        guard let attested = object.authenticatorData.attestedCredentialData,
            let stored = try device.authenticator.store.credential(id: registration.rawId)
        else { throw VectorDataError("belvo: the authenticator kept no credential") }
        let credential = ProjectVectorGenerator.Credential(
            registrationID: "belvo-confirm-enrollment", algorithm: .es256,
            authenticator: device.authenticator, id: registration.rawId,
            publicKey: Array(attested.credentialPublicKeyBytes), privateKey: stored.privateKey,
            userHandle: stored.userHandle, backupEligible: false, backupState: false)
        let enrollment: JSONValue = [
            "id": "belvo-confirm-enrollment",
            "ceremony": "registration",
            "title": "Enrollment: the confirm body for Belvo's registration options",
            "algorithm": "ES256",
            "attestation": "none",
            "belvo": [
                "request": "POST /payments/br/enrollments/{id}/confirm/",
                "fido_options": fidoOptions,
                "body": try JSONValue(parsing: confirm.body),
                "response_member": "confirmation_data",
            ],
            "relying_party": [
                "rp_id": .string(Self.relyingPartyID), "origins": [.string(Self.origin)],
                "challenge": .base64URL(enrollmentChallenge),
                "require_user_verification": true, "pub_key_cred_params": [-257, -7],
            ],
            "expected": [
                "result": "ok", "fmt": "none", "attestation_type": "none",
                "trust_path": "not-applicable", "credential_id": .base64URL(registration.rawId),
                "credential_public_key": .base64URL(attested.credentialPublicKeyBytes),
                "alg": -7, "aaguid": .string(attested.aaguid.description),
                "sign_count": .integer(object.authenticatorData.signCount),
                "flags": .integer(object.authenticatorData.flags.rawValue),
            ],
        ]

        // Payment: the payment intent's fido_options, then authorize.
        let paymentChallenge = try ProjectVectorGenerator.challenge("belvo-authorize-payment")
        let paymentOptions: JSONValue = [
            "rpId": .string(Self.relyingPartyID), "timeout": 300_000,
            "challenge": .base64URL(paymentChallenge),
            "allowCredentials": [["id": .base64URL(registration.rawId), "type": "public-key"]],
        ]
        let authorize = try device.authorizePaymentRequest(
            fidoOptions: paymentOptions.serialized(),
            riskSignals: BelvoRiskSignals(jsonString: Self.riskSignals))
        let assertion = try BelvoAuthorizePaymentRequest.authenticationResponse(
            body: authorize.body)
        let authData = try AuthenticatorData(bytes: assertion.response.authenticatorData)
        let body = try JSONValue(parsing: authorize.body)
        func authorization(
            id: String, title: String, expectedChallenge: [UInt8], expected: JSONValue,
            mutation: String? = nil
        ) -> JSONValue {
            var entry: JSONObject = [
                "id": .string(id), "ceremony": "authentication", "title": .string(title),
                "algorithm": "ES256",
            ]
            if let mutation { entry.append("mutation", .string(mutation)) }
            entry.append(
                "belvo",
                [
                    "request": "POST /payments/br/payment-intents/{id}/authorize/",
                    "fido_options": paymentOptions, "body": body, "response_member": "assertion",
                ])
            entry.append("credential", ProjectVectorGenerator.record(credential, signCount: 0))
            entry.append(
                "relying_party",
                [
                    "rp_id": .string(Self.relyingPartyID), "origins": [.string(Self.origin)],
                    "challenge": .base64URL(expectedChallenge), "require_user_verification": true,
                    "allow_credentials": [.base64URL(registration.rawId)],
                    "reject_sign_count_regression": true,
                ])
            entry.append("expected", expected)
            return .object(entry)
        }
        let payment = authorization(
            id: "belvo-authorize-payment",
            title: "Payment: the authorize body for a payment intent's fido_options",
            expectedChallenge: paymentChallenge,
            expected: [
                "result": "ok", "sign_count": .integer(authData.signCount),
                "flags": .integer(authData.flags.rawValue),
                "user_verified": .bool(authData.flags.contains(.userVerified)),
                "backup_state": false,
            ])
        let replay = authorization(
            id: "belvo-authorize-replayed",
            title: "The authorize body of one payment intent replayed for another",
            expectedChallenge: try ProjectVectorGenerator.challenge("belvo-authorize-replayed"),
            expected: [
                "result": "error", "step": "§7.2 step 11",
                "check": "C.challenge equals the options' challenge",
                "fido2kit_code": "challengeMismatch",
            ],
            mutation: "the body of belvo-authorize-payment, checked against another payment "
                + "intent's challenge")
        return [enrollment, payment, replay]
    }

    /// 16 bytes as a version-4-shaped UUID string (Belvo sends `user.id` as a UUID).
    static func uuid(_ bytes: [UInt8]) -> String {
        var bytes = bytes
        bytes[6] = bytes[6] & 0x0f | 0x40
        bytes[8] = bytes[8] & 0x3f | 0x80
        return [0..<4, 4..<6, 6..<8, 8..<10, 10..<16].map { Hex.encode(bytes[$0]) }
            .joined(separator: "-")
    }
}
