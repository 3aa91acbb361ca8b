/// A vector file or case that cannot be read or run as its format says, or a generator step
/// that went wrong: the reason is printed as the case's failure.
struct VectorDataError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
