/// The registrable-domain label of a host, as WebAuthn Level 3 §5.11.1 counts them for the
/// related origins limit: the label just before the host's public suffix (`example` for
/// `login.example.co.uk` and for `example.com`, which count as one).
///
/// The rule, without the whole Public Suffix List:
/// 1. An IP address (dotted digits or a bracketed IPv6 literal) and a one-label host
///    (`localhost`) are their own label.
/// 2. The public suffix is the longest of ``multiLabelSuffixes`` (a subset of the Public
///    Suffix List: common second-level registries and hosting platforms whose subdomains
///    belong to different people) that the host ends with; otherwise, under a two-letter
///    country-code TLD, the last two labels when the second-to-last is one of
///    ``genericSecondLevels`` (`co`, `com`, `org`, `gov`, …, as in `example.com.br`);
///    otherwise the top-level label.
/// 3. The label is the one before that suffix; a host that is itself a suffix is its own
///    label.
///
/// Where the subset is wrong it errs towards counting more labels: a generic second level
/// taken for a suffix splits names a browser would count once. It can count fewer only for
/// a multi-label suffix it does not know (two sites under one unlisted hosting platform
/// count as the platform's one label); the limit is a browser's, so such a document fails in
/// a browser rather than letting a check through.
enum RegistrableDomainLabel {
    /// Multi-label public suffixes known to the rule (a Public Suffix List subset).
    static let multiLabelSuffixes: Set<String> = [
        // ICANN second levels not of the generic form.
        "me.uk", "ltd.uk", "plc.uk", "id.au", "asn.au", "ne.jp", "or.jp", "lg.jp", "ad.jp",
        "gr.jp", "ed.jp", "com.cn", "net.cn", "org.cn", "gov.cn",
        // Hosting platforms (the PSL's private section): each subdomain is another site.
        "github.io", "gitlab.io", "pages.dev", "workers.dev", "web.app", "firebaseapp.com",
        "appspot.com", "blogspot.com", "herokuapp.com", "netlify.app", "vercel.app",
        "azurewebsites.net", "cloudfront.net", "onrender.com", "fly.dev",
    ]

    /// Second-level labels that, under a two-letter country-code TLD, are taken for a
    /// registry (`co.uk`, `com.br`, `org.au`, `gov.in`, `ac.jp`, …).
    static let genericSecondLevels: Set<String> = [
        "ac", "biz", "co", "com", "edu", "gen", "go", "gob", "gov", "info", "mil", "ne", "net",
        "nic", "nom", "or", "org", "sch",
    ]

    /// The label of `host` (lower case, no trailing dot).
    static func label(ofHost host: String) -> String {
        if host.hasPrefix("[") || host.allSatisfy({ $0 == "." || ($0.isASCII && $0.isNumber) }) {
            return host
        }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count > 1 else { return host }
        var suffixLength = 1
        for length in stride(from: min(3, labels.count), through: 2, by: -1)
        where multiLabelSuffixes.contains(labels.suffix(length).joined(separator: ".")) {
            suffixLength = length
            break
        }
        if suffixLength == 1, labels.count >= 2, labels[labels.count - 1].count == 2,
            genericSecondLevels.contains(String(labels[labels.count - 2]))
        {
            suffixLength = 2
        }
        guard labels.count > suffixLength else { return host }
        return String(labels[labels.count - suffixLength - 1])
    }
}
