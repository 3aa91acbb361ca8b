import Fido2Authenticator
import Fido2Belvo
import Fido2BelvoDevice
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation

/// `fido2kit demo`: the whole enrollment and payment flow of Belvo's Biometric Pix guide,
/// step by step as the guide names them, with `BelvoDevice` as the phone and
/// ``BelvoStandIn`` as Belvo (or, with a ``BelvoDemoServer``, any server speaking Belvo's API
/// over HTTP); it ends by verifying the confirm and authorize bodies with
/// fido2kit's own relying party. Every step prints one line (and the two bodies in full); any
/// failure throws.
struct BelvoDemo {
    /// The fresh credential store's directory.
    let storePath: String

    private let standIn = BelvoStandIn()
    private let clock = SimulatedClock()
    /// The HTTP server to talk to, or nil for the in-process stand-in.
    private let server: BelvoDemoServer?
    /// The caller's risk signals (`--risk-signals`), or nil for the stand-in's.
    private let riskSignals: BelvoRiskSignals?
    private var customerID: String { server?.customerID ?? BelvoStandInPayloads.customerID }
    private var authorization: BelvoAuthorization {
        server?.client.authorization ?? .bearer(accessToken: "stand-in-widget-token")
    }
    let write: (String) -> Void

    /// The `callback_url` the enrollment names when no `--callback-url` was given.
    static let defaultCallbackURL = "https://merchant.example/belvo/callback"

