/// The one error type of `Fido2WebAuthn`: malformed WebAuthn JSON and client data today, and
/// authenticator data, attestation, authenticator and relying-party failures as those parts
/// grow.
///
/// Every error names where it happened: ``field`` is a path into the input
/// (`response.clientDataJSON`, `pubKeyCredParams[2].alg`), ``step`` a procedure step (for
/// example `§7.1 step 11`), ``offset`` a byte offset. Compare errors by ``code``; ``reason`` is
/// prose for people and may change.
public struct WebAuthnError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is. New codes are added as the module grows, so switch over
    /// codes with a `default` branch.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// Add new codes here, one group per concern, each with a `static let` below.
        private enum Kind: String, Sendable, Hashable {
            // MARK: JSON forms and client data
            case malformedJSON
            case missingMember
            case wrongType
            case invalidBase64URL
            case invalidValue
        }

        private let kind: Kind

        private init(_ kind: Kind) { self.kind = kind }

        /// The input is not well-formed JSON (or breaks the reader's limits); ``offset`` points
        /// at the problem.
        public static let malformedJSON = Code(.malformedJSON)
        /// A required member is absent; ``field`` names it.
        public static let missingMember = Code(.missingMember)
        /// A member has the wrong JSON type (a number where a string belongs, say).
        public static let wrongType = Code(.wrongType)
        /// A member that must hold unpadded base64url does not.
        public static let invalidBase64URL = Code(.invalidBase64URL)
        /// A member has the right type but a value that is not allowed (a credential `type`
        /// other than `public-key`, an `id` that does not match `rawId`, an integer out of
        /// range, a reserved or repeated client data member name).
        public static let invalidValue = Code(.invalidValue)

        /// The code's name, such as `missingMember`.
        public var description: String { kind.rawValue }
    }

    /// What kind of failure this is.
    public let code: Code
    /// A human-readable explanation.
    public let reason: String
    /// The path of the offending member in the input, such as `response.clientDataJSON`.
    public let field: String?
    /// The procedure step that failed, such as `§7.1 step 11`.
    public let step: String?
    /// A byte offset in the input (JSON text, binary structure) where the problem was found.
    public let offset: Int?

    /// Makes an error; every part of this module reports failures through it.
    init(
        _ code: Code, _ reason: String, field: String? = nil, step: String? = nil,
        offset: Int? = nil
    ) {
        self.code = code
        self.reason = reason
        self.field = field
        self.step = step
        self.offset = offset
    }

    /// The same error seen from one level up: `component` (a member name or `[index]`) goes in
    /// front of ``field``. Readers of nested values add their part of the path only when an
    /// error passes through them, so successful reads never build path strings.
    func prefixingField(_ component: String) -> WebAuthnError {
        guard !component.isEmpty else { return self }
        let path: String
        if let field {
            path = field.hasPrefix("[") ? component + field : component + "." + field
        } else {
            path = component
        }
        return WebAuthnError(code, reason, field: path, step: step, offset: offset)
    }

    /// `[step: ][field: ]reason[ at offset N]`, for example
    /// `response.clientDataJSON: expected a base64url string, found a number`.
    public var description: String {
        var text = ""
        if let step { text += step + ": " }
        if let field { text += field + ": " }
        text += reason
        if let offset { text += " at offset \(offset)" }
        return text
    }
}
