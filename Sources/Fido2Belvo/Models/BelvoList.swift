/// One page of a list answer (`GET /institutions/`, `GET /enrollments/?device_id=`).
///
/// Belvo's list endpoints answer either a bare JSON array or a paginated object
/// `{"count": …, "next": …, "previous": …, "results": […]}`; both decode here, a bare array as a
/// single page without `next`.
public struct BelvoList<Element: Decodable & Sendable>: Decodable, Sendable {
    /// The items on this page, in Belvo's order.
    public let results: [Element]
    /// The total number of items across pages, when Belvo says.
    public let count: Int?
    /// The URL of the next page, or nil on the last page.
    public let next: String?
    /// The URL of the previous page, or nil on the first page.
    public let previous: String?

    private enum CodingKeys: String, CodingKey {
        case results, count, next, previous
    }

    /// Decodes a bare array or a paginated object.
    public init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items = [Element]()
            while !array.isAtEnd { items.append(try array.decode(Element.self)) }
            results = items
            count = nil
            next = nil
            previous = nil
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        results = try container.decode([Element].self, forKey: .results)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
        next = try container.decodeIfPresent(String.self, forKey: .next)
        previous = try container.decodeIfPresent(String.self, forKey: .previous)
    }
}
