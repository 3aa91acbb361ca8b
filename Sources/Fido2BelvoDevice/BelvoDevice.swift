import Fido2Authenticator
import Fido2Belvo
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthnWire

/// A phone running Belvo's `BiometricPixSDK`, reproduced on Linux: the SDK's two FIDO calls,
/// ``startRegistration(fidoOptions:)-(String)`` and
/// ``startSigning(fidoOptions:fallbackCredential:)-(String,_)``, answered by fido2kit's
/// `SoftwareAuthenticator` keeping its keys in a `CredentialStore`.
///
/// ```swift
/// let device = try BelvoDevice(store: DirectoryCredentialStore(path: dir))
/// let attestation = try device.startRegistration(fidoOptions: registrationOptionsJSON)
/// let confirm = try BelvoConfirmEnrollmentRequest(attestation: attestation).body
/// // … later, with the payment intent's fido_options:
/// let assertion = try device.startSigning(fidoOptions: fidoOptionsJSON)
/// let authorize = try BelvoAuthorizePaymentRequest(riskSignals: signals, assertion: assertion).body
/// ```
///
/// ## What it reproduces
///
/// - **Origin.** The clientDataJSON origin is ``origin`` when set, else `https://` + the
///   options' RP ID (``defaultOrigin(relyingPartyID:)``). An iOS app proves its right to the RP
///   ID `belvo.com` with the associated domain `webcredentials:belvo.com` (checked by Apple
///   against the domain's `apple-app-site-association` file for `TEAM_ID.BUNDLE_ID`), and
///   AuthenticationServices then reports the origin as that domain's HTTPS origin,
///   `https://belvo.com`, not as an app identifier (Android's `android:apk-key-hash:…`).
/// - **Algorithm.** ``iOSPlatformConfiguration`` supports ES256 only, as Apple's platform
///   authenticator (passkeys, iCloud Keychain) does. Among the algorithms the device supports,
///   the relying party's order of `pubKeyCredParams` decides (WebAuthn §6.3.2): Belvo lists
///   RS256 before ES256, and the device answers ES256 because it has nothing else. Options
///   offering no ES256 fail with `BelvoError.Code.unsupportedAlgorithms`.
/// - **Mapping.** Belvo's options become WebAuthn options as ``creationOptions(for:)`` and
///   ``requestOptions(for:)`` say: `user.id` per `BelvoRegistrationOptions` (the UUID text's
///   UTF-8 bytes by default), the `appid` extension dropped, user verification required (the
///   SDK always shows the biometric prompt) and a discoverable credential preferred (Apple's
///   platform credentials are passkeys, always discoverable).
/// - **Counter.** The default configuration advances the signature counter on every
///   assertion, so a relying party's clone check has something to check. Real iCloud
///   Keychain passkeys report 0 with the BE and BS flags set: pass
///   `AuthenticatorConfiguration.syncedPasskey()` (restricted to ES256) to reproduce that.
///
/// A call that throws leaves the credential store as it was: options are decoded and mapped
/// before the authenticator runs, and the authenticator stores nothing until it has signed.
public struct BelvoDevice: Sendable {
    /// The authenticator of an iPhone running the SDK: ES256 only, user verification,
    /// discoverable credentials, attestation `none`, a platform attachment with the `internal`
    /// and `hybrid` transports, an all-zero AAGUID, and a signature counter that advances.
    public static var iOSPlatformConfiguration: AuthenticatorConfiguration {
        var configuration = AuthenticatorConfiguration()
        configuration.supportedAlgorithms = [.es256]
        return configuration
    }

    /// The authenticator answering the ceremonies.
    public let authenticator: SoftwareAuthenticator
    /// The origin written into clientDataJSON, or nil for ``defaultOrigin(relyingPartyID:)``.
    public let origin: String?
    /// How Belvo's `user.id` becomes the user handle.
    public let userHandleMapping: BelvoUserHandleMapping

    /// A device keeping its credentials in `store`.
    ///
    /// - Parameters:
    ///   - store: where the device keeps its credentials (a `DirectoryCredentialStore` for
    ///     one that outlives the process).
    ///   - origin: the origin to report, such as `https://belvo.com`; nil (the default) for
    ///     `https://` + each ceremony's RP ID.
    ///   - configuration: the authenticator's behaviour; default ``iOSPlatformConfiguration``.
    ///   - userHandleMapping: how `user.id` becomes the user handle; default `.utf8`, as the
    ///     iOS SDK does.
    public init(
        store: any CredentialStore, origin: String? = nil,
        configuration: AuthenticatorConfiguration = BelvoDevice.iOSPlatformConfiguration,
        userHandleMapping: BelvoUserHandleMapping = .utf8
    ) {
        self.authenticator = SoftwareAuthenticator(configuration: configuration, store: store)
        self.origin = origin
        self.userHandleMapping = userHandleMapping
    }

