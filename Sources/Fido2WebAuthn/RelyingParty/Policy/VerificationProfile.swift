import Fido2CBOR
import Fido2Crypto
@_spi(Fido2Internals) import Fido2WebAuthnWire

/// How literally a relying party reads what authenticators send: as deployed relying parties
/// do (``compatible``, the default) or to the letter of CTAP2 and WebAuthn (``strict``).
///
/// The two profiles differ only in how data may be *encoded*, and where the specification's
/// wording admits two readings. Neither one ever accepts duplicate CBOR map keys, trailing
/// bytes, input that is not well-formed, invalid UTF-8, input beyond the size and depth limits,
/// or any signature, challenge, origin, RP ID or flag failure. Every deviation the compatible
/// profile tolerates is reported in the verified result
/// (``VerifiedRegistration/deviations``, ``VerifiedAuthentication/deviations``), so an operator
/// can see what an authenticator did wrong without refusing its user.
public enum VerificationProfile: Sendable, Hashable, CustomStringConvertible {
    /// Accepts what deployed relying parties accept from real authenticators:
    /// - any well-formed CBOR in attestation objects, attestation statements, credential public
    ///   keys and extension outputs: map keys in any order, definite or indefinite lengths,
    ///   integers and lengths not in their shortest form (signatures still cover the bytes as
    ///   sent);
    /// - X.509 attestation certificates as OpenSSL reads them (`CertificateLeniency.all`: a
    ///   signature BIT STRING declaring unused bits, opaque elements that are BER, a malformed
    ///   key-identifier extension);
    /// - where the wording admits two readings, the one deployed relying parties take: a
    ///   `packed` or `tpm` attestation certificate without basicConstraints is an end-entity
    ///   certificate (RFC 5280 §4.2.1.9: cA defaults to FALSE); a TPM
    ///   `pubArea` whose scheme omits its details is read as deployed relying parties read it
    ///   (its bytes stay covered by the attested name and the AIK signature).
    case compatible
    /// CTAP2 canonical CBOR, DER certificates, basicConstraints present where §8 names it and
    /// TPM structures as TPM 2.0 Part 2 lays them out: for testing authenticators against the
    /// specifications to the letter.
    case strict

    /// `"compatible"` or `"strict"`.
    public var description: String {
        switch self {
        case .compatible: return "compatible"
        case .strict: return "strict"
        }
    }

    /// The CBOR encoding checks reported rather than enforced.
    func toleratedCBORChecks(_ relaxations: VerificationRelaxations) -> CBORDecodingOptions.Checks {
        switch self {
        case .compatible: return CBORReader.encodingChecks
        case .strict:
            return relaxations.contains(.acceptsNonCanonicalKeyOrder) ? .canonicalKeyOrder : []
        }
    }

    /// The certificate encodings accepted and reported.
    var certificateLeniency: CertificateLeniency {
        self == .compatible ? .all : []
    }
}
