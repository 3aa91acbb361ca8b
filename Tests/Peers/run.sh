#!/usr/bin/env bash
# Peer verification of fido2kit's software authenticator.
#
# Makes registrations and assertions with `fido2kit register` / `fido2kit assert` for ES256,
# RS256 and EdDSA × attestation none, packed self, packed with a certificate chain (plus
# fido-u2f for ES256), and has three independent verifiers check every one:
#   - py_webauthn  (PyPI `webauthn`): verify_registration_response / verify_authentication_response
#   - python-fido2 (PyPI `fido2`):    Fido2Server.register_complete / authenticate_complete
#   - libfido2     (Debian `fido2-tools`): fido2-cred -V / fido2-assert -V
# A combination a peer cannot check is printed as "n/a" with the reason and is not a pass.
# Exits 1 on any real failure.
#
# Usage: Tests/Peers/run.sh            (builds fido2kit in release mode unless FIDO2KIT is set)
#        FIDO2KIT=/path/to/fido2kit Tests/Peers/run.sh
# Needs python3 with venv (and fido2-tools): .ci/install-deps installs both.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build-peers/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import webauthn, fido2, cryptography' 2>/dev/null; then
    echo "peers: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "webauthn==3.0.1" "fido2==2.2.1" "cryptography==50.0.2"
fi
for tool in fido2-cred fido2-assert; do
    command -v "$tool" >/dev/null || { echo "peers: $tool missing (apt fido2-tools; .ci/install-deps)" >&2; exit 1; }
done

if [ -z "${FIDO2KIT:-}" ]; then
    swift build -c release --product fido2kit >&2
    FIDO2KIT="$(swift build -c release --show-bin-path)/fido2kit"
fi

exec "$venv/bin/python" Tests/Peers/peers.py "$FIDO2KIT"
