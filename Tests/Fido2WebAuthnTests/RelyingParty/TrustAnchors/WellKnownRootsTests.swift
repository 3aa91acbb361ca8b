import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// The public attestation roots fido2kit ships, and the ways to load roots into a policy.
@Suite struct WellKnownRootsTests {
    struct Expected: Sendable, CustomTestStringConvertible {
        let root: WellKnownAttestationRoot
        let subject: String
        let notBefore: String
        let notAfter: String
        var testDescription: String { root.name }
    }

    /// Each root's subject and validity as its publisher describes it.
    static let expected: [Expected] = [
        Expected(
            root: WellKnownAttestationRoots.appleWebAuthnRootCA,
            subject: "CN=Apple WebAuthn Root CA, O=Apple Inc., ST=California",
            notBefore: "2020-03-18T18:21:32Z", notAfter: "2045-03-15T00:00:00Z"),
        Expected(
            root: WellKnownAttestationRoots.googleHardwareAttestationRoot1,
            subject: "serialNumber=f92009e853b6b045",
            notBefore: "2016-05-26T16:28:52Z", notAfter: "2026-05-24T16:28:52Z"),
        Expected(
            root: WellKnownAttestationRoots.googleHardwareAttestationRoot2,
            subject: "serialNumber=f92009e853b6b045",
            notBefore: "2019-11-22T20:37:58Z", notAfter: "2034-11-18T20:37:58Z"),
        Expected(
            root: WellKnownAttestationRoots.googleKeyAttestationCA1,
            subject: "CN=Key Attestation CA1, OU=Android, O=Google LLC, C=US",
            notBefore: "2025-07-17T22:32:18Z", notAfter: "2035-07-15T22:32:18Z"),
        Expected(
            root: WellKnownAttestationRoots.globalSignRootCA,
            subject: "C=BE, O=GlobalSign nv-sa, OU=Root CA, CN=GlobalSign Root CA",
            notBefore: "1998-09-01T12:00:00Z", notAfter: "2028-01-28T12:00:00Z"),
        Expected(
            root: WellKnownAttestationRoots.globalSignRootCAR2,
            subject: "OU=GlobalSign Root CA - R2, O=GlobalSign, CN=GlobalSign",
            notBefore: "2006-12-15T08:00:00Z", notAfter: "2021-12-15T08:00:00Z"),
        Expected(
            root: WellKnownAttestationRoots.microsoftTPMRootCA2014,
            subject:
                "C=US, ST=Washington, L=Redmond, O=Microsoft Corporation, CN=Microsoft TPM Root Certificate Authority 2014",
            notBefore: "2014-12-10T21:31:19Z", notAfter: "2039-12-10T21:39:28Z"),
    ]

    @Test func listsEveryRootOnce() {
        #expect(WellKnownAttestationRoots.all == Self.expected.map(\.root))
        #expect(Set(WellKnownAttestationRoots.all.map(\.sha256Fingerprint)).count == 7)
    }

    @Test(arguments: expected)
    func shipsASelfSignedRootWithItsFingerprint(_ expected: Expected) throws {
        let certificate = try expected.root.certificate()
        #expect(certificate.subject.description == expected.subject)
        #expect(certificate.isSelfIssued)
        #expect(certificate.isIssued(by: certificate))
        #expect(certificate.isCertificateAuthority)
        #expect(certificate.notBefore == ISO8601Time.seconds(expected.notBefore))
        #expect(certificate.notAfter == ISO8601Time.seconds(expected.notAfter))
        #expect(
            Hex.encode(DigestAlgorithm.sha256.hash(certificate.derEncoded))
                == expected.root.sha256Fingerprint)
        #expect(!expected.root.formats.isEmpty)
        #expect(expected.root.source.hasPrefix("https://"))
    }

    @Test func refusesARootWhoseBytesDoNotMatchItsFingerprint() throws {
        let apple = WellKnownAttestationRoots.appleWebAuthnRootCA
        let forged = WellKnownAttestationRoot(
            name: apple.name, formats: apple.formats,
            sha256Fingerprint: WellKnownAttestationRoots.globalSignRootCA.sha256Fingerprint,
            source: apple.source, pem: apple.pem)
        let error = #expect(throws: CryptoError.self) { try forged.certificate() }
        #expect(error?.code == .invalidCertificate)
        #expect(throws: CryptoError.self) {
            try WellKnownAttestationRoot(
                name: "broken", formats: ["apple"], sha256Fingerprint: "", source: "", pem: "text"
            ).certificate()
        }
    }

    @Test func buildsAPolicyTrustingEachRootForItsFormats() throws {
        let policy = try AttestationTrustPolicy.wellKnownRoots(validationTime: 1_700_000_000)
        #expect(policy.validationTime == 1_700_000_000)
        #expect(policy.anchors(for: "apple").count == 1)
        #expect(policy.anchors(for: "android-key").count == 3)
        #expect(policy.anchors(for: "android-safetynet").count == 2)
        #expect(policy.anchors(for: "tpm").count == 1)
        #expect(policy.anchors(for: "packed").isEmpty)
        #expect(policy.anchors(for: "fido-u2f").isEmpty)
        #expect(policy.androidKey == AndroidKeyAttestationOptions())
        #expect(policy.androidSafetyNet == AndroidSafetyNetAttestationOptions())
    }

    @Test func addsChosenRootsToAnExistingPolicy() throws {
        let root = try W3CDeviceVectors.attestationRoot()
        let policy = try AttestationTrustPolicy(anchors: ["packed": [root]])
            .trustingWellKnownRoots([WellKnownAttestationRoots.microsoftTPMRootCA2014])
        #expect(policy.anchors(for: "packed") == [root])
        #expect(
            policy.anchors(for: "tpm")
                == [try WellKnownAttestationRoots.microsoftTPMRootCA2014.certificate()])
        #expect(policy.anchors(for: "apple").isEmpty)
    }

    @Test func loadsAPEMBundleTheCallerSupplies() throws {
        let bundle =
            WellKnownAttestationRoots.googleHardwareAttestationRoot1.pem + "\n"
            + WellKnownAttestationRoots.googleKeyAttestationCA1.pem + "\n"
        let policy = try AttestationTrustPolicy().trusting(pemEncoded: bundle, for: "android-key")
        #expect(
            policy.anchors(for: "android-key").map(\.subject.description) == [
                "serialNumber=f92009e853b6b045",
                "CN=Key Attestation CA1, OU=Android, O=Google LLC, C=US",
            ])
        let error = #expect(throws: CryptoError.self) {
            try AttestationTrustPolicy().trusting(pemEncoded: "no certificate here", for: "tpm")
        }
        #expect(error?.code == .invalidPEM)
    }

    @Test func anchorsRealChainsOfEveryFormatTheyServe() throws {
        // One real registration per root family, at its pinned time.
        for id in ["reg-011", "reg-013", "reg-037", "reg-064"] {
            let vector = try RealDeviceCase.named(id)
            var policy = try AttestationTrustPolicy.wellKnownRoots(
                validationTime: vector.pinnedTime)
            policy.androidSafetyNet.acceptsCTSProfileMismatch = true
            let result = try vector.registration.verify(policy: policy)
            guard case .verified(let path) = result.trustPath else {
                Issue.record("\(id): \(result.trustPath)")
                continue
            }
            #expect(policy.anchors(for: vector.format).contains(try #require(path.last)), "\(id)")
        }
    }
}
