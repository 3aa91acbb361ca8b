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
# Input that is not one CBOR item is refused (exit 1), saying what it looks like; a CBOR
# sequence needs --sequence.
input='hello' expect "cbor diag refuses ASCII text" 1 'not CBOR: declared length exceeds the remaining input at offset 0: declares 8 bytes, 4 bytes remain; the input is text, not binary CBOR' "$bin" cbor diag
input=$'1234\n' expect "cbor diag refuses text that decodes as several items" 1 'not one CBOR item: trailing bytes after the item at offset 1 (--sequence reads a CBOR sequence); the input is hexadecimal text (give --hex to read it)' "$bin" cbor diag
input='a201020304' expect "cbor diag: hexadecimal without --hex says to give --hex" 1 'give --hex' "$bin" cbor diag
input='The quick brown fox jumps over the lazy dog' expect "cbor diag refuses a sentence" 1 'the input is text, not binary CBOR' "$bin" cbor diag
input='a201020304 01' expect "cbor diag refuses bytes after the item" 1 'trailing bytes after the item at offset 5 (--sequence' "$bin" cbor diag --hex
input='a201020304 01' expect "cbor diag --sequence reads a CBOR sequence" 0 $'{1: 2, 3: 4}\n1' "$bin" cbor diag --hex --sequence
input='a201020304 01' expect "cbor diag --strict refuses bytes after the item" 1 'trailing bytes after the item at offset 5' "$bin" cbor diag --hex --strict
input=$'\x61\x62' expect "cbor diag: text that is one CBOR item is CBOR" 0 '"b"' "$bin" cbor diag
input=$'\x01\x02' expect "cbor canonical refuses bytes after the item" 1 'not one CBOR item: trailing bytes after the item at offset 1' "$bin" cbor canonical
input='hello' expect "cbor canonical refuses ASCII text" 1 'the input is text, not binary CBOR' "$bin" cbor canonical

# --version prints the one version string, a semantic version not below the CHANGELOG's latest
# release (a "## [X.Y.Z]" heading; none yet); usage errors exit 64 (EX_USAGE) with one line.
input='' expect "--version" 0 "" "$bin" --version
version="$("$bin" --version)"
if python3 - "$version" CHANGELOG.md <<'PY'
import re, sys
version, changelog = sys.argv[1], open(sys.argv[2]).read()
match = re.fullmatch(r"(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?", version)
assert match, f"{version!r} is not a semantic version"
released = [tuple(map(int, v)) for v in re.findall(r"^## \[(\d+)\.(\d+)\.(\d+)\]", changelog, re.M)]
mine = tuple(map(int, match.groups()[:3]))
latest = max(released, default=(0, 0, 0))
assert mine > latest or (mine == latest and match.group(4) is None), f"{version} is below {latest}"
PY
then passes=$((passes + 1)); else echo "FAIL --version: $version"; failures=$((failures + 1)); fi
input='' expect "an unknown option is a usage error" 64 "Unknown option '--bogus' (see 'fido2kit cbor diag --help')" "$bin" cbor diag --bogus
input='' expect "an unknown subcommand is a usage error" 64 "Unexpected argument 'bogus'" "$bin" bogus
input='' expect "a missing option is a usage error" 64 "Missing expected argument '--response <response>'" "$bin" verify registration --challenge AAAA --origin https://example.org --rp-id example.org
input='' expect "a value its type refuses is a usage error" 64 "The value 'many' is invalid for '--sign-count <sign-count>'" "$bin" verify assertion --response - --challenge AAAA --origin https://example.org --rp-id example.org --public-key AAAA --sign-count many
input='' expect "a challenge that is not base64url is a usage error" 64 '--challenge is not base64url' "$bin" verify registration --response - --challenge 'a+b/' --origin https://example.org --rp-id example.org
input='' expect "--help exits 0" 0 'Exit status: 0 on success' "$bin" --help