    /// The origin an iOS app with the associated domain `webcredentials:<relyingPartyID>`
    /// reports: `https://<relyingPartyID>`.
    public static func defaultOrigin(relyingPartyID: String) -> String {
        "https://\(relyingPartyID)"
    }

    /// The origin this device reports for a ceremony on `relyingPartyID`.
    public func origin(relyingPartyID: String) -> String {
        origin ?? Self.defaultOrigin(relyingPartyID: relyingPartyID)
    }

    // MARK: Registration

    /// Registers a credential from the options JSON of
    /// `GET /enrollments/{id}/fido-registration-options/`, as the SDK's
    /// `startRegistration(fidoResponseString:callback:)` does.
    ///
    /// - Throws: `BelvoError`: `BelvoError.Code.malformedFidoOptions` or
    ///   `BelvoError.Code.unsupportedAlgorithms` for options that cannot be used; then as
    ///   ``startRegistration(options:)``.
    public func startRegistration(fidoOptions: String) throws -> AttestationResponse {
        try startRegistration(fidoOptions: Array(fidoOptions.utf8))
    }

    /// Registers a credential from the options JSON bytes.
    ///
    /// - Throws: `BelvoError` as ``startRegistration(fidoOptions:)-(String)``.
    public func startRegistration(
        fidoOptions: some Collection<UInt8>
    ) throws -> AttestationResponse {
        try startRegistration(
            options: BelvoRegistrationOptions(
                json: fidoOptions, userHandleMapping: userHandleMapping))
    }

    /// Registers a credential from options already mapped.
    ///
    /// - Throws: `BelvoError`: `BelvoError.Code.unsupportedAlgorithms` when the options
    ///   offer no algorithm the device supports; `BelvoError.Code.invalidOrigin` when the
    ///   chosen ``origin`` cannot claim the RP ID; `BelvoError.Code.malformedFidoOptions` when
    ///   the RP ID is not a domain; `BelvoError.Code.credentialExcluded` when the device
    ///   already holds an excluded credential; `BelvoError.Code.authenticatorFailure` and
    ///   `BelvoError.Code.credentialStoreFailure` (`BelvoError.Kind.unknown`) when the
    ///   authenticator or its store fails.
    public func startRegistration(
        options: BelvoRegistrationOptions
    ) throws -> AttestationResponse {
        let supported = authenticator.configuration.supportedAlgorithms
        guard
            options.algorithms.contains(where: { supported.contains(COSEAlgorithm(rawValue: $0)) })
        else {
            throw BelvoError(
                .unsupportedAlgorithms,
                "pubKeyCredParams offers \(Self.names(options.algorithms)); this device creates "
                    + "\(Self.names(supported.map(\.rawValue))) only",
                field: "pubKeyCredParams")
        }
        let response: RegistrationResponseJSON
        do {
            response = try authenticator.makeCredential(
                options: creationOptions(for: options),
                origin: origin(relyingPartyID: options.rpId))
        } catch {
            throw BelvoError(
                authenticator: error, ceremony: "startRegistration",
                originChosenByCaller: origin != nil)
        }
        return AttestationResponse(response)
    }

    /// The WebAuthn creation options this device answers for Belvo's registration options.
    ///
    /// `rp`, `user` (with `BelvoRegistrationOptions.userHandle`), `challenge`,
    /// `pubKeyCredParams` (Belvo's order), `timeout` (clamped to 32 bits), `excludeCredentials`
    /// and `attestation` carry over; `userVerification` is `required` and `residentKey`
    /// `preferred` (or `required` when Belvo requires it), as an iPhone behind a biometric
    /// prompt behaves; extensions (`appid`) are dropped.
    public func creationOptions(
        for options: BelvoRegistrationOptions
    ) -> PublicKeyCredentialCreationOptionsJSON {
        PublicKeyCredentialCreationOptionsJSON(
            rp: PublicKeyCredentialRpEntity(name: options.rpName, id: options.rpId),
            user: PublicKeyCredentialUserEntityJSON(
                id: options.userHandle, name: options.userName,
                displayName: options.userDisplayName),
            challenge: options.challenge,
            pubKeyCredParams: options.algorithms.map { PublicKeyCredentialParameters(alg: $0) },
            timeout: options.timeout.map { UInt32(clamping: $0) },
            excludeCredentials: options.excludeCredentials.map {
                PublicKeyCredentialDescriptorJSON(id: $0)
            },
            authenticatorSelection: AuthenticatorSelectionCriteria(
                authenticatorAttachment: .platform,
                residentKey: options.residentKey == "required" ? .required : .preferred,
                userVerification: .required),
            attestation: options.attestation.map { AttestationConveyancePreference(rawValue: $0) }
                ?? .none)
    }

    // MARK: Authentication

