import COpenSSL
import Fido2Support

/// A small lock-protected set of ready-to-use `EVP_PKEY_CTX`s, each tagged with what it was set
/// up for (an operation, padding and digest).
///
/// OpenSSL contexts are not safe to share between threads while in use, but setting one up costs
/// an algorithm fetch (`EVP_PKEY_sign_init` looks the signature implementation up by name, and
/// naming a digest fetches it again). The pool hands each concurrent caller a context of its own
/// and keeps a few for reuse, so the common case pays the set-up once and concurrent callers
/// never share a context.
///
/// It is a non-copyable struct that lives inline in its owner (a key's box, a curve's support
/// object) and frees its contexts when the owner goes away; the slots sit behind a pthread mutex
/// (``LockedState``). A pool of capacity 0 keeps nothing and allocates nothing (no lock): for
/// owners that never use a context, such as ECDSA public keys, which verify through their
/// `EC_KEY`.
struct ContextPool: ~Copyable, Sendable {
    /// A context pointer that crosses threads only while exactly one of them owns it.
    private struct Slot: @unchecked Sendable {
        let tag: Int
        let pointer: OpaquePointer
    }

    private let capacity: Int
    /// nil when `capacity` is 0.
    private let slots: LockedState<[Slot]>?

    init(capacity: Int = 8) {
        self.capacity = capacity
        slots = capacity > 0 ? LockedState([]) : nil
    }

    deinit {
        slots?.withLock { slots in
            for slot in slots { EVP_PKEY_CTX_free(slot.pointer) }
            slots.removeAll()
        }
    }

    /// Runs `body` with a context tagged `tag`, taken from the pool or made by `make`, and gives
    /// it back to the pool afterwards unless `body` says it must be discarded (`keep` false).
    borrowing func withContext<R>(
        tag: Int = 0,
        make: () throws(CryptoError) -> OpaquePointer,
        _ body: (OpaquePointer) -> (result: R, keep: Bool)
    ) throws(CryptoError) -> R {
        let taken = slots?.withLock { slots -> Slot? in
            guard let index = slots.lastIndex(where: { $0.tag == tag }) else { return nil }
            return slots.remove(at: index)
        }
        let context: OpaquePointer
        if let taken {
            context = taken.pointer
        } else {
            context = try make()
        }
        let (result, keep) = body(context)
        let slot = Slot(tag: tag, pointer: context)
        let kept =
            keep
            && slots?.withLock { slots in
                guard slots.count < capacity else { return false }
                slots.append(slot)
                return true
            } == true
        if !kept { EVP_PKEY_CTX_free(context) }
        return result
    }
}
