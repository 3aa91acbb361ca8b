import Fido2Crypto
import Testing

/// `ISO8601Time`: every ISO 8601 / RFC 3339 date-time form the command line's `--at` and the
/// vector files use, offsets applied, no offset read as UTC; anything else refused.
struct ISO8601TimeTests {
    /// 2025-01-08T00:00:00Z.
    static let january8: Int64 = 1_736_294_400

    @Test func readsEveryFormOfTheSameInstant() {
        let forms = [
            "2025-01-08T00:00:00Z", "2025-01-08T00:00:00", "2025-01-08t00:00:00z",
            "2025-01-08 00:00:00Z", "2025-01-08T00:00:00.000Z", "2025-01-08T00:00:00,5Z",
            "2025-01-08T00:00:00.123456789", "2025-01-08T01:00:00+01:00",
            "2025-01-08T01:00:00+0100", "2025-01-08T01:00:00+01", "2025-01-07T19:00:00-05:00",
            "2025-01-07T19:00:00\u{2212}05:00", "20250108T000000Z", "20250108T010000+0100",
            "2025-01-08T00:00Z", "2025-01-08",
        ]
        for form in forms {
            #expect(ISO8601Time.seconds(form) == Self.january8, "\(form)")
        }
    }

    @Test func refusesWhatIsNotADateTime() {
        let refused = [
            "", "2025", "2025-01", "2025-13-01T00:00:00Z", "2025-02-29T00:00:00Z",
            "2025-01-08T24:00:00Z", "2025-01-08T00:60:00Z", "2025-01-08T00:00:00.Z",
            "2025-01-08T00:00:00+25:00", "2025-01-08T00:00:00 UTC", "2025-01-08X00:00:00",
            "yesterday", "2025-01-08T00:00:00Z ",
        ]
        for text in refused {
            #expect(ISO8601Time.seconds(text) == nil, "\(text)")
        }
        #expect(ISO8601Time.seconds("2024-02-29T00:00:00Z") != nil)
    }

    @Test func writesUTCAndReadsItBack() {
        for seconds: Int64 in [0, Self.january8, 1_546_300_800, -86_400, 32_503_680_000] {
            let text = ISO8601Time.text(seconds)
            #expect(ISO8601Time.seconds(text) == seconds, "\(text)")
        }
        #expect(ISO8601Time.text(Self.january8) == "2025-01-08T00:00:00Z")
    }
}
