import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

/// Reads the attestation objects of `real-registrations.json` (real authenticators and the FIDO
/// conformance tool) with the strict parser.
@Suite struct RealRegistrationParseTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let format: String
        let attestationObject: [UInt8]
        var testDescription: String { id }
    }

    static let cases: [Case] =
        (try? sharedVectorJSON("real-registrations.json").array().map { item in
            Case(
                id: try item.string("case_id"), format: try item.string("format"),
                attestationObject: try Base64URL.decode(
                    try item.string("credential.response.attestationObject")))
        }) ?? []

    @Test func coversEveryCase() { #expect(Self.cases.count == 64) }

    @Test(arguments: cases)
    func readsTheAttestationObject(_ vector: Case) throws {
        if vector.attestationObject.isEmpty {
            // reg-007: an empty attestation object, which the source rejects as bad CBOR.
            #expect(throws: WebAuthnError.self) {
                try AttestationObject(bytes: vector.attestationObject)
            }
            return
        }
        if ["reg-008", "reg-009", "reg-010"].contains(vector.id) {
            // ML-DSA credential keys: OpenSSL 3.0 has no ML-DSA.
            let error = #expect(throws: WebAuthnError.self) {
                try AttestationObject(bytes: vector.attestationObject)
            }
            #expect(error?.code == .unsupportedAlgorithm)
            return
        }
        if ["reg-032", "reg-033", "reg-040", "reg-041"].contains(vector.id) {
            // The FIDO conformance tool's objects put map keys out of canonical order: the strict
            // profile refuses them, a profile without the key-order rule reads them.
            let error = #expect(throws: WebAuthnError.self) {
                try AttestationObject(bytes: vector.attestationObject)
            }
            #expect(error?.code == .malformedCBOR)
            var relaxed = CBORDecodingOptions.strict
            relaxed.checks.remove(.canonicalKeyOrder)
            let object = try AttestationObject(bytes: vector.attestationObject, options: relaxed)
            #expect(object.format == vector.format)
            return
        }
        do {
            let object = try AttestationObject(bytes: vector.attestationObject)
            #expect(object.format == vector.format)
            if case .androidSafetyNet(let safetyNet) = object.statement {
                #expect(!safetyNet.jws.certificates.isEmpty)
                #expect(safetyNet.nonce != nil && safetyNet.timestampMs != nil)
                #expect(safetyNet.jws.algorithm == "RS256")
                #expect(safetyNet.ctsProfileMatch != nil)
            }
            #expect(
                AttestationObject(
                    authenticatorData: object.authenticatorData, statement: object.statement
                ).bytes == object.bytes)
        } catch {
            Issue.record("\(vector.id) \(vector.format): \(error)")
        }
    }
}

/// Reads the authenticator data of every assertion in `real-authentications.json`; auth-018's
/// carries an extensions map (devicePubKey) that must come through as a raw entry.
@Suite struct RealAuthenticatorDataParseTests {
    static let cases: [(String, [UInt8])] =
        (try? sharedVectorJSON("real-authentications.json").array().map { item in
            (
                try item.string("case_id"),
                try Base64URL.decode(try item.string("credential.response.authenticatorData"))
            )
        }) ?? []

    @Test func readsEveryAssertionsAuthenticatorData() throws {
        #expect(Self.cases.count == 19)
        for (id, bytes) in Self.cases {
            do {
                let data = try AuthenticatorData(bytes: bytes)
                #expect(data.attestedCredentialData == nil, "\(id)")
                if id == "auth-018" {
                    let extensions = try #require(data.extensions)
                    #expect(extensions.unknown.map(\.identifier) == ["devicePubKey"])
                    #expect(try extensions.unknown.first?.value().mapValue != nil)
                } else {
                    #expect(data.extensions == nil, "\(id)")
                }
            } catch {
                Issue.record("\(id): \(error)")
            }
        }
    }
}
