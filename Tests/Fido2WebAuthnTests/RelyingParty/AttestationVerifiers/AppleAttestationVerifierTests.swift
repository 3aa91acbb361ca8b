import Fido2CBOR
@_spi(Fido2Internals) import Fido2Crypto
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthnTestSupport
import Testing

@_spi(Fido2Internals) @testable import Fido2WebAuthn
@_spi(Fido2Internals) @testable import Fido2WebAuthnWire

/// The `apple` verifier (WebAuthn §8.8) on the W3C vector, on real Apple devices, and on every
/// failure path, through the `AttestationFormatVerifier` protocol.
@Suite struct AppleAttestationVerifierTests {
    @Test func isTheRegisteredVerifierOfItsFormat() throws {
        #expect(AppleAttestationVerifier.format == "apple")
        let registered = try #require(AttestationFormatRegistry.standard.verifier(for: "apple"))
        #expect(ObjectIdentifier(registered) == ObjectIdentifier(AppleAttestationVerifier.self))
    }

    /// The W3C `apple-es256` vector with a credCert the vectors' CA reissues.
    struct Parts {
        var certificates: [[UInt8]]
        let authData: ArraySlice<UInt8>
        let clientDataHash: [UInt8]
        let credentialKey: PrivateKey
        let authority: TestCertificateAuthority

        static func w3c() throws -> Parts {
            let registration = try W3CDeviceVectors.registration("apple-es256")
            let object = try registration.parse()
            guard case .apple(let statement) = object.statement else {
                throw VectorShapeError(description: "apple-es256 is not apple")
            }
            return Parts(
                certificates: statement.certificates.map { Array($0) },
                authData: object.authenticatorData.bytes,
                clientDataHash: registration.clientDataHash,
                credentialKey: try W3CDeviceVectors.credentialKey("apple-es256"),
                authority: try W3CDeviceVectors.attestationAuthority())
        }

        var nonce: [UInt8] {
            get throws { DigestAlgorithm.sha256.hash(authData, clientDataHash) }
        }

        /// `SEQUENCE { [1] EXPLICIT OCTET STRING nonce }`.
        static func nonceExtensionValue(_ nonce: [UInt8]) -> [UInt8] {
            var writer = DERWriter()
            writer.appendSequence { sequence in
                sequence.appendExplicit(1) { $0.appendOctetString(nonce) }
            }
            return writer.bytes
        }

        mutating func reissueCredCert(
            nonceExtension: [UInt8]?, critical: Bool = false, subjectKey: PublicKey? = nil,
            extra: [CertificateExtension] = [], issuer: TestCertificateAuthority? = nil
        ) throws {
            let issuer = issuer ?? authority
            var builder = try issuer.builder(
                subject: try DistinguishedName([.commonName("credCert")]),
                subjectKey: try subjectKey ?? credentialKey.publicKey, serialNumber: [0x39, 0x42],
                notBefore: authority.certificate.notBefore,
                notAfter: authority.certificate.notAfter)
            builder.basicConstraints = BasicConstraints(isCertificateAuthority: false)
            builder.keyUsage = [.digitalSignature]
            if let nonceExtension {
                builder.additionalExtensions.append(
                    CertificateExtension(
                        oid: .appleAttestationNonce, isCritical: critical, value: nonceExtension))
            }
            builder.additionalExtensions += extra
            certificates = [try builder.sign(with: issuer.privateKey).derEncoded]
        }

        func registration() -> DeviceRegistration {
            DeviceRegistration(
                id: "apple-es256 (modified)", format: "apple",
                attestationObject: deviceAttestationObject(
                    format: "apple",
                    members: [("x5c", .array(certificates.map { .byteString($0) }))],
                    authData: authData),
                clientDataHash: clientDataHash)
        }
    }

    // MARK: W3C vector

    @Test func verifiesW3CVectorAsAnonymizationCA() throws {
        let root = try W3CDeviceVectors.attestationRoot()
        let result = try W3CDeviceVectors.registration("apple-es256").verify(
            policy: try W3CDeviceVectors.policy(for: "apple"))
        #expect(result.format == "apple")
        #expect(result.type == .anonymizationCA)
        #expect(result.trustPath == .verified(path: [result.certificates[0], root]))
    }

