/// A piece of work measured for several competitors in the same rounds, with the targets that
/// judge them.
public struct Scenario: Sendable {
    /// A check of one competitor against a target, possibly relative to another competitor.
    public struct Check: Sendable {
        /// The competitor judged.
        public let subject: String
        /// The competitor it is compared with, for ratio targets.
        public let baseline: String?
        /// The target.
        public let target: Target
        /// The pair (subject, baseline) whose speed-up a ``Target/speedupOfReference(atLeast:)``
        /// target compares with.
        public let reference: (subject: String, baseline: String)?

        /// Creates a check.
        public init(
            _ subject: String, against baseline: String? = nil, _ target: Target,
            reference: (subject: String, baseline: String)? = nil
        ) {
            self.subject = subject
            self.baseline = baseline
            self.target = target
            self.reference = reference
        }
    }

    /// What is measured, e.g. `CBOR encode: attestation object (279 B)`.
    public let title: String
    /// The implementations measured side by side.
    public let competitors: [Competitor]
    /// The targets.
    public let checks: [Check]
    /// What a reader needs to know to read the rows (how a peer was configured, what it could
    /// not do), printed under the tables.
    public let notes: [String]

    /// Creates a scenario.
    public init(
        _ title: String, competitors: [Competitor], checks: [Check] = [], notes: [String] = []
    ) {
        self.title = title
        self.competitors = competitors
        self.checks = checks
        self.notes = notes
    }
}
