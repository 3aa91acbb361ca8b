#!/usr/bin/env bash
# Peer verification of the Belvo Biometric Pix bodies.
#
# Makes a confirm-enrollment body with `fido2kit belvo enroll` from the guide's registration
# options and authorize-payment bodies with `fido2kit belvo authorize` from the guide's payment
# fido_options, and has py_webauthn (PyPI `webauthn`) verify the bodies' `confirmation_data`
# (verify_registration_response) and `assertion` (verify_authentication_response) with the
# options' challenge, rp.id and the default origin https://belvo.com (and once with --origin).
# Exits 1 on any failure.
#
# Usage: Tests/Peers/belvo.sh            (builds fido2kit in release mode unless FIDO2KIT is set)
#        FIDO2KIT=/path/to/fido2kit Tests/Peers/belvo.sh
# Uses the venv Tests/Peers/run.sh makes (.build-peers/venv), creating it the same way if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build-peers/venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import webauthn' 2>/dev/null; then
    echo "belvo peers: creating $venv" >&2
    python3 -m venv "$venv"
    # The same pins as Tests/Peers/run.sh.
    "$venv/bin/pip" install -q "webauthn==3.0.1" "fido2==2.2.1" "cryptography==50.0.2"
fi

if [ -z "${FIDO2KIT:-}" ]; then
    swift build -c release --product fido2kit >&2
    FIDO2KIT="$(swift build -c release --show-bin-path)/fido2kit"
fi

exec "$venv/bin/python" Tests/Peers/belvo.py "$FIDO2KIT"
