import Fido2Crypto
import Fido2Support

/// A reproducible byte stream: HMAC_DRBG with HMAC-SHA-256 (NIST SP 800-90A §10.1.2),
/// instantiated from a caller-chosen seed, never reseeded.
///
/// **Not for production.** Anyone who knows the seed knows every byte it will produce (so its
/// state is not wiped either). It exists so that tests and vector generators can run the
/// authenticator and get byte-identical output on every run. The same seed always gives the
/// same stream; the state is guarded by a lock so one source can be shared across tasks (the
/// interleaving then decides who gets which bytes).
package final class DeterministicRandomSource: RandomSource {
    /// K and V of SP 800-90A.
    private struct State {
        var key: [UInt8]
        var value: [UInt8]
    }

    private let state: LockedState<State>

    /// Starts the stream from `seed` (any length; use at least 32 bytes to get distinct streams).
    ///
    /// - Throws: ``CryptoError`` `openSSLFailure` if HMAC-SHA-256 is not available.
    package init<S: Collection<UInt8>>(seed: S) throws(CryptoError) {
        var initial = State(
            key: [UInt8](repeating: 0x00, count: 32), value: [UInt8](repeating: 0x01, count: 32))
        try Self.update(&initial, providedData: Array(seed))
        state = LockedState(initial)
    }

    /// Fills `buffer` with the next bytes of the stream.
    ///
    /// - Throws: ``CryptoError`` `randomGenerationFailed` if HMAC fails inside OpenSSL.
    package func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        try state.withLock { (state) throws(CryptoError) in
            do throws(CryptoError) {
                try Self.generate(&state, into: buffer)
            } catch {
                throw CryptoError(.randomGenerationFailed, "HMAC_DRBG: \(error)")
            }
        }
    }

    /// SP 800-90A HMAC_DRBG_Generate without additional input.
    private static func generate(
        _ state: inout State, into buffer: UnsafeMutableRawBufferPointer
    ) throws(CryptoError) {
        var offset = 0
        while offset < buffer.count {
            state.value = try hmac(key: state.key, state.value)
            let take = min(32, buffer.count - offset)
            state.value.withUnsafeBytes { value in
                if let source = value.baseAddress, let target = buffer.baseAddress {
                    (target + offset).copyMemory(from: source, byteCount: take)
                }
            }
            offset += take
        }
        try update(&state, providedData: nil)
    }

    /// SP 800-90A HMAC_DRBG_Update.
    private static func update(_ state: inout State, providedData: [UInt8]?) throws(CryptoError) {
        state.key = try hmac(key: state.key, state.value + [0x00] + (providedData ?? []))
        state.value = try hmac(key: state.key, state.value)
        guard let providedData, !providedData.isEmpty else { return }
        state.key = try hmac(key: state.key, state.value + [0x01] + providedData)
        state.value = try hmac(key: state.key, state.value)
    }

    /// HMAC-SHA-256 of `message` under `key`.
    private static func hmac(key: [UInt8], _ message: [UInt8]) throws(CryptoError) -> [UInt8] {
        do {
            return try HMAC.authenticationCode(for: message, key: key, digest: .sha256)
        } catch {
            throw error as? CryptoError ?? CryptoError(.openSSLFailure, "HMAC: \(error)")
        }
    }
}
