/// Random bytes from the system's cryptographically secure source (`getrandom` on Linux), for
/// user handles and session IDs.
enum RandomBytes {
    /// `count` random bytes.
    static func make(count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}
