import CFuzzerDriver

#if canImport(Glibc)
import Glibc
#endif

/// A libFuzzer target: ``fuzz(_:)`` gets every input; `@main` on a conforming type makes the
/// executable, whose `main` hands the command line to libFuzzer (`-runs=`, `-max_total_time=`,
/// corpus directories, …).
///
/// Inputs that the code under test rejects are simply returned from; a broken invariant calls
/// ``FuzzCheck/fail(_:file:line:)``. Anything that traps is a finding.
public protocol FuzzTarget {
    /// Runs the code under test on one input.
    static func fuzz(_ input: [UInt8])
    /// Seeds the target makes itself, for input no shared vector holds (a CRL signed by a CA
    /// made at start-up); none by default. `run.sh` asks for them with `FUZZ_WRITE_SEEDS=DIR`.
    static var generatedSeeds: [[UInt8]] { get }
    /// Makes what the target needs once (keys, CAs, trust policies) before libFuzzer starts,
    /// so the work is not charged to the first input's time-out (an RSA key under
    /// AddressSanitizer on a loaded machine can take longer than one); nothing by default.
    static func prepare()
}

/// The running target's entry, reached from libFuzzer's C callback (which cannot capture).
nonisolated(unsafe) private var currentTarget: (([UInt8]) -> Void)?

extension FuzzTarget {
    /// No generated seeds.
    public static var generatedSeeds: [[UInt8]] { [] }

    /// Nothing to make in advance.
    public static func prepare() {}

    /// Starts libFuzzer with the process's arguments and exits with its status; with
    /// `FUZZ_WRITE_SEEDS=DIR` in the environment, writes ``generatedSeeds`` into DIR
    /// (`generated-N`) and exits instead.
    public static func main() {
        if let directory = getenv("FUZZ_WRITE_SEEDS") {
            exit(writeSeeds(into: String(cString: directory)) ? 0 : 1)
        }
        prepare()
        currentTarget = { fuzz($0) }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            // A fresh array per input, so AddressSanitizer sees reads past its end.
            let input = Array(UnsafeBufferPointer(start: data, count: size))
            currentTarget?(input)
            return 0
        }
        exit(status)
    }

    private static func writeSeeds(into directory: String) -> Bool {
        for (index, seed) in generatedSeeds.enumerated() {
            guard let file = fopen("\(directory)/generated-\(index)", "wb") else { return false }
            let written = seed.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
            guard fclose(file) == 0, written == seed.count else { return false }
        }
        return true
    }
}
