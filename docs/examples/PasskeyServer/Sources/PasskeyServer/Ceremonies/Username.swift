import Foundation

/// A username as the server keeps it: a documented subset of the PRECIS UsernameCaseMapped
/// profile (RFC 8265 §3.3), so that names that look alike are one account or refused:
///
/// 1. white space at either end is trimmed;
/// 2. width mapping: fullwidth ASCII (`ａｌｉｃｅ`, U+FF01 to U+FF5E) and the ideographic space
///    become their ASCII forms, and halfwidth katakana its fullwidth form (NFKC of the
///    Halfwidth and Fullwidth Forms block, whose compatibility mappings are all width);
/// 3. case mapping: Unicode `toLowerCase` (`Alice` is `alice`);
/// 4. NFC: `José` typed with a combining accent (NFD) is the same name as with `é`;
/// 5. the characters allowed are RFC 8264's IdentifierClass in short: letters, combining
///    marks, decimal digits and printable ASCII other than space; invisible characters
///    (zero-width space and joiners, word joiner, BOM), bidi controls (U+202A to U+202E,
///    U+2066 to U+2069, U+200E, U+200F), other format and control characters, spaces,
///    symbols and non-ASCII punctuation are refused, and so is U+FFFD (what a decoder makes
///    of invalid UTF-8);
/// 6. letters of Latin mixed with Cyrillic or Greek (`аlice` with a Cyrillic `а`) are
///    refused: a small table of those scripts' ranges (Swift has no Unicode script
///    property);
/// 7. at most ``maximumBytes`` bytes of UTF-8, after all that.
///
/// Left out of PRECIS: its full DerivedProperties table (a few letters it disallows pass
/// here), the bidi rule of RFC 5893 (names with right-to-left letters are taken as typed, but
/// no control character can reorder them) and the ZWJ/ZWNJ context rules (both refused).
///
/// The value is the `user.name` and `user.displayName` of the creation options, so the
/// authenticator shows it; the user handle is separate and random (``UserRow/userHandle``).
struct Username: Sendable, Hashable, CustomStringConvertible {
    /// The most bytes of UTF-8 a username has.
    static let maximumBytes = 64

    /// The username, mapped and normalized.
    let value: String

    /// Accepts `text`, mapped and normalized as above.
    ///
    /// - Throws: ``ServerError`` `invalidRequest` saying why the name is refused.
    init(_ text: String) throws(ServerError) {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .invalidRequest("the username is empty") }
        // Bounds the work before mapping; the real limit is checked on the result.
        guard trimmed.utf8.count <= 4 * Self.maximumBytes else {
            throw .invalidRequest("a username has at most \(Self.maximumBytes) bytes of UTF-8")
        }
        if let scalar = trimmed.unicodeScalars.first(where: Self.isHidden) {
            throw .invalidRequest("the username has \(Self.describe(scalar))")
        }
        let mapped = Self.widthMapped(trimmed).lowercased().precomposedStringWithCanonicalMapping
        if let scalar = mapped.unicodeScalars.first(where: { !Self.isAllowed($0) }) {
            throw .invalidRequest(
                "the username has \(Self.describe(scalar)): a username is letters, digits and "
                    + "ASCII punctuation, without spaces")
        }
        let scripts = Set(mapped.unicodeScalars.compactMap(Script.init))
        guard scripts.count <= 1 else {
            throw .invalidRequest(
                "the username mixes letters of "
                    + scripts.map(\.rawValue).sorted().joined(separator: " and ")
                    + ": names that look like another are refused")
        }
        guard mapped.utf8.count <= Self.maximumBytes else {
            throw .invalidRequest("a username has at most \(Self.maximumBytes) bytes of UTF-8")
        }
        value = mapped
    }

    var description: String { value }

    /// Whether `scalar` is invisible or reorders text: a control or format character, an
    /// invisible one, a bidi control, or the replacement character that stands for invalid
    /// UTF-8.
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200B...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x206F, 0xFEFF,
            0xFFF9...0xFFFD, 0x061C, 0x180E, 0x00AD, 0x034F:
            return true
        default:
            let category = scalar.properties.generalCategory
            return category == .control || category == .format || category == .unassigned
                || category == .privateUse || category == .surrogate
        }
    }

    /// `scalar` named for an error message: `U+200B`, and the character itself when it is
    /// visible.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let code = String(format: "U+%04X", scalar.value)
        if scalar.value == 0xFFFD { return "U+FFFD (invalid UTF-8)" }
        return isHidden(scalar) ? "the invisible or control character \(code)" : "\(code)"
    }

    /// `text` with fullwidth and halfwidth forms mapped to their normal width.
    private static func widthMapped(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x3000:
                scalars.append(" ")
            case 0xFF01...0xFFEF:
                // The block's compatibility mappings are all <wide> or <narrow>.
                scalars.append(
                    contentsOf: String(scalar).precomposedStringWithCompatibilityMapping
                        .unicodeScalars)
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Whether `scalar` may be in a username (step 5 above).
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if (0x21...0x7E).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .decimalNumber:
            return true
        default:
            return false
        }
    }

    /// The scripts whose letters must not mix: the ones whose letters look like each other.
    private enum Script: String {
        case latin = "Latin"
        case cyrillic = "Cyrillic"
        case greek = "Greek"

        /// The script of the letter `scalar`, when it is one of these; nil for anything else
        /// (digits, ASCII punctuation, marks, other scripts).
        init?(_ scalar: Unicode.Scalar) {
            guard scalar.properties.isAlphabetic else { return nil }
            switch scalar.value {
            case 0x41...0x5A, 0x61...0x7A, 0xAA, 0xBA, 0xC0...0x24F, 0x1D00...0x1D7F,
                0x1E00...0x1EFF, 0x2C60...0x2C7F, 0xA720...0xA7FF, 0xAB30...0xAB6F:
                self = .latin
            case 0x400...0x52F, 0x1C80...0x1C8F, 0x2DE0...0x2DFF, 0xA640...0xA69F:
                self = .cyrillic
            case 0x370...0x3FF, 0x1F00...0x1FFF:
                self = .greek
            default:
                return nil
            }
        }
    }
}

extension String {
    /// The string without white space (and line breaks) at either end.
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
