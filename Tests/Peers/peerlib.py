"""What the peer scripts (peers.py, vectors.py, belvo.py) share: base64 forms, the CBOR byte
string fido2-tools read authData as, running fido2-cred / fido2-assert, and python-fido2's
attestation verifier with one trust anchor."""

import base64
import os
import subprocess
import tempfile

from fido2.attestation import Attestation, AttestationVerifier, verify_x509_chain


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def cbor_byte_string(data: bytes) -> bytes:
    """authData wrapped as a CBOR byte string, as fido2-cred/fido2-assert read it."""
    n = len(data)
    if n < 24:
        head = bytes([0x40 | n])
    elif n < 256:
        head = bytes([0x58, n])
    else:
        head = bytes([0x59, n >> 8, n & 0xff])
    return head + data


def run_tool(arguments, lines):
    """Runs fido2-cred or fido2-assert on `lines` (written to a temporary input file); the
    arguments end with the type operand, which goes after `-i FILE`. Raises RuntimeError with
    the tool's message when it refuses."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
        path = handle.name
    try:
        result = subprocess.run(arguments[:-1] + ["-i", path] + arguments[-1:],
                                capture_output=True, text=True)
    finally:
        os.unlink(path)
    if result.returncode != 0:
        raise RuntimeError(" ".join((result.stderr or result.stdout or "failed").split())[:150])
    return result.stdout


class ChainVerifier(AttestationVerifier):
    """python-fido2: verifies the statement, and walks its trust path to `anchor` (a DER
    certificate, or None when the case has none) when it has one."""

    def __init__(self, anchor):
        super().__init__()
        self.anchor = anchor
        self.result = None

    def ca_lookup(self, result, auth_data):
        return self.anchor

    def verify_attestation(self, attestation_object, client_data_hash):
        verifier = Attestation.for_type(attestation_object.fmt)()
        result = verifier.verify(attestation_object.att_stmt, attestation_object.auth_data,
                                 client_data_hash)
        if result.trust_path:
            if self.anchor is None:
                raise ValueError("a trust path but no anchor")
            verify_x509_chain(result.trust_path + [self.anchor])
        self.result = result
