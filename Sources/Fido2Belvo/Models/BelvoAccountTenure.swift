/// The `accountTenure` the SDK's `collectRiskSignals(accountTenure:)` takes: the day the Belvo
/// customer was created, `YYYY-MM-DD`.
public struct BelvoAccountTenure: Sendable, Hashable, CustomStringConvertible {
    /// The date as `YYYY-MM-DD`.
    public let value: String
    /// The year, 1 to 9999.
    public let year: Int
    /// The month, 1 to 12.
    public let month: Int
    /// The day of the month, valid for that month and year (proleptic Gregorian calendar).
    public let day: Int

    /// The tenure from a customer's `created_at` (e.g. `2024-03-07T12:45:01.123456Z`): its
    /// first 10 characters, which must be `YYYY-MM-DD`.
    ///
    /// - Throws: ``BelvoError/Code/invalidAccountTenure`` when `createdAt` is shorter than 10
    ///   characters or its first 10 are not a real calendar date in that format.
    public init(customerCreatedAt createdAt: String) throws {
        try self.init(String(createdAt.prefix(10)), source: createdAt)
    }

    /// The tenure from a `YYYY-MM-DD` date.
    ///
    /// - Throws: ``BelvoError/Code/invalidAccountTenure`` unless `date` is exactly ten
    ///   characters matching `\d{4}-\d{2}-\d{2}` (ASCII digits) naming a real calendar date.
    public init(_ date: String) throws {
        try self.init(date, source: date)
    }

    private init(_ date: String, source: String) throws(BelvoError) {
        let chars = Array(date.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let char = chars[index]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(char) else { return nil }
                value = value * 10 + Int(char - UInt8(ascii: "0"))
            }
            return value
        }
        guard chars.count == 10, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
        else {
            throw BelvoError(
                .invalidAccountTenure,
                "accountTenure must be YYYY-MM-DD (the first 10 characters of the customer's "
                    + "created_at), got \"\(source)\"",
                field: "accountTenure")
        }
        guard year >= 1, (1...12).contains(month),
            (1...Self.days(in: month, of: year)).contains(day)
        else {
            throw BelvoError(
                .invalidAccountTenure, "accountTenure \"\(date)\" is not a calendar date",
                field: "accountTenure")
        }
        self.value = date
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date as `YYYY-MM-DD`.
    public var description: String { value }

    private static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2:
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
