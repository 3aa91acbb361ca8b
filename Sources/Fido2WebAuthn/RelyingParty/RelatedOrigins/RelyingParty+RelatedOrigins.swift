@_spi(Fido2Internals) import Fido2WebAuthnWire

extension RelyingParty {
    /// The `/.well-known/webauthn` document for this relying party's configured origins
    /// (WebAuthn Level 3 §5.11, Related Origin Requests): every `http` and `https` origin of
    /// ``origins``, never an Android app's `android:apk-key-hash:` origin.
    ///
    /// The document is served from the RP ID (``identifiers``' first) and lets the listed
    /// origins use it; verification accepts exactly the configured origins, exactly as
    /// before, with the RP ID's hash and no other: a related origin never brings its own
    /// domain in as an RP ID.
    ///
    /// ```swift
    /// let rp = RelyingParty(
    ///     id: "example.com", name: "Example",
    ///     origins: ["https://example.com", "https://example.co.uk", "https://example.de"])
    /// let body = try rp.relatedOriginsDocument().jsonBytes()
    /// // {"origins":["https://example.com","https://example.co.uk","https://example.de"]}
    /// ```
    ///
    /// - Throws: `WebAuthnError` with field `origins[i]`: `relatedOriginsLimitExceeded` when
    ///   the origins span more than ``RelyingParty/RelatedOriginsDocument/labelLimit`` (5)
    ///   registrable-domain labels, counted as ``RelyingParty/RelatedOriginsDocument`` documents;
    ///   `invalidValue` for an `http(s)` origin that is not `scheme://host[:port]`.
    public func relatedOriginsDocument() throws -> RelyingParty.RelatedOriginsDocument {
        try RelyingParty.RelatedOriginsDocument(origins: origins.allowedOrigins)
    }
}
