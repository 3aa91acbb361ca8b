#!/usr/bin/env bash
# Peer verification of fido2kit's own vector suite (vectors/), and the table in docs/vectors.md.
#
# Every positive case of vectors/ must be accepted, and every negative case rejected, by:
#   - py_webauthn  (PyPI `webauthn`): verify_registration_response / verify_authentication_response
#   - python-fido2 (PyPI `fido2`):    Fido2Server.register_complete / authenticate_complete
#   - libfido2     (Debian `fido2-tools`): fido2-cred -V / fido2-assert -V
# where the peer supports the case's algorithm and format; a case a peer cannot judge is "n/a"
# with the reason, and a negative case a peer accepts because it does not implement the rule is
# listed with the reason (Tests/Peers/vectors.py, PEER_GAPS). Any other disagreement fails.
# The results table between the markers in docs/vectors.md is rewritten from this run: commit
# it, and CI checks it is current with `git diff --exit-code docs/vectors.md`.
#
# Usage: Tests/Peers/vectors.sh [VECTORS_DIR [DOC]]   (defaults: vectors docs/vectors.md)
# Needs python3 with venv and fido2-tools (.ci/install-deps installs both); shares the
# .build-peers/venv of Tests/Peers/run.sh (same pins).
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build-peers/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import webauthn, fido2, cryptography, cbor2' 2>/dev/null; then
    echo "vectors peers: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "webauthn==3.0.1" "fido2==2.2.1" "cryptography==50.0.2"
fi
for tool in fido2-cred fido2-assert; do
    command -v "$tool" >/dev/null || { echo "vectors peers: $tool missing (apt fido2-tools; .ci/install-deps)" >&2; exit 1; }
done

exec "$venv/bin/python" Tests/Peers/vectors.py "${1:-vectors}" "${2:-docs/vectors.md}"
