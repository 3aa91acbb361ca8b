// clientDataJSON as a relying party reads it (Fido2WebAuthn.ClientDataJSON).
// dictionary: json
// seeds: client-data
import Fido2Encoding
import Fido2WebAuthn
import Fido2WebAuthnWire
import FuzzSupport

/// Invariants on every clientDataJSON that parses:
/// - it is a JSON document `JSONReader` accepts, and `bytes` are kept exactly as given;
/// - serializing the client data (WebAuthn's CCDToString) and parsing that gives the same client
///   data, and serializing again gives the same bytes.
@main
enum ClientDataFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        guard let parsed = try? ClientDataJSON(bytes: input) else { return }
        FuzzCheck.require(parsed.bytes == input, "clientDataJSON bytes are not kept as given")
        FuzzCheck.require(
            (try? JSONReader().read(input)) != nil, "accepted clientDataJSON is not JSON")

        let serialized = parsed.clientData.jsonBytes()
        guard let again = try? ClientDataJSON(bytes: serialized) else {
            FuzzCheck.fail(
                "serialized client data does not parse: \(String(decoding: serialized, as: UTF8.self))"
            )
        }
        FuzzCheck.require(
            again.clientData == parsed.clientData, "client data changes through serialization")
        FuzzCheck.require(
            again.clientData.jsonBytes() == serialized, "client data serialization is not stable")
    }
}
