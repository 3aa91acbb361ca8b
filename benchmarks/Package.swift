// swift-tools-version: 6.1
// fido2kit's benchmarks: every hot path measured side by side with its peer (libcbor, a plain C
// loop over the same OpenSSL calls, swift-crypto) in one process and one run, so every claim is a
// ratio measured under the same conditions. Its own package, so users of the library never build
// benchmark dependencies.
//
//   swift run -c release --package-path benchmarks fido2kit-bench
import PackageDescription

let package = Package(
    name: "fido2kit-benchmarks",
    dependencies: [
        .package(name: "fido2kit", path: ".."),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
    ],
    targets: [
        // The peers, written the way a C programmer would use each library.
        .target(
            name: "CPeers",
            linkerSettings: [.linkedLibrary("cbor"), .linkedLibrary("crypto")]
        ),
        // Counts malloc-family calls made while counting is on (interposes glibc's malloc).
        .target(name: "CAllocationCounter"),
        // Timing, interleaving, allocation counting and ratio targets.
        .target(name: "BenchmarkHarness", dependencies: ["CAllocationCounter"]),
        .executableTarget(
            name: "fido2kit-bench",
            dependencies: [
                "BenchmarkHarness", "CPeers",
                .product(name: "Fido2CBOR", package: "fido2kit"),
                .product(name: "Fido2Crypto", package: "fido2kit"),
                .product(name: "Fido2WebAuthn", package: "fido2kit"),
                .product(name: "Fido2WebAuthnWire", package: "fido2kit"),
                .product(name: "Fido2Authenticator", package: "fido2kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
)
