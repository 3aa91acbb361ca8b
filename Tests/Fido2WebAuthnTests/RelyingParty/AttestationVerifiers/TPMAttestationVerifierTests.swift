import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthnTestSupport
import Testing

@_spi(Fido2Internals) @testable import Fido2WebAuthn
@_spi(Fido2Internals) @testable import Fido2WebAuthnWire

/// The `tpm` verifier (WebAuthn §8.3) on the W3C vector, on real TPMs, and on every failure
/// path, through the `AttestationFormatVerifier` protocol.
@Suite struct TPMAttestationVerifierTests {
    @Test func isTheRegisteredVerifierOfItsFormat() throws {
        #expect(TPMAttestationVerifier.format == "tpm")
        let registered = try #require(AttestationFormatRegistry.standard.verifier(for: "tpm"))
        #expect(ObjectIdentifier(registered) == ObjectIdentifier(TPMAttestationVerifier.self))
    }

    // MARK: W3C vector

    @Test func verifiesW3CVectorAsAttestationCAWithSafeByte0x33() throws {
        let registration = try W3CDeviceVectors.registration("tpm-es256")
        guard case .tpm(let statement) = try registration.parse().statement else {
            Issue.record("not a tpm statement")
            return
        }
        // The vector's clockInfo.safe is 0x33, not a TPM boolean: it must not matter.
        #expect(statement.certInfo.clockInfo.safe == 0x33)
        let root = try W3CDeviceVectors.attestationRoot()
        let result = try registration.verify(policy: try W3CDeviceVectors.policy(for: "tpm"))
        #expect(result.format == "tpm")
        #expect(result.type == .attestationCA)
        #expect(result.certificates.count == 1)
        #expect(result.trustPath == .verified(path: [result.certificates[0], root]))
    }

    @Test func reportsTrustPathNotEvaluatedWithoutAnchors() throws {
        let result = try W3CDeviceVectors.registration("tpm-es256").verify(
            policy: AttestationTrustPolicy())
        #expect(result.type == .attestationCA)
        guard case .notEvaluated = result.trustPath else {
            Issue.record("expected notEvaluated, got \(result.trustPath)")
            return
        }
    }

