import Fido2Authenticator
import Fido2CBOR
import Fido2Crypto
import Fido2Encoding
import Fido2TestSupport
import Fido2Vectors
import Fido2WebAuthn
import Fido2WebAuthnTestSupport
import Fido2WebAuthnWire
import Testing

@Suite struct AttestationObjectParsingTests {
    static func authData() throws -> [UInt8] { Array(try sampleAuthenticatorData().bytes) }

    /// `{fmt, attStmt, authData}` written in canonical order from parts.
    static func object(
        fmt: String? = "none", attStmt: CBORValue? = [:], authData: [UInt8]?
    )
        -> [UInt8]
    {
        var map = CBORMap()
        if let fmt { map.entries.append(.init(key: "fmt", value: .textString(fmt))) }
        if let attStmt { map.entries.append(.init(key: "attStmt", value: attStmt)) }
        if let authData { map.entries.append(.init(key: "authData", value: .byteString(authData))) }
        return CBORValue.map(map).encoded()
    }

    @Test func rejectsMissingAndUnexpectedMembers() throws {
        let authData = try Self.authData()
        expectCode(.invalidAttestationObject) {
            _ = try AttestationObject(bytes: Self.object(fmt: nil, authData: authData))
        }
        expectCode(.invalidAttestationObject) {
            _ = try AttestationObject(bytes: Self.object(attStmt: nil, authData: authData))
        }
        expectCode(.invalidAttestationObject) {
            _ = try AttestationObject(bytes: Self.object(authData: nil))
        }
        let extra = CBORValue.map([
            "fmt": "none", "attStmt": [:], "authData": .byteString(authData), "epAtt": true,
        ]).encoded()
        expectCode(.invalidAttestationObject) { _ = try AttestationObject(bytes: extra) }
        expectCode(.invalidAttestationObject) {
            _ = try AttestationObject(bytes: CBORValue.array([]).encoded())
        }
    }

    @Test func rejectsMistypedMembers() throws {
        let authData = try Self.authData()
        let numberFormat = CBORValue.map([
            "fmt": 1, "attStmt": [:], "authData": .byteString(authData),
        ]).encoded()
        expectCode(.invalidAttestationObject) { _ = try AttestationObject(bytes: numberFormat) }
        let textAuthData = CBORValue.map(["fmt": "none", "attStmt": [:], "authData": "x"]).encoded()
        expectCode(.invalidAttestationObject) { _ = try AttestationObject(bytes: textAuthData) }
        expectCode(.invalidAttestationStatement) {
            _ = try AttestationObject(bytes: Self.object(attStmt: [1, 2], authData: authData))
        }
    }

    @Test func rejectsNonCanonicalAndTrailingCBOR() throws {
        let good = Self.object(authData: try Self.authData())
        expectCode(.malformedCBOR) { _ = try AttestationObject(bytes: good + [0x00]) }
        // authData before attStmt: keys out of canonical order.
        var writer = CBORWriter()
        writer.writeMapHeader(count: 3)
        writer.writeTextString("fmt")
        writer.writeTextString("none")
        writer.writeTextString("authData")
        writer.writeByteString(try Self.authData())
        writer.writeTextString("attStmt")
        writer.writeMapHeader(count: 0)
        expectCode(.malformedCBOR) { _ = try AttestationObject(bytes: writer.bytes) }
        var relaxed = CBORDecodingOptions.strict
        relaxed.checks.remove(.canonicalKeyOrder)
        #expect(try AttestationObject(bytes: writer.bytes, options: relaxed).format == "none")
    }

    @Test func reportsAuthenticatorDataErrorsWithTheirPlaceInTheObject() throws {
        var authData = try Self.authData()
        authData.removeLast()
        let bytes = Self.object(authData: authData)
        do {
            _ = try AttestationObject(bytes: bytes)
            Issue.record("accepted truncated authData")
        } catch let error as WebAuthnError {
            #expect(error.code == .truncated)
            #expect(error.field == "authData.attestedCredentialData.credentialPublicKey")
            #expect((error.offset ?? 0) > 30)
        } catch {
            Issue.record("expected a WebAuthnError, got \(error)")
        }
    }

