import BenchmarkHarness
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire
import Foundation

/// The start-up cost of FIDO metadata (issues 22 and 24): verifying and indexing the production
/// MDS3 BLOB no. 31 (2.8 MB, RS256, x5c chain to GlobalSign Root R3, 174 entries) from its
/// bytes, against python-fido2's `fido2.mds3` in the same run, and the per-registration look-up
/// that follows (fido2kit only). Target: fido2kit at least 5x faster than python-fido2 on
/// verify and index.
///
/// The BLOB and the root are read from `shared/mds` beside the repository (the sibling of
/// FIDO2KIT_SHARED_VECTORS when that is set), wherever the benchmark is run from; without them
/// the scenarios are left out with a line saying so.
enum MetadataScenarios {
    static let verifyTitle = "MDS3: verify and index the production BLOB (2.8 MB, 174 entries)"
    static let lookUpTitle = "MDS3: look up an entry by AAGUID and by key identifier"
    /// 2023-09-15T00:00:00Z: the chain is valid and the BLOB current.
    static let validationTime: Int64 = 1_694_736_000
    static let entryCount = 174
    static let blobName = "mds3-blob-31.jwt"
    static let rootName = "globalsign-root-r3.pem"
    /// The FIDO conformance tools' fake MDS3 root: the BLOB must not verify to it.
    static let fakeRootName = "fido-conformance-fake-root.pem"

    /// The BLOB and its root, read from the shared folder.
    struct Files {
        let folder: String
        let blob: [UInt8]
        let rootPEM: String
        let root: Certificate
        let fakeRootPEM: String
        let fakeRoot: Certificate

        var blobPath: String { folder + "/" + MetadataScenarios.blobName }
        var options: MetadataBLOB.VerificationOptions {
            MetadataBLOB.VerificationOptions(trustAnchors: [root], validationTime: validationTime)
        }

        /// The files, or nil (with the reason) when one is missing.
        static func read() throws -> Result<Files, PeerScenarios.NotRun> {
            let folder = PeerScenarios.sharedFolder("mds")
            func contents(_ name: String) -> Data? {
                FileManager.default.contents(atPath: folder + "/" + name)
            }
            guard let blob = contents(blobName), let root = contents(rootName),
                let fakeRoot = contents(fakeRootName)
            else {
                return .failure(
                    PeerScenarios.NotRun(
                        reason:
                            "\(folder)/\(blobName), \(rootName) or \(fakeRootName) not found; the MDS3 scenarios are left out",
                        isFailure: false))
            }
            let rootPEM = String(decoding: root, as: UTF8.self)
            let fakeRootPEM = String(decoding: fakeRoot, as: UTF8.self)
            return .success(
                Files(
                    folder: folder, blob: Array(blob), rootPEM: rootPEM,
                    root: try Certificate(pemEncoded: rootPEM), fakeRootPEM: fakeRootPEM,
                    fakeRoot: try Certificate(pemEncoded: fakeRootPEM)))
        }
    }

    /// The look-up scenario (fido2kit only: a look-up parses nothing).
    static func all() throws -> [Scenario] {
        let files: Files
        switch try Files.read() {
        case .success(let found): files = found
        case .failure(let notRun):
            print("note: \(notRun.reason)")
            return []
        }
        let blob = try MetadataBLOB(compact: files.blob, options: files.options)
        guard let yubiKey = AAGUID(uuidString: "cb69481e-8ff7-4039-93ec-0a2729a154a8"),
            blob.entry(aaguid: yubiKey) != nil
        else { throw BenchmarkSetupError("the BLOB has no YubiKey 5 entry") }
        return [
            Scenario(
                lookUpTitle,
                competitors: [
                    Competitor("fido2kit MetadataBLOB") {
                        let byAAGUID = blob.entry(aaguid: yubiKey)?.statusReports.count ?? 0
                        let byKey =
                            blob.entry(keyIdentifier: "1434d2f277fe479c35ddf6aa4d08a07cbce99dd7")?
                            .statusReports.count ?? 0
                        return UInt64(byAAGUID + byKey)
                    }
                ],
                notes: [
                    "Two dictionary reads in the indexes built when the BLOB was read (the "
                        + "YubiKey 5 AAGUID and a U2F key identifier): nothing is parsed per "
                        + "look-up. No peer row: python-fido2's MdsAttestationVerifier look-up is "
                        + "a dictionary read as well, and a pipe round-trip would dwarf it."
                ])
        ]
    }

