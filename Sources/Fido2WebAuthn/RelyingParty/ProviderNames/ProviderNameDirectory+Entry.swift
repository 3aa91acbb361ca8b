extension ProviderNameDirectory {
    /// A name for people of the passkey provider or authenticator model behind an AAGUID
    /// ("iCloud Keychain", "YubiKey 5 Series with NFC"), with where it came from.
    ///
    /// For display only: an AAGUID is what the authenticator claims, and with `none` attestation
    /// (what passkey providers send) nothing vouches for it. Never decide on trust from a name;
    /// decide on ``VerifiedRegistration/attestationTrust``.
    public struct Entry: Sendable, Hashable {
        /// Where a name came from, in the order ``ProviderNameDirectory`` consults them.
        public enum Source: String, Sendable, Hashable {
            /// The operator's list
            /// (``ProviderNameDirectory/init(communityListJSON:metadata:maximumSize:)``).
            case operatorList = "operator-list"
            /// The metadata BLOB's entry for the AAGUID: its `friendlyNames` or `description`.
            case metadata
            /// The table built into fido2kit (``ProviderNameDirectory/builtInNames``).
            case builtIn = "built-in"
        }

        /// The name, such as `Google Password Manager`.
        public let name: String
        /// Where ``name`` came from.
        public let source: Source
        /// An icon for dark backgrounds (a `data:` URL in the community list), when the source
        /// has one.
        public let iconDark: String?
        /// An icon for light backgrounds, when the source has one.
        public let iconLight: String?

        /// A name from `source`, with the icons it has.
        public init(name: String, source: Source, iconDark: String? = nil, iconLight: String? = nil)
        {
            self.name = name
            self.source = source
            self.iconDark = iconDark
            self.iconLight = iconLight
        }
    }
}
