// Fido2Encoding's JSON reader and its pull scanner.
// dictionary: json
// seeds: client-data webauthn-json jwk-keys belvo-documents
import Fido2Encoding
import FuzzSupport

/// Invariants:
/// - `JSONReader`, the scanner walked member by member and the scanner left to skip everything
///   accept the same documents, fail with the same code at the same offset, and read the same
///   value;
/// - an accepted document serializes to `serializedLength` bytes, and reading that back gives
///   the same value and the same bytes again (serialization is stable);
/// - allowing duplicate member names only ever accepts more.
@main
enum JSONFuzzer: FuzzTarget {
    static let duplicatesAllowed = JSONReader(
        options: JSONReader.Options(allowsDuplicateMemberNames: true))

    static func fuzz(_ input: [UInt8]) {
        let read: Result<JSONValue, Fido2EncodingError>
        do {
            read = .success(try JSONReader().read(input))
        } catch let error as Fido2EncodingError {
            read = .failure(error)
        } catch {
            FuzzCheck.fail("JSONReader threw \(error), not a Fido2EncodingError")
        }
        let walked: Result<JSONValue, Fido2EncodingError>
        do { walked = .success(try JSONScannerWalk.value(of: input)) } catch {
            walked = .failure(error)
        }
        let skipped: Fido2EncodingError?
        do {
            try JSONScannerWalk.skip(input)
            skipped = nil
        } catch { skipped = error }

        switch (read, walked) {
        case (.success(let value), .success(let scanned)):
            FuzzCheck.require(value == scanned, "scanner reads \(scanned), reader \(value)")
            FuzzCheck.require(skipped == nil, "skipping scanner rejects: \(skipped!)")
            checkSerialization(value)
        case (.failure(let error), .failure(let scanError)):
            FuzzCheck.require(
                error.code == scanError.code && error.offset == scanError.offset,
                "reader fails with \(error), scanner with \(scanError)")
            FuzzCheck.require(
                skipped?.code == error.code && skipped?.offset == error.offset,
                "reader fails with \(error), skipping scanner with \(String(describing: skipped))")
        default:
            FuzzCheck.fail("reader gives \(read), scanner \(walked)")
        }
        if case .success(let value) = read {
            FuzzCheck.require(
                (try? duplicatesAllowed.read(input)) == value,
                "allowing duplicates changes an accepted document")
        }
    }

    static func checkSerialization(_ value: JSONValue) {
        let bytes = value.serialized()
        FuzzCheck.require(
            bytes.count == JSONWriter.serializedLength(of: value),
            "serializedLength \(JSONWriter.serializedLength(of: value)) ≠ \(bytes.count)")
        guard let again = try? JSONReader().read(bytes) else {
            FuzzCheck.fail("serialization of an accepted document does not read back")
        }
        FuzzCheck.require(again == value, "serialization changes the value")
        FuzzCheck.require(again.serialized() == bytes, "serialization is not stable")
    }
}
