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
        .executable(name: "passkey-server", targets: ["PasskeyServer"]),
        // The load tool of docs/examples/PasskeyServer/README.md's performance section.
        .executable(name: "passkey-load", targets: ["PasskeyLoad"]),
    ],
    dependencies: [
        .package(name: "fido2kit", path: "../../.."),
        // An application pins its dependencies to a minor version: a new minor release is
        // taken on purpose, not by the next `swift package update`. Package.resolved is not
        // committed (this machine's package mirror has its own commit ids).
        .package(
            url: "https://github.com/apple/swift-argument-parser.git",
            .upToNextMinor(from: "1.8.2")),
        .package(url: "https://github.com/groue/GRDB.swift.git", .upToNextMinor(from: "7.10.0")),
        // Without its default traits, Hummingbird does not build swift-configuration.
        .package(
            url: "https://github.com/hummingbird-project/hummingbird.git",
            .upToNextMinor(from: "2.28.1"), traits: []),
        // NIO directly: the connection guard is a channel handler (NIOCore, on the HTTP parts
        // of NIOHTTPTypes), the rate limit's table a locked box (NIOConcurrencyHelpers).
        .package(url: "https://github.com/apple/swift-nio.git", .upToNextMinor(from: "2.101.0")),
        .package(
            url: "https://github.com/apple/swift-nio-extras.git", .upToNextMinor(from: "1.35.2")),
        .package(
            url: "https://github.com/apple/swift-http-types.git", .upToNextMinor(from: "1.8.0")),
        // PostgreSQL beside SQLite (`--database postgres://…`), for several instances behind a
        // load balancer.
        .package(url: "https://github.com/vapor/postgres-nio.git", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log.git", .upToNextMinor(from: "1.16.2")),
    ],
    targets: [
        .executableTarget(
            name: "PasskeyServer",
            dependencies: [
                .product(name: "Fido2WebAuthn", package: "fido2kit"),
                // HMAC for the decoy credential IDs and base64url for IDs in URLs and cookies.
                .product(name: "Fido2Crypto", package: "fido2kit"),
                .product(name: "Fido2Encoding", package: "fido2kit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Page")]
        ),
        // A bounded loopback load: sign-ups and sign-ins with fido2kit's software authenticator.
        .executableTarget(
            name: "PasskeyLoad",
            dependencies: [
                .product(name: "Fido2Authenticator", package: "fido2kit"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
    ]
)
