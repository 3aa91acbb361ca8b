"""What py_webauthn and python-fido2 say of every positive registration of the interop corpus.

Run through Tests/Peers/interop.sh: `interop.py [--json OUT] [PATH ...]`, PATH a directory (its
peer-registrations.json) or a file in the schema of ../shared/vectors/real-registrations.json;
default ../shared/interop. For every case whose expected_result is "ok" it prints
`case  format  py_webauthn: accept|reject (reason)  python-fido2: accept|reject (reason)`, then
"N of M accepted" per peer, and with --json writes {case_id: {peer: {accepted, reason}}}.
A report, not a gate: it exits 0 whatever the peers say; an exception is a rejection.

Each peer is configured as the case's source configured its relying party, as far as it can be:
  - challenge (base64url, else its UTF-8 bytes), origins (one or a list), UV and UP required or
    not. An RP ID list is tried one ID at a time (neither peer takes a list): accept if one does.
  - algorithms: all the peer knows; RS1 (-65535) only with source_policy "rs1-allowed".
    py_webauthn enforces the list; python-fido2's register_complete never checks the key's alg.
  - trust anchors (rp_trust_anchor_pem) for the case's format. Without them py_webauthn checks
    no chain for packed, fido-u2f and tpm, but always chains android-safetynet, android-key and
    apple to its built-in Google/Apple roots (no switch). python-fido2 without anchors verifies
    the statement only (as py_webauthn without roots, and as the sources without a trust
    source; unlike vectors.py, whose ChainVerifier(None) refuses any trust path); with anchors,
    the trust path must chain to one of them (verify_x509_chain: signatures only, no validity,
    CA flag or path length).
  - source_pinned_validation_time: py_webauthn validates chains with pyOpenSSL; its testing
    hook validate_certificate_chain._generate_new_cert_store is patched to an X509Store whose
    time is set to the pinned time, and its SafetyNet timestampMs check
    (helpers.verify_safetynet_timestamp, time.time()) is judged at the pinned time too.
    python-fido2 checks no validity period and no SafetyNet timestamp, so time is moot for it.
  - source_policy (real-registrations.json has none: NOTE_POLICIES reads the same settings from
    its notes). "safetynet-timestamp-unchecked": py_webauthn's verify_android_safetynet is
    called with verify_timestamp_ms=False (verify_registration_response has no such flag, so
    its module's reference is patched); python-fido2 has no timestamp check to turn off.
    "safetynet-cts-unchecked": python-fido2's AndroidSafetynetAttestation(allow_rooted=True);
    py_webauthn checks basicIntegrity but never ctsProfileMatch, so nothing to turn off.
  - python-fido2 always requires UP (no switch), and has no android-key verifier (UnsupportedType,
    reported as a rejection: its Fido2Server would refuse the registration).
Each accept/reject reason names which of these applied where it matters.
"""

import binascii
import datetime
import functools
import importlib
import json
import os
import re
import sys
import time
import types
from unittest import mock

from cryptography import x509
from cryptography.hazmat.primitives import serialization
from fido2.attestation import (
    AndroidSafetynetAttestation, Attestation, UntrustedAttestation, verify_x509_chain)
from fido2.server import Fido2Server
from fido2.webauthn import PublicKeyCredentialRpEntity, UserVerificationRequirement
from OpenSSL.crypto import X509Store
from webauthn import verify_registration_response
from webauthn.helpers.cose import COSEAlgorithmIdentifier
from webauthn.helpers.structs import AttestationFormat
from webauthn.registration.formats.android_safetynet import verify_android_safetynet

from peerlib import ChainVerifier, b64u, unb64u

# The modules (their packages re-export functions of the same names).
chain_module = importlib.import_module("webauthn.helpers.validate_certificate_chain")
timestamp_module = importlib.import_module("webauthn.helpers.verify_safetynet_timestamp")
registration_module = importlib.import_module("webauthn.registration.verify_registration_response")

RS1 = -65535
# real-registrations.json has no source_policy; its notes say the same, in the source's words.
NOTE_POLICIES = [
    (r"verify_timestamp_ms=False|verifyTimestampMS: false", "safetynet-timestamp-unchecked"),
    (r"attestationSafetyNetEnforceCTSCheck: false", "safetynet-cts-unchecked"),
]
DEFAULT_PATH = "../shared/interop"


# MARK: the case's relying party

