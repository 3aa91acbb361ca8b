import Fido2Crypto
import Fido2MetadataService
import Fido2Support
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Foundation
import Testing

/// A settable clock in seconds since the epoch.
final class TestClock: Sendable {
    private let time: LockedState<Int64>
    init(_ start: Int64) { time = LockedState(start) }
    var now: Int64 { time.withLock { $0 } }
    func set(_ value: Int64) { time.withLock { $0 = value } }
}

/// What the loopback server answers: a body, or a status.
final class BLOBSource: Sendable {
    private let body = LockedState<[UInt8]?>(nil)
    func serve(_ bytes: [UInt8]?) { body.withLock { $0 = bytes } }
    func reply() -> LoopbackHTTPServer.Reply {
        if let bytes = body.withLock({ $0 }) {
            return .answer(status: 200, headers: ["Content-Type": "application/jwt"], body: bytes)
        }
        return .answer(404, "no BLOB")
    }
}

/// The metadata service against a loopback HTTP server serving BLOBs signed under the tests'
/// root, with an injected clock, and the production BLOB no. 31 at its own time.
@Suite struct MetadataServiceTests {
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fido2kit-mds-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func entry(_ description: String, status: String = "FIDO_CERTIFIED_L1") -> String {
        TestMetadataService.entry(
            aaguid: AAGUID(uuidString: "00112233-4455-6677-8899-aabbccddeeff"), roots: [],
            statuses: [status], description: description)
    }

    struct Harness {
        let pki: TestMetadataService
        let source = BLOBSource()
        let server: LoopbackHTTPServer
        let clock = TestClock(TestMetadataService.validationTime)
        let events = LockedState<[MetadataServiceEvent]>([])
        let directory: URL
        let service: MetadataService

        init(directory: URL? = nil, pki: TestMetadataService? = nil) throws {
            self.pki = try pki ?? TestMetadataService()
            let source = source
            server = try LoopbackHTTPServer { _ in source.reply() }
            self.directory = try directory ?? MetadataServiceTests.temporaryDirectory()
            let clock = clock
            let events = events
            service = MetadataService(
                configuration: MetadataService.Configuration(
                    url: server.baseURL.appendingPathComponent("blob"),
                    cacheDirectory: self.directory,
                    verification: MetadataBLOB.VerificationOptions(
                        trustAnchors: [self.pki.root.certificate]),
                    clock: { clock.now }, retryInterval: 60, timeout: .seconds(20),
                    onEvent: { event in events.withLock { $0.append(event) } }))
        }

        func blob(_ number: Int, _ description: String = "model") throws -> [UInt8] {
            try pki.blob(number: number, entries: [MetadataServiceTests.entry(description)])
        }

        var cached: [UInt8]? {
            try? [UInt8](Data(contentsOf: directory.appendingPathComponent("blob.jwt")))
        }
    }

    @Test func keepsTheRightBLOBThroughNewerOlderEqualTamperedAndGone() async throws {
        let harness = try Harness()
        let service = harness.service
        #expect(await service.start().map(\.description).first == "no cached BLOB")
        #expect(service.blob == nil)

        // N
        let five = try harness.blob(5, "five")
        harness.source.serve(five)
        var events = await service.refresh()
        guard case .updated(5, nil) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(service.blob?.number == 5)
        #expect(harness.cached == five)

        // N + 1
        let six = try harness.blob(6, "six")
        harness.source.serve(six)
        events = await service.refresh()
        guard case .updated(6, 5) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(service.blob?.entries.first?.description == "six")
        #expect(harness.cached == six)

        // N − 1: a rollback, refused; the held one and the cache stay.
        harness.source.serve(five)
        events = await service.refresh()
        guard case .rollbackRefused(5, 6) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(service.blob?.number == 6)
        #expect(harness.cached == six)

        // The same N again (re-signed: other bytes, same number): kept, not refused.
        harness.source.serve(try harness.blob(6, "six again"))
        events = await service.refresh()
        guard case .unchanged(6) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(!(events.first?.isFailure ?? true))
        #expect(service.blob?.entries.first?.description == "six")
        #expect(harness.cached == six)

        // Tampered: a newer number in the payload under the old signature.
        let seven = try harness.blob(7, "seven")
        var parts = String(decoding: seven, as: UTF8.self).split(separator: ".").map(String.init)
        parts[1] = String(parts[1].dropLast(2)) + (parts[1].hasSuffix("AA") ? "AB" : "AA")
        harness.source.serve(Array(parts.joined(separator: ".").utf8))
        events = await service.refresh()
        guard case .verificationFailed(let error, 6) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(error.code == .metadataSignatureInvalid || error.code == .metadataInvalid)
        #expect(service.blob?.number == 6)

        // A BLOB under another root: refused too.
        harness.source.serve(try TestMetadataService().blob(number: 8, entries: []))
        events = await service.refresh()
        guard case .verificationFailed(let other, 6) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(other.code == .metadataTrustPathInvalid)

        // An HTTP error, then nothing: the server is gone.
        harness.source.serve(nil)
        events = await service.refresh()
        guard case .fetchFailed(let notFound, 6) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(notFound.code == .httpStatus && notFound.httpStatus == 404)
        harness.server.stop()
        events = await service.refresh()
        guard case .fetchFailed(let gone, 6) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(gone.code == .network)
        #expect(service.blob?.number == 6)
        #expect(harness.cached == six)
        // Every outcome was also reported to the callback, in order.
        #expect(harness.events.withLock { $0.count } == 10)
    }

