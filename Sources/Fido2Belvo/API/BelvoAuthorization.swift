import Foundation

/// The credentials a request carries in its `Authorization` header.
///
/// A merchant backend calls the Payments API with HTTP Basic (secret id and password); an app
/// using the SDK holds only the short-lived `access` token from `POST /payments/api/widget-token/`,
/// sent as a bearer token.
public enum BelvoAuthorization: Sendable, Hashable {
    /// HTTP Basic with the Payments API secret id and password (backend only).
    case basic(secretID: String, secretPassword: String)
    /// A widget access token (`BelvoWidgetToken.access`).
    case bearer(accessToken: String)

    /// The `Authorization` header value.
    public var headerValue: String {
        switch self {
        case .basic(let secretID, let secretPassword):
            "Basic " + Data("\(secretID):\(secretPassword)".utf8).base64EncodedString()
        case .bearer(let accessToken):
            "Bearer " + accessToken
        }
    }
}
