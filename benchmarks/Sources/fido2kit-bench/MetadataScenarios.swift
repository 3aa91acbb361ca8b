import BenchmarkHarness
import Fido2WebAuthn

#if canImport(Glibc)
import Glibc
#endif

/// The start-up cost of FIDO metadata (issue 22): verifying and indexing the production MDS3
/// BLOB no. 31 (2.8 MB, RS256, x5c chain to GlobalSign Root R3, 174 entries) from its bytes,
/// and the per-registration look-up that follows. No peer yet (a later issue sets one), so no
/// target: the numbers are reported, not judged.
///
/// The BLOB is read from `../shared/mds` (run from the repository root, beside `../shared`);
/// without it the scenarios are left out.
enum MetadataScenarios {
    static let path = "../shared/mds/mds3-blob-31.jwt"
    /// 2023-09-15T00:00:00Z: the chain is valid and the BLOB current.
    static let validationTime: Int64 = 1_694_736_000

    static func all() throws -> [Scenario] {
        guard let bytes = readFile(path, limit: 16 << 20) else {
            print("note: \(path) not found; the MDS3 scenarios are left out")
            return []
        }
        let options = MetadataBLOB.VerificationOptions(validationTime: validationTime)
        let blob = try MetadataBLOB(compact: bytes, options: options)
        guard let yubiKey = AAGUID(uuidString: "cb69481e-8ff7-4039-93ec-0a2729a154a8"),
            blob.entry(aaguid: yubiKey) != nil
        else { throw BenchmarkSetupError("the BLOB has no YubiKey 5 entry") }
        return [
            Scenario(
                "MDS3: verify and index the production BLOB (2.8 MB, 174 entries)",
                competitors: [
                    Competitor("fido2kit MetadataBLOB") {
                        guard let blob = try? MetadataBLOB(compact: bytes, options: options)
                        else { return 0 }
                        return UInt64(blob.entries.count)
                    }
                ]),
            Scenario(
                "MDS3: look up an entry by AAGUID and by key identifier",
                competitors: [
                    Competitor("fido2kit MetadataBLOB") {
                        let byAAGUID = blob.entry(aaguid: yubiKey)?.statusReports.count ?? 0
                        let byKey =
                            blob.entry(keyIdentifier: "1434d2f277fe479c35ddf6aa4d08a07cbce99dd7")?
                            .statusReports.count ?? 0
                        return UInt64(byAAGUID + byKey)
                    }
                ]),
        ]
    }

    /// The bytes of the file at `path`, at most `limit`; nil if it cannot be read.
    static func readFile(_ path: String, limit: Int) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes.count <= limit ? bytes : nil
    }
}
