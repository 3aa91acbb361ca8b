// swift-tools-version: 6.1
// Licensed under the Apache License, Version 2.0 (see LICENSE). SPDX-License-Identifier: Apache-2.0
// fido2kit: FIDO2/WebAuthn cryptography toolkit for Linux.
//
// Layering (each module depends only on the ones before it):
//   Fido2Encoding, Fido2CBOR ← Fido2Crypto ← Fido2WebAuthnWire ← Fido2WebAuthn (the relying
//   party) and Fido2Authenticator (the software authenticator) ← Fido2Belvo ← fido2kit
// Fido2WebAuthnWire holds the WebAuthn structures both sides speak (JSON forms, client data,
// authenticator data, attestation statements, WebAuthnError); Fido2WebAuthn the relying party
// with its metadata and shipped roots, what a server imports; Fido2Authenticator the software
// authenticator, its credential stores and PRF, which a server never links and which never
// links the relying party.
// Fido2Encoding (base64, base64url, a strict Foundation-free JSON reader and writer) sits at the
// bottom because both the crypto module (JWK) and the WebAuthn module (JSON forms) need it.
// COpenSSL wraps libcrypto for Fido2Crypto; CLibCBOR wraps libcbor and is used only by the
// tests (differential oracle), never by the library. Fido2Vectors (not a product) holds the
// vector suites' runners and the test-only machinery, for fido2kit's `vectors` commands and the
// tests.
import PackageDescription

