import Fido2Crypto
import Fido2Encoding
@_spi(Fido2Internals) import Fido2WebAuthnWire

// What a server names through `import Fido2WebAuthn`, chosen by hand: the relying party's own
// types and, from the modules beneath it, the types its API speaks in. Nothing is re-exported
// wholesale; the attestation statement structures, authenticator data, client data and the
// CBOR and crypto toolkits stay one `import Fido2WebAuthnWire` or `import Fido2Crypto` away.
// docs/architecture.md counts what this brings into scope.

// MARK: Errors and verification reports

/// Every failure of the relying party: a code, the field and the verification step.
public typealias WebAuthnError = Fido2WebAuthnWire.WebAuthnError
/// A step of WebAuthn §7.1 or §7.2, as errors name it.
public typealias VerificationStep = Fido2WebAuthnWire.VerificationStep
/// The named relaxations a relying party may knowingly accept.
public typealias VerificationRelaxations = Fido2WebAuthnWire.VerificationRelaxations
/// A departure from the specifications that the relying party tolerated and reports.
public typealias ToleratedDeviation = Fido2WebAuthnWire.ToleratedDeviation

// MARK: JSON forms

/// The stable JSON form every WebAuthn structure and stored value has.
public typealias WebAuthnJSONForm = Fido2WebAuthnWire.WebAuthnJSONForm
/// `PublicKeyCredential.toJSON()` of a registration.
public typealias RegistrationResponseJSON = Fido2WebAuthnWire.RegistrationResponseJSON
/// `PublicKeyCredential.toJSON()` of a sign-in.
public typealias AuthenticationResponseJSON = Fido2WebAuthnWire.AuthenticationResponseJSON
/// The `response` member of a registration response.
public typealias AuthenticatorAttestationResponseJSON =
    Fido2WebAuthnWire.AuthenticatorAttestationResponseJSON
/// The `response` member of a sign-in response.
public typealias AuthenticatorAssertionResponseJSON =
    Fido2WebAuthnWire.AuthenticatorAssertionResponseJSON
/// The creation options a server sends to `navigator.credentials.create`.
public typealias PublicKeyCredentialCreationOptionsJSON =
    Fido2WebAuthnWire.PublicKeyCredentialCreationOptionsJSON
/// The request options a server sends to `navigator.credentials.get`.
public typealias PublicKeyCredentialRequestOptionsJSON =
    Fido2WebAuthnWire.PublicKeyCredentialRequestOptionsJSON
/// The user account of a registration.
public typealias PublicKeyCredentialUserEntityJSON =
    Fido2WebAuthnWire.PublicKeyCredentialUserEntityJSON
/// A credential in `excludeCredentials` or `allowCredentials`.
public typealias PublicKeyCredentialDescriptorJSON =
    Fido2WebAuthnWire.PublicKeyCredentialDescriptorJSON
/// The authenticator requirements of the creation options.
public typealias AuthenticatorSelectionCriteria = Fido2WebAuthnWire.AuthenticatorSelectionCriteria

// MARK: Enumerations

/// `required`, `preferred` or `discouraged` user verification.
public typealias UserVerificationRequirement = Fido2WebAuthnWire.UserVerificationRequirement
/// Whether a discoverable credential is wanted.
public typealias ResidentKeyRequirement = Fido2WebAuthnWire.ResidentKeyRequirement
/// The attestation a registration asks for.
public typealias AttestationConveyancePreference =
    Fido2WebAuthnWire.AttestationConveyancePreference
/// `platform` or `cross-platform`.
public typealias AuthenticatorAttachment = Fido2WebAuthnWire.AuthenticatorAttachment
/// How a client reaches an authenticator (`usb`, `internal`, `hybrid`, …).
public typealias AuthenticatorTransport = Fido2WebAuthnWire.AuthenticatorTransport
/// A hint for the browser's UI (`security-key`, `client-device`, `hybrid`).
public typealias PublicKeyCredentialHint = Fido2WebAuthnWire.PublicKeyCredentialHint

// MARK: What verified results carry

/// An authenticator model's identifier.
public typealias AAGUID = Fido2WebAuthnWire.AAGUID
/// The flags of authenticator data (UP, UV, BE, BS, …).
public typealias AuthenticatorDataFlags = Fido2WebAuthnWire.AuthenticatorDataFlags
/// The authenticator extension outputs of a response.
public typealias AuthenticatorExtensionOutputs = Fido2WebAuthnWire.AuthenticatorExtensionOutputs
/// A COSE algorithm identifier (`ES256` is -7).
public typealias COSEAlgorithm = Fido2Crypto.COSEAlgorithm
/// A credential public key with its algorithm.
public typealias COSEKey = Fido2Crypto.COSEKey
/// An X.509 certificate: attestation chains and trust anchors.
public typealias Certificate = Fido2Crypto.Certificate
/// A certificate revocation list for ``AttestationTrustPolicy/revocation``.
public typealias CertificateRevocationList = Fido2Crypto.CertificateRevocationList
/// Which certificates of an attestation chain are checked for revocation.
public typealias RevocationCheck = Fido2Crypto.RevocationCheck
/// A JSON object, as `clientExtensionResults` arrive.
public typealias JSONObject = Fido2Encoding.JSONObject
