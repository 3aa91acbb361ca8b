import Testing

@testable import Fido2Belvo

/// `accountTenure` is the first ten characters of the customer's `created_at`, a real date.
@Suite struct AccountTenureTests {
    @Test(arguments: [
        ("2024-03-07T12:45:01.123456Z", "2024-03-07"),
        ("2024-02-29T00:00:00Z", "2024-02-29"),
        ("2000-02-29", "2000-02-29"),
        ("1999-12-31 23:59", "1999-12-31"),
    ])
    func tenureIsTheDateOfCreatedAt(createdAt: String, tenure: String) throws {
        let value = try BelvoAccountTenure(customerCreatedAt: createdAt)
        #expect(value.value == tenure)
        #expect(value.description == tenure)
    }

    @Test func componentsAreExposed() throws {
        let value = try BelvoAccountTenure("2024-03-07")
        #expect([value.year, value.month, value.day] == [2024, 3, 7])
    }

    @Test(arguments: [
        "", "2024-03", "2024/03/07T00:00:00Z", "24-03-07T00:00:00Z", "2024-3-07", "２０２４-03-07",
        "2024-03-0x", "abcd-ef-gh",
    ])
    func badFormatIsRefused(createdAt: String) {
        let error = #expect(throws: BelvoError.self) {
            try BelvoAccountTenure(customerCreatedAt: createdAt)
        }
        #expect(error?.code == .invalidAccountTenure)
        #expect(error?.kind == .invalidParameters)
        #expect(error?.field == "accountTenure")
        #expect(error?.reason.contains("YYYY-MM-DD") == true)
    }

    @Test(arguments: [
        "2023-02-29", "1900-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-01-00",
        "0000-01-01",
    ])
    func impossibleDateIsRefused(date: String) {
        let error = #expect(throws: BelvoError.self) { try BelvoAccountTenure(date) }
        #expect(error?.code == .invalidAccountTenure)
        #expect(error?.reason.contains("not a calendar date") == true)
    }

    @Test func wholeStringMustBeTheDateWhenGivenDirectly() {
        let error = #expect(throws: BelvoError.self) { try BelvoAccountTenure("2024-03-07T00") }
        #expect(error?.code == .invalidAccountTenure)
    }
}
