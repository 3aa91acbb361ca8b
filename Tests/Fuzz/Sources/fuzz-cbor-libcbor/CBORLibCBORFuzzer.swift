// Differential: the lenient CBOR reader against libcbor 0.8.
// dictionary: cbor
// seeds: cbor-items attestation-objects cose-keys
import Fido2CBOR
import FuzzSupport

/// Whatever libcbor calls malformed we must reject, and what both accept must decode to the same
/// value. Only inputs we accept are shown to libcbor: "libcbor rejects, so must we" is the same
/// as "we accept, so must libcbor", and libcbor can spend seconds on rejected inputs that declare
/// huge lengths. Items libcbor 0.8 cannot read although RFC 8949 calls them well-formed (see
/// `LibCBORGaps`) are left out.
@main
enum CBORLibCBORFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        guard let ours = try? CBORValue.decode(input, options: .lenient),
            !LibCBORGaps.contains(input)
        else { return }
        guard let theirs = LibCBOR.decode(input) else {
            FuzzCheck.fail("we accept \(ours) but libcbor rejects it")
        }
        FuzzCheck.require(theirs == ours, "we read \(ours), libcbor reads \(theirs)")
    }
}
