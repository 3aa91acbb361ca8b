import Foundation

/// The body of `POST /enrollments/complete-redirection/`: hand Belvo what the bank returned.
///
/// ```json
/// {"state": "…", "code": "…", "id_token": "…"}
/// ```
/// Built from the callback URL the bank redirected to (the SDK's
/// `completeEnrollmentAfterRedirection(callbackUrl:)`) or from the three values
/// (`(state:code:idToken:)`).
public struct BelvoCompleteRedirectionRequest: Sendable, Hashable {
    /// The OAuth `state` echoed by the bank.
    public let state: String
    /// The authorization `code`.
    public let code: String
    /// The OpenID Connect `id_token`.
    public let idToken: String

    /// A request from the three values.
    ///
    /// - Throws: ``BelvoError/Code/missingCallbackParameter`` naming the first empty value.
    public init(state: String, code: String, idToken: String) throws {
        for (value, name) in [(state, "state"), (code, "code"), (idToken, "id_token")]
        where value.isEmpty {
            throw BelvoError(
                .missingCallbackParameter, "the callback parameter \(name) is empty", field: name)
        }
        self.state = state
        self.code = code
        self.idToken = idToken
    }

    /// A request from the callback URL the bank redirected to,
    /// `callback_url?state=…&code=…&id_token=…`.
    ///
    /// Parameters are read from the query; when the query carries none of them they are read
    /// from the fragment instead (the OpenID Connect hybrid flow's default response mode).
    /// Percent-escapes are decoded; `+` is kept as a literal plus (RFC 3986 query, not a form).
    ///
    /// - Throws: ``BelvoError/Code/callbackError`` when the bank redirected with `error=` (the
    ///   reason carries `error` and `error_description`);
    ///   ``BelvoError/Code/missingCallbackParameter`` when `state`, `code` or `id_token` is
    ///   absent or empty; ``BelvoError/Code/malformedCallbackURL`` when the URL cannot be parsed
    ///   (a bad percent-escape, a space or control character, parameters that are not UTF-8
    ///   included) or repeats one of these parameters.
    public init(callbackURL: String) throws {
        // Foundation's URLComponents re-encodes a URL with a bad escape instead of refusing it
        // (and traps when such text is assigned to a query), so the query and fragment are split
        // and decoded here, strictly.
        guard URLComponents(string: callbackURL) != nil else {
            throw Self.malformed("the callback URL \"\(callbackURL)\" cannot be parsed")
        }
        let (beforeFragment, fragment) = Self.split(callbackURL, at: "#")
        let query = Self.split(beforeFragment, at: "?").1
        let names: Set = ["state", "code", "id_token", "error", "error_description"]
        var parameters = try Self.parameters(query ?? "", names)
        if parameters.isEmpty, let fragment {
            parameters = try Self.parameters(fragment, names)
        }
        if let error = parameters["error"] {
            var reason = "the bank redirected with error \"\(error)\""
            if let description = parameters["error_description"] {
                reason += ": \(description)"
            }
            throw BelvoError(.callbackError, reason, field: "error")
        }
        for name in ["state", "code", "id_token"] where parameters[name, default: ""].isEmpty {
            throw BelvoError(
                .missingCallbackParameter, "the callback URL has no \(name) parameter", field: name)
        }
        try self.init(
            state: parameters["state", default: ""], code: parameters["code", default: ""],
            idToken: parameters["id_token", default: ""])
    }

    /// The JSON body.
    public var body: [UInt8] {
        JSONBody.object([
            ("state", .string(state)), ("code", .string(code)), ("id_token", .string(idToken)),
        ]).bytes
    }

    /// The values of the parameters in `names` in an `a=b&c=d` string; a repeated one is
    /// ambiguous and refused.
    private static func parameters(
        _ text: String, _ names: Set<String>
    ) throws(BelvoError) -> [String: String] {
        var found = [String: String]()
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let (rawName, rawValue) = split(String(pair), at: "=")
            let name = try decoded(rawName)
            guard names.contains(name) else { continue }
            guard found[name] == nil else {
                throw malformed("the callback URL repeats the parameter \(name)", field: name)
            }
            found[name] = try decoded(rawValue ?? "")
        }
        return found
    }

    /// `text` with its percent-escapes decoded (RFC 3986: `+` stays a plus); a bad escape, a
    /// control character or a space, or bytes that are not UTF-8 make the URL malformed.
    private static func decoded(_ text: String) throws(BelvoError) -> String {
        var bytes = [UInt8]()
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte > 0x20, byte != 0x7F else {
                throw malformed("the callback URL contains a space or control character")
            }
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue),
                let low = iterator.next().flatMap(hexValue)
            else {
                throw malformed("the callback URL contains a bad percent-escape")
            }
            bytes.append(high << 4 | low)
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw malformed("the callback URL's parameters are not UTF-8")
        }
        return string
    }

    private static func hexValue(_ char: UInt8) -> UInt8? {
        switch char {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): char - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): char - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): char - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The text before the first `separator` and the text after it (nil when there is none).
    private static func split(_ text: String, at separator: Character) -> (String, String?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (String(text[..<index]), String(text[text.index(after: index)...]))
    }

    private static func malformed(_ reason: String, field: String = "callbackURL") -> BelvoError {
        BelvoError(.malformedCallbackURL, reason, field: field)
    }
}
