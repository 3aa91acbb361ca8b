/// A rule that chooses the salt of an RSASSA-PSS signature instead of OpenSSL's random draw:
/// the hook through which reproducible PSS signatures are made (Fido2Vectors' deterministic
/// PSS, for the software authenticator's deterministic mode and the generated vectors). Carried
/// by an ``ECDSANonce`` made with ``ECDSANonce/deterministic(pssSalt:)``.
package struct PSSSalt: Hashable, Sendable {
    /// The rule's name; two rules are the same when their names are.
    package let name: String
    /// The salt (as long as the hash) for a signature by `key` of the message whose `digest`
    /// hash is `messageHash`.
    package let make:
        @Sendable (_ key: PrivateKey, _ messageHash: [UInt8], _ digest: DigestAlgorithm)
            throws(CryptoError) -> [UInt8]

    /// A rule called `name` that makes salts with `make`.
    package init(
        name: String,
        make:
            @escaping @Sendable (PrivateKey, [UInt8], DigestAlgorithm) throws(CryptoError) ->
            [UInt8]
    ) {
        self.name = name
        self.make = make
    }

    package static func == (lhs: PSSSalt, rhs: PSSSalt) -> Bool { lhs.name == rhs.name }

    package func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
