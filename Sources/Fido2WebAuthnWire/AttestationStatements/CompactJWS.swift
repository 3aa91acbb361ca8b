import Fido2Encoding

/// A JSON Web Signature in compact serialization (RFC 7515 §7.1):
/// `base64url(header).base64url(payload).base64url(signature)`, with header and payload read
/// as JSON objects. Android SafetyNet attestations carry one.
package struct CompactJWS: Sendable, Equatable {
    /// The protected header.
    package let header: JSONObject
    /// The payload.
    package let payload: JSONObject
    /// The signature bytes (for ES256, raw `r ‖ s`, not DER).
    package let signature: [UInt8]
    /// What the signature covers: the ASCII `header.payload` part of the serialization.
    package let signingInput: ArraySlice<UInt8>
    /// The header's `alg` (`RS256`, `ES256`, …).
    package let algorithm: String
    /// The header's `x5c`: DER certificates, leaf first (standard base64 in the header).
    package let certificates: [[UInt8]]

    /// Splits and decodes a compact JWS, reading header and payload with `reader` (default
    /// limits: 4 MiB of JSON).
    ///
    /// - Throws: ``WebAuthnError`` `invalidJWS` naming the part (`header`, `payload`,
    ///   `signature`, `header.alg`, `header.x5c[1]`) that is not three base64url parts, not a
    ///   JSON object, or missing.
    package init(
        compact: ArraySlice<UInt8>, reader: JSONReader = JSONReader()
    ) throws(WebAuthnError) {
        // The dots found with firstIndex(of:): split(separator:) goes through a closure per
        // byte, a tenth of the time of verifying a 2.8 MB metadata BLOB.
        var parts: [ArraySlice<UInt8>] = []
        var start = compact.startIndex
        while let dot = compact[start...].firstIndex(of: UInt8(ascii: ".")) {
            parts.append(compact[start..<dot])
            start = compact.index(after: dot)
        }
        parts.append(compact[start...])
        guard parts.count == 3 else {
            throw WebAuthnError(
                .invalidJWS, "a compact JWS has three dot-separated parts, not \(parts.count)")
        }
        func decode(_ part: ArraySlice<UInt8>, _ name: String) throws(WebAuthnError) -> [UInt8] {
            do {
                return try Base64URL.decode(utf8: part)
            } catch {
                throw WebAuthnError(.invalidJWS, "not base64url: \(error)", field: name)
            }
        }
        func object(_ bytes: [UInt8], _ name: String) throws(WebAuthnError) -> JSONObject {
            do {
                guard case .object(let object) = try reader.read(bytes) else {
                    throw WebAuthnError(.invalidJWS, "not a JSON object", field: name)
                }
                return object
            } catch let error as WebAuthnError {
                throw error
            } catch {
                throw WebAuthnError(.invalidJWS, "not JSON: \(error)", field: name)
            }
        }
        header = try object(try decode(parts[0], "header"), "header")
        payload = try object(try decode(parts[1], "payload"), "payload")
        signature = try decode(parts[2], "signature")
        signingInput = compact[compact.startIndex..<parts[1].endIndex]
        guard let algorithm = header["alg"]?.stringValue else {
            throw WebAuthnError(.invalidJWS, "missing or not a string", field: "header.alg")
        }
        self.algorithm = algorithm
        var certificates: [[UInt8]] = []
        if let x5c = header["x5c"] {
            guard let elements = x5c.arrayValue else {
                throw WebAuthnError(.invalidJWS, "not an array", field: "header.x5c")
            }
            for (index, element) in elements.enumerated() {
                guard let text = element.stringValue,
                    let der = try? Base64.decode(text)
                else {
                    throw WebAuthnError(
                        .invalidJWS, "not a base64 certificate", field: "header.x5c[\(index)]")
                }
                certificates.append(der)
            }
        }
        self.certificates = certificates
    }
}
