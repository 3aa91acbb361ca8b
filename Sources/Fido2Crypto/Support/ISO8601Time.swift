/// ISO 8601 / RFC 3339 date-times as seconds since the Unix epoch, and back, on the proleptic
/// Gregorian calendar of ``DERTime`` (no time zone data, no Foundation). For the command line's
/// `--at`, the vector files' timestamps and metadata dates.
package enum ISO8601Time {
    /// Seconds since 1970-01-01T00:00:00Z of `text`, or nil when it is not a date-time.
    ///
    /// Accepted: the extended (`2025-01-08T00:00:00`) and basic (`20250108T000000`) forms, `T`,
    /// `t` or a space between date and time, minutes without seconds, a fraction of any length
    /// after `.` or `,` (dropped: the result counts whole seconds), and a zone of `Z`, `z`,
    /// `±HH:MM`, `±HHMM` or `±HH`. Without a zone the time is UTC. A date alone means its
    /// midnight, UTC. A leap second (`:60`) counts as the next second.
    package static func seconds(_ text: String) -> Int64? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.digits(4) else { return nil }
        let extended = scanner.skip("-")
        guard let month = scanner.digits(2), !extended || scanner.skip("-"),
            let day = scanner.digits(2), (1...12).contains(month),
            (1...DERTime.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = DERTime.daysFromCivil(year: year, month: month, day: day)
        if scanner.isAtEnd { return days * 86_400 }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
            let hour = scanner.digits(2), !extended || scanner.skip(":"),
            let minute = scanner.digits(2)
        else { return nil }
        var second = 0
        if extended ? scanner.skip(":") : scanner.peekDigit {
            guard let value = scanner.digits(2) else { return nil }
            second = value
            if scanner.skip(".") || scanner.skip(",") {
                guard scanner.digits(1) != nil else { return nil }
                while scanner.digits(1) != nil {}
            }
        }
        guard hour < 24, minute < 60, second <= 60 else { return nil }
        var offset = 0
        if scanner.skip("Z") || scanner.skip("z") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(2), hours < 24 else { return nil }
            var minutes = 0
            if !scanner.isAtEnd {
                _ = extended ? scanner.skip(":") : true
                guard let value = scanner.digits(2), value < 60 else { return nil }
                minutes = value
            }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard scanner.isAtEnd else { return nil }
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offset)
    }

    /// `seconds` as `YYYY-MM-DDTHH:MM:SSZ`.
    package static func text(_ seconds: Int64) -> String {
        let (days, secondOfDay) = DERTime.floorDivide(seconds, 86_400)
        let (year, month, day) = DERTime.civilFromDays(days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let time = Int(secondOfDay)
        return "\(year)-\(two(month))-\(two(day))T\(two(time / 3600)):\(two(time / 60 % 60)):"
            + "\(two(time % 60))Z"
    }

    /// Reads ASCII digits and punctuation from the front of a byte array.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { index == bytes.count }

        var peekDigit: Bool {
            index < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
        }

        /// `count` digits as a number, consumed; nil (consuming nothing) otherwise.
        mutating func digits(_ count: Int) -> Int? {
            guard bytes.count - index >= count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            index += count
            return value
        }

        /// Consumes `character` when it comes next.
        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        /// +1 or -1 for a consumed `+` or `-` (or U+2212, as ISO 8601 allows), nil otherwise.
        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            let minus: [UInt8] = [0xE2, 0x88, 0x92]
            if bytes.count - index >= 3, Array(bytes[index..<(index + 3)]) == minus {
                index += 3
                return -1
            }
            return nil
        }
    }
}
