/// A payer institution (bank) as `GET /institutions/` lists it; the SDK's `Institution`.
///
/// Only `id` is required; other members Belvo adds are tolerated and ignored.
public struct BelvoInstitution: Decodable, Sendable, Hashable {
    /// Belvo's id for the institution, sent as `details.institution` when enrolling.
    public let id: String
    /// The institution's internal name, when given.
    public let name: String?
    /// The name to show the user (`display_name`; the SDK's `displayName`).
    public let displayName: String?
    /// The URL of the institution's icon (`icon_logo`; the SDK's `iconLogo`).
    public let iconLogo: String?
    /// The URL of the institution's full logo, when given.
    public let logo: String?

    /// An institution from its members (for tests and fixtures).
    public init(
        id: String, name: String? = nil, displayName: String? = nil, iconLogo: String? = nil,
        logo: String? = nil
    ) {
        self.id = id
        self.name = name
        self.displayName = displayName
        self.iconLogo = iconLogo
        self.logo = logo
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, logo
        case displayName = "display_name"
        case iconLogo = "icon_logo"
    }
}
