// Attestation objects (Fido2WebAuthn.AttestationObject): the CBOR map, authenticator data and
// every statement format's parser (none, packed, fido-u2f, tpm, android-key, android-safetynet,
// apple, unknown formats), strict and lenient.
// dictionary: cbor
// seeds: attestation-objects
import Fido2CBOR
import Fido2WebAuthn
import Fido2WebAuthnWire
import FuzzSupport

/// Invariants on every attestation object that parses:
/// - what the strict profile accepts, the lenient one accepts with the same parts;
/// - the statement's format is the `fmt` member, and the parts are slices of the input;
/// - building an attestation object from the parsed parts gives one that parses back to the
///   same parts, and, for strictly accepted input, the input byte for byte.
@main
enum AttestationObjectFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        let strict = try? AttestationObject(bytes: input)
        let lenient = try? AttestationObject(bytes: input, options: .lenient)
        if let strict {
            FuzzCheck.require(
                lenient?.statement == strict.statement
                    && lenient?.authenticatorData == strict.authenticatorData,
                "lenient parse differs from strict")
        }
        guard let object = lenient else { return }
        FuzzCheck.require(object.bytes.elementsEqual(input), "bytes are not kept as given")
        FuzzCheck.require(
            object.format == object.statement.format, "format and statement disagree")

        let rebuilt = AttestationObject(
            authenticatorData: object.authenticatorData, statement: object.statement)
        let options: CBORDecodingOptions = strict == nil ? .lenient : .strict
        guard let again = try? AttestationObject(bytes: Array(rebuilt.bytes), options: options)
        else {
            FuzzCheck.fail("a rebuilt \(object.format) attestation object does not parse")
        }
        FuzzCheck.require(
            again.statement == object.statement
                && again.authenticatorData == object.authenticatorData,
            "a rebuilt \(object.format) attestation object parses to other parts")
        if strict != nil {
            FuzzCheck.require(
                rebuilt.bytes.elementsEqual(input),
                "a strict \(object.format) attestation object does not rebuild byte for byte")
        }
    }
}
