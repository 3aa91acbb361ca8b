"""py_webauthn verifies the Belvo bodies fido2kit writes.

Run through Tests/Peers/belvo.sh. Drives `fido2kit belvo enroll` and `fido2kit belvo authorize`
with the sample payloads of Belvo's Biometric Pix guide and checks the bodies' WebAuthn objects
with py_webauthn, as Belvo or the payer's bank would. Prints one line per check and exits 1 if
any fails.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.cose import COSEAlgorithmIdentifier

from peerlib import b64u, unb64u

FIDO2KIT = sys.argv[1]
GUIDE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                     "belvo-biometric-pix.md")


def guide_sample(marker: str) -> str:
    """The guide's JSON sample (a ```json block) that contains `marker`, as the guide prints it."""
    with open(GUIDE) as f:
        blocks = re.findall(r"```json\n(.*?)\n\s*```", f.read(), re.S)
    for block in blocks:
        if marker in block:
            return textwrap.dedent(block)
    raise SystemExit(f"belvo peers: no JSON sample with {marker} in {GUIDE}")


# Enrollment step 5 of the guide, verbatim.
REGISTRATION_OPTIONS = guide_sample('"pubKeyCredParams"')
RP_ID = json.loads(REGISTRATION_OPTIONS)["rp"]["id"]
USER_ID = json.loads(REGISTRATION_OPTIONS)["user"]["id"]
REGISTRATION_CHALLENGE = json.loads(REGISTRATION_OPTIONS)["challenge"]
# Payment step 2 of the guide: the fido_options, allowCredentials naming our credential.
PAYMENT_CHALLENGE = json.loads(guide_sample('"allowCredentials"'))["challenge"]
RISK_SIGNALS = '{ "deviceId" : "AbC+/=\\u00e9", "zeta": 1.50 }'

results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(f"{'PASS' if condition else 'FAIL'} {name}{': ' + detail if detail and not condition else ''}")


def fido2kit(*args):
    run = subprocess.run([FIDO2KIT, *args], capture_output=True)
    if run.returncode != 0:
        raise RuntimeError(f"fido2kit {' '.join(args)}: {run.stderr.decode().strip()}")
    return run.stdout


def payment_intent(credential_id: str) -> str:
    fido_options = {
        "rpId": RP_ID, "timeout": 300000, "challenge": PAYMENT_CHALLENGE,
        "allowCredentials": [{"id": credential_id, "type": "public-key"}],
    }
    return json.dumps({
        "id": "7d9e8f10-1a2b-4c3d-8e4f-5a6b7c8d9e0f", "status": "REQUIRES_ACTION",
        "payment_method_information": {"open_finance_biometric_pix": {"fido_options": fido_options}},
    })


def run_flow(work: str, origin_flag):
    origin = origin_flag or f"https://{RP_ID}"
    label = f"origin {origin}"
    store = os.path.join(work, "store-" + b64u(origin.encode()))
    options_file = os.path.join(work, "options.json")
    signals_file = os.path.join(work, "signals.json")
    with open(options_file, "w") as f:
        f.write(REGISTRATION_OPTIONS)
    with open(signals_file, "w") as f:
        f.write(RISK_SIGNALS)
    extra = ["--origin", origin_flag] if origin_flag else []

    # Enrollment: the confirm body's confirmation_data is a registration response.
    confirm = json.loads(fido2kit("belvo", "enroll", "--fido-options", options_file, "--store", store, *extra))
    check(f"confirm body has exactly confirmation_data ({label})", list(confirm) == ["confirmation_data"])
    data = confirm["confirmation_data"]
    registration = verify_registration_response(
        credential=data,
        expected_challenge=unb64u(REGISTRATION_CHALLENGE),
        expected_rp_id=RP_ID,
        expected_origin=origin,
        require_user_verification=True,
        supported_pub_key_algs=[
            COSEAlgorithmIdentifier.RSASSA_PKCS1_v1_5_SHA_256,
            COSEAlgorithmIdentifier.ECDSA_SHA_256,
        ],
    )
    check(f"py_webauthn verify_registration_response accepts confirmation_data ({label})", True)
    check(f"registration: fmt none, sign count 0 ({label})",
          registration.fmt == "none" and registration.sign_count == 0,
          f"fmt {registration.fmt}, sign count {registration.sign_count}")
    check(f"registration: credential id is the body's id ({label})",
          b64u(registration.credential_id) == data["id"] == data["rawId"])

    # Payment, twice: each authorize body's assertion verifies with the stored key and the
    # signature counter advances.
    intent_file = os.path.join(work, "intent.json")
    with open(intent_file, "w") as f:
        f.write(payment_intent(data["id"]))
    sign_count = registration.sign_count
    for attempt in (1, 2):
        raw = fido2kit("belvo", "authorize", "--payment-intent", intent_file,
                       "--risk-signals", signals_file, "--store", store, *extra)
        body = json.loads(raw)
        check(f"authorize body {attempt} has risk_signals and assertion ({label})",
              list(body) == ["risk_signals", "assertion"])
        check(f"authorize body {attempt} embeds the risk signals byte for byte ({label})",
              RISK_SIGNALS.encode() in raw)
        assertion = body["assertion"]
        verified = verify_authentication_response(
            credential=assertion,
            expected_challenge=unb64u(PAYMENT_CHALLENGE),
            expected_rp_id=RP_ID,
            expected_origin=origin,
            credential_public_key=registration.credential_public_key,
            credential_current_sign_count=sign_count,
            require_user_verification=True,
        )
        check(f"py_webauthn verify_authentication_response accepts assertion {attempt} ({label})", True)
        check(f"sign count advances {sign_count} → {verified.new_sign_count} ({label})",
              verified.new_sign_count > sign_count)
        check(f"userHandle is the UTF-8 of user.id ({label})",
              unb64u(assertion["response"]["userHandle"]) == USER_ID.encode())
        sign_count = verified.new_sign_count


def main():
    with tempfile.TemporaryDirectory() as work:
        for origin_flag in (None, "https://pix.belvo.com"):
            try:
                run_flow(work, origin_flag)
            except Exception as error:  # a verifier's refusal or a fido2kit failure
                check(f"flow with origin {origin_flag or 'default'}", False, f"{type(error).__name__}: {error}")
    passed, failed = results.count(True), results.count(False)
    print(f"belvo peers: {passed} passed, {failed} failed")
    sys.exit(1 if failed or not passed else 0)


main()
