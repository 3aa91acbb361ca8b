// Fido2Encoding's base64url (WebAuthn's binary encoding) and padded base64.
// dictionary:
// seeds: base64-texts
import Fido2Encoding
import FuzzSupport

/// Invariants:
/// - decoding is canonical: whatever decodes re-encodes to the same text, padding removed for
///   base64url and whitespace removed for base64 read with `ignoringWhitespace`;
/// - the input taken as bytes encodes to `encodedCount` characters and decodes back, also when
///   wrapped into lines;
/// - the String and byte entry points agree.
@main
enum Base64Fuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        if let bytes = try? Base64URL.decode(utf8: input) {
            let unpadded = Array(
                input.reversed().drop(while: { $0 == UInt8(ascii: "=") }).reversed())
            FuzzCheck.require(
                Array(Base64URL.encode(bytes).utf8) == unpadded, "base64url not canonical")
        }
        if let text = String(validating: input, as: UTF8.self) {
            FuzzCheck.require(
                (try? Base64URL.decode(text)) == (try? Base64URL.decode(utf8: input)),
                "base64url String and byte entry points disagree")
        }
        if let bytes = try? Base64.decode(utf8: input) {
            FuzzCheck.require(Array(Base64.encode(bytes).utf8) == input, "base64 not canonical")
        }
        if let bytes = try? Base64.decode(utf8: input, ignoringWhitespace: true) {
            let compact = input.filter { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }
            FuzzCheck.require(
                Array(Base64.encode(bytes).utf8) == compact, "base64 (whitespace) not canonical")
        }

        let url = Base64URL.encode(input)
        FuzzCheck.require(
            url.utf8.count == Base64URL.encodedCount(ofByteCount: input.count), "base64url length")
        FuzzCheck.require((try? Base64URL.decode(url)) == input, "base64url round trip")
        var appended: [UInt8] = [0x2a]
        Base64URL.encode(input, appendingTo: &appended)
        FuzzCheck.require(appended == [0x2a] + Array(url.utf8), "base64url appending differs")

        let padded = Base64.encode(input)
        FuzzCheck.require(
            padded.utf8.count == Base64.encodedCount(ofByteCount: input.count), "base64 length")
        FuzzCheck.require((try? Base64.decode(padded)) == input, "base64 round trip")
        let lineLength = Int(input.first ?? 0) % 80 - 4  // zero and negative included
        let wrapped = Base64.encode(input, lineLength: lineLength)
        FuzzCheck.require(
            (try? Base64.decode(wrapped, ignoringWhitespace: true)) == input,
            "wrapped base64 round trip")
    }
}
