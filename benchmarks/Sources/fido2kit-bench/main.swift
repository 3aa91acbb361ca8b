import BenchmarkHarness

#if canImport(Glibc)
import Glibc
#endif

// fido2kit-bench [--quick] [--rounds N] [--filter TEXT] [--no-check] [--require-peers]
// fido2kit-bench --profile TEXT COMPETITOR ITERATIONS
//
// Runs every scenario, prints Markdown tables (the source of docs/performance.md) and exits 1
// when a target is missed, unless --no-check is given. --profile runs one competitor of the
// first matching scenario a fixed number of times and nothing else, for callgrind or perf.
// The WebAuthn peer scenarios ("WebAuthn peers: …", and "MDS3: verify and index …" against
// python-fido2) need the venv of benchmarks/peers/setup.sh;
// without it they are reported as not run (exit status 1 only with --require-peers), and a
// peer that does not verify its input is reported as not run and fails the run.
let arguments = CommandLine.arguments.dropFirst()
let quick = arguments.contains("--quick")
let check = !arguments.contains("--no-check")
let requirePeers = arguments.contains("--require-peers")
let filter = arguments.firstIndex(of: "--filter").flatMap { index in
    arguments.index(after: index) < arguments.endIndex
        ? arguments[arguments.index(after: index)] : nil
}

let scenarios: [Scenario]
do {
    scenarios =
        CBORScenarios.all + (try CryptoScenarios.all()) + WebAuthnScenarios.all
        + [AssertionStepsScenario.make(), RegistrationStepsScenario.make()]
        + (try RelyingPartyScenarios.all()) + (try FloorScenarios.all())
        + (try ThreadScalingScenarios.all())
        + (try MetadataScenarios.all())
} catch {
    print("benchmark set-up failed: \(error)")
    exit(2)
}

if let index = arguments.firstIndex(of: "--profile") {
    let rest = Array(arguments[arguments.index(after: index)...])
    // The peer scenarios too (their fido2kit rows; a peer row would time the pipe).
    let peerScenarios = PeerScenarios.make(matching: rest.first).compactMap {
        try? $0.result.get()
    }
    guard rest.count == 3, let iterations = Int(rest[2]),
        let scenario = (scenarios + peerScenarios).first(where: { $0.title.contains(rest[0]) }),
        let competitor = scenario.competitors.first(where: { $0.name == rest[1] })
    else {
        print("usage: fido2kit-bench --profile SCENARIO-TEXT COMPETITOR ITERATIONS")
        exit(2)
    }
    var checksum: UInt64 = 0
    for _ in 0..<iterations { checksum &+= competitor.body() }
    Sink.keep(checksum)
    exit(0)
}

// --rounds N: more interleaved rounds than the default 41 (steadier medians and best rounds on
// a shared machine, at the cost of a longer run).
let rounds = arguments.firstIndex(of: "--rounds").flatMap { index in
    arguments.index(after: index) < arguments.endIndex
        ? Int(arguments[arguments.index(after: index)]) : nil
}
let harness =
    quick
    ? Harness(rounds: 11, batchNanoseconds: 1_000_000)
    : Harness(rounds: rounds ?? Harness().rounds)
var report = Report()
for scenario in scenarios where filter.map({ scenario.title.contains($0) }) ?? true {
    report.add(scenario, harness.measure(scenario))
}
var peersFailed = false
for (title, result) in PeerScenarios.make(matching: filter) {
    switch result {
    case .success(let scenario): report.add(scenario, harness.measure(scenario))
    case .failure(let notRun):
        report.addNotRun(title, reason: notRun.reason)
        peersFailed = peersFailed || notRun.isFailure || requirePeers
    }
}
print(report.markdown)
if !report.notRun.isEmpty {
    print("Not run:")
    for line in report.notRun { print("- \(line)") }
}
if !report.allTargetsMet {
    print("Targets missed:")
    for miss in report.misses { print("- \(miss)") }
    if check { exit(1) }
}
if peersFailed && check { exit(1) }
