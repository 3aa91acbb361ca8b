// The metadata service as a server uses it, through its own product: the production BLOB
// (../shared/mds, judged at a time its chain was valid) served by a transport of the server's
// own, verified and cached; then a second service that cannot fetch keeps serving the cached
// BLOB. Exits 1 on any difference.
import Fido2MetadataService
import Fido2WebAuthn
import Foundation

/// Serves one file's bytes for any URL, or fails as a network outage would.
struct FileTransport: MetadataTransport {
    let path: String?

    func fetch(_ url: URL, maximumBytes: Int, timeout: Duration) async throws -> [UInt8] {
        guard let path, let data = FileManager.default.contents(atPath: path),
            data.count <= maximumBytes
        else {
            throw URLError(.notConnectedToInternet)
        }
        return Array(data)
    }
}

func check(_ condition: Bool, _ what: String) {
    guard condition else {
        FileHandle.standardError.write(Data("metadata consumer: \(what)\n".utf8))
        exit(1)
    }
}

let arguments = CommandLine.arguments
check(arguments.count == 2, "usage: MetadataConsumer MDS-DIRECTORY")
let blobPath = arguments[1] + "/mds3-blob-31.jwt"
let cache = FileManager.default.temporaryDirectory.appendingPathComponent(
    "fido2kit-consumer-mds-\(getpid())")
defer { try? FileManager.default.removeItem(at: cache) }
// 2023-09-15: before the BLOB's nextUpdate and while its signer's certificate was valid.
let pinnedTime: Int64 = 1_694_736_000

let online = MetadataService(
    configuration: .init(
        cacheDirectory: cache, clock: { pinnedTime }, transport: FileTransport(path: blobPath)))
let first = await online.start()
check(online.blob?.number == 31, "the fetched BLOB is not served: \(first)")
check(online.blob?.entries.count == 174, "the BLOB does not have its 174 entries")
check(!first.contains(where: \.isFailure), "a refresh reported a failure: \(first)")

let offline = MetadataService(
    configuration: .init(
        cacheDirectory: cache, clock: { pinnedTime }, transport: FileTransport(path: nil)))
// Before the BLOB's nextUpdate no fetch is due: the cached BLOB is served as it is.
let second = await offline.start()
check(offline.blob?.number == 31, "the cached BLOB is not served offline: \(second)")
check(!second.contains(where: \.isFailure), "loading the cache reported a failure: \(second)")
// A refresh forced while the network is down is reported, and the last good BLOB stays.
let third = await offline.refresh()
check(offline.blob?.number == 31, "the failed fetch dropped the last good BLOB: \(third)")
check(third.contains(where: \.isFailure), "the failed fetch was not reported: \(third)")
print("metadata consumer: BLOB 31 fetched, verified, cached and served offline")