def challenge_bytes(text):
    """base64url when it is (and re-encodes to itself), else the UTF-8 bytes."""
    if re.fullmatch(r"[A-Za-z0-9_-]*", text) and len(text) % 4 != 1:
        try:
            data = unb64u(text)
            if b64u(data) == text:
                return data
        except (binascii.Error, ValueError):
            pass
    return text.encode()


def flag(value):
    if isinstance(value, bool):
        return value
    return str(value).strip().lower() in ("true", "1", "yes", "required")


def as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def policies(case):
    notes = " ".join(case.get("notes") or [])
    return set(case.get("source_policy") or []) | {
        policy for pattern, policy in NOTE_POLICIES if re.search(pattern, notes)}


def pinned_time(case):
    text = case.get("source_pinned_validation_time")
    if not text:
        return None
    moment = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=datetime.timezone.utc)


def anchor_pems(case):
    """The case's PEM roots, each as bytes."""
    pems = case.get("rp_trust_anchor_pem") or []
    text = "\n".join(as_list(pems))
    return [block.encode() for block in
            re.findall(r"-----BEGIN CERTIFICATE-----.+?-----END CERTIFICATE-----", text, re.S)]


def response_of(case):
    credential = json.loads(json.dumps(case["credential"]))
    credential.setdefault("clientExtensionResults", {})
    credential.setdefault("type", "public-key")
    return credential


def describe(error):
    """The exception and its causes, on one line."""
    parts = []
    while error is not None and len(parts) < 4:
        text = " ".join(str(error).split()).replace(" See __cause__ for more info", "")
        text = text if len(text) <= 120 else text[:117] + "..."
        parts.append(f"{type(error).__name__}: {text}" if text else type(error).__name__)
        error = error.__cause__ or error.__context__
    return " <- ".join(parts)


def over_rp_ids(case, attempt):
    """Runs attempt(rp_id) for each RP ID; (accepted, note) of the first that accepts, else the
    error of the first attempt that failed for another reason than the RP ID."""
    errors = []
    for rp_id in as_list(case["expected_rp_id"]):
        try:
            return True, attempt(rp_id)
        except Exception as error:  # noqa: BLE001: any exception is the peer's rejection
            errors.append(error)
    others = [e for e in errors if "rp id" not in str(e).lower()]
    return False, describe((others or errors)[0])


# MARK: py_webauthn

class StoreClock:
    """py_webauthn's certificate store, at the pinned time; records whether a chain was checked."""

    def __init__(self, moment):
        self.moment = moment
        self.used = False

    def __call__(self):
        self.used = True
        store = X509Store()
        if self.moment is not None:
            store.set_time(self.moment.replace(tzinfo=None))
        return store


def py_webauthn(case):
    policy = policies(case)
    moment = pinned_time(case)
    algorithms = [a for a in COSEAlgorithmIdentifier if a != RS1 or "rs1-allowed" in policy]
    anchors = anchor_pems(case)
    roots = {AttestationFormat(case["format"]): anchors} if anchors else None
    clock = StoreClock(moment)
    safetynet = verify_android_safetynet
    if "safetynet-timestamp-unchecked" in policy:
        safetynet = functools.partial(verify_android_safetynet, verify_timestamp_ms=False)
    fake_time = types.SimpleNamespace(time=(lambda: moment.timestamp()) if moment else time.time)

    def attempt(rp_id):
        with mock.patch.object(chain_module, "_generate_new_cert_store", clock), \
                mock.patch.object(registration_module, "verify_android_safetynet", safetynet), \
                mock.patch.object(timestamp_module, "time", fake_time):
            verify_registration_response(
                credential=response_of(case),
                expected_challenge=challenge_bytes(case["expected_challenge"]),
                expected_rp_id=rp_id, expected_origin=as_list(case["expected_origin"]),
                require_user_presence=flag(case.get("require_user_presence", True)),
                require_user_verification=flag(case["require_user_verification"]),
                supported_pub_key_algs=algorithms, pem_root_certs_bytes_by_fmt=roots)

    accepted, reason = over_rp_ids(case, attempt)
    notes = [] if accepted else [reason]
    if clock.used:
        where = " and ".join(["case anchors"] * bool(anchors) + ["built-in roots"] * (
            case["format"] in ("android-safetynet", "android-key", "apple")))
        at = moment.isoformat().replace("+00:00", "Z") if moment else "the current time"
        notes.append(f"chain to {where} checked at {at}")
    elif accepted and case["format"] != "none":
        notes.append("statement only, no chain check without roots")
    if case["format"] == "android-safetynet":
        notes.append("timestampMs unchecked" if "safetynet-timestamp-unchecked" in policy
                     else f"timestampMs judged at {'pinned time' if moment else 'current time'}")
    return accepted, "; ".join(notes)


