import Fido2Crypto
import Fido2WebAuthnWire

/// Makes credential keys and IDs for the software authenticator.
enum CredentialKeyFactory {
    /// The key kind for `algorithm`, or nil when the authenticator cannot make one.
    static func kind(for algorithm: COSEAlgorithm, rsaModulusBits: Int) -> KeyKind? {
        switch algorithm {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        case .es256K: .secp256k1
        case .edDSA, .ed25519: .ed25519
        case .ed448: .ed448
        case .rs256, .rs384, .rs512, .ps256, .ps384, .ps512: .rsa(modulusBits: rsaModulusBits)
        default: nil
        }
    }

    /// A new key of `kind`, from `random` when given, else from OpenSSL's DRBG.
    static func generate(
        _ kind: KeyKind, random: (any RandomSource)?
    ) throws(AuthenticatorError)
        -> PrivateKey
    {
        if let random, let bits = kind.modulusBits {
            return try deterministicRSA(bits: bits, random: random)
        }
        do {
            guard let random else { return try PrivateKey(generating: kind) }
            return try PrivateKey(generating: kind, using: random)
        } catch {
            throw AuthenticatorError(.keyGenerationFailed, "\(kind) key: \(error)")
        }
    }

    /// `count` random bytes (a credential ID).
    static func randomBytes(
        _ count: Int, random: (any RandomSource)?
    ) throws(AuthenticatorError)
        -> [UInt8]
    {
        do {
            return try (random ?? SystemRandomSource()).bytes(count: count)
        } catch {
            throw AuthenticatorError(.keyGenerationFailed, "random bytes: \(error)")
        }
    }

    /// The Mersenne prime 2^1279 − 1: a known prime partner while searching for a prime.
    private static let mersenne1279: [UInt8] = [0x7f] + [UInt8](repeating: 0xff, count: 159)

    /// An RSA key whose primes come from `random`: each prime is the first one at or after a
    /// drawn odd candidate of half the modulus size with its top two bits set, tested with
    /// OpenSSL's `BN_check_prime` through ``PrivateKey/init(rsaPrimeP:primeQ:publicExponent:)``
    /// (whose first test is p's primality, so composites fail fast). Deterministic for a
    /// deterministic source; slow (tenths of a second); meant for tests and vector generation.
    static func deterministicRSA(
        bits: Int, random: some RandomSource
    ) throws(AuthenticatorError)
        -> PrivateKey
    {
        let p = try prime(bytes: bits / 16, random: random, avoiding: nil)
        let q = try prime(bytes: bits / 16, random: random, avoiding: p)
        do {
            return try PrivateKey(rsaPrimeP: p, primeQ: q, publicExponent: rsaExponent)
        } catch {
            throw AuthenticatorError(.keyGenerationFailed, "RSA key from primes: \(error)")
        }
    }

    private static let rsaExponent: [UInt8] = [0x01, 0x00, 0x01]

    /// The first prime at or after a drawn candidate (see ``deterministicRSA(bits:random:)``).
    private static func prime(
        bytes count: Int, random: some RandomSource, avoiding other: [UInt8]?
    )
        throws(AuthenticatorError) -> [UInt8]
    {
        var candidate: [UInt8]
        do {
            candidate = try random.bytes(count: count)
        } catch {
            throw AuthenticatorError(.keyGenerationFailed, "random bytes: \(error)")
        }
        candidate[0] |= 0xc0
        candidate[count - 1] |= 0x01
        for _ in 0..<100_000 {
            if candidate != other, isPrime(candidate) { return candidate }
            guard increment(&candidate) else { break }
        }
        throw AuthenticatorError(.keyGenerationFailed, "no RSA prime found from the random draw")
    }

    /// Whether `candidate` is prime (and fits an RSA key with e = 65537).
    private static func isPrime(_ candidate: [UInt8]) -> Bool {
        do {
            _ = try PrivateKey(
                rsaPrimeP: candidate, primeQ: mersenne1279, publicExponent: rsaExponent)
            return true
        } catch {
            return false
        }
    }

    /// Adds 2 to a big-endian number; false when it overflows its top two bits.
    private static func increment(_ number: inout [UInt8]) -> Bool {
        var index = number.count - 1
        var carry: UInt16 = 2
        while carry > 0, index >= 0 {
            let sum = UInt16(number[index]) + carry
            number[index] = UInt8(truncatingIfNeeded: sum)
            carry = sum >> 8
            index -= 1
        }
        return carry == 0 && number[0] & 0xc0 == 0xc0
    }
}
