"""Drives fido2kit register/assert and checks every result with three independent verifiers.

Run through Tests/Peers/run.sh. Prints a table (peer, algorithm, format, ceremony, result) and
exits 1 if any check fails. "n/a" rows are combinations a peer cannot check; they are never
counted as passes.
"""

import base64
import datetime
import hashlib
import json
import os
import subprocess
import sys
import tempfile

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID
from fido2.server import Fido2Server
from fido2.webauthn import (
    AttestationObject,
    AttestedCredentialData,
    PublicKeyCredentialRpEntity,
    UserVerificationRequirement,
)
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AttestationFormat,
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement as PyUV,
)
from webauthn.helpers.cose import COSEAlgorithmIdentifier

from peerlib import ChainVerifier, b64, b64u, cbor_byte_string, run_tool, unb64u

FIDO2KIT = sys.argv[1]
RP_ID = "example.org"
ORIGIN = "https://example.org"
AAGUID = "8f1b4b6e-0c3a-4b2e-9d55-3c2a1e7f9a10"
ALGORITHMS = {"ES256": -7, "RS256": -257, "EdDSA": -8}
FIDO2_TOOL_TYPES = {"ES256": "es256", "RS256": "rs256", "EdDSA": "eddsa"}


# MARK: test PKI (WebAuthn §8.2.1 packed attestation certificate requirements)

def make_pki(directory: str):
    """A root CA, an intermediate CA and an attestation certificate (P-256) whose subject has
    C, O, OU "Authenticator Attestation" and CN, basic constraints CA false, and the
    id-fido-gen-ce-aaguid extension (non-critical) holding AAGUID."""
    now = datetime.datetime.now(datetime.timezone.utc)
    start, end = now - datetime.timedelta(days=1), now + datetime.timedelta(days=365)

    def name(cn, ou):
        return x509.Name([
            x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "fido2kit peers"),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, ou),
            x509.NameAttribute(NameOID.COMMON_NAME, cn),
        ])

    def certificate(subject, subject_key, issuer, issuer_key, ca, extensions=()):
        builder = (
            x509.CertificateBuilder()
            .subject_name(subject).issuer_name(issuer)
            .public_key(subject_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(start).not_valid_after(end)
            .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(
                digital_signature=not ca, content_commitment=False, key_encipherment=False,
                data_encipherment=False, key_agreement=False, key_cert_sign=ca, crl_sign=ca,
                encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(subject_key.public_key()),
                           critical=False)
        )
        if issuer_key is not subject_key:
            builder = builder.add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()),
                critical=False)
        for extension in extensions:
            builder = builder.add_extension(extension, critical=False)
        return builder.sign(issuer_key, hashes.SHA256())

    root_key = ec.generate_private_key(ec.SECP256R1())
    intermediate_key = ec.generate_private_key(ec.SECP256R1())
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    root_name = name("fido2kit peers root CA", "Root CA")
    intermediate_name = name("fido2kit peers intermediate CA", "Intermediate CA")
    root = certificate(root_name, root_key, root_name, root_key, True)
    intermediate = certificate(intermediate_name, intermediate_key, root_name, root_key, True)
    aaguid = bytes.fromhex(AAGUID.replace("-", ""))
    aaguid_extension = x509.UnrecognizedExtension(
        x509.ObjectIdentifier("1.3.6.1.4.1.45724.1.1.4"), b"\x04\x10" + aaguid)
    leaf = certificate(name("fido2kit peers attestation", "Authenticator Attestation"),
                       leaf_key, intermediate_name, intermediate_key, False, [aaguid_extension])
    # U2F attestation: one self-contained certificate signed by the root.
    u2f_key = ec.generate_private_key(ec.SECP256R1())
    u2f = certificate(name("fido2kit peers U2F", "Authenticator Attestation"),
                      u2f_key, root_name, root_key, False)

    def pem_key(key):
        return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())

    def pem_certs(*certs):
        return b"".join(c.public_bytes(serialization.Encoding.PEM) for c in certs)

    files = {}
    for label, data in [("attestation-key.pem", pem_key(leaf_key)),
                        ("attestation-chain.pem", pem_certs(leaf, intermediate)),
                        ("u2f-key.pem", pem_key(u2f_key)),
                        ("u2f-cert.pem", pem_certs(u2f)),
                        ("root.pem", pem_certs(root))]:
        path = os.path.join(directory, label)
        with open(path, "wb") as handle:
            handle.write(data)
        files[label] = path
    return files, root


# MARK: running fido2kit

def fido2kit(arguments):
    result = subprocess.run([FIDO2KIT] + arguments, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"fido2kit {arguments[0]}: {result.stderr.strip()}")
    return json.loads(result.stdout)


# MARK: peers

