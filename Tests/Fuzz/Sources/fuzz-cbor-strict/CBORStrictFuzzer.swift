// The CBOR reader in strict (CTAP2 canonical) mode, the mode WebAuthn data is read in.
// dictionary: cbor
// seeds: cbor-items attestation-objects cose-keys
import Fido2CBOR
import FuzzSupport

/// Invariants on every input the strict reader accepts:
/// - `CBORReader`, `CBORValue.decode` and `lengthOfFirstItem` agree on acceptance and length;
/// - the typed reads walk the item to its last byte and agree with `readValue`;
/// - the item re-encodes byte for byte through `CBORValue` (by value when it holds floats, whose
///   width CTAP2 canonical form leaves alone), and the lenient reader sees the same value;
/// - diagnostic notation of the bytes equals that of the value.
@main
enum CBORStrictFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        let reader = try? CBORReader(input, options: .strict)
        let decoded = try? CBORValue.decode(input, options: .strict)
        FuzzCheck.require(
            (reader == nil) == (decoded == nil), "CBORReader and CBORValue.decode disagree")
        guard var reader, let value = decoded else { return }

        let length = try? CBORReader.lengthOfFirstItem(in: input[...], options: .strict)
        FuzzCheck.require(length == input.count, "lengthOfFirstItem \(String(describing: length))")
        FuzzCheck.require(CBORTypedWalk.value(&reader) == value, "typed walk differs from decode")
        FuzzCheck.require(reader.isAtEnd, "typed walk stops at \(reader.offset) of \(input.count)")

        let encoded = value.encoded()
        if value.containsFloat {
            let again = try? CBORValue.decode(encoded, options: .strict)
            FuzzCheck.require(again == value, "re-encoding changes the value")
        } else {
            FuzzCheck.require(encoded == input, "strict input does not re-encode byte for byte")
        }
        FuzzCheck.require(
            (try? CBORValue.decode(input, options: .lenient)) == value,
            "lenient decoding differs from strict")

        let notation = try? CBORDiagnostic.notation(for: input, options: .strict)
        FuzzCheck.require(notation != nil, "diagnostic notation fails on accepted input")
        if !value.containsFloat {
            FuzzCheck.require(
                notation == CBORDiagnostic.notation(for: value),
                "notation of bytes \(notation ?? "") ≠ notation of value")
        }
    }
}