    @Test func reportsTrustPathNotEvaluatedWithoutAnchors() throws {
        let result = try W3CDeviceVectors.registration("apple-es256").verify(policy: .init())
        guard case .notEvaluated = result.trustPath else {
            Issue.record("expected notEvaluated, got \(result.trustPath)")
            return
        }
    }

    // MARK: Real devices

    static let realCases: [RealDeviceCase] =
        (try? RealDeviceCase.all().filter { $0.format == "apple" }) ?? []

    @Test func coversEveryRealAppleCase() {
        #expect(Self.realCases.map(\.id) == ["reg-013", "reg-030"])
    }

    /// Both chains end at the Apple WebAuthn Root CA. reg-030 has no pinned time in its
    /// source: it is judged inside its chain's validity (its credCert lived one day).
    @Test(arguments: realCases)
    func verifiesRealAppleStatementToAppleRoot(_ vector: RealDeviceCase) throws {
        #expect(vector.expectedResult == "ok")
        let time = try vector.pinnedTime ?? vector.timeInsideChainValidity()
        let result = try vector.registration.verify(
            policy: try .wellKnownRoots(validationTime: time))
        #expect(result.type == .anonymizationCA)
        guard case .verified(let path) = result.trustPath else {
            Issue.record("\(vector.id): \(result.trustPath)")
            return
        }
        #expect(path.last?.subject.commonName == "Apple WebAuthn Root CA")
    }

    @Test func rejectsRealAppleChainAtTodaysClock() throws {
        let error = try RealDeviceCase.named("reg-013").registration.failure(
            policy: try .wellKnownRoots())
        #expect(error?.code == .attestationTrustPathInvalid)
        #expect(error?.reason.contains("expired") == true)
    }

    // MARK: Nonce and key