class Results:
    def __init__(self):
        self.rows = []

    def record(self, peer, alg, fmt, ceremony, check):
        try:
            outcome = check()
            self.rows.append((peer, alg, fmt, ceremony, outcome or "pass"))
        except Exception as error:  # noqa: BLE001: any failure of a peer is a failed check
            message = " ".join(str(error).split())[:150]
            self.rows.append((peer, alg, fmt, ceremony, f"FAIL: {type(error).__name__}: {message}"))

    def na(self, peer, alg, fmt, ceremony, reason):
        self.rows.append((peer, alg, fmt, ceremony, f"n/a: {reason}"))


def main():
    results = Results()
    work = tempfile.mkdtemp(prefix="fido2kit-peers-")
    files, root = make_pki(work)
    root_der = root.public_bytes(serialization.Encoding.DER)
    root_pem = root.public_bytes(serialization.Encoding.PEM)
    formats = [("none", []), ("packed-self", ["--attestation", "packed"]),
               ("packed-chain", ["--attestation", "packed",
                                 "--attestation-key", files["attestation-key.pem"],
                                 "--attestation-chain", files["attestation-chain.pem"],
                                 "--aaguid", AAGUID]),
               ("fido-u2f", ["--attestation", "fido-u2f",
                             "--attestation-key", files["u2f-key.pem"],
                             "--attestation-chain", files["u2f-cert.pem"]])]
    for alg_name, alg in ALGORITHMS.items():
        for fmt, attestation_arguments in formats:
            if fmt == "fido-u2f" and alg_name != "ES256":
                continue  # U2F is ES256 only by definition
            store = os.path.join(work, f"store-{alg_name}-{fmt}")
            check_combination(results, alg_name, alg, fmt, attestation_arguments, store,
                              root_der, root_pem)

    widths = [max(len(str(row[i])) for row in results.rows + [("peer", "alg", "format", "ceremony", "result")]) for i in range(5)]
    header = ("peer", "alg", "format", "ceremony", "result")
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in results.rows:
        print("| " + " | ".join(str(v).ljust(w) for v, w in zip(row, widths)) + " |")
    passed = sum(1 for row in results.rows if row[4] == "pass")
    failed = sum(1 for row in results.rows if row[4].startswith("FAIL"))
    unchecked = sum(1 for row in results.rows if row[4].startswith("n/a"))
    print(f"\npeers: {passed} passed, {failed} failed, {unchecked} not checkable by that peer")
    return 1 if failed else 0


