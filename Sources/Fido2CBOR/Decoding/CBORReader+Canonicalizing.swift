/// The first item of an input in CTAP2 canonical form, and what its encoding broke.
public struct CBORCanonicalItem: Sendable {
    /// The item's CTAP2 canonical encoding; the input's own bytes when it broke nothing.
    public let encoded: [UInt8]
    /// How many input bytes the item took.
    public let length: Int
    /// The encoding rules the input broke, the first place each; empty when it was canonical.
    public let deviations: [CBORDeviation]
}

extension CBORReader {
    /// The checks that concern only how an item is written, not what it means: shortest heads,
    /// definite lengths and canonical key order. An item that breaks only these has exactly one
    /// canonical form.
    public static let encodingChecks: CBORDecodingOptions.Checks = [
        .shortestHeads, .definiteLengths, .canonicalKeyOrder,
    ]

    /// Reads the first item of `bytes` under `options`, except that the checks in `tolerating`
    /// are reported rather than enforced, and returns the item in CTAP2 canonical form.
    ///
    /// Every other check of `options` still applies: well-formedness, the limits, unique keys,
    /// valid UTF-8. An input that is already canonical costs one validation pass and comes back
    /// as its own bytes; only a deviating one is decoded and re-encoded. Relying parties use
    /// this to read what deployed authenticators write (keys out of order, indefinite lengths)
    /// without weakening what the decoder refuses.
    ///
    /// - Parameters:
    ///   - bytes: the input; bytes after the first item are not looked at.
    ///   - options: the checks and limits; ``CBORDecodingOptions/Checks/noTrailingBytes`` is
    ///     ignored (only the first item is read).
    ///   - tolerating: the encoding checks to report instead of enforcing; only those of
    ///     ``encodingChecks`` can be tolerated.
    /// - Throws: ``CBORError`` for a failure that is not one of the tolerated checks.
    public static func canonicalizingFirstItem(
        in bytes: ArraySlice<UInt8>, options: CBORDecodingOptions = .strict,
        tolerating: CBORDecodingOptions.Checks = encodingChecks
    ) throws -> CBORCanonicalItem {
        let tolerable = tolerating.intersection(encodingChecks)
        var options = options
        var deviations: [CBORDeviation] = []
        // Each pass either succeeds or lifts one more tolerated check: at most four passes.
        while true {
            do {
                let length = try lengthOfFirstItem(in: bytes, options: options)
                guard !deviations.isEmpty else {
                    return CBORCanonicalItem(
                        encoded: Array(bytes.prefix(length)), length: length, deviations: [])
                }
                let value = try CBORValue.decodeFirst(bytes, options: options).value
                let encoded = value.encoded()
                // Keys written differently (0 and a long-head 0) are one key once re-encoded:
                // the duplicate check runs again on what comes out.
                if options.checks.contains(.uniqueKeys) {
                    do {
                        _ = try CBORReader(encoded, options: .strict)
                    } catch let error as CBORError {
                        guard error.code == .duplicateMapKey else { throw error }
                        throw CBORError(
                            .duplicateMapKey, at: 0,
                            detail: "two keys of one map are the same value written differently")
                    }
                }
                return CBORCanonicalItem(encoded: encoded, length: length, deviations: deviations)
            } catch let error as CBORError {
                guard let check = CBORDeviation.check(failedBy: error.code),
                    tolerable.contains(check), options.checks.contains(check)
                else { throw error }
                deviations.append(CBORDeviation(check: check, offset: error.offset))
                options.checks.remove(check)
            }
        }
    }
}
