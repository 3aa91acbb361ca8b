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
}

/// The running target's entry, reached from libFuzzer's C callback (which cannot capture).
nonisolated(unsafe) private var currentTarget: (([UInt8]) -> Void)?

extension FuzzTarget {
    /// Starts libFuzzer with the process's arguments and exits with its status.
    public static func main() {
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
}
