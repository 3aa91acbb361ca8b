// The CBOR reader in strict (CTAP2 canonical) mode, the mode WebAuthn data is read in.
// dictionary: cbor
// seeds: cbor-items attestation-objects cose-keys
import Fido2CBOR
import FuzzSupport

/// Invariants on every input the strict reader accepts:
/// - `CBORReader`, `CBORValue.decode` and `lengthOfFirstItem` agree on acceptance and length;
/// - the typed reads walk the item to its last byte and agree with `readValue`;
/// - the item re-encodes byte for byte through `CBORValue`; when it holds floats (whose width
///   CTAP2 canonical form leaves alone) the re-encoding reads back to the same value up to map
///   order, or is refused as a repeated key; the lenient reader sees the same value;
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
            // CBORValue keeps a float's value, not its width or NaN payload, and the encoder
            // writes the shortest form: map keys may re-sort (a NaN with a payload sorted last
            // in the input, the canonical NaN sorts first), and keys that differ only in width
            // (1.0 as half and as single, which CTAP2 compares by bytes) become one key twice.
            // So: the re-encoding reads back to the same value up to map order (its own
            // re-encoding is the same bytes), or is refused as a repeated key.
            do {
                let again = try CBORValue.decode(encoded, options: .strict)
                FuzzCheck.require(!value.hasDuplicateKeys, "strict reader accepts duplicate keys")
                FuzzCheck.require(again.encoded() == encoded, "re-encoding changes the value")
            } catch let error as CBORError {
                FuzzCheck.require(
                    value.hasDuplicateKeys && error.code == .duplicateMapKey,
                    "re-encoding of \(value) does not read back: \(error)")
            } catch {
                FuzzCheck.fail("expected a CBORError, got \(error)")
            }
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
