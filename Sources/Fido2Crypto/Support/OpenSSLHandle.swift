/// A C object fetched once and kept for the life of the process (an `EVP_MD`, `EVP_MAC`,
/// `EVP_KDF`, `EC_GROUP`, …). Such objects are read-only after creation and OpenSSL allows them to
/// be used from any thread, so the wrapper is `@unchecked Sendable`.
final class OpenSSLHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    init?(_ pointer: OpaquePointer?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }
}
