#!/usr/bin/env bash
# Builds and runs the consumer package: a package that depends on fido2kit by path, as a
# server would.
#   1. The README's quick start must be Sources/QuickStart/main.swift, byte for byte (the code
#      between the quick-start markers of README.md); `--update` rewrites the file from it.
#   2. The README's Package.swift (between its quick-start-package markers), exactly as written,
#      builds the quick start and runs it: a package in .build-readme/server beside a link named
#      fido2kit to this checkout, as a user's package beside a clone; an import whose product the
#      README does not name fails here.
#   3. QuickStart runs (registration and sign-in).
#   4. ConsumerContract runs every check of the ceremony contract; with TRANSCRIPT=FILE it also
#      writes ceremonies for Tests/Peers/ceremony.sh.
#   5. MetadataConsumer uses the Fido2MetadataService product on ../shared/mds's BLOB.
# Exits 1 on any difference or failure.
set -euo pipefail
cd "$(dirname "$0")"

readme=../../README.md
extracted="$(mktemp)"
extracted_package="$(mktemp)"
trap 'rm -f "$extracted" "$extracted_package"' EXIT
# The Swift code block between <!-- NAME:begin --> and <!-- NAME:end --> of README.md.
readme_block() {
    awk -v begin="<!-- $1:begin -->" -v end="<!-- $1:end -->" '
        index($0, begin) { inside = 1; next }
        index($0, end) { inside = 0 }
        inside && /^```swift$/ { code = 1; next }
        inside && code && /^```$/ { code = 0; next }
        inside && code { print }
    ' "$readme"
}
readme_block quick-start >"$extracted"
[ -s "$extracted" ] || { echo "consumer: no quick start between the markers of README.md" >&2; exit 1; }
readme_block quick-start-package >"$extracted_package"
[ -s "$extracted_package" ] || { echo "consumer: no Package.swift between the quick-start-package markers of README.md" >&2; exit 1; }
if [ "${1:-}" = "--update" ]; then
    cp "$extracted" Sources/QuickStart/main.swift
    echo "consumer: Sources/QuickStart/main.swift rewritten from README.md"
elif ! diff -u Sources/QuickStart/main.swift "$extracted"; then
    echo "consumer: README.md's quick start and Sources/QuickStart/main.swift differ (run.sh --update)" >&2
    exit 1
fi

# Copies a file only when it differs, so that an unchanged package is not rebuilt.
update() { cmp -s "$1" "$2" || cp "$1" "$2"; }
user_package=.build-readme/server
mkdir -p "$user_package/Sources/QuickStart"
ln -sfn ../../.. .build-readme/fido2kit
update "$extracted_package" "$user_package/Package.swift"
update "$extracted" "$user_package/Sources/QuickStart/main.swift"
swift build --package-path "$user_package" || {
    echo "consumer: README.md's Package.swift does not build its quick start" >&2
    exit 1
}
"$(swift build --package-path "$user_package" --show-bin-path)/QuickStart"

swift build
bin="$(swift build --show-bin-path)"
"$bin/QuickStart"
if [ -n "${TRANSCRIPT:-}" ]; then
    "$bin/ConsumerContract" --transcript "$TRANSCRIPT"
else
    "$bin/ConsumerContract"
fi
"$bin/MetadataConsumer" ../../../shared/mds
