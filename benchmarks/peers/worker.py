"""The WebAuthn peers' side of fido2kit-bench: a long-lived worker driven over a pipe.

fido2kit-bench (benchmarks/Sources/BenchmarkHarness/PeerProcess.swift) starts one worker per
competitor with the venv's python and speaks a line protocol over its stdin and stdout, one
request line and one answer line at a time:

    load SCENARIO LIBRARY PATH   parse the input file once and keep what the library lets a
                                 caller keep between calls (the stored public key, the
                                 expected challenge, the server and its trust anchors)
                                 -> "ok LIBRARY-VERSION" | "error MESSAGE"
    run N                        verify the loaded input N times, each call parsing the response
                                 JSON text and verifying it in full, as a relying party would
                                 -> "ok N" | "error MESSAGE" (the first failure stops the batch)
    quit                         exit

SCENARIO is `assertion` (verify an AuthenticationResponseJSON with a stored COSE key),
`registration` (verify a RegistrationResponseJSON: none, packed self, packed with x5c or tpm;
the statement decides), `mds3` (verify and index a FIDO MDS3 BLOB; python-fido2 only, see
below) or `noop` (N calls of a function that does nothing: the pipe round-trip and the loop,
measured the same way as the others). LIBRARY is `py_webauthn` (PyPI `webauthn`) or
`python-fido2` (PyPI `fido2`).

For `mds3` the input file is JSON: {"blobPath": the compact JWS file, "rootPEM": the trust
anchor, "entries": the number of entries the BLOB must have}. The BLOB bytes and the root's
DER are read once at load; each call is `fido2.mds3.parse_blob(blob, root_der)` (the x5c chain
to the root by signatures only, no validity period, and the RS256 signature, then every entry
deserialized into MetadataBlobPayloadEntry) followed by `MdsAttestationVerifier(payload)`
(python-fido2's index: its AAGUID and key identifier tables, revoked entries filtered out).
parse_blob takes no time and checks none: neither the certificates' validity nor `nextUpdate`.
A call whose payload has another number of entries fails.

The input file is JSON: {"response": the response JSON as a string (the exact bytes fido2kit
verifies), "challenge": base64url, "origin", "rpId", "requireUserVerification": bool,
"publicKey": COSE_Key base64url and "signCount": int (assertions), "rootPEM": a PEM root the
attestation chain must reach, or null for statement-only verification}.

Settings, as Tests/Peers/interop.py sets them for recorded registrations:
  - py_webauthn: verify_authentication_response / verify_registration_response with every
    algorithm it knows but RS1; `pem_root_certs_bytes_by_fmt` with the root for the statement's
    format when there is one (chain validated by pyOpenSSL at the current time), none otherwise
    (statement only for packed and tpm).
  - python-fido2: one Fido2Server (attestation "direct", exact-origin check) whose attestation
    verifier checks the statement and, with a root, the chain to it (verify_x509_chain);
    register_complete / authenticate_complete with the stored AttestedCredentialData.
"""

import base64
import json
import sys
from importlib.metadata import version


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# MARK: py_webauthn

def py_webauthn(scenario, spec):
    from webauthn import verify_authentication_response, verify_registration_response
    from webauthn.helpers.cose import COSEAlgorithmIdentifier
    from webauthn.helpers.structs import AttestationFormat

    response = spec["response"]
    challenge = unb64u(spec["challenge"])
    origin, rp_id = spec["origin"], spec["rpId"]
    require_uv = bool(spec.get("requireUserVerification"))
    if scenario == "assertion":
        public_key = unb64u(spec["publicKey"])
        sign_count = int(spec["signCount"])

        def verify():
            verify_authentication_response(
                credential=response, expected_challenge=challenge, expected_rp_id=rp_id,
                expected_origin=origin, credential_public_key=public_key,
                credential_current_sign_count=sign_count, require_user_verification=require_uv)
        return verify

    algorithms = [a for a in COSEAlgorithmIdentifier if a != -65535]
    fmt = json_format(response)
    roots = ({AttestationFormat(fmt): [spec["rootPEM"].encode()]} if spec.get("rootPEM")
             else None)

    def verify():
        verify_registration_response(
            credential=response, expected_challenge=challenge, expected_rp_id=rp_id,
            expected_origin=origin, require_user_verification=require_uv,
            supported_pub_key_algs=algorithms, pem_root_certs_bytes_by_fmt=roots)
    return verify


def json_format(response):
    """The statement format of a registration response, read once at load."""
    from webauthn.helpers import parse_attestation_object
    credential = json.loads(response)
    return parse_attestation_object(unb64u(credential["response"]["attestationObject"])).fmt


# MARK: python-fido2

