#!/usr/bin/env bash
# What py_webauthn and python-fido2 say of every positive registration of the interop corpus.
#
# For every case of peer-registrations.json (or of any real-registrations.json-schema file
# given) whose expected_result is "ok", asks py_webauthn (PyPI `webauthn`,
# verify_registration_response) and python-fido2 (PyPI `fido2`, Fido2Server.register_complete)
# whether they accept it, each configured as the case's source configured its relying party as
# far as the peer can be (Tests/Peers/interop.py says how, and where it cannot). Prints one line
# per case and a total per peer. A report, not a gate: exits 0 whatever the peers say.
#
# Usage: Tests/Peers/interop.sh [--json OUT] [PATH ...]
#   PATH: a directory (its peer-registrations.json; default ../shared/interop) or a file in the
#   real-registrations.json schema, e.g. ../shared/vectors/real-registrations.json.
#   --json OUT writes {case_id: {"py_webauthn"|"python-fido2": {"accepted", "reason"}}}.
# Needs python3 with venv; shares the .build-peers/venv of Tests/Peers/run.sh (same pins).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build-peers/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import webauthn, fido2, cryptography' 2>/dev/null; then
    echo "interop peers: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "webauthn==3.0.1" "fido2==2.2.1" "cryptography==50.0.2"
fi

exec "$venv/bin/python" Tests/Peers/interop.py "$@"
