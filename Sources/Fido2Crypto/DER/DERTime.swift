/// Conversions between the RFC 5280 forms of UTCTime and GeneralizedTime and seconds since
/// the Unix epoch, with the proleptic Gregorian calendar (no time zone data, no Foundation).
enum DERTime {
    /// Seconds since 1970-01-01T00:00:00Z for `YYMMDDHHMMSSZ` (`utc`) or `YYYYMMDDHHMMSSZ`;
    /// nil for any other form or an impossible date. UTCTime years 50–99 are 1950–1999, 00–49
    /// are 2000–2049 (RFC 5280 §4.1.2.5.1).
    static func parse(_ text: ArraySlice<UInt8>, utc: Bool) -> Int64? {
        let yearDigits = utc ? 2 : 4
        guard text.count == yearDigits + 11, text.last == UInt8(ascii: "Z") else { return nil }
        var index = text.startIndex
        func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                let byte = text[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }
        guard var year = number(yearDigits), let month = number(2), let day = number(2),
            let hour = number(2), let minute = number(2), let second = number(2)
        else { return nil }
        if utc { year += year >= 50 ? 1900 : 2000 }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// The text of `seconds` as UTCTime (`utc`, years 1950–2049 only) or GeneralizedTime
    /// (years 0–9999); nil outside those years.
    static func format(_ seconds: Int64, utc: Bool) -> [UInt8]? {
        let (days, remainder) = floorDivide(seconds, 86_400)
        let (year, month, day) = civilFromDays(days)
        if utc {
            guard (1950...2049).contains(year) else { return nil }
        } else {
            guard (0...9999).contains(year) else { return nil }
        }
        var out: [UInt8] = []
        out.reserveCapacity(utc ? 13 : 15)
        func append(_ value: Int, digits: Int) {
            var divisor = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(utc ? Int(year % 100) : Int(year), digits: utc ? 2 : 4)
        append(month, digits: 2)
        append(day, digits: 2)
        let secondOfDay = Int(remainder)
        append(secondOfDay / 3600, digits: 2)
        append(secondOfDay / 60 % 60, digits: 2)
        append(secondOfDay % 60, digits: 2)
        out.append(UInt8(ascii: "Z"))
        return out
    }

    /// The calendar year of `seconds` (for choosing UTCTime or GeneralizedTime).
    static func year(of seconds: Int64) -> Int64 {
        civilFromDays(floorDivide(seconds, 86_400).quotient).year
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = a / b
        var remainder = a % b
        if remainder < 0 {
            quotient -= 1
            remainder += b
        }
        return (quotient, remainder)
    }

    private static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthIndex + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (`civil_from_days`).
    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
