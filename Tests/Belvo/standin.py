#!/usr/bin/env python3
"""A stand-in for Belvo's Payments API (Biometric Pix) speaking HTTP on loopback.

Written from Belvo's integration guide (../shared/belvo-biometric-pix.md) for fido2kit's tests
and CI; Python's standard library only. It implements the documented endpoints under
/payments/br, checks every request (method, path, HTTP Basic credentials, Content-Type, body
members and their types), verifies the confirm and authorize payloads with fido2kit's relying
party (`fido2kit verify registration` / `verify assertion`) or, with --verifier py_webauthn, with
py_webauthn, an independent relying party (the one import outside the standard library, made
only then), against challenges it made itself, and plays the asynchronous parts: registration
options not ready at first (404), enrollment and payment statuses that advance, and a bank whose
approval page redirects twice before reaching the enrollment's callback_url with state, code and
id_token (or, for a callback_url under /manual/, a page that needs a person).

A request that breaks the guide is answered as Belvo answers bad requests (400 with
[{"code", "message", "field"}]), logged on stderr and remembered: GET /_standin/complaints lists
every complaint so far (run.sh fails on any), --complaints-file writes them at exit.

Usage: standin.py (--fido2kit BIN | --verifier py_webauthn) --secret-id ID --secret-password PW
                   [--port-file F] [--options-delay N]
"""

import argparse
import base64
import json
import os
import re
import secrets
import subprocess
import sys
import tempfile
import threading
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

BASE = "/payments/br"
RP_ID = "belvo.com"
ORIGIN = "https://belvo.com"
INSTITUTION = "0d7c3b1a-0000-4000-8000-00000000babe"
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
B64U_RE = re.compile(r"^[A-Za-z0-9_-]+$")
MAX_BODY = 64 * 1024


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Problem(Exception):
    """A request that breaks the guide: answered with `status` and Belvo's error list."""

    def __init__(self, status, message, field=None, code="invalid"):
        super().__init__(message)
        self.status, self.message, self.field, self.code = status, message, field, code


def require(condition, message, field=None):
    if not condition:
        raise Problem(400, message, field)


def member(obj, name, kind, path):
    """obj[name], required to be of `kind` (str non-empty, dict, list, bool, number)."""
    field = f"{path}.{name}" if path else name
    require(isinstance(obj, dict) and name in obj, f"{field} is required", field)
    value = obj[name]
    if kind is str:
        require(isinstance(value, str) and value != "", f"{field} must be a non-empty string", field)
    elif kind is bool:
        require(isinstance(value, bool), f"{field} must be a boolean", field)
    elif kind == "number":
        require(isinstance(value, (int, float)) and not isinstance(value, bool),
                f"{field} must be a number", field)
    else:
        require(isinstance(value, kind), f"{field} must be a {kind.__name__}", field)
    return value


def exactly(obj, names, path):
    extra = sorted(set(obj) - set(names))
    require(not extra, f"{path or 'body'} has undocumented members {extra}", path)


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.enrollments = {}  # id -> dict
        self.intents = {}  # id -> dict
        self.by_state = {}  # OAuth state -> enrollment id
        self.complaints = []


