import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// The constants of fido2kit's own vector suite (`vectors/`, format `fido2kit-vectors/1`,
/// documented in `docs/vectors.md`): the relying party every case is made for, the seed every
/// key and challenge is drawn from, the test CA's validity and the time certificates are
/// judged at.
enum ProjectVectors {
    /// The value of every file's `format` member.
    static let format = "fido2kit-vectors/1"
    /// The RP ID of every case (except the Belvo ones and the negative cases that change it).
    static let relyingPartyID = "example.org"
    /// The origin of every case (same exceptions).
    static let origin = "https://example.org"
    /// The trust anchor's name in the files.
    static let testRootName = "fido2kit-test-root"
    /// The AAGUID of the generated authenticator (all formats but fido-u2f, which has none).
    static let aaguid = AAGUID(uuidString: "f1d0c0de-7e57-4ec7-8000-000000000001") ?? .zero
    /// The test CA's certificates are valid from 2025-01-01T00:00:00Z …
    static let notBefore: Int64 = 1_735_689_600
    /// … to 9999-12-31T23:59:59Z (RFC 5280 §4.1.2.5: no well-defined expiration date).
    static let notAfter: Int64 = 253_402_300_799
    /// The time at which the suite's certificates are judged: 2026-01-01T00:00:00Z.
    static let validationTime: Int64 = 1_767_225_600

    /// The seed of a named deterministic draw: every key, credential ID and challenge of a case
    /// depends on its own label only, so adding a case changes no other case's bytes.
    static func seed(_ label: String) -> [UInt8] { Array("fido2kit vectors 1: \(label)".utf8) }

    /// `count` bytes drawn for `label`.
    static func draw(_ label: String, count: Int) throws -> [UInt8] {
        try DeterministicRandomSource(seed: seed(label)).bytes(count: count)
    }
}
