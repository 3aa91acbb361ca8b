/// A reproducible byte stream: HMAC_DRBG with HMAC-SHA-256 (NIST SP 800-90A §10.1.2),
/// instantiated from a caller-chosen seed, never reseeded.
///
/// **Not for production.** Anyone who knows the seed knows every byte it will produce. It exists
/// so that tests and vector generators can run the authenticator and get byte-identical output
/// on every run. The same seed always gives the same stream; the state is guarded by a lock so
/// one source can be shared across tasks (the interleaving then decides who gets which bytes).
package final class DeterministicRandomSource: RandomSource {
    /// K and V of SP 800-90A.
    private struct State {
        var key: [UInt8]
        var value: [UInt8]
    }

    private let state: LockedState<State>

    /// Starts the stream from `seed` (any length; use at least 32 bytes to get distinct streams).
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/openSSLFailure`` if HMAC-SHA-256 is not
    ///   available.
    package init<S: Collection<UInt8>>(seed: S) throws(CryptoError) {
        var initial = State(
            key: [UInt8](repeating: 0x00, count: 32), value: [UInt8](repeating: 0x01, count: 32))
        var seedBytes = Array(seed)
        defer { SecureBytes.wipe(&seedBytes) }
        try Self.update(&initial, providedData: seedBytes)
        state = LockedState(initial)
    }

    deinit {
        state.withLock { state in
            SecureBytes.wipe(&state.key)
            SecureBytes.wipe(&state.value)
        }
    }

    /// Fills `buffer` with the next bytes of the stream.
    ///
    /// - Throws: ``CryptoError/Code-swift.struct/randomGenerationFailed`` if HMAC fails inside
    ///   OpenSSL.
    package func fill(_ buffer: UnsafeMutableRawBufferPointer) throws(CryptoError) {
        let result: Result<Void, CryptoError> = state.withLock { state in
            do throws(CryptoError) {
                try Self.generate(&state, into: buffer)
                return .success(())
            } catch {
                return .failure(CryptoError(.randomGenerationFailed, "HMAC_DRBG: \(error)"))
            }
        }
        try result.get()
    }

    /// SP 800-90A HMAC_DRBG_Generate without additional input.
    private static func generate(
        _ state: inout State, into buffer: UnsafeMutableRawBufferPointer
    )
        throws(CryptoError)
    {
        var context = try HMACContext(.sha256)
        var offset = 0
        while offset < buffer.count {
            try hmac(&context, key: state.key, parts: state.value, nil, into: &state.value)
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
        var context = try HMACContext(.sha256)
        var newKey = [UInt8](repeating: 0, count: 32)
        try hmac(&context, key: state.key, parts: state.value, (0x00, providedData), into: &newKey)
        swap(&state.key, &newKey)
        SecureBytes.wipe(&newKey)
        try hmac(&context, key: state.key, parts: state.value, nil, into: &state.value)
        guard let providedData, !providedData.isEmpty else { return }
        var nextKey = [UInt8](repeating: 0, count: 32)
        try hmac(&context, key: state.key, parts: state.value, (0x01, providedData), into: &nextKey)
        swap(&state.key, &nextKey)
        SecureBytes.wipe(&nextKey)
        try hmac(&context, key: state.key, parts: state.value, nil, into: &state.value)
    }

    /// `output = HMAC(key, value [‖ separator ‖ data])`.
    private static func hmac(
        _ context: inout HMACContext, key: [UInt8], parts value: [UInt8],
        _ suffix: (UInt8, [UInt8]?)?, into output: inout [UInt8]
    ) throws(CryptoError) {
        try ByteAccess.with(key) { (key) throws(CryptoError) in try context.start(key: key) }
        value.withUnsafeBytes { context.update($0) }
        if let (separator, data) = suffix {
            context.update(byte: separator)
            data?.withUnsafeBytes { context.update($0) }
        }
        try output.withMutableBytes { (out) throws(CryptoError) in try context.finish(into: out) }
    }
}
