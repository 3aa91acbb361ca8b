import Fido2CBOR
import Fido2Encoding
import Fido2TestSupport
import Testing

/// The pull reader: typed reads, zero-copy strings, skipping, and first-item lengths.
struct ReaderTests {
    /// An attestation object in the shape WebAuthn uses: fmt, attStmt {alg, sig}, authData.
    static let attestationObject: [UInt8] = {
        var writer = CBORWriter()
        writer.writeMapHeader(count: 3)
        writer.writeTextString("fmt")
        writer.writeTextString("packed")
        writer.writeTextString("attStmt")
        writer.writeMapHeader(count: 2)
        writer.writeTextString("alg")
        writer.writeInt(-7)
        writer.writeTextString("sig")
        writer.writeByteString([UInt8](repeating: 0x30, count: 72))
        writer.writeTextString("authData")
        writer.writeByteString([UInt8](repeating: 0xa5, count: 164))
        return writer.bytes
    }()

    @Test func readsAnAttestationObjectField_by_field() throws {
        var reader = try CBORReader(Self.attestationObject)
        #expect(try reader.readMapHeader() == 3)
        #expect(try reader.readTextString() == "fmt")
        #expect(try reader.readTextString() == "packed")
        #expect(Array(try reader.readTextStringBytes()) == Array("attStmt".utf8))
        #expect(try reader.readMapHeader() == 2)
        #expect(try reader.readTextString() == "alg")
        #expect(try reader.readInt() == -7)
        #expect(try reader.readTextString() == "sig")
        #expect(try reader.readByteString().count == 72)
        #expect(try reader.readTextString() == "authData")
        let authData = try reader.readByteString()
        #expect(authData.count == 164)
        #expect(reader.isAtEnd)
        #expect(reader.offset == Self.attestationObject.count)
        #expect(authData.startIndex == Self.attestationObject.count - 164)
    }

    @Test func byteStringsAreSlicesOfTheInputNotCopies() throws {
        let input = Self.attestationObject
        var reader = try CBORReader(input)
        _ = try reader.readMapHeader()
        for _ in 0..<2 { try reader.skipItem() }
        try reader.skipItem()
        try reader.skipItem()
        try reader.skipItem()
        let authData = try reader.readByteString()
        input.withUnsafeBufferPointer { whole in
            authData.withUnsafeBufferPointer { part in
                #expect(part.baseAddress == whole.baseAddress! + (input.count - 164))
            }
        }
    }

