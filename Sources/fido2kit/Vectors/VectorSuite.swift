/// The outcome of one case of a vector suite.
struct VectorCaseResult {
    /// The case's identifier within its suite.
    let id: String
    /// Why the case failed, or nil when it passed.
    let failure: String?

    static func pass(_ id: String) -> VectorCaseResult { VectorCaseResult(id: id, failure: nil) }

    static func fail(_ id: String, _ reason: String) -> VectorCaseResult {
        VectorCaseResult(id: id, failure: reason)
    }

    /// Passes when `reason` is nil.
    static func check(_ id: String, _ reason: String?) -> VectorCaseResult {
        VectorCaseResult(id: id, failure: reason)
    }
}

/// A suite of test vectors in one file, run through fido2kit's public API.
protocol VectorSuite {
    /// The name printed in the summary (the file name, usually).
    var name: String { get }
    /// Runs every case; a case that cannot be run is a failure with a reason, never a skip.
    func run() -> [VectorCaseResult]
}