def python_fido2(scenario, spec):
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from fido2.attestation import Attestation, AttestationVerifier, verify_x509_chain
    from fido2.cose import CoseKey
    from fido2.server import Fido2Server
    from fido2.webauthn import (
        Aaguid, AttestedCredentialData, PublicKeyCredentialRpEntity, UserVerificationRequirement)

    class Verifier(AttestationVerifier):
        """The statement, then the trust path to `anchor` when there is one."""

        def __init__(self, anchor):
            super().__init__()
            self.anchor = anchor

        def ca_lookup(self, result, auth_data):
            return self.anchor

        def verify_attestation(self, attestation_object, client_data_hash):
            statement = Attestation.for_type(attestation_object.fmt)()
            result = statement.verify(attestation_object.att_stmt, attestation_object.auth_data,
                                      client_data_hash)
            if self.anchor is not None:
                if not result.trust_path:
                    raise ValueError("no trust path to check against the root")
                verify_x509_chain(result.trust_path + [self.anchor])

    response = spec["response"]
    origin = spec["origin"]
    anchor = None
    if spec.get("rootPEM"):
        anchor = x509.load_pem_x509_certificate(spec["rootPEM"].encode()).public_bytes(
            serialization.Encoding.DER)
    server = Fido2Server(
        PublicKeyCredentialRpEntity(id=spec["rpId"], name="fido2kit-bench"),
        attestation="direct", verify_origin=lambda o: o == origin,
        verify_attestation=Verifier(anchor))
    state = {"challenge": spec["challenge"],
             "user_verification": UserVerificationRequirement.REQUIRED
             if spec.get("requireUserVerification") else UserVerificationRequirement.PREFERRED}
    if scenario == "assertion":
        credential_id = unb64u(json.loads(response)["rawId"])
        key = CoseKey.parse(cbor_loads(unb64u(spec["publicKey"])))
        credentials = [AttestedCredentialData.create(Aaguid.NONE, credential_id, key)]

        def verify():
            server.authenticate_complete(state, credentials, json.loads(response))
        return verify

    def verify():
        server.register_complete(state, json.loads(response))
    return verify


def python_fido2_mds3(spec):
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from fido2.mds3 import MdsAttestationVerifier, parse_blob

    with open(spec["blobPath"], "rb") as handle:
        blob = handle.read().strip()
    root = x509.load_pem_x509_certificate(spec["rootPEM"].encode()).public_bytes(
        serialization.Encoding.DER)
    expected = int(spec["entries"])

    def verify():
        payload = parse_blob(blob, root)
        if len(payload.entries) != expected:
            raise ValueError(f"{len(payload.entries)} entries, not {expected}")
        MdsAttestationVerifier(payload)
    return verify


def cbor_loads(data):
    from fido2 import cbor
    return cbor.decode(data)


# MARK: the loop

LIBRARIES = {"py_webauthn": (py_webauthn, "webauthn"), "python-fido2": (python_fido2, "fido2")}


def load(scenario, library, path):
    if scenario == "noop":
        return (lambda: None), "python " + sys.version.split()[0]
    if scenario not in ("assertion", "registration", "mds3"):
        raise ValueError(f"unknown scenario {scenario!r}")
    if library not in LIBRARIES:
        raise ValueError(f"unknown library {library!r}")
    with open(path) as handle:
        spec = json.load(handle)
    make, package = LIBRARIES[library]
    if scenario == "mds3":
        if library != "python-fido2":
            raise ValueError(f"{library} has no MDS3 reader")
        return python_fido2_mds3(spec), f"{package} {version(package)}"
    return make(scenario, spec), f"{package} {version(package)}"


def describe(error):
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}"[:300] if text else type(error).__name__


def main():
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    verify = None

    def answer(text):
        stdout.write(text.encode() + b"\n")
        stdout.flush()

    for raw in stdin:
        words = raw.decode().strip().split(maxsplit=3)
        if not words:
            continue
        command = words[0]
        if command == "quit":
            return 0
        if command == "load" and len(words) == 4:
            try:
                verify, what = load(words[1], words[2], words[3])
                answer(f"ok {what}")
            except Exception as error:  # noqa: BLE001: reported to the benchmark
                verify = None
                answer(f"error {describe(error)}")
        elif command == "run" and len(words) == 2 and words[1].isdigit():
            if verify is None:
                answer("error nothing loaded")
                continue
            count = int(words[1])
            try:
                for _ in range(count):
                    verify()
                answer(f"ok {count}")
            except Exception as error:  # noqa: BLE001: a verification failure
                answer(f"error {describe(error)}")
        else:
            answer(f"error unknown request {raw.decode().strip()!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
