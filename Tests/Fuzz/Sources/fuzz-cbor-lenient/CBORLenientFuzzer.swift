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
/// - tighter limits only ever reject more, never accept something the defaults reject;
/// - `canonicalizingFirstItem` (how the compatible profile reads attestation objects) accepts a
///   first item exactly when the strict reader without the encoding rules does: its output is
///   strict CBOR that decodes to the same value, is the input itself when nothing deviates, and
///   each deviation names a rule the strict reader breaks on the input.
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

        checkCanonicalizing(input)

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
            } catch let error as CBORError {
                FuzzCheck.require(
                    value.hasDuplicateKeys && error.code == .duplicateMapKey,
                    "canonical re-encoding of \(value) does not read back: \(error)")
            } catch {
                FuzzCheck.fail("expected a CBORError, got \(error)")
            }
        }

        do {
            _ = try CBORDiagnostic.notation(for: input, options: .lenient)
        } catch let error as CBORError {
            FuzzCheck.require(
                !allText && error.code == .invalidUTF8, "diagnostic notation fails: \(error)")
        } catch {
            FuzzCheck.fail("expected a CBORError, got \(error)")
        }
    }

    /// The invariants of `canonicalizingFirstItem` on `input`.
    static func checkCanonicalizing(_ input: [UInt8]) {
        var unordered = CBORDecodingOptions.strict
        unordered.checks.subtract(CBORReader.encodingChecks)
        unordered.checks.remove(.noTrailingBytes)
        let plain = try? CBORValue.decodeFirst(input[...], options: unordered)
        let item: CBORCanonicalItem
        do {
            item = try CBORReader.canonicalizingFirstItem(in: input[...])
        } catch let error as CBORError {
            // Only keys the reader tells apart by their bytes (0 and a long-head 0) that are one
            // value once re-encoded may be refused on top of what the reader refuses.
            let sameKeys =
                error.code == .duplicateMapKey
                && (try? CBORReader(plain?.value.encoded() ?? [], options: .strict)) == nil
            FuzzCheck.require(
                plain == nil || sameKeys, "canonicalizing refuses what the reader accepts")
            return
        } catch {
            FuzzCheck.fail("expected a CBORError, got \(error)")
        }
        guard let plain else {
            FuzzCheck.require(false, "canonicalizing accepts what the reader refuses")
            return
        }
        FuzzCheck.require(item.length == plain.length, "canonicalizing reads another length")
        let strict = try? CBORValue.decode(item.encoded, options: .strict)
        FuzzCheck.require(strict != nil, "the canonical form is not strict CBOR")
        if item.deviations.isEmpty {
            // The strict reader took it as it is (floats keep their width).
            FuzzCheck.require(
                item.encoded.elementsEqual(input.prefix(item.length)), "canonical input changed")
        } else {
            // Maps compare in order, so values are compared by their canonical encodings.
            FuzzCheck.require(
                item.encoded == plain.value.encoded(), "the canonical form is another value")
        }
        for deviation in item.deviations {
            var options = unordered
            options.checks.insert(deviation.check)
            FuzzCheck.require(
                (try? CBORReader.lengthOfFirstItem(in: input[...], options: options)) == nil,
                "a reported deviation the input does not have: \(deviation)")
        }
    }
}
