// The strict DER reader (Fido2Crypto.DERReader) that certificates, SPKI and attestation
// extensions are read with, and its typed value decoders.
// dictionary:
// seeds: certificates spki-keys ecdsa-signatures
@_spi(Fido2Internals) import Fido2Crypto
import FuzzSupport

/// Invariants:
/// - `DERReader.validate` accepts exactly the inputs a recursive walk with `readElement` and
///   `nestedReader` reads to the end;
/// - an accepted tree re-encodes byte for byte with `DERWriter` (DER has one encoding);
/// - every typed decoder either fails or gives a value that re-encodes to the same element
///   (non-negative and 64-bit integers, booleans, null, object identifiers and their dotted
///   form); none traps on any primitive element.
@main
enum DERFuzzer: FuzzTarget {
    static func fuzz(_ input: [UInt8]) {
        let validated = (try? DERReader.validate(input[...])) != nil
        var writer = DERWriter()
        let walked: Bool
        do {
            var reader = try DERReader(input)
            let element = try reader.readElement()
            try reader.finish()
            try walk(element, in: reader, into: &writer)
            walked = true
        } catch {
            walked = false
        }
        FuzzCheck.require(validated == walked, "validate says \(validated), the walk \(walked)")
        guard validated else { return }
        FuzzCheck.require(writer.bytes == input, "DER tree does not re-encode byte for byte")
    }

    static func walk(
        _ element: DERElement, in reader: DERReader, into writer: inout DERWriter
    ) throws(CryptoError) {
        guard element.tag.isConstructed else {
            decodeEverything(element)
            writer.appendElement(element.tag, contents: element.contents)
            return
        }
        var nested = try reader.nestedReader(element)
        var children: [DERElement] = []
        while !nested.isAtEnd { children.append(try nested.readElement()) }
        let childReader = nested
        try writer.appendConstructed(element.tag) { (inner) throws(CryptoError) in
            for child in children { try walk(child, in: childReader, into: &inner) }
        }
    }

    static func decodeEverything(_ element: DERElement) {
        if let integer = try? element.decodeInteger(), integer.first.map({ $0 < 0x80 }) ?? false {
            var writer = DERWriter()
            writer.appendInteger(unsignedBigEndian: integer, tag: element.tag)
            FuzzCheck.require(
                writer.bytes.elementsEqual(element.encoded), "INTEGER re-encodes differently")
        }
        if let number = try? element.decodeInt64() {
            var writer = DERWriter()
            writer.appendInteger(number, tag: element.tag)
            FuzzCheck.require(
                writer.bytes.elementsEqual(element.encoded), "Int64 re-encodes differently")
        }
        if let flag = try? element.decodeBoolean() {
            var writer = DERWriter()
            writer.appendBoolean(flag, tag: element.tag)
            FuzzCheck.require(
                writer.bytes.elementsEqual(element.encoded), "BOOLEAN re-encodes differently")
        }
        if (try? element.decodeNull()) != nil {
            FuzzCheck.require(element.contents.isEmpty, "NULL with contents")
        }
        if let identifier = try? element.decodeObjectIdentifier() {
            FuzzCheck.require(
                identifier.derContents.elementsEqual(element.contents), "OID re-encodes differently"
            )
            FuzzCheck.require(
                ASN1ObjectIdentifier(dotted: identifier.dotted) == identifier,
                "OID dotted form differs")
        }
        _ = try? element.decodeBitString()
        _ = try? element.decodeString()
        _ = try? element.decodeTime()
    }
}
