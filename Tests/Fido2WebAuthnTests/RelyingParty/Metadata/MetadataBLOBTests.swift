import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Foundation
import Testing

/// The production MDS3 BLOB no. 31 in `../shared/mds`: verified against GlobalSign Root R3 at
/// a time when its chain was valid and it was current, refused otherwise.
@Suite struct MetadataBLOBTests {
    /// 2023-09-15T00:00:00Z: the signer is valid (2023-06-08 .. 2024-07-09), nextUpdate
    /// (2023-10-01) is ahead.
    static let blobDate: Int64 = 1_694_736_000

    static func production(
        at time: Int64? = blobDate, anchors: [Certificate]? = nil, allowsStale: Bool = false,
        revocationLists: [CertificateRevocationList] = []
    ) throws -> MetadataBLOB {
        try MetadataBLOB(
            compact: try sharedMDS("mds3-blob-31.jwt"),
            options: MetadataBLOB.VerificationOptions(
                trustAnchors: anchors, validationTime: time, revocationLists: revocationLists,
                allowsStale: allowsStale))
    }

    @Test func productionBLOBVerifiesAgainstGlobalSignRootR3() throws {
        let root = try Certificate(pemEncoded: try sharedMDSText("globalsign-root-r3.pem"))
        #expect(root == (try WellKnownAttestationRoots.globalSignRootCAR3.certificate()))
        for anchors in [nil, [root]] {
            let blob = try Self.production(anchors: anchors)
            #expect(blob.number == 31)
            #expect(blob.nextUpdate == "2023-10-01")
            #expect(blob.nextUpdateTime == 1_696_118_400)
            #expect(blob.entries.count == 174)
            #expect(blob.entries.count { $0.aaguid != nil } == 108)
            #expect(blob.entries.count { !$0.attestationCertificateKeyIdentifiers.isEmpty } == 49)
            #expect(blob.algorithm == "RS256")
            #expect(blob.signerPath.count == 3)
            #expect(blob.signerPath.last == root)
            #expect(!blob.revocationChecked)
            #expect(!blob.isStale)
        }
    }

