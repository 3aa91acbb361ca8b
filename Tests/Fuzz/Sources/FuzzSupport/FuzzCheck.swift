#if canImport(Glibc)
import Glibc
#endif

/// Invariant checks for fuzz targets: a broken invariant prints what broke and aborts, which
/// libFuzzer reports as a crash and saves the input as an artifact.
public enum FuzzCheck {
    /// Aborts with `message` unless `condition` holds.
    @inline(__always)
    public static func require(
        _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        if !condition() { fail(message(), file: file, line: line) }
    }

    /// Prints `message` to standard error and aborts.
    public static func fail(
        _ message: String, file: StaticString = #fileID, line: UInt = #line
    )
        -> Never
    {
        var text = "FUZZ INVARIANT BROKEN at \(file):\(line): \(message)\n"
        text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
        abort()
    }
}
