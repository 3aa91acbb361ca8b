#!/usr/bin/env bash
# Runs `fido2kit demo --base-url` against the independent stand-in (server.py beside this
# file), a Belvo Payments API double written from the integration guide alone.
# Usage: Tests/Belvo/independent/run.sh BIN     (BIN = the fido2kit binary)
# PYTHON overrides the interpreter (default: .build-peers/venv/bin/python at the repo root,
# which must have py_webauthn installed).
set -euo pipefail

if [ $# -ne 1 ]; then echo "usage: $0 FIDO2KIT_BINARY" >&2; exit 2; fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
PY=${PYTHON:-$ROOT/.build-peers/venv/bin/python}
[ -x "$BIN" ] || { echo "FAIL: no executable $BIN" >&2; exit 2; }
"$PY" -c 'import webauthn' 2>/dev/null || { echo "FAIL: $PY lacks py_webauthn" >&2; exit 2; }

TMP=$(mktemp -d)
SPID=""
cleanup() {
  if [ -n "$SPID" ] && kill -0 "$SPID" 2>/dev/null; then kill "$SPID" 2>/dev/null || true; wait "$SPID" 2>/dev/null || true; fi
  rm -rf "$TMP"
}
trap cleanup EXIT
START=$(date +%s)

rand() { "$PY" -c 'import secrets,sys; print(secrets.token_urlsafe(int(sys.argv[1])))' "$1"; }
uuid() { "$PY" -c 'import uuid; print(uuid.uuid4())'; }
SECRET_ID=$(uuid)
SECRET_PW=$(rand 24)
CUSTOMER=$(uuid)
ACCOUNT=$(uuid)

"$PY" "$HERE/server.py" --secret-id "$SECRET_ID" --secret-password "$SECRET_PW" \
  --customer-id "$CUSTOMER" --beneficiary-bank-account "$ACCOUNT" \
  --require-uv --complaints "$TMP/complaints.json" >"$TMP/server.out" 2>"$TMP/server.err" &
SPID=$!
for _ in $(seq 100); do [ -s "$TMP/server.out" ] && break; sleep 0.1; done
PORT=$("$PY" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["port"])' "$TMP/server.out") \
  || { echo "FAIL: the stand-in did not start"; cat "$TMP/server.err"; exit 1; }
URL="http://127.0.0.1:$PORT"

snapshot() { "$PY" -c 'import sys,urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1]+"/__complaints").read().decode())' "$URL"; }

# 1. The whole enrollment and payment, with the stand-in's own customer and account ids.
set +e
env -u BELVO_SECRET_ID -u BELVO_SECRET_PASSWORD \
  BELVO_CUSTOMER_ID="$CUSTOMER" BELVO_BENEFICIARY_BANK_ACCOUNT="$ACCOUNT" \
  timeout 90 "$BIN" demo --base-url "$URL" --secret-id "$SECRET_ID" --secret-password "$SECRET_PW" \
  >"$TMP/demo.out" 2>&1
RC=$?
set -e
snapshot >"$TMP/positive.json"
if [ $RC -ne 0 ]; then
  echo "FAIL: demo exited $RC against the independent stand-in"; cat "$TMP/demo.out"
  echo "--- stand-in saw:"; cat "$TMP/positive.json"; exit 1
fi
"$PY" - "$TMP/positive.json" "$TMP/demo.out" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["counts"]
problems = []
if s["complaints"]:
    problems.append(f"complaints: {json.dumps(s['complaints'], indent=1)}")
for key in ("enrollments-created", "bank-approvals", "complete-redirection", "fido-options-served",
            "confirm-accepted", "payment-intents-created", "authorize-accepted"):
    if c.get(key) != 1:
        problems.append(f"{key}: {c.get(key)} (want 1)")
if c.get("fido-options-polls", 0) < 2:
    problems.append("the demo did not poll fido-registration-options past the first 'not yet'")
if [e["status"] for e in s["enrollments"].values()] != ["SUCCEEDED"]:
    problems.append(f"enrollment statuses: {s['enrollments']}")
if [i["status"] for i in s["payment_intents"].values()] != ["SUCCEEDED"]:
    problems.append(f"payment intent statuses: {s['payment_intents']}")
if problems:
    print("FAIL: the stand-in did not see a clean enrollment and payment:")
    print("\n".join(problems)); print("--- demo output:"); print(open(sys.argv[2]).read())
    sys.exit(1)
print("ok: demo enrolled and paid against the independent stand-in; counts", json.dumps(c, sort_keys=True))
if s["notes"]:
    print("notes:", s["notes"])
PYEOF

# 2. A wrong secret: the demo must fail and say it was an authentication error.
set +e
env -u BELVO_SECRET_ID -u BELVO_SECRET_PASSWORD \
  BELVO_CUSTOMER_ID="$CUSTOMER" BELVO_BENEFICIARY_BANK_ACCOUNT="$ACCOUNT" \
  timeout 60 "$BIN" demo --base-url "$URL" --secret-id "$SECRET_ID" --secret-password "wrong-$SECRET_PW" \
  >"$TMP/wrong.out" 2>&1
RC=$?
set -e
if [ $RC -eq 0 ]; then echo "FAIL: demo with a wrong secret exited 0"; cat "$TMP/wrong.out"; exit 1; fi
if [ $RC -eq 124 ]; then echo "FAIL: demo with a wrong secret hung"; cat "$TMP/wrong.out"; exit 1; fi
if ! grep -qiE 'authentication[ _](error|failed)|unauthori[sz]ed|HTTP 401' "$TMP/wrong.out"; then
  echo "FAIL: demo with a wrong secret failed ($RC) without naming an authentication error:"; cat "$TMP/wrong.out"; exit 1
fi
echo "ok: a wrong secret fails the demo (exit $RC): $(grep -iE 'authentication[ _](error|failed)|unauthori[sz]ed|HTTP 401' "$TMP/wrong.out" | head -1)"

# The stand-in's complaints since the positive run must be only the rejected credentials,
# and the wrong secret must not have created anything. SIGTERM writes the final record.
kill "$SPID"; wait "$SPID" 2>/dev/null || true; SPID=""
"$PY" - "$TMP/positive.json" "$TMP/complaints.json" <<'PYEOF'
import json, sys
before, after = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
extra = after["complaints"][len(before["complaints"]):]
bad = [x for x in extra if x["code"] != "authentication_failed"]
if not extra or bad:
    print("FAIL: after the wrong secret the stand-in recorded", json.dumps(extra, indent=1)); sys.exit(1)
for key in ("enrollments-created", "payment-intents-created"):
    if after["counts"].get(key) != before["counts"].get(key):
        print(f"FAIL: the wrong secret still got {key}"); sys.exit(1)
print(f"ok: the stand-in refused the wrong secret ({len(extra)} x 401) and recorded nothing else")
PYEOF
# 3. The checks bite: a stand-in that expects another WebAuthn origin must refuse the
#    demo's registration (py_webauthn's verification is not a formality).
"$PY" "$HERE/server.py" --secret-id "$SECRET_ID" --secret-password "$SECRET_PW" \
  --customer-id "$CUSTOMER" --beneficiary-bank-account "$ACCOUNT" --origin https://not-belvo.example \
  >"$TMP/server2.out" 2>"$TMP/server2.err" &
SPID=$!
for _ in $(seq 100); do [ -s "$TMP/server2.out" ] && break; sleep 0.1; done
URL="http://127.0.0.1:$("$PY" -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["port"])' "$TMP/server2.out")"
set +e
env -u BELVO_SECRET_ID -u BELVO_SECRET_PASSWORD \
  BELVO_CUSTOMER_ID="$CUSTOMER" BELVO_BENEFICIARY_BANK_ACCOUNT="$ACCOUNT" \
  timeout 60 "$BIN" demo --base-url "$URL" --secret-id "$SECRET_ID" --secret-password "$SECRET_PW" \
  >"$TMP/origin.out" 2>&1
RC=$?
set -e
snapshot >"$TMP/origin.json"
if [ $RC -eq 0 ]; then echo "FAIL: demo passed against a stand-in expecting another origin"; exit 1; fi
"$PY" - "$TMP/origin.json" <<'PYEOF'
import json, sys
s = json.load(open(sys.argv[1]))
hits = [x for x in s["complaints"] if x["code"] == "invalid_confirmation_data" and "origin" in x["message"].lower()]
if len(s["complaints"]) != 1 or not hits or s["counts"].get("confirm-accepted"):
    print("FAIL: a foreign origin was not refused at confirm:", json.dumps(s["complaints"], indent=1)); sys.exit(1)
print("ok: a stand-in expecting another origin refuses the confirm:", hits[0]["message"])
PYEOF

echo "PASS: independent Belvo stand-in ($(( $(date +%s) - START )) s)"