    /// A demo keeping the device's credentials under `storePath`, talking to `server` (nil: the
    /// in-process stand-in) with `riskSignals` (nil: the stand-in's), printing with `write`.
    init(
        storePath: String, server: BelvoDemoServer? = nil, riskSignals: BelvoRiskSignals? = nil,
        write: @escaping (String) -> Void
    ) {
        self.storePath = storePath
        self.server = server
        self.riskSignals = riskSignals
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
        if let server {
            write("OVER HTTP: every request below goes to \(server.client.baseURL.absoluteString)")
            write(
                "with HTTP Basic; polling follows the guide's policy on the real clock. Customer, "
                    + "beneficiary and risk signals are the demo's unless given.")
        } else {
            write(
                "NO NETWORK: every answer below comes from an in-process stand-in replaying the sample"
            )
            write(
                "payloads of Belvo's integration guide. Nothing is sent to Belvo; tokens and ids are fake."
            )
        }
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

        let institutions = try await send(BelvoAPI.listInstitutions(authorization: authorization))
        guard let institution = institutions.results.first else {
            throw DemoFailure("the institution list is empty")
        }
        step(
            1, "institutions",
            "\(institutions.results.count) institution: \(institution.displayName ?? institution.id) "
                + "(\(institution.id))")

        let tenure = try BelvoAccountTenure(
            customerCreatedAt: BelvoStandInPayloads.customerCreatedAt)
        let riskSignals =
            try self.riskSignals
            ?? BelvoRiskSignals(
                jsonString:
                    #"{"accountTenure":"\#(tenure)","deviceId":"\#(BelvoStandInPayloads.deviceID)","#
                    + #""note":"stand-in: collectRiskSignals runs only in the iOS SDK"}"#)
        let deviceID = try Self.deviceID(in: riskSignals)
        step(
            2, "risk signals (accountTenure)",
            "accountTenure \(tenure): the first 10 characters of the customer's created_at "
                + BelvoStandInPayloads.customerCreatedAt,
            (self.riskSignals == nil
                ? "risk signals (a stand-in: the SDK's are encrypted and made on the phone): "
                : "risk signals (given with --risk-signals): ")
                + String(decoding: riskSignals.json, as: UTF8.self))

        let callbackBase = server?.callbackURL.flatMap(Self.withoutQuery) ?? Self.defaultCallbackURL

        let created = try await send(
            BelvoAPI.createEnrollment(
                BelvoCreateEnrollmentRequest(
                    customer: customerID, institution: institution.id,
                    name: "fido2kit demo iPhone",
                    callbackURL: callbackBase,
                    riskSignals: riskSignals),
                authorization: authorization))
        step(
            3, "create enrollment",
            "enrollment \(created.id): \(created.status), \(created.details?.status ?? "-")",
            "redirect_url \(created.details?.redirectURL ?? "-")")

        let (callbackURL, howCalledBack) = try await bankApproval(
            redirectURL: created.details?.redirectURL, callbackURL: callbackBase)
        let redirected = try await send(
            BelvoAPI.completeRedirection(
                BelvoCompleteRedirectionRequest(callbackURL: callbackURL),
                authorization: authorization))
        guard redirected.status != .failed else {
            throw DemoFailure(
                "complete-redirection failed the enrollment: "
                    + "\(redirected.statusReasonCode ?? "-") \(redirected.statusReasonMessage ?? "")"
            )
        }
        step(
            4, "complete redirection",
            howCalledBack + "callback \(callbackURL)",
            "state, code and id_token sent; enrollment \(redirected.status)")

        let optionsEndpoint = try BelvoAPI.fidoRegistrationOptions(
            enrollmentID: created.id, authorization: authorization)
        let (fidoOptions, optionAttempts, optionAnswers) = try await poll(optionsEndpoint) { _ in
            true
        }
        let registrationOptions = try BelvoRegistrationOptions(fidoOptions)
        step(
            5, "poll fido-registration-options",
            "the guide's policy (every 2 s for up to 2 min) on "
                + (server == nil ? "a simulated clock: " : "the real clock: ")
                + optionAnswers.joined(separator: ", ") + " (attempt \(optionAttempts))",
            (server == nil ? "the guide's sample: " : "the server's options: ")
                + "rp.id \(registrationOptions.rpId), user.id a UUID, pubKeyCredParams "
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
        try await sendExpectingNoContent(
            BelvoAPI.confirmEnrollment(
                enrollmentID: created.id, confirm, authorization: authorization))
        guard server != nil || standIn.confirmBody == confirm.body else {
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
        let listed = try await send(
            BelvoAPI.listEnrollments(deviceID: deviceID, authorization: authorization))
        // The device may hold older enrollments (another run's, whose keys are in another
        // store): the payment uses the one enrolled above, which must be listed as SUCCEEDED.
        let succeeded = listed.results.filter { $0.status == .succeeded }
        guard let usable = succeeded.first(where: { $0.id == created.id }) else {
            throw DemoFailure(
                "the device's enrollments do not list \(created.id) as SUCCEEDED "
                    + "(\(listed.results.count) listed, \(succeeded.count) SUCCEEDED)")
        }
        step(
            9, "list enrollments",
            "\(listed.results.count) enrollment(s) for the device, \(succeeded.count) SUCCEEDED; "
                + "using \(usable.id), the one enrolled above (\(usable.status))")

        let intent = try await send(
            BelvoAPI.createPaymentIntent(
                BelvoPaymentIntentRequest(
                    amount: Decimal(string: "0.13") ?? 0, customer: customerID,
                    description: "fido2kit demo coffee", statementDescription: "FIDO2KIT DEMO",
                    beneficiaryBankAccount: server?.beneficiaryBankAccount
                        ?? BelvoStandInPayloads.beneficiaryBankAccountID,
                    enrollment: usable.id),
                authorization: authorization))
        let assertionOptions = try intent.assertionOptions()
        step(
            10, "create payment intent",
            "0.13 BRL, confirm true → payment intent \(intent.id): \(intent.status)",
            server == nil
                ? "fido_options: the guide's sample (rpId, timeout, challenge), its allowCredentials "
                    + "naming the credential enrolled above as Belvo's would"
                : "fido_options: rpId \(assertionOptions.rpId), challenge "
                    + Base64URL.encode(assertionOptions.challenge) + ", "
                    + "\(assertionOptions.allowCredentials.count) allowed credential(s)")

        let assertion = try device.startSigning(options: assertionOptions)
        let signed = try AuthenticatorData(bytes: try Base64URL.decode(assertion.authenticatorData))
        step(
            11, "startSigning",
            "assertion by \(assertion.encodedId), signCount \(signed.signCount), user verified "
                + "\(signed.flags.contains(.userVerified))")

        let authorize = try BelvoAuthorizePaymentRequest(
            riskSignals: riskSignals, assertion: assertion)
        try await sendExpectingNoContent(
            BelvoAPI.authorizePaymentIntent(
                paymentIntentID: intent.id, authorize, authorization: authorization))
        guard server != nil || standIn.authorizeBody == authorize.body else {
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

    // MARK: Talking to the stand-in or the server

    private func send<Response>(_ endpoint: BelvoEndpoint<Response>) async throws -> Response {
        if let server { return try await server.client.send(endpoint) }
        let answer = standIn.answer(endpoint.request)
        return try endpoint.decode(status: answer.status, body: answer.body)
    }

    private func sendExpectingNoContent(_ endpoint: BelvoEndpoint<Void>) async throws {
        let status: Int?
        if let server {
            try await server.client.send(endpoint)
            status = server.recorder.lastStatus
        } else {
            let answer = standIn.answer(endpoint.request)
            try endpoint.decode(status: answer.status, body: answer.body)
            status = answer.status
        }
        guard status == 204 else {
            throw DemoFailure(
                "\(endpoint.request.path) answered \(status.map(String.init) ?? "-"), not 204")
        }
    }

    /// The URL the bank sent the payer back to, and how the demo got it: the stand-in's sample
    /// offline; over HTTP, `--callback-url`'s, or the end of `redirect_url`'s HTTP redirects.
    private func bankApproval(
        redirectURL: String?, callbackURL: String
    ) async throws -> (url: String, how: String) {
        guard let server else { return (BelvoStandInPayloads.callbackURL, "") }
        if let given = server.callbackURL {
            return (given, "given with --callback-url; ")
        }
        guard let redirectURL else {
            throw DemoFailure("the enrollment has no details.redirect_url to follow")
        }
        let url = try await server.client.followBankRedirect(from: redirectURL, to: callbackURL)
        return (url, "the bank's redirects from redirect_url end at the ")
    }

    /// The `deviceId` the risk signals carry, which lists the device's enrollments.
    private static func deviceID(in riskSignals: BelvoRiskSignals) throws -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(riskSignals.json))
        guard let deviceID = (object as? [String: Any])?["deviceId"] as? String, !deviceID.isEmpty
        else {
            throw DemoFailure(
                "the risk signals carry no deviceId string (list enrollments needs it)")
        }
        return deviceID
    }

    /// `url` without its query and fragment, or nil when it cannot be parsed.
    private static func withoutQuery(_ url: String) -> String? {
        guard var components = URLComponents(string: url) else { return nil }
        components.query = nil
        components.fragment = nil
        return components.string
    }

    /// Polls `endpoint` on the guide's policy until it answers (a 404 means "not yet") and
    /// `done` accepts the answer; returns the answer, the number of attempts and what each
    /// answer said (`status`, or "not ready" for a 404).
    private func poll<Response>(
        _ endpoint: BelvoEndpoint<Response>, status: (Response) -> String? = { _ in nil },
        until done: (Response) -> Bool
    ) async throws -> (Response, attempts: Int, seen: [String]) {
        var seen = [String]()
        let fetch = { () async throws -> Response? in
            do {
                let response = try await send(endpoint)
                seen.append(status(response) ?? "answered")
                return done(response) ? response : nil
            } catch let error as BelvoError where error.code == .notFound {
                seen.append("not ready")
                return nil
            }
        }
        let value =
            server == nil
            ? try await BelvoPollingPolicy.guide.poll(clock: clock, fetch)
            : try await BelvoPollingPolicy.guide.poll(clock: ContinuousClock(), fetch)
        guard let value else {
            throw BelvoError(.pollingTimedOut, "\(endpoint.request.path) never answered")
        }
        return (value, seen.count, seen)
    }

    /// Prints the step's name, the stand-in exchanges it made, and what it found.
    func step(_ number: Int, _ name: String, _ details: String...) {
        write("\(number < 10 ? " " : "")\(number). \(name)")
        let exchanges = server?.recorder.drain() ?? standIn.drainExchanges()
        for line in exchanges + details { write("      " + line) }
    }
}

/// A demo step that did not go as the guide says.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