let package = Package(
    name: "fido2kit",
    products: [
        .library(name: "Fido2Encoding", targets: ["Fido2Encoding"]),
        .library(name: "Fido2CBOR", targets: ["Fido2CBOR"]),
        .library(name: "Fido2Crypto", targets: ["Fido2Crypto"]),
        .library(name: "Fido2WebAuthnWire", targets: ["Fido2WebAuthnWire"]),
        .library(name: "Fido2WebAuthn", targets: ["Fido2WebAuthn"]),
        .library(name: "Fido2Authenticator", targets: ["Fido2Authenticator"]),
        .library(name: "Fido2Belvo", targets: ["Fido2Belvo"]),
        .library(name: "Fido2BelvoDevice", targets: ["Fido2BelvoDevice"]),
        .library(name: "Fido2MetadataService", targets: ["Fido2MetadataService"]),
        .executable(name: "fido2kit", targets: ["fido2kit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CLibCBOR",
            pkgConfig: "libcbor",
            providers: [.apt(["libcbor-dev"])]
        ),
        .target(name: "Fido2Encoding"),
        // General utilities the modules share and users never see (`package` only): the lock.
        .target(name: "Fido2Support"),
        // One bounded HTTP exchange over URLSession (`package` only), for the two products that
        // talk to a server: Fido2Belvo and Fido2MetadataService.
        .target(name: "Fido2HTTPClient", dependencies: ["Fido2Support"]),
        .target(name: "Fido2CBOR"),
        .target(
            name: "Fido2Crypto",
            dependencies: ["Fido2Encoding", "Fido2CBOR", "Fido2Support", "COpenSSL"]),
        .target(
            name: "Fido2WebAuthnWire", dependencies: ["Fido2Encoding", "Fido2CBOR", "Fido2Crypto"]
        ),
        .target(
            name: "Fido2WebAuthn",
            dependencies: ["Fido2Encoding", "Fido2CBOR", "Fido2Crypto", "Fido2WebAuthnWire"]),
        .target(
            name: "Fido2Authenticator",
            dependencies: [
                "Fido2Encoding", "Fido2CBOR", "Fido2Crypto", "Fido2Support", "Fido2WebAuthnWire",
            ]),
        // Belvo's API client and its wire formats: a server or job that only talks to Belvo
        // links neither the relying party nor the software authenticator.
        .target(
            name: "Fido2Belvo",
            dependencies: ["Fido2Encoding", "Fido2Support", "Fido2WebAuthnWire", "Fido2HTTPClient"]),
        // BiometricPixSDK's device, reproduced with the software authenticator.
        .target(
            name: "Fido2BelvoDevice",
            dependencies: [
                "Fido2Encoding", "Fido2WebAuthnWire", "Fido2Authenticator", "Fido2Belvo",
            ]
        ),
        // The metadata BLOB that refreshes itself: fetched over URLSession, verified by the
        // relying party's MetadataBLOB, kept on disk. Its own product, so a server that reads
        // BLOBs it fetches itself links no HTTP client.
        .target(
            name: "Fido2MetadataService",
            dependencies: ["Fido2Support", "Fido2WebAuthn", "Fido2HTTPClient"]),
        // The vector oracle, not a product: every vector suite's runner and expectation table
        // (run by `fido2kit vectors` and by the tests alike), the generator of the project's
        // own suite, and the machinery only tests and vectors need (a test PKI, deterministic
        // random bytes and PSS salts, the Belvo guide's sample payloads).
        .target(
            name: "Fido2Vectors",
            dependencies: [
                "Fido2Support", "Fido2Encoding", "Fido2CBOR", "Fido2Crypto", "Fido2WebAuthn",
                "Fido2WebAuthnWire",
                "Fido2Authenticator",
                "Fido2Belvo", "Fido2BelvoDevice",
            ]),
        .executableTarget(
            name: "fido2kit",
            dependencies: [
                "Fido2Support", "Fido2Encoding", "Fido2CBOR", "Fido2Crypto", "Fido2WebAuthn",
                "Fido2WebAuthnWire",
                "Fido2Authenticator",
                "Fido2Belvo", "Fido2BelvoDevice", "Fido2Vectors", "Fido2MetadataService",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test-only helpers: locating ../shared/vectors, hex literals, a loopback HTTP server.
        .target(
            name: "Fido2TestSupport", dependencies: ["Fido2Encoding", "Fido2Support"],
            path: "Tests/Fido2TestSupport"),
        // Test-only helpers for the WebAuthn and authenticator tests, in one place: expectations
        // on WebAuthnError, creation and request options, synthetic ceremonies, the device
        // attestation builders, the W3C vector accessors, the mutation oracle.
        .target(
            name: "Fido2WebAuthnTestSupport",
            dependencies: [
                "Fido2WebAuthn", "Fido2WebAuthnWire", "Fido2Authenticator", "Fido2TestSupport",
                "Fido2Vectors", "Fido2CBOR", "Fido2Crypto", "Fido2Encoding",
            ],
            path: "Tests/Fido2WebAuthnTestSupport"),
        .testTarget(
            name: "Fido2EncodingTests",
            dependencies: [
                "Fido2Encoding", "Fido2TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "Fido2CBORTests",
            dependencies: [
                "Fido2CBOR", "CLibCBOR", "Fido2Encoding", "Fido2TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "Fido2CryptoTests",
            dependencies: [
                "Fido2Crypto", "Fido2CBOR", "Fido2Encoding", "Fido2TestSupport", "Fido2Vectors",
            ]
        ),
        .testTarget(
            name: "Fido2WebAuthnTests",
            dependencies: [
                "Fido2WebAuthn", "Fido2WebAuthnWire", "Fido2Authenticator", "Fido2TestSupport",
                "Fido2WebAuthnTestSupport", "Fido2Vectors",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "Fido2AuthenticatorTests",
            dependencies: [
                "Fido2Authenticator", "Fido2WebAuthn", "Fido2WebAuthnWire", "Fido2TestSupport",
                "Fido2WebAuthnTestSupport", "Fido2Vectors",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        // Built on the public API alone (no SPI, nothing @testable): a user's credential store and
        // random source, throwing the library's errors through their public initializers.
        .testTarget(
            name: "Fido2ExternalConformanceTests",
            dependencies: [
                "Fido2Authenticator", "Fido2WebAuthn", "Fido2WebAuthnWire", "Fido2Crypto",
            ]
        ),
        .testTarget(
            name: "Fido2BelvoTests",
            dependencies: [
                "Fido2Support", "Fido2Belvo", "Fido2BelvoDevice", "Fido2WebAuthn",
                "Fido2WebAuthnWire",
                "Fido2Crypto", "Fido2Encoding",
                "Fido2TestSupport", "Fido2Vectors",
            ]
        ),
        // The metadata service against a loopback HTTP server serving BLOBs the tests sign.
        .testTarget(
            name: "Fido2MetadataServiceTests",
            dependencies: [
                "Fido2MetadataService", "Fido2WebAuthn", "Fido2Crypto", "Fido2Support",
                "Fido2TestSupport", "Fido2WebAuthnTestSupport", "Fido2Vectors",
            ]
        ),
        // The vector oracle's own machinery (deterministic random bytes and PSS salts) and
        // every vector suite, run through the same runners and expectation tables as
        // `fido2kit vectors verify`.
        .testTarget(
            name: "Fido2VectorsTests",
            dependencies: [
                "Fido2Vectors", "Fido2Crypto", "Fido2Encoding", "Fido2TestSupport",
            ]
        ),
    ]
)
