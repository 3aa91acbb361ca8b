#!/usr/bin/env python3
"""Writes seed inputs for fido2kit's fuzz targets, made from the shared vectors.

    seeds.py OUTPUT_DIR KIND [KIND ...]
    seeds.py OUTPUT_DIR --target NAME

Each KIND names one family of inputs (see SEED_KINDS); a fuzz target lists the kinds it wants
in its `// seeds:` header line, which `--target` reads (run.sh and stale.py use this form, so
the header is parsed in one place). Files are named after the SHA-1 of their content, so
running this again over a corpus directory adds nothing twice. The vectors are read from
../shared/vectors beside the project root, or from $FIDO2KIT_SHARED_VECTORS; a missing vector
file is an error, never a silent empty corpus. Nothing here is committed: the corpus
directories are ignored by git.
"""

import base64
import hashlib
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def vectors_dir() -> Path:
    configured = os.environ.get("FIDO2KIT_SHARED_VECTORS")
    directory = Path(configured) if configured else ROOT.parent / "shared" / "vectors"
    if not directory.is_dir():
        sys.exit(f"seeds.py: vectors not found at {directory} (set FIDO2KIT_SHARED_VECTORS)")
    return directory


def load(name: str):
    return json.loads((vectors_dir() / name).read_text())


def b64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64url_text(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def compact(value) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode()


# A small CBOR reader (definite lengths only, as in the vectors) to pull authenticator data,
# signatures and certificates out of attestation objects.
def cbor_decode(data: bytes, offset: int = 0):
    initial = data[offset]
    major, info = initial >> 5, initial & 0x1F
    offset += 1
    if info < 24:
        argument = info
    elif info in (24, 25, 26, 27):
        width = 1 << (info - 24)
        argument = int.from_bytes(data[offset : offset + width], "big")
        offset += width
    else:
        raise ValueError("indefinite or reserved head")
    if major == 0:
        return argument, offset
    if major == 1:
        return -1 - argument, offset
    if major in (2, 3):
        content = data[offset : offset + argument]
        return (content if major == 2 else content.decode()), offset + argument
    if major == 4:
        items = []
        for _ in range(argument):
            item, offset = cbor_decode(data, offset)
            items.append(item)
        return items, offset
    if major == 5:
        entries = {}
        for _ in range(argument):
            key, offset = cbor_decode(data, offset)
            value, offset = cbor_decode(data, offset)
            entries[key if not isinstance(key, list) else tuple(key)] = value
        return entries, offset
    if major == 6:
        return cbor_decode(data, offset)
    return argument, offset


def w3c_cases():
    return load("webauthn-l3-test-vectors.json")["cases"]


def attestation_objects():
    for case in w3c_cases():
        yield bytes.fromhex(case["registration"]["values"]["attestationObject"])
    for case in load("real-registrations.json"):
        yield b64url(case["credential"]["response"]["attestationObject"])


def decoded_attestation_objects():
    for data in attestation_objects():
        try:
            value, _ = cbor_decode(data)
        except (ValueError, IndexError, UnicodeDecodeError):
            continue
        if isinstance(value, dict):
            yield value


# --- seed kinds: each yields bytes -------------------------------------------------------------


def cbor_items():
    for case in load("rfc8949-appendix-a.json"):
        yield bytes.fromhex(case["hex"])


def cose_keys():
    for key in load("cose-keys.json")["keys"]:
        yield bytes.fromhex(key["cose_key_public_cbor_hex"])
        yield bytes.fromhex(key["webauthn_style_cose_key_cbor_hex"])
    for case in w3c_cases():
        yield bytes.fromhex(case["derived"]["credential_public_key_cose"])
    for case in load("real-authentications.json"):
        yield b64url(case["credential_public_key_cose"])
    for case in load("real-registrations.json"):
        cose = case.get("decoded", {}).get("credentialPublicKey_cose_b64url")
        if cose:
            yield b64url(cose)


def attestation_verification():
    """SHA-256 of the clientDataJSON, then the attestation object: fuzz-attestation-verify's input."""
    for case in w3c_cases():
        values = case["registration"]["values"]
        client_data = bytes.fromhex(values["clientDataJSON"])
        yield hashlib.sha256(client_data).digest() + bytes.fromhex(values["attestationObject"])
    for case in load("real-registrations.json"):
        response = case["credential"]["response"]
        client_data = b64url(response["clientDataJSON"])
        yield hashlib.sha256(client_data).digest() + b64url(response["attestationObject"])


def relying_party():
    """fuzz-relying-party's input: a two-byte length, the stored COSE key, the response JSON."""
    for case in load("real-registrations.json"):
        yield b"\x00\x00" + compact(case["credential"])
    for case in load("real-authentications.json"):
        key = b64url(case["credential_public_key_cose"])
        yield len(key).to_bytes(2, "big") + key + compact(case["credential"])
    for data in webauthn_json():
        yield b"\x00\x00" + data


def authenticator_data():
    for case in w3c_cases():
        yield bytes.fromhex(case["authentication"]["values"]["authenticatorData"])
    for case in load("real-authentications.json"):
        yield b64url(case["credential"]["response"]["authenticatorData"])
    for value in decoded_attestation_objects():
        if isinstance(value.get("authData"), bytes):
            yield value["authData"]


def certificates():
    root = load("webauthn-l3-test-vectors.json")["attestation_root"]["values"]
    yield bytes.fromhex(root["attestation_ca_cert"])
    for value in decoded_attestation_objects():
        statement = value.get("attStmt")
        if isinstance(statement, dict):
            for certificate in statement.get("x5c", []) or []:
                if isinstance(certificate, bytes):
                    yield certificate


def spki_keys():
    for key in load("cose-keys.json")["keys"]:
        yield bytes.fromhex(key["spki_der_hex"])
    for case in w3c_cases():
        yield bytes.fromhex(case["derived"]["credential_public_key_spki_der"])
    for path in sorted((vectors_dir() / "wycheproof").glob("*.json")):
        for group in json.loads(path.read_text())["testGroups"]:
            if "publicKeyDer" in group:
                yield bytes.fromhex(group["publicKeyDer"])


def jwk_keys():
    for path in sorted((vectors_dir() / "wycheproof").glob("*.json")):
        for group in json.loads(path.read_text())["testGroups"]:
            for member in ("publicKeyJwk", "keyJwk"):
                if member in group:
                    yield compact(group[member])
    curves = {"P-256": "P-256", "P-384": "P-384", "P-521": "P-521"}
    for key in load("cose-keys.json")["keys"]:
        name = key.get("crv_name", "")
        if key.get("kty_name") == "EC2" and name in curves:
            jwk = {"kty": "EC", "crv": curves[name], "x": b64url_text(bytes.fromhex(key["x"]))}
            jwk["y"] = b64url_text(bytes.fromhex(key["y"]))
            yield compact(jwk)
            if key.get("d"):
                yield compact(dict(jwk, d=b64url_text(bytes.fromhex(key["d"]))))
        elif key.get("kty_name") == "OKP":
            jwk = {"kty": "OKP", "crv": name, "x": b64url_text(bytes.fromhex(key["x"]))}
            yield compact(jwk)


def ecdsa_signatures():
    for path in sorted((vectors_dir() / "wycheproof").glob("ecdsa_*.json")):
        for group in json.loads(path.read_text())["testGroups"]:
            for test in group["tests"][:200]:
                yield bytes.fromhex(test["sig"])
    for case in w3c_cases():
        yield bytes.fromhex(case["authentication"]["values"]["signature"])
    for case in load("real-authentications.json"):
        yield b64url(case["credential"]["response"]["signature"])


def client_data():
    for case in w3c_cases():
        yield bytes.fromhex(case["registration"]["values"]["clientDataJSON"])
        yield bytes.fromhex(case["authentication"]["values"]["clientDataJSON"])
    for name in ("real-registrations.json", "real-authentications.json"):
        for case in load(name):
            yield b64url(case["credential"]["response"]["clientDataJSON"])


def webauthn_json():
    for name in ("real-registrations.json", "real-authentications.json"):
        for case in load(name):
            yield compact(case["credential"])
    algorithms = [{"type": "public-key", "alg": alg} for alg in (-7, -8, -35, -36, -257, -37)]
    for case in w3c_cases():
        derived = case["derived"]
        registration = case["registration"]["values"]
        authentication = case["authentication"]["values"]
        credential_id = derived["credential_id_b64url"]
        yield compact({
            "id": credential_id, "rawId": credential_id, "type": "public-key",
            "response": {
                "clientDataJSON": b64url_text(bytes.fromhex(registration["clientDataJSON"])),
                "attestationObject": b64url_text(bytes.fromhex(registration["attestationObject"])),
                "transports": ["internal", "hybrid"],
            },
            "authenticatorAttachment": "platform", "clientExtensionResults": {},
        })
        yield compact({
            "id": credential_id, "rawId": credential_id, "type": "public-key",
            "response": {
                "clientDataJSON": b64url_text(bytes.fromhex(authentication["clientDataJSON"])),
                "authenticatorData": b64url_text(bytes.fromhex(authentication["authenticatorData"])),
                "signature": b64url_text(bytes.fromhex(authentication["signature"])),
                "userHandle": b64url_text(b"user"),
            },
            "clientExtensionResults": {"credProps": {"rk": True}},
        })
        yield compact({
            "rp": {"id": derived["rp_id"], "name": "Example"},
            "user": {"id": b64url_text(b"user"), "name": "user@example.org", "displayName": "U"},
            "challenge": b64url_text(bytes.fromhex(registration["challenge"])),
            "pubKeyCredParams": algorithms, "timeout": 60000,
            "excludeCredentials": [{"type": "public-key", "id": credential_id,
                                    "transports": ["usb"]}],
            "authenticatorSelection": {"authenticatorAttachment": "cross-platform",
                                       "residentKey": "preferred", "requireResidentKey": False,
                                       "userVerification": "required"},
            "hints": ["security-key"], "attestation": derived["attestation_format"] == "none"
            and "none" or "direct", "attestationFormats": ["packed"], "extensions": {"credProps": True},
        })
        yield compact({
            "challenge": b64url_text(bytes.fromhex(authentication["challenge"])),
            "timeout": 60000, "rpId": derived["rp_id"],
            "allowCredentials": [{"type": "public-key", "id": credential_id}],
            "userVerification": "preferred", "hints": ["client-device"], "extensions": {},
        })
        # The relying party's own forms: a credential record and both ceremony states.
        yield compact({
            "version": 1, "type": "public-key", "id": credential_id,
            "publicKey": b64url_text(bytes.fromhex(derived["credential_public_key_cose"])),
            "signCount": 0, "transports": ["internal", "hybrid"], "uvInitialized": True,
            "backupEligible": False, "backupState": False,
            "attestationObject": b64url_text(bytes.fromhex(registration["attestationObject"])),
            "attestationClientDataJSON": b64url_text(bytes.fromhex(registration["clientDataJSON"])),
            "userHandle": b64url_text(b"user"),
        })
        yield compact({
            "version": 1, "ceremony": "registration",
            "challenge": b64url_text(bytes.fromhex(registration["challenge"])),
            "relyingPartyID": derived["rp_id"],
            "user": {"id": b64url_text(b"user"), "name": "user@example.org", "displayName": "U"},
            "userVerification": "preferred", "algorithms": [-7, -8, -257], "attestation": "none",
            "excludedCredentials": [credential_id],
            "acceptedAttestationTypes": ["anonCA", "attCA", "basic", "none", "self"],
            "allowedExtensions": ["credProtect"], "expiresAt": 1767225600000,
        })
        yield compact({
            "version": 1, "ceremony": "authentication",
            "challenge": b64url_text(bytes.fromhex(authentication["challenge"])),
            "relyingPartyID": derived["rp_id"], "userVerification": "required",
            "allowedCredentials": [credential_id], "expiresAt": 1767225600000,
        })


def base64_texts():
    for case in load("rfc8949-appendix-a.json"):
        yield case["cbor"].encode()
    for name in ("real-registrations.json", "real-authentications.json"):
        for case in load(name):
            for value in case["credential"]["response"].values():
                if isinstance(value, str):
                    yield value.encode()
            yield case["credential"]["id"].encode()
    yield b""
    yield b"Zg"
    yield b"Zg=="
    yield b"Zm9v\nYmFy"


def belvo_documents():
    guide = ROOT.parent / "shared" / "belvo-biometric-pix.md"
    if guide.is_file():
        for block in re.findall(r"```json\n(.*?)```", guide.read_text(), re.S):
            yield block.encode()
    options = {"rpId": "belvo.com", "timeout": 300000, "challenge": "oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4",
               "allowCredentials": [{"id": "AfD-uI4LUzJAuzyLBRrPncocLusMgZ8yHNuuUl-7NSFb", "type": "public-key",
                                     "transports": ["internal"]}],
               "userVerification": "required", "extensions": {"appid": True}}
    enrollment = {"id": "3f2c1b7e-8d4a-4e5f-9a6b-0c1d2e3f4a5b", "status": "PENDING",
                  "type": "open_finance_biometric_pix", "created_at": "2025-01-02T03:04:05.678Z",
                  "external_id": "x-1", "status_reason_code": None, "status_reason_message": None,
                  "details": {"status": "AWAITING_ACCOUNT_HOLDER_VALIDATION",
                              "redirect_url": "https://bank.example/authorize", "customer": "c",
                              "institution": "i", "name": "n", "platform": "IOS",
                              "callback_url": "https://merchant.example/cb"}}
    intent = {"id": "7d9e8f10", "status": "REQUIRES_ACTION", "customer": "c", "description": "Coffee",
              "status_reason_code": None, "status_reason_message": None,
              "payment_method_information": {"open_finance_biometric_pix": {
                  "consent_id": "urn:bank:consent-42", "end_to_end_id": "E1", "external_payment_id": "e",
                  "provider_request_id": "p", "fido_options": options}}}
    yield compact(options)
    yield compact(enrollment)
    yield compact(intent)
    yield compact({"count": 1, "next": None, "previous": None, "results": [enrollment]})
    yield compact({"count": 1, "next": "https://api.belvo.com/x?page=2", "previous": None,
                   "results": [{"id": "i", "name": "bank", "display_name": "Bank",
                                "icon_logo": "https://x/i.png", "logo": "https://x/l.png"}]})
    yield compact({"access": "eyJhbGciOiJIUzI1NiJ9.access.sig", "refresh": "eyJ.refresh.sig"})
    yield compact([{"code": "invalid", "message": "bad", "field": "amount", "request_id": "r"}])
    yield compact({"detail": "Authentication credentials were not provided."})
    yield compact({"deviceId": "AbC+/=", "zeta": 1.5, "alpha": [True, None, 1e2], "nested": {"a": "é"}})
    for case in w3c_cases()[:3]:
        yield compact({
            "rp": {"id": case["derived"]["rp_id"], "name": "RP"},
            "user": {"id": "a5bd0ef9-f8ab-41a2-b968-489761a91de6", "name": "Ralph", "displayName": "R"},
            "challenge": b64url_text(bytes.fromhex(case["registration"]["values"]["challenge"])),
            "pubKeyCredParams": [{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}],
            "timeout": 60000, "excludeCredentials": [{"id": case["derived"]["credential_id_b64url"],
                                                      "type": "public-key"}],
            "authenticatorSelection": {"authenticatorAttachment": "platform", "residentKey": "required",
                                       "requireResidentKey": True, "userVerification": "required"},
            "attestation": "none", "extensions": {"appid": "true"},
        })


def metadata_payloads():
    """Small MDS3 payloads: each entry of the production BLOB in ../mds, alone in a payload."""
    path = vectors_dir().parent / "mds" / "mds3-blob-31.jwt"
    if not path.is_file():
        sys.exit(f"seeds.py: MDS3 BLOB not found at {path}")
    payload = json.loads(b64url(path.read_text().strip().split(".")[1]))
    for entry in payload["entries"]:
        yield compact({"legalHeader": "seed", "no": payload["no"],
                       "nextUpdate": payload["nextUpdate"], "entries": [entry]})
    yield compact({"no": 1, "nextUpdate": "2023-10-01", "entries": []})


SEED_KINDS = {
    "cbor-items": cbor_items,
    "attestation-objects": attestation_objects,
    "cose-keys": cose_keys,
    "attestation-verification": attestation_verification,
    "authenticator-data": authenticator_data,
    "relying-party": relying_party,
    "certificates": certificates,
    "spki-keys": spki_keys,
    "jwk-keys": jwk_keys,
    "ecdsa-signatures": ecdsa_signatures,
    "client-data": client_data,
    "webauthn-json": webauthn_json,
    "base64-texts": base64_texts,
    "belvo-documents": belvo_documents,
    "metadata-payloads": metadata_payloads,
}


def target_kinds(target: str) -> list:
    """The kinds in fuzz-TARGET's `// seeds:` header line (none if it has no such line)."""
    sources = sorted((Path(__file__).resolve().parent / "Sources" / f"fuzz-{target}")
                     .glob("*Fuzzer.swift"))
    if not sources:
        sys.exit(f"seeds.py: no fuzz target {target!r}")
    for source in sources:
        for line in source.read_text().splitlines():
            match = re.match(r"^// seeds: *(.*)$", line)
            if match:
                return match.group(1).split()
    return []


def main() -> None:
    usage = f"usage: seeds.py OUTPUT_DIR (KIND... | --target NAME); kinds: {' '.join(SEED_KINDS)}"
    if len(sys.argv) < 3:
        sys.exit(usage)
    output = Path(sys.argv[1])
    if sys.argv[2] == "--target":
        if len(sys.argv) != 4:
            sys.exit(usage)
        kinds = target_kinds(sys.argv[3])
    else:
        kinds = sys.argv[2:]
    output.mkdir(parents=True, exist_ok=True)
    written = 0
    for kind in kinds:
        if kind not in SEED_KINDS:
            sys.exit(f"seeds.py: unknown seed kind {kind!r}; kinds: {' '.join(SEED_KINDS)}")
        for data in SEED_KINDS[kind]():
            path = output / ("seed-" + hashlib.sha1(data).hexdigest())
            if not path.exists():
                path.write_bytes(data)
                written += 1
    print(f"seeds: {written} new seed(s) in {output}")


if __name__ == "__main__":
    main()
