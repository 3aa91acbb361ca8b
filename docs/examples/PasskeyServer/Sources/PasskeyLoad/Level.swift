import Fido2Authenticator
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One level of load: `clients` threads, each with its own connection, and what they measured.
struct Level {
    /// Calls that got 200.
    var successes = 0
    /// Calls that did not (a refusal, a failure or a broken connection).
    var failures = 0
    /// Each successful call's time, in seconds.
    var latencies: [Double] = []
    /// The level's wall time, in seconds.
    var wall = 0.0
    /// The client's own CPU time (user + system) over the level, in seconds.
    var cpu = 0.0

    /// Runs `body` on `clients` threads (index 0..<clients) and gathers what they did.
    static func run(
        clients: Int, ports: [UInt16], origin: String, until deadline: Date?,
        _ body: @escaping @Sendable (Client, Int) throws -> Int
    ) -> Level {
        let collected = Collected()
        let group = DispatchGroup()
        let cpuBefore = Self.processCPU()
        let start = Date()
        for index in 0..<clients {
            group.enter()
            let thread = Thread {
                let client = Client(port: ports[index % ports.count], origin: origin)
                do {
                    _ = try body(client, index)
                } catch {
                    client.failures += 1
                }
                collected.add(client)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        var level = collected.level
        level.wall = Date().timeIntervalSince(start)
        level.cpu = Self.processCPU() - cpuBefore
        return level
    }

    /// This process's user and system CPU time so far, in seconds.
    static func processCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// `quantile` (0...1) of the latencies, in milliseconds.
    func milliseconds(_ quantile: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let sorted = latencies.sorted()
        let index = min(sorted.count - 1, Int((Double(sorted.count) * quantile).rounded(.up)) - 1)
        return sorted[max(0, index)] * 1000
    }

    /// The table's line for this level.
    func line(label: String, clients: Int) -> String {
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        var loads = [Double](repeating: 0, count: 3)
        _ = getloadavg(&loads, 3)
        return [
            label, "\(clients)", String(format: "%.0f", Double(successes) / wall),
            String(format: "%.1f", milliseconds(0.5)), String(format: "%.1f", milliseconds(0.99)),
            String(format: "%.1f", milliseconds(1)), "\(failures)",
            String(format: "%.0f", 100 * cpu / (wall * cores)), String(format: "%.1f", loads[0]),
        ].joined(separator: " | ")
    }
}

/// The threads' results, gathered under a lock.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var gathered = Level()

    func add(_ client: Client) {
        lock.lock()
        defer { lock.unlock() }
        gathered.successes += client.successes
        gathered.failures += client.failures
        gathered.latencies += client.latencies
    }

    var level: Level {
        lock.lock()
        defer { lock.unlock() }
        return gathered
    }
}

/// One client: a connection, a session cookie, and its counts. Used by one thread only.
final class Client {
    let http: LoopbackHTTP
    let origin: String
    var cookie: String?
    var successes = 0
    var failures = 0
    var latencies: [Double] = []

    init(port: UInt16, origin: String) {
        http = LoopbackHTTP(host: "localhost:\(port)", port: port)
        self.origin = origin
    }

    /// A sign-up of `username` with a new credential of `authenticator`; true on 200.
    func signUp(_ username: String, authenticator: SoftwareAuthenticator) throws -> Bool {
        try timed {
            let options = try call(
                "/registration/options", Array("{\"username\":\"\(username)\"}".utf8))
            guard options.status == 200 else { return false }
            let response = try authenticator.makeCredential(
                optionsJSON: options.body, origin: origin)
            return try call("/registration/verify", response.jsonBytes()).status == 200
        }
    }

    /// A sign-in as `username` as a browser does it (options, assertion, verify); true on 200.
    func signIn(_ username: String, authenticator: SoftwareAuthenticator) throws -> Bool {
        try timed {
            let options = try call(
                "/authentication/options", Array("{\"username\":\"\(username)\"}".utf8))
            guard options.status == 200 else { return false }
            let response = try authenticator.getAssertion(
                optionsJSON: options.body, origin: origin)
            return try call("/authentication/verify", response.jsonBytes()).status == 200
        }
    }

    private func call(_ path: String, _ body: [UInt8]) throws -> LoopbackHTTP.Answer {
        let answer = try http.post(path, body: body, cookie: cookie)
        if let fresh = answer.sessionCookie { cookie = fresh }
        return answer
    }

    private func timed(_ body: () throws -> Bool) throws -> Bool {
        let start = DispatchTime.now().uptimeNanoseconds
        let succeeded: Bool
        do {
            succeeded = try body()
        } catch {
            failures += 1
            http.close()
            return false
        }
        if succeeded {
            successes += 1
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        } else {
            failures += 1
        }
        return succeeded
    }
}