mkdir -p "$work/empty"
echo '{"unrelated": true}' > "$work/empty/other.json"
input='' expect "vectors verify on a path with no known suite" 1 'holds no vector suite' "$bin" vectors verify "$work/empty"
if [ -d ../shared/vectors ]; then
    input='' expect "vectors verify on one shared file" 0 '82 passed, 0 failed' "$bin" vectors verify ../shared/vectors/rfc8949-appendix-a.json
    input='' expect "a case its file cannot decide is reported, not passed" 0 'NOT JUDGED reg-029: expects "error: revoked certificate"' "$bin" vectors verify ../shared/vectors/real-registrations.json
    input='' expect "the last line counts it apart" 0 '62 passed, 0 failed, 2 not judged' "$bin" vectors verify ../shared/vectors/real-registrations.json
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
    input='' expect "verify registration with a bad --at is a usage error" 64 'not an ISO 8601 / RFC 3339 date-time' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --at yesterday
    for at in 2025-01-08T00:00:00 2025-01-08T00:00:00Z 2025-01-08T01:00:00.125+01:00 20250108T000000Z "2025-01-08 00:00:00"; do
        input='' expect "verify registration --at $at" 0 '"attestationType":"self"' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --at "$at"
    done
    input='' expect "verify registration: any of several --origin and --rp-id" 0 '"deviations":[]' "$bin" verify registration --response "$work/registration.json" --origin https://other.example --origin https://example.org --rp-id other.example --rp-id example.org --challenge "$registration_challenge"
    input='' expect "verify registration: an unknown --relax name is a usage error" 64 '--relax everything is not a relaxation (user-presence, backup-eligibility-change' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --relax everything
    input='' expect "verify registration: a known --relax name" 0 '"attestationType":"self"' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --relax user-presence --relax backup-eligibility-change
    input='' expect "verify registration: an unknown --allow-algorithm is a usage error" 64 '--allow-algorithm ES257 is not a COSE algorithm' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --allow-algorithm ES257
    input='' expect "verify registration: an unknown well-known root is a usage error" 64 'fido2kit ships no root named "Nope"' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --trust-anchor well-known:Nope
    input='' expect "verify registration --help lists the relaxations" 0 'safetynet-cts-profile' "$bin" verify registration --help
    printf 'not a CRL' > "$work/garbage.crl"
    input='' expect "verify registration with a bad --crl" 1 'garbage.crl: DER' "$bin" "${verify_registration[@]}" --challenge "$registration_challenge" --crl "$work/garbage.crl"
    # A base64url value may begin with "-" (one random challenge in 64 does): "--challenge -…"
    # takes the next argument whatever it looks like, as "--challenge=-…" does.
    dash_challenge="-${registration_challenge:1}"
    sed "s/$registration_challenge/$dash_challenge/; s/dXNlci0x/-XNlci0x/" "$work/create.json" > "$work/create-dash.json"
    "$bin" register --options "$work/create-dash.json" --origin https://example.org --store "$work/store" > "$work/registration-dash.json"
    dash_registration=(verify registration --response "$work/registration-dash.json" --origin https://example.org --rp-id example.org)
    input='' expect "verify registration --challenge -… (separate argument)" 0 '"attestationType":"none"' "$bin" "${dash_registration[@]}" --challenge "$dash_challenge"
    input='' expect "verify registration --challenge=-…" 0 '"attestationType":"none"' "$bin" "${dash_registration[@]}" "--challenge=$dash_challenge"
    input='' expect "verify registration --challenge -… before the other options" 0 '"attestationType":"none"' "$bin" verify registration --challenge "$dash_challenge" --response "$work/registration-dash.json" --origin https://example.org --rp-id example.org
    input='' expect "verify registration --challenge -… that differs fails at step 8, not on parsing" 1 '§7.1 step 8' "$bin" "${dash_registration[@]}" --challenge "-${assertion_challenge:1}"
    result="$("$bin" "${verify_registration[@]}" --challenge "$registration_challenge")"
    credential_id="$(printf '%s' "$result" | sed -E 's/.*"credentialId":"([^"]*)".*/\1/')"
    public_key="$(printf '%s' "$result" | sed -E 's/.*"publicKey":"([^"]*)".*/\1/')"
    printf '{"challenge":"%s","rpId":"example.org","allowCredentials":[{"type":"public-key","id":"%s"}]}' \
        "$assertion_challenge" "$credential_id" > "$work/get.json"
    "$bin" assert --options "$work/get.json" --origin https://example.org --store "$work/store" > "$work/assertion.json"
    verify_assertion=(verify assertion --response "$work/assertion.json" --challenge "$assertion_challenge" --rp-id example.org "--public-key=$public_key")
    input='' expect "verify assertion" 0 '"signCount":1,"userVerified":true,"backupState":false,"deviations":[]}' "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 0
    input='' expect "verify assertion names the credential and its user" 0 "{\"credentialId\":\"$credential_id\",\"userHandle\":\"dXNlci0x\"" "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 0 --user-handle dXNlci0x
    input='' expect "verify assertion --public-key and --user-handle as separate arguments" 0 "\"userHandle\":\"dXNlci0x\"" "$bin" verify assertion --response "$work/assertion.json" --challenge "$assertion_challenge" --rp-id example.org --public-key "$public_key" --user-handle dXNlci0x --origin https://example.org --sign-count 0
    input='' expect "verify assertion --user-handle -… is read, then compared" 1 '§7.2 step 6' "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 0 --user-handle -XNlci0x
    input='' expect "verify assertion refuses another user's handle" 1 '§7.2 step 6' "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 0 --user-handle dXNlci0y
    input='' expect "verify assertion accepts a counter that did not advance with --relax" 0 'sign-count-regression' "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 1 --relax sign-count-regression
    input='' expect "verify assertion names the failed step" 1 '§7.2 step 12' "$bin" "${verify_assertion[@]}" --origin https://example.com --sign-count 0
    input='' expect "verify assertion refuses a counter that did not advance" 1 '--relax sign-count-regression' "$bin" "${verify_assertion[@]}" --origin https://example.org --sign-count 1
else
    echo "FAIL register for the verify tests"
    failures=$((failures + 1))
fi

# options → register → verify registration, options → assert → verify assertion: no JSON written
# by hand; the states carry the challenges, RP ID and requirements.
e2e="$work/e2e"
mkdir -p "$e2e"
input='' expect "options registration" 0 '"rp":{"name":"Example","id":"example.org"},"user":{"id":"-XNlci0x","name":"alice","displayName":"Alice"},"challenge":"' "$bin" options registration --rp-id example.org --rp-name Example --user-name alice --display-name Alice --user-id -XNlci0x --state-out "$e2e/registration.state"
"$bin" options registration --rp-id example.org --user-name alice --user-id -XNlci0x --state-out "$e2e/registration.state" > "$e2e/create.json"
"$bin" options registration --rp-id example.org --user-name bob --state-out "$e2e/other.state" > /dev/null
if [ "$(stat -c %a "$e2e/registration.state")" = 600 ] && grep -q '"ceremony":"registration"' "$e2e/registration.state"; then
    passes=$((passes + 1))
else
    echo "FAIL options registration --state-out: not a mode 600 registration state"; failures=$((failures + 1))
fi
input='' expect "options registration --state-out - is a usage error" 64 'name a file' "$bin" options registration --rp-id example.org --user-name alice --state-out -
input='' expect "options registration: a user handle of 65 bytes is a usage error" 64 'a user handle has 1 to 64' "$bin" options registration --rp-id example.org --user-name alice --user-id "$(python3 -c 'print("A" * 87)')"
input='' expect "options registration --attestation maybe is a usage error" 64 'use none, indirect, direct or enterprise' "$bin" options registration --rp-id example.org --user-name alice --attestation maybe
if "$bin" register --options "$e2e/create.json" --origin https://example.org --store "$work/e2e-store" > "$e2e/registration.json"; then
    input='' expect "options → register → verify registration --state" 0 '"attestationType":"none"' "$bin" verify registration --response "$e2e/registration.json" --state "$e2e/registration.state" --origin https://example.org
    input='' expect "verify registration --state of another ceremony fails at step 8" 1 '§7.1 step 8' "$bin" verify registration --response "$e2e/registration.json" --state "$e2e/other.state" --origin https://example.org
    input='' expect "verify registration --state for another RP ID fails at step 1" 1 '§7.1 step 1' "$bin" verify registration --response "$e2e/registration.json" --state "$e2e/registration.state" --origin https://example.org --rp-id example.com
    input='' expect "verify registration --state with --challenge is a usage error" 64 'not both' "$bin" verify registration --response "$e2e/registration.json" --state "$e2e/registration.state" --challenge "$registration_challenge" --origin https://example.org
    input='' expect "verify registration --state with --allow-algorithm is a usage error" 64 'the algorithms come from --state' "$bin" verify registration --response "$e2e/registration.json" --state "$e2e/registration.state" --allow-algorithm RS1 --origin https://example.org
    input='' expect "verify registration with neither --challenge nor --state is a usage error" 64 'give --challenge or --state' "$bin" verify registration --response "$e2e/registration.json" --origin https://example.org --rp-id example.org
    result="$("$bin" verify registration --response "$e2e/registration.json" --state "$e2e/registration.state" --origin https://example.org)"
    credential_id="$(printf '%s' "$result" | sed -E 's/.*"credentialId":"([^"]*)".*/\1/')"
    public_key="$(printf '%s' "$result" | sed -E 's/.*"publicKey":"([^"]*)".*/\1/')"
    input='' expect "options authentication" 0 "\"allowCredentials\":[{\"type\":\"public-key\",\"id\":\"$credential_id\"}]" "$bin" options authentication --rp-id example.org --credential-id "$credential_id" --state-out "$e2e/authentication.state"
    "$bin" options authentication --rp-id example.org --credential-id "$credential_id" --state-out "$e2e/authentication.state" > "$e2e/get.json"
    "$bin" assert --options "$e2e/get.json" --origin https://example.org --store "$work/e2e-store" > "$e2e/assertion.json"
    verify_e2e=(verify assertion --response "$e2e/assertion.json" --origin https://example.org --public-key "$public_key" --sign-count 0)
    input='' expect "options → assert → verify assertion --state" 0 '"userHandle":"-XNlci0x","signCount":1,"userVerified":true' "$bin" "${verify_e2e[@]}" --state "$e2e/authentication.state"
    input='' expect "verify assertion --state of a registration is refused" 1 'the state is of "registration", not of authentication' "$bin" "${verify_e2e[@]}" --state "$e2e/registration.state"
    "$bin" options authentication --rp-id example.org --credential-id AAAA --state-out "$e2e/elsewhere.state" > /dev/null
    input='' expect "verify assertion --state that allowed another credential fails at step 5" 1 '§7.2 step 5' "$bin" "${verify_e2e[@]}" --state "$e2e/elsewhere.state"
    "$bin" options authentication --rp-id example.org --state-out "$e2e/discoverable.state" > "$e2e/discoverable.json"
    "$bin" assert --options "$e2e/discoverable.json" --origin https://example.org --store "$work/e2e-store" > "$e2e/discoverable-assertion.json"
    input='' expect "options authentication without --credential-id: a discoverable sign-in" 0 '"userHandle":"-XNlci0x","signCount":2' "$bin" verify assertion --response "$e2e/discoverable-assertion.json" --origin https://example.org --public-key "$public_key" --sign-count 1 --user-handle -XNlci0x --state "$e2e/discoverable.state"
else
    echo "FAIL register on the options of options registration"
    failures=$((failures + 1))
fi

# The compatible profile (default) reads a credential key out of canonical order and reports it;
# --strict refuses it and says how to accept it.
python3 -c 'import json,sys; c=[c for c in json.load(open(sys.argv[1]))["cases"] if c["id"]=="reg-neg-noncanonical-cose-key"][0]; json.dump(c["response"], open(sys.argv[2],"w")); print(c["relying_party"]["challenge"])' vectors/registrations.json "$work/noncanonical.json" > "$work/noncanonical.challenge"
if [ -s "$work/noncanonical.challenge" ]; then
    noncanonical=(verify registration --response "$work/noncanonical.json" --origin https://example.org --rp-id example.org "--challenge=$(cat "$work/noncanonical.challenge")")
    input='' expect "verify registration reports what the compatible profile tolerated" 0 'credentialPublicKey: map keys not in canonical order (offset 90; tolerated by the compatible profile)' "$bin" "${noncanonical[@]}"
    input='' expect "verify registration --strict refuses it and names the way out" 1 '§7.1 step 13: attestationObject.authData.attestedCredentialData.credentialPublicKey: CBOR: map keys not in canonical order' "$bin" "${noncanonical[@]}" --strict
    input='' expect "verify registration --strict says which profile reads it" 1 'without --strict' "$bin" "${noncanonical[@]}" --strict
else
    echo "FAIL register for the verify tests"
    failures=$((failures + 1))
fi

# belvo enroll / authorize and the demo: the guide's sample payloads.
cat > "$work/belvo-options.json" <<'JSON'
{"rp": {"id": "belvo.com", "name": "Raidiam Mockbank - Pipeline NRJ"},
 "user": {"id": "a5bd0ef9-f8ab-41a2-b968-489761a91de6", "name": "Ralph Bragg", "displayName": "Ralph Bragg"},
 "challenge": "R3dsT2REOE5oZ25JbVE",
 "pubKeyCredParams": [{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}],
 "extensions": {"appid": "true"}}
JSON
belvo_store="$work/belvo-store"
input='' expect "belvo enroll writes the confirm body" 0 '{"confirmation_data":{"authenticatorAttachment":"platform","id":"' "$bin" belvo enroll --fido-options "$work/belvo-options.json" --store "$belvo_store"
credential="$("$bin" belvo enroll --fido-options "$work/belvo-options.json" --store "$belvo_store" | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4)"
fido_options='{"rpId": "belvo.com", "timeout": 300000, "challenge": "oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4", "allowCredentials": [{"id": "CREDENTIAL", "type": "public-key"}]}'
printf '{"id": "pi-1", "status": "REQUIRES_ACTION", "payment_method_information": {"open_finance_biometric_pix": {"fido_options": %s}}}\n' "${fido_options/CREDENTIAL/$credential}" > "$work/belvo-intent.json"
printf '%s\n' "${fido_options/CREDENTIAL/AfD-uI4LUzJAuzyLBRrPncocLusMgZ8yHNuuUl-7NSFbBlqrW2rMF0D_Ao-orNqdX3YZVf8_wk1jj--HuNH1uKE}" > "$work/belvo-guide-fido-options.json"
printf '{"deviceId": "enc+/="}\n' > "$work/belvo-signals.json"
input='' expect "belvo authorize writes the authorize body" 0 '{"risk_signals":{"deviceId": "enc+/="},"assertion":{"authenticatorAttachment":"platform","id":"'"$credential"'"' "$bin" belvo authorize --payment-intent "$work/belvo-intent.json" --risk-signals "$work/belvo-signals.json" --store "$belvo_store"
# verify registration / verify assertion read the Belvo bodies as they are.
"$bin" belvo enroll --fido-options "$work/belvo-options.json" --store "$work/belvo-verify-store" > "$work/belvo-confirm.json"
belvo_verify=(verify registration --response "$work/belvo-confirm.json" --origin https://belvo.com --rp-id belvo.com)
input='' expect "verify registration reads the belvo enroll body" 0 '"fmt":"none"' "$bin" "${belvo_verify[@]}" --challenge R3dsT2REOE5oZ25JbVE
input='' expect "verify registration of the belvo enroll body checks its challenge" 1 '§7.1 step 8' "$bin" "${belvo_verify[@]}" --challenge R3dsT2REOE5oZ25JbVA
belvo_result="$("$bin" "${belvo_verify[@]}" --challenge R3dsT2REOE5oZ25JbVE)"
belvo_key="$(printf '%s' "$belvo_result" | sed -E 's/.*"publicKey":"([^"]*)".*/\1/')"
belvo_id="$(printf '%s' "$belvo_result" | sed -E 's/.*"credentialId":"([^"]*)".*/\1/')"
printf '%s\n' "${fido_options/CREDENTIAL/$belvo_id}" > "$work/belvo-verify-fido-options.json"
"$bin" belvo authorize --payment-intent "$work/belvo-verify-fido-options.json" --risk-signals "$work/belvo-signals.json" --store "$work/belvo-verify-store" > "$work/belvo-authorize.json"
input='' expect "verify assertion reads the belvo authorize body" 0 '"signCount":1,"userVerified":true' "$bin" verify assertion --response "$work/belvo-authorize.json" --challenge oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4 --origin https://belvo.com --rp-id belvo.com --public-key "$belvo_key" --sign-count 0
printf '{"confirmation_data": "not an object"}' > "$work/belvo-bad-body.json"
input='' expect "a body whose confirmation_data is no object is read as a response and refused" 1 '§7.1 step 3' "$bin" verify registration --response "$work/belvo-bad-body.json" --origin https://belvo.com --rp-id belvo.com --challenge R3dsT2REOE5oZ25JbVE
input='' expect "belvo enroll --help says how to verify its body" 0 'verifies the body as it is' "$bin" belvo enroll --help
store_before="$(cd "$belvo_store" && ls -a | sort && cat ./*.credential | sha256sum)"
input='' expect "belvo authorize: guide's credential is not on this device" 1 'noMatchingCredential' "$bin" belvo authorize --payment-intent "$work/belvo-guide-fido-options.json" --risk-signals "$work/belvo-signals.json" --store "$belvo_store"
sed 's/{"alg": -7, "type": "public-key"}/{"alg": -8, "type": "public-key"}/' "$work/belvo-options.json" > "$work/belvo-no-es256.json"
input='' expect "belvo enroll: no ES256 offered" 1 'unsupportedAlgorithms' "$bin" belvo enroll --fido-options "$work/belvo-no-es256.json" --store "$belvo_store"
input='{"rp": {}}' expect "belvo enroll: malformed options" 1 'malformedFidoOptions' "$bin" belvo enroll --fido-options - --store "$belvo_store"
input='' expect "belvo enroll: origin outside the RP ID" 1 'invalidOrigin' "$bin" belvo enroll --fido-options "$work/belvo-options.json" --store "$belvo_store" --origin https://merchant.example
input='["not an object"]' expect "belvo authorize: risk signals not an object" 1 'malformedRiskSignals' "$bin" belvo authorize --payment-intent "$work/belvo-intent.json" --risk-signals - --store "$belvo_store"
if [ "$(cd "$belvo_store" && ls -a | sort && cat ./*.credential | sha256sum)" = "$store_before" ]; then
    passes=$((passes + 1))
else
    echo "FAIL belvo: a refused command changed the credential store"
    failures=$((failures + 1))
fi
input='' expect "demo runs the guide's flow and verifies both bodies" 0 'demo passed' "$bin" demo
input='' expect "demo: --secret-id without --base-url is a usage error" 64 'need --base-url' "$bin" demo --secret-id x
input='' expect "demo: --base-url that is not http(s) is a usage error" 64 'is not an http or https URL' "$bin" demo --base-url ftp://example.com --secret-id x --secret-password y
input='' expect "demo: --base-url without a password is a usage error" 64 'needs --secret-password' env -u BELVO_SECRET_PASSWORD "$bin" demo --base-url http://127.0.0.1:9 --secret-id x
printf '{"os":"iOS"}' >"$work/no-device.json"
input='' expect "demo: risk signals without a deviceId are refused" 1 'carry no deviceId' "$bin" demo --risk-signals "$work/no-device.json"

# fido2kit's own suite: generate is reproducible and verifies; every runner fails a case whose
# data or expectation is altered, and a JSON file no runner knows fails too.
input='' expect "vectors generate" 0 'wrote registrations.json, authentications.json, belvo.json' "$bin" vectors generate --output "$work/own"
input='' expect "vectors verify on the generated suite" 0 '60 passed, 0 failed' "$bin" vectors verify "$work/own"
alter() { # alter FILE PYTHON: rewrites the JSON in FILE with PYTHON acting on `d`
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $2; json.dump(d, open(sys.argv[1], 'w'))" "$1"
}
mkdir -p "$work/altered" "$work/unknown"
cp "$work/own/registrations.json" "$work/unknown/"
echo '{"unrelated": true}' > "$work/unknown/other.json"
input='' expect "an unknown JSON file beside a suite fails" 1 'FAILED other.json: no runner knows' "$bin" vectors verify "$work/unknown"
cp "$work/own/registrations.json" "$work/altered/"
alter "$work/altered/registrations.json" 'd["cases"][0]["expected"]["sign_count"] = 1'
input='' expect "own suite: a wrong expected value fails" 1 'FAILED reg-es256-none: sign_count is 0, expected 1' "$bin" vectors verify "$work/altered"
cp "$work/own/registrations.json" "$work/altered/"
alter "$work/altered/registrations.json" 'c = d["cases"][19]; c["expected"] = {"result": "ok"}'
input='' expect "own suite: a negative case expected to verify fails" 1 'FAILED reg-neg-challenge: expected to verify' "$bin" vectors verify "$work/altered"
cp "$work/own/registrations.json" "$work/altered/"
alter "$work/altered/registrations.json" 'd["cases"][19]["expected"]["step"] = "§7.1 step 9"'
input='' expect "own suite: a failure at another step fails" 1 'failed with challengeMismatch at §7.1 step 8' "$bin" vectors verify "$work/altered"
rm "$work/altered/registrations.json"
cp "$work/own/belvo.json" "$work/altered/"
alter "$work/altered/belvo.json" 'b = d["cases"][1]["belvo"]["body"]; b["extra"] = b.pop("risk_signals")'
input='' expect "own suite: a Belvo body of another shape fails" 1 "FAILED belvo-authorize-payment: malformed case: the Belvo body's members are" "$bin" vectors verify "$work/altered"
rm "$work/altered/belvo.json"
if [ -d ../shared/vectors ]; then
    cp ../shared/vectors/webauthn-l3-test-vectors.json "$work/altered/"
    alter "$work/altered/webauthn-l3-test-vectors.json" 'v = d["cases"][0]["authentication"]["values"]; v["signature"] = v["signature"][:-2] + "00"'
    input='' expect "W3C: a changed signature fails" 1 'FAILED none-es256 authentication: re-signing does not reproduce' "$bin" vectors verify "$work/altered"
    cp ../shared/vectors/webauthn-l3-test-vectors.json "$work/altered/"
    alter "$work/altered/webauthn-l3-test-vectors.json" 'v = d["cases"][5]["registration"]["values"]; v["challenge"] = "00" + v["challenge"][2:]'
    input='' expect "W3C: a changed challenge fails" 1 'FAILED packed-es256 registration: rebuilt clientDataJSON differs' "$bin" vectors verify "$work/altered"
    rm "$work/altered/webauthn-l3-test-vectors.json"
    cp ../shared/vectors/real-registrations.json "$work/altered/"
    alter "$work/altered/real-registrations.json" 'd[:] = [c for c in d if c["case_id"] in ("reg-001", "reg-047")]; d[1]["expected_result"] = "ok"'
    input='' expect "real registrations: a rejected case expected ok fails" 1 'FAILED reg-047: expected ok' "$bin" vectors verify "$work/altered"
    rm "$work/altered/real-registrations.json"
    cp ../shared/vectors/real-authentications.json "$work/altered/"
    alter "$work/altered/real-authentications.json" 'd[:] = [c for c in d if c["case_id"] in ("auth-001", "auth-009")]; d[0]["expected_new_sign_count"] = 79'
    input='' expect "real authentications: a wrong new counter fails" 1 'FAILED auth-001: verified, but the new counter is 78, expected 79' "$bin" vectors verify "$work/altered"
    input='' expect "real authentications: ML-DSA passes with a note" 1 'note auth-009: ML-DSA credential' "$bin" vectors verify "$work/altered"
fi

# mds verify / mds show / verify registration --mds, on the production MDS3 BLOB no. 31.
if [ -d ../shared/mds ]; then
    mds=../shared/mds
    blob=(--blob "$mds/mds3-blob-31.jwt")
    r3=(--root "$mds/globalsign-root-r3.pem")
    input='' expect "mds verify: the production BLOB at 2023-09-15" 0 '"no":31,"nextUpdate":"2023-10-01","entries":174' "$bin" mds verify "${blob[@]}" "${r3[@]}" --at 2023-09-15
    input='' expect "mds verify: without --crl revocation is not checked" 0 '"revocationChecked":false,"stale":false' "$bin" mds verify "${blob[@]}" "${r3[@]}" --at 2023-09-15
    input='' expect "mds verify: the shipped root is the default" 0 '"entries":174' "$bin" mds verify "${blob[@]}" --at 2023-09-15
    input='' expect "mds verify: the fake conformance root" 1 'does not verify to the trust anchor' "$bin" mds verify "${blob[@]}" --root "$mds/fido-conformance-fake-root.pem" --at 2023-09-15
    input='' expect "mds verify: past nextUpdate" 1 'was due to be replaced on 2023-10-01' "$bin" mds verify "${blob[@]}" "${r3[@]}" --at 2023-10-02
    input='' expect "mds verify --allow-stale: past nextUpdate, said so" 0 '"revocationChecked":false,"stale":true' "$bin" mds verify "${blob[@]}" "${r3[@]}" --at 2023-10-02 --allow-stale
    input='' expect "mds verify --allow-stale: the chain is still judged" 1 'certificate expired' "$bin" mds verify "${blob[@]}" "${r3[@]}" --at 2024-08-01 --allow-stale
    input='' expect "mds verify: an expired chain without --at points to --at" 1 '--at checks the BLOB at an earlier time' "$bin" mds verify "${blob[@]}" "${r3[@]}"
    input='' expect "mds list: one line per entry, AAGUID, description, status" 0 'YubiKey 5 Series	FIDO_CERTIFIED_L1' "$bin" mds list "${blob[@]}" --at 2023-09-15
    input='' expect "mds fetch: nothing listening, nothing cached" 1 'no verified BLOB is held' "$bin" mds fetch --url http://127.0.0.1:1/ --cache "$work/mds-cache"
    input='' expect "mds fetch: not an http(s) URL is a usage error" 64 '--url is not an http(s) URL' "$bin" mds fetch --url ftp://example.org/ --cache "$work/mds-cache"
    input='' expect "mds reassess: no --record is a usage error" 64 'give at least one --record' "$bin" mds reassess "${blob[@]}" --at 2023-09-15
    input='' expect "mds verify: today (stale, signer expired)" 1 'mds3-blob-31.jwt' "$bin" mds verify "${blob[@]}" "${r3[@]}"
    input='' expect "mds verify: after the signer expired" 1 'certificate expired' "$bin" mds verify "${blob[@]}" "${r3[@]}" --at 2024-08-01
    input='' expect "mds verify: CRLs not current at the BLOB's date" 1 'unable to get certificate CRL' "$bin" mds verify "${blob[@]}" "${r3[@]}" --at 2023-09-15 --crl "$mds/globalsign-root-r3.crl"
    python3 - "$mds/mds3-blob-31.jwt" "$work/tampered.jwt" <<'PY'
import base64, sys
header, payload, signature = open(sys.argv[1]).read().strip().split(".")
body = bytearray(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
at = body.index(b"YubiKey 5 Series")
body[at] = ord("Z")
changed = base64.urlsafe_b64encode(bytes(body)).decode().rstrip("=")
open(sys.argv[2], "w").write(".".join([header, changed, signature]))
PY
    input='' expect "mds verify: one changed payload byte" 1 'signature does not verify' "$bin" mds verify --blob "$work/tampered.jwt" "${r3[@]}" --at 2023-09-15
    printf 'not a jws' > "$work/garbage.jwt"
    input='' expect "mds verify: not a JWS" 1 'garbage.jwt' "$bin" mds verify --blob "$work/garbage.jwt" "${r3[@]}" --at 2023-09-15
    input='' expect "mds show --aaguid" 0 '"description":"YubiKey 5 Series","aaguid":"cb69481e-8ff7-4039-93ec-0a2729a154a8"' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15 --aaguid cb69481e-8ff7-4039-93ec-0a2729a154a8
    input='' expect "mds show: latest status and level" 0 '"status":"FIDO_CERTIFIED_L1","certificationLevel":"FIDO_CERTIFIED_L1","attestationRootCertificates":1' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15 --aaguid cb69481e-8ff7-4039-93ec-0a2729a154a8
    input='' expect "mds show --key-id (any case)" 0 '"description":"NEOWAVE Winkeo FIDO2"' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15 --key-id 1434D2F277FE479C35DDF6AA4D08A07CBCE99DD7
    input='' expect "mds show: an unknown AAGUID" 1 'has no entry for AAGUID 00000000-0000-0000-0000-000000000001' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15 --aaguid 00000000-0000-0000-0000-000000000001
    input='' expect "mds show: an unknown key identifier" 1 'has no entry for key identifier' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15 --key-id ba967bcbddc4c3040ffba1ac69fce08ed8478136
    input='' expect "mds show: not a UUID is a usage error" 64 '--aaguid is not a UUID' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15 --aaguid yubikey
    input='' expect "mds show: neither --aaguid nor --key-id is a usage error" 64 'give exactly one of --aaguid and --key-id' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15
    input='' expect "mds show: both --aaguid and --key-id is a usage error" 64 'give exactly one of --aaguid and --key-id' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-09-15 --aaguid cb69481e-8ff7-4039-93ec-0a2729a154a8 --key-id 1434D2F277FE479C35DDF6AA4D08A07CBCE99DD7
    input='' expect "mds show: a stale BLOB is refused" 1 'was due to be replaced' "$bin" mds show "${blob[@]}" "${r3[@]}" --at 2023-10-02 --aaguid cb69481e-8ff7-4039-93ec-0a2729a154a8

    if [ -f ../shared/interop/peer-registrations.json ] && [ -f ../shared/vectors/real-registrations.json ]; then
        # registration CASE_ID FILE: writes $work/CASE_ID.json and sets `registration` to its verify options.
        registration() {
            python3 - "$2" "$1" "$work/$1.json" > "$work/$1.args" <<'PY'
import json, sys
case = next(c for c in json.load(open(sys.argv[1])) if c["case_id"] == sys.argv[2])
json.dump(case["credential"], open(sys.argv[3], "w"))
print(case["expected_challenge"]); print(case["expected_origin"]); print(case["expected_rp_id"])
PY
            local lines
            mapfile -t lines < "$work/$1.args"
            registration=(verify registration --response "$work/$1.json" "--challenge=${lines[0]}" --origin "${lines[1]}" --rp-id "${lines[2]}" --at 2023-09-15)
        }
        withmds=(--mds "$mds/mds3-blob-31.jwt" --mds-root "$mds/globalsign-root-r3.pem")
        registration preg-007 ../shared/interop/peer-registrations.json
        input='' expect "verify registration --mds: packed YubiKey 5 Nano" 0 '"trustPath":"verified","metadata":{"description":"YubiKey 5 Series","status":"FIDO_CERTIFIED_L1"' "$bin" "${registration[@]}" "${withmds[@]}"
        input='' expect "verify registration --mds: the shipped MDS root is the default" 0 '"trustPath":"verified"' "$bin" "${registration[@]}" --mds "$mds/mds3-blob-31.jwt"
        input='' expect "verify registration --mds: the verdict names the metadata" 0 '"attestationTrust":"verified-metadata"' "$bin" "${registration[@]}" --mds "$mds/mds3-blob-31.jwt"
        input='' expect "verify registration --mds: a BLOB to the wrong root" 1 'does not verify to the trust anchor' "$bin" "${registration[@]}" --mds "$mds/mds3-blob-31.jwt" --mds-root "$mds/fido-conformance-fake-root.pem"
        input='' expect "verify registration --mds: a tampered BLOB" 1 'signature does not verify' "$bin" "${registration[@]}" --mds "$work/tampered.jwt"
        input='' expect "verify registration: --mds-permissive without --mds is a usage error" 64 'need --mds' "$bin" "${registration[@]}" --mds-permissive
        registration preg-001 ../shared/interop/peer-registrations.json
        input='' expect "verify registration --mds: fido-u2f YubiKey NEO by key identifier" 0 '"trustPath":"verified","metadata":{"description":"YubiKey NEO","status":"FIDO_CERTIFIED"' "$bin" "${registration[@]}" "${withmds[@]}"
        registration reg-042 ../shared/vectors/real-registrations.json
        input='' expect "verify registration --mds: fido-u2f Security Key by Yubico" 0 '"trustPath":"verified","metadata":{"description":"Security Key by Yubico with NFC"' "$bin" "${registration[@]}" "${withmds[@]}"
        registration preg-046 ../shared/interop/peer-registrations.json
        input='' expect "verify registration --mds: an unlisted authenticator fails (strict)" 1 'lists no authenticator with AAGUID da776f39-f6c8-4a89-b252-1d86137a46ba' "$bin" "${registration[@]}" "${withmds[@]}"
        input='' expect "verify registration --mds-permissive: not evaluated" 0 '"trustPath":"notEvaluated","metadata":null' "$bin" "${registration[@]}" "${withmds[@]}" --mds-permissive
        input='' expect "verify registration --mds-permissive: a chain that reached no anchor is unverified" 0 '"attestationTrust":"unverified"' "$bin" "${registration[@]}" "${withmds[@]}" --mds-permissive

        # BLOBs signed here by a throwaway RS256 CA (openssl), listing the YubiKey 5 Nano's
        # entry with a refused status, or nothing; judged now, which the Yubico chain allows.
        if command -v openssl >/dev/null; then
            pki="$work/mds-pki"
            mkdir -p "$pki"
            openssl req -x509 -newkey rsa:2048 -nodes -keyout "$pki/root.key" -out "$pki/root.pem" -days 30 -subj "/CN=fido2kit CLI test MDS root" -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout "$pki/signer.key" -out "$pki/signer.csr" -subj "/CN=fido2kit CLI test MDS signer" 2>/dev/null
            printf 'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\n' > "$pki/signer.ext"
            openssl x509 -req -in "$pki/signer.csr" -CA "$pki/root.pem" -CAkey "$pki/root.key" -CAcreateserial -out "$pki/signer.pem" -days 30 -extfile "$pki/signer.ext" 2>/dev/null
            python3 - "$mds/mds3-blob-31.jwt" "$pki" <<'PY'
import base64, json, subprocess, sys
def b64url(data): return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
payload = open(sys.argv[1]).read().strip().split(".")[1]
production = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
entry = next(e for e in production["entries"] if e.get("aaguid") == "cb69481e-8ff7-4039-93ec-0a2729a154a8")
pki = sys.argv[2]
der = subprocess.run(["openssl", "x509", "-in", pki + "/signer.pem", "-outform", "DER"], capture_output=True, check=True).stdout
header = b64url(json.dumps({"alg": "RS256", "typ": "JWT", "x5c": [base64.b64encode(der).decode()]}).encode())
for name, status, number in [("revoked", "REVOKED", 40), ("compromise", "USER_KEY_PHYSICAL_COMPROMISE", 41), ("empty", None, 42)]:
    listed = dict(entry, statusReports=[{"status": status}] + entry["statusReports"]) if status else None
    body = b64url(json.dumps({"no": number, "nextUpdate": "2099-01-01", "entries": [listed] if listed else []}).encode())
    signature = subprocess.run(["openssl", "dgst", "-sha256", "-sign", pki + "/signer.key"], input=(header + "." + body).encode(), capture_output=True, check=True).stdout
    open(f"{pki}/{name}.jwt", "w").write(header + "." + body + "." + b64url(signature))
PY
            registration preg-007 ../shared/interop/peer-registrations.json
            now=("${registration[@]:0:${#registration[@]}-2}")
            input='' expect "mds verify: a BLOB signed by another root" 0 '"no":40,"nextUpdate":"2099-01-01","entries":1' "$bin" mds verify --blob "$pki/revoked.jwt" --root "$pki/root.pem"
            input='' expect "mds show: the latest status is the refused one" 0 '"status":"REVOKED"' "$bin" mds show --blob "$pki/revoked.jwt" --root "$pki/root.pem" --aaguid cb69481e-8ff7-4039-93ec-0a2729a154a8
            input='' expect "verify registration --mds: a REVOKED authenticator fails, naming it" 1 'reports REVOKED, which the policy refuses' "$bin" "${now[@]}" --mds "$pki/revoked.jwt" --mds-root "$pki/root.pem"
            input='' expect "verify registration --mds: a key compromise fails, naming it" 1 'reports USER_KEY_PHYSICAL_COMPROMISE' "$bin" "${now[@]}" --mds "$pki/compromise.jwt" --mds-root "$pki/root.pem"
            input='' expect "verify registration --mds: no entry fails (strict)" 1 'the metadata BLOB (no 42) lists no authenticator with AAGUID cb69481e' "$bin" "${now[@]}" --mds "$pki/empty.jwt" --mds-root "$pki/root.pem"
            input='' expect "verify registration --mds-permissive: no entry, not evaluated" 0 '"trustPath":"notEvaluated","metadata":null' "$bin" "${now[@]}" --mds "$pki/empty.jwt" --mds-root "$pki/root.pem" --mds-permissive
        fi
    fi
fi

echo "CLI: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
