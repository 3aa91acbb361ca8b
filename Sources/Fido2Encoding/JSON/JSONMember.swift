/// One `name: value` member of a JSON object.
public struct JSONMember: Sendable, Hashable {
    /// The member's name, unescaped.
    public var name: String
    /// The member's value.
    public var value: JSONValue

    /// A member named `name` holding `value`.
    public init(_ name: String, _ value: JSONValue) {
        self.name = name
        self.value = value
    }
}
