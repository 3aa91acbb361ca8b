import ArgumentParser
import Fido2Crypto
import Fido2MetadataService
import Fido2WebAuthn
import Foundation

/// `fido2kit mds fetch`: one refresh of a metadata service cache.
struct MDSFetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Fetch a metadata BLOB, verify it and keep it in a cache directory.",
        discussion: """
            Loads the BLOB cached in --cache (blob.jwt) when it still verifies, fetches --url, \
            verifies the BLOB against --root (the shipped GlobalSign Root CA - R3 without it) \
            and replaces the cached one only when its no is greater. Prints one line per event \
            (loaded, updated, unchanged, rollback refused, fetch or verification failed); \
            exits 0 when a verified BLOB is held at the end (the last good one when the fetch \
            failed), 1 when none is.
            """
    )

    @Option(help: "The BLOB's URL (default https://mds3.fidoalliance.org/).")
    var url: String = MetadataService.fidoAllianceURL.absoluteString

    @Option(help: "The cache directory (created when missing).")
    var cache: String

    @Option(help: "A PEM file of the root(s) the BLOB's x5c chain must verify to.")
    var root: String?

    func validate() throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? "")
        else { throw ValidationError("--url is not an http(s) URL: \(url)") }
        guard !cache.isEmpty else { throw ValidationError("--cache is empty") }
    }

    func run() async throws {
        var anchors: [Certificate]?
        var held: Int64?
        try failingCleanly {
            if let root {
                let text = try InputFile.readText(root, limit: .pem)
                do {
                    anchors = try Certificate.certificates(pemEncoded: text)
                } catch {
                    throw CommandFailure("\(root): \(error)")
                }
            }
        }
        guard let target = URL(string: url) else { throw ValidationError("--url: \(url)") }
        let service = MetadataService(
            configuration: MetadataService.Configuration(
                url: target, cacheDirectory: URL(fileURLWithPath: cache),
                verification: MetadataBLOB.VerificationOptions(trustAnchors: anchors),
                onEvent: { StandardStreams.print("\($0)") }))
        await service.start()
        held = service.blob?.number
        if service.blob != nil, service.nextRefreshTime > Int64(Date().timeIntervalSince1970) {
            // Loaded from the cache and not due: fetch anyway, as asked.
            await service.refresh()
            held = service.blob?.number
        }
        try failingCleanly {
            guard held != nil else { throw CommandFailure("no verified BLOB is held in \(cache)") }
        }
    }
}
