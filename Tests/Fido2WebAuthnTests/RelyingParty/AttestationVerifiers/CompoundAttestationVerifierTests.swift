import Fido2CBOR
import Fido2Crypto
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// `compound` attestation (WebAuthn Level 3 §8.9): two real packed statements over the same
/// authenticator data and client data hash verify; one entry, a nested compound entry, an
/// invalid entry and an unknown or removed format are refused with typed errors.
@Suite struct CompoundAttestationVerifierTests {
    struct Parts {
        let pki: TestAttestationPKI
        let ceremony: SyntheticCeremony
        /// Packed self attestation by the credential key.
        let selfStatement: AttestationStatement
        /// Packed full attestation by the test PKI's attestation key.
        let fullStatement: AttestationStatement
        let authenticatorData: AuthenticatorData
    }

    static func parts() throws -> Parts {
        let pki = try TestAttestationPKI()
        let ceremony = try SyntheticCeremony.p256()
        let authData = try ceremony.registrationAuthenticatorData()
        let hash = DigestAlgorithm.sha256.hash(try ceremony.clientDataJSON)
        let selfStatement = AttestationStatement.packed(
            try .selfAttestation(
                authenticatorData: authData, clientDataHash: hash,
                credentialKey: ceremony.credentialKey, algorithm: .es256))
        let fullStatement = AttestationStatement.packed(
            try .fullAttestation(
                authenticatorData: authData, clientDataHash: hash,
                attestationKey: pki.attestationKey,
                certificates: [
                    try pki.packedCertificate(aaguid: SyntheticCeremony.aaguid.bytes).derEncoded
                ]))
        return Parts(
            pki: pki, ceremony: ceremony, selfStatement: selfStatement,
            fullStatement: fullStatement, authenticatorData: authData)
    }

    /// The encoded `attStmt` of `statement`.
    static func encoded(_ statement: AttestationStatement, _ authData: AuthenticatorData) -> [UInt8]
    {
        Array(AttestationObject(authenticatorData: authData, statement: statement).encodedStatement)
    }

    /// A compound `attStmt`: an array of `{fmt, attStmt}` maps.
    static func compound(_ entries: [(format: String, statement: [UInt8])]) -> [UInt8] {
        var writer = CBORWriter()
        writer.writeArrayHeader(count: entries.count)
        for entry in entries {
            writer.writeMapHeader(count: 2)
            writer.writeTextString("fmt")
            writer.writeTextString(entry.format)
            writer.writeTextString("attStmt")
            writer.writeEncodedItem(entry.statement[...])
        }
        return writer.bytes
    }

    func ceremony(_ parts: Parts, attStmt: [UInt8]) -> SyntheticCeremony {
        var ceremony = parts.ceremony
        ceremony.attestation = .raw(format: "compound", statement: attStmt)
        return ceremony
    }

    func verify(
        _ ceremony: SyntheticCeremony, relyingParty: RelyingParty
    ) throws -> VerifiedRegistration {
        try relyingParty.verifyRegistration(
            try ceremony.registration(),
            expecting: RegistrationExpectations(challenge: SyntheticCeremony.challenge))
    }

    func failure(_ ceremony: SyntheticCeremony, relyingParty: RelyingParty) throws -> WebAuthnError?
    {
        let response = try ceremony.registration()
        do {
            _ = try relyingParty.verifyRegistration(
                response,
                expecting: RegistrationExpectations(challenge: SyntheticCeremony.challenge))
            return nil
        } catch let error as WebAuthnError {
            return error
        }
    }

    @Test(arguments: [false, true])
    func verifiesPackedSelfAndPackedFull(fullFirst: Bool) throws {
        let parts = try Self.parts()
        let entries =
            fullFirst
            ? [parts.fullStatement, parts.selfStatement]
            : [parts.selfStatement, parts.fullStatement]
        let attStmt = Self.compound(
            entries.map { ($0.format, Self.encoded($0, parts.authenticatorData)) })
        let ceremony = ceremony(parts, attStmt: attStmt)

        // The strongest entry stands for the statement: the chain verified to the caller's root.
        let anchored = try verify(
            ceremony,
            relyingParty: SyntheticCeremony.relyingParty(trustPolicy: parts.pki.policy()))
        #expect(anchored.attestation.format == "compound")
        #expect(anchored.attestationType == .basic)
        #expect(anchored.attestationTrust == .verified(.caller))
        #expect(anchored.attestation.certificates.count == 1)

        // Without anchors the chain proves nothing, and is still the strongest claim.
        let unanchored = try verify(ceremony, relyingParty: SyntheticCeremony.relyingParty())
        #expect(unanchored.attestationType == .basic)
        #expect(unanchored.attestationTrust == .unverified)

        // The parsed statement is the typed entries, and building it writes the same bytes.
        let object = try AttestationObject(bytes: try ceremony.attestationObject())
        #expect(object.statement == .compound(entries))
        let built = AttestationObject(
            authenticatorData: parts.authenticatorData, statement: .compound(entries))
        #expect(Array(built.encodedStatement) == attStmt)
        #expect(built.bytes == object.bytes)
    }

