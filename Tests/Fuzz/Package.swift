// swift-tools-version: 6.1
// fido2kit fuzz targets (libFuzzer). A package of its own, depending on the root package by
// path, so normal builds never see the sanitizer flags or libFuzzer. Build and run with
// `Tests/Fuzz/run.sh TARGET SECONDS`; `Tests/Fuzz/ci.sh SECONDS` runs every target.
//
// Every target is an executable whose `@main` type conforms to `FuzzTarget` (FuzzSupport), which
// starts libFuzzer's driver. The flag `-sanitize=fuzzer,address` comes from the command line
// (run.sh), so the library modules are instrumented for coverage too. Adding a target is adding
// `Sources/fuzz-<name>/<Name>Fuzzer.swift` (its header names its dictionary and seed kinds) and
// a line in `fuzzTargets`.
import PackageDescription

let encoding = Target.Dependency.product(name: "Fido2Encoding", package: "fido2kit")
let cbor = Target.Dependency.product(name: "Fido2CBOR", package: "fido2kit")
let crypto = Target.Dependency.product(name: "Fido2Crypto", package: "fido2kit")
let webAuthn = Target.Dependency.product(name: "Fido2WebAuthn", package: "fido2kit")
let wire = Target.Dependency.product(name: "Fido2WebAuthnWire", package: "fido2kit")
let belvo = Target.Dependency.product(name: "Fido2Belvo", package: "fido2kit")

/// Each fuzz target and what it links.
let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
    ("cbor-strict", [cbor]),
    ("cbor-lenient", [cbor]),
    // Its LibCBOR.swift links to the property tests' bridge, so both read libcbor alike.
    ("cbor-libcbor", [cbor, "CLibCBOR"]),
    ("json", [encoding]),
    ("base64", [encoding]),
    ("client-data", [encoding, webAuthn, wire]),
    ("webauthn-json", [encoding, webAuthn, wire]),
    ("cose-key", [cbor, crypto]),
    ("spki", [crypto]),
    ("jwk", [crypto]),
    ("ecdsa-signature", [crypto]),
    ("belvo", [encoding, belvo]),
    ("authenticator-data", [cbor, crypto, webAuthn, wire]),
    ("attestation-object", [cbor, webAuthn, wire]),
    ("attestation-verify", [cbor, crypto, webAuthn, wire]),
    ("relying-party", [crypto, webAuthn, wire]),
    ("der", [crypto]),
    ("x509", [crypto, "FuzzPKI"]),
    ("crl", [crypto, "FuzzPKI"]),
    ("metadata-payload", [webAuthn, wire]),
]

let package = Package(
    name: "fido2kit-fuzz",
    dependencies: [.package(name: "fido2kit", path: "../..")],
    targets: [
        // libcbor, the differential oracle: a link to the root package's test-only target of the
        // same name, which is not a product and so cannot be depended on.
        .systemLibrary(name: "CLibCBOR", pkgConfig: "libcbor", providers: [.apt(["libcbor-dev"])]),
        // libFuzzer's driver entry point (a header only; -sanitize=fuzzer links the runtime).
        .systemLibrary(name: "CFuzzerDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CFuzzerDriver", cbor, encoding]),
        // The X.509 and CRL targets' certificate authority, built with the public builders.
        .target(name: "FuzzPKI", dependencies: [crypto]),
    ]
        + fuzzTargets.map { target in
            .executableTarget(
                name: "fuzz-\(target.name)", dependencies: ["FuzzSupport"] + target.dependencies)
        }
)
