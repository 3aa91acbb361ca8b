/// A C string with a stable address for the life of the process, for `OSSL_PARAM` keys and
/// algorithm names: OpenSSL keeps the pointer inside the parameter, so a temporary bridged from
/// a Swift `String` would dangle.
struct CName {
    let pointer: UnsafePointer<CChar>

    init(_ text: StaticString) {
        pointer = UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// The same text as a mutable pointer, as `OSSL_PARAM_construct_utf8_string` wants it (it
    /// never writes through it).
    var mutablePointer: UnsafeMutablePointer<CChar> { UnsafeMutablePointer(mutating: pointer) }
}
