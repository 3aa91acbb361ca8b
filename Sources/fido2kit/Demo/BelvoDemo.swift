import Fido2Authenticator
import Fido2Belvo
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Foundation

/// `fido2kit demo`: the whole enrollment and payment flow of Belvo's Biometric Pix guide,
/// step by step as the guide names them, with `BelvoDevice` as the phone and
/// ``BelvoStandIn`` as Belvo; it ends by verifying the confirm and authorize bodies with
/// fido2kit's own relying party. Every step prints one line (and the two bodies in full); any
/// failure throws.
struct BelvoDemo {
    /// The fresh credential store's directory.
    let storePath: String

    private let standIn = BelvoStandIn()
    private let clock = SimulatedClock()
    private let authorization = BelvoAuthorization.bearer(accessToken: "stand-in-widget-token")
    let write: (String) -> Void

    /// A demo keeping the device's credentials under `storePath`, printing with `write`.
    init(storePath: String, write: @escaping (String) -> Void) {
        self.storePath = storePath
        self.write = write
    }

    /// What the flow produced, for the verification steps.
    struct Outcome {
        let registrationOptions: BelvoRegistrationOptions
        let confirmBody: [UInt8]
        let assertionOptions: BelvoAssertionOptions
        let authorizeBody: [UInt8]
        let origin: String
        let store: DirectoryCredentialStore
    }

    /// Runs the flow.
    ///
    /// - Throws: ``DemoFailure`` or any error of the adapter, the authenticator or the
    ///   relying party.
    func run() async throws {
        write(
            "fido2kit demo: Belvo Biometric Pix enrollment and payment on the software authenticator"
        )
        write(
            "NO NETWORK: every answer below comes from an in-process stand-in replaying the sample")
        write(
            "payloads of Belvo's integration guide. Nothing is sent to Belvo; tokens and ids are fake."
        )
        write("credential store: \(storePath) (fresh, removed at the end)")
        let outcome = try await flow()
        try verify(outcome)
        write("")
        write("demo passed: 15 steps")
    }

    // MARK: The guide's flow

