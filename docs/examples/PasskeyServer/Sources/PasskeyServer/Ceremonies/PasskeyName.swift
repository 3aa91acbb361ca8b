/// The name a user gives a passkey: 1 to 64 characters and at most 256 bytes of UTF-8 after
/// trimming (characters alone would let combining marks pile up), with no control, invisible
/// or bidi control character (the page shows it as text, never as HTML).
struct PasskeyName: Sendable {
    /// The most characters a name has.
    static let maximumLength = 64
    /// The most bytes of UTF-8 a name has.
    static let maximumBytes = 256

    /// The name, trimmed.
    let value: String

    /// Accepts `text`, trimmed.
    ///
    /// - Throws: ``ServerError`` `invalidRequest` for an empty or overlong name, or one with a
    ///   control, invisible or bidi control character.
    init(_ text: String) throws(ServerError) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .invalidRequest("the name is empty") }
        guard trimmed.count <= Self.maximumLength, trimmed.utf8.count <= Self.maximumBytes else {
            throw .invalidRequest(
                "a passkey's name has at most \(Self.maximumLength) characters and "
                    + "\(Self.maximumBytes) bytes")
        }
        if let scalar = trimmed.unicodeScalars.first(where: Username.isHidden) {
            throw .invalidRequest("the name has \(Username.describe(scalar))")
        }
        value = trimmed
    }
}
