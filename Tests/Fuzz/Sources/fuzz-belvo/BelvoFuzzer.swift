// Fido2Belvo: the FIDO options Belvo sends and every response body it documents, decoded as a
// client does, plus risk signals embedded in a request body.
// dictionary: json
// seeds: belvo-documents webauthn-json
import Fido2Belvo
import Fido2Encoding
import FuzzSupport

/// Every input is decoded as each Belvo answer (2xx), and as an error body for each status
/// class. Invariants:
/// - decoding never traps, and an error status is always an error;
/// - the FIDO options mappings accept only what the raw option models accept;
/// - risk signals that are accepted are embedded byte for byte into an authorize body that is
///   valid JSON (read back with Fido2Encoding's strict reader, repeated names allowed).
@main
enum BelvoFuzzer: FuzzTarget {
    /// Belvo's bodies may repeat a member name (Foundation reads them), and risk signals are
    /// embedded as given, so the body is checked with duplicates allowed.
    static let bodyReader = JSONReader(
        options: JSONReader.Options(allowsDuplicateMemberNames: true))
    static let authorization = BelvoAuthorization.bearer(accessToken: "fuzz")
    static let assertion = AssertionResponse(
        encodedId: "AQID", rawId: "AQID", authenticatorData: "AAAA", clientDataJSON: "e30",
        signature: "MEUC", userHandle: "dXNlcg")

    static func fuzz(_ input: [UInt8]) {
        let registration = try? BelvoFidoRegistrationOptions(json: input)
        for mapping in [BelvoUserHandleMapping.utf8, .base64url] {
            if (try? BelvoRegistrationOptions(json: input, userHandleMapping: mapping)) != nil {
                FuzzCheck.require(
                    registration != nil, "mapped registration options without raw ones")
            }
        }
        let assertionOptions = try? BelvoFidoAssertionOptions(json: input)
        if (try? BelvoAssertionOptions(json: input)) != nil {
            FuzzCheck.require(assertionOptions != nil, "mapped assertion options without raw ones")
        }

        decode(BelvoAPI.listInstitutions(authorization: authorization), input, errorStatuses: true)
        decode(try? BelvoAPI.getEnrollment(id: "e", authorization: authorization), input)
        decode(try? BelvoAPI.listEnrollments(deviceID: "d", authorization: authorization), input)
        decode(try? BelvoAPI.getPaymentIntent(id: "p", authorization: authorization), input)
        decode(
            try? BelvoAPI.fidoRegistrationOptions(enrollmentID: "e", authorization: authorization),
            input)
        decode(BelvoAPI.widgetToken(secretID: "s", secretPassword: "p"), input)

        if let signals = try? BelvoRiskSignals(json: input) {
            FuzzCheck.require(signals.json == input, "risk signals are not kept as given")
            guard
                let request = try? BelvoAuthorizePaymentRequest(
                    riskSignals: signals, assertion: assertion)
            else {
                FuzzCheck.fail("a valid assertion is refused")
            }
            let body = request.body
            FuzzCheck.require(
                body.indices.contains { body[$0...].starts(with: input) },
                "risk signals not embedded verbatim")
            FuzzCheck.require(
                (try? bodyReader.read(body)) != nil, "authorize body is not strict JSON")
        }
    }

    /// Decodes `body` as the endpoint's answer; with `errorStatuses`, also as each class of
    /// error (their bodies are read the same way for every endpoint, so one endpoint suffices).
    static func decode<Response>(
        _ endpoint: BelvoEndpoint<Response>?, _ body: [UInt8], errorStatuses: Bool = false
    ) {
        guard let endpoint else { FuzzCheck.fail("endpoint refused a plain identifier") }
        _ = try? endpoint.decode(status: 200, body: body)
        for status in errorStatuses ? [400, 401, 404, 500, 302] : [] {
            FuzzCheck.require(
                (try? endpoint.decode(status: status, body: body)) == nil,
                "status \(status) decoded as success")
        }
    }
}
