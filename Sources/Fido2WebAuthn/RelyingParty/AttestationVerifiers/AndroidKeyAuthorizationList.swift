@_spi(Fido2Internals) import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// An `AuthorizationList` of Android key attestation (`softwareEnforced` or `teeEnforced` in a
/// ``AndroidKeyDescription``): a SEQUENCE of `[tag] EXPLICIT` fields in ascending tag order.
///
/// The fields WebAuthn §8.4 judges are decoded (`purpose`, `allApplications`, `origin`); every
/// other field is kept only as its tag number, after its DER has been read.
package struct AndroidKeyAuthorizationList: Sendable, Hashable {
    /// `KM_ORIGIN_GENERATED`: the key was generated inside the keystore.
    package static let originGenerated: Int64 = 0
    /// `KM_PURPOSE_SIGN`.
    package static let purposeSign: Int64 = 2

    /// `purpose [1] EXPLICIT SET OF INTEGER`, or nil when absent.
    package let purposes: [Int64]?
    /// Whether `allApplications [600] EXPLICIT NULL` is present.
    package let allApplications: Bool
    /// `origin [702] EXPLICIT INTEGER`, or nil when absent.
    package let origin: Int64?
    /// The tag numbers of every field present, ascending.
    package let tags: [UInt32]

    /// A list from its decoded fields.
    package init(purposes: [Int64]?, allApplications: Bool, origin: Int64?, tags: [UInt32]) {
        self.purposes = purposes
        self.allApplications = allApplications
        self.origin = origin
        self.tags = tags
    }

    /// Reads one AuthorizationList.
    ///
    /// - Throws: the reader's `der…` errors; `derUnexpectedTag` for a field that is not
    ///   `[n] EXPLICIT`; `derInvalidValue` for tags out of ascending order (a repeated field).
    init(reading reader: inout DERReader) throws(CryptoError) {
        self = try reader.readSequence { (list) throws(CryptoError) in
            var purposes: [Int64]?
            var allApplications = false
            var origin: Int64?
            var tags: [UInt32] = []
            while let tag = try list.peekTag() {
                let offset = list.offset
                guard tag.tagClass == .contextSpecific, tag.isConstructed else {
                    throw CryptoError(
                        .derUnexpectedTag,
                        "AuthorizationList fields are [n] EXPLICIT, found \(tag)",
                        offset: offset)
                }
                if let last = tags.last, tag.number <= last {
                    throw CryptoError(
                        .derInvalidValue,
                        "AuthorizationList tag [\(tag.number)] follows [\(last)]: out of order or repeated",
                        offset: offset)
                }
                tags.append(tag.number)
                switch tag.number {
                case 1:
                    purposes = try list.readExplicit(1) { (field) throws(CryptoError) in
                        try field.readSet { (set) throws(CryptoError) in
                            var values: [Int64] = []
                            while !set.isAtEnd { values.append(try set.readInt64()) }
                            return values
                        }
                    }
                case 600:
                    try list.readExplicit(600) { (field) throws(CryptoError) in try field.readNull()
                    }
                    allApplications = true
                case 702:
                    origin = try list.readExplicit(702) { (field) throws(CryptoError) in
                        try field.readInt64()
                    }
                default:
                    _ = try list.readElement()
                }
            }
            return AndroidKeyAuthorizationList(
                purposes: purposes, allApplications: allApplications, origin: origin, tags: tags)
        }
    }
}