    @Test func rejectsCredCertWithoutNonceExtension() throws {
        var parts = try Parts.w3c()
        try parts.reissueCredCert(nonceExtension: nil)
        let error = parts.registration().failure(policy: .init())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.step == "§8.8 step 4")
    }

    @Test(
        arguments: [
            // A bare OCTET STRING; [2] instead of [1]; a 31-byte nonce; a trailing byte.
            [0x04, 0x20] + [UInt8](repeating: 0, count: 32),
            [0x30, 0x24, 0xa2, 0x22, 0x04, 0x20] + [UInt8](repeating: 0, count: 32),
            [0x30, 0x23, 0xa1, 0x21, 0x04, 0x1f] + [UInt8](repeating: 0, count: 31),
            [0x30, 0x24, 0xa1, 0x22, 0x04, 0x20] + [UInt8](repeating: 0, count: 32) + [0x00],
        ] as [[UInt8]])
    func rejectsMalformedNonceExtension(_ value: [UInt8]) throws {
        var parts = try Parts.w3c()
        try parts.reissueCredCert(nonceExtension: value)
        let error = parts.registration().failure(policy: .init())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0].nonce")
    }

    @Test func rejectsNonceOfOtherData() throws {
        var parts = try Parts.w3c()
        try parts.reissueCredCert(
            nonceExtension: Parts.nonceExtensionValue(
                DigestAlgorithm.sha256.hash(parts.authData)))
        let error = parts.registration().failure(policy: .init())
        #expect(error?.code == .attestationNonceMismatch)
        #expect(error?.step == "§8.8 step 4")
    }

    @Test func rejectsCredCertForAnotherKey() throws {
        var parts = try Parts.w3c()
        try parts.reissueCredCert(
            nonceExtension: Parts.nonceExtensionValue(try parts.nonce),
            subjectKey: try PrivateKey(generating: .p256).publicKey)
        let error = parts.registration().failure(policy: .init())
        #expect(error?.code == .attestationKeyMismatch)
        #expect(error?.step == "§8.8 step 5")
    }

    @Test func rejectsStatementWithoutCertificates() throws {
        let registration = try W3CDeviceVectors.registration("apple-es256")
        let object = try registration.parse()
        let error = #expect(throws: WebAuthnError.self) {
            try AppleAttestationVerifier.verify(
                .apple(AppleAttestationStatement(certificates: [])),
                in: try registration.context(object, policy: .init()))
        }
        #expect(error?.code == .invalidAttestationStatement)
        #expect(error?.field == "attStmt.x5c")
    }

    @Test func ignoresTheAlgMemberAppleDevicesAdd() throws {
        let registration = try W3CDeviceVectors.registration("apple-es256")
        let object = try registration.parse()
        guard case .apple(let statement) = object.statement else { return }
        let withAlg = AppleAttestationStatement(
            certificates: statement.certificates.map { Array($0) }, algorithm: .rs256)
        let result = try AppleAttestationVerifier.verify(
            .apple(withAlg), in: try registration.context(object, policy: .init()))
        #expect(result.type == .anonymizationCA)
    }

    @Test func rejectsCredCertThatDoesNotParse() throws {
        var parts = try Parts.w3c()
        parts.certificates[0] += [0x00]
        let error = parts.registration().failure(policy: .init())
        #expect(error?.code == .attestationCertificateInvalid)
        #expect(error?.field == "attStmt.x5c[0]")
    }

    // MARK: Critical extensions and trust path

    @Test func acceptsCriticalNonceExtensionOnCredCert() throws {
        var parts = try Parts.w3c()
        try parts.reissueCredCert(
            nonceExtension: Parts.nonceExtensionValue(try parts.nonce), critical: true)
        let result = try parts.registration().verify(
            policy: try W3CDeviceVectors.policy(for: "apple"))
        guard case .verified = result.trustPath else {
            Issue.record("expected a verified path, got \(result.trustPath)")
            return
        }
    }

    @Test func rejectsCriticalNonceExtensionOnAnIntermediate() throws {
        var parts = try Parts.w3c()
        let intermediateKey = try PrivateKey(generating: .p256)
        var builder = try parts.authority.builder(
            subject: try DistinguishedName([.commonName("Anonymization CA")]),
            subjectKey: try intermediateKey.publicKey, serialNumber: [0x01, 0x02],
            notBefore: parts.authority.certificate.notBefore,
            notAfter: parts.authority.certificate.notAfter)
        builder.basicConstraints = BasicConstraints(isCertificateAuthority: true)
        builder.keyUsage = [.keyCertSign]
        builder.additionalExtensions = [
            CertificateExtension(
                oid: .appleAttestationNonce, isCritical: true,
                value: Parts.nonceExtensionValue(try parts.nonce))
        ]
        let intermediate = try builder.sign(with: parts.authority.privateKey)
        try parts.reissueCredCert(
            nonceExtension: Parts.nonceExtensionValue(try parts.nonce), critical: true,
            issuer: try TestCertificateAuthority(
                privateKey: intermediateKey, certificate: intermediate))
        parts.certificates.append(intermediate.derEncoded)
        let error = parts.registration().failure(policy: try W3CDeviceVectors.policy(for: "apple"))
        #expect(error?.code == .attestationTrustPathInvalid)
    }

    @Test func rejectsOtherUnknownCriticalExtension() throws {
        var parts = try Parts.w3c()
        try parts.reissueCredCert(
            nonceExtension: Parts.nonceExtensionValue(try parts.nonce),
            extra: [
                CertificateExtension(
                    oid: try #require(ASN1ObjectIdentifier(dotted: "1.2.840.113635.100.8.9")),
                    isCritical: true, value: [0x05, 0x00])
            ])
        let error = parts.registration().failure(policy: try W3CDeviceVectors.policy(for: "apple"))
        #expect(error?.code == .attestationTrustPathInvalid)
        #expect(error?.reason.contains("critical") == true)
    }

    @Test func rejectsChainToAnotherAnchor() throws {
        let error = try W3CDeviceVectors.registration("apple-es256").failure(
            policy: try .wellKnownRoots())
        #expect(error?.code == .attestationTrustPathInvalid)
    }

    @Test func rejectsStatementOfAnotherFormat() throws {
        let registration = try W3CDeviceVectors.registration("tpm-es256")
        let object = try registration.parse()
        let error = #expect(throws: WebAuthnError.self) {
            try AppleAttestationVerifier.verify(
                object.statement, in: try registration.context(object, policy: .init()))
        }
        #expect(error?.code == .invalidAttestationStatement)
    }
}