    @Test func refreshesAtNextUpdateByTheClock() async throws {
        let harness = try Harness()
        let service = harness.service
        // nextUpdate 2025-08-01 (TestMetadataService's default), validation time 2025-07-02.
        harness.source.serve(try harness.blob(5))
        #expect(await service.refreshIfDue() != nil)  // nothing held: due at once
        let nextUpdate = try #require(service.blob?.nextUpdateTime)
        #expect(service.nextRefreshTime == nextUpdate)
        harness.source.serve(try harness.blob(6))
        #expect(await service.refreshIfDue() == nil)
        #expect(harness.server.requests.count == 1)
        #expect(!service.isStale)

        // At nextUpdate: fetched. The server still serves a BLOB due that same day, now stale.
        harness.clock.set(nextUpdate + 1)
        #expect(service.isStale)
        let events = try #require(await service.refreshIfDue())
        guard case .verificationFailed(let error, 5) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(error.code == .metadataStale)
        // The last good one is still served, stale; the next attempt waits for the retry.
        #expect(service.blob?.number == 5)
        #expect(service.nextRefreshTime == nextUpdate + 1 + 60)
        #expect(await service.refreshIfDue() == nil)
        harness.source.serve(try harness.pki.blob(number: 6, nextUpdate: "2025-09-01", entries: []))
        harness.clock.set(nextUpdate + 61)
        let later = try #require(await service.refreshIfDue())
        guard case .updated(6, 5) = later.first else {
            Issue.record("\(later)")
            return
        }
        #expect(!service.isStale)
    }

