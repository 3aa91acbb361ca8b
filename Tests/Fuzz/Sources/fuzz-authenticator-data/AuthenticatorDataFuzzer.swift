// Authenticator data as a relying party reads it (Fido2WebAuthn.AuthenticatorData), strict and
// lenient CBOR for the credential public key and the extensions.
// dictionary: cbor
// seeds: authenticator-data
import Fido2CBOR
import Fido2Crypto
import Fido2WebAuthn
import Fido2WebAuthnWire
import FuzzSupport

/// Invariants on every authenticator data that parses:
/// - what the strict profile accepts, the lenient one accepts as the same data;
/// - the parts agree with the bytes: rpIdHash is the first 32 bytes, the sign count the four
///   after the flags, attested credential data and extensions present exactly when AT and ED
///   say so, the credential ID 1–1023 bytes, the public key's bytes import to the same key;
/// - building authenticator data from the parsed parts gives back the input byte for byte.
@main
enum AuthenticatorDataFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        let strict = try? AuthenticatorData(bytes: input)
        let lenient = try? AuthenticatorData(bytes: input, options: .lenient)
        if let strict { FuzzCheck.require(lenient == strict, "lenient parse differs from strict") }
        guard let data = lenient else { return }

        FuzzCheck.require(data.bytes.elementsEqual(input), "bytes are not kept as given")
        FuzzCheck.require(
            data.rpIdHash.elementsEqual(input.prefix(32)), "rpIdHash is not the first 32 bytes")
        let count = input[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        FuzzCheck.require(data.signCount == count, "signCount \(data.signCount) ≠ \(count)")
        FuzzCheck.require(
            (data.attestedCredentialData != nil) == data.flags.contains(.attestedCredentialData),
            "AT flag and attested credential data disagree")
        FuzzCheck.require(
            (data.extensions != nil) == data.flags.contains(.extensionData),
            "ED flag and extensions disagree")
        if let attested = data.attestedCredentialData {
            FuzzCheck.require(
                (1...AttestedCredentialData.maximumCredentialIdLength).contains(
                    attested.credentialId.count),
                "credential ID of \(attested.credentialId.count) bytes")
            let options: CBORDecodingOptions = strict == nil ? .lenient : .strict
            FuzzCheck.require(
                (try? COSEKey(cborEncoded: attested.credentialPublicKeyBytes, options: options))
                    == attested.credentialPublicKey,
                "credential public key bytes import to another key")
        }

        do {
            let rebuilt = try AuthenticatorData(
                rpIdHash: data.rpIdHash, flags: data.flags, signCount: data.signCount,
                attestedCredentialData: data.attestedCredentialData, extensions: data.extensions)
            FuzzCheck.require(
                rebuilt.bytes.elementsEqual(input), "rebuilt authenticator data differs")
        } catch {
            FuzzCheck.fail("parsed parts do not build authenticator data: \(error)")
        }
    }
}
