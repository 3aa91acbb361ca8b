/// The version `fido2kit --version` prints: the one place it is written.
///
/// Semantic Versioning: the release the next tag will carry, with `-dev` until it is tagged.
/// CHANGELOG.md names each released version in a `## [X.Y.Z]` heading; Tests/CLI/run.sh checks
/// that this version is not below the latest of them.
enum Fido2KitVersion {
    static let current = "0.1.0-dev"
}
