import Fido2WebAuthnWire

/// How the software authenticator judges whether an RP ID may be used from an origin
/// (WebAuthn §5.1.3 step 8 and §5.1.4.1 step 7: "a registrable domain suffix of or equal to"
/// the origin's effective domain), without the Public Suffix List.
///
/// The rules:
/// 1. The origin's host must be a domain name: IP-address origins are refused (browsers refuse
///    them too), and so is any RP ID that is not a valid ASCII domain.
/// 2. An RP ID equal to the host is accepted, whatever its number of labels (`localhost`).
/// 3. An RP ID that is a proper suffix of the host, on a label boundary, is accepted when it
///    is registrable by these approximations: it has at least two labels (a single label such
///    as `com` or `br` is a top-level domain), and it is not one of the multi-label public
///    suffixes in ``knownPublicSuffixes`` (`com.br`, `co.uk`, `github.io`, …). `localhost` is
///    accepted as a suffix of `*.localhost`.
///
/// The limitation: without the full Public Suffix List, a multi-label public suffix that is not
/// in ``knownPublicSuffixes`` (say `pvt.k12.ma.us`) is accepted as an RP ID for its
/// subdomains, where a browser would refuse it. The authenticator errs on the side of
/// accepting; relying parties must still check rpIdHash against the RP ID they expect.
public enum RelyingPartyIDPolicy {
    /// The multi-label public suffixes refused as RP IDs: common second-level country domains
    /// and shared hosting suffixes from the Public Suffix List. Not complete, by design.
    public static let knownPublicSuffixes: Set<String> = [
        "co.uk", "org.uk", "me.uk", "ac.uk", "gov.uk", "ltd.uk", "plc.uk", "net.uk",
        "com.br", "net.br", "org.br", "gov.br", "edu.br", "art.br", "blog.br", "app.br",
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "co.nz", "org.nz", "co.za", "org.za",
        "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "co.kr", "or.kr", "com.cn", "net.cn",
        "org.cn", "com.hk", "com.tw", "com.sg", "com.my", "co.in", "net.in", "org.in",
        "com.mx", "com.ar", "com.co", "com.pe", "com.tr", "com.ua", "co.il", "com.pl",
        "github.io", "gitlab.io", "herokuapp.com", "appspot.com", "blogspot.com",
        "firebaseapp.com", "web.app", "pages.dev", "workers.dev", "vercel.app", "netlify.app",
        "azurewebsites.net", "cloudfront.net", "amazonaws.com", "fly.dev", "onrender.com",
    ]

    /// Checks that `relyingPartyID` may be used from `origin`, and returns it lower-cased.
    ///
    /// - Throws: ``AuthenticatorError`` `invalidRelyingPartyID` naming the rule that failed.
    public static func validate(
        _ relyingPartyID: String, for origin: WebOrigin
    )
        throws -> String
    {
        func refuse(_ reason: String) -> AuthenticatorError {
            AuthenticatorError(
                .invalidRelyingPartyID, "\"\(relyingPartyID)\" for \(origin): \(reason)",
                field: "rpId")
        }
        let host = Array(origin.host.utf8)
        guard !DomainName.isIPAddress(host) else {
            throw refuse("an IP-address origin cannot have an RP ID")
        }
        let id = DomainName.lowercased(relyingPartyID.utf8)
        guard DomainName.isValid(id) else { throw refuse("not a valid ASCII domain name") }
        if id == host { return origin.host }
        guard host.count > id.count, host.ends(with: id),
            host[host.count - id.count - 1] == UInt8(ascii: ".")
        else { throw refuse("neither the origin's host nor a suffix of it") }
        let text = String(decoding: id, as: UTF8.self)
        if text == "localhost" { return text }
        guard id.contains(UInt8(ascii: ".")) else {
            throw refuse("a single-label suffix is a top-level domain, not registrable")
        }
        guard !knownPublicSuffixes.contains(text) else { throw refuse("a public suffix") }
        return text
    }
}
