import Fido2Crypto
@_spi(Fido2Internals) import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Encodes and decodes the files of ``DirectoryCredentialStore`` (format 1, documented there).
enum CredentialFile {
    static let magic = "fido2kit-credential 1"

    /// The file's bytes.
    static func encode(_ credential: StoredCredential) throws(AuthenticatorError) -> [UInt8] {
        let pem: String
        do {
            pem = try credential.privateKey.pemRepresentation
        } catch {
            throw AuthenticatorError(
                .storageFailure, "cannot encode the private key: \(error)", field: "privateKey")
        }
        var writer = JSONWriter(reservingCapacity: 512)
        writer.beginObject()
        writer.name("id")
        writer.base64URL(credential.id)
        writer.name("rpId")
        writer.string(credential.relyingPartyID)
        writer.name("userHandle")
        writer.base64URL(credential.userHandle)
        writer.name("userName")
        writer.string(credential.userName)
        writer.name("userDisplayName")
        writer.string(credential.userDisplayName)
        writer.name("alg")
        writer.number(credential.algorithm.rawValue)
        writer.name("signCount")
        writer.number(Int64(credential.signCount))
        writer.name("discoverable")
        writer.bool(credential.isDiscoverable)
        writer.name("backupEligible")
        writer.bool(credential.backupEligible)
        writer.name("backupState")
        writer.bool(credential.backupState)
        writer.name("signCounter")
        writer.bool(credential.usesSignCounter)
        writer.endObject()
        var bytes = Array((magic + "\n").utf8)
        bytes.append(contentsOf: writer.bytes)
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: pem.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        return bytes
    }

    /// Reads a file's bytes.
    ///
    /// - Throws: ``AuthenticatorError`` `corruptCredential` saying what is wrong.
    static func decode(
        _ bytes: [UInt8], name: String
    ) throws(AuthenticatorError) -> StoredCredential {
        func corrupt(_ reason: String) -> AuthenticatorError {
            AuthenticatorError(.corruptCredential, "\(name): \(reason)")
        }
        let lines = bytes.split(
            separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, lines[0].elementsEqual(magic.utf8) else {
            throw corrupt("not a fido2kit credential file (first line must be \"\(magic)\")")
        }
        let fields: Fields
        do {
            fields = try JSONScanner.scan(Array(lines[1]), mapError: JSONScanner.webAuthnError) {
                (scanner) throws(WebAuthnError) in try Fields(scanning: &scanner)
            }
        } catch {
            throw corrupt("metadata line: \(error)")
        }
        let key: PrivateKey
        do {
            key = try PrivateKey(pemRepresentation: String(decoding: lines[2], as: UTF8.self))
        } catch {
            throw corrupt("private key: \(error)")
        }
        let algorithm = COSEAlgorithm(rawValue: fields.alg)
        guard algorithm.isAllowedForSigning, algorithm.isCompatible(with: key.kind) else {
            throw corrupt("algorithm \(algorithm) does not fit the \(key.kind) key")
        }
        guard let count = UInt32(exactly: fields.signCount) else {
            throw corrupt("signCount \(fields.signCount) is outside 0...\(UInt32.max)")
        }
        guard (1...AttestedCredentialData.maximumCredentialIdLength).contains(fields.id.count)
        else { throw corrupt("credential ID of \(fields.id.count) bytes") }
        guard !fields.backupState || fields.backupEligible else {
            throw corrupt("backupState without backupEligible")
        }
        return StoredCredential(
            id: fields.id, relyingPartyID: fields.rpId, userHandle: fields.userHandle,
            userName: fields.userName, userDisplayName: fields.userDisplayName, privateKey: key,
            algorithm: algorithm, signCount: count, isDiscoverable: fields.discoverable,
            backupEligible: fields.backupEligible, backupState: fields.backupState,
            usesSignCounter: fields.signCounter)
    }

    /// The metadata line's members, every one required. Read with the WebAuthn JSON scanner, so
    /// its failures are `WebAuthnError`s, which ``decode(_:name:)`` reports as
    /// `corruptCredential`.
    private struct Fields {
        var id: [UInt8] = []
        var rpId = ""
        var userHandle: [UInt8] = []
        var userName = ""
        var userDisplayName = ""
        var alg = 0
        var signCount = 0
        var discoverable = false
        var backupEligible = false
        var backupState = false
        var signCounter = true

        init(scanning scanner: inout JSONScanner) throws(WebAuthnError) {
            var seen: Set<String> = []
            try scanner.members { (scanner, member) throws(WebAuthnError) in
                let name = member.string
                guard seen.insert(name).inserted else {
                    throw WebAuthnError(.invalidValue, "appears twice")
                }
                switch member {
                case "id": id = try scanner.base64URL()
                case "rpId": rpId = try scanner.string()
                case "userHandle": userHandle = try scanner.base64URL()
                case "userName": userName = try scanner.string()
                case "userDisplayName": userDisplayName = try scanner.string()
                case "alg": alg = try scanner.long()
                case "signCount": signCount = try scanner.integer(in: 0...Int(UInt32.max))
                case "discoverable": discoverable = try scanner.bool()
                case "backupEligible": backupEligible = try scanner.bool()
                case "backupState": backupState = try scanner.bool()
                case "signCounter": signCounter = try scanner.bool()
                default: throw WebAuthnError(.invalidValue, "not a member of format 1")
                }
            }
            for name in [
                "id", "rpId", "userHandle", "userName", "userDisplayName", "alg", "signCount",
                "discoverable", "backupEligible", "backupState", "signCounter",
            ] where !seen.contains(name) {
                throw missingMember(name)
            }
        }
    }
}
