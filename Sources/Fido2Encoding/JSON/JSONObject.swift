/// A JSON object that keeps its members in the order they were read or written.
///
/// Order matters for exact output (WebAuthn's clientDataJSON is signed byte for byte), so
/// members live in an array, and two objects are equal only when their members are equal in the
/// same order. Lookups by name compare names code unit by code unit, as JSON does (Swift's `==`
/// on `String` would also match canonically equivalent spellings).
public struct JSONObject: Sendable, Hashable, RandomAccessCollection, ExpressibleByDictionaryLiteral
{
    /// The members, in order.
    public var members: [JSONMember]

    /// An object with `members`, in that order.
    public init(_ members: [JSONMember] = []) {
        self.members = members
    }

    /// An object with the literal's members, in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.members = elements.map { JSONMember($0.0, $0.1) }
    }

    /// The value of the member named `name`, or nil when there is none. When duplicates were
    /// allowed in, the last one wins, as in JavaScript's `JSON.parse`.
    public subscript(name: String) -> JSONValue? {
        guard let index = lastIndex(named: name) else { return nil }
        return members[index].value
    }

    /// Whether a member named `name` exists.
    public func contains(name: String) -> Bool {
        lastIndex(named: name) != nil
    }

    /// Appends a member (even when one of that name exists: the writer emits what it is given).
    public mutating func append(_ name: String, _ value: JSONValue) {
        members.append(JSONMember(name, value))
    }

    /// The names of the members, in order.
    public var names: [String] { members.map(\.name) }

    private func lastIndex(named name: String) -> Int? {
        var index = members.count
        while index > 0 {
            index -= 1
            if members[index].name.hasSameUTF8(as: name) { return index }
        }
        return nil
    }

    // MARK: Equality

    /// Objects are equal when they hold the same members in any order (RFC 8259 §4: an object
    /// is an unordered collection). Round trips through `JSONEncoder`, which writes members in
    /// an order of its own, give an equal object. Members of the same name (which the strict
    /// reader refuses) compare in their relative order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.members.count == rhs.members.count else { return false }
        if lhs.members == rhs.members { return true }
        return lhs.membersByName == rhs.membersByName
    }

    /// Hashes the members independently of their order, as ``==(_:_:)`` compares them.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member)
            combined = combined &+ memberHasher.finalize()
        }
        hasher.combine(members.count)
        hasher.combine(combined)
    }

    /// The members sorted by name (UTF-8 bytes), same names in their order.
    private var membersByName: [JSONMember] {
        members.enumerated().sorted { left, right in
            let order = left.element.name.utf8.lexicographicallyPrecedes(right.element.name.utf8)
            if order { return true }
            if right.element.name.utf8.lexicographicallyPrecedes(left.element.name.utf8) {
                return false
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// The position of the first member.
    public var startIndex: Int { members.startIndex }
    /// The position after the last member.
    public var endIndex: Int { members.endIndex }
    /// The member at `position`.
    public subscript(position: Int) -> JSONMember { members[position] }
}