class Handler(BaseHTTPRequestHandler):
    server_version = "BelvoStandIn/1"
    protocol_version = "HTTP/1.1"

    # ---- plumbing -------------------------------------------------------------------------

    def log_message(self, fmt, *args):
        sys.stderr.write("standin: " + (fmt % args) + "\n")

    @property
    def state(self) -> State:
        return self.server.state

    def answer(self, status, body=None, headers=None):
        data = b"" if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        self.send_response(status)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if data:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_GET(self):
        self.dispatch()

    def do_POST(self):
        self.dispatch()

    def dispatch(self):
        try:
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                raise Problem(413, "body too large")
            raw = self.rfile.read(length) if length else b""
            url = urlsplit(self.path)
            if url.path == "/_standin/complaints":
                return self.answer(200, self.state.complaints)
            if url.path.startswith("/bank/"):
                return self.bank(url)
            self.check_credentials()
            body = None
            if self.command == "POST" and url.path != "/payments/api/widget-token/":
                require(self.headers.get("Content-Type", "").split(";")[0].strip() == "application/json",
                        "Content-Type must be application/json", "Content-Type")
                try:
                    body = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError) as error:
                    raise Problem(400, f"body is not JSON: {error}")
                require(isinstance(body, dict), "body must be a JSON object")
            with self.state.lock:
                status, payload = self.route(self.command, url.path, parse_qs(url.query), body)
            self.answer(status, payload)
        except Problem as problem:
            if problem.status != 404 or "not ready" not in problem.message:
                self.state.complaints.append(f"{self.command} {self.path}: {problem.message}")
                sys.stderr.write(f"standin: COMPLAINT {self.command} {self.path}: {problem.message}\n")
            error = {"code": problem.code, "message": problem.message}
            if problem.field:
                error["field"] = problem.field
            self.answer(problem.status, [error])

    def check_credentials(self):
        header = self.headers.get("Authorization", "")
        expected = "Basic " + base64.b64encode(
            f"{self.state.args.secret_id}:{self.state.args.secret_password}".encode()).decode()
        if header != expected:
            raise Problem(401, "Invalid credentials provided", code="authentication_failed")
        require(self.headers.get("Accept", "") == "application/json", "Accept must be application/json", "Accept")

    # ---- the bank ------------------------------------------------------------------------

    def bank(self, url):
        """The payer's bank: /bank/authorize → /bank/approved → the enrollment's callback_url."""
        query = parse_qs(url.query)
        enrollment = self.state.enrollments.get((query.get("enrollment") or [""])[0])
        if enrollment is None:
            return self.answer(404, [{"code": "not_found", "message": "no such enrollment"}])
        if url.path == "/bank/authorize":
            if "/manual/" in enrollment["callback_url"]:
                # A bank that needs a person: an approval page, no redirect.
                return self.answer(200, b'{"page": "approve in your bank app"}')
            return self.answer(302, None, {"Location": f"/bank/approved?enrollment={enrollment['id']}"})
        if url.path == "/bank/approved":
            location = enrollment["callback_url"] + "?" + urlencode(
                {"state": enrollment["oauth_state"], "code": enrollment["oauth_code"],
                 "id_token": "eyJhbGciOiJub25lIn0.eyJzdWIiOiJzdGFuZC1pbiJ9."})
            return self.answer(302, None, {"Location": location})
        return self.answer(404, [{"code": "not_found", "message": "no such bank page"}])

    # ---- Belvo -----------------------------------------------------------------------------

    def route(self, method, path, query, body):
        if (method, path) == ("POST", "/payments/api/widget-token/"):
            return 200, {"access": "standin-access", "refresh": "standin-refresh"}
        require(path.startswith(BASE + "/"), f"no resource {path}")
        rest = path[len(BASE):]
        parts = [p for p in rest.split("/") if p]
        require(rest.endswith("/"), f"{path}: Belvo's paths end with /")
        if method == "GET" and parts == ["institutions"]:
            require(not query, "institutions takes no query")
            return 200, {"count": 1, "next": None, "previous": None, "results": [
                {"id": INSTITUTION, "name": "standin_mockbank", "display_name": "Stand-in Mockbank",
                 "icon_logo": "https://mockbank.example/icon.svg"}]}
        if parts[:1] == ["enrollments"]:
            return self.enrollments(method, parts[1:], query, body)
        if parts[:1] == ["payment-intents"]:
            return self.payment_intents(method, parts[1:], query, body)
        raise Problem(404, f"no {method} {path}", code="not_found")

    def enrollment(self, enrollment_id):
        enrollment = self.state.enrollments.get(enrollment_id)
        if enrollment is None:
            raise Problem(404, f"no enrollment {enrollment_id}", code="not_found")
        return enrollment

    def enrollments(self, method, parts, query, body):
        if method == "POST" and parts == []:
            exactly(body, ["type", "details"], "")
            require(member(body, "type", str, "") == "open_finance_biometric_pix", "type must be open_finance_biometric_pix", "type")
            details = member(body, "details", dict, "")
            exactly(details, ["customer", "institution", "name", "platform", "callback_url", "risk_signals"], "details")
            customer = member(details, "customer", str, "details")
            require(UUID_RE.match(customer), "details.customer must be a UUID", "details.customer")
            require(member(details, "institution", str, "details") == INSTITUTION, "unknown institution", "details.institution")
            member(details, "name", str, "details")
            require(member(details, "platform", str, "details") == "IOS", "platform must be IOS", "details.platform")
            callback = member(details, "callback_url", str, "details")
            require(urlsplit(callback).scheme == "https" and not urlsplit(callback).query,
                    "callback_url must be an HTTPS URL without a query", "details.callback_url")
            signals = member(details, "risk_signals", dict, "details")
            device_id = member(signals, "deviceId", str, "details.risk_signals")
            enrollment_id = str(uuid.uuid4())
            host, port = self.server.server_address[:2]
            enrollment = {
                "id": enrollment_id, "status": "PENDING", "customer": customer,
                "callback_url": callback, "device_id": device_id,
                "oauth_state": secrets.token_urlsafe(12), "oauth_code": secrets.token_urlsafe(12),
                "redirected": False, "options_requests": 0, "status_requests": 0,
            }
            self.state.enrollments[enrollment_id] = enrollment
            self.state.by_state[enrollment["oauth_state"]] = enrollment_id
            redirect = f"http://{host}:{port}/bank/authorize?enrollment={enrollment_id}"
            return 201, self.enrollment_json(enrollment, detail_status="AWAITING_ACCOUNT_HOLDER_VALIDATION",
                                             redirect_url=redirect)
        if method == "POST" and parts == ["complete-redirection"]:
            exactly(body, ["state", "code", "id_token"], "")
            state = member(body, "state", str, "")
            code = member(body, "code", str, "")
            member(body, "id_token", str, "")
            if state == "manual":  # a person approved: the latest enrollment awaiting them
                waiting = [e for e in self.state.enrollments.values() if "/manual/" in e["callback_url"]]
                require(waiting, "no enrollment awaits a person's approval", "state")
                enrollment = waiting[-1]
            else:
                enrollment_id = self.state.by_state.get(state)
                require(enrollment_id is not None, "unknown state", "state")
                enrollment = self.enrollment(enrollment_id)
                require(code == enrollment["oauth_code"], "code does not match the state", "code")
            enrollment["redirected"] = True
            return 200, self.enrollment_json(enrollment)
        if method == "GET" and parts == []:
            device = query.get("device_id") or []
            require(len(device) == 1 and device[0], "device_id is required", "device_id")
            results = [self.enrollment_json(e) for e in self.state.enrollments.values()
                       if e["device_id"] == device[0]]
            return 200, {"count": len(results), "next": None, "previous": None, "results": results}
        if len(parts) == 1 and method == "GET":
            enrollment = self.enrollment(parts[0])
            if enrollment.get("credential") and enrollment["status"] == "PENDING":
                enrollment["status_requests"] += 1
                if enrollment["status_requests"] > 1:  # PENDING once, then SUCCEEDED
                    enrollment["status"] = "SUCCEEDED"
            return 200, self.enrollment_json(enrollment)
        if len(parts) == 2 and parts[1] == "fido-registration-options" and method == "GET":
            enrollment = self.enrollment(parts[0])
            enrollment["options_requests"] += 1
            if not enrollment["redirected"] or enrollment["options_requests"] <= self.state.args.options_delay:
                raise Problem(404, "fido registration options not ready yet", code="not_found")
            if "options" not in enrollment:
                enrollment["user_id"] = str(uuid.uuid4())
                enrollment["options"] = {
                    "rp": {"id": RP_ID, "name": "Stand-in Mockbank"},
                    "user": {"id": enrollment["user_id"], "name": "Ralph Bragg", "displayName": "Ralph Bragg"},
                    "challenge": b64u(secrets.token_bytes(32)),
                    "pubKeyCredParams": [{"alg": -257, "type": "public-key"}, {"alg": -7, "type": "public-key"}],
                    "extensions": {"appid": "true"},
                }
            return 200, enrollment["options"]
        if len(parts) == 2 and parts[1] == "confirm" and method == "POST":
            enrollment = self.enrollment(parts[0])
            require("options" in enrollment, "confirm before the registration options were served")
            require(not enrollment.get("credential"), "the enrollment is already confirmed")
            exactly(body, ["confirmation_data"], "")
            data = member(body, "confirmation_data", dict, "")
            path = "confirmation_data"
            exactly(data, ["authenticatorAttachment", "id", "rawId", "type", "response"], path)
            require(member(data, "authenticatorAttachment", str, path) == "platform", "authenticatorAttachment must be platform")
            require(member(data, "type", str, path) == "public-key", "type must be public-key")
            for name in ("id", "rawId"):
                require(B64U_RE.match(member(data, name, str, path)), f"{path}.{name} must be base64url", name)
            response = member(data, "response", dict, path)
            exactly(response, ["attestationObject", "clientDataJSON"], path + ".response")
            for name in ("attestationObject", "clientDataJSON"):
                require(B64U_RE.match(member(response, name, str, path + ".response")), f"{name} must be base64url", name)
            verdict = self.verify_registration(data, enrollment["options"]["challenge"])
            enrollment["credential"] = {"id": verdict["credentialId"], "publicKey": verdict["publicKey"],
                                        "signCount": verdict["signCount"]}
            return 204, None
        raise Problem(404, f"no {method} enrollments/{'/'.join(parts)}/", code="not_found")

    def payment_intents(self, method, parts, query, body):
        if method == "POST" and parts == []:
            exactly(body, ["amount", "allowed_payment_method_types", "customer", "description",
                           "statement_description", "payment_method_details", "confirm"], "")
            amount = member(body, "amount", "number", "")
            require(amount > 0, "amount must be positive", "amount")
            require(member(body, "allowed_payment_method_types", list, "") == ["open_finance_biometric_pix"],
                    "allowed_payment_method_types must be [open_finance_biometric_pix]")
            customer = member(body, "customer", str, "")
            member(body, "description", str, "")
            member(body, "statement_description", str, "")
            require(member(body, "confirm", bool, "") is True, "confirm must be true", "confirm")
            details = member(body, "payment_method_details", dict, "")
            exactly(details, ["open_finance_biometric_pix"], "payment_method_details")
            pix = member(details, "open_finance_biometric_pix", dict, "payment_method_details")
            path = "payment_method_details.open_finance_biometric_pix"
            exactly(pix, ["beneficiary_bank_account", "enrollment"], path)
            member(pix, "beneficiary_bank_account", str, path)
            enrollment = self.enrollment(member(pix, "enrollment", str, path))
            require(enrollment["status"] == "SUCCEEDED", "the enrollment has not SUCCEEDED", path + ".enrollment")
            require(enrollment["customer"] == customer, "the enrollment belongs to another customer", "customer")
            intent_id = str(uuid.uuid4())
            intent = {"id": intent_id, "status": "REQUIRES_ACTION", "amount": amount, "customer": customer,
                      "enrollment": enrollment["id"], "challenge": b64u(secrets.token_bytes(32)),
                      "status_requests": 0}
            self.state.intents[intent_id] = intent
            return 201, self.intent_json(intent)
        intent = self.state.intents.get(parts[0]) if parts else None
        if intent is None:
            raise Problem(404, f"no payment intent {parts[:1]}", code="not_found")
        if len(parts) == 1 and method == "GET":
            if intent["status"] == "PROCESSING":
                intent["status_requests"] += 1
                if intent["status_requests"] > 1:
                    intent["status"] = "SUCCEEDED"
            return 200, self.intent_json(intent)
        if len(parts) == 2 and parts[1] == "authorize" and method == "POST":
            require(intent["status"] == "REQUIRES_ACTION", "the payment intent is not awaiting authorization")
            require(set(body) in ({"risk_signals", "assertion"}, {"risk_signals", "assertion", "platform"}),
                    "body must be {risk_signals, assertion} (and platform in the SDK's edition)")
            if "platform" in body:
                require(body["platform"] == "ios", "platform must be ios", "platform")
            member(body, "risk_signals", dict, "")
            assertion = member(body, "assertion", dict, "")
            exactly(assertion, ["authenticatorAttachment", "id", "rawId", "response", "type"], "assertion")
            require(member(assertion, "authenticatorAttachment", str, "assertion") == "platform", "authenticatorAttachment must be platform")
            require(member(assertion, "type", str, "assertion") == "public-key", "type must be public-key")
            response = member(assertion, "response", dict, "assertion")
            exactly(response, ["authenticatorData", "clientDataJSON", "signature", "userHandle"], "assertion.response")
            for name in ("authenticatorData", "clientDataJSON", "signature", "userHandle"):
                require(B64U_RE.match(member(response, name, str, "assertion.response")), f"{name} must be base64url", name)
            enrollment = self.state.enrollments[intent["enrollment"]]
            credential = enrollment["credential"]
            require(member(assertion, "rawId", str, "assertion") == credential["id"], "not the enrolled credential", "assertion.rawId")
            verdict = self.verify_assertion(assertion, intent["challenge"], credential,
                                            b64u(enrollment["user_id"].encode()))
            credential["signCount"] = verdict["signCount"]
            intent["status"] = "PROCESSING"
            return 204, None
        raise Problem(404, f"no {method} payment-intents/{'/'.join(parts)}/", code="not_found")

    # ---- helpers -------------------------------------------------------------------------------

    def verify_registration(self, data, challenge):
        """{credentialId, publicKey (COSE, base64url), signCount} of a verified registration."""
        if self.state.args.verifier == "py_webauthn":
            import webauthn  # only with --verifier py_webauthn: the script stays stdlib-only
            try:
                verified = webauthn.verify_registration_response(
                    credential=data, expected_challenge=unb64u(challenge), expected_rp_id=RP_ID,
                    expected_origin=ORIGIN, require_user_verification=True)
            except Exception as error:  # py_webauthn raises several exception types
                raise Problem(400, f"py_webauthn rejects it: {error}", code="invalid_fido")
            return {"credentialId": b64u(verified.credential_id),
                    "publicKey": b64u(verified.credential_public_key), "signCount": verified.sign_count}
        return self.fido2kit(
            ["verify", "registration", "--challenge=" + challenge, "--origin", ORIGIN,
             "--rp-id", RP_ID, "--require-uv"], data)

    def verify_assertion(self, assertion, challenge, credential, user_handle):
        """{signCount} of a verified assertion by `credential` for `user_handle`."""
        if self.state.args.verifier == "py_webauthn":
            import webauthn
            require(assertion["response"]["userHandle"] == user_handle, "userHandle is not the enrolled user",
                    "assertion.response.userHandle")
            try:
                verified = webauthn.verify_authentication_response(
                    credential=assertion, expected_challenge=unb64u(challenge), expected_rp_id=RP_ID,
                    expected_origin=ORIGIN, credential_public_key=unb64u(credential["publicKey"]),
                    credential_current_sign_count=credential["signCount"], require_user_verification=True)
            except Exception as error:
                raise Problem(400, f"py_webauthn rejects it: {error}", code="invalid_fido")
            return {"signCount": verified.new_sign_count}
        return self.fido2kit(
            ["verify", "assertion", "--challenge=" + challenge, "--origin", ORIGIN, "--rp-id", RP_ID,
             "--require-uv", "--public-key=" + credential["publicKey"],
             "--sign-count", str(credential["signCount"]), "--user-handle=" + user_handle], assertion)

    def fido2kit(self, arguments, response):
        """Runs `fido2kit verify …` on `response`; its JSON verdict, or a 400 with its complaint.

        Base64url values are passed as `--name=VALUE`: a random one may start with `-`."""
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(response, handle)
            name = handle.name
        try:
            run = subprocess.run([self.state.args.fido2kit, *arguments[:2], "--response", name, *arguments[2:]],
                                 capture_output=True, text=True, timeout=30)
        finally:
            os.unlink(name)
        if run.returncode != 0:
            raise Problem(400, "fido2kit's relying party rejects it: " + run.stderr.strip(), code="invalid_fido")
        return json.loads(run.stdout)

    @staticmethod
    def enrollment_json(enrollment, detail_status=None, redirect_url=None):
        details = {"customer": enrollment["customer"], "institution": INSTITUTION, "platform": "IOS",
                   "callback_url": enrollment["callback_url"]}
        if detail_status:
            details["status"] = detail_status
        if redirect_url:
            details["redirect_url"] = redirect_url
        return {"id": enrollment["id"], "status": enrollment["status"], "type": "open_finance_biometric_pix",
                "details": details, "status_reason_code": None, "status_reason_message": None}

    @staticmethod
    def intent_json(intent):
        return {"id": intent["id"], "status": intent["status"], "customer": intent["customer"],
                "amount": str(intent["amount"]), "allowed_payment_method_types": ["open_finance_biometric_pix"],
                "payment_method_information": {"open_finance_biometric_pix": {
                    "consent_id": "urn:standin:consent", "end_to_end_id": "E00000000standin",
                    "external_payment_id": "standin-external", "provider_request_id": "standin-provider",
                    "fido_options": {"rpId": RP_ID, "timeout": 300000, "challenge": intent["challenge"],
                                     "allowCredentials": [{"id": Handler.credential_of(intent), "type": "public-key"}]}}}}

    @staticmethod
    def credential_of(intent):
        return Handler.current_state.enrollments[intent["enrollment"]]["credential"]["id"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fido2kit", help="the fido2kit binary that verifies payloads (--verifier fido2kit)")
    parser.add_argument("--verifier", choices=["fido2kit", "py_webauthn"], default="fido2kit",
                        help="who verifies the confirm and authorize payloads: fido2kit's relying party, "
                             "or py_webauthn (an independent one; needs the webauthn package)")
    parser.add_argument("--secret-id", required=True)
    parser.add_argument("--secret-password", required=True)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--port-file", help="write the port here once listening")
    parser.add_argument("--options-delay", type=int, default=1,
                        help="how many fido-registration-options requests answer 404 first")
    parser.add_argument("--complaints-file", help="write every complaint here at exit")
    args = parser.parse_args()
    if args.verifier == "fido2kit" and not args.fido2kit:
        parser.error("--verifier fido2kit needs --fido2kit BIN")
    if args.verifier == "py_webauthn":
        import webauthn  # noqa: F401  fail at start, not at the first confirm
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.state = State(args)
    Handler.current_state = server.state
    port = server.server_address[1]
    if args.port_file:
        with open(args.port_file + ".tmp", "w") as handle:
            handle.write(f"{port}\n")
        os.replace(args.port_file + ".tmp", args.port_file)
    sys.stderr.write(f"standin: listening on http://127.0.0.1:{port}\n")

    import signal

    def stop(*_):
        if args.complaints_file:
            with open(args.complaints_file, "w") as handle:
                handle.write("".join(line + "\n" for line in server.state.complaints))
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    server.serve_forever()


if __name__ == "__main__":
    main()
