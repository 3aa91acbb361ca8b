/// The results of a run as Markdown tables, and whether every target was met.
public struct Report {
    private(set) var lines: [String] = []
    /// Whether every check so far met its target.
    public private(set) var allTargetsMet = true
    /// Checks that missed their target, as one line each.
    public private(set) var misses: [String] = []
    /// Scenarios that were not measured, with the reason, as one line each.
    public private(set) var notRun: [String] = []

    /// Creates an empty report.
    public init() {}

    /// Adds a scenario's measurements and checks.
    public mutating func add(_ scenario: Scenario, _ measurements: [Measurement]) {
        lines.append("### \(scenario.title)")
        lines.append("")
        lines.append("| implementation | median ns/op | best ns/op | allocations/op |")
        lines.append("|---|---:|---:|---:|")
        for measurement in measurements {
            lines.append(
                "| \(measurement.name) | \(format(measurement.nanoseconds)) | "
                    + "\(format(measurement.bestNanoseconds)) | \(format(measurement.allocations)) |"
            )
        }
        if !scenario.checks.isEmpty {
            lines.append("")
            lines.append("| check | target | measured (best rounds) | median rounds | met |")
            lines.append("|---|---|---:|---:|:-:|")
        }
        for check in scenario.checks {
            guard let subject = measurements.first(where: { $0.name == check.subject }) else {
                continue
            }
            let baseline = check.baseline.flatMap { name in measurements.first { $0.name == name } }
            let reference = check.reference.flatMap { pair in
                measurements.first { $0.name == pair.subject }.flatMap { subject in
                    measurements.first { $0.name == pair.baseline }.map { (subject, $0) }
                }
            }
            let value = check.target.measured(
                subject: subject, baseline: baseline, reference: reference)
            let met = check.target.isMet(by: value)
            var label = check.baseline.map { "\(check.subject) vs \($0)" } ?? check.subject
            if let pair = check.reference {
                label += ", over \(pair.subject) vs \(pair.baseline)"
            }
            let median = check.target.medianRatio(
                subject: subject, baseline: baseline, reference: reference)
            lines.append(
                "| \(label) | \(check.target) | \(format(value)) | \(median.map(format) ?? "–") | "
                    + "\(met ? "yes" : "**no**") |")
            if !met {
                allTargetsMet = false
                misses.append(
                    "\(scenario.title): \(label): \(format(value)), target \(check.target)")
            }
        }
        if !scenario.notes.isEmpty { lines.append("") }
        for note in scenario.notes { lines.append("- \(note)") }
        lines.append("")
    }

    /// Records a scenario that was not measured: its heading and the reason, so a skipped
    /// scenario is never mistaken for a met target.
    public mutating func addNotRun(_ title: String, reason: String) {
        lines.append("### \(title)")
        lines.append("")
        lines.append("**Not run:** \(reason)")
        lines.append("")
        notRun.append("\(title): \(reason)")
    }

    /// The whole report.
    public var markdown: String { lines.joined(separator: "\n") }
}
