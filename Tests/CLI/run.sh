#!/usr/bin/env bash
# Command-line contract tests for the fido2kit binary: outputs, exit codes and one-line errors.
# Usage: Tests/CLI/run.sh [path/to/fido2kit]   (default: builds and uses the debug binary)
set -uo pipefail
cd "$(dirname "$0")/../.."
bin="${1:-}"
if [ -z "$bin" ]; then
    swift build --product fido2kit >/dev/null || exit 1
    bin="$(swift build --show-bin-path)/fido2kit"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
passes=0

# expect NAME EXPECTED_EXIT EXPECTED_STDOUT_SUBSTRING COMMAND...   (stdin from $input)
expect() {
    local name="$1" code="$2" needle="$3"
    shift 3
    local out err status
    out="$(printf '%s' "${input:-}" | "$@" 2>"$work/stderr")"
    status=$?
    err="$(cat "$work/stderr")"
    if [ "$status" -ne "$code" ]; then
        echo "FAIL $name: exit $status, expected $code (stderr: $err)"
        failures=$((failures + 1))
    elif [ -n "$needle" ] && [[ "$out$err" != *"$needle"* ]]; then
        echo "FAIL $name: output lacks '$needle': $out $err"
        failures=$((failures + 1))
    elif [ "$code" -ne 0 ] && [ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ]; then
        echo "FAIL $name: a failure must print exactly one line on stderr, got: $err"
        failures=$((failures + 1))
    else
        passes=$((passes + 1))
    fi
}

input='a201020304' expect "cbor diag --hex" 0 '{1: 2, 3: 4}' "$bin" cbor diag --hex
input='bf61610161629f0203ffff' expect "cbor diag shows indefinite lengths" 0 '{_ "a": 1, "b": [_ 2, 3]}' "$bin" cbor diag --hex
input='bf6161f5ff' expect "cbor canonical --hex" 0 'a16161f5' "$bin" cbor canonical --hex
input='a2020001 00' expect "cbor canonical sorts keys" 0 'a201000200' "$bin" cbor canonical --hex
input='9fff' expect "cbor diag --strict rejects indefinite lengths" 1 'indefinite-length item not allowed at offset 0' "$bin" cbor diag --strict --hex
input='a201020103' expect "cbor canonical refuses duplicate keys" 1 'duplicate map key' "$bin" cbor canonical --hex
input='9b7fffffffffffffff' expect "hostile length fails fast" 1 'declared length exceeds the remaining input at offset 0' "$bin" cbor diag --hex
input='zz' expect "bad hex" 1 'invalid hex character' "$bin" cbor diag --hex
input=$'\xa1\x61\x61\xf5' expect "binary stdin" 0 '{"a": true}' "$bin" cbor diag
input='' expect "empty input" 1 'input ends inside an item' "$bin" cbor diag --hex

mkdir -p "$work/empty"
echo '{"unrelated": true}' > "$work/empty/other.json"
input='' expect "vectors verify on a path with no known suite" 1 'holds no vector suite' "$bin" vectors verify "$work/empty"
if [ -d ../shared/vectors ]; then
    input='' expect "vectors verify on one shared file" 0 '82 passed, 0 failed' "$bin" vectors verify ../shared/vectors/rfc8949-appendix-a.json
fi

echo "CLI: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
