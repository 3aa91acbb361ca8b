import Foundation
import Hummingbird

/// The page at `/` and the two files it loads, read once at start-up from the target's
/// resources (`Page/`) and served from memory. The page loads nothing from elsewhere: its
/// Content-Security-Policy allows this origin only.
struct PageRoutes: Sendable {
    /// One file of the page.
    struct Asset: Sendable {
        /// The path it is served at.
        let path: String
        /// Its `Content-Type`.
        let contentType: String
        /// Its bytes.
        let body: ByteBuffer
    }

    /// The policy every file is served with: scripts, styles and requests from this origin
    /// only, no framing.
    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
        + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The files: `/` (index.html), `/passkeys.js`, `/style.css`.
    let assets: [Asset]

    /// Reads the page's files from the bundle.
    ///
    /// - Throws: ``ServerError`` `corruptData` when a file is missing from the bundle.
    init() throws(ServerError) {
        let files: [(path: String, name: String, type: String)] = [
            ("/", "index.html", "text/html; charset=utf-8"),
            ("/passkeys.js", "passkeys.js", "text/javascript; charset=utf-8"),
            ("/style.css", "style.css", "text/css; charset=utf-8"),
        ]
        var assets: [Asset] = []
        for file in files {
            guard let url = Bundle.module.url(forResource: "Page/\(file.name)", withExtension: nil)
            else { throw .corruptData("the page", "\(file.name) is not in the bundle") }
            do {
                let bytes = try Data(contentsOf: url)
                assets.append(
                    Asset(path: file.path, contentType: file.type, body: ByteBuffer(bytes: bytes)))
            } catch {
                throw .corruptData("the page", error)
            }
        }
        self.assets = assets
    }

    /// Adds a `GET` route per file to `router`.
    func addRoutes(to router: Router<PasskeyRequestContext>) {
        for asset in assets {
            router.get(RouterPath(asset.path)) { _, _ in
                Response(
                    status: .ok,
                    headers: [
                        .contentType: asset.contentType, .cacheControl: "no-cache",
                        .contentSecurityPolicy: Self.contentSecurityPolicy,
                        .xContentTypeOptions: "nosniff",
                    ],
                    body: ResponseBody(byteBuffer: asset.body))
            }
        }
    }
}