# MARK: python-fido2

class InteropVerifier(ChainVerifier):
    """peerlib.ChainVerifier for a list of anchors; without one, the statement alone."""

    def __init__(self, anchors, cts_unchecked):
        super().__init__(None)
        self.anchors = anchors
        self.cts_unchecked = cts_unchecked

    def verify_attestation(self, attestation_object, client_data_hash):
        kind = Attestation.for_type(attestation_object.fmt)
        rooted = self.cts_unchecked and kind is AndroidSafetynetAttestation
        statement = kind(allow_rooted=True) if rooted else kind()
        result = statement.verify(
            attestation_object.att_stmt, attestation_object.auth_data, client_data_hash)
        if result.trust_path and self.anchors:
            errors = []
            for anchor in self.anchors:
                try:
                    verify_x509_chain(result.trust_path + [anchor])
                    break
                except Exception as error:  # noqa: BLE001
                    errors.append(error)
            else:
                raise UntrustedAttestation(
                    f"no anchor signs the trust path ({describe(errors[0])})")
        self.result = result


def python_fido2(case):
    anchors = [x509.load_pem_x509_certificate(pem).public_bytes(serialization.Encoding.DER)
               for pem in anchor_pems(case)]
    origins = as_list(case["expected_origin"])
    state = {"challenge": b64u(challenge_bytes(case["expected_challenge"])),
             "user_verification": UserVerificationRequirement.REQUIRED
             if flag(case["require_user_verification"]) else UserVerificationRequirement.PREFERRED}
    verifier = InteropVerifier(anchors, "safetynet-cts-unchecked" in policies(case))

    def attempt(rp_id):
        rp = PublicKeyCredentialRpEntity(id=rp_id, name="fido2kit interop")
        server = Fido2Server(rp, attestation="direct", verify_origin=lambda o: o in origins,
                             verify_attestation=verifier)
        server.register_complete(state, response_of(case))

    accepted, reason = over_rp_ids(case, attempt)
    notes = [] if accepted else [reason]
    if accepted and verifier.result is not None and verifier.result.trust_path:
        notes.append("chain to case anchors (signatures only)" if anchors
                     else "statement only, no anchors")
    if not flag(case.get("require_user_presence", True)):
        notes.append("UP required regardless (no switch)")
    if case.get("source_pinned_validation_time"):
        notes.append("checks no validity period, pinned time moot")
    return accepted, "; ".join(notes)


# MARK: the report

def load(paths):
    cases = []
    for path in paths:
        if os.path.isdir(path):
            path = os.path.join(path, "peer-registrations.json")
        with open(path) as handle:
            cases += [c for c in json.load(handle) if c.get("expected_result") == "ok"]
    return cases


def main(argv):
    json_path = None
    if "--json" in argv:
        index = argv.index("--json")
        json_path = argv[index + 1]
        argv = argv[:index] + argv[index + 2:]
    cases = load(argv or [DEFAULT_PATH])
    peers = {"py_webauthn": py_webauthn, "python-fido2": python_fido2}
    results = {}
    for case in cases:
        verdicts = {}
        for name, check in peers.items():
            try:
                accepted, reason = check(case)
            except Exception as error:  # noqa: BLE001: the script's own failure on this case
                accepted, reason = False, f"script error: {describe(error)}"
            verdicts[name] = {"accepted": accepted, "reason": reason}
        results[case["case_id"]] = verdicts
        cells = "  ".join(f"{name}: {'accept' if v['accepted'] else 'reject'}"
                          + (f" ({v['reason']})" if v["reason"] else "")
                          for name, v in verdicts.items())
        print(f"{case['case_id']}  {case['format']}  {cells}")
    print()
    for name in peers:
        accepted = sum(results[c][name]["accepted"] for c in results)
        print(f"{name}: {accepted} of {len(results)} positive registrations accepted")
    either = sum(any(v["accepted"] for v in r.values()) for r in results.values())
    print(f"either peer: {either} of {len(results)}")
    if json_path:
        with open(json_path, "w") as handle:
            json.dump(results, handle, indent=1)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
