#!/usr/bin/env bash
# `fido2kit demo` over HTTP against Tests/Belvo/standin.py, a stand-in for Belvo's Payments API on
# loopback that checks every request and verifies the confirm and authorize payloads with
# fido2kit's relying party. Runs the whole flow (flags, then environment credentials with the
# caller's risk signals, then a bank that needs a person and --callback-url), then the failures a
# merchant meets first (wrong secret, nothing listening), and fails if the stand-in complained
# about any request of the successful runs.
#
# Usage: Tests/Belvo/run.sh FIDO2KIT_BINARY
#        RUN_CLIENT_TEST=1 Tests/Belvo/run.sh BIN   also runs docs/belvo.md's merchant test
#                                                   (SandboxFlowTests; needs a `swift test` build)
#        STANDIN_VERIFIER=py_webauthn STANDIN_PYTHON=.build-peers/venv/bin/python Tests/Belvo/run.sh BIN
#   The second form has py_webauthn (an independent relying party) verify the payloads instead of
#   fido2kit, and runs the first flow only.
set -euo pipefail
verifier="${STANDIN_VERIFIER:-fido2kit}"
python="${STANDIN_PYTHON:-python3}"
case "$python" in /*) ;; */*) python="$(pwd)/$python" ;; esac
bin="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
cd "$(dirname "$0")"
work="$(mktemp -d)"
standin=""
cleanup() {
    if [ -n "$standin" ]; then kill "$standin" 2>/dev/null || true; wait "$standin" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

"$python" standin.py --fido2kit "$bin" --verifier "$verifier" --secret-id ci-secret-id --secret-password 'ci-secret-pw:with colon' \
    --port-file "$work/port" 2>"$work/standin.log" &
standin=$!
for _ in $(seq 1 100); do [ -s "$work/port" ] && break; sleep 0.1; done
[ -s "$work/port" ] || { cat "$work/standin.log" >&2; echo "belvo: the stand-in did not start" >&2; exit 1; }
url="http://127.0.0.1:$(cat "$work/port")"
failed=0

run() {  # run NAME EXPECTED_STATUS EXPECTED_TEXT COMMAND…
    local name="$1" want="$2" text="$3"; shift 3
    local status=0
    "$@" >"$work/out" 2>"$work/err" || status=$?
    if [ "$status" != "$want" ] || ! grep -q -- "$text" "$work/out" "$work/err"; then
        echo "FAIL $name: exit $status (want $want), expected \"$text\"" >&2
        tail -n 30 "$work/out" "$work/err" >&2
        failed=1
    else
        echo "ok   $name"
    fi
}

run "demo over HTTP with --secret-id/--secret-password" 0 "demo passed: 15 steps" \
    "$bin" demo --base-url "$url" --secret-id ci-secret-id --secret-password 'ci-secret-pw:with colon'
grep -q "OVER HTTP" "$work/out" && grep -q "/bank/approved" "$work/out" \
    || { echo "FAIL the demo did not say it went over HTTP through the bank's redirects" >&2; failed=1; }

if [ "$verifier" = fido2kit ]; then
printf '{"deviceId":"ci-device-%s","accountTenure":"2024-03-07","os":"iOS 18"}\n' "$$" >"$work/signals.json"
BELVO_SECRET_ID=ci-secret-id BELVO_SECRET_PASSWORD='ci-secret-pw:with colon' \
    run "demo over HTTP with BELVO_SECRET_* and --risk-signals" 0 "demo passed: 15 steps" \
    "$bin" demo --base-url "$url" --risk-signals "$work/signals.json"
grep -q "ci-device-$$" "$work/out" || { echo "FAIL the list-enrollments step did not use the signals' deviceId" >&2; failed=1; }

run "demo over HTTP, a person approves at the bank (--callback-url)" 0 "demo passed: 15 steps" \
    "$bin" demo --base-url "$url" --secret-id ci-secret-id --secret-password 'ci-secret-pw:with colon' \
    --callback-url 'https://merchant.example/manual/callback?state=manual&code=manual&id_token=eyJ9.e30.'

fi

if [ -n "${RUN_CLIENT_TEST:-}" ]; then
    python3 - ../../docs/belvo.md ../Fido2BelvoTests/SandboxFlowTests.swift <<'PY' \
        && echo "ok   docs/belvo.md shows SandboxFlowTests.swift byte for byte" \
        || { echo "FAIL docs/belvo.md's merchant test differs from Tests/Fido2BelvoTests/SandboxFlowTests.swift" >&2; failed=1; }
import sys
docs, test = (open(name).read() for name in sys.argv[1:])
sys.exit(0 if "```swift\n" + test + "```\n" in docs else 1)
PY
    # docs/belvo.md's merchant test (BelvoClient, no fido2kit binary), built by an earlier
    # `swift test`, pointed at the stand-in instead of Belvo's sandbox.
    (cd ../.. && BELVO_BASE_URL="$url" BELVO_SECRET_ID=ci-secret-id BELVO_SECRET_PASSWORD='ci-secret-pw:with colon' \
        BELVO_CUSTOMER_ID=c0ffee00-0000-4000-8000-000000000001 BELVO_BENEFICIARY_BANK_ACCOUNT=ci-account \
        swift test --skip-build --filter SandboxFlowTests) >"$work/out" 2>&1 && grep -q "enrollsAndPaysInBelvosSandbox() passed" "$work/out" \
        && echo "ok   docs/belvo.md's merchant test (SandboxFlowTests) enrolls and pays against the stand-in" \
        || { echo "FAIL docs/belvo.md's merchant test against the stand-in" >&2; tail -n 30 "$work/out" >&2; failed=1; }
fi

complaints="$(python3 -c 'import json,sys,urllib.request; print("\n".join(json.load(urllib.request.urlopen(sys.argv[1]))))' "$url/_standin/complaints")"
if [ -n "$complaints" ]; then
    echo "FAIL the stand-in complained about the demo's requests:" >&2
    echo "$complaints" >&2
    failed=1
else
    echo "ok   the stand-in accepted every request (method, path, credentials, members, $verifier's FIDO verification)"
fi

if [ "$verifier" = fido2kit ]; then

run "a wrong secret is the SDK's authenticationError, HTTP 401" 1 "authentication error.*HTTP 401" \
    "$bin" demo --base-url "$url" --secret-id ci-secret-id --secret-password wrong
run "--base-url without credentials is a usage error" 64 "needs --secret-id" "$bin" demo --base-url "$url"
kill "$standin"; wait "$standin" 2>/dev/null || true; standin=""
run "nothing listening is the SDK's networkError" 1 "network error" \
    "$bin" demo --base-url "$url" --secret-id a --secret-password b
fi

[ "$failed" = 0 ] || { echo "belvo: the demo over HTTP failed; stand-in log:" >&2; tail -n 40 "$work/standin.log" >&2; exit 1; }
echo "belvo: the demo ran over HTTP against the stand-in (payloads verified by $verifier)"
