import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Testing

@Suite struct DigestTests {
    let abc = Array("abc".utf8)

    @Test func computesFIPS180KnownAnswersForEveryAlgorithm() {
        #expect(
            Hex.encode(DigestAlgorithm.sha1.hash(abc))
                == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            Hex.encode(DigestAlgorithm.sha256.hash(abc))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Hex.encode(DigestAlgorithm.sha384.hash(abc))
                == "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"
        )
        #expect(
            Hex.encode(DigestAlgorithm.sha512.hash(abc))
                == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
        )
    }

    @Test func incrementalHashEqualsOneShot() throws {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        for algorithm in [DigestAlgorithm.sha1, .sha256, .sha384, .sha512] {
            var context = try DigestContext(algorithm)
            context.update(message[0..<10])
            context.update(message[10..<10])
            context.update(message[10...])
            #expect(try context.finalize() == algorithm.hash(message))
            #expect(algorithm.hash(message[..<333], message[333...]) == algorithm.hash(message))
        }
    }

    /// One-shot digests run OpenSSL's block functions directly; `DigestContext` goes through the
    /// EVP provider. Both must agree on every length around the block sizes (64 and 128 bytes)
    /// and every split of a message into two pieces.
    @Test func oneShotDigestsAgreeWithTheProviderAtEveryLength() throws {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) }
        for algorithm in [DigestAlgorithm.sha1, .sha256, .sha384, .sha512] {
            for length in 0...message.count {
                var context = try DigestContext(algorithm)
                context.update(message[..<length])
                let expected = try context.finalize()
                #expect(
                    algorithm.hash(message[..<length]) == expected, "\(algorithm) \(length)")
                let split = length / 3
                #expect(
                    algorithm.hash(message[..<split], message[split..<length]) == expected,
                    "\(algorithm) \(length) split at \(split)")
            }
        }
    }

    @Test func hashesOnTheStackWithTheSameResult() throws {
        let message = Array("abc".utf8)
        for algorithm in [DigestAlgorithm.sha1, .sha256, .sha384, .sha512] {
            let stacked = try algorithm.withHash(of: message) { (digest) throws in
                Array(digest)
            }
            #expect(stacked == algorithm.hash(message))
        }
    }

    @Test func hashesEmptyInput() {
        #expect(
            Hex.encode(DigestAlgorithm.sha256.hash([UInt8]()))
                == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func reportsDigestLengths() {
        #expect(DigestAlgorithm.sha1.byteCount == 20)
        #expect(DigestAlgorithm.sha256.byteCount == 32)
        #expect(DigestAlgorithm.sha384.byteCount == 48)
        #expect(DigestAlgorithm.sha512.byteCount == 64)
    }
}
