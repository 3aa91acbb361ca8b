import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// Reads the members of a verified `MetadataBLOBPayload` (MDS3 §3.1.6) into typed values;
/// every failure is a `metadataInvalid` naming the member's path.
struct MetadataPayloadReader {
    let payload: JSONObject

    init(_ payload: JSONObject) { self.payload = payload }

    func number() throws(WebAuthnError) -> Int64 {
        guard let number = payload["no"]?.int64Value else {
            throw invalid("missing or not an integer", "no")
        }
        return number
    }

    func nextUpdate() throws(WebAuthnError) -> String {
        guard let text = payload["nextUpdate"]?.stringValue else {
            throw invalid("missing or not a string", "nextUpdate")
        }
        return text
    }

    func legalHeader() -> String? { payload["legalHeader"]?.stringValue }

    func entries() throws(WebAuthnError) -> [MetadataEntry] {
        guard let values = payload["entries"]?.arrayValue else {
            throw invalid("missing or not an array", "entries")
        }
        var entries: [MetadataEntry] = []
        entries.reserveCapacity(values.count)
        for (index, value) in values.enumerated() {
            entries.append(try entry(value, path: "entries[\(index)]"))
        }
        return entries
    }

    private func entry(_ value: JSONValue, path: String) throws(WebAuthnError) -> MetadataEntry {
        guard let object = value.objectValue else { throw invalid("not an object", path) }
        var aaguid: AAGUID?
        if let member = object["aaguid"] {
            guard let text = member.stringValue, let parsed = AAGUID(uuidString: text) else {
                throw invalid("not a UUID string", path + ".aaguid")
            }
            aaguid = parsed
        }
        let identifiers = try strings(
            object["attestationCertificateKeyIdentifiers"],
            path: path + ".attestationCertificateKeyIdentifiers")
        for (offset, identifier) in identifiers.enumerated()
        where identifier.isEmpty || !identifier.utf8.allSatisfy(Self.isHexDigit) {
            throw invalid(
                "not a hex key identifier",
                path + ".attestationCertificateKeyIdentifiers[\(offset)]")
        }
        guard let statement = object["metadataStatement"]?.objectValue else {
            throw invalid("missing or not an object", path + ".metadataStatement")
        }
        let statementPath = path + ".metadataStatement"
        guard let description = statement["description"]?.stringValue else {
            throw invalid("missing or not a string", statementPath + ".description")
        }
        let types = try strings(
            statement["attestationTypes"], path: statementPath + ".attestationTypes")
        let rootTexts = try strings(
            statement["attestationRootCertificates"],
            path: statementPath + ".attestationRootCertificates")
        var roots: [Certificate] = []
        var unreadable = 0
        for (offset, text) in rootTexts.enumerated() {
            guard let der = try? Base64.decode(text) else {
                throw invalid(
                    "not base64", statementPath + ".attestationRootCertificates[\(offset)]")
            }
            if let certificate = try? Certificate(derEncoded: der, tolerating: .all) {
                roots.append(certificate)
            } else {
                unreadable += 1
            }
        }
        var friendlyNames: [String: String] = [:]
        if let member = statement["friendlyNames"] {
            guard let names = member.objectValue else {
                throw invalid("not an object", statementPath + ".friendlyNames")
            }
            for name in names.members {
                guard let text = name.value.stringValue else {
                    throw invalid("not a string", statementPath + ".friendlyNames." + name.name)
                }
                friendlyNames[name.name] = text
            }
        }
        var getInfoAAGUID: AAGUID?
        if let text = statement["authenticatorGetInfo"]?["aaguid"]?.stringValue {
            getInfoAAGUID = Self.aaguid(hex: text)
        }
        var reports: [MetadataStatusReport] = []
        guard let reportValues = object["statusReports"]?.arrayValue else {
            throw invalid("missing or not an array", path + ".statusReports")
        }
        for (offset, report) in reportValues.enumerated() {
            guard let status = report["status"]?.stringValue else {
                throw invalid(
                    "missing or not a string", path + ".statusReports[\(offset)].status")
            }
            var certificates: [[UInt8]] = []
            var unreadable = false
            for member in ["certificate", "batchCertificate"] {
                guard let value = report[member] else { continue }
                // Fails closed: a compromise report whose certificate cannot be read is read
                // as naming none, and so concerns every key of the entry.
                if let text = value.stringValue, let der = try? Base64.decode(text),
                    !der.isEmpty
                {
                    certificates.append(der)
                } else {
                    unreadable = true
                }
            }
            reports.append(
                MetadataStatusReport(
                    status: AuthenticatorStatus(status),
                    effectiveDate: report["effectiveDate"]?.stringValue,
                    certificateNumber: report["certificateNumber"]?.stringValue,
                    certificationDescriptor: report["certificationDescriptor"]?.stringValue,
                    certificates: certificates, hasUnreadableCertificate: unreadable))
        }
        return MetadataEntry(
            aaguid: aaguid, attestationCertificateKeyIdentifiers: identifiers,
            description: description, attestationTypes: types,
            attestationRootCertificates: roots, unreadableRootCertificateCount: unreadable,
            authenticatorGetInfoAAGUID: getInfoAAGUID, statusReports: reports,
            timeOfLastStatusChange: object["timeOfLastStatusChange"]?.stringValue,
            friendlyNames: friendlyNames)
    }

    /// An optional array of strings (absent: empty).
    private func strings(_ value: JSONValue?, path: String) throws(WebAuthnError) -> [String] {
        guard let value else { return [] }
        guard let elements = value.arrayValue else { throw invalid("not an array", path) }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for (offset, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                throw invalid("not a string", path + "[\(offset)]")
            }
            strings.append(text)
        }
        return strings
    }

    /// An AAGUID written as 32 hex digits (authenticatorGetInfo's form); nil otherwise.
    private static func aaguid(hex text: String) -> AAGUID? {
        let digits = Array(text.utf8)
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        var index = 0
        while index < 32 {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return AAGUID(bytes: bytes)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool { nibble(byte) != nil }

    private func invalid(_ reason: String, _ field: String) -> WebAuthnError {
        WebAuthnError(.metadataInvalid, reason, field: field)
    }
}