    @Test func twoSelfStatementsAreSelfAttestation() throws {
        let parts = try Self.parts()
        let entry = Self.encoded(parts.selfStatement, parts.authenticatorData)
        let registration = try verify(
            ceremony(parts, attStmt: Self.compound([("packed", entry), ("none", [0xa0])])),
            relyingParty: SyntheticCeremony.relyingParty())
        #expect(registration.attestationType == .selfAttestation)
        #expect(registration.attestationTrust == .selfAttestation)
    }

    @Test func refusesFewerThanTwoEntries() throws {
        let parts = try Self.parts()
        let entry = Self.encoded(parts.selfStatement, parts.authenticatorData)
        for attStmt in [Self.compound([("packed", entry)]), Self.compound([])] {
            let error = try failure(
                ceremony(parts, attStmt: attStmt), relyingParty: SyntheticCeremony.relyingParty())
            #expect(error?.code == .invalidAttestationStatement, "\(String(describing: error))")
            #expect(error?.field == "attestationObject.attStmt", "\(String(describing: error))")
        }
        // Built in code, a one-entry statement is refused by the verifier.
        let object = AttestationObject(
            authenticatorData: parts.authenticatorData, statement: .compound([parts.selfStatement]))
        var ceremony = parts.ceremony
        ceremony.attestation = .raw(format: "compound", statement: Array(object.encodedStatement))
        #expect(
            try failure(ceremony, relyingParty: SyntheticCeremony.relyingParty())?.code
                == .invalidAttestationStatement)
    }

    @Test func refusesAMapAttStmt() throws {
        let parts = try Self.parts()
        let error = try failure(
            ceremony(parts, attStmt: Self.encoded(parts.selfStatement, parts.authenticatorData)),
            relyingParty: SyntheticCeremony.relyingParty())
        #expect(error?.code == .invalidAttestationStatement)
        #expect(error?.field == "attestationObject.attStmt")
    }

    @Test func refusesANestedCompoundEntry() throws {
        let parts = try Self.parts()
        let entry = Self.encoded(parts.selfStatement, parts.authenticatorData)
        let inner = Self.compound([("packed", entry), ("packed", entry)])
        let error = try failure(
            ceremony(parts, attStmt: Self.compound([("packed", entry), ("compound", inner)])),
            relyingParty: SyntheticCeremony.relyingParty())
        #expect(error?.code == .invalidAttestationStatement, "\(String(describing: error))")
        #expect(error?.field == "attestationObject.attStmt[1].fmt")
    }

    @Test func refusesAnInvalidEntry() throws {
        let parts = try Self.parts()
        guard case .packed(let full) = parts.fullStatement else { return }
        var signature = Array(full.signature)
        signature[signature.count - 1] ^= 1
        let forged = AttestationStatement.packed(
            PackedAttestationStatement(
                algorithm: full.algorithm, signature: signature,
                certificates: full.certificates?.map { Array($0) }))
        let attStmt = Self.compound([
            ("packed", Self.encoded(parts.selfStatement, parts.authenticatorData)),
            ("packed", Self.encoded(forged, parts.authenticatorData)),
        ])
        // Anchored or not, one entry that does not verify refuses the whole statement.
        for trustPolicy in [parts.pki.policy(), AttestationTrustPolicy()] {
            let error = try failure(
                ceremony(parts, attStmt: attStmt),
                relyingParty: SyntheticCeremony.relyingParty(trustPolicy: trustPolicy))
            #expect(error?.code == .attestationSignatureInvalid, "\(String(describing: error))")
            #expect(error?.field?.hasPrefix("attestationObject.attStmt[1].") == true)
        }
    }

    @Test func refusesAnUnknownOrRemovedEntryFormat() throws {
        let parts = try Self.parts()
        let entry = Self.encoded(parts.selfStatement, parts.authenticatorData)
        let unknown = try failure(
            ceremony(parts, attStmt: Self.compound([("packed", entry), ("x-unknown", [0xa0])])),
            relyingParty: SyntheticCeremony.relyingParty())
        #expect(unknown?.code == .attestationFormatUnsupported, "\(String(describing: unknown))")
        #expect(unknown?.field == "attestationObject.attStmt[1].fmt")
        #expect(unknown?.step == "§7.1 step 21")

        // A format the relying party removed is refused inside a compound statement too.
        var relyingParty = SyntheticCeremony.relyingParty()
        relyingParty.attestationFormats.remove(format: "none")
        let removed = try failure(
            ceremony(parts, attStmt: Self.compound([("packed", entry), ("none", [0xa0])])),
            relyingParty: relyingParty)
        #expect(removed?.code == .attestationFormatUnsupported)
        // And compound itself can be removed.
        relyingParty.attestationFormats.remove(format: "compound")
        let compound = try failure(
            ceremony(parts, attStmt: Self.compound([("packed", entry), ("packed", entry)])),
            relyingParty: relyingParty)
        #expect(compound?.code == .attestationFormatUnsupported)
        #expect(compound?.field == "attestationObject.fmt")
    }
}
