/// A performance target, stated as a ratio between two measurements of the same run, or as an
/// allocation count.
public enum Target: Sendable, CustomStringConvertible {
    /// The subject does the work at least `factor` times faster than the baseline.
    case fasterThanBaseline(atLeast: Double)
    /// The subject costs at most `factor` times the baseline (1.05 = within 5%).
    case costOfBaseline(atMost: Double)
    /// The subject allocates at most `count` times per operation.
    case allocations(atMost: Double)
    /// The subject's speed-up over its baseline is at least `factor` times the speed-up of the
    /// check's reference pair over its own baseline (two threads over one, against a C loop's).
    case speedupOfReference(atLeast: Double)

    /// The target as a phrase for the report.
    public var description: String {
        switch self {
        case .fasterThanBaseline(let factor): return "≥ \(format(factor))x faster"
        case .costOfBaseline(let factor): return "≤ \(format(factor))x the cost"
        case .allocations(let count): return "≤ \(format(count)) allocation(s)/op"
        case .speedupOfReference(let factor): return "≥ \(format(factor))x the reference's speed-up"
        }
    }

    /// The measured value this target judges: speed-up, cost ratio or allocation count.
    ///
    /// Ratios use each competitor's fastest round: on a shared machine, interference only ever
    /// adds time, so the fastest of many interleaved rounds is the least disturbed estimate of
    /// each side (the report shows medians too).
    ///
    /// `reference` is the reference pair (subject, baseline) of ``speedupOfReference(atLeast:)``.
    public func measured(
        subject: Measurement, baseline: Measurement?,
        reference: (subject: Measurement, baseline: Measurement)? = nil
    ) -> Double {
        switch self {
        case .fasterThanBaseline:
            return (baseline?.bestNanoseconds ?? .nan) / subject.bestNanoseconds
        case .costOfBaseline:
            return subject.bestNanoseconds / (baseline?.bestNanoseconds ?? .nan)
        case .allocations: return subject.allocations
        case .speedupOfReference:
            let speedup = (baseline?.bestNanoseconds ?? .nan) / subject.bestNanoseconds
            guard let reference else { return .nan }
            return speedup
                / (reference.baseline.bestNanoseconds / reference.subject.bestNanoseconds)
        }
    }

    /// The same ratio on the two medians, shown beside the judged value: on a noisy machine the
    /// fastest rounds of two competitors can be disturbed unequally, the medians less so. Nil
    /// for an allocation count.
    public func medianRatio(
        subject: Measurement, baseline: Measurement?,
        reference: (subject: Measurement, baseline: Measurement)? = nil
    ) -> Double? {
        switch self {
        case .fasterThanBaseline: return (baseline?.nanoseconds ?? .nan) / subject.nanoseconds
        case .costOfBaseline: return subject.nanoseconds / (baseline?.nanoseconds ?? .nan)
        case .allocations: return nil
        case .speedupOfReference:
            let speedup = (baseline?.nanoseconds ?? .nan) / subject.nanoseconds
            guard let reference else { return .nan }
            return speedup / (reference.baseline.nanoseconds / reference.subject.nanoseconds)
        }
    }

    /// Whether `value` (from ``measured(subject:baseline:)``) meets the target.
    public func isMet(by value: Double) -> Bool {
        switch self {
        case .fasterThanBaseline(let factor): return value >= factor
        case .costOfBaseline(let factor): return value <= factor
        case .allocations(let count): return value <= count
        case .speedupOfReference(let factor): return value >= factor
        }
    }
}

/// Formats a ratio or count with two decimals, trimming a trailing `.00`.
func format(_ value: Double) -> String {
    guard value.isFinite else { return "n/a" }
    let hundredths = (value * 100).rounded()
    let whole = Int(hundredths / 100)
    let fraction = Int(abs(hundredths).truncatingRemainder(dividingBy: 100))
    if fraction == 0 { return "\(whole)" }
    return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}
