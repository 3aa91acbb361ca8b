/// How ``JSONWriter`` escapes the characters of a string. Both styles escape only what they
/// must (`"`, `\` and U+0000–U+001F) and write everything else as raw UTF-8; they differ in how
/// control characters look.
public enum JSONStringEscaping: Sendable, Hashable {
    /// What JavaScript's `JSON.stringify` emits: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, and
    /// `\u00xx` (lower-case hex) for the other control characters. (`JSON.stringify` also
    /// escapes lone surrogates, which a Swift `String` cannot hold.)
    case javaScript
    /// What WebAuthn's CCDToString emits for clientDataJSON's `type`, `challenge`, `origin` and
    /// `topOrigin`: `\"`, `\\`, and `\u00xx` (lower-case hex) for every control character,
    /// including those `JSON.stringify` writes as `\n` and the like.
    case ccdToString
}
