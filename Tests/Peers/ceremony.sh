#!/usr/bin/env bash
# Independent relying parties judge fido2kit's begin/finish ceremonies.
#
# Runs the consumer package (Tests/Consumer/run.sh: the README quick start and the ceremony
# contract) with TRANSCRIPT set, then has python-fido2 read the options beginRegistration and
# beginAuthentication wrote and py_webauthn and python-fido2 verify the responses to them
# (Tests/Peers/ceremony.py). Exits 1 on any failure.
#
# Usage: Tests/Peers/ceremony.sh
# Shares the .build-peers/venv of Tests/Peers/run.sh (same pins).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build-peers/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import webauthn, fido2, cryptography' 2>/dev/null; then
    echo "ceremony peers: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "webauthn==3.0.1" "fido2==2.2.1" "cryptography==50.0.2"
fi

transcript="$(pwd)/.build-peers/ceremonies.json"
mkdir -p .build-peers
TRANSCRIPT="$transcript" Tests/Consumer/run.sh
exec "$venv/bin/python" Tests/Peers/ceremony.py "$transcript"
