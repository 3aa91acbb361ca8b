"""The example server's related origins, provider names and Signal API payloads over plain HTTP.

Part of http_test.py: a none-attestation registration needs no signature, so this script makes
its own (a P-256 public key, the curve's generator point, with an AAGUID of its choosing) and
checks what the server shows and answers:

  - GET /.well-known/webauthn lists the --origin values (browsers fetch it over https only;
    the test reads it over plain HTTP), and a server whose origins span six registrable-domain
    labels refuses to start;
  - the account view names each passkey's provider by its AAGUID (iCloud Keychain for Apple's,
    null for the all-zero AAGUID) and carries the signalAllAcceptedCredentials payload, which
    after a deletion lists the passkeys left;
  - a sign-in presenting a credential ID the server does not know is refused with
    credentialNotFound and the signalUnknownCredential payload; a refusal for another reason
    (no ceremony in progress) carries none.
"""

import hashlib
import json
import os

from harness import b64url

ICLOUD_KEYCHAIN = bytes.fromhex("fbfc3007154e4ecc8c0b6e020557d7bd")

# The P-256 generator point: a valid public key whose private key nobody needs here.
P256_X = bytes.fromhex("6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296")
P256_Y = bytes.fromhex("4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5")


def cbor_head(major, value):
    if value < 24:
        return bytes([major << 5 | value])
    if value < 256:
        return bytes([major << 5 | 24, value])
    return bytes([major << 5 | 25]) + value.to_bytes(2, "big")


def cbor_text(text):
    data = text.encode()
    return cbor_head(3, len(data)) + data


def cbor_bytes(data):
    return cbor_head(2, len(data)) + data


def cose_es256_key():
    # {1: 2, 3: -7, -1: 1, -2: x, -3: y}, canonical order.
    return (bytes([0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21]) + cbor_bytes(P256_X)
            + bytes([0x22]) + cbor_bytes(P256_Y))


def registration_response(options, origin, aaguid):
    """A none-attestation RegistrationResponseJSON for `options` at `origin`, with `aaguid`."""
    credential_id = os.urandom(32)
    rp_id = options["rp"]["id"]
    auth_data = (hashlib.sha256(rp_id.encode()).digest() + bytes([0x45]) + bytes(4) + aaguid
                 + len(credential_id).to_bytes(2, "big") + credential_id + cose_es256_key())
    attestation = (bytes([0xA3]) + cbor_text("fmt") + cbor_text("none") + cbor_text("attStmt") + bytes([0xA0])
                   + cbor_text("authData") + cbor_bytes(auth_data))
    client_data = json.dumps({"type": "webauthn.create", "challenge": options["challenge"], "origin": origin,
                              "crossOrigin": False}, separators=(",", ":")).encode()
    return credential_id, {
        "id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
        "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation),
                     "transports": ["internal"]},
        "clientExtensionResults": {},
    }


def unknown_assertion():
    """An AuthenticationResponseJSON, well formed, of a credential ID no server knows."""
    credential_id = os.urandom(16)
    return credential_id, {
        "id": b64url(credential_id), "rawId": b64url(credential_id), "type": "public-key",
        "response": {"clientDataJSON": b64url(b'{"type":"webauthn.get"}'), "authenticatorData": b64url(bytes(37)),
                     "signature": b64url(bytes(8))},
        "clientExtensionResults": {},
    }


def run(checks, environment, request, post_json):
    check, equal = checks.check, checks.equal

    # --- /.well-known/webauthn ----------------------------------------------------------------
    related = environment.start_one("--origin", "http://localhost:{port}", "--origin", "https://example.co.uk",
                                    "--origin", "https://login.example.de:8443", "--rp-id", "localhost")
    answer = request(related, "GET", "/.well-known/webauthn")
    equal("GET /.well-known/webauthn lists the --origin values, in order",
          (answer.status, answer.json),
          (200, {"origins": [f"http://localhost:{related.port}", "https://example.co.uk",
                             "https://login.example.de:8443"]}))
    equal("... as application/json", answer.headers.get("Content-Type"), "application/json")
    server = environment.start_one()
    answer = request(server, "GET", "/.well-known/webauthn")
    equal("without --origin, the document lists the one default origin",
          answer.json, {"origins": [f"http://localhost:{server.port}"]})
    six = [arg for label in ["a", "b", "c", "d", "e", "f"] for arg in ("--origin", f"https://{label}.example")]
    try:
        environment.start_one(*six, "--rp-id", "a.example")
        check("a server whose origins span six registrable-domain labels refuses to start", False)
    except RuntimeError as error:
        check("a server whose origins span six registrable-domain labels refuses to start",
              "relatedOriginsLimitExceeded" in str(error) or "sixth" in str(error), str(error)[-400:])

    # --- Provider names and the accepted credentials ----------------------------------------------
    origin = f"http://localhost:{server.port}"
    options = post_json(server, "/registration/options", {"username": "pat"})
    cookie = options.cookie()
    first, response = registration_response(options.json, origin, ICLOUD_KEYCHAIN)
    answer = post_json(server, "/registration/verify", response, cookie=cookie)
    check("a none-attestation registration with iCloud Keychain's AAGUID verifies",
          answer.status == 200 and answer.json.get("verified") is True, answer)
    cookie = answer.cookie() or cookie
    options = post_json(server, "/registration/options", {}, cookie=cookie)
    second, response = registration_response(options.json, origin, bytes(16))
    answer = post_json(server, "/registration/verify", response, cookie=cookie)
    cookie = answer.cookie() or cookie
    account = request(server, "GET", "/account", headers={"Cookie": f"passkey_session={cookie}"}).json or {}
    equal("the account view names each passkey's provider by its AAGUID (null for the zero AAGUID)",
          [passkey.get("provider") for passkey in account.get("passkeys", [])], ["iCloud Keychain", None])
    accepted = account.get("allAcceptedCredentials") or {}
    equal("... and carries the signalAllAcceptedCredentials payload for both",
          (accepted.get("rpId"), sorted(accepted.get("allAcceptedCredentialIds", []))),
          ("localhost", sorted([b64url(first), b64url(second)])))
    check("... under the account's user handle", bool(accepted.get("userId")), accepted)
    answer = request(server, "DELETE", f"/account/passkeys/{b64url(first)}",
                     headers={"Cookie": f"passkey_session={cookie}"})
    equal("after a deletion, the payload lists the passkey left",
          ((answer.json or {}).get("allAcceptedCredentials") or {}).get("allAcceptedCredentialIds"), [b64url(second)])

    # --- Unknown credentials ------------------------------------------------------------------
    options = post_json(server, "/authentication/options", {})
    unknown, response = unknown_assertion()
    answer = post_json(server, "/authentication/verify", response, cookie=options.cookie())
    equal("a sign-in with a credential ID the server does not know: 400 credentialNotFound",
          (answer.status, answer.code), (400, "credentialNotFound"))
    equal("... with the signalUnknownCredential payload",
          (answer.json or {}).get("unknownCredential"), {"rpId": "localhost", "credentialId": b64url(unknown)})
    answer = post_json(server, "/authentication/verify", response, cookie=options.cookie())
    check("a sign-in refused for another reason (its ceremony was used) carries no signal",
          answer.code == "noCeremony" and "unknownCredential" not in (answer.json or {}), answer)
