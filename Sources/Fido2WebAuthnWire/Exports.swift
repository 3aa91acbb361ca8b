// The modules whose types the WebAuthn structures speak in (COSEKey, Certificate, JSONObject,
// CBORDecodingOptions).
@_exported import Fido2CBOR
@_exported import Fido2Crypto
@_exported import Fido2Encoding