    @Test(arguments: [UInt8(0x00), 0x01, 0x33, 0xff])
    func ignoresClockInfoSafeWhenSigned(_ safe: UInt8) throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.certInfo.safe = safe
        let result = try parts.registration().verify(
            policy: try W3CDeviceVectors.policy(for: "tpm"))
        #expect(result.type == .attestationCA)
    }

    @Test func rejectsAlteredClockInfoSafeByItsSignature() throws {
        var parts = try TPMAttestationTestParts.w3c()
        let original = try parts.attestationObject()
        parts.signature = try {
            guard case .tpm(let statement) = try AttestationObject(bytes: original).statement else {
                throw VectorShapeError(description: "not tpm")
            }
            return Array(statement.signature)
        }()
        parts.certInfo.safe = 0x01
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationSignatureInvalid)
    }

    // MARK: Real TPMs

    /// Cases whose chains end at Microsoft TPM Root Certificate Authority 2014 (shipped in
    /// `WellKnownAttestationRoots`); the others end at the FIDO conformance tool's test roots,
    /// which fido2kit does not have.
    static let microsoftRooted: Set<String> = [
        "reg-020", "reg-021", "reg-022", "reg-023", "reg-037", "reg-038", "reg-039",
    ]

    static let realCases: [RealDeviceCase] =
        (try? RealDeviceCase.all().filter { $0.format == "tpm" }) ?? []

    @Test func coversEveryRealTPMCase() {
        #expect(Self.realCases.count == 14)
    }

    @Test(arguments: realCases)
    func verifiesRealTPMStatementAsExpected(_ vector: RealDeviceCase) throws {
        let time = try vector.pinnedTime ?? vector.timeInsideChainValidity()
        let policy: AttestationTrustPolicy =
            Self.microsoftRooted.contains(vector.id)
            ? try AttestationTrustPolicy(validationTime: time).trustingWellKnownRoots([
                WellKnownAttestationRoots.microsoftTPMRootCA2014
            ]) : AttestationTrustPolicy(validationTime: time)
        if vector.expectedResult.hasPrefix("error") {
            // reg-041: the AIK certificate's AAGUID extension differs from authData's.
            #expect(vector.id == "reg-041")
            let error = vector.registration.failure(policy: policy)
            #expect(error?.code == .attestationAAGUIDMismatch)
            return
        }
        let result = try vector.registration.verify(policy: policy)
        #expect(result.type == .attestationCA)
        if Self.microsoftRooted.contains(vector.id) {
            let path = try #require(
                { if case .verified(let path) = result.trustPath { path } else { nil } }(),
                "\(vector.id): \(result.trustPath)")
            #expect(
                path.last?.subject.commonName == "Microsoft TPM Root Certificate Authority 2014")
        } else {
            guard case .notEvaluated = result.trustPath else {
                Issue.record("\(vector.id): \(result.trustPath)")
                return
            }
        }
    }

    @Test func rejectsExpiredWindowsHelloChainAtTodaysClock() throws {
        // reg-020's AIK certificate expired on 2025-05-22.
        let vector = try RealDeviceCase.named("reg-020")
        let policy = try AttestationTrustPolicy().trustingWellKnownRoots([
            WellKnownAttestationRoots.microsoftTPMRootCA2014
        ])
        let error = vector.registration.failure(policy: policy)
        #expect(error?.code == .attestationTrustPathInvalid)
        #expect(error?.reason.contains("expired") == true)
    }

    // MARK: Statement checks

    @Test func rejectsVersionOtherThan2_0() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.version = "1.2"
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .invalidAttestationStatement)
        #expect(error?.field == "attStmt.ver")
    }

    @Test func rejectsUnsupportedAlgorithm() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.algorithm = COSEAlgorithm(rawValue: -49)
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .unsupportedAlgorithm)
    }

    @Test func rejectsAlgorithmWithoutHash() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.algorithm = .edDSA
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationAlgorithmMismatch)
    }

    @Test func rejectsAlgorithmThatDoesNotFitTheAIKKey() throws {
        // RS256 hashes with SHA-256 like ES256, so extraData matches; the AIK key is P-256.
        var parts = try TPMAttestationTestParts.w3c()
        parts.algorithm = .rs256
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationAlgorithmMismatch)
        #expect(error?.field == "attStmt.sig")
    }

    @Test func hashesExtraDataWithTheAlgorithmsOwnDigest() throws {
        // ES384 would hash with SHA-384: the vector's SHA-256 extraData no longer matches.
        var parts = try TPMAttestationTestParts.w3c()
        parts.algorithm = .es384
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationNonceMismatch)
    }

    @Test func rejectsPubAreaOfAnotherKey() throws {
        var parts = try TPMAttestationTestParts.w3c()
        // unique.x is the last-but-one TPM2B: change its final byte.
        let xEnd = parts.pubArea.count - 2 - 32
        parts.pubArea[xEnd - 1] ^= 0x01
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationKeyMismatch)
        #expect(error?.field == "attStmt.pubArea.unique")
    }

    @Test func rejectsPubAreaOfAnotherCurve() throws {
        var parts = try TPMAttestationTestParts.w3c()
        // type 2, nameAlg 2, attributes 4, empty authPolicy 2, symmetric NULL 2, scheme NULL 2.
        let curveOffset = 2 + 2 + 4 + 2 + 2 + 2
        #expect(parts.pubArea[curveOffset...].starts(with: [0x00, 0x03]))
        parts.pubArea[curveOffset + 1] = 0x04
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationKeyMismatch)
        #expect(error?.field == "attStmt.pubArea.parameters.curveID")
        parts.pubArea[curveOffset + 1] = 0x20
        #expect(
            try parts.registration().failure(policy: AttestationTrustPolicy())?.code
                == .attestationKeyMismatch)
    }

    @Test func rejectsRSAPubAreaForAnECCredential() throws {
        var parts = try TPMAttestationTestParts.w3c()
        // type RSA, nameAlg SHA-256, attributes, empty authPolicy, symmetric NULL, scheme NULL,
        // keyBits 2048, exponent 0, a 256-byte modulus.
        var rsa: [UInt8] = [0x00, 0x01, 0x00, 0x0b, 0x00, 0x06, 0x04, 0x72, 0x00, 0x00]
        rsa += [0x00, 0x10, 0x00, 0x10, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00]
        rsa += [UInt8](repeating: 0xc5, count: 256)
        parts.pubArea = rsa
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationKeyMismatch)
        #expect(error?.field == "attStmt.pubArea.type")
    }

    @Test func rejectsWrongMagic() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.certInfo.magic = 0xff54_4348
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .invalidTPMStructure)
        #expect(error?.field == "attStmt.certInfo.magic")
    }

    @Test func rejectsTypeOtherThanAttestCertify() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.certInfo.type = 0x8018  // TPM_ST_ATTEST_QUOTE
        // A quote's attested part is not TPMS_CERTIFY_INFO: write the name-less form.
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .invalidTPMStructure)
        #expect(error?.field == "attStmt.certInfo.type")
    }

    @Test func rejectsExtraDataOfOtherData() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.certInfo.extraData = DigestAlgorithm.sha256.hash(parts.authData)
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationNonceMismatch)
        #expect(error?.field == "attStmt.certInfo.extraData")
    }

    @Test func rejectsAttestedNameOfAnotherObject() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.certInfo.name[parts.certInfo.name.count - 1] ^= 0x80
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationKeyMismatch)
        #expect(error?.field == "attStmt.certInfo.attested.name")
    }

    @Test func rejectsUnknownNameAlgorithm() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.pubArea[3] = 0x12  // TPM_ALG_SM3_256: not a hash this library has
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .invalidTPMStructure)
        #expect(error?.field == "attStmt.pubArea.nameAlg")
    }

    @Test func verifiesNameComputedWithSHA1AndSHA384() throws {
        for (identifier, digest) in [(UInt8(0x04), DigestAlgorithm.sha1), (0x0c, .sha384)] {
            var parts = try TPMAttestationTestParts.w3c()
            parts.pubArea[3] = identifier
            parts.certInfo.name = [0x00, identifier] + (digest.hash(parts.pubArea))
            let result = try parts.registration().verify(policy: AttestationTrustPolicy())
            #expect(result.type == .attestationCA)
        }
    }

    @Test func rejectsSignatureByAnotherKey() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.signature = try PrivateKey(generating: .p256).signature(
            for: parts.certInfo.encoded, algorithm: .es256)
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationSignatureInvalid)
        #expect(error?.field == "attStmt.sig")
    }

    @Test func rejectsAIKCertificateThatDoesNotParse() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.certificates[0].removeLast()
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0]")
    }

    @Test func rejectsStatementOfAnotherFormat() throws {
        let registration = try W3CDeviceVectors.registration("apple-es256")
        let object = try registration.parse()
        let error = #expect(throws: WebAuthnError.self) {
            try TPMAttestationVerifier.verify(
                object.statement, in: try registration.context(object, policy: .init()))
        }
        #expect(error?.code == .invalidAttestationStatement)
    }

    @Test func rejectsRSAPubAreaWithAnotherModulusOrExponent() throws {
        // reg-034: an RSA credential key (RS256) in a TPM whose AIK signs with RS256.
        let vector = try RealDeviceCase.named("reg-034").registration
        guard case .tpm(let statement) = try vector.parse().statement,
            case .rsa(let modulus) = statement.pubArea.unique
        else {
            Issue.record("reg-034 is not an RSA tpm statement")
            return
        }
        let flippedModulus = vector.replacing(
            attestationObject: flippingBit(
                vector.attestationObject, at: modulus.endIndex - 1, bit: 1))
        let modulusError = flippedModulus.failure(policy: .init())
        #expect(modulusError?.code == .attestationKeyMismatch)
        #expect(modulusError?.field == "attStmt.pubArea.unique")
        // The exponent is the UInt32 just before the modulus's 16-bit size: 0 means 65537.
        let exponentIndex = modulus.startIndex - 2 - 1
        #expect(vector.attestationObject[exponentIndex] == 0x00)
        let changedExponent = vector.replacing(
            attestationObject: flippingBit(vector.attestationObject, at: exponentIndex, bit: 1))
        let exponentError = changedExponent.failure(policy: .init())
        #expect(exponentError?.code == .attestationKeyMismatch)
        #expect(exponentError?.field == "attStmt.pubArea.parameters.exponent")
    }

    @Test func rejectsAIKCertificateWithUnusableKey() throws {
        var parts = try TPMAttestationTestParts.w3c()
        var builder = try parts.authority.builder(
            subject: try DistinguishedName([]),
            subjectKey: try PrivateKey(unsafeGeneratingRSAModulusBits: 1024).publicKey,
            serialNumber: [0x01], notBefore: parts.authority.certificate.notBefore,
            notAfter: parts.authority.certificate.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
        parts.certificates = [try builder.sign(with: parts.authority.privateKey).derEncoded]
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("unusable public key") == true)
    }

    @Test func rejectsIntermediateThatDoesNotParse() throws {
        var parts = try TPMAttestationTestParts.w3c()
        parts.certificates.append([0x30, 0x00])
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[1]")
    }

    // MARK: AIK certificate requirements (§8.3.1)

    @Test func acceptsReissuedAIKCertificateLikeTheVectors() throws {
        var parts = try TPMAttestationTestParts.w3c()
        try parts.reissueAIKCertificate { _, _ in }
        let result = try parts.registration().verify(
            policy: try W3CDeviceVectors.policy(for: "tpm"))
        #expect(result.type == .attestationCA)
    }

    @Test func rejectsAIKCertificateOfVersion1() throws {
        var parts = try TPMAttestationTestParts.w3c()
        // A v1 TBSCertificate: no version field, no extensions.
        var tbs = DERWriter()
        try tbs.appendSequence { (sequence) throws in
            sequence.appendInteger(Int64(0x311f))
            sequence.appendSequence { $0.appendObjectIdentifier(.ecdsaWithSHA256) }
            try sequence.appendEncoded(parts.authority.certificate.subject.derEncoded)
            try sequence.appendSequence { (validity) throws in
                try validity.appendTime(parts.authority.certificate.notBefore)
                try validity.appendTime(parts.authority.certificate.notAfter)
            }
            try sequence.appendEncoded(try DistinguishedName([]).derEncoded)
            try sequence.appendEncoded(try parts.aikKey.publicKey.spkiDER)
        }
        let signature = try parts.authority.privateKey.signature(
            for: tbs.bytes, algorithm: .es256, nonce: .deterministic)
        var certificate = DERWriter()
        try certificate.appendSequence { (sequence) throws in
            try sequence.appendEncoded(tbs.bytes)
            sequence.appendSequence { $0.appendObjectIdentifier(.ecdsaWithSHA256) }
            sequence.appendElement(.bitString, contents: [0] + signature)
        }
        #expect(try Certificate(derEncoded: certificate.bytes).version == 1)
        parts.certificates = [certificate.bytes]
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("version") == true)
    }

    @Test func rejectsAIKCertificateWithSubject() throws {
        try expectAIKRejection(containing: "subject") { builder, _ in
            builder.subject = try DistinguishedName([.commonName("AIK")])
        }
    }

    @Test func rejectsAIKCertificateWithoutSubjectAltName() throws {
        try expectAIKRejection(containing: "subjectAltName is missing") { _, names in
            names.includesSubjectAltName = false
        }
    }

    @Test func rejectsNonCriticalSubjectAltName() throws {
        try expectAIKRejection(containing: "not critical") { _, names in
            names.subjectAltNameIsCritical = false
        }
    }

    @Test(arguments: [
        ASN1ObjectIdentifier.tcgTPMManufacturer, .tcgTPMModel, .tcgTPMVersion,
    ])
    func rejectsSubjectAltNameWithoutTPMAttribute(_ missing: ASN1ObjectIdentifier) throws {
        try expectAIKRejection(containing: missing.dotted) { _, names in
            names.attributes.removeAll { $0.0 == missing }
        }
    }

    @Test func rejectsRepeatedTPMAttribute() throws {
        try expectAIKRejection(containing: "found 2") { _, names in
            names.attributes.append((.tcgTPMModel, "second model"))
        }
    }

    @Test(arguments: ["00000000", "id:0000000", "id:0000000G", "ID:00000000"])
    func rejectsManufacturerThatIsNotAVendorID(_ manufacturer: String) throws {
        try expectAIKRejection(containing: "tpmManufacturer") { _, names in
            names.attributes[0] = (.tcgTPMManufacturer, manufacturer)
        }
    }

    @Test func rejectsAIKCertificateWithoutExtendedKeyUsage() throws {
        try expectAIKRejection(containing: "extendedKeyUsage") { _, names in
            names.purposes = nil
        }
    }

    @Test func rejectsExtendedKeyUsageWithoutAIKPurpose() throws {
        try expectAIKRejection(containing: "2.23.133.8.3") { _, names in
            names.purposes = [try #require(ASN1ObjectIdentifier(dotted: "1.3.6.1.5.5.7.3.2"))]
        }
    }

    @Test func rejectsAIKCertificateWithoutBasicConstraintsWhenStrict() throws {
        try expectAIKRejection(
            containing: "basicConstraints is missing (the compatible profile reads it",
            profile: .strict
        ) { builder, _ in
            builder.basicConstraints = nil
        }
    }

    @Test func readsAIKCertificateWithoutBasicConstraintsAsEndEntityAndReportsIt() throws {
        var parts = try TPMAttestationTestParts.w3c()
        try parts.reissueAIKCertificate { builder, _ in builder.basicConstraints = nil }
        let result = try parts.registration().verify(policy: AttestationTrustPolicy())
        #expect(result.deviations.map(\.kind) == [.certificateWithoutBasicConstraints])
        #expect(result.deviations.first?.field == "attStmt.x5c[0]")
    }

    @Test func rejectsAIKCertificateOfACertificateAuthority() throws {
        try expectAIKRejection(containing: "cA") { builder, _ in
            builder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        }
    }

    @Test func rejectsAIKCertificateWithAnotherAAGUID() throws {
        var parts = try TPMAttestationTestParts.w3c()
        try parts.reissueAIKCertificate { builder, _ in
            builder.aaguid = [UInt8](repeating: 0x11, count: 16)
        }
        let error = try parts.registration().failure(policy: AttestationTrustPolicy())
        #expect(error?.code == .attestationAAGUIDMismatch)
    }

    @Test func acceptsAIKCertificateWithTheSameAAGUID() throws {
        var parts = try TPMAttestationTestParts.w3c()
        let object = try AttestationObject(bytes: try parts.attestationObject())
        let aaguid = try #require(object.authenticatorData.attestedCredentialData?.aaguid)
        try parts.reissueAIKCertificate { builder, _ in builder.aaguid = aaguid.bytes }
        let result = try parts.registration().verify(
            policy: try W3CDeviceVectors.policy(for: "tpm"))
        #expect(result.certificates.first?.fidoAAGUID == aaguid.bytes)
    }

    // MARK: Trust path

    @Test func rejectsChainToAnotherAnchor() throws {
        let policy = try AttestationTrustPolicy().trustingWellKnownRoots([
            WellKnownAttestationRoots.microsoftTPMRootCA2014
        ])
        let error = try W3CDeviceVectors.registration("tpm-es256").failure(policy: policy)
        #expect(error?.code == .attestationTrustPathInvalid)
    }

    @Test func rejectsChainBeforeItsValidity() throws {
        var policy = try W3CDeviceVectors.policy(for: "tpm")
        policy.validationTime = try W3CDeviceVectors.attestationRoot().notBefore - 86_400
        let error = try W3CDeviceVectors.registration("tpm-es256").failure(policy: policy)
        #expect(error?.code == .attestationTrustPathInvalid)
    }

    private func expectAIKRejection(
        containing text: String, profile: VerificationProfile = .compatible,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout CertificateBuilder, inout TPMAttestationTestParts.AIKNames) throws -> Void
    ) throws {
        var parts = try TPMAttestationTestParts.w3c()
        try parts.reissueAIKCertificate(change)
        let error = try parts.registration().failure(
            policy: AttestationTrustPolicy(), profile: profile, sourceLocation: sourceLocation)
        #expect(error?.code == .attestationCertificateInvalid, sourceLocation: sourceLocation)
        #expect(error?.step == "§8.3.1", sourceLocation: sourceLocation)
        #expect(
            error?.reason.contains(text) == true, "\(error?.reason ?? "")",
            sourceLocation: sourceLocation)
    }
}
