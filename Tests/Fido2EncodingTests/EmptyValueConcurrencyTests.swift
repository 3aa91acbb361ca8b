import Fido2Encoding
import Testing

/// `[UInt8](unsafeUninitializedCapacity: 0)` stores its count into the standard library's one
/// shared empty-array storage; any thread reading an empty array at the same time races with
/// that write. Decoding empty base64url must not make such an array while other tasks write
/// empty values. The race is benign in value (it stores 0 over 0), so this test fails only
/// under ThreadSanitizer (`Tests/Fuzz/sanitizers.sh thread`, part of `.ci/run`); it found the
/// decoder's empty case after the JSON writer began reading the bytes of every base64url value
/// it writes.
@Test func decodesAndWritesEmptyValuesFromManyTasksAtOnce() async throws {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for task in 0..<8 {
            group.addTask {
                var total = 0
                for _ in 0..<2_000 {
                    if task.isMultiple(of: 2) {
                        total += try Base64URL.decode("").count + Base64.decode("").count
                    } else {
                        var writer = JSONWriter()
                        writer.base64URL([UInt8]())
                        total += writer.bytes.count
                    }
                }
                return total
            }
        }
        var total = 0
        for try await count in group { total += count }
        // Only the writers produce bytes: `""` (two quotes) 2,000 times in each of four tasks.
        #expect(total == 4 * 2_000 * 2)
    }
}
