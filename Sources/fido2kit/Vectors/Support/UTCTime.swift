/// The timestamps vector files carry (`2025-01-26T19:00:00.000Z`, `2025-01-08T00:00:00`): an
/// ISO 8601 date and time in UTC, with optional fractional seconds (dropped) and an optional
/// `Z`. A time without a zone is read as UTC, as the files mean it.
enum UTCTime {
    /// Seconds since the Unix epoch, or nil when `text` is not such a timestamp.
    static func seconds(_ text: String) -> Int64? {
        var bytes = Array(text.utf8)
        if bytes.last == UInt8(ascii: "Z") { bytes.removeLast() }
        if let dot = bytes.firstIndex(of: UInt8(ascii: ".")) {
            guard dot == 19, bytes[(dot + 1)...].allSatisfy(isDigit), bytes.count > dot + 1 else {
                return nil
            }
            bytes.removeSubrange(dot...)
        }
        // YYYY-MM-DDTHH:MM:SS
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
            bytes[16] == UInt8(ascii: ":"),
            let year = number(bytes[0..<4]), let month = number(bytes[5..<7]),
            let day = number(bytes[8..<10]), let hour = number(bytes[11..<13]),
            let minute = number(bytes[14..<16]), let second = number(bytes[17..<19]),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600
            + minute * 60 + second
    }

    /// `seconds` as `YYYY-MM-DDTHH:MM:SSZ`.
    static func text(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        let (year, month, day) = civil(daysSinceEpoch: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest / 60 % 60)):"
            + "\(two(rest % 60))Z"
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard digits.allSatisfy(isDigit) else { return nil }
        return digits.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count from 1970-01-01 (civil_from_days).
    private static func civil(daysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