    @Test func checksEachStatementsMembers() throws {
        let authData = try Self.authData()
        let cert: CBORValue = .byteString([0x30, 0x00])
        let bad: [(String, CBORValue)] = [
            ("none", ["x": 1]),
            ("packed", ["alg": -7]),
            ("packed", ["sig": .byteString([1])]),
            ("packed", ["alg": "ES256", "sig": .byteString([1])]),
            ("packed", ["alg": -7, "sig": .byteString([1]), "x5c": []]),
            ("packed", ["alg": -7, "sig": .byteString([1]), "x5c": [1]]),
            ("packed", ["alg": -7, "sig": .byteString([1]), "ecdaaKeyId": .byteString([1])]),
            ("packed", ["alg": .unsigned(1 << 40), "sig": .byteString([1])]),
            ("fido-u2f", ["sig": .byteString([1])]),
            ("fido-u2f", ["x5c": [cert]]),
            ("android-key", ["alg": -7, "sig": .byteString([1])]),
            ("apple", [:]),
            ("tpm", ["ver": "2.0", "alg": -7, "x5c": [cert], "sig": .byteString([1])]),
            ("android-safetynet", ["ver": "1"]),
            ("android-safetynet", ["ver": 1, "response": .byteString([1])]),
            ("packed", [1: -7]),
            ("example-format", [1, 2]),
        ]
        for (format, statement) in bad {
            expectCode(.invalidAttestationStatement) {
                _ = try AttestationObject(
                    bytes: Self.object(fmt: format, attStmt: statement, authData: authData))
            }
        }
    }

    @Test func keepsUnknownFormatsRaw() throws {
        let statement: CBORValue = ["foo": .byteString([1, 2])]
        let bytes = Self.object(
            fmt: "example-format", attStmt: statement, authData: try Self.authData())
        let object = try AttestationObject(bytes: bytes)
        #expect(object.format == "example-format")
        #expect(
            object.statement
                == .unknown(format: "example-format", encoded: statement.encoded()[...]))
        #expect(
            AttestationObject(
                authenticatorData: object.authenticatorData, statement: object.statement) == object)
    }
}

@Suite struct TPMStructureTests {
    static func statement() throws -> TPMAttestationStatement {
        let object = try AttestationObject(
            bytes: try W3CVector.named("tpm-es256").registrationBytes("attestationObject"))
        guard case .tpm(let tpm) = object.statement else {
            throw VectorShapeError(description: "not tpm")
        }
        return tpm
    }

    @Test func rejectsEveryTruncationOfCertInfoAndPubArea() throws {
        let tpm = try Self.statement()
        let certInfo = Array(tpm.certInfo.bytes)
        for length in 0..<certInfo.count {
            expectCode(.truncated) { _ = try TPMSAttest(bytes: certInfo.prefix(length)) }
        }
        let pubArea = Array(tpm.pubArea.bytes)
        for length in 0..<pubArea.count {
            expectCode(.truncated) { _ = try TPMTPublic(bytes: pubArea.prefix(length)) }
        }
        #expect(try TPMSAttest(bytes: certInfo[...]) == tpm.certInfo)
        #expect(try TPMTPublic(bytes: pubArea[...]) == tpm.pubArea)
    }

    @Test func rejectsTrailingBytesAndUnknownKeyTypes() throws {
        let tpm = try Self.statement()
        expectCode(.trailingBytes) {
            _ = try TPMSAttest(bytes: Array(tpm.certInfo.bytes + [0])[...])
        }
        expectCode(.trailingBytes) {
            _ = try TPMTPublic(bytes: Array(tpm.pubArea.bytes + [0])[...])
        }
        var pubArea = Array(tpm.pubArea.bytes)
        pubArea[0] = 0x00
        pubArea[1] = 0x25
        expectCode(.invalidTPMStructure) { _ = try TPMTPublic(bytes: pubArea[...]) }
    }

