import Fido2Encoding

/// The outcome of one case of a vector suite.
package struct VectorCaseResult: Sendable {
    /// The case's identifier within its suite.
    package let id: String
    /// Why the case failed, or nil when it passed.
    package let failure: String?
    /// For a passing case, what a reader must know about how it passed (a named relaxation,
    /// an expected "unsupported algorithm", a parse-only case); printed under the suite line.
    package var note: String? = nil
    /// Why a case that ran cleanly could still not be judged: its verdict rests on data the
    /// file does not carry (reg-029's revocation). Such a case counts as neither passed nor
    /// failed, and `vectors verify` prints it with this reason and counts it on its last line.
    package var notJudged: String? = nil

    package static func pass(_ id: String, note: String? = nil) -> VectorCaseResult {
        VectorCaseResult(id: id, failure: nil, note: note)
    }

    package static func fail(_ id: String, _ reason: String) -> VectorCaseResult {
        VectorCaseResult(id: id, failure: reason)
    }

    /// Neither passed nor failed, for `reason`; see ``notJudged``.
    package static func notJudged(_ id: String, _ reason: String) -> VectorCaseResult {
        VectorCaseResult(id: id, failure: nil, notJudged: reason)
    }

    /// Runs `body` on each of `cases` with its identifier (member `idMember`, or "case N"); a
    /// case `body` cannot read fails as malformed, naming the error.
    package static func each(
        _ cases: [JSONValue], idMember: String,
        _ body: (String, JSONValue) throws -> VectorCaseResult
    ) -> [VectorCaseResult] {
        cases.enumerated().map { index, entry in
            let id = entry[idMember]?.stringValue ?? "case \(index)"
            do {
                return try body(id, entry)
            } catch {
                return .fail(id, "malformed case: \(error)")
            }
        }
    }

    /// Passes when `reason` is nil.
    package static func check(
        _ id: String, _ reason: String?, note: String? = nil
    ) -> VectorCaseResult {
        VectorCaseResult(id: id, failure: reason, note: reason == nil ? note : nil)
    }
}

/// A suite of test vectors in one file, run through fido2kit's public API: one runner and one
/// expectation table per format, used by `fido2kit vectors verify` and by the tests alike.
package protocol VectorSuite {
    /// The name printed in the summary (the file name, usually).
    var name: String { get }
    /// Runs every case; a case that cannot be run is a failure with a reason, never a skip.
    func run() -> [VectorCaseResult]
}
