import ArgumentParser
import Fido2Crypto
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire

/// `fido2kit mds`: FIDO Metadata Service (MDS3) BLOBs, verified offline.
struct MDSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mds",
        abstract: "Verify a FIDO Metadata Service (MDS3) BLOB and look up its entries.",
        subcommands: [Verify.self, Show.self, List.self, MDSFetchCommand.self, Reassess.self]
    )

    /// The options both subcommands share.
    struct BLOBOptions: ParsableArguments {
        @Option(help: "The metadata BLOB (JWS compact form, as downloaded from the service).")
        var blob: String

        @Option(
            help:
                "A PEM file of the root(s) the BLOB's x5c chain must verify to (the MDS3 root is GlobalSign Root CA - R3; without --root, fido2kit's shipped copy of it)."
        )
        var root: String?

        @Option(
            help:
                "Judge the chain and nextUpdate at this time instead of now: any ISO 8601 / RFC 3339 date-time (no offset means UTC)."
        )
        var at: String?

        @Flag(
            name: .customLong("allow-stale"),
            help:
                "Accept a BLOB past its nextUpdate (\"stale\": true in the output) instead of failing; the chain is still judged at --at."
        )
        var allowStale = false
    }

    /// `fido2kit mds verify`.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify",
            abstract: "Verify a metadata BLOB and print its summary.",
            discussion: """
                Checks the JWS signature with the x5c signer, the x5c chain to --root at --at \
                (and against the --crl lists when given), the payload, and that nextUpdate has \
                not passed. Prints {no, nextUpdate, entries, entriesWithAAGUID, \
                entriesWithKeyIdentifiers, algorithm, signer, revocationChecked, stale}. A bad \
                signature, a chain that does not lead to the root, a tampered payload or a \
                stale BLOB (unless --allow-stale) prints one line and exits 1.
                """
        )

        @OptionGroup var options: BLOBOptions

        @Option(
            name: .customLong("crl"),
            help:
                "A CRL (PEM or DER) of an issuer in the BLOB's chain; repeatable. Turns revocation checking on for every certificate of the chain but the root."
        )
        var revocationLists: [String] = []

        func run() throws {
            try failingCleanly {
                let blob = try MetadataInput.blob(
                    options.blob, rootPath: options.root,
                    validationTime: try MetadataInput.time(options.at),
                    crls: try RevocationListInput.read(revocationLists),
                    allowsStale: options.allowStale)
                var writer = JSONWriter(reservingCapacity: 512)
                writer.beginObject()
                writer.name("no")
                writer.number(blob.number)
                writer.name("nextUpdate")
                writer.string(blob.nextUpdate)
                writer.name("entries")
                writer.number(blob.entries.count)
                writer.name("entriesWithAAGUID")
                writer.number(blob.entries.count { $0.aaguid != nil })
                writer.name("entriesWithKeyIdentifiers")
                writer.number(
                    blob.entries.count { !$0.attestationCertificateKeyIdentifiers.isEmpty })
                writer.name("algorithm")
                writer.string(blob.algorithm)
                writer.name("signer")
                writer.string(blob.signerPath.first.map { "\($0.subject)" } ?? "")
                writer.name("revocationChecked")
                writer.bool(blob.revocationChecked)
                writer.name("stale")
                writer.bool(blob.isStale)
                writer.endObject()
                StandardStreams.print(String(decoding: writer.bytes, as: UTF8.self))
            }
        }
    }

    /// `fido2kit mds show`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the entry of one authenticator model from a verified metadata BLOB.",
            discussion: """
                Verifies the BLOB as `mds verify` does, then prints the entry for --aaguid or \
                --key-id: {description, aaguid, attestationCertificateKeyIdentifiers, status \
                (the latest), certificationLevel, attestationRootCertificates (how many), \
                attestationTypes, statusReports (latest first)}. An unknown authenticator \
                prints one line and exits 1.
                """
        )

        @OptionGroup var options: BLOBOptions

        @Option(help: "The model's AAGUID (8-4-4-4-12 hex).")
        var aaguid: String?

        @Option(
            name: .customLong("key-id"),
            help:
                "An attestation certificate key identifier: hex SHA-1 of the certificate's subjectPublicKey."
        )
        var keyID: String?

        func run() throws {
            try failingCleanly {
                guard (aaguid == nil) != (keyID == nil) else {
                    throw CommandFailure.usage("give exactly one of --aaguid and --key-id")
                }
                var wanted: AAGUID?
                if let aaguid {
                    guard let parsed = AAGUID(uuidString: aaguid) else {
                        throw CommandFailure.usage("--aaguid is not a UUID: \(aaguid)")
                    }
                    wanted = parsed
                }
                if let keyID, keyID.isEmpty || !keyID.allSatisfy(\.isHexDigit) {
                    throw CommandFailure.usage("--key-id is not hexadecimal: \(keyID)")
                }
                let blob = try MetadataInput.blob(
                    options.blob, rootPath: options.root,
                    validationTime: try MetadataInput.time(options.at),
                    allowsStale: options.allowStale)
                let found: MetadataEntry? =
                    if let wanted { blob.entry(aaguid: wanted) } else {
                        keyID.flatMap { blob.entry(keyIdentifier: $0) }
                    }
                guard let entry = found else {
                    throw CommandFailure(
                        "the metadata BLOB (no \(blob.number)) has no entry for "
                            + (aaguid.map { "AAGUID \($0)" } ?? "key identifier \(keyID ?? "")"))
                }
                var writer = JSONWriter(reservingCapacity: 1024)
                MDSCommand.write(entry, to: &writer)
                StandardStreams.print(String(decoding: writer.bytes, as: UTF8.self))
            }
        }
    }

    /// `fido2kit mds list`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the entries of a verified metadata BLOB.",
            discussion: """
                Verifies the BLOB as `mds verify` does, then prints one line per entry, in the \
                BLOB's order: the AAGUID (or the attestation certificate key identifiers, \
                comma-separated), the description and the latest status, separated by tabs.
                """
        )

        @OptionGroup var options: BLOBOptions

        func run() throws {
            try failingCleanly {
                let blob = try MetadataInput.blob(
                    options.blob, rootPath: options.root,
                    validationTime: try MetadataInput.time(options.at),
                    allowsStale: options.allowStale)
                for entry in blob.entries {
                    let key =
                        entry.aaguid.map { "\($0)" }
                        ?? entry.attestationCertificateKeyIdentifiers.joined(separator: ",")
                    StandardStreams.print(
                        "\(key)\t\(entry.description)\t\(entry.status?.rawValue ?? "-")")
                }
            }
        }
    }

    /// `fido2kit mds reassess`.
    struct Reassess: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reassess",
            abstract: "Judge stored credential records by a (newer) metadata BLOB.",
            discussion: """
                Verifies the BLOB as `mds verify` does, then judges each --record (a \
                CredentialRecord in its JSON form, as `register` writes it) by the rule \
                registration uses: the entries of the kept attestation object's AAGUID and of \
                its chain's key identifiers, refused when one reports a revocation or a key \
                compromise. Prints one JSON object per record: {credentialId, verdict (refused, \
                accepted, not-listed, not-assessable), reason}. Exits 2 when any record is \
                refused, 0 otherwise.
                """
        )

        @OptionGroup var options: BLOBOptions

        @Option(
            name: .customLong("record"),
            help: "A credential record (JSON form); repeatable.")
        var records: [String] = []

        func validate() throws {
            guard !records.isEmpty else { throw ValidationError("give at least one --record") }
        }

        func run() throws {
            var refused = false
            try failingCleanly {
                let blob = try MetadataInput.blob(
                    options.blob, rootPath: options.root,
                    validationTime: try MetadataInput.time(options.at),
                    allowsStale: options.allowStale)
                let policy = MetadataTrustPolicy(blob: blob)
                for path in records {
                    let bytes = try InputFile.read(path, limit: .webAuthnJSON)
                    let record: CredentialRecord
                    do {
                        record = try CredentialRecord(jsonBytes: bytes)
                    } catch {
                        throw CommandFailure("\(path): \(error)")
                    }
                    let result = policy.reassess(record)
                    var writer = JSONWriter(reservingCapacity: 256)
                    writer.beginObject()
                    writer.name("credentialId")
                    writer.string(Base64URL.encode(result.credentialID))
                    writer.name("verdict")
                    switch result.verdict {
                    case .refused(let refusal):
                        refused = true
                        writer.string("refused")
                        writer.name("reason")
                        writer.string(refusal.description)
                    case .accepted:
                        writer.string("accepted")
                    case .notListed:
                        writer.string("not-listed")
                    case .notAssessable(let reason):
                        writer.string("not-assessable")
                        writer.name("reason")
                        writer.string(reason)
                    }
                    writer.endObject()
                    StandardStreams.print(String(decoding: writer.bytes, as: UTF8.self))
                }
            }
            if refused { throw ExitCode(2) }
        }
    }

    /// Writes `entry` as one JSON object.
    static func write(_ entry: MetadataEntry, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.name("description")
        writer.string(entry.description)
        writer.name("aaguid")
        if let aaguid = entry.aaguid { writer.string(aaguid.description) } else { writer.null() }
        writer.name("attestationCertificateKeyIdentifiers")
        writer.beginArray()
        for identifier in entry.attestationCertificateKeyIdentifiers { writer.string(identifier) }
        writer.endArray()
        writer.name("status")
        if let status = entry.status { writer.string(status.rawValue) } else { writer.null() }
        writer.name("certificationLevel")
        if let level = entry.certificationLevel {
            writer.string(level.description)
        } else {
            writer.null()
        }
        writer.name("attestationRootCertificates")
        writer.number(entry.attestationRootCertificates.count)
        writer.name("attestationTypes")
        writer.beginArray()
        for type in entry.attestationTypes { writer.string(type) }
        writer.endArray()
        writer.name("statusReports")
        writer.beginArray()
        for report in entry.statusReports {
            writer.beginObject()
            writer.name("status")
            writer.string(report.status.rawValue)
            writer.name("effectiveDate")
            if let date = report.effectiveDate { writer.string(date) } else { writer.null() }
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
    }
}
