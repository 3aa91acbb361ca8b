import Fido2Belvo
import Fido2Vectors
import Foundation

/// The Belvo side of `fido2kit demo`: an in-process stand-in answering each documented
/// endpoint with ``BelvoStandInPayloads``. It is not Belvo, verifies nothing cryptographic
/// (the demo's last steps do that with fido2kit's own relying party) and never touches the
/// network; it only checks that each request has the documented shape and keeps the state a
/// server would (the enrolled credential, what was confirmed and authorized).
final class BelvoStandIn {
    /// An HTTP answer.
    struct Answer {
        let status: Int
        let body: [UInt8]
    }

    /// The id of the credential the confirm body registered, once it arrived.
    private(set) var enrolledCredentialID: String?
    /// The confirm and authorize bodies exactly as received.
    private(set) var confirmBody: [UInt8]?
    private(set) var authorizeBody: [UInt8]?

    /// Every exchange not yet drained, as `(method and target, status)`.
    private var exchanges: [(request: String, status: Int)] = []

    private var optionsRequests = 0
    private var enrollmentRequests = 0
    private var paymentIntentRequests = 0
    private var redirectionCompleted = false
    private var paymentIntentCreated = false

    private let enrollmentPath =
        "\(BelvoAPI.basePath)/enrollments/\(BelvoStandInPayloads.enrollmentID)"
    private let paymentIntentPath =
        "\(BelvoAPI.basePath)/payment-intents/\(BelvoStandInPayloads.paymentIntentID)"

    /// The answer to `request`, recorded for ``drainExchanges()``.
    func answer(_ request: BelvoRequest) -> Answer {
        let answer = route(request)
        exchanges.append(("\(request.method) \(request.target)", answer.status))
        return answer
    }

    /// The exchanges since the last call, one line per request target: `GET /path → 404, 200`.
    func drainExchanges() -> [String] {
        var lines = [(request: String, statuses: [Int])]()
        for exchange in exchanges {
            if lines.last?.request == exchange.request {
                lines[lines.count - 1].statuses.append(exchange.status)
            } else {
                lines.append((exchange.request, [exchange.status]))
            }
        }
        exchanges.removeAll()
        return lines.map {
            "\($0.request) → " + $0.statuses.map(String.init).joined(separator: ", ")
        }
    }

    private func route(_ request: BelvoRequest) -> Answer {
        let base = BelvoAPI.basePath
        switch (request.method, request.path) {
        case (.get, "\(base)/institutions/"):
            return json(200, BelvoStandInPayloads.institutions)
        case (.post, "\(base)/enrollments/"):
            guard let body = object(request.body),
                body["type"] as? String == "open_finance_biometric_pix",
                let details = body["details"] as? [String: Any],
                details["platform"] as? String == "IOS",
                details["risk_signals"] is [String: Any]
            else { return problem(400, "not a Biometric Pix enrollment request") }
            return json(201, BelvoStandInPayloads.createdEnrollment)
        case (.post, "\(base)/enrollments/complete-redirection/"):
            guard let body = object(request.body),
                ["state", "code", "id_token"].allSatisfy({ (body[$0] as? String)?.isEmpty == false }
                )
            else { return problem(400, "state, code and id_token are required") }
            redirectionCompleted = true
            return json(200, BelvoStandInPayloads.enrollment("PENDING"))
        case (.get, "\(enrollmentPath)/fido-registration-options/"):
            // Not ready on the first request, as while the bank prepares the options.
            optionsRequests += 1
            guard redirectionCompleted, optionsRequests > 1 else {
                return problem(404, "the registration options are not ready yet")
            }
            return json(200, BelvoGuideSamples.registrationOptions)
        case (.post, "\(enrollmentPath)/confirm/"):
            guard let body = object(request.body),
                let data = body["confirmation_data"] as? [String: Any],
                let rawId = data["rawId"] as? String, data["response"] is [String: Any]
            else { return problem(400, "confirmation_data is required") }
            enrolledCredentialID = rawId
            confirmBody = request.body
            return Answer(status: 204, body: [])
        case (.get, "\(enrollmentPath)/"):
            enrollmentRequests += 1
            let done = enrolledCredentialID != nil && enrollmentRequests > 1
            return json(200, BelvoStandInPayloads.enrollment(done ? "SUCCEEDED" : "PENDING"))
        case (.get, "\(base)/enrollments/"):
            guard request.query.contains(where: { $0.name == "device_id" }) else {
                return problem(400, "device_id is required")
            }
            let items =
                enrolledCredentialID == nil ? "" : BelvoStandInPayloads.enrollment("SUCCEEDED")
            return json(200, "[\(items)]")
        case (.post, "\(base)/payment-intents/"):
            guard let body = object(request.body), body["confirm"] as? Bool == true,
                let credentialID = enrolledCredentialID
            else { return problem(400, "confirm must be true and the device enrolled") }
            paymentIntentCreated = true
            return json(
                201, BelvoStandInPayloads.paymentIntent("REQUIRES_ACTION", allowing: credentialID))
        case (.post, "\(paymentIntentPath)/authorize/"):
            guard paymentIntentCreated, let body = object(request.body),
                body["assertion"] is [String: Any], body["risk_signals"] is [String: Any]
            else { return problem(400, "risk_signals and assertion are required") }
            authorizeBody = request.body
            return Answer(status: 204, body: [])
        case (.get, "\(paymentIntentPath)/"):
            paymentIntentRequests += 1
            let status =
                authorizeBody == nil
                ? "REQUIRES_ACTION" : paymentIntentRequests > 1 ? "SUCCEEDED" : "PROCESSING"
            return json(
                200,
                BelvoStandInPayloads.paymentIntent(status, allowing: enrolledCredentialID ?? ""))
        default:
            return problem(404, "the stand-in has no \(request.method) \(request.path)")
        }
    }

    private func json(_ status: Int, _ text: String) -> Answer {
        Answer(status: status, body: Array(text.utf8))
    }

    private func problem(_ status: Int, _ message: String) -> Answer {
        json(status, #"[{"code": "stand_in", "message": "\#(message)"}]"#)
    }

    private func object(_ body: [UInt8]?) -> [String: Any]? {
        guard let body else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }
}