    @Test func readsAnRSAPublicArea() throws {
        // type RSA, nameAlg SHA-256, attributes, empty policy, symmetric NULL, scheme RSASSA
        // with SHA-256, 2048 bits, exponent 0, 4-byte modulus.
        let bytes: [UInt8] = [
            0x00, 0x01, 0x00, 0x0b, 0x00, 0x06, 0x04, 0x72, 0x00, 0x00, 0x00, 0x10, 0x00, 0x14,
            0x00, 0x0b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xde, 0xad, 0xbe, 0xef,
        ]
        let area = try TPMTPublic(bytes: bytes[...])
        guard case .rsa(let parameters) = area.parameters, case .rsa(let modulus) = area.unique
        else {
            Issue.record("not RSA")
            return
        }
        #expect(parameters.scheme.algorithm == .rsassa)
        #expect(parameters.scheme.hashAlgorithm == .sha256)
        #expect(parameters.keyBits == 2048 && parameters.exponent == 0)
        #expect(Array(modulus) == [0xde, 0xad, 0xbe, 0xef])
        #expect(!area.omitsSchemeDetails)
        // A cut structure is truncated, unless what is left happens to read in full as a
        // scheme without details, which the structure then says.
        for length in 0..<bytes.count {
            if let cut = try? TPMTPublic(bytes: bytes.prefix(length)) {
                #expect(cut.omitsSchemeDetails, "\(length) bytes")
            } else {
                expectCode(.truncated) { _ = try TPMTPublic(bytes: bytes.prefix(length)) }
            }
        }
    }

    @Test func readsASchemeWrittenWithoutItsDetailsAsDeployedRelyingPartiesDo() throws {
        // The same RSA area with the scheme's hash algorithm left out, as Yubico's test
        // authenticator writes it: TPM 2.0 Part 2 cannot read it (the modulus size lands on
        // the wrong bytes), the deployed reading reads it in full.
        let bytes: [UInt8] = [
            0x00, 0x01, 0x00, 0x0b, 0x00, 0x06, 0x04, 0x72, 0x00, 0x00, 0x00, 0x10, 0x00, 0x14,
            0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xde, 0xad, 0xbe, 0xef,
        ]
        let area = try TPMTPublic(bytes: bytes[...])
        guard case .rsa(let parameters) = area.parameters, case .rsa(let modulus) = area.unique
        else {
            Issue.record("not RSA")
            return
        }
        #expect(area.omitsSchemeDetails)
        #expect(parameters.scheme.algorithm == .rsassa && parameters.scheme.details.isEmpty)
        #expect(parameters.keyBits == 2048)
        #expect(Array(modulus) == [0xde, 0xad, 0xbe, 0xef])
    }
}

@Suite struct CompactJWSTests {
    static func part(_ json: String) -> [UInt8] { Array(Base64URL.encode(Array(json.utf8)).utf8) }

    @Test func splitsAndReadsAJWS() throws {
        let certificate: [UInt8] = [0x30, 0x03, 0x02, 0x01, 0x01]
        let header = Self.part(#"{"alg":"RS256","x5c":["\#(Base64.encode(certificate))"]}"#)
        let payload = Self.part(#"{"nonce":"abc","ctsProfileMatch":true}"#)
        let compact = header + [0x2e] + payload + [0x2e] + Array("AQID".utf8)
        let jws = try CompactJWS(compact: compact[...])
        #expect(jws.algorithm == "RS256")
        #expect(jws.certificates == [certificate])
        #expect(jws.payload["nonce"]?.stringValue == "abc")
        #expect(jws.signature == [1, 2, 3])
        #expect(Array(jws.signingInput) == header + [0x2e] + payload)
    }

    @Test func rejectsMalformedJWS() throws {
        let header = Self.part(#"{"alg":"RS256"}"#)
        let payload = Self.part(#"{}"#)
        let cases: [[UInt8]] = [
            header + [0x2e] + payload,
            header + [0x2e] + payload + [0x2e] + Array("A*".utf8),
            Self.part("[1]") + [0x2e] + payload + [0x2e],
            Self.part("{") + [0x2e] + payload + [0x2e],
            Self.part(#"{"x":1}"#) + [0x2e] + payload + [0x2e],
            Self.part(#"{"alg":"RS256","x5c":"no"}"#) + [0x2e] + payload + [0x2e],
            Self.part(#"{"alg":"RS256","x5c":["**"]}"#) + [0x2e] + payload + [0x2e],
        ]
        for compact in cases {
            expectCode(.invalidJWS) { _ = try CompactJWS(compact: compact[...]) }
        }
    }
}
