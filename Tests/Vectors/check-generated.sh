#!/usr/bin/env bash
# fido2kit's own vector suite is reproducible: `fido2kit vectors generate` run twice writes the
# same bytes, and those are the bytes committed in vectors/.
# Usage: Tests/Vectors/check-generated.sh path/to/fido2kit
set -euo pipefail
cd "$(dirname "$0")/../.."
bin="${1:?usage: Tests/Vectors/check-generated.sh path/to/fido2kit}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin" vectors generate --output "$work/first" >/dev/null
"$bin" vectors generate --output "$work/second" >/dev/null
diff -r "$work/first" "$work/second" || { echo "vectors: two runs of generate differ" >&2; exit 1; }
diff -r vectors "$work/first" || { echo "vectors: vectors/ is not what generate writes (run fido2kit vectors generate)" >&2; exit 1; }
echo "vectors: generate reproduces vectors/ byte for byte ($(ls vectors | wc -l) files)"
