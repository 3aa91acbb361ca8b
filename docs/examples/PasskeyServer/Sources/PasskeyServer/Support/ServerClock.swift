import Foundation

/// The wall clock, in the unit the ceremony states use: milliseconds since the Unix epoch.
enum ServerClock {
    /// Now, in milliseconds since the Unix epoch.
    static func nowMilliseconds() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }
}