    private func flow() async throws -> Outcome {
        let store = try DirectoryCredentialStore(path: storePath)
        let device = BelvoDevice(store: store)
        write("")
        write("Enrollment")

        let institutions = try send(BelvoAPI.listInstitutions(authorization: authorization))
        guard let institution = institutions.results.first else {
            throw DemoFailure("the institution list is empty")
        }
        step(
            1, "institutions",
            "\(institutions.results.count) institution: \(institution.displayName ?? institution.id) "
                + "(\(institution.id))")

        let tenure = try BelvoAccountTenure(
            customerCreatedAt: BelvoStandInPayloads.customerCreatedAt)
        let riskSignals = try BelvoRiskSignals(
            jsonString:
                #"{"accountTenure":"\#(tenure)","deviceId":"\#(BelvoStandInPayloads.deviceID)","#
                + #""note":"stand-in: collectRiskSignals runs only in the iOS SDK"}"#)
        step(
            2, "risk signals (accountTenure)",
            "accountTenure \(tenure): the first 10 characters of the customer's created_at "
                + BelvoStandInPayloads.customerCreatedAt,
            "risk signals (a stand-in: the SDK's are encrypted and made on the phone): "
                + String(decoding: riskSignals.json, as: UTF8.self))

        let created = try send(
            BelvoAPI.createEnrollment(
                BelvoCreateEnrollmentRequest(
                    customer: BelvoStandInPayloads.customerID, institution: institution.id,
                    name: "fido2kit demo iPhone",
                    callbackURL: "https://merchant.example/belvo/callback",
                    riskSignals: riskSignals),
                authorization: authorization))
        step(
            3, "create enrollment",
            "enrollment \(created.id): \(created.status), \(created.details?.status ?? "-")",
            "redirect_url \(created.details?.redirectURL ?? "-")")

        let redirected = try send(
            BelvoAPI.completeRedirection(
                BelvoCompleteRedirectionRequest(callbackURL: BelvoStandInPayloads.callbackURL),
                authorization: authorization))
        step(
            4, "complete redirection",
            "callback \(BelvoStandInPayloads.callbackURL)",
            "state, code and id_token sent; enrollment \(redirected.status)")

        let optionsEndpoint = try BelvoAPI.fidoRegistrationOptions(
            enrollmentID: created.id, authorization: authorization)
        let (fidoOptions, optionAttempts, optionAnswers) = try await poll(optionsEndpoint) { _ in
            true
        }
        let registrationOptions = try BelvoRegistrationOptions(fidoOptions)
        step(
            5, "poll fido-registration-options",
            "the guide's policy (every 2 s for up to 2 min) on a simulated clock: "
                + optionAnswers.joined(separator: ", ") + " (attempt \(optionAttempts))",
            "the guide's sample: rp.id \(registrationOptions.rpId), user.id a UUID, pubKeyCredParams "
                + "\(registrationOptions.algorithms), extensions \(registrationOptions.ignoredExtensions) "
                + "(ignored)")

        let attestation = try device.startRegistration(options: registrationOptions)
        let origin = device.origin(relyingPartyID: registrationOptions.rpId)
        guard let stored = try store.credential(id: try Base64URL.decode(attestation.rawId)) else {
            throw DemoFailure("the new credential is not in the store")
        }
        step(
            6, "startRegistration",
            "new credential \(attestation.encodedId) in the store",
            "\(stored.algorithm) (an iOS platform authenticator makes ES256 only, though RS256 is "
                + "listed first); origin \(origin); user handle = the UTF-8 bytes of \""
                + String(decoding: stored.userHandle, as: UTF8.self) + "\"")

        let confirm = try BelvoConfirmEnrollmentRequest(attestation: attestation)
        try sendExpectingNoContent(
            BelvoAPI.confirmEnrollment(
                enrollmentID: created.id, confirm, authorization: authorization))
        guard standIn.confirmBody == confirm.body else {
            throw DemoFailure("the stand-in did not receive the confirm body as written")
        }
        step(7, "confirm body", String(decoding: confirm.body, as: UTF8.self))

        let (enrollment, _, enrollmentStatuses) = try await poll(
            BelvoAPI.getEnrollment(id: created.id, authorization: authorization),
            status: { $0.status.rawValue }
        ) { $0.status.isFinal }
        guard enrollment.status == .succeeded else {
            throw DemoFailure(
                "the enrollment ended \(enrollment.status): \(enrollment.statusReasonMessage ?? "")"
            )
        }
        step(8, "poll enrollment", "status " + enrollmentStatuses.joined(separator: ", then "))

        write("")
        write("Payment")
        let listed = try send(
            BelvoAPI.listEnrollments(
                deviceID: BelvoStandInPayloads.deviceID, authorization: authorization))
        guard let usable = listed.results.first(where: { $0.status == .succeeded }) else {
            throw DemoFailure("the device has no SUCCEEDED enrollment")
        }
        step(
            9, "list enrollments",
            "\(listed.results.count) enrollment for the device; using \(usable.id) (\(usable.status))"
        )

        let intent = try send(
            BelvoAPI.createPaymentIntent(
                BelvoPaymentIntentRequest(
                    amount: Decimal(string: "0.13") ?? 0, customer: BelvoStandInPayloads.customerID,
                    description: "fido2kit demo coffee", statementDescription: "FIDO2KIT DEMO",
                    beneficiaryBankAccount: BelvoStandInPayloads.beneficiaryBankAccountID,
                    enrollment: usable.id),
                authorization: authorization))
        let assertionOptions = try intent.assertionOptions()
        step(
            10, "create payment intent",
            "0.13 BRL, confirm true → payment intent \(intent.id): \(intent.status)",
            "fido_options: the guide's sample (rpId, timeout, challenge), its allowCredentials "
                + "naming the credential enrolled above as Belvo's would")

        let assertion = try device.startSigning(options: assertionOptions)
        let signed = try AuthenticatorData(bytes: try Base64URL.decode(assertion.authenticatorData))
        step(
            11, "startSigning",
            "assertion by \(assertion.encodedId), signCount \(signed.signCount), user verified "
                + "\(signed.flags.contains(.userVerified))")

        let authorize = try BelvoAuthorizePaymentRequest(
            riskSignals: riskSignals, assertion: assertion)
        try sendExpectingNoContent(
            BelvoAPI.authorizePaymentIntent(
                paymentIntentID: intent.id, authorize, authorization: authorization))
        guard standIn.authorizeBody == authorize.body else {
            throw DemoFailure("the stand-in did not receive the authorize body as written")
        }
        step(12, "authorize body", String(decoding: authorize.body, as: UTF8.self))

        let (paid, _, paymentStatuses) = try await poll(
            BelvoAPI.getPaymentIntent(id: intent.id, authorization: authorization),
            status: { $0.status.rawValue }
        ) { $0.status.isFinal }
        guard paid.status == .succeeded else {
            throw DemoFailure("the payment ended \(paid.status): \(paid.statusReasonMessage ?? "")")
        }
        step(13, "poll payment intent", "status " + paymentStatuses.joined(separator: ", then "))

        return Outcome(
            registrationOptions: registrationOptions, confirmBody: confirm.body,
            assertionOptions: assertionOptions, authorizeBody: authorize.body, origin: origin,
            store: store)
    }

    // MARK: Talking to the stand-in

    private func send<Response>(_ endpoint: BelvoEndpoint<Response>) throws -> Response {
        let answer = standIn.answer(endpoint.request)
        return try endpoint.decode(status: answer.status, body: answer.body)
    }

    private func sendExpectingNoContent(_ endpoint: BelvoEndpoint<Void>) throws {
        let answer = standIn.answer(endpoint.request)
        try endpoint.decode(status: answer.status, body: answer.body)
        guard answer.status == 204 else {
            throw DemoFailure("\(endpoint.request.path) answered \(answer.status), not 204")
        }
    }

    /// Polls `endpoint` on the guide's policy until it answers (a 404 means "not yet") and
    /// `done` accepts the answer; returns the answer, the number of attempts and what each
    /// answer said (`status`, or "not ready" for a 404).
    private func poll<Response>(
        _ endpoint: BelvoEndpoint<Response>, status: (Response) -> String? = { _ in nil },
        until done: (Response) -> Bool
    ) async throws -> (Response, attempts: Int, seen: [String]) {
        var seen = [String]()
        let value = try await BelvoPollingPolicy.guide.poll(clock: clock) {
            () async throws -> Response? in
            do {
                let response = try send(endpoint)
                seen.append(status(response) ?? "answered")
                return done(response) ? response : nil
            } catch let error as BelvoError where error.code == .notFound {
                seen.append("not ready")
                return nil
            }
        }
        guard let value else {
            throw BelvoError(.pollingTimedOut, "\(endpoint.request.path) never answered")
        }
        return (value, seen.count, seen)
    }

    /// Prints the step's name, the stand-in exchanges it made, and what it found.
    func step(_ number: Int, _ name: String, _ details: String...) {
        write("\(number < 10 ? " " : "")\(number). \(name)")
        for line in standIn.drainExchanges() + details { write("      " + line) }
    }
}

/// A demo step that did not go as the guide says.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
