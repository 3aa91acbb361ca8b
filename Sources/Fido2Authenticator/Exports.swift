// The options and responses the software authenticator takes and returns are Fido2WebAuthn's.
@_exported import Fido2WebAuthnWire
