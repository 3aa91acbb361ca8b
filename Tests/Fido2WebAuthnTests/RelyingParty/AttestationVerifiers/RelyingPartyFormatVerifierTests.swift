import Fido2Authenticator
import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
@_spi(Fido2Internals) import Fido2WebAuthn
import Fido2WebAuthnTestSupport
@_spi(Fido2Internals) import Fido2WebAuthnWire
import Testing

/// The `none`, `packed` and `fido-u2f` verification procedures (§8.7, §8.2 with §8.2.1, §8.6):
/// every rule, through registrations made with a test PKI.
@Suite struct RelyingPartyFormatVerifierTests {
    static let expectations = RegistrationExpectations(challenge: SyntheticCeremony.challenge)

    func register(
        _ ceremony: SyntheticCeremony, trusting policy: AttestationTrustPolicy = .init(),
        profile: VerificationProfile = .compatible
    ) throws -> VerifiedRegistration {
        try SyntheticCeremony.relyingParty(trustPolicy: policy, profile: profile)
            .verifyRegistration(try ceremony.registration(), expecting: Self.expectations)
    }

    /// Expects `code` at `step`; with `because`, the reason must mention it (which rule).
    func expectRejected(
        _ ceremony: SyntheticCeremony, trusting policy: AttestationTrustPolicy = .init(),
        profile: VerificationProfile = .compatible,
        _ code: WebAuthnError.Code, step: VerificationStep = "§7.1 step 22", because: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let response = try ceremony.registration()
        let relyingParty = SyntheticCeremony.relyingParty(trustPolicy: policy, profile: profile)
        let error = webAuthnError(
            { () throws in
                try relyingParty.verifyRegistration(response, expecting: Self.expectations)
            }, sourceLocation: sourceLocation)
        #expect(error?.code == code, "\(String(describing: error))", sourceLocation: sourceLocation)
        #expect(error?.step == step, "\(String(describing: error))", sourceLocation: sourceLocation)
        if let because {
            #expect(
                error?.reason.contains(because) == true, "\(String(describing: error))",
                sourceLocation: sourceLocation)
        }
    }

    func packedCeremony(
        _ pki: TestAttestationPKI, certificate: Certificate, algorithm: COSEAlgorithm? = nil
    ) throws -> SyntheticCeremony {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedFull(
            key: pki.attestationKey, certificates: [certificate.derEncoded], algorithm: algorithm)
        return ceremony
    }

    func expectPackedRejected(
        _ pki: TestAttestationPKI, certificate: Certificate,
        profile: VerificationProfile = .compatible, _ code: WebAuthnError.Code,
        because: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        try expectRejected(
            try packedCeremony(pki, certificate: certificate), profile: profile, code,
            because: because, sourceLocation: sourceLocation)
    }

    // MARK: packed, self attestation

    @Test func verifiesPackedSelfAttestation() throws {
        for (kind, algorithm) in [(KeyKind.p256, COSEAlgorithm.es256), (.ed25519, .edDSA)] {
            var ceremony = SyntheticCeremony(
                credentialKey: try PrivateKey(generating: kind), algorithm: algorithm)
            ceremony.attestation = .packedSelf()
            let result = try register(ceremony)
            #expect(result.attestationType == .selfAttestation)
            #expect(result.trustPath == .notApplicable && result.attestation.certificates.isEmpty)
        }
    }

    @Test func rejectsSelfAttestationWithAnotherAlgorithm() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedSelf(algorithm: .es384)
        try expectRejected(ceremony, .attestationAlgorithmMismatch, step: "§7.1 step 22")
    }

    @Test func rejectsSelfAttestationByAnotherKey() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedSelf()
        var response = try ceremony.registration()
        ceremony.credentialKey = try PrivateKey(generating: .p256)
        // The statement was signed by the other key; authData names this one.
        let forged = try ceremony.registration()
        response.response.attestationObject = try Self.swapStatement(
            of: forged.response.attestationObject,
            from: response.response.attestationObject)
        expectFailure(.attestationSignatureInvalid, step: "§7.1 step 22") {
            () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
    }

    // MARK: packed, full attestation

    @Test func verifiesPackedFullAttestationToTheAnchor() throws {
        let pki = try TestAttestationPKI()
        let certificate = try pki.packedCertificate(aaguid: SyntheticCeremony.aaguid.bytes)
        let ceremony = try packedCeremony(pki, certificate: certificate)
        let result = try register(ceremony, trusting: pki.policy())
        #expect(result.attestationType == .basic)
        #expect(result.attestation.certificates == [certificate])
        #expect(result.trustPath == .verified(path: [certificate, pki.root.certificate]))
        // Without anchors every rule is still checked, and the path is not judged.
        guard case .notEvaluated = try register(ceremony).trustPath else {
            Issue.record("trust path judged without anchors")
            return
        }
    }

    @Test func rejectsAChainToAnotherAnchor() throws {
        let pki = try TestAttestationPKI()
        let other = try TestAttestationPKI()
        let ceremony = try packedCeremony(pki, certificate: try pki.packedCertificate())
        try expectRejected(
            ceremony, trusting: other.policy(), .attestationTrustPathInvalid, step: "§7.1 step 24")
        // Anchors for another format do not judge packed chains.
        guard
            case .notEvaluated = try register(ceremony, trusting: pki.policy(format: "tpm"))
                .trustPath
        else {
            Issue.record("a tpm anchor judged a packed chain")
            return
        }
    }

    @Test func judgesTheChainAtThePolicyTime() throws {
        let pki = try TestAttestationPKI()
        let ceremony = try packedCeremony(pki, certificate: try pki.packedCertificate())
        var policy = pki.policy()
        policy.validationTime = TestAttestationPKI.notBefore - 86_400
        try expectRejected(
            ceremony, trusting: policy, .attestationTrustPathInvalid, step: "§7.1 step 24")
    }

    @Test func rejectsAnX5CEntryThatIsNotACertificate() throws {
        let pki = try TestAttestationPKI()
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedFull(
            key: pki.attestationKey, certificates: [[0x30, 0x03, 0x02, 0x01, 0x01]])
        try expectRejected(ceremony, .attestationCertificateInvalid, step: "§7.1 step 22")
    }

    @Test func rejectsAnAttestationKeyTheLibraryRefuses() throws {
        let pki = try TestAttestationPKI()
        let weak = try PrivateKey(unsafeGeneratingRSAModulusBits: 1024)
        let certificate = try pki.certificate(
            subject: try TestAttestationPKI.subject(), key: try weak.publicKey)
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedFull(key: weak, certificates: [certificate.derEncoded])
        try expectRejected(ceremony, .attestationCertificateInvalid, step: "§7.1 step 22")
    }

    @Test func rejectsAnAlgorithmThatDoesNotFitTheCertificateKey() throws {
        let pki = try TestAttestationPKI()
        var ceremony = try SyntheticCeremony.p256()
        let certificate = try pki.packedCertificate()
        ceremony.attestation = .packedFull(
            key: pki.attestationKey, certificates: [certificate.derEncoded])
        var response = try ceremony.registration()
        let object = try AttestationObject(bytes: response.response.attestationObject)
        guard case .packed(let packed) = object.statement else {
            Issue.record("not packed")
            return
        }
        response.response.attestationObject = Array(
            AttestationObject(
                authenticatorData: object.authenticatorData,
                statement: .packed(packed.withAlgorithm(.rs256))
            ).bytes)
        expectFailure(.attestationAlgorithmMismatch, step: "§7.1 step 22") {
            () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
    }

    @Test func rejectsAnAlgorithmTheLibraryDoesNotImplement() throws {
        let pki = try TestAttestationPKI()
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedFull(
            key: pki.attestationKey, certificates: [try pki.packedCertificate().derEncoded])
        var response = try ceremony.registration()
        let object = try AttestationObject(bytes: response.response.attestationObject)
        guard case .packed(let packed) = object.statement else {
            Issue.record("not packed")
            return
        }
        response.response.attestationObject = Array(
            AttestationObject(
                authenticatorData: object.authenticatorData,
                statement: .packed(packed.withAlgorithm(COSEAlgorithm(rawValue: -48)))
            ).bytes)
        expectFailure(.unsupportedAlgorithm, step: "§7.1 step 22") {
            () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
    }

    @Test func namesTheStatementMemberUnderTheAttestationObject() throws {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedSelf(algorithm: .es384)
        let response = try ceremony.registration()
        let error = webAuthnError { () throws in
            try SyntheticCeremony.relyingParty().verifyRegistration(
                response, expecting: Self.expectations)
        }
        #expect(error?.field == "attestationObject.attStmt.alg")
    }

    @Test func rejectsASignatureByAnotherAttestationKey() throws {
        let pki = try TestAttestationPKI()
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .packedFull(
            key: try PrivateKey(generating: .p256),
            certificates: [try pki.packedCertificate().derEncoded])
        try expectRejected(ceremony, .attestationSignatureInvalid, step: "§7.1 step 22")
    }

    @Test func rejectsAVersion1Certificate() throws {
        let pki = try TestAttestationPKI()
        try expectPackedRejected(
            pki, certificate: try Self.version1Certificate(pki), .attestationCertificateInvalid,
            because: "version")
    }

    @Test func rejectsASubjectMissingARequiredAttribute() throws {
        let pki = try TestAttestationPKI()
        let subjects: [DistinguishedName] = [
            try DistinguishedName([
                .organization("o"), .organizationalUnit("Authenticator Attestation"),
                .commonName("cn"),
            ]),
            try DistinguishedName([
                .country("SE"), .organizationalUnit("Authenticator Attestation"),
                .commonName("cn"),
            ]),
            try DistinguishedName([
                .country("SE"), .organization("o"),
                .organizationalUnit("Authenticator Attestation"),
            ]),
            try TestAttestationPKI.subject(organizationalUnit: "Authenticators"),
            try DistinguishedName([.country("SE"), .organization("o"), .commonName("cn")]),
        ]
        for (subject, rule) in zip(subjects, ["no C", "no O", "no CN", "OU", "OU"]) {
            try expectPackedRejected(
                pki, certificate: try pki.certificate(subject: subject),
                .attestationCertificateInvalid, because: rule)
        }
    }

    @Test func rejectsCABasicConstraintsInBothProfilesAndMissingOnesWhenStrict() throws {
        let pki = try TestAttestationPKI()
        let subject = try TestAttestationPKI.subject()
        let withoutConstraints = try pki.certificate(subject: subject) {
            $0.basicConstraints = nil
        }
        try expectPackedRejected(
            pki, certificate: withoutConstraints, profile: .strict, .attestationCertificateInvalid,
            because: "basicConstraints is missing (the compatible profile reads it")
        for profile in [VerificationProfile.compatible, .strict] {
            try expectPackedRejected(
                pki,
                certificate: try pki.certificate(subject: subject) {
                    $0.basicConstraints = BasicConstraints(isCertificateAuthority: true)
                }, profile: profile, .attestationCertificateInvalid, because: "CA")
        }
        // The §8.2.1 certificate the builder makes passes.
        _ = try register(
            try packedCeremony(pki, certificate: try pki.certificate(subject: subject)))
    }

    @Test func readsAMissingBasicConstraintsAsAnEndEntityAndReportsIt() throws {
        let pki = try TestAttestationPKI()
        let certificate = try pki.certificate(subject: try TestAttestationPKI.subject()) {
            $0.basicConstraints = nil
        }
        let result = try register(try packedCeremony(pki, certificate: certificate))
        #expect(result.attestationType == .basic)
        #expect(result.deviations.count == 1)
        #expect(result.deviations.first?.kind == .certificateWithoutBasicConstraints)
        #expect(result.deviations.first?.field == "attestationObject.attStmt.x5c[0]")
        #expect(result.deviations.first?.relaxation == nil)
        // A certificate that has the extension is no deviation at all.
        let conforming = try register(
            try packedCeremony(
                pki, certificate: try pki.certificate(subject: try TestAttestationPKI.subject())))
        #expect(conforming.deviations.isEmpty)
    }

    @Test func rejectsAnotherAAGUIDInTheCertificate() throws {
        let pki = try TestAttestationPKI()
        try expectPackedRejected(
            pki, certificate: try pki.packedCertificate(aaguid: Array(repeating: 0x11, count: 16)),
            .attestationAAGUIDMismatch)
    }

    @Test func rejectsACriticalAAGUIDExtension() throws {
        let pki = try TestAttestationPKI()
        var value = DERWriter()
        value.appendOctetString(SyntheticCeremony.aaguid.bytes)
        let certificate = try pki.certificate(subject: try TestAttestationPKI.subject()) {
            $0.additionalExtensions = [
                CertificateExtension(oid: .fidoAAGUID, isCritical: true, value: value.bytes)
            ]
        }
        try expectPackedRejected(
            pki, certificate: certificate, .attestationCertificateInvalid, because: "critical")
    }

    // MARK: fido-u2f

    func u2fCeremony(
        _ pki: TestAttestationPKI, certificates: [Certificate]? = nil
    ) throws -> SyntheticCeremony {
        var ceremony = try SyntheticCeremony.p256()
        ceremony.flags = [.userPresent]
        ceremony.aaguid = .zero
        let leaf = try pki.certificate(subject: try DistinguishedName([.commonName("U2F")]))
        ceremony.attestation = .fidoU2F(
            key: pki.attestationKey, certificates: (certificates ?? [leaf]).map(\.derEncoded))
        return ceremony
    }

    @Test func verifiesFIDOU2FToTheAnchor() throws {
        let pki = try TestAttestationPKI()
        let ceremony = try u2fCeremony(pki)
        let result = try register(ceremony, trusting: pki.policy(format: "fido-u2f"))
        #expect(result.attestationType == .basic && result.format == "fido-u2f")
        guard case .verified(let path) = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
        #expect(path.last == pki.root.certificate)
        try expectRejected(
            ceremony, trusting: try TestAttestationPKI().policy(format: "fido-u2f"),
            .attestationTrustPathInvalid, step: "§7.1 step 24")
    }

    @Test func rejectsAU2FStatementWithoutExactlyOneCertificate() throws {
        let pki = try TestAttestationPKI()
        let leaf = try pki.certificate(subject: try DistinguishedName([.commonName("U2F")]))
        let ceremony = try u2fCeremony(pki, certificates: [leaf, pki.root.certificate])
        try expectRejected(ceremony, .invalidAttestationStatement, step: "§7.1 step 22")
    }

    @Test func rejectsAU2FCertificateWithoutAP256Key() throws {
        let pki = try TestAttestationPKI()
        let p384 = try PrivateKey(generating: .p384)
        let leaf = try pki.certificate(
            subject: try DistinguishedName([.commonName("U2F")]), key: try p384.publicKey)
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .raw(
            format: "fido-u2f", statement: Self.u2fStatement(signature: [1], certificate: leaf))
        try expectRejected(ceremony, .attestationCertificateInvalid, step: "§7.1 step 22")
    }

    @Test func rejectsAU2FCredentialThatIsNotES256() throws {
        let pki = try TestAttestationPKI()
        let leaf = try pki.certificate(subject: try DistinguishedName([.commonName("U2F")]))
        var ceremony = SyntheticCeremony(
            credentialKey: try PrivateKey(generating: .p384), algorithm: .es384)
        ceremony.attestation = .raw(
            format: "fido-u2f", statement: Self.u2fStatement(signature: [1], certificate: leaf))
        try expectRejected(ceremony, .attestationAlgorithmMismatch, step: "§7.1 step 22")
    }

    @Test func rejectsAU2FSignatureByAnotherKey() throws {
        let pki = try TestAttestationPKI()
        let leaf = try pki.certificate(subject: try DistinguishedName([.commonName("U2F")]))
        var ceremony = try SyntheticCeremony.p256()
        ceremony.attestation = .fidoU2F(
            key: try PrivateKey(generating: .p256), certificates: [leaf.derEncoded])
        try expectRejected(ceremony, .attestationSignatureInvalid, step: "§7.1 step 22")
    }

    // MARK: Verifiers called with another format's statement

    @Test func verifiersRefuseOtherFormatsStatements() throws {
        let ceremony = try SyntheticCeremony.p256()
        let context = AttestationVerificationContext(
            authenticatorData: try ceremony.registrationAuthenticatorData(),
            clientDataHash: Array(repeating: 0, count: 32),
            credentialPublicKey: try ceremony.credentialPublicKey,
            policy: AttestationTrustPolicy())
        let packed = AttestationStatement.packed(
            PackedAttestationStatement(algorithm: .es256, signature: [1]))
        let verifiers: [(any AttestationFormatVerifier.Type, AttestationStatement)] = [
            (NoneAttestationVerifier.self, packed), (PackedAttestationVerifier.self, .none),
            (FIDOU2FAttestationVerifier.self, packed),
        ]
        for (verifier, statement) in verifiers {
            let error = webAuthnError { () throws in
                try verifier.verify(statement, in: context)
            }
            #expect(error?.code == .invalidAttestationStatement, "\(verifier.format)")
        }
        #expect(
            try NoneAttestationVerifier.verify(.none, in: context)
                == AttestationVerificationResult(
                    format: "none", type: .none, trustPath: .notApplicable))
    }

    // MARK: Helpers

    /// `{"sig": signature, "x5c": [certificate]}`.
    static func u2fStatement(signature: [UInt8], certificate: Certificate) -> [UInt8] {
        var writer = CBORWriter()
        writer.writeMapHeader(count: 2)
        writer.writeTextString("sig")
        writer.writeByteString(signature)
        writer.writeTextString("x5c")
        writer.writeArrayHeader(count: 1)
        writer.writeByteString(certificate.derEncoded)
        return writer.bytes
    }

    /// The attestation object `target` with the `attStmt` of `source`.
    static func swapStatement(of source: [UInt8], from target: [UInt8]) throws -> [UInt8] {
        let sourceObject = try AttestationObject(bytes: source)
        let targetObject = try AttestationObject(bytes: target)
        return Array(
            AttestationObject(
                authenticatorData: targetObject.authenticatorData,
                statement: sourceObject.statement
            ).bytes)
    }

    /// A version 1 certificate (no version field, no extensions) with a §8.2.1 subject,
    /// signed by the PKI's root.
    static func version1Certificate(_ pki: TestAttestationPKI) throws -> Certificate {
        var algorithm = DERWriter()
        algorithm.appendSequence { $0.appendObjectIdentifier(.ecdsaWithSHA256) }
        let subject = try TestAttestationPKI.subject()
        let key = try pki.attestationKey.publicKey
        var tbs = DERWriter()
        try tbs.appendSequence { (fields) throws in
            fields.appendInteger(Int64(5))
            try fields.appendEncoded(algorithm.bytes)
            try fields.appendEncoded(pki.root.certificate.subject.derEncoded)
            try fields.appendSequence { (validity) throws in
                try validity.appendTime(TestAttestationPKI.notBefore)
                try validity.appendTime(TestAttestationPKI.notAfter)
            }
            try fields.appendEncoded(subject.derEncoded)
            try fields.appendEncoded(key.spkiDER)
        }
        let signature = try pki.root.privateKey.signature(for: tbs.bytes, algorithm: .es256)
        var certificate = DERWriter()
        try certificate.appendSequence { (outer) throws in
            try outer.appendEncoded(tbs.bytes)
            try outer.appendEncoded(algorithm.bytes)
            try outer.appendBitString(signature)
        }
        let parsed = try Certificate(derEncoded: certificate.bytes)
        #expect(parsed.version == 1)
        return parsed
    }
}
