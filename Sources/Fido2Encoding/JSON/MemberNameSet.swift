/// Detects repeated member names by exact UTF-8 comparison: a linear scan for small objects,
/// a hash set once an object grows past a handful of members.
struct MemberNameSet {
    private static let linearLimit = 12
    private var names: Set<ExactName>? = nil

    /// Records `name`; false when `members` (the object read so far) already has it.
    mutating func insert(_ name: String, among members: [JSONMember]) -> Bool {
        if names == nil, members.count < Self.linearLimit {
            return !members.contains { $0.name.hasSameUTF8(as: name) }
        }
        var set = names ?? Set(members.map { ExactName(text: $0.name) })
        names = nil  // drop the second reference so the insert does not copy
        let inserted = set.insert(ExactName(text: name)).inserted
        names = set
        return inserted
    }

    /// A string compared and hashed by its UTF-8 bytes, not by Unicode canonical equivalence.
    private struct ExactName: Hashable {
        let text: String

        static func == (lhs: ExactName, rhs: ExactName) -> Bool {
            lhs.text.hasSameUTF8(as: rhs.text)
        }

        func hash(into hasher: inout Hasher) {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }
}