    @Test func indexesEntriesByAAGUIDAndKeyIdentifier() throws {
        let blob = try Self.production()
        let aaguid = try #require(AAGUID(uuidString: "cb69481e-8ff7-4039-93ec-0a2729a154a8"))
        let yubiKey = try #require(blob.entry(aaguid: aaguid))
        #expect(yubiKey.description == "YubiKey 5 Series")
        #expect(yubiKey.status == .fidoCertifiedL1)
        #expect(yubiKey.certificationLevel == .l1)
        #expect(yubiKey.attestationRootCertificates.count == 1)
        #expect(yubiKey.attestationTypes == ["basic_full"])
        let u2f = try #require(
            blob.entry(keyIdentifier: "B88023F2545FDD6EA62060AB89D33294132B9BC9"))
        #expect(u2f.description == "Security Key by Yubico")
        #expect(u2f.aaguid == nil)
        #expect(blob.entry(keyIdentifier: "00") == nil)
        #expect(blob.entry(aaguid: .zero) == nil)
        for entry in blob.entries {
            let dates = entry.statusReports.compactMap(\.effectiveDate)
            #expect(dates == dates.sorted(by: >), "\(entry.description): latest first")
        }
    }

    @Test func refusesTheFakeConformanceRoot() throws {
        let fake = try Certificate(pemEncoded: try sharedMDSText("fido-conformance-fake-root.pem"))
        expectCode(.metadataTrustPathInvalid) { _ = try Self.production(anchors: [fake]) }
    }

    @Test func refusesTheBLOBAtTodaysDate() throws {
        // Stale since 2023-10-01, and its signer expired on 2024-07-09: the chain fails first.
        expectCode(.metadataTrustPathInvalid) { _ = try Self.production(at: nil) }
        expectCode(.metadataTrustPathInvalid) {
            _ = try Self.production(at: nil, allowsStale: true)
        }
    }

    @Test func refusesAStaleBLOBUnlessAllowed() throws {
        let afterNextUpdate: Int64 = 1_696_204_800  // 2023-10-02, the signer still valid
        expectCode(.metadataStale) { _ = try Self.production(at: afterNextUpdate) }
        let stale = try Self.production(at: afterNextUpdate, allowsStale: true)
        #expect(stale.isStale)
    }

    @Test func refusesAnyChangeToThePayload() throws {
        let bytes = try sharedMDS("mds3-blob-31.jwt")
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        // A well-formed change: no 31 becomes no 32, the JSON still valid.
        let payload = try Base64URL.decode(utf8: parts[1])
        let text = String(decoding: payload, as: UTF8.self)
        let changed = text.replacingFirst("\"no\":31", with: "\"no\":32")
        try #require(changed != text)
        let forged =
            Array(parts[0]) + [UInt8(ascii: ".")]
            + Array(Base64URL.encode(Array(changed.utf8)).utf8)
            + [UInt8(ascii: ".")] + Array(parts[2])
        expectCode(.metadataSignatureInvalid) {
            _ = try MetadataBLOB(
                compact: forged,
                options: MetadataBLOB.VerificationOptions(validationTime: Self.blobDate))
        }
        // Flipping one base64url character anywhere in the payload fails too (signature, or
        // the JSON when the flip breaks it).
        let payloadStart = parts[1].startIndex
        for offset in stride(from: 0, to: parts[1].count, by: parts[1].count / 7) {
            var copy = bytes
            let index = payloadStart + offset
            copy[index] = copy[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            let error = webAuthnError {
                try MetadataBLOB(
                    compact: copy,
                    options: MetadataBLOB.VerificationOptions(validationTime: Self.blobDate))
            }
            #expect(
                error?.code == .metadataSignatureInvalid || error?.code == .metadataInvalid,
                "offset \(offset): \(String(describing: error))")
        }
    }

    @Test func theSharedCRLsAreNotCurrentAtTheBLOBsDate() throws {
        // The CRLs date from 2024: at 2023-09-15 they cannot vouch for the chain, which fails
        // closed; without CRLs the BLOB reports revocation as not checked.
        let lists = [
            try CertificateRevocationList(derEncoded: try sharedMDS("globalsign-root-r3.crl")),
            try CertificateRevocationList(
                derEncoded: try sharedMDS("globalsign-ev-ca-sha256-g3.crl")),
        ]
        expectCode(.metadataTrustPathInvalid) {
            _ = try Self.production(revocationLists: lists)
        }
    }

    @Test func refusesMalformedBLOBs() {
        let options = MetadataBLOB.VerificationOptions(validationTime: Self.blobDate)
        for text in ["", "a.b", "e30.e30.", "not base64!.e30.AA"] {
            expectCode(.metadataInvalid) {
                _ = try MetadataBLOB(compact: Array(text.utf8), options: options)
            }
        }
        // {"alg":"none"}: not an algorithm fido2kit verifies.
        let none = Base64URL.encode(Array("{\"alg\":\"none\"}".utf8)) + ".e30.AA"
        expectCode(.metadataSignatureInvalid) {
            _ = try MetadataBLOB(compact: Array(none.utf8), options: options)
        }
        // {"alg":"ES256"} without x5c.
        let noChain = Base64URL.encode(Array("{\"alg\":\"ES256\"}".utf8)) + ".e30.AA"
        expectCode(.metadataInvalid) {
            _ = try MetadataBLOB(compact: Array(noChain.utf8), options: options)
        }
        var small = options
        small.maximumSize = 8
        expectCode(.metadataInvalid) {
            _ = try MetadataBLOB(compact: Array("e30.e30.AAAAAAAA".utf8), options: small)
        }
    }
}

/// The bytes of `name` in `../shared/mds`.
func sharedMDS(_ name: String) throws -> [UInt8] {
    [UInt8](try SharedVectors.data("../mds/" + name))
}

/// The text of `name` in `../shared/mds`.
func sharedMDSText(_ name: String) throws -> String {
    String(decoding: try sharedMDS(name), as: UTF8.self)
}

extension String {
    /// The string with the first occurrence of `target` replaced.
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
