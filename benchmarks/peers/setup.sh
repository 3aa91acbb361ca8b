#!/bin/sh
# Makes (or reuses) the virtual environment of the WebAuthn peers the benchmark drives:
# py_webauthn (PyPI `webauthn`) and python-fido2 (PyPI `fido2`), the same pins as
# Tests/Peers/run.sh, in the same place (.build-peers/venv at the repository root), so CI's venv
# serves both. fido2kit-bench looks for it there (or at FIDO2KIT_PEERS_VENV) and skips the peer
# scenarios, saying so, when it is missing.
#
# Pins: webauthn 3.0.1, fido2 2.2.1 and cryptography 50.0.2 (which carries OpenSSL 4.0.3, the
# OpenSSL the peers' figures in docs/performance.md are measured on); a venv with other versions
# is rebuilt. POSIX sh: runs under `sh` and `bash` alike.
#
# Usage: benchmarks/peers/setup.sh [VENV]   (or: sh benchmarks/peers/setup.sh [VENV])
set -eu
cd "$(dirname "$0")/../.."

venv="${1:-${FIDO2KIT_PEERS_VENV:-.build-peers/venv}}"
pinned_check='
from importlib.metadata import version
import sys
pins = {"webauthn": "3.0.1", "fido2": "2.2.1", "cryptography": "50.0.2"}
sys.exit(any(version(name) != pin for name, pin in pins.items()))
'
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "$pinned_check" 2>/dev/null; then
    echo "peers: reusing $venv" >&2
else
    echo "peers: creating $venv" >&2
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "webauthn==3.0.1" "fido2==2.2.1" "cryptography==50.0.2"
fi
"$venv/bin/python" - <<'PY'
from importlib.metadata import version
print(f"peers: webauthn {version('webauthn')}, fido2 {version('fido2')}, "
      f"cryptography {version('cryptography')}")
PY
