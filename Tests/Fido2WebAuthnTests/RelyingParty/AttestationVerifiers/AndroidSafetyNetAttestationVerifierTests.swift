import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthnTestSupport
import Testing

@_spi(Fido2Internals) @testable import Fido2WebAuthn
@_spi(Fido2Internals) @testable import Fido2WebAuthnWire

/// The `android-safetynet` verifier (WebAuthn §8.5) on real responses and on responses made
/// here for every failure path, through the `AttestationFormatVerifier` protocol.
@Suite struct AndroidSafetyNetAttestationVerifierTests {
    @Test func isTheRegisteredVerifierOfItsFormat() throws {
        #expect(AndroidSafetyNetAttestationVerifier.format == "android-safetynet")
        let registered = try #require(
            AttestationFormatRegistry.standard.verifier(for: "android-safetynet"))
        #expect(
            ObjectIdentifier(registered)
                == ObjectIdentifier(AndroidSafetyNetAttestationVerifier.self))
    }

    typealias Parts = AndroidSafetyNetAttestationTestParts

    // MARK: Responses made here

    @Test(arguments: [false, true])
    func verifiesResponseAsBasic(rsa: Bool) throws {
        let parts = try Parts.make(rsa: rsa)
        let result = try parts.registration().verify(policy: parts.policy)
        #expect(result.format == "android-safetynet")
        #expect(result.type == .basic)
        #expect(
            result.trustPath
                == .verified(path: [result.certificates[0], parts.authority.certificate]))
    }

    @Test func reportsTrustPathNotEvaluatedWithoutAnchors() throws {
        let parts = try Parts.make()
        var policy = parts.policy
        policy.anchors = [:]
        guard case .notEvaluated = try parts.registration().verify(policy: policy).trustPath else {
            Issue.record("expected notEvaluated")
            return
        }
    }

    // MARK: Real responses

    static func realPolicy(
        _ roots: [WellKnownAttestationRoot], at time: Int64?,
        _ configure: (inout AndroidSafetyNetAttestationOptions) -> Void = { _ in }
    ) throws -> AttestationTrustPolicy {
        var policy = try AttestationTrustPolicy(validationTime: time).trustingWellKnownRoots(roots)
        configure(&policy.androidSafetyNet)
        return policy
    }

    static let realCases: [RealDeviceCase] =
        (try? RealDeviceCase.all().filter { $0.format == "android-safetynet" }) ?? []

    @Test func coversEveryRealSafetyNetCase() {
        #expect(
            Self.realCases.map(\.id) == [
                "reg-012", "reg-027", "reg-028", "reg-029", "reg-063", "reg-064",
            ])
    }

    /// reg-012: chains to GlobalSign Root CA; its source checks it with the timestamp check
    /// off (the response is two days older than the pinned time).
    @Test func verifiesReg012ToGlobalSignRootCA() throws {
        let vector = try RealDeviceCase.named("reg-012")
        let policy = try Self.realPolicy(
            [WellKnownAttestationRoots.globalSignRootCA], at: vector.pinnedTime
        ) {
            $0.skipsTimestampCheck = true
        }
        let result = try vector.registration.verify(policy: policy)
        #expect(result.type == .basic)
        guard case .verified(let path) = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
        #expect(path.last?.subject.commonName == "GlobalSign Root CA")
    }

    /// reg-027: a 2019 response that chains to GlobalSign Root CA - R2 (expired in 2021), at its
    /// pinned time, timestamp check off as in its source.
    @Test func verifiesReg027ToGlobalSignR2AtItsPinnedTime() throws {
        let vector = try RealDeviceCase.named("reg-027")
        let policy = try Self.realPolicy(
            [WellKnownAttestationRoots.globalSignRootCAR2], at: vector.pinnedTime
        ) {
            $0.skipsTimestampCheck = true
        }
        let result = try vector.registration.verify(policy: policy)
        guard case .verified(let path) = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
        #expect(path.last?.subject.organizationalUnit == "GlobalSign Root CA - R2")
    }

    /// reg-028 (the same response as reg-027, judged at today's clock): its source test is
    /// "timestamp is not within one minute of now", and that is the first check it fails.
    @Test func rejectsReg028AsStaleAtTodaysClock() throws {
        let vector = try RealDeviceCase.named("reg-028")
        #expect(vector.expectedResult.hasPrefix("error"))
        let error = vector.registration.failure(
            policy: try Self.realPolicy([WellKnownAttestationRoots.globalSignRootCAR2], at: nil))
        #expect(error?.code == .attestationTimestampOutOfRange)
    }

    /// reg-028 with the timestamp check off: its chain has expired at today's clock.
    @Test func rejectsReg028ChainAsExpiredAtTodaysClock() throws {
        let vector = try RealDeviceCase.named("reg-028")
        let error = vector.registration.failure(
            policy: try Self.realPolicy([WellKnownAttestationRoots.globalSignRootCAR2], at: nil) {
                $0.skipsTimestampCheck = true
            })
        #expect(error?.code == .attestationTrustPathInvalid)
        #expect(error?.reason.contains("expired") == true)
    }

    /// reg-029 expects "revoked certificate", but its source mocks the CRL and the file carries
    /// none. Without revocation data the statement and chain verify; asking for revocation
    /// checking with no CRL for Google's intermediate fails closed, never open.
    @Test func judgesReg029RevocationOnlyWithRevocationData() throws {
        let vector = try RealDeviceCase.named("reg-029")
        #expect(vector.expectedResult == "error: revoked certificate")
        var policy = try Self.realPolicy(
            [WellKnownAttestationRoots.globalSignRootCA], at: vector.pinnedTime
        ) {
            $0.skipsTimestampCheck = true
        }
        let result = try vector.registration.verify(policy: policy)
        guard case .verified = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
        policy.revocation = .leaf([])
        let error = vector.registration.failure(policy: policy)
        #expect(error?.code == .attestationRevocationStatusUnknown)
    }

    /// reg-063: ctsProfileMatch is false; the default policy rejects it. Its pinned time is the
    /// response's own timestamp, so the timestamp check stays on.
    @Test func rejectsReg063ForCTSProfileMismatch() throws {
        let vector = try RealDeviceCase.named("reg-063")
        #expect(vector.expectedResult.hasPrefix("error: ctsProfileMatch"))
        let error = vector.registration.failure(
            policy: try Self.realPolicy(
                [WellKnownAttestationRoots.globalSignRootCA], at: vector.pinnedTime))
        #expect(error?.code == .attestationIntegrityVerdictFailed)
        #expect(error?.field == "attStmt.response.payload.ctsProfileMatch")
    }

    /// reg-064: the same response, with the CTS profile check relaxed as its source does.
    @Test func verifiesReg064WhenCTSProfileMismatchIsAccepted() throws {
        let vector = try RealDeviceCase.named("reg-064")
        let result = try vector.registration.verify(
            policy: try Self.realPolicy(
                [WellKnownAttestationRoots.globalSignRootCA], at: vector.pinnedTime
            ) {
                $0.acceptsCTSProfileMismatch = true
            })
        guard case .verified = result.trustPath else {
            Issue.record("\(result.trustPath)")
            return
        }
    }

    // MARK: Statement and JWS

    @Test func rejectsEmptyVersion() throws {
        var parts = try Parts.make()
        parts.version = ""
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .invalidAttestationStatement)
        #expect(error?.field == "attStmt.ver")
    }

    @Test(arguments: ["none", "HS256", "ES224"])
    func rejectsUnsupportedJWSAlgorithm(_ name: String) throws {
        var parts = try Parts.make()
        parts.algorithm = name
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .unsupportedAlgorithm)
        #expect(error?.field == "attStmt.response.header.alg")
    }

    @Test func rejectsAlgorithmThatDoesNotFitTheKey() throws {
        var parts = try Parts.make()
        parts.algorithm = "RS256"
        #expect(
            try parts.registration().failure(policy: parts.policy)?.code
                == .attestationAlgorithmMismatch)
        var rsa = try Parts.make(rsa: true)
        rsa.algorithm = "ES256"
        rsa.signature = [UInt8](repeating: 1, count: 64)
        #expect(
            try rsa.registration().failure(policy: rsa.policy)?.code
                == .attestationAlgorithmMismatch)
    }

    @Test func rejectsJWSWithoutCertificates() throws {
        var parts = try Parts.make()
        parts.includesCertificates = false
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .invalidJWS)
        #expect(error?.field == "attStmt.response.header.x5c")
    }

    @Test func rejectsCertificateThatDoesNotParse() throws {
        var parts = try Parts.make()
        parts.certificates[0] = [0x30, 0x03, 0x02, 0x01, 0x01]
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.response.header.x5c[0]")
    }

    @Test func rejectsSignatureOfAnotherKey() throws {
        var parts = try Parts.make()
        let der = try PrivateKey(generating: .p256).signature(for: [1, 2, 3], algorithm: .es256)
        parts.signature = try ECDSASignature(derRepresentation: der).rawRepresentation(kind: .p256)
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .attestationSignatureInvalid)
        #expect(error?.field == "attStmt.response.signature")
    }

    @Test func rejectsES256SignatureThatIsNotRawRS() throws {
        var parts = try Parts.make()
        parts.signature = try parts.signingKey.signature(for: [1, 2, 3], algorithm: .es256)
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .attestationSignatureInvalid)
    }

    @Test func rejectsCertificateIssuedToAnotherHost() throws {
        var parts = try Parts.make()
        try parts.reissueLeaf(subject: [.commonName("attest.android.com.example")])
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.reason.contains("attest.android.com") == true)
    }

    @Test func readsHostFromDNSNamesBeforeCommonName() throws {
        var parts = try Parts.make()
        try parts.reissueLeaf(
            subject: [.commonName("attest.android.com")], dnsNames: ["other.example"])
        #expect(
            try parts.registration().failure(policy: parts.policy)?.code
                == .attestationCertificateInvalid)
        try parts.reissueLeaf(
            subject: [.commonName("Google")], dnsNames: ["other.example", "Attest.Android.com"])
        #expect(try parts.registration().verify(policy: parts.policy).type == .basic)
    }

    // MARK: Payload

    @Test func rejectsNonceOfOtherData() throws {
        var parts = try Parts.make()
        parts.setPayload(
            "nonce", .string(Base64.encode(DigestAlgorithm.sha256.hash(parts.authData))))
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .attestationNonceMismatch)
        #expect(error?.field == "attStmt.response.payload.nonce")
    }

    @Test func rejectsNonceInBase64URLInsteadOfBase64() throws {
        var parts = try Parts.make()
        let nonce = try parts.expectedNonce
        // Only meaningful when the two encodings differ.
        try #require(Base64.encode(nonce) != Base64URL.encode(nonce))
        parts.setPayload("nonce", .string(Base64URL.encode(nonce)))
        #expect(
            try parts.registration().failure(policy: parts.policy)?.code
                == .attestationNonceMismatch)
    }

    @Test(arguments: ["nonce", "ctsProfileMatch", "timestampMs"])
    func rejectsPayloadWithoutMember(_ name: String) throws {
        var parts = try Parts.make()
        parts.payload = JSONObject(parts.payload.members.filter { $0.name != name })
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .invalidJWS)
        #expect(error?.field == "attStmt.response.payload.\(name)")
    }

    @Test func rejectsCTSProfileMismatchByDefaultNamingTheRelaxation() throws {
        var parts = try Parts.make()
        parts.setPayload("ctsProfileMatch", .bool(false))
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .attestationIntegrityVerdictFailed)
        #expect(error?.reason.contains("--relax safetynet-cts-profile") == true)
        #expect(error?.reason.contains("acceptsSafetyNetCTSProfileMismatch") == true)
    }

    @Test func acceptsCTSProfileMismatchOnlyWithBasicIntegrity() throws {
        var parts = try Parts.make()
        parts.setPayload("ctsProfileMatch", .bool(false))
        var policy = parts.policy
        policy.androidSafetyNet.acceptsCTSProfileMismatch = true
        let result = try parts.registration().verify(policy: policy)
        #expect(result.type == .basic)
        #expect(result.deviations.map(\.relaxation) == [.acceptsSafetyNetCTSProfileMismatch])
        parts.setPayload("basicIntegrity", .bool(false))
        let error = try parts.registration().failure(policy: policy)
        #expect(error?.code == .attestationIntegrityVerdictFailed)
        #expect(error?.field == "attStmt.response.payload.basicIntegrity")
    }

    @Test(arguments: [Int64(-60_001), 60_001, -86_400_000])
    func rejectsTimestampOutsideTheWindow(_ offset: Int64) throws {
        var parts = try Parts.make()
        parts.setPayload("timestampMs", .number(JSONNumber(parts.validationTime * 1000 + offset)))
        let error = try parts.registration().failure(policy: parts.policy)
        #expect(error?.code == .attestationTimestampOutOfRange)
        #expect(error?.reason.contains("--relax safetynet-timestamp") == true)
    }

    @Test(arguments: [Int64(-60_000), 60_000, 0])
    func acceptsTimestampInsideTheWindow(_ offset: Int64) throws {
        var parts = try Parts.make()
        parts.setPayload("timestampMs", .number(JSONNumber(parts.validationTime * 1000 + offset)))
        #expect(try parts.registration().verify(policy: parts.policy).type == .basic)
    }

    @Test func widensTheWindowAndSkipsTheCheckOnRequest() throws {
        var parts = try Parts.make()
        parts.setPayload(
            "timestampMs", .number(JSONNumber(parts.validationTime * 1000 - 3_600_000)))
        var policy = parts.policy
        policy.androidSafetyNet.timestampToleranceMilliseconds = 3_600_000
        #expect(try parts.registration().verify(policy: policy).type == .basic)
        parts.setPayload("timestampMs", .number(JSONNumber(Int64.min)))
        policy.androidSafetyNet.timestampToleranceMilliseconds = 60_000
        #expect(
            try parts.registration().failure(policy: policy)?.code
                == .attestationTimestampOutOfRange)
        policy.androidSafetyNet.skipsTimestampCheck = true
        let skipped = try parts.registration().verify(policy: policy)
        #expect(skipped.type == .basic)
        // The skipped check would have failed: the result says so.
        #expect(skipped.deviations.map(\.relaxation) == [.skipsSafetyNetTimestampCheck])
        #expect(skipped.deviations.first?.field == "attStmt.response.payload.timestampMs")
    }

    @Test func saturatesAValidationTimeTooLargeForMilliseconds() throws {
        let parts = try Parts.make()
        var policy = parts.policy
        policy.validationTime = Int64.max / 10
        let error = try parts.registration().failure(policy: policy)
        #expect(error?.code == .attestationTimestampOutOfRange)
    }

    // MARK: Trust path

    @Test func rejectsChainToAnotherAnchor() throws {
        let parts = try Parts.make()
        var policy = try AttestationTrustPolicy.wellKnownRoots(validationTime: parts.validationTime)
        policy.androidSafetyNet = parts.policy.androidSafetyNet
        let error = try parts.registration().failure(policy: policy)
        #expect(error?.code == .attestationTrustPathInvalid)
    }

    @Test func rejectsStatementOfAnotherFormat() throws {
        let registration = try W3CDeviceVectors.registration("apple-es256")
        let object = try registration.parse()
        let error = #expect(throws: WebAuthnError.self) {
            try AndroidSafetyNetAttestationVerifier.verify(
                object.statement, in: try registration.context(object, policy: .init()))
        }
        #expect(error?.code == .invalidAttestationStatement)
    }
}
