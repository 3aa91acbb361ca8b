import Fido2Belvo
import Fido2Crypto
import Fido2Support
import Foundation

/// Where `fido2kit demo --base-url URL` sends the flow: a `BelvoClient` on a transport that
/// records each exchange for the demo's step lines.
struct BelvoDemoServer: Sendable {
    /// The client, with HTTP Basic and the recording transport.
    let client: BelvoClient
    /// The exchanges the client made.
    let recorder: RecordingTransport
    /// The URL the bank sent a person back to (`--callback-url`), or nil to follow
    /// `redirect_url` through HTTP redirects.
    let callbackURL: String?
    /// The paying customer (`BELVO_CUSTOMER_ID`, default the stand-in's).
    let customerID: String
    /// The merchant's receiving account (`BELVO_BENEFICIARY_BANK_ACCOUNT`, default the
    /// stand-in's).
    let beneficiaryBankAccount: String

    /// A server at `baseURL` with the Payments API's secret id and password.
    init(
        baseURL: URL, secretID: String, secretPassword: String, callbackURL: String?,
        customerID: String?, beneficiaryBankAccount: String?
    ) {
        self.customerID = customerID ?? BelvoStandInPayloads.customerID
        self.beneficiaryBankAccount =
            beneficiaryBankAccount ?? BelvoStandInPayloads.beneficiaryBankAccountID
        let recorder = RecordingTransport(URLSessionBelvoTransport())
        self.recorder = recorder
        self.client = BelvoClient(
            baseURL: baseURL, secretID: secretID, secretPassword: secretPassword,
            timeout: .seconds(30), transport: recorder)
        self.callbackURL = callbackURL
    }
}

/// A transport that remembers `METHOD URL → status` for every exchange, then passes it on.
final class RecordingTransport: BelvoTransport {
    private let inner: any BelvoTransport
    private let exchanges = LockedState<[(request: String, status: String)]>([])

    init(_ inner: any BelvoTransport) { self.inner = inner }

    func send(_ request: BelvoHTTPRequest) async throws -> BelvoHTTPResponse {
        let line = "\(request.method) \(request.url.absoluteString)"
        do {
            let response = try await inner.send(request)
            exchanges.withLock { $0.append((line, String(response.status))) }
            return response
        } catch {
            exchanges.withLock { $0.append((line, "no answer")) }
            throw error
        }
    }

    /// The status of the last exchange, if it had one.
    var lastStatus: Int? { exchanges.withLock { $0.last.flatMap { Int($0.status) } } }

    /// The exchanges since the last call, one line per URL: `GET url → 404, 200`.
    func drain() -> [String] {
        let recorded = exchanges.withLock { exchanges in
            defer { exchanges.removeAll() }
            return exchanges
        }
        var lines = [(request: String, statuses: [String])]()
        for exchange in recorded {
            if lines.last?.request == exchange.request {
                lines[lines.count - 1].statuses.append(exchange.status)
            } else {
                lines.append((exchange.request, [exchange.status]))
            }
        }
        return lines.map { "\($0.request) → " + $0.statuses.joined(separator: ", ") }
    }
}
