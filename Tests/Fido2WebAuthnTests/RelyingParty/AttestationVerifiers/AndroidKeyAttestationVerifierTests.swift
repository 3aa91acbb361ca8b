import Fido2CBOR
import Fido2Crypto
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthnTestSupport
import Testing

@_spi(Fido2Internals) @testable import Fido2WebAuthn
@_spi(Fido2Internals) @testable import Fido2WebAuthnWire

/// The `android-key` verifier (WebAuthn §8.4) on the W3C vector, on real devices and the FIDO
/// conformance tool, and on every failure path, through the `AttestationFormatVerifier`
/// protocol.
@Suite struct AndroidKeyAttestationVerifierTests {
    @Test func isTheRegisteredVerifierOfItsFormat() throws {
        #expect(AndroidKeyAttestationVerifier.format == "android-key")
        let registered = try #require(
            AttestationFormatRegistry.standard.verifier(for: "android-key"))
        #expect(
            ObjectIdentifier(registered) == ObjectIdentifier(AndroidKeyAttestationVerifier.self))
    }

    static func relaxedW3CPolicy() throws -> AttestationTrustPolicy {
        var policy = try W3CDeviceVectors.policy(for: "android-key")
        policy.androidKey.acceptsMissingOriginAndPurpose = true
        return policy
    }

    // MARK: W3C vector

    @Test func verifiesW3CVectorAsBasicWhenMissingOriginAndPurposeAreAccepted() throws {
        let root = try W3CDeviceVectors.attestationRoot()
        let result = try W3CDeviceVectors.registration("android-key-es256").verify(
            policy: try Self.relaxedW3CPolicy())
        #expect(result.format == "android-key")
        #expect(result.type == .basic)
        #expect(result.trustPath == .verified(path: [result.certificates[0], root]))
        // What the relaxation let through is reported: no origin, no purpose.
        #expect(
            result.deviations.map(\.field) == [
                "attStmt.x5c[0].keyDescription.teeEnforced.origin",
                "attStmt.x5c[0].keyDescription.teeEnforced.purpose",
            ])
        #expect(
            result.deviations.allSatisfy {
                $0.relaxation == .acceptsAndroidKeyMissingOriginAndPurpose
            })
    }

    @Test func rejectsW3CVectorByDefaultForItsEmptyAuthorizationLists() throws {
        let error = try W3CDeviceVectors.registration("android-key-es256").failure(
            policy: try W3CDeviceVectors.policy(for: "android-key"))
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0].keyDescription.teeEnforced.origin")
        #expect(error?.reason.contains("--relax android-key-missing-origin-purpose") == true)
    }

    @Test func reportsTrustPathNotEvaluatedWithoutAnchors() throws {
        var policy = AttestationTrustPolicy()
        policy.androidKey.acceptsMissingOriginAndPurpose = true
        let result = try W3CDeviceVectors.registration("android-key-es256").verify(policy: policy)
        guard case .notEvaluated = result.trustPath else {
            Issue.record("expected notEvaluated, got \(result.trustPath)")
            return
        }
    }

    @Test func readsTheW3CKeyDescription() throws {
        let parts = try AndroidKeyAttestationTestParts.w3c()
        let leaf = try Certificate(derEncoded: parts.certificates[0])
        let value = try #require(leaf.findExtension(.androidKeyAttestation)).value
        let description = try AndroidKeyDescription(derEncoded: value)
        #expect(description.attestationVersion == 300)
        #expect(description.attestationChallenge == parts.clientDataHash)
        #expect(
            description.softwareEnforced
                == .init(purposes: nil, allApplications: false, origin: nil, tags: []))
        #expect(description.teeEnforced.tags.isEmpty)
    }

    // MARK: Real devices

    /// Cases whose chains end at Google's hardware attestation root (shipped in
    /// `WellKnownAttestationRoots`); reg-024 and reg-051 end at the FIDO conformance tool's
    /// software attestation root, which fido2kit does not have.
    static let googleRooted: Set<String> = ["reg-011", "reg-025", "reg-026"]

    static let realCases: [RealDeviceCase] =
        (try? RealDeviceCase.all().filter { $0.format == "android-key" }) ?? []

    @Test func coversEveryRealAndroidKeyCase() {
        #expect(
            Self.realCases.map(\.id) == ["reg-011", "reg-024", "reg-025", "reg-026", "reg-051"])
    }

    @Test(arguments: realCases)
    func verifiesRealAndroidKeyStatement(_ vector: RealDeviceCase) throws {
        #expect(vector.expectedResult == "ok")
        let time = try vector.pinnedTime ?? vector.timeInsideChainValidity()
        let policy =
            Self.googleRooted.contains(vector.id)
            ? try AttestationTrustPolicy.wellKnownRoots(validationTime: time)
            : AttestationTrustPolicy(validationTime: time)
        let result = try vector.registration.verify(policy: policy)
        #expect(result.type == .basic)
        if Self.googleRooted.contains(vector.id) {
            guard case .verified(let path) = result.trustPath else {
                Issue.record("\(vector.id): \(result.trustPath)")
                return
            }
            #expect(path.last?.subject.first(.serialNumberAttribute) == "f92009e853b6b045")
        } else {
            guard case .notEvaluated = result.trustPath else {
                Issue.record("\(vector.id): \(result.trustPath)")
                return
            }
        }
    }

    @Test func readsARealKeyDescription() throws {
        let chain = try RealDeviceCase.named("reg-011").chain()
        let value = try #require(chain[0].findExtension(.androidKeyAttestation)).value
        let description = try AndroidKeyDescription(derEncoded: value)
        #expect(description.attestationVersion == 300)
        #expect(description.attestationSecurityLevel == 1)
        #expect(description.teeEnforced.origin == 0)
        #expect(description.teeEnforced.purposes == [2])
        #expect(description.teeEnforced.tags.contains(702))
        #expect(description.softwareEnforced.tags == [701, 709])
    }

    @Test func rejectsPixelChainAtTodaysClock() throws {
        // reg-011's intermediate "Droid CA3" expired on 2025-02-02.
        let error = try RealDeviceCase.named("reg-011").registration.failure(
            policy: try .wellKnownRoots())
        #expect(error?.code == .attestationTrustPathInvalid)
    }

    // MARK: Signature and key

    @Test func rejectsRS1() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        parts.algorithm = .rs1
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationAlgorithmMismatch)
        #expect(error?.reason.contains("tpm") == true)
    }

    @Test func rejectsUnsupportedAlgorithm() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        parts.algorithm = COSEAlgorithm(rawValue: -50)
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .unsupportedAlgorithm)
    }

    @Test func rejectsAlgorithmThatDoesNotFitTheKey() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        parts.algorithm = .es384
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationAlgorithmMismatch)
    }

    @Test func rejectsSignatureOverOtherData() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        parts.signature = try parts.credentialKey.signature(
            for: parts.authData, algorithm: .es256)
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationSignatureInvalid)
    }

    @Test func rejectsLeafKeyThatIsNotTheCredentialKey() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        let other = try PrivateKey(generating: .p256)
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: parts.clientDataHash),
            subjectKey: try other.publicKey)
        parts.signature = try other.signature(
            for: parts.authData, parts.clientDataHash, algorithm: .es256)
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationKeyMismatch)
    }

    @Test func rejectsStatementWithoutCertificates() throws {
        let registration = try W3CDeviceVectors.registration("android-key-es256")
        let object = try registration.parse()
        let statement = AndroidKeyAttestationStatement(
            algorithm: .es256, signature: [0x30, 0x00], certificates: [])
        let error = #expect(throws: WebAuthnError.self) {
            try AndroidKeyAttestationVerifier.verify(
                .androidKey(statement), in: try registration.context(object, policy: .init()))
        }
        #expect(error?.code == .invalidAttestationStatement)
        #expect(error?.field == "attStmt.x5c")
    }

    @Test func rejectsLeafThatDoesNotParse() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        parts.certificates[0][0] = 0x31
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0]")
    }

    // MARK: KeyDescription

    @Test func acceptsAStrictKeyDescription() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: parts.clientDataHash))
        let result = try parts.registration().verify(
            policy: try W3CDeviceVectors.policy(for: "android-key"))
        #expect(result.type == .basic)
    }

    @Test func rejectsLeafWithoutKeyDescription() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(keyDescription: nil)
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("1.3.6.1.4.1.11129.2.1.17") == true)
    }

    @Test(
        arguments: [
            // Not a SEQUENCE.
            [0x04, 0x00],
            // A SEQUENCE that ends after the challenge.
            [
                0x30, 0x0e, 0x02, 0x01, 0x03, 0x0a, 0x01, 0x01, 0x02, 0x01, 0x03, 0x0a, 0x01, 0x01,
                0x04, 0x00,
            ],
            // attestationSecurityLevel as an INTEGER instead of an ENUMERATED.
            [
                0x30, 0x14, 0x02, 0x01, 0x03, 0x02, 0x01, 0x01, 0x02, 0x01, 0x03, 0x0a, 0x01, 0x01,
                0x04, 0x00, 0x04, 0x00, 0x30, 0x00, 0x30, 0x00,
            ],
            // Trailing bytes after the KeyDescription.
            [
                0x30, 0x14, 0x02, 0x01, 0x03, 0x0a, 0x01, 0x01, 0x02, 0x01, 0x03, 0x0a, 0x01, 0x01,
                0x04, 0x00, 0x04, 0x00, 0x30, 0x00, 0x30, 0x00, 0x00,
            ],
            // An AuthorizationList field that is not [n] EXPLICIT.
            [
                0x30, 0x17, 0x02, 0x01, 0x03, 0x0a, 0x01, 0x01, 0x02, 0x01, 0x03, 0x0a, 0x01, 0x01,
                0x04, 0x00, 0x04, 0x00, 0x30, 0x00, 0x30, 0x03, 0x02, 0x01, 0x02,
            ],
        ] as [[UInt8]])
    func rejectsMalformedKeyDescription(_ der: [UInt8]) throws {
        #expect(throws: WebAuthnError.self) { try AndroidKeyDescription(derEncoded: der) }
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(keyDescription: der)
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0].keyDescription")
    }

    @Test func rejectsRepeatedOrUnorderedAuthorizationTags() throws {
        var tee = AndroidKeyAttestationTestParts.Authorizations()
        tee.extraTags = [600]  // written after [702]: out of order
        let parts = try AndroidKeyAttestationTestParts.w3c()
        let der = try AndroidKeyAttestationTestParts.keyDescription(
            challenge: parts.clientDataHash, tee: tee)
        let error = #expect(throws: WebAuthnError.self) {
            try AndroidKeyDescription(derEncoded: der)
        }
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("out of order") == true)
    }

    @Test func rejectsChallengeThatIsNotTheClientDataHash() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: DigestAlgorithm.sha256.hash(parts.clientDataHash)))
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationNonceMismatch)
        #expect(error?.field == "attStmt.x5c[0].keyDescription.attestationChallenge")
    }

    @Test(arguments: [true, false])
    func rejectsAllApplications(inTEEList: Bool) throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        var tee = AndroidKeyAttestationTestParts.Authorizations()
        var software = AndroidKeyAttestationTestParts.Authorizations.empty
        if inTEEList { tee.allApplications = true } else { software.allApplications = true }
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: parts.clientDataHash, software: software, tee: tee))
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(
            error?.field
                == "attStmt.x5c[0].keyDescription.\(inTEEList ? "teeEnforced" : "softwareEnforced").allApplications"
        )
    }

    @Test func rejectsImportedKey() throws {
        try expectAuthorizationRejection(
            field: "teeEnforced.origin", tee: .init(purposes: [2], origin: 2))
    }

    @Test func rejectsKeyWithoutSignPurpose() throws {
        try expectAuthorizationRejection(
            field: "teeEnforced.purpose", tee: .init(purposes: [0, 1, 3], origin: 0))
    }

    @Test func rejectsTEEListWithoutPurpose() throws {
        try expectAuthorizationRejection(
            field: "teeEnforced.purpose", tee: .init(purposes: nil, origin: 0))
    }

    @Test func readsOnlyTheTEEListByDefault() throws {
        try expectAuthorizationRejection(
            field: "teeEnforced.origin", software: .init(), tee: .empty)
    }

    @Test func readsTheSoftwareListWhenSoftwareAuthorizationsAreAccepted() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: parts.clientDataHash, software: .init(), tee: .empty))
        var policy = try W3CDeviceVectors.policy(for: "android-key")
        #expect(
            try parts.registration().failure(policy: policy)?.reason.contains(
                "--relax android-key-software-enforced") == true)
        policy.androidKey.acceptsSoftwareEnforcedAuthorizations = true
        let result = try parts.registration().verify(policy: policy)
        #expect(result.type == .basic)
        #expect(
            result.deviations.map(\.relaxation)
                == Array(repeating: .acceptsAndroidKeySoftwareEnforcedAuthorizations, count: 2))
    }

    @Test func rejectsImportedOriginInTheSoftwareListWhenItIsRead() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: parts.clientDataHash, software: .init(purposes: nil, origin: 2),
                tee: .init()))
        var policy = try W3CDeviceVectors.policy(for: "android-key")
        policy.androidKey.acceptsSoftwareEnforcedAuthorizations = true
        let error = try parts.registration().failure(policy: policy)
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0].keyDescription.softwareEnforced.origin")
    }

    @Test func rejectsWrongValuesEvenWhenMissingOnesAreAccepted() throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: parts.clientDataHash, tee: .init(purposes: nil, origin: 1)))
        let error = try parts.registration().failure(policy: try Self.relaxedW3CPolicy())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0].keyDescription.teeEnforced.origin")
    }

    // MARK: Trust path

    @Test func rejectsChainToAnotherAnchor() throws {
        var policy = try AttestationTrustPolicy.wellKnownRoots()
        policy.androidKey.acceptsMissingOriginAndPurpose = true
        let error = try W3CDeviceVectors.registration("android-key-es256").failure(policy: policy)
        #expect(error?.code == .attestationTrustPathInvalid)
    }

    @Test func rejectsStatementOfAnotherFormat() throws {
        let registration = try W3CDeviceVectors.registration("tpm-es256")
        let object = try registration.parse()
        let error = #expect(throws: WebAuthnError.self) {
            try AndroidKeyAttestationVerifier.verify(
                object.statement, in: try registration.context(object, policy: .init()))
        }
        #expect(error?.code == .invalidAttestationStatement)
    }

    private func expectAuthorizationRejection(
        field: String, software: AndroidKeyAttestationTestParts.Authorizations = .empty,
        tee: AndroidKeyAttestationTestParts.Authorizations,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var parts = try AndroidKeyAttestationTestParts.w3c()
        try parts.reissueLeaf(
            keyDescription: try AndroidKeyAttestationTestParts.keyDescription(
                challenge: parts.clientDataHash, software: software, tee: tee))
        let error = try parts.registration().failure(
            policy: try W3CDeviceVectors.policy(for: "android-key"), sourceLocation: sourceLocation)
        #expect(error?.code == .attestationCertificateInvalid, sourceLocation: sourceLocation)
        #expect(
            error?.field == "attStmt.x5c[0].keyDescription.\(field)", sourceLocation: sourceLocation
        )
    }
}