def check_combination(results, alg_name, alg, fmt, attestation_arguments, store, root_der,
                      root_pem):
    # Registration options from py_webauthn, as a relying party would send them.
    options = generate_registration_options(
        rp_id=RP_ID, rp_name="fido2kit peers", user_name=f"user-{alg_name}-{fmt}",
        user_id=os.urandom(16), attestation=AttestationConveyancePreference.DIRECT,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=PyUV.PREFERRED),
        supported_pub_key_algs=[COSEAlgorithmIdentifier(alg)])
    options_path = os.path.join(os.path.dirname(store), f"create-{alg_name}-{fmt}.json")
    with open(options_path, "w") as handle:
        handle.write(options_to_json(options))
    try:
        registration = fido2kit(["register", "--options", options_path, "--origin", ORIGIN,
                                 "--store", store, "--alg", alg_name] + attestation_arguments)
    except Exception as error:  # noqa: BLE001
        for peer in ("py_webauthn", "python-fido2", "fido2-tools"):
            results.record(peer, alg_name, fmt, "registration", lambda: (_ for _ in ()).throw(error))
        return
    challenge = options.challenge
    client_data = unb64u(registration["response"]["clientDataJSON"])
    client_data_hash = hashlib.sha256(client_data).digest()
    attestation = AttestationObject(unb64u(registration["response"]["attestationObject"]))
    auth_data = bytes(attestation.auth_data)
    credential_id = unb64u(registration["rawId"])

    # py_webauthn registration.
    verified = {}

    def webauthn_registration():
        roots = {AttestationFormat.PACKED: [root_pem], AttestationFormat.FIDO_U2F: [root_pem]}
        result = verify_registration_response(
            credential=registration, expected_challenge=challenge, expected_rp_id=RP_ID,
            expected_origin=ORIGIN, supported_pub_key_algs=[COSEAlgorithmIdentifier(alg)],
            pem_root_certs_bytes_by_fmt=roots if fmt in ("packed-chain", "fido-u2f") else None)
        verified["public_key"] = result.credential_public_key
        verified["sign_count"] = result.sign_count
        expected_fmt = "packed" if fmt.startswith("packed") else fmt
        if str(getattr(result.fmt, "value", result.fmt)) != expected_fmt:
            raise AssertionError(f"fmt {result.fmt}, expected {expected_fmt}")
        if result.credential_id != credential_id:
            raise AssertionError("credential ID differs")
        if fmt == "packed-chain" and str(result.aaguid) != AAGUID:
            raise AssertionError(f"aaguid {result.aaguid}")
        return None

    results.record("py_webauthn", alg_name, fmt, "registration", webauthn_registration)

    # python-fido2 registration (with attestation verification and the chain to the root).
    server = Fido2Server(PublicKeyCredentialRpEntity(id=RP_ID, name="fido2kit peers"),
                         attestation="direct")
    fido2_credential = {}

    def fido2_registration():
        verifier = ChainVerifier(root_der)
        server._verify_attestation = verifier
        state = {"challenge": b64u(challenge),
                 "user_verification": UserVerificationRequirement.PREFERRED}
        data = server.register_complete(state, registration)
        fido2_credential["data"] = data.credential_data
        expected = {"none": "NONE", "packed-self": "SELF", "packed-chain": "BASIC",
                    "fido-u2f": "BASIC"}[fmt]
        if verifier.result.attestation_type.name != expected:
            raise AssertionError(f"attestation type {verifier.result.attestation_type.name}")
        if fmt in ("packed-chain", "fido-u2f") and not verifier.result.trust_path:
            raise AssertionError("no trust path")
        return None

    results.record("python-fido2", alg_name, fmt, "registration", fido2_registration)

    # libfido2's fido2-cred -V.
    pubkey_path = os.path.join(os.path.dirname(store), f"key-{alg_name}-{fmt}.pem")
    spki = unb64u(registration["response"]["publicKey"])
    with open(pubkey_path, "wb") as handle:
        handle.write(serialization.load_der_public_key(spki).public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    statement = attestation.att_stmt
    if fmt == "none":
        results.na("fido2-tools", alg_name, fmt, "registration",
                   "fido2-cred 1.12 -V needs an attestation signature and "
                   "fido_cred_verify_self refuses fmt none")
    else:
        def tool_registration():
            lines = [b64(client_data_hash), RP_ID, attestation.fmt,
                     b64(cbor_byte_string(auth_data)), b64(credential_id), b64(statement["sig"])]
            if "x5c" in statement:
                lines.append(b64(statement["x5c"][0]))
            # -v: check that UV was signed (U2F has no user verification).
            flags = [] if fmt == "fido-u2f" else ["-v"]
            output = run_tool(["fido2-cred", "-V"] + flags + [FIDO2_TOOL_TYPES[alg_name]], lines)
            returned_id = output.splitlines()[0]
            if base64.b64decode(returned_id) != credential_id:
                raise AssertionError("fido2-cred returned another credential ID")
            return None

        results.record("fido2-tools", alg_name, fmt, "registration", tool_registration)

    # Two assertions each (the counter must advance), options from py_webauthn.
    sign_count = 0
    for round_number in (1, 2):
        request = generate_authentication_options(
            rp_id=RP_ID,
            allow_credentials=[PublicKeyCredentialDescriptor(id=credential_id)],
            user_verification=PyUV.PREFERRED)
        request_path = os.path.join(os.path.dirname(store), f"get-{alg_name}-{fmt}.json")
        with open(request_path, "w") as handle:
            handle.write(options_to_json(request))
        ceremony = f"assertion {round_number}"
        try:
            assertion = fido2kit(["assert", "--options", request_path, "--origin", ORIGIN,
                                  "--store", store])
        except Exception as error:  # noqa: BLE001
            for peer in ("py_webauthn", "python-fido2", "fido2-tools"):
                results.record(peer, alg_name, fmt, ceremony, lambda: (_ for _ in ()).throw(error))
            continue
        a_client_data = unb64u(assertion["response"]["clientDataJSON"])
        a_auth_data = unb64u(assertion["response"]["authenticatorData"])
        a_signature = unb64u(assertion["response"]["signature"])

        def webauthn_assertion():
            if "public_key" not in verified:
                raise AssertionError("no registered key (registration failed)")
            result = verify_authentication_response(
                credential=assertion, expected_challenge=request.challenge,
                expected_rp_id=RP_ID, expected_origin=ORIGIN,
                credential_public_key=verified["public_key"],
                credential_current_sign_count=sign_count)
            if result.new_sign_count != round_number:
                raise AssertionError(f"sign count {result.new_sign_count}, expected {round_number}")
            return None

        results.record("py_webauthn", alg_name, fmt, ceremony, webauthn_assertion)

        def fido2_assertion():
            if "data" not in fido2_credential:
                raise AssertionError("no registered credential (registration failed)")
            state = {"challenge": b64u(request.challenge),
                     "user_verification": UserVerificationRequirement.PREFERRED}
            server.authenticate_complete(state, [fido2_credential["data"]], assertion)
            if unb64u(assertion["response"]["userHandle"]) != options.user.id:
                raise AssertionError("userHandle differs from user.id")
            return None

        results.record("python-fido2", alg_name, fmt, ceremony, fido2_assertion)

        def tool_assertion():
            lines = [b64(hashlib.sha256(a_client_data).digest()), RP_ID,
                     b64(cbor_byte_string(a_auth_data)), b64(a_signature)]
            run_tool(["fido2-assert", "-V", "-p", "-v", pubkey_path, FIDO2_TOOL_TYPES[alg_name]],
                     lines)
            return None

        results.record("fido2-tools", alg_name, fmt, ceremony, tool_assertion)
        sign_count = round_number


if __name__ == "__main__":
    sys.exit(main())
