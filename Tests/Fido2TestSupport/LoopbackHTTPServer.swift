import Fido2Support
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 for the client's wire tests: one thread accepting
/// connections, one request per connection, answered by `reply` (or never answered, to make
/// the client time out). It records every request it read.
public final class LoopbackHTTPServer: Sendable {
    /// What the server read.
    public struct Request: Sendable {
        /// The method.
        public let method: String
        /// The request target.
        public let target: String
        /// The headers, names as read.
        public let headers: [String: String]
        /// The body.
        public let body: [UInt8]

        /// The value of the header `name`, compared without regard to case.
        public func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }
    }

    /// What the server does with a request.
    public enum Reply: Sendable {
        /// Answers with a status, headers and body.
        case answer(status: Int, headers: [String: String], body: [UInt8])
        /// Reads the request and never answers (until the server stops).
        case hang
        /// Answers 200 with a body of `bytes` spaces, announced whole and sent a byte every
        /// `interval` (on a thread of its own): a server that is never silent long enough for
        /// an idle time-out.
        case trickle(bytes: Int, interval: Duration)

        /// A JSON or text answer.
        public static func answer(
            _ status: Int, _ body: String, headers: [String: String] = [:]
        )
            -> Reply
        {
            .answer(status: status, headers: headers, body: Array(body.utf8))
        }
    }

    /// The port it listens on.
    public let port: Int
    /// The base URL, `http://127.0.0.1:<port>`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    private let listener: Int32
    private let reply: @Sendable (Request) -> Reply
    private let recorded = LockedState<[Request]>([])
    private let hanging = LockedState<[Int32]>([])
    private let stopped = LockedState(false)

    /// Every request read so far.
    public var requests: [Request] { recorded.withLock { $0 } }

    /// The requests read once there are at least `count`, or those read when `limit` has
    /// passed: the accepting thread may not have run yet when a client gave up (a time-out
    /// while the whole suite loads both cores), and a client that wrongly retried would only
    /// show its second request later.
    public func requests(
        atLeast count: Int, within limit: Duration = .seconds(60)
    ) async -> [Request] {
        let deadline = ContinuousClock.now + limit
        while requests.count < count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return requests
    }

    /// A server answering with `reply`.
    public init(reply: @escaping @Sendable (Request) -> Reply) throws {
        let (socket, port) = try Self.bind(listening: true)
        self.listener = socket
        self.port = port
        self.reply = reply
        let thread = Thread { [self] in self.acceptLoop() }
        thread.start()
    }

    /// A port on 127.0.0.1 with nothing listening: connecting to it is refused.
    public static func refusingPort() throws -> Int {
        let (socket, port) = try bind(listening: false)
        close(socket)
        return port
    }

    /// Stops listening and closes the connections left hanging, once. The listener is shut
    /// down here and closed by the accepting thread when its `accept` fails: closing it here
    /// (or twice, as `deinit` after `stop()` did) let a descriptor number that another test had
    /// reused be closed or accepted on (seen: a concurrent test's listener, whose next
    /// connection was refused).
    public func stop() {
        let first = stopped.withLock { (done: inout Bool) -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        for connection in hanging.withLock({ $0 }) { close(connection) }
    }

    deinit { stop() }

    private static func bind(listening: Bool) throws -> (Int32, Int) {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(socket, $0, length)
            }
        }
        guard bound == 0, !listening || listen(socket, 16) == 0 else {
            close(socket)
            throw POSIXError(.EADDRINUSE)
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(socket, $0, &length)
            }
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                let transient = errno == EINTR || errno == ECONNABORTED
                if transient, !stopped.withLock({ $0 }) { continue }
                close(listener)
                return
            }
            guard let request = read(connection) else {
                close(connection)
                continue
            }
            recorded.withLock { $0.append(request) }
            switch reply(request) {
            case .hang:
                hanging.withLock { $0.append(connection) }
            case .trickle(let bytes, let interval):
                let head =
                    "HTTP/1.1 200 OK\r\nContent-Length: \(bytes)\r\nConnection: close\r\n\r\n"
                Thread.detachNewThread { [self] in
                    write(connection, Array(head.utf8))
                    for _ in 0..<bytes where !stopped.withLock({ $0 }) {
                        Thread.sleep(forTimeInterval: Self.seconds(interval))
                        guard write(connection, [0x20]) else { break }
                    }
                    close(connection)
                }
            case .answer(let status, let headers, let body):
                var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\n"
                head += "Connection: close\r\n"
                for (name, value) in headers { head += "\(name): \(value)\r\n" }
                write(connection, Array((head + "\r\n").utf8) + body)
                close(connection)
            }
        }
    }

    /// Sends all of `bytes`; false when the connection failed first.
    @discardableResult
    private func write(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    private func read(_ connection: Int32) -> Request? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headerEnd: Int?
        var contentLength = 0
        while true {
            if headerEnd == nil, let end = data.firstRange(of: separator)?.upperBound {
                headerEnd = end
                let head = String(decoding: data[..<end], as: UTF8.self)
                for line in head.split(separator: "\r\n") {
                    let parts = line.split(separator: ":", maxSplits: 1)
                    if parts.count == 2, parts[0].lowercased() == "content-length" {
                        contentLength = Int(parts[1].trimmingCharacters(in: .whitespaces)) ?? 0
                    }
                }
            }
            if let headerEnd, data.count >= headerEnd + contentLength { break }
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            data += buffer[..<count]
        }
        guard let headerEnd else { return nil }
        let lines = String(decoding: data[..<headerEnd], as: UTF8.self).split(separator: "\r\n")
        let requestLine = lines.first?.split(separator: " ") ?? []
        guard requestLine.count >= 2 else { return nil }
        var headers = [String: String]()
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 {
                headers[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers,
            body: Array(data[headerEnd..<(headerEnd + contentLength)]))
    }
}
