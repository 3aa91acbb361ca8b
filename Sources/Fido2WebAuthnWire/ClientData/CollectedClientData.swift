import Fido2Encoding

/// The client data a browser collects for a ceremony, the content of clientDataJSON
/// (WebAuthn `CollectedClientData`).
///
/// ``jsonBytes()`` serializes it exactly as WebAuthn Level 3 §5.8.1.1 (the CCDToString
/// algorithm) does: `type`, `challenge` (unpadded base64url), `origin`, `crossOrigin`
/// (`true`/`false`), `topOrigin` when present, then the remaining members in order
/// (`tokenBinding` first when present, then ``extraMembers``). The four strings of the fixed
/// part use CCDToString escaping (`\u000a`, never `\n`); the remaining members are written as
/// `JSON.stringify` writes them. ``ClientDataJSON`` reads it back.
public struct CollectedClientData: Sendable, Hashable {
    /// The ceremony: `webauthn.create`, `webauthn.get`, `payment.get`, or what was read.
    public let type: ClientDataType
    /// The relying party's challenge, decoded from base64url.
    public let challenge: [UInt8]
    /// The origin of the caller, as serialized by the client (`https://example.org`).
    public let origin: String
    /// Whether the caller was in a cross-origin iframe. A missing member (Level 1 clients)
    /// reads as false, which is what its absence means.
    public let crossOrigin: Bool
    /// The top-level origin when the caller was cross-origin.
    public let topOrigin: String?
    /// The Token Binding state of a Level 1 or 2 client, when it sent one as an object.
    public let tokenBinding: TokenBinding?
    /// Every other member, in order: extensions to the client data such as the test vectors'
    /// `extraData`, Android's `androidPackageName`, Secure Payment Confirmation's `payment`, or
    /// a legacy `tokenBinding` that is not an object.
    public let extraMembers: JSONObject

    /// The member names the fixed part of the serialization owns.
    static let reservedNames = [
        "type", "challenge", "origin", "crossOrigin", "topOrigin", "tokenBinding",
    ]

    /// Client data for a ceremony, ready to serialize.
    ///
    /// - Parameters:
    ///   - type: the ceremony (`webauthn.create`, `webauthn.get`, ...).
    ///   - challenge: the relying party's challenge, raw bytes (written as unpadded base64url).
    ///   - origin: the caller's origin as the client serializes it (`https://example.org`).
    ///   - crossOrigin: whether the caller is in a cross-origin iframe; false by default.
    ///   - topOrigin: only for a cross-origin call, as browsers set it.
    ///   - tokenBinding: the Token Binding state of a Level 1 or 2 client; nil by default.
    ///   - extraMembers: appended after the fixed members, in order.
    /// - Throws: ``WebAuthnError`` `invalidValue` when `topOrigin` is given while `crossOrigin`
    ///   is false, or when an extra member repeats a name or takes one of the fixed members'
    ///   names (which would put a duplicate name into the signed JSON).
    public init(
        type: ClientDataType, challenge: [UInt8], origin: String, crossOrigin: Bool = false,
        topOrigin: String? = nil, tokenBinding: TokenBinding? = nil, extraMembers: JSONObject = [:]
    ) throws {
        if topOrigin != nil, !crossOrigin {
            throw WebAuthnError(
                .invalidValue, "topOrigin is only set for a cross-origin call (crossOrigin true)",
                field: "topOrigin")
        }
        for (index, member) in extraMembers.members.enumerated() {
            if Self.reservedNames.contains(where: { $0.utf8.elementsEqual(member.name.utf8) }) {
                throw WebAuthnError(
                    .invalidValue, "\"\(member.name)\" is one of the fixed client data members",
                    field: "extraMembers.\(member.name)")
            }
            if extraMembers.members[..<index].contains(where: {
                $0.name.utf8.elementsEqual(member.name.utf8)
            }) {
                throw WebAuthnError(
                    .invalidValue, "\"\(member.name)\" appears twice",
                    field: "extraMembers.\(member.name)")
            }
        }
        self.init(
            unchecked: type, challenge: challenge, origin: origin, crossOrigin: crossOrigin,
            topOrigin: topOrigin, tokenBinding: tokenBinding, extraMembers: extraMembers)
    }

    /// Client data as read, which may be inconsistent (a `topOrigin` without `crossOrigin`):
    /// judging that is the relying party's job.
    init(
        unchecked type: ClientDataType, challenge: [UInt8], origin: String, crossOrigin: Bool,
        topOrigin: String?, tokenBinding: TokenBinding?, extraMembers: JSONObject
    ) {
        self.type = type
        self.challenge = challenge
        self.origin = origin
        self.crossOrigin = crossOrigin
        self.topOrigin = topOrigin
        self.tokenBinding = tokenBinding
        self.extraMembers = extraMembers
    }

    /// The clientDataJSON bytes, as WebAuthn Level 3's serialization algorithm writes them,
    /// allocated once at their exact size.
    public func jsonBytes() -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: serializedLength)
        writer.beginObject()
        writer.name("type")
        writer.string(type.rawValue, escaping: .ccdToString)
        writer.name("challenge")
        writer.base64URL(challenge)
        writer.name("origin")
        writer.string(origin, escaping: .ccdToString)
        writer.name("crossOrigin")
        writer.bool(crossOrigin)
        if let topOrigin {
            writer.name("topOrigin")
            writer.string(topOrigin, escaping: .ccdToString)
        }
        if let tokenBinding {
            writer.name("tokenBinding")
            tokenBinding.write(to: &writer)
        }
        for member in extraMembers.members {
            writer.name(member.name)
            writer.value(member.value)
        }
        writer.endObject()
        return writer.bytes
    }

    /// The number of bytes ``jsonBytes()`` produces.
    var serializedLength: Int {
        var length = #"{"type":,"challenge":"","origin":,"crossOrigin":}"#.utf8.count
        length += JSONWriter.escapedLength(of: type.rawValue, escaping: .ccdToString)
        length += Base64URL.encodedCount(ofByteCount: challenge.count)
        length += JSONWriter.escapedLength(of: origin, escaping: .ccdToString)
        length += crossOrigin ? 4 : 5
        if let topOrigin {
            length += #","topOrigin":"#.utf8.count
            length += JSONWriter.escapedLength(of: topOrigin, escaping: .ccdToString)
        }
        if let tokenBinding {
            length += #","tokenBinding":"#.utf8.count + tokenBinding.serializedLength
        }
        for member in extraMembers.members {
            length += 2 + JSONWriter.escapedLength(of: member.name, escaping: .javaScript)
            length += JSONWriter.serializedLength(of: member.value)
        }
        return length
    }
}
