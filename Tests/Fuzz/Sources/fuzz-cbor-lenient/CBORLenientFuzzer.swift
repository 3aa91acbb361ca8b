// The CBOR reader in lenient (RFC 8949 well-formedness) mode, over CBOR sequences.
// dictionary: cbor
// seeds: cbor-items attestation-objects cose-keys
import Fido2CBOR
import FuzzSupport

/// Invariants on every input the lenient reader accepts (a CBOR sequence):
/// - every item reads the same through the typed reads and `readValue`, and ends where
///   `skipItem` says; `decodeFirst` and `lengthOfFirstItem` agree on the first item's length;
/// - each item's canonical re-encoding is accepted by the strict reader and re-encodes to itself
///   (canonicalization is idempotent), unless a map repeats a key, which the strict reader must
///   then reject as such;
/// - diagnostic notation succeeds unless a text string is not UTF-8;
/// - tighter limits only ever reject more, never accept something the defaults reject.
@main
enum CBORLenientFuzzer: FuzzTarget {
    static let tight = CBORDecodingOptions(
        checks: [], maximumDepth: 3, maximumItemCount: 16, maximumInputSize: 64)

    static func fuzz(_ input: [UInt8]) {
        let tightReader = try? CBORReader(input, options: tight)
        guard var reader = try? CBORReader(input, options: .lenient) else {
            FuzzCheck.require(tightReader == nil, "tight limits accept what the defaults reject")
            return
        }
        if !input.isEmpty {
            let length = try? CBORReader.lengthOfFirstItem(in: input[...], options: .lenient)
            let first = try? CBORValue.decodeFirst(input[...], options: .lenient)
            FuzzCheck.require(length != nil, "lengthOfFirstItem rejects a validated sequence")
            if let first { FuzzCheck.require(first.length == length, "decodeFirst length differs") }
        }

        var allText = true
        while !reader.isAtEnd {
            guard let value = CBORTypedWalk.value(&reader) else {
                allText = false
                continue
            }
            let canonical = value.encoded()
            do {
                let strict = try CBORValue.decode(canonical, options: .strict)
                FuzzCheck.require(!value.hasDuplicateKeys, "strict reader accepts duplicate keys")
                FuzzCheck.require(
                    strict.encoded() == canonical, "canonical encoding not idempotent")
            } catch {
                FuzzCheck.require(
                    value.hasDuplicateKeys && error.code == .duplicateMapKey,
                    "canonical re-encoding of \(value) does not read back: \(error)")
            }
        }

        do {
            _ = try CBORDiagnostic.notation(for: input, options: .lenient)
        } catch {
            FuzzCheck.require(
                !allText && error.code == .invalidUTF8, "diagnostic notation fails: \(error)")
        }
    }
}
