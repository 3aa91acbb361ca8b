import Fido2TestSupport
import Fido2Vectors
import Foundation
import Testing

/// Every vector suite fido2kit knows, run through the runners and expectation tables that
/// `fido2kit vectors verify` runs (Fido2Vectors): the external suites of `../shared/vectors`,
/// other relying parties' data in `../shared/interop` and the project's own `vectors/`. Every
/// case must meet its file's expectation; the number of cases of each file is pinned here, so a
/// suite that silently shrank, or a file no runner recognizes any more, fails; and only the
/// cases named here may be left not judged (their verdict rests on data their file lacks).
@Suite struct VectorSuiteTests {
    /// One suite file and what running it must give.
    struct File: CustomTestStringConvertible, Sendable {
        enum Folder: Sendable { case shared, interop, project }

        let folder: Folder
        let name: String
        /// How many cases the runner reports.
        let cases: Int
        /// The cases the runner may leave not judged.
        var notJudged: Set<String> = []

        var testDescription: String { name }

        var url: URL {
            switch folder {
            case .shared: SharedVectors.directory.appendingPathComponent(name)
            case .interop: SharedVectors.interopDirectory.appendingPathComponent(name)
            case .project: SharedVectors.projectDirectory.appendingPathComponent(name)
            }
        }
    }

    static let files: [File] = [
        File(folder: .shared, name: "cose-keys.json", cases: 8),
        File(folder: .shared, name: "real-authentications.json", cases: 19),
        File(
            folder: .shared, name: "real-registrations.json", cases: 64,
            notJudged: ["reg-016", "reg-029"]),
        File(folder: .shared, name: "rfc8949-appendix-a.json", cases: 82),
        File(folder: .shared, name: "webauthn-l3-prf-test-vectors.json", cases: 5),
        File(folder: .shared, name: "webauthn-l3-test-vectors.json", cases: 30),
        File(
            folder: .shared, name: "wycheproof/ecdsa_secp256r1_sha256_p1363_test.json", cases: 262),
        File(folder: .shared, name: "wycheproof/ecdsa_secp256r1_sha256_test.json", cases: 484),
        File(folder: .shared, name: "wycheproof/ecdsa_secp384r1_sha384_test.json", cases: 504),
        File(folder: .shared, name: "wycheproof/ecdsa_secp521r1_sha512_test.json", cases: 542),
        File(folder: .shared, name: "wycheproof/ecdsa_secp256k1_sha256_test.json", cases: 476),
        File(folder: .shared, name: "wycheproof/ed25519_test.json", cases: 151),
        File(folder: .shared, name: "wycheproof/ed448_test.json", cases: 87),
        File(folder: .shared, name: "wycheproof/rsa_pss_2048_sha256_mgf1_32_test.json", cases: 108),
        File(folder: .shared, name: "wycheproof/rsa_signature_2048_sha256_test.json", cases: 259),
        File(folder: .shared, name: "wycheproof/rsa_signature_3072_sha256_test.json", cases: 259),
        File(folder: .interop, name: "peer-authentications.json", cases: 28),
        File(folder: .interop, name: "peer-registrations.json", cases: 57, notJudged: ["preg-055"]),
        File(folder: .project, name: "registrations.json", cases: 29),
        File(folder: .project, name: "authentications.json", cases: 28),
        File(folder: .project, name: "belvo.json", cases: 3),
    ]

    @Test(arguments: files)
    func everyCaseMeetsItsExpectation(_ file: File) throws {
        let bytes = [UInt8](try SharedVectors.data(at: file.url))
        let name = file.url.lastPathComponent
        guard case .suite(let suite) = VectorSuiteCatalog.recognize(name: name, bytes: bytes)
        else {
            Issue.record("no runner recognizes \(file.name)")
            return
        }
        let results = suite.run()
        #expect(results.count == file.cases, "\(file.name)")
        for result in results {
            if let failure = result.failure {
                Issue.record("\(file.name) \(result.id): \(failure)")
            }
        }
        let unjudged = results.filter { $0.notJudged != nil }
        #expect(
            Set(unjudged.map(\.id))
                == file.notJudged,
            "\(unjudged.map { "\($0.id): \($0.notJudged ?? "")" })")
    }

    /// A suite file added to one of the folders is run here too: the list above names them all.
    @Test func listsEveryFileOfTheFolders() throws {
        var found: Set<String> = []
        for (folder, url) in [
            (File.Folder.shared, SharedVectors.directory),
            (.interop, SharedVectors.interopDirectory), (.project, SharedVectors.projectDirectory),
        ] {
            let enumerator = FileManager.default.enumerator(
                at: url, includingPropertiesForKeys: nil)
            while let next = enumerator?.nextObject() as? URL {
                guard next.pathExtension == "json" else { continue }
                let name = String(next.path.dropFirst(url.path.count + 1))
                found.insert("\(folder) \(name)")
            }
        }
        #expect(found == Set(Self.files.map { "\($0.folder) \($0.name)" }))
    }
}
