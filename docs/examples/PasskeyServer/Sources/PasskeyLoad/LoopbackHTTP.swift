#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One keep-alive HTTP/1.1 connection to a loopback server, blocking, for one client thread:
/// the smallest client that measures the server rather than itself. It sends POSTs of JSON and
/// reads answers with `Content-Length` (what the passkey server sends), at most 1 MiB each.
final class LoopbackHTTP {
    /// An answer: status, the session cookie it set (if any) and the body.
    struct Answer {
        let status: Int
        let sessionCookie: String?
        let body: [UInt8]
    }

    /// Why a request failed below HTTP.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let host: String
    private let port: UInt16
    private var socket: Int32 = -1
    private var buffer: [UInt8] = []

    /// A client of `127.0.0.1:port` (the host header says `host`); connects on first use.
    init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    deinit { close() }

    /// Closes the connection; the next request opens another.
    func close() {
        if socket >= 0 { _ = Glibc.close(socket) }
        socket = -1
        buffer.removeAll(keepingCapacity: true)
    }

    private func connect() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            _ = Glibc.close(descriptor)
            throw Failure(description: "connect to port \(port): errno \(errno)")
        }
        var one: Int32 = 1
        _ = setsockopt(
            descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        // A server that stops answering fails the request in 10 s instead of hanging the run.
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(
            descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        socket = descriptor
    }

    /// POSTs `body` as JSON to `path` with session cookie `cookie`; reconnects once when a
    /// kept-alive connection was closed by the server.
    func post(_ path: String, body: [UInt8], cookie: String?) throws -> Answer {
        do {
            return try exchange(path, body: body, cookie: cookie)
        } catch {
            close()
            return try exchange(path, body: body, cookie: cookie)
        }
    }

    private func exchange(_ path: String, body: [UInt8], cookie: String?) throws -> Answer {
        if socket < 0 { try connect() }
        var head = "POST \(path) HTTP/1.1\r\nHost: \(host)\r\nContent-Type: application/json\r\n"
        head += "Content-Length: \(body.count)\r\n"
        if let cookie { head += "Cookie: passkey_session=\(cookie)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
        return try readAnswer()
    }

    private func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { raw in
                Glibc.send(socket, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
            sent += count
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(socket, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { throw Failure(description: "connection closed (errno \(errno))") }
        buffer.append(contentsOf: chunk[0..<count])
        guard buffer.count <= 1 << 20 else { throw Failure(description: "answer over 1 MiB") }
    }

    private func readAnswer() throws -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if buffer.count >= 4 {
                headEnd = (0...(buffer.count - 4)).first {
                    buffer[$0..<($0 + 4)].elementsEqual(separator)
                }
            }
            if headEnd == nil { try fill() }
        }
        guard let headEnd else { throw Failure(description: "no head") }
        let head = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let statusLine = lines.first, statusLine.count >= 12,
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { throw Failure(description: "bad status line: \(lines.first ?? "")") }
        var length = 0
        var cookie: String?
        for line in lines.dropFirst() {
            let lower = line.lowercased()
            if lower.hasPrefix("content-length:") {
                length = Int(String(line.dropFirst(15).filter { $0 != " " })) ?? 0
            } else if lower.hasPrefix("set-cookie:"), let start = line.range(of: "passkey_session=")
            {
                cookie = String(line[start.upperBound...].prefix { $0 != ";" })
            }
        }
        let total = headEnd + 4 + length
        while buffer.count < total { try fill() }
        let body = Array(buffer[(headEnd + 4)..<total])
        buffer.removeFirst(total)
        return Answer(status: status, sessionCookie: cookie, body: body)
    }
}