    /// Signs a payment intent's `fido_options` JSON, as the SDK's
    /// `startSigning(fidoResponseString:fallbackCredential:callback:)` does.
    ///
    /// - Parameters:
    ///   - fidoOptions: the payment intent's `fido_options` JSON (the SDK's
    ///     `fidoResponseString`).
    ///   - fallbackCredential: for a retry, the base64url id of a credential to use when the
    ///     device holds none of `allowCredentials` (or, with an empty list, no discoverable
    ///     credential), such as the `encodedId` the app kept from enrollment.
    /// - Throws: `BelvoError`: `BelvoError.Code.malformedFidoOptions` for options that
    ///   cannot be used; then as ``startSigning(options:fallbackCredential:)``.
    public func startSigning(
        fidoOptions: String, fallbackCredential: String? = nil
    ) throws -> AssertionResponse {
        try startSigning(
            fidoOptions: Array(fidoOptions.utf8), fallbackCredential: fallbackCredential)
    }

    /// Signs `fido_options` given as JSON bytes.
    ///
    /// - Throws: `BelvoError` as ``startSigning(fidoOptions:fallbackCredential:)-(String,_)``.
    public func startSigning(
        fidoOptions: some Collection<UInt8>, fallbackCredential: String? = nil
    ) throws -> AssertionResponse {
        try startSigning(
            options: BelvoAssertionOptions(json: fidoOptions),
            fallbackCredential: fallbackCredential)
    }

    /// Signs `fido_options` already mapped.
    ///
    /// - Throws: `BelvoError`: `BelvoError.Code.invalidBase64URL` when `fallbackCredential`
    ///   is not non-empty unpadded base64url; `BelvoError.Code.noMatchingCredential` when the
    ///   device holds none of `allowCredentials` (nor the fallback);
    ///   `BelvoError.Code.noDiscoverableCredential` when the list is empty and the device holds
    ///   no discoverable credential for the RP ID (nor the fallback);
    ///   `BelvoError.Code.invalidOrigin`, `BelvoError.Code.malformedFidoOptions`,
    ///   `BelvoError.Code.authenticatorFailure` and
    ///   `BelvoError.Code.credentialStoreFailure` as for registration.
    public func startSigning(
        options: BelvoAssertionOptions, fallbackCredential: String? = nil
    ) throws -> AssertionResponse {
        let fallback = try fallbackCredential.map { (id) throws(BelvoError) in
            try BelvoRequestValidation.base64URL(id, "fallbackCredential")
        }
        let request = requestOptions(for: options)
        let origin = origin(relyingPartyID: options.rpId)
        let response: AuthenticationResponseJSON
        do {
            response = try authenticator.getAssertion(options: request, origin: origin)
        } catch {
            let code = (error as? AuthenticatorError)?.code
            let noCredential = code == .noMatchingCredential || code == .noDiscoverableCredential
            guard noCredential, let fallback else {
                throw BelvoError(
                    authenticator: error, ceremony: "startSigning",
                    originChosenByCaller: self.origin != nil)
            }
            // The SDK's retry path: the same challenge, signed by the credential the app kept.
            var retry = request
            retry.allowCredentials = [PublicKeyCredentialDescriptorJSON(id: fallback)]
            do {
                response = try authenticator.getAssertion(options: retry, origin: origin)
            } catch let retryError {
                let mapped = BelvoError(
                    authenticator: retryError, ceremony: "startSigning",
                    originChosenByCaller: self.origin != nil)
                guard (retryError as? AuthenticatorError)?.code == .noMatchingCredential else {
                    throw mapped
                }
                throw BelvoError(
                    code == .noDiscoverableCredential
                        ? .noDiscoverableCredential : .noMatchingCredential,
                    "startSigning failed: \(error); the fallback credential "
                        + "\(fallbackCredential ?? "") is not held for \(options.rpId) either",
                    field: "allowCredentials")
            }
        }
        return try AssertionResponse(response)
    }

    /// The WebAuthn request options this device answers for a payment's `fido_options`:
    /// `challenge`, `timeout` (clamped to 32 bits), `rpId` and `allowCredentials` carry over;
    /// `userVerification` is `required` (the biometric prompt); extensions are dropped.
    public func requestOptions(
        for options: BelvoAssertionOptions
    ) -> PublicKeyCredentialRequestOptionsJSON {
        PublicKeyCredentialRequestOptionsJSON(
            challenge: options.challenge, timeout: options.timeout.map { UInt32(clamping: $0) },
            rpId: options.rpId,
            allowCredentials: options.allowCredentials.map {
                PublicKeyCredentialDescriptorJSON(id: $0)
            },
            userVerification: .required)
    }

    /// `[-257 (RS256), -7 (ES256)]`, for messages.
    private static func names(_ algorithms: [Int]) -> String {
        "[" + algorithms.map { "\($0) (\(COSEAlgorithm(rawValue: $0)))" }.joined(separator: ", ")
            + "]"
    }
}
