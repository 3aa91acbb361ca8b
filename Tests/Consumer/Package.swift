// swift-tools-version: 6.1
// A package that uses fido2kit as any server would, by path: the README's quick start
// (Sources/QuickStart, kept equal to the README by run.sh) and a program written only against
// the ceremony contract of issue 19 (Sources/ConsumerContract), and the metadata service through
// its own product (Sources/MetadataConsumer). Built and run by run.sh in CI.
import PackageDescription

let package = Package(
    name: "fido2kit-consumer",
    dependencies: [.package(name: "fido2kit", path: "../..")],
    targets: [
        .executableTarget(
            name: "QuickStart",
            dependencies: [
                .product(name: "Fido2WebAuthn", package: "fido2kit"),
                .product(name: "Fido2Authenticator", package: "fido2kit"),
            ]),
        .executableTarget(
            name: "ConsumerContract",
            dependencies: [
                .product(name: "Fido2WebAuthn", package: "fido2kit"),
                .product(name: "Fido2Authenticator", package: "fido2kit"),
            ]),
        .executableTarget(
            name: "MetadataConsumer",
            dependencies: [
                .product(name: "Fido2WebAuthn", package: "fido2kit"),
                .product(name: "Fido2MetadataService", package: "fido2kit"),
            ]),
    ]
)
