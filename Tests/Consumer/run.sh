#!/usr/bin/env bash
# Builds and runs the consumer package: a package that depends on fido2kit by path, as a
# server would.
#   1. The README's quick start must be Sources/QuickStart/main.swift, byte for byte (the code
#      between the quick-start markers of README.md); `--update` rewrites the file from it.
#   2. QuickStart runs (registration and sign-in).
#   3. ConsumerContract runs every check of the ceremony contract; with TRANSCRIPT=FILE it also
#      writes ceremonies for Tests/Peers/ceremony.sh.
# Exits 1 on any difference or failure.
set -euo pipefail
cd "$(dirname "$0")"

readme=../../README.md
extracted="$(mktemp)"
trap 'rm -f "$extracted"' EXIT
awk '
    /<!-- quick-start:begin -->/ { inside = 1; next }
    /<!-- quick-start:end -->/ { inside = 0 }
    inside && /^```swift$/ { code = 1; next }
    inside && code && /^```$/ { code = 0; next }
    inside && code { print }
' "$readme" >"$extracted"
[ -s "$extracted" ] || { echo "consumer: no quick start between the markers of README.md" >&2; exit 1; }
if [ "${1:-}" = "--update" ]; then
    cp "$extracted" Sources/QuickStart/main.swift
    echo "consumer: Sources/QuickStart/main.swift rewritten from README.md"
elif ! diff -u Sources/QuickStart/main.swift "$extracted"; then
    echo "consumer: README.md's quick start and Sources/QuickStart/main.swift differ (run.sh --update)" >&2
    exit 1
fi

swift build
bin="$(swift build --show-bin-path)"
"$bin/QuickStart"
if [ -n "${TRANSCRIPT:-}" ]; then
    "$bin/ConsumerContract" --transcript "$TRANSCRIPT"
else
    "$bin/ConsumerContract"
fi
