// The modules whose types the WebAuthn API speaks in (COSEAlgorithm, COSEKey, Certificate,
// JSONObject, CBORDecodingOptions): a server that imports Fido2WebAuthn names them without
// importing, or declaring, the lower modules itself.
@_exported import Fido2CBOR
@_exported import Fido2Crypto
@_exported import Fido2Encoding
