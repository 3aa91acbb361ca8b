/// The answer of `POST /payments/api/widget-token/`: the tokens a merchant backend hands to the
/// SDK. Tokens are made per session on the backend and never hard-coded in an app.
public struct BelvoWidgetToken: Decodable, Sendable, Hashable {
    /// The access token the SDK authenticates with.
    public let access: String
    /// The token that renews it.
    public let refresh: String
}
