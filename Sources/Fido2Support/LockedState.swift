#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a `pthread_mutex_t`, both in one allocation: the package's one lock type
/// (the crypto module's caches, the authenticator's credential store and memo, the command
/// line's and the tests' clocks).
///
/// Why not `Synchronization.Mutex`: on Linux it is a futex lock inside the uninstrumented
/// Swift runtime, so ThreadSanitizer cannot see its happens-before edges and reports every value
/// it guards as racy. ThreadSanitizer intercepts pthread mutexes, so the project's TSan runs stay
/// meaningful, and an uncontended pthread mutex costs about the same.
package struct LockedState<State>: @unchecked Sendable {
    /// The storage: the state as the header, the mutex as the one tail element (a stable
    /// address, as pthread requires).
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            // The header (State) is destroyed by ManagedBuffer; the mutex is ours to destroy.
            withUnsafeMutablePointerToElements { mutex in
                _ = pthread_mutex_destroy(mutex)
                mutex.deinitialize(count: 1)
            }
        }
    }

    private let storage: Storage

    /// A new lock guarding `initial`.
    package init(_ initial: State) {
        storage = unsafeDowncast(
            Storage.create(minimumCapacity: 1) { _ in initial }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            _ = pthread_mutex_init(mutex, nil)
        }
    }

    /// Runs `body` with exclusive access to the state; the lock is released when `body`
    /// returns or throws.
    ///
    /// - Throws: what `body` throws.
    package func withLock<R, E: Error>(_ body: (inout State) throws(E) -> R) throws(E) -> R {
        try storage.withUnsafeMutablePointers { (state, mutex) throws(E) -> R in
            _ = pthread_mutex_lock(mutex)
            defer { _ = pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}
