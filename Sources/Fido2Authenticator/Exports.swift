// The options and responses the software authenticator takes and returns, and the WebAuthnError
// an AuthenticatorError carries as `underlying`, are Fido2WebAuthnWire's.
@_exported import Fido2WebAuthnWire
