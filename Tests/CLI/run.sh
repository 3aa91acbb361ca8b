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

# verify registration / verify assertion, on a credential the software authenticator makes.
registration_challenge=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8
assertion_challenge=ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8
printf '{"rp":{"id":"example.org","name":"Example"},"user":{"id":"dXNlci0x","name":"alice","displayName":"Alice"},"challenge":"%s","pubKeyCredParams":[{"type":"public-key","alg":-7}]}' \
    "$registration_challenge" > "$work/create.json"
if "$bin" register --options "$work/create.json" --origin https://example.org --store "$work/store" \
    --attestation packed > "$work/registration.json"; then
    verify_registration=(verify registration --response "$work/registration.json" --origin https://example.org --rp-id example.org)
    input='' expect "verify registration" 0 '"attestationType":"self"' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge"
    input='' expect "verify registration names the failed step" 1 '§7.1 step 8' "$bin" "${verify_registration[@]}" --challenge "$assertion_challenge"
    input='' expect "verify registration with a bad --at" 1 'not an ISO 8601 time' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --at yesterday
    result="$("$bin" "${verify_registration[@]}" --challenge "$registration_challenge")"
    credential_id="$(printf '%s' "$result" | sed -E 's/.*"credentialId":"([^"]*)".*/\1/')"
    public_key="$(printf '%s' "$result" | sed -E 's/.*"publicKey":"([^"]*)".*/\1/')"
    printf '{"challenge":"%s","rpId":"example.org","allowCredentials":[{"type":"public-key","id":"%s"}]}' \
        "$assertion_challenge" "$credential_id" > "$work/get.json"
    "$bin" assert --options "$work/get.json" --origin https://example.org --store "$work/store" > "$work/assertion.json"
    verify_assertion=(verify assertion --response "$work/assertion.json" --challenge "$assertion_challenge" --rp-id example.org "--public-key=$public_key")
    input='' expect "verify assertion" 0 '{"signCount":1,"userVerified":true,"backupState":false}' "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 0
    input='' expect "verify assertion names the failed step" 1 '§7.2 step 12' "$bin" "${verify_assertion[@]}" --origin https://example.com --sign-count 0
    input='' expect "verify assertion refuses a counter that did not advance" 1 '§7.2 step 22' "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 1
else
    echo "FAIL register for the verify tests"
    failures=$((failures + 1))
fi

echo "CLI: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
