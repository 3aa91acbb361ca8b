import BenchmarkHarness
import CPeers
import Fido2CBOR

/// CBOR encode and decode of a WebAuthn attestation object and a COSE EC2 key, fido2kit against
/// libcbor doing the same work in the same run (issue 2's targets: at least 5x libcbor's
/// throughput both ways, and no allocation beyond the output buffer when encoding).
enum CBORScenarios {
    /// A packed ES256 self-attestation: `fmt`, `attStmt` {alg -7, 72-byte sig}, 164-byte authData.
    static let signature = [UInt8]((0..<72).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 0x30) })
    static let authenticatorData = [UInt8]((0..<164).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    static let x = [UInt8]((0..<32).map { UInt8($0 + 1) })
    static let y = [UInt8]((0..<32).map { UInt8(255 - $0) })

    /// fido2kit's encoding: the exact size computed, then written into the array's storage.
    static func encodeAttestationObject() -> [UInt8] {
        let size =
            1 + CBORSize.string(count: 3) + CBORSize.string(count: 6) + CBORSize.string(count: 7)
            + 1 + CBORSize.string(count: 3) + CBORSize.int(-7) + CBORSize.string(count: 3)
            + CBORSize.string(count: signature.count) + CBORSize.string(count: 8)
            + CBORSize.string(count: authenticatorData.count)
        return CBORBufferWriter.encode(byteCount: size) { writer in
            writer.writeMapHeader(count: 3)
            writer.writeTextLiteral("fmt")
            writer.writeTextLiteral("packed")
            writer.writeTextLiteral("attStmt")
            writer.writeMapHeader(count: 2)
            writer.writeTextLiteral("alg")
            writer.writeInt(-7)
            writer.writeTextLiteral("sig")
            writer.writeByteString(signature)
            writer.writeTextLiteral("authData")
            writer.writeByteString(authenticatorData)
        }
    }

    static func encodeCOSEKey() -> [UInt8] {
        CBORBufferWriter.encode(byteCount: 77) { writer in
            writer.writeMapHeader(count: 5)
            writer.writeInt(1)
            writer.writeInt(2)
            writer.writeInt(3)
            writer.writeInt(-7)
            writer.writeInt(-1)
            writer.writeInt(1)
            writer.writeInt(-2)
            writer.writeByteString(x)
            writer.writeInt(-3)
            writer.writeByteString(y)
        }
    }

    static let attestationObject = encodeAttestationObject()
    static let coseKey = encodeCOSEKey()

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        guard let first = bytes.first, let last = bytes.last else { return 0 }
        return UInt64(first) + UInt64(last) + UInt64(bytes.count)
    }

    /// fido2kit's decoding: strict validation, then zero-copy field reads.
    static func decodeAttestationObject(_ bytes: [UInt8]) throws -> UInt64 {
        var reader = try CBORReader(bytes, options: .strict)
        var sum: UInt64 = 0
        for _ in 0..<(try reader.readMapHeader()) {
            if reader.readTextString(ifEqualTo: "fmt") {
                sum &+= checksum(try reader.readTextStringBytes())
            } else if reader.readTextString(ifEqualTo: "attStmt") {
                for _ in 0..<(try reader.readMapHeader()) {
                    if reader.readTextString(ifEqualTo: "alg") {
                        sum &+= UInt64(bitPattern: try reader.readInt())
                    } else if reader.readTextString(ifEqualTo: "sig") {
                        sum &+= checksum(try reader.readByteString())
                    } else {
                        try reader.skipItem()
                        try reader.skipItem()
                    }
                }
            } else if reader.readTextString(ifEqualTo: "authData") {
                sum &+= checksum(try reader.readByteString())
            } else {
                try reader.skipItem()
                try reader.skipItem()
            }
        }
        return sum
    }

    static func decodeCOSEKey(_ bytes: [UInt8]) throws -> UInt64 {
        var reader = try CBORReader(bytes, options: .strict)
        var sum: UInt64 = 0
        for _ in 0..<(try reader.readMapHeader()) {
            switch try reader.readInt() {
            case 1, 3, -1: sum &+= UInt64(bitPattern: try reader.readInt())
            case -2, -3: sum &+= checksum(try reader.readByteString())
            default: try reader.skipItem()
            }
        }
        return sum
    }

    static func peerFields(_ body: (inout peer_attestation_fields) -> UInt64) -> UInt64 {
        "packed".utf8CString.withUnsafeBufferPointer { fmt in
            signature.withUnsafeBufferPointer { sig in
                authenticatorData.withUnsafeBufferPointer { authData in
                    var fields = peer_attestation_fields(
                        fmt: UnsafeRawPointer(fmt.baseAddress!).assumingMemoryBound(to: UInt8.self),
                        fmt_length: 6, alg: -7, sig: sig.baseAddress, sig_length: sig.count,
                        auth_data: authData.baseAddress, auth_data_length: authData.count)
                    return body(&fields)
                }
            }
        }
    }

    /// libcbor writes into a buffer the caller allocates, as fido2kit's output buffer is.
    static func libcborEncode(
        _ encode: (UnsafePointer<peer_attestation_fields>, UnsafeMutablePointer<UInt8>, Int) -> Int
    ) -> UInt64 {
        var output = [UInt8](repeating: 0, count: 279)
        let written = peerFields { fields in
            output.withUnsafeMutableBufferPointer {
                UInt64(encode(&fields, $0.baseAddress!, $0.count))
            }
        }
        return written &+ UInt64(output[278])
    }

    static var all: [Scenario] {
        precondition(attestationObject.count == 279 && coseKey.count == 77)
        precondition(
            peerFields { fields in
                var buffer = [UInt8](repeating: 0, count: 279)
                let n = buffer.withUnsafeMutableBufferPointer {
                    libcbor_encode_attestation_items(&fields, $0.baseAddress!, $0.count)
                }
                return n == 279 && buffer == attestationObject ? 1 : 0
            } == 1, "libcbor's encoding differs from fido2kit's")
        return [
            Scenario(
                "CBOR encode: attestation object (279 B)",
                competitors: [
                    Competitor("fido2kit") {
                        let bytes = encodeAttestationObject()
                        return UInt64(bytes.count) &+ UInt64(bytes[278])
                    },
                    Competitor("libcbor (items)") {
                        libcborEncode { libcbor_encode_attestation_items($0, $1, $2) }
                    },
                    Competitor("libcbor (streaming encoder)") {
                        libcborEncode { libcbor_encode_attestation_stream($0, $1, $2) }
                    },
                ],
                checks: [
                    .init("fido2kit", against: "libcbor (items)", .fasterThanBaseline(atLeast: 5)),
                    .init("fido2kit", .allocations(atMost: 1)),
                ]),
            Scenario(
                "CBOR decode: attestation object (279 B, strict)",
                competitors: [
                    Competitor("fido2kit") {
                        (try? decodeAttestationObject(attestationObject)) ?? 0
                    },
                    Competitor("libcbor (cbor_load)") {
                        attestationObject.withUnsafeBufferPointer { input in
                            var sum: UInt64 = 0
                            _ = libcbor_decode_attestation(input.baseAddress, input.count, &sum)
                            return sum
                        }
                    },
                ],
                checks: [
                    .init(
                        "fido2kit", against: "libcbor (cbor_load)", .fasterThanBaseline(atLeast: 5)),
                    .init("fido2kit", .allocations(atMost: 0)),
                ]),
            Scenario(
                "CBOR encode: COSE EC2 key (77 B)",
                competitors: [
                    Competitor("fido2kit") {
                        let bytes = encodeCOSEKey()
                        return UInt64(bytes.count) &+ UInt64(bytes[76])
                    },
                    Competitor("libcbor (items)") {
                        x.withUnsafeBufferPointer { xs in
                            y.withUnsafeBufferPointer { ys in
                                var fields = peer_cose_ec2_fields(
                                    kty: 2, alg: -7, crv: 1, x: xs.baseAddress, y: ys.baseAddress,
                                    x_length: 32, y_length: 32)
                                var output = [UInt8](repeating: 0, count: 77)
                                let n = output.withUnsafeMutableBufferPointer {
                                    libcbor_encode_cose_ec2_items(
                                        &fields, $0.baseAddress!, $0.count)
                                }
                                return UInt64(n) &+ UInt64(output[76])
                            }
                        }
                    },
                ],
                checks: [
                    .init("fido2kit", against: "libcbor (items)", .fasterThanBaseline(atLeast: 5)),
                    .init("fido2kit", .allocations(atMost: 1)),
                ]),
            Scenario(
                "CBOR decode: COSE EC2 key (77 B, strict)",
                competitors: [
                    Competitor("fido2kit") { (try? decodeCOSEKey(coseKey)) ?? 0 },
                    Competitor("libcbor (cbor_load)") {
                        coseKey.withUnsafeBufferPointer { input in
                            var sum: UInt64 = 0
                            _ = libcbor_decode_cose_ec2(input.baseAddress, input.count, &sum)
                            return sum
                        }
                    },
                ],
                checks: [
                    .init(
                        "fido2kit", against: "libcbor (cbor_load)", .fasterThanBaseline(atLeast: 5)),
                    .init("fido2kit", .allocations(atMost: 0)),
                ]),
        ]
    }
}