    @Test func servesTheCachedBLOBAfterARestartAndRefusesABadCache() async throws {
        let pki = try TestMetadataService()
        let directory = try Self.temporaryDirectory()
        let first = try Harness(directory: directory, pki: pki)
        first.source.serve(try first.blob(9, "nine"))
        await first.service.refresh()
        first.server.stop()

        // A new process: the cache is served before any fetch, and a failed fetch keeps it.
        let second = try Harness(directory: directory, pki: pki)
        second.clock.set(TestMetadataService.validationTime + 86_400)
        let events = await second.service.start()
        guard case .loadedFromCache(9, "2025-08-01", false) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(events.count == 1)  // not due: no fetch
        #expect(second.service.blob?.entries.first?.description == "nine")
        // An older BLOB from the server is a rollback against the cached one.
        second.source.serve(try second.blob(8))
        let refused = await second.service.refresh()
        guard case .rollbackRefused(8, 9) = refused.first else {
            Issue.record("\(refused)")
            return
        }

        // A cache under another root is not served.
        let third = try Harness(directory: directory)
        guard case .cacheRejected = await third.service.start().first else {
            Issue.record("the cache verified under another root")
            return
        }
        #expect(third.service.blob == nil)

        // A truncated cache is not served either; no temporary files are left behind.
        let file = directory.appendingPathComponent("blob.jwt")
        try Data(try #require(first.cached).prefix(100)).write(to: file)
        let fourth = try Harness(directory: directory, pki: pki)
        guard case .cacheRejected = await fourth.service.start().first else {
            Issue.record("a truncated cache was served")
            return
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["blob.jwt"])
    }

    /// A cache write that failed is made again by the next refresh, even when that refresh
    /// fetches the same BLOB: else a restart would load the older file, or none.
    @Test func aFailedCacheWriteIsMadeAgainByTheNextRefresh() async throws {
        // The cache directory's path is taken by a file: the directory cannot be made (also
        // as root, which file modes would not stop).
        let parent = try Self.temporaryDirectory()
        let directory = parent.appendingPathComponent("cache")
        try Data("not a directory".utf8).write(to: directory)
        let harness = try Harness(directory: directory)
        let seven = try harness.blob(7)
        harness.source.serve(seven)
        var events = await harness.service.refresh()
        guard case .updated(7, nil) = events.first, case .cacheWriteFailed = events.last else {
            Issue.record("\(events)")
            return
        }
        try FileManager.default.removeItem(at: directory)
        events = await harness.service.refresh()
        guard case .unchanged(7) = events.first, events.count == 1 else {
            Issue.record("\(events)")
            return
        }
        #expect(harness.cached == seven)
        // Written once: a third refresh of the same BLOB leaves the file alone.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("blob.jwt"))
        _ = await harness.service.refresh()
        #expect(harness.cached == nil)
    }

    /// A server that sends a byte every 100 ms (20 s in all) is cut off at the 1 s time-out:
    /// the deadline bounds the whole download, not the silence between two bytes.
    @Test func aTricklingDownloadTimesOut() async throws {
        let server = try LoopbackHTTPServer { _ in
            .trickle(bytes: 200, interval: .milliseconds(100))
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("blob.jwt")
        do {
            _ = try await URLSessionMetadataTransport().fetch(
                url, maximumBytes: 1 << 20, timeout: .seconds(1))
            Issue.record("the trickling download was not cut off")
        } catch let error as MetadataServiceError {
            #expect(error.code == .network)
            #expect(error.reason.contains("timed out after"))
        }
    }

    @Test func refusesADownloadOverTheSizeLimit() async throws {
        let harness = try Harness()
        harness.source.serve(try harness.blob(5))
        var configuration = harness.service.configuration
        configuration.verification.maximumSize = 64
        let small = MetadataService(configuration: configuration)
        let events = await small.refresh()
        guard case .fetchFailed(let error, nil) = events.first else {
            Issue.record("\(events)")
            return
        }
        #expect(error.code == .responseTooLarge)
        #expect(small.blob == nil)
    }

    @Test func concurrentReadersSeeAVerifiedBLOBDuringRefreshes() async throws {
        let harness = try Harness()
        harness.source.serve(try harness.blob(5))
        await harness.service.refresh()
        let service = harness.service
        await withTaskGroup(of: Void.self) { group in
            for number in 6..<10 {
                let bytes = try? harness.blob(number)
                group.addTask {
                    harness.source.serve(bytes)
                    await service.refresh()
                }
            }
            for _ in 0..<200 {
                group.addTask { #expect((service.blob?.number ?? 0) >= 5) }
            }
        }
        #expect((service.blob?.number ?? 0) >= 6)
    }

    @Test func theProductionBLOBAtItsOwnTime() async throws {
        let bytes = [UInt8](try SharedVectors.data("../mds/mds3-blob-31.jwt"))
        let source = BLOBSource()
        source.serve(bytes)
        let server = try LoopbackHTTPServer { _ in source.reply() }
        defer { server.stop() }
        let clock = TestClock(1_694_736_000)  // 2023-09-15: signer valid, nextUpdate ahead
        let service = MetadataService(
            configuration: MetadataService.Configuration(
                url: server.baseURL, cacheDirectory: try Self.temporaryDirectory(),
                clock: { clock.now }))
        let events = await service.start()
        guard case .updated(31, nil) = events.last else {
            Issue.record("\(events)")
            return
        }
        #expect(service.blob?.entries.count == 174)
        #expect(service.nextRefreshTime == 1_696_118_400)
        // At today's date its signer has expired: a fresh service refuses it.
        let today = MetadataService(
            configuration: MetadataService.Configuration(
                url: server.baseURL, cacheDirectory: try Self.temporaryDirectory()))
        guard case .verificationFailed(let error, nil) = await today.refresh().first else {
            Issue.record("the production BLOB verified today")
            return
        }
        #expect(error.code == .metadataTrustPathInvalid)
    }
}
