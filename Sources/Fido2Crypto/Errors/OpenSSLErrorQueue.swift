import COpenSSL

/// Access to OpenSSL's per-thread error queue. Every failure path drains it so that a stale
/// entry never leaks into the report of a later, unrelated failure.
enum OpenSSLErrorQueue {
    /// At most this many entries are kept; the rest are discarded.
    private static let limit = 16

    /// Removes every entry from the queue and returns their texts, oldest first.
    static func drain() -> [String] {
        var texts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            guard texts.count < limit else { continue }
            let text = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { buffer in
                guard let base = buffer.baseAddress else { return "error \(code)" }
                ERR_error_string_n(code, base, buffer.count)
                return String(cString: base)
            }
            texts.append(text)
        }
        return texts
    }

    /// Empties the queue after an expected failure (a signature that does not verify).
    static func clear() {
        ERR_clear_error()
    }
}