    /// fido2kit against python-fido2 (`fido2.mds3`) on the same BLOB bytes and root, in the
    /// same rounds; a peer scenario (it needs the venv of benchmarks/peers/setup.sh).
    static func verifyAndIndex(_ locations: PeerScenarios.Locations) throws -> Scenario {
        let files: Files
        switch try Files.read() {
        case .success(let found): files = found
        case .failure(let notRun): throw notRun
        }
        let bytes = files.blob
        let options = files.options
        let verify: @Sendable () throws -> UInt64 = {
            UInt64(try MetadataBLOB(compact: bytes, options: options).entries.count)
        }
        do {
            let count = try verify()
            guard count == entryCount else {
                throw PeerScenarios.NotRun(
                    reason: "fido2kit read \(count) entries, not \(entryCount)", isFailure: true)
            }
        } catch let error as PeerScenarios.NotRun {
            throw error
        } catch {
            throw PeerScenarios.NotRun(
                reason: "fido2kit does not verify the BLOB: \(error)", isFailure: true)
        }
        // Both sides must refuse the BLOB against the conformance tools' fake root.
        let fakeOptions = MetadataBLOB.VerificationOptions(
            trustAnchors: [files.fakeRoot], validationTime: validationTime)
        if (try? MetadataBLOB(compact: bytes, options: fakeOptions)) != nil {
            throw PeerScenarios.NotRun(
                reason: "fido2kit accepts the BLOB against the fake root", isFailure: true)
        }
        let input = try write("mds3", files: files, rootPEM: files.rootPEM, in: locations)
        let fakeInput = try write(
            "mds3-fake-root", files: files, rootPEM: files.fakeRootPEM, in: locations)
        let library = "python-fido2"
        let refusing = try PeerProcess(
            label: "\(library) (\(verifyTitle), refusal)", executable: locations.python,
            arguments: ["-B", locations.worker])
        _ = try refusing.load(scenario: "mds3", library: library, input: fakeInput)
        if (try? refusing.run(checked: 1)) != nil {
            throw PeerScenarios.NotRun(
                reason: "\(library) accepts the BLOB against the fake root (\(fakeInput))",
                isFailure: true)
        }
        let worker = try PeerProcess(
            label: "\(library) (\(verifyTitle))", executable: locations.python,
            arguments: ["-B", locations.worker])
        let loaded: String
        do {
            loaded = try worker.load(scenario: "mds3", library: library, input: input)
            // The worker fails a call whose payload does not have `entryCount` entries.
            try worker.run(checked: 1)
        } catch {
            throw PeerScenarios.NotRun(
                reason:
                    "\(library) did not load or verify the BLOB, so the scenario is not measured: \(error)",
                isFailure: true)
        }
        return Scenario(
            verifyTitle,
            competitors: [
                Competitor("fido2kit") { (try? verify()) ?? 0 },
                Competitor(library, batch: { worker.run($0) }),
            ],
            checks: [.init("fido2kit", against: library, .fasterThanBaseline(atLeast: 5))],
            notes: [
                "Both sides start from the same BLOB bytes (\(files.blobPath)) and GlobalSign "
                    + "Root R3, parsed once; each call verifies and indexes the whole BLOB.",
                "fido2kit: MetadataBLOB(compact:options:) with the root as the only trust anchor "
                    + "and the validation time 2023-09-15 (the signer certificate expired on "
                    + "2024-07-09, nextUpdate is 2023-10-01): the JWS header, the RS256 signature "
                    + "with x5c[0]'s key, the x5c chain to the root with every certificate's "
                    + "validity at that time (no CRLs), nextUpdate not passed at that time, "
                    + "every entry read (status reports, the metadata statement, its "
                    + "attestationRootCertificates parsed as X.509), then the AAGUID and key "
                    + "identifier indexes.",
                "python-fido2: fido2.mds3.parse_blob(blob, root_der) then "
                    + "MdsAttestationVerifier(payload): the x5c chain to the root by signatures "
                    + "only, the RS256 signature with x5c[0]'s key, every entry deserialized "
                    + "(status reports and metadata statement; attestationRootCertificates kept "
                    + "as DER bytes, not parsed), then its AAGUID and key identifier tables "
                    + "(revoked entries filtered out). parse_blob takes no time and checks no "
                    + "validity period or nextUpdate (it accepts this BLOB today, 2026), so "
                    + "python-fido2 does less than fido2kit here: no time checks at all.",
                "At set-up both sides read 174 entries, and both refused the BLOB against the "
                    + "FIDO conformance tools' fake MDS3 root. Peer: \(loaded); input \(input).",
            ])
    }

    /// Writes the worker's `mds3` input file (see worker.py) and returns its path.
    static func write(
        _ name: String, files: Files, rootPEM: String, in locations: PeerScenarios.Locations
    ) throws -> String {
        let spec: [String: Any] = [
            "blobPath": files.blobPath, "rootPEM": rootPEM, "entries": entryCount,
        ]
        let url = locations.inputs.appendingPathComponent(name + ".json")
        try JSONSerialization.data(withJSONObject: spec, options: [.sortedKeys]).write(to: url)
        return url.path
    }
}
