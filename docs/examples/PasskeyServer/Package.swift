// swift-tools-version: 6.1
// passkey-server: a runnable example of fido2kit's relying party behind a real web server.
// Hummingbird 2 serves a page and a JSON API, GRDB keeps users, credential records and ceremony
// states in SQLite. Its own package, depending on fido2kit by path, so that users of the
// library never build a web server (as benchmarks/ and Tests/Consumer do).
//
//   swift run -c release --package-path docs/examples/PasskeyServer passkey-server
//
// SQLite comes from the system: `apt-get install libsqlite3-dev` on Debian.
import PackageDescription

let package = Package(
    name: "PasskeyServer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "passkey-server", targets: ["PasskeyServer"])
    ],
    dependencies: [
        .package(name: "fido2kit", path: "../../.."),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        // Without its default traits, Hummingbird does not build swift-configuration.
        .package(
            url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1",
            traits: []),
    ],
    targets: [
        .executableTarget(
            name: "PasskeyServer",
            dependencies: [
                .product(name: "Fido2WebAuthn", package: "fido2kit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Page")]
        )
    ]
)
