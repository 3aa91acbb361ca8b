import BenchmarkHarness
import CPeers
import Crypto
import Fido2Crypto

/// Signatures, hashing, key generation and key import: fido2kit against a plain C loop over the
/// same OpenSSL calls (issue 3: sign, verify and hash within 5% of it) and, for P-256, against
/// swift-crypto (keygen at least 5x faster); and import-plus-verify against verify alone (within
/// 15%). fido2kit verifies ECDSA on a low-level `EC_KEY`, so EC import and verification are also
/// measured against C loops over those calls (the `EC_KEY` competitors) as well as the EVP ones.
enum CryptoScenarios {
    /// What a WebAuthn assertion signs: 37 bytes of authenticator data and a 32-byte client data
    /// hash.
    static let authenticatorData = [UInt8]((0..<37).map { UInt8(truncatingIfNeeded: $0 &* 11) })
    static let clientDataHash = [UInt8]((0..<32).map { UInt8(truncatingIfNeeded: $0 &* 29) })
    static let message = authenticatorData + clientDataHash
    /// A clientDataJSON-sized input.
    static let clientDataJSON = [UInt8]((0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) })

    struct Fixture: @unchecked Sendable {
        let p256: PrivateKey
        let rsa: PrivateKey
        let point: [UInt8]
        let es256Signature: [UInt8]
        let rs256Signature: [UInt8]
        let peer: PeerHandle
        let swiftCryptoKey: P256.Signing.PrivateKey
        let swiftCryptoSignature: P256.Signing.ECDSASignature
    }

    static func makeFixture() throws -> Fixture {
        let p256 = try PrivateKey(generating: .p256)
        let rsa = try PrivateKey(generating: .rsa(modulusBits: 2048))
        let p256DER = try p256.pkcs8DER
        let rsaDER = try rsa.pkcs8DER
        guard
            let peer = p256DER.withUnsafeBufferPointer({ p in
                rsaDER.withUnsafeBufferPointer { r in
                    openssl_peer_create(p.baseAddress, p.count, r.baseAddress, r.count)
                }
            })
        else { throw BenchmarkSetupError("the OpenSSL peer could not load the keys") }
        let swiftCryptoKey = try P256.Signing.PrivateKey(derRepresentation: p256DER)
        return Fixture(
            p256: p256, rsa: rsa, point: try p256.publicKey.uncompressedPoint,
            es256Signature: try p256.signature(for: message, algorithm: .es256),
            rs256Signature: try rsa.signature(for: message, algorithm: .rs256),
            peer: PeerHandle(raw: peer), swiftCryptoKey: swiftCryptoKey,
            swiftCryptoSignature: try swiftCryptoKey.signature(for: message))
    }

    static func all() throws -> [Scenario] {
        let f = try makeFixture()
        let peer = f.peer
        let publicKey = try f.p256.publicKey
        let rsaPublicKey = try f.rsa.publicKey
        let swiftCryptoPublic = f.swiftCryptoKey.publicKey
        return [
            Scenario(
                "SHA-256 of a 200-byte clientDataJSON",
                competitors: [
                    Competitor("fido2kit (withHash)") {
                        DigestAlgorithm.sha256.withHash(of: clientDataJSON) { UInt64($0[0]) }
                    },
                    Competitor("fido2kit (hash → [UInt8])") {
                        UInt64(DigestAlgorithm.sha256.hash(clientDataJSON)[0])
                    },
                    Competitor("C loop (OpenSSL)") {
                        var out = [UInt8](repeating: 0, count: 32)
                        let ok = clientDataJSON.withUnsafeBufferPointer { input in
                            out.withUnsafeMutableBufferPointer {
                                openssl_peer_sha256(
                                    peer.raw, input.baseAddress, input.count, $0.baseAddress)
                            }
                        }
                        return UInt64(ok) &+ UInt64(out[0])
                    },
                    Competitor("C loop (SHA256_Init/Update/Final)") {
                        var out = [UInt8](repeating: 0, count: 32)
                        let ok = clientDataJSON.withUnsafeBufferPointer { input in
                            out.withUnsafeMutableBufferPointer {
                                openssl_peer_sha256_blocks(
                                    input.baseAddress, input.count, $0.baseAddress)
                            }
                        }
                        return UInt64(ok) &+ UInt64(out[0])
                    },
                    Competitor("swift-crypto") {
                        UInt64(SHA256.hash(data: clientDataJSON).withUnsafeBytes { $0[0] })
                    },
                ],
                checks: [
                    .init(
                        "fido2kit (withHash)", against: "C loop (OpenSSL)",
                        .costOfBaseline(atMost: 1.05)),
                    // fido2kit's one-shot digests make these very calls: the same C loop, not EVP.
                    .init(
                        "fido2kit (withHash)", against: "C loop (SHA256_Init/Update/Final)",
                        .costOfBaseline(atMost: 1.05)),
                ]),
            Scenario(
                "ES256 sign (authenticatorData ‖ clientDataHash)",
                competitors: [
                    Competitor("fido2kit") {
                        UInt64(
                            (try? f.p256.signature(
                                for: authenticatorData, clientDataHash, algorithm: .es256))?.count
                                ?? 0)
                    },
                    Competitor("C loop (OpenSSL)") {
                        var signature = [UInt8](repeating: 0, count: 80)
                        let n = message.withUnsafeBufferPointer { m in
                            signature.withUnsafeMutableBufferPointer {
                                openssl_peer_es256_sign(
                                    peer.raw, m.baseAddress, m.count, $0.baseAddress, $0.count)
                            }
                        }
                        return UInt64(n)
                    },
                    Competitor("swift-crypto") {
                        UInt64(
                            (try? f.swiftCryptoKey.signature(for: message))?.derRepresentation.count
                                ?? 0)
                    },
                ],
                checks: [
                    .init("fido2kit", against: "C loop (OpenSSL)", .costOfBaseline(atMost: 1.05))
                ]),
            Scenario(
                "ES256 verify",
                competitors: [
                    Competitor("fido2kit") {
                        (try? publicKey.isValidSignature(
                            f.es256Signature, for: authenticatorData, clientDataHash,
                            algorithm: .es256)) == true ? 1 : 0
                    },
                    Competitor("C loop (OpenSSL)") {
                        let ok = message.withUnsafeBufferPointer { m in
                            f.es256Signature.withUnsafeBufferPointer {
                                openssl_peer_es256_verify(
                                    peer.raw, m.baseAddress, m.count, $0.baseAddress, $0.count)
                            }
                        }
                        return UInt64(ok)
                    },
                    Competitor("C loop (EC_KEY, ECDSA_verify)") {
                        let ok = message.withUnsafeBufferPointer { m in
                            f.es256Signature.withUnsafeBufferPointer {
                                openssl_peer_es256_verify_ec_key(
                                    peer.raw, m.baseAddress, m.count, $0.baseAddress, $0.count)
                            }
                        }
                        return UInt64(ok)
                    },
                    Competitor("swift-crypto") {
                        swiftCryptoPublic.isValidSignature(f.swiftCryptoSignature, for: message)
                            ? 1 : 0
                    },
                ],
                checks: [
                    .init("fido2kit", against: "C loop (OpenSSL)", .costOfBaseline(atMost: 1.05)),
                    .init(
                        "fido2kit", against: "C loop (EC_KEY, ECDSA_verify)",
                        .costOfBaseline(atMost: 1.05)),
                ]),
            Scenario(
                "ES256 import (uncompressed point) + verify",
                competitors: [
                    Competitor("fido2kit import + verify") {
                        guard let key = try? PublicKey(uncompressedPoint: f.point, kind: .p256)
                        else { return 0 }
                        return
                            (try? key.isValidSignature(
                                f.es256Signature, for: authenticatorData, clientDataHash,
                                algorithm: .es256)) == true ? 1 : 0
                    },
                    Competitor("fido2kit verify alone") {
                        (try? publicKey.isValidSignature(
                            f.es256Signature, for: authenticatorData, clientDataHash,
                            algorithm: .es256)) == true ? 1 : 0
                    },
                    Competitor("C loop import + verify") {
                        let ok = message.withUnsafeBufferPointer { m in
                            f.es256Signature.withUnsafeBufferPointer { s in
                                f.point.withUnsafeBufferPointer { p in
                                    openssl_peer_es256_import_verify(
                                        peer.raw, p.baseAddress, m.baseAddress, m.count,
                                        s.baseAddress, s.count)
                                }
                            }
                        }
                        return UInt64(ok)
                    },
                    Competitor("C loop import + verify (EC_KEY)") {
                        let ok = message.withUnsafeBufferPointer { m in
                            f.es256Signature.withUnsafeBufferPointer { s in
                                f.point.withUnsafeBufferPointer { p in
                                    openssl_peer_es256_import_verify_ec_key(
                                        peer.raw, p.baseAddress, m.baseAddress, m.count,
                                        s.baseAddress, s.count)
                                }
                            }
                        }
                        return UInt64(ok)
                    },
                ],
                checks: [
                    .init(
                        "fido2kit import + verify", against: "fido2kit verify alone",
                        .costOfBaseline(atMost: 1.15)),
                    .init(
                        "fido2kit import + verify", against: "C loop import + verify",
                        .costOfBaseline(atMost: 1.05)),
                    .init(
                        "fido2kit import + verify", against: "C loop import + verify (EC_KEY)",
                        .costOfBaseline(atMost: 1.05)),
                ]),
            Scenario(
                "EC point import (P-256)",
                competitors: [
                    Competitor("fido2kit") {
                        (try? PublicKey(uncompressedPoint: f.point, kind: .p256)) == nil ? 0 : 1
                    },
                    Competitor("C loop (template dup)") {
                        UInt64(
                            f.point.withUnsafeBufferPointer {
                                openssl_peer_p256_import(peer.raw, $0.baseAddress)
                            })
                    },
                    Competitor("C loop (EC_KEY)") {
                        UInt64(
                            f.point.withUnsafeBufferPointer {
                                openssl_peer_p256_import_ec_key(peer.raw, $0.baseAddress)
                            })
                    },
                    Competitor("swift-crypto") {
                        (try? P256.Signing.PublicKey(x963Representation: f.point)) == nil ? 0 : 1
                    },
                ],
                checks: [
                    .init(
                        "fido2kit", against: "C loop (template dup)", .costOfBaseline(atMost: 1.05)),
                    // 1.10, not 1.05: at ~3 µs the Swift box that owns the key (one more
                    // allocation, ~2% more instructions under callgrind) measures 1.03-1.06x.
                    .init("fido2kit", against: "C loop (EC_KEY)", .costOfBaseline(atMost: 1.10)),
                ]),
            Scenario(
                "P-256 key generation",
                competitors: [
                    Competitor("fido2kit") { (try? PrivateKey(generating: .p256)) == nil ? 0 : 1 },
                    Competitor("C loop (cached keygen context)") {
                        UInt64(openssl_peer_p256_keygen(peer.raw))
                    },
                    Competitor("swift-crypto") {
                        UInt64(P256.Signing.PrivateKey().rawRepresentation.count)
                    },
                ],
                checks: [
                    .init("fido2kit", against: "swift-crypto", .fasterThanBaseline(atLeast: 5)),
                    .init(
                        "fido2kit", against: "C loop (cached keygen context)",
                        .costOfBaseline(atMost: 1.05)),
                ]),
            Scenario(
                "RS256 sign (2048-bit)",
                competitors: [
                    Competitor("fido2kit") {
                        UInt64(
                            (try? f.rsa.signature(
                                for: authenticatorData, clientDataHash, algorithm: .rs256))?.count
                                ?? 0)
                    },
                    Competitor("C loop (OpenSSL)") {
                        var signature = [UInt8](repeating: 0, count: 256)
                        let n = message.withUnsafeBufferPointer { m in
                            signature.withUnsafeMutableBufferPointer {
                                openssl_peer_rs256_sign(
                                    peer.raw, m.baseAddress, m.count, $0.baseAddress, $0.count)
                            }
                        }
                        return UInt64(n)
                    },
                ],
                checks: [
                    .init("fido2kit", against: "C loop (OpenSSL)", .costOfBaseline(atMost: 1.05))
                ]),
            Scenario(
                "RS256 verify (2048-bit)",
                competitors: [
                    Competitor("fido2kit") {
                        (try? rsaPublicKey.isValidSignature(
                            f.rs256Signature, for: authenticatorData, clientDataHash,
                            algorithm: .rs256)) == true ? 1 : 0
                    },
                    Competitor("C loop (OpenSSL)") {
                        let ok = message.withUnsafeBufferPointer { m in
                            f.rs256Signature.withUnsafeBufferPointer {
                                openssl_peer_rs256_verify(
                                    peer.raw, m.baseAddress, m.count, $0.baseAddress, $0.count)
                            }
                        }
                        return UInt64(ok)
                    },
                ],
                checks: [
                    .init("fido2kit", against: "C loop (OpenSSL)", .costOfBaseline(atMost: 1.05))
                ]),
        ]
    }
}

/// The OpenSSL peer's state, used from one thread at a time by the harness.
struct PeerHandle: @unchecked Sendable {
    let raw: OpaquePointer
}

/// A benchmark could not set up its inputs.
struct BenchmarkSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
