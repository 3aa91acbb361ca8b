/// A username as the server accepts it: 1 to 64 characters after trimming surrounding white
/// space, none of them a control character. It is the `user.name` and `user.displayName` of
/// the creation options, so the authenticator shows it; the user handle is separate and
/// random (``UserRow/userHandle``).
struct Username: Sendable, Hashable, CustomStringConvertible {
    /// The most characters a username has.
    static let maximumLength = 64

    /// The username, trimmed.
    let value: String

    /// Accepts `text`, trimmed.
    ///
    /// - Throws: ``ServerError`` `invalidRequest` for an empty or overlong name, or one with a
    ///   control character.
    init(_ text: String) throws(ServerError) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else {
            throw .invalidRequest("the username is empty")
        }
        guard trimmed.count <= Self.maximumLength else {
            throw .invalidRequest("a username has at most \(Self.maximumLength) characters")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalidRequest("the username has a control character")
        }
        value = trimmed
    }

    var description: String { value }
}

extension String {
    /// The string without white space (and line breaks) at either end.
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
