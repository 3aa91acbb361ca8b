"""Independent relying parties judge the ceremonies of fido2kit's begin/finish API.

Reads the transcript Tests/Consumer's ConsumerContract writes (--transcript): for ES256, EdDSA
and RS256, the options beginRegistration and beginAuthentication made (allowCredentials and
discoverable) and the software authenticator's answers, every one already accepted by
fido2kit's finish calls. Then:
  - python-fido2 reads each options document as a browser's parse*FromJSON would
    (PublicKeyCredentialCreationOptions / PublicKeyCredentialRequestOptions.from_dict) and the
    values must be the ones the response answered;
  - py_webauthn verifies each response against its options (challenge, rp.id, the origin, UV as
    the options required, the offered algorithms);
  - python-fido2's Fido2Server verifies them too (register_complete, authenticate_complete).
Prints one line per check; exits 1 if any fails.

Usage: python ceremony.py TRANSCRIPT   (through Tests/Peers/ceremony.sh)
"""

import json
import sys

from fido2.server import Fido2Server
from fido2.webauthn import (
    PublicKeyCredentialCreationOptions,
    PublicKeyCredentialRequestOptions,
    PublicKeyCredentialRpEntity,
    UserVerificationRequirement,
)
from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.cose import COSEAlgorithmIdentifier

from peerlib import b64u, unb64u

failures = 0


def check(name, body):
    global failures
    try:
        body()
        print(f"ok    {name}")
    except Exception as error:  # a peer's refusal, whatever its type, is the result
        failures += 1
        print(f"FAIL  {name}: {type(error).__name__}: {error}")


def run(ceremony):
    algorithm = ceremony["algorithm"]
    origin = ceremony["origin"]
    creation = json.loads(ceremony["registration_options"])
    registration = json.loads(ceremony["registration_response"])
    allow = json.loads(ceremony["authentication_options"])
    assertion = json.loads(ceremony["authentication_response"])
    discoverable = json.loads(ceremony["discoverable_options"])
    discoverable_assertion = json.loads(ceremony["discoverable_response"])
    rp_id = creation["rp"]["id"]
    verified = {}

    def parse_creation():
        options = PublicKeyCredentialCreationOptions.from_dict(creation)
        assert options.rp.id == rp_id and options.rp.name == creation["rp"]["name"]
        assert options.challenge == unb64u(creation["challenge"]) and len(options.challenge) >= 32
        assert [p.alg for p in options.pub_key_cred_params] == [-7, -8, -257]
        assert options.timeout == creation["timeout"]
        assert options.authenticator_selection.resident_key == "preferred"

    def parse_request():
        for document in (allow, discoverable):
            options = PublicKeyCredentialRequestOptions.from_dict(document)
            assert options.rp_id == rp_id
            assert options.challenge == unb64u(document["challenge"])
        assert [d.id for d in PublicKeyCredentialRequestOptions.from_dict(allow).allow_credentials] \
            == [unb64u(registration["rawId"])]
        assert not PublicKeyCredentialRequestOptions.from_dict(discoverable).allow_credentials

    def required(options):
        selection = options.get("authenticatorSelection") or {}
        return options.get("userVerification", selection.get("userVerification")) == "required"

    def py_webauthn_registration():
        result = verify_registration_response(
            credential=registration, expected_challenge=unb64u(creation["challenge"]),
            expected_rp_id=rp_id, expected_origin=origin,
            require_user_verification=required(creation),
            supported_pub_key_algs=[COSEAlgorithmIdentifier(p["alg"])
                                    for p in creation["pubKeyCredParams"]])
        verified["public_key"] = result.credential_public_key

    def py_webauthn_assertions():
        for options, response, stored in (
                (allow, assertion, int(ceremony["stored_sign_count"])),
                (discoverable, discoverable_assertion,
                 int(ceremony["discoverable_stored_sign_count"]))):
            verify_authentication_response(
                credential=response, expected_challenge=unb64u(options["challenge"]),
                expected_rp_id=rp_id, expected_origin=origin,
                credential_public_key=verified["public_key"],
                credential_current_sign_count=stored,
                require_user_verification=required(options))
        if unb64u(discoverable_assertion["response"]["userHandle"]) != unb64u(creation["user"]["id"]):
            raise AssertionError("the discoverable assertion's userHandle is not user.id")

    server = Fido2Server(PublicKeyCredentialRpEntity(id=rp_id, name=creation["rp"]["name"]),
                         verify_origin=lambda o: o == origin)

    def fido2_ceremonies():
        state = {"challenge": creation["challenge"],
                 "user_verification": UserVerificationRequirement.PREFERRED}
        credential = server.register_complete(state, registration).credential_data
        for options, response in ((allow, assertion), (discoverable, discoverable_assertion)):
            state = {"challenge": options["challenge"],
                     "user_verification": UserVerificationRequirement.PREFERRED}
            server.authenticate_complete(state, [credential], response)

    check(f"{algorithm}: python-fido2 reads the creation options", parse_creation)
    check(f"{algorithm}: python-fido2 reads both request options", parse_request)
    check(f"{algorithm}: py_webauthn verifies the registration", py_webauthn_registration)
    check(f"{algorithm}: py_webauthn verifies both assertions", py_webauthn_assertions)
    check(f"{algorithm}: python-fido2 verifies the registration and both assertions",
          fido2_ceremonies)


def main():
    with open(sys.argv[1]) as handle:
        ceremonies = json.load(handle)
    if len(ceremonies) != 3:
        print(f"FAIL  expected 3 ceremonies, found {len(ceremonies)}")
        return 1
    for ceremony in ceremonies:
        run(ceremony)
    print(f"{failures} failure(s)" if failures else "every peer accepted every ceremony")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