    @Test func typedReadsRejectOtherTypesWithoutMoving() throws {
        var reader = try CBORReader([0x63, 0x61, 0x62, 0x63])
        #expect(throws: CBORError(.typeMismatch, at: 0, detail: "expected unsigned integer")) {
            try reader.readUnsigned()
        }
        #expect(throws: CBORError(.typeMismatch, at: 0, detail: "expected byte string")) {
            try reader.readByteString()
        }
        #expect(throws: CBORError(.typeMismatch, at: 0, detail: "expected map")) {
            try reader.readMapHeader()
        }
        #expect(throws: CBORError.self) { try reader.readBool() }
        #expect(throws: CBORError.self) { try reader.readNull() }
        #expect(throws: CBORError.self) { try reader.readFloat() }
        #expect(throws: CBORError.self) { try reader.readTag() }
        #expect(throws: CBORError.self) { try reader.readInt() }
        #expect(reader.offset == 0)
        #expect(try reader.readTextString() == "abc")
        #expect(throws: CBORError(.truncated, at: 4)) { try reader.readTextString() }
        #expect(throws: CBORError(.truncated, at: 4)) { try reader.peekMajorType() }
    }

    @Test func integersOutsideInt64AreReportedAsOutOfRange() throws {
        var big = try CBORReader(Hex.bytes("1b8000000000000000"))
        #expect(throws: CBORError(.integerOutOfRange, at: 0)) { try big.readInt() }
        #expect(try big.readUnsigned() == 1 << 63)
        var small = try CBORReader(Hex.bytes("3b8000000000000000"))
        #expect(throws: CBORError(.integerOutOfRange, at: 0)) { try small.readInt() }
        var minimum = try CBORReader(Hex.bytes("3b7fffffffffffffff"))
        #expect(try minimum.readInt() == .min)
    }

    @Test func scalarsReadBack() throws {
        var reader = try CBORReader(Hex.bytes("f5f4f6f93e00c11a514b67b0"), options: .lenient)
        #expect(try reader.readBool() == true)
        #expect(try reader.readBool() == false)
        try reader.readNull()
        #expect(try reader.readFloat() == 1.5)
        #expect(try reader.readTag() == 1)
        #expect(try reader.readUnsigned() == 1_363_896_240)
        #expect(reader.isAtEnd)
    }

    @Test func indefiniteStringsAreJoinedInLenientMode() throws {
        var reader = try CBORReader(
            Hex.bytes("5f42010243030405ff7f657374726561646d696e67ff"), options: .lenient)
        #expect(Array(try reader.readByteString()) == [1, 2, 3, 4, 5])
        #expect(try reader.readTextString() == "streaming")
    }

    @Test func indefiniteContainersNeedReadValue() throws {
        var reader = try CBORReader(Hex.bytes("9f01ff"), options: .lenient)
        #expect(throws: CBORError(.indefiniteLengthNotAllowed, at: 0)) {
            try reader.readArrayHeader()
        }
        #expect(try reader.readValue() == [1])
    }

    @Test func encodedItemsComeBackAsSlices() throws {
        var reader = try CBORReader(Hex.bytes("82a201020304f6"))
        #expect(try reader.readArrayHeader() == 2)
        #expect(Array(try reader.readEncodedItem()) == Hex.bytes("a201020304"))
        try reader.readNull()
        #expect(reader.isAtEnd)
    }

    @Test func lengthOfFirstItemFindsTheEndOfACOSEKeyInsideAuthenticatorData() throws {
        let key: CBORValue = [
            1: 2, 3: -7, -1: 1, -2: .byteString([UInt8](repeating: 1, count: 32)),
            -3: .byteString([UInt8](repeating: 2, count: 32)),
        ]
        let coseKey = key.encoded()
        let extensions = (["credProtect": 2] as CBORValue).encoded()
        let tail = [UInt8](repeating: 0xee, count: 37) + coseKey + extensions
        let slice = tail[37...]
        #expect(try CBORReader.lengthOfFirstItem(in: slice) == coseKey.count)
        let (value, length) = try CBORValue.decodeFirst(slice)
        #expect(length == coseKey.count)
        #expect(value[3] == -7)
        #expect(throws: CBORError(.trailingBytes, at: coseKey.count)) {
            try CBORValue.decode(slice)
        }
    }

    @Test func lengthOfFirstItemStillAppliesStrictRules() {
        let nonCanonicalKey = Hex.bytes("a203260102") + [0xff]
        #expect(throws: CBORError(.mapKeysOutOfOrder, at: 3)) {
            try CBORReader.lengthOfFirstItem(in: nonCanonicalKey[...])
        }
    }

    @Test func lenientReaderWalksACBORSequence() throws {
        var reader = try CBORReader(Hex.bytes("01826161f5a0"), options: .lenient)
        #expect(try reader.readValue() == 1)
        #expect(try reader.readValue() == ["a", true])
        #expect(try reader.readValue() == .map(CBORMap()))
        #expect(reader.isAtEnd)
    }

    @Test func slicesWithNonZeroStartIndexReportOffsetsFromTheirStart() throws {
        let bytes = [UInt8](repeating: 0, count: 10) + Hex.bytes("a20100 0100".filter { $0 != " " })
        do {
            _ = try CBORReader(bytes[10...])
            Issue.record("accepted")
        } catch let error as CBORError {
            #expect(error.offset == 3)
            #expect(error.code == .duplicateMapKey)
        } catch {
            Issue.record("expected a CBORError, got \(error)")
        }
    }

    @Test func invalidUTF8IsRejectedByStringReadsEvenWhenLenient() throws {
        var reader = try CBORReader(Hex.bytes("62c0af"), options: .lenient)
        #expect(throws: CBORError(.invalidUTF8, at: 0)) { try reader.readTextString() }
        #expect(throws: CBORError(.invalidUTF8, at: 0)) {
            try CBORValue.decode(Hex.bytes("62c0af"), options: .lenient)
        }
    }

    @Test func mapHelpersFindValuesAndDuplicates() throws {
        let value = try CBORValue.decode(Hex.bytes("a3010203040105"), options: .lenient)
        let map = try #require(value.mapValue)
        #expect(map[1] == 2)
        #expect(map[3] == 4)
        #expect(map[9] == nil)
        #expect(map.firstDuplicateKey == 1)
        #expect(value.int64Value == nil)
        #expect(CBORValue.negative(0).int64Value == -1)
        #expect(CBORValue.unsigned(.max).int64Value == nil)
    }
}

/// Matching map keys without allocating.
struct KeyMatchingTests {
    @Test func readTextStringIfEqualToConsumesOnlyAMatch() throws {
        var reader = try CBORReader(Hex.bytes("a263666d74646e6f6e656761747453746d74a0"))
        #expect(try reader.readMapHeader() == 2)
        #expect(reader.readTextString(ifEqualTo: "attStmt") == false)
        #expect(reader.readTextString(ifEqualTo: "fmx") == false)
        #expect(reader.readTextString(ifEqualTo: "fm") == false)
        #expect(reader.readTextString(ifEqualTo: "fmt") == true)
        #expect(reader.readTextString(ifEqualTo: "none") == true)
        #expect(reader.readTextString(ifEqualTo: "fmt") == false)
        #expect(reader.readTextString(ifEqualTo: "attStmt") == true)
        #expect(try reader.readMapHeader() == 0)
        #expect(reader.readTextString(ifEqualTo: "anything") == false)
        #expect(reader.isAtEnd)
    }

    @Test func longNamesAndNonTextItemsAreHandled() throws {
        let long = String(repeating: "k", count: 30)
        var writer = CBORWriter()
        writer.writeTextString(long)
        writer.writeInt(1)
        var reader = try CBORReader(writer.bytes, options: .lenient)
        #expect(reader.readTextString(ifEqualTo: "kkkkkkkkkkkkkkkkkkkkkkkkkkkkk") == false)
        #expect(reader.readTextString(ifEqualTo: "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkk") == true)
        #expect(reader.readTextString(ifEqualTo: "1") == false)
        #expect(try reader.readInt() == 1)
    }

    @Test func textIsComparesBytesWithANameExactly() {
        #expect(CBORReader.text(Array("sig".utf8)[...], is: "sig"))
        #expect(!CBORReader.text(Array("sig".utf8)[...], is: "si"))
        #expect(!CBORReader.text(Array("sih".utf8)[...], is: "sig"))
        #expect(CBORReader.text([][...], is: ""))
    }
}
