import Fido2Crypto
import Fido2TestSupport
import Testing

@Suite struct RandomSourceTests {
    @Test func systemSourceProducesDistinctOutput() throws {
        let source = SystemRandomSource()
        let a = try source.bytes(count: 32)
        let b = try source.bytes(count: 32)
        #expect(a.count == 32)
        #expect(a != b)
        #expect(try source.bytes(count: 0).isEmpty)
    }

    @Test func rejectsNegativeByteCount() {
        #expect(throws: CryptoError.self) { try SystemRandomSource().bytes(count: -1) }
    }
}
