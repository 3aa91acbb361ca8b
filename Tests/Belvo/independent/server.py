#!/usr/bin/env python3
"""An independent HTTP stand-in for Belvo's Payments API (Biometric Pix).

Written from the integration guide alone (docs shared beside the project as
belvo-biometric-pix.md), without reading the project's own stand-in
(Tests/Belvo/standin.py) or its client (Sources/Fido2Belvo, Sources/fido2kit/Demo).
Python 3 standard library plus py_webauthn (for the FIDO2 checks).

Every check that fails answers a 4xx with a Belvo-shaped error body
([{"code", "message", "request_id"}]) and records a complaint. GET /__complaints
shows the complaints and what the server saw; on SIGTERM/SIGINT they are written to
the file given by --complaints.

Where the guide is silent, the choice made here is written beside the code as
"GUIDE SILENT:" so that a failure against this server can be traced to the guide.
"""

import argparse
import base64
import json
import re
import secrets
import signal
import sys
import threading
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlencode, urlsplit

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers.cose import COSEAlgorithmIdentifier

# The guide: confirm's full path is /payments/br/enrollments/{id}/confirm/ and the
# payment intents live at /payments/br/payment-intents/; the other short paths of the
# guide (/institutions/, /enrollments/, /payment-intents/{id}/authorize/) are read as
# relative to the same /payments/br prefix. The widget token is /payments/api/widget-token/.
BR = "/payments/br"
TOKEN_PATH = "/payments/api/widget-token/"
BANK_PATH = "/bank/authorize/"  # this server's own "bank app" page (not Belvo's API)

UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
B64U_RE = re.compile(r"^[A-Za-z0-9_-]*$")


def b64u(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def b64u_decode(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def now_iso() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


class Reject(Exception):
    """A check failed: answer `status` with a Belvo-shaped error and record a complaint."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class State:
    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.complaints = []
        self.notes = []
        self.counts = {}
        self.tokens = set()
        self.institutions = [
            {"id": str(uuid.uuid4()), "name": "independent_mockbank_br_retail",
             "display_name": "Independent Mockbank", "code": "999",
             "icon_logo": "https://example.invalid/logo.svg"},
            {"id": str(uuid.uuid4()), "name": "independent_otherbank_br_retail",
             "display_name": "Independent Otherbank", "code": "998",
             "icon_logo": "https://example.invalid/logo2.svg"},
        ]
        self.enrollments = {}      # id -> dict (public + private fields under "_")
        self.by_state = {}         # bank state -> enrollment id
        self.intents = {}          # id -> dict

    def count(self, name):
        self.counts[name] = self.counts.get(name, 0) + 1


def public(obj):
    return {k: v for k, v in obj.items() if k != "_"}


# ---------------------------------------------------------------------------------------
# checks


def need(cond, message, status=400, code="invalid"):
    if not cond:
        raise Reject(status, code, message)


def member(obj, key, typ, where):
    need(isinstance(obj, dict), f"{where} must be a JSON object")
    need(key in obj, f"{where}.{key} is required", code="required")
    val = obj[key]
    if typ is float:
        ok = isinstance(val, (int, float)) and not isinstance(val, bool)
    else:
        ok = isinstance(val, typ) and not (typ is int and isinstance(val, bool))
    names = {float: "number", str: "string", dict: "object", list: "array", bool: "boolean"}
    need(ok, f"{where}.{key} must be a JSON {names.get(typ, typ.__name__)}, got {type(val).__name__}")
    return val


def uuid_member(obj, key, where):
    val = member(obj, key, str, where)
    need(UUID_RE.match(val), f"{where}.{key} must be a UUID, got {val!r}")
    return val


def b64u_member(obj, key, where):
    val = member(obj, key, str, where)
    need(val and B64U_RE.match(val), f"{where}.{key} must be unpadded base64url")
    return val


def check_risk_signals(rs, where):
    need(isinstance(rs, dict), f"{where} must be a JSON object (the SDK's RiskSignals)")
    need(len(rs) > 0, f"{where} must not be empty")
    for key in ("accountTenure", "account_tenure"):
        if key in rs:
            need(isinstance(rs[key], str) and DATE_RE.match(rs[key]),
                 f"{where}.{key} must be YYYY-MM-DD, got {rs[key]!r}")


def device_id_of(rs):
    if isinstance(rs, dict):
        for key in ("deviceId", "device_id"):
            if isinstance(rs.get(key), str):
                return rs[key]
    return None


# ---------------------------------------------------------------------------------------
# handler


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "IndependentBelvoStandIn/1"

    # quiet default logging; the server logs its own lines when --verbose
    def log_message(self, fmt, *a):
        if self.server.state.args.verbose:
            sys.stderr.write("[standin] " + (fmt % a) + "\n")

    @property
    def st(self) -> State:
        return self.server.state

    def do_GET(self):
        self.dispatch("GET")

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")

    def do_PATCH(self):
        self.dispatch("PATCH")

    def do_DELETE(self):
        self.dispatch("DELETE")

    # --- plumbing --------------------------------------------------------------------

    def send_json(self, status, obj=None, headers=()):
        body = b"" if obj is None else json.dumps(obj).encode()
        self.send_response(status)
        if obj is not None:
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if body:
            self.wfile.write(body)

    def read_body(self):
        length = self.headers.get("Content-Length")
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            chunks = []
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                chunks.append(self.rfile.read(size))
                self.rfile.readline()
            return b"".join(chunks)
        return self.rfile.read(int(length)) if length else b""

    def json_body(self, raw, required=True):
        if not raw and not required:
            return None
        ctype = self.headers.get("Content-Type", "")
        need(ctype.split(";")[0].strip().lower() == "application/json",
             f"Content-Type must be application/json, got {ctype!r}", status=415,
             code="unsupported_media_type")
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise Reject(400, "parse_error", f"body is not JSON: {e}")

    def authenticate(self):
        auth = self.headers.get("Authorization", "")
        a = self.st.args
        if auth.startswith("Basic "):
            try:
                user, _, pw = base64.b64decode(auth[6:]).decode().partition(":")
            except Exception:
                raise Reject(401, "authentication_failed", "malformed Basic credentials")
            need(user == a.secret_id and pw == a.secret_password,
                 "Invalid secret id or secret password", status=401, code="authentication_failed")
            return "basic"
        if auth.startswith("Bearer "):
            with self.st.lock:
                ok = auth[7:] in self.st.tokens
            need(ok, "Invalid or expired access token", status=401, code="authentication_failed")
            return "bearer"
        raise Reject(401, "authentication_failed", "Authentication credentials were not provided")

    def dispatch(self, method):
        path = urlsplit(self.path).path
        query = parse_qs(urlsplit(self.path).query)
        raw = b""
        try:
            raw = self.read_body()
        except Exception:
            pass
        if path.startswith("/__"):
            return self.test_hooks(method, path)
        try:
            if path == BANK_PATH and method == "GET":
                return self.bank_page(query)
            route = self.route(method, path)
            if route is None:
                raise Reject(404, "not_found", f"no such endpoint in the guide: {method} {path}")
            fn, params = route
            how = self.authenticate()
            with self.st.lock:
                self.st.count(f"auth:{how}")
            return fn(raw, query, *params)
        except Reject as r:
            with self.st.lock:
                self.st.complaints.append({"method": method, "path": self.path,
                                           "status": r.status, "code": r.code,
                                           "message": r.message})
            if self.st.args.verbose:
                sys.stderr.write(f"[standin] COMPLAINT {method} {self.path}: {r.status} {r.message}\n")
            self.send_json(r.status, [{"code": r.code, "message": r.message,
                                       "request_id": secrets.token_hex(16)}])
        except Exception as e:  # a bug here must not look like a client failure
            with self.st.lock:
                self.st.complaints.append({"method": method, "path": self.path, "status": 500,
                                           "code": "server_error", "message": repr(e)})
            self.send_json(500, [{"code": "server_error", "message": repr(e),
                                  "request_id": secrets.token_hex(16)}])

    def route(self, method, path):
        table = [
            ("POST", r"^/payments/api/widget-token/$", self.widget_token),
            ("GET", rf"^{BR}/institutions/$", self.institutions),
            ("POST", rf"^{BR}/enrollments/$", self.create_enrollment),
            ("GET", rf"^{BR}/enrollments/$", self.list_enrollments),
            ("POST", rf"^{BR}/enrollments/complete-redirection/$", self.complete_redirection),
            ("GET", rf"^{BR}/enrollments/([^/]+)/fido-registration-options/$", self.fido_options),
            ("POST", rf"^{BR}/enrollments/([^/]+)/confirm/$", self.confirm_enrollment),
            ("GET", rf"^{BR}/enrollments/([^/]+)/$", self.get_enrollment),
            ("POST", rf"^{BR}/payment-intents/$", self.create_intent),
            ("POST", rf"^{BR}/payment-intents/([^/]+)/authorize/$", self.authorize_intent),
            ("GET", rf"^{BR}/payment-intents/([^/]+)/$", self.get_intent),
        ]
        path_known = False
        for m, pattern, fn in table:
            match = re.match(pattern, path)
            if match:
                path_known = True
                if m == method:
                    return fn, match.groups()
        if path_known:
            raise Reject(405, "method_not_allowed", f"{method} not allowed on {path}")
        return None

    # --- test hooks (no auth, never complaints) ---------------------------------------

    def test_hooks(self, method, path):
        if path == "/__complaints" and method == "GET":
            return self.send_json(200, snapshot(self.st))
        self.send_json(404, {"detail": "unknown test hook"})

    # --- endpoints ----------------------------------------------------------------------

    def widget_token(self, raw, query):
        # The guide: HTTP Basic with the secret id and password, answering {access, refresh}.
        need(self.headers.get("Authorization", "").startswith("Basic "),
             "the widget token is made with HTTP Basic (secret id and password)",
             status=401, code="authentication_failed")
        body = self.json_body(raw, required=False)  # GUIDE SILENT on a body: any JSON object
        if body is not None:
            need(isinstance(body, dict), "body must be a JSON object")
        access, refresh = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self.st.lock:
            self.st.tokens.add(access)
            self.st.count("widget-token")
        # GUIDE SILENT on the status: 200.
        self.send_json(200, {"access": access, "refresh": refresh})

    def institutions(self, raw, query):
        with self.st.lock:
            self.st.count("institutions")
            results = list(self.st.institutions)
        # GUIDE SILENT on the list shape: Belvo's paginated form {count, next, previous, results}.
        self.send_json(200, {"count": len(results), "next": None, "previous": None,
                             "results": results})

    def create_enrollment(self, raw, query):
        a = self.st.args
        body = self.json_body(raw)
        need(isinstance(body, dict), "body must be a JSON object")
        typ = member(body, "type", str, "body")
        need(typ == "open_finance_biometric_pix",
             f"type must be 'open_finance_biometric_pix', got {typ!r}")
        d = member(body, "details", dict, "body")
        customer = uuid_member(d, "customer", "details")
        need(customer == a.customer_id, f"details.customer {customer} is not a customer of this "
             "account (pass the stand-in's id through BELVO_CUSTOMER_ID)", status=404,
             code="not_found")
        institution = uuid_member(d, "institution", "details")
        with self.st.lock:
            inst_ok = any(i["id"] == institution for i in self.st.institutions)
        need(inst_ok, f"details.institution {institution} is not one of GET /institutions/",
             status=404, code="not_found")
        name = member(d, "name", str, "details")
        need(name.strip(), "details.name must not be empty")
        platform = member(d, "platform", str, "details")
        need(platform == "IOS", f"details.platform must be 'IOS', got {platform!r}")
        callback = member(d, "callback_url", str, "details")
        cb = urlsplit(callback)
        need(cb.scheme == "https" and cb.netloc, f"details.callback_url must be HTTPS, got {callback!r}")
        rs = member(d, "risk_signals", dict, "details")
        check_risk_signals(rs, "details.risk_signals")

        eid = str(uuid.uuid4())
        state = secrets.token_urlsafe(24)
        host = self.headers.get("Host") or f"127.0.0.1:{self.server.server_address[1]}"
        redirect = f"http://{host}{BANK_PATH}?" + urlencode({"state": state})
        enrollment = {
            "id": eid,
            "type": "open_finance_biometric_pix",
            "status": "PENDING",
            "created_at": now_iso(),
            "updated_at": now_iso(),
            "customer": customer,
            "details": {
                "status": "AWAITING_ACCOUNT_HOLDER_VALIDATION",
                "institution": institution,
                "name": name,
                "platform": platform,
                "callback_url": callback,
                "redirect_url": redirect,
                "status_reason_code": None,
                "status_reason_message": None,
            },
            "_": {"state": state, "device_id": device_id_of(rs), "risk_signals": rs,
                  "bank": None, "redirected": False, "option_polls": 0, "options": None,
                  "confirmed": False, "status_polls": 0, "credential": None},
        }
        with self.st.lock:
            self.st.enrollments[eid] = enrollment
            self.st.by_state[state] = eid
            self.st.count("enrollments-created")
        self.send_json(201, public(enrollment))

    def bank_page(self, query):
        # The "bank app": approves and redirects to callback_url?state=…&code=…&id_token=….
        state = (query.get("state") or [""])[0]
        with self.st.lock:
            eid = self.st.by_state.get(state)
            e = self.st.enrollments.get(eid) if eid else None
            need(e is not None, "the bank knows no such state", status=404, code="not_found")
            code = secrets.token_urlsafe(24)
            header = b64u(json.dumps({"alg": "PS256", "typ": "JWT"}).encode())
            payload = b64u(json.dumps({"iss": "https://independent-mockbank.invalid",
                                       "sub": e["customer"], "aud": "belvo",
                                       "nonce": state}).encode())
            id_token = f"{header}.{payload}.{b64u(secrets.token_bytes(64))}"
            e["_"]["bank"] = {"code": code, "id_token": id_token}
            self.st.count("bank-approvals")
            callback = e["details"]["callback_url"]
        sep = "&" if urlsplit(callback).query else "?"
        location = callback + sep + urlencode({"state": state, "code": code, "id_token": id_token})
        self.send_json(302, None, headers=[("Location", location)])

    def list_enrollments(self, raw, query):
        dev = query.get("device_id")
        need(dev and dev[0], "device_id is required to list a device's enrollments")
        dev = dev[0]
        with self.st.lock:
            self.st.count("enrollments-listed")
            results = [public(e) for e in self.st.enrollments.values()
                       if e["_"]["device_id"] in (None, dev)]
            known = any(e["_"]["device_id"] == dev for e in self.st.enrollments.values())
            if not known:
                self.st.notes.append(f"GET enrollments with device_id={dev!r} that no enrollment's "
                                     "risk_signals carried")
        self.send_json(200, {"count": len(results), "next": None, "previous": None,
                             "results": results})

    def complete_redirection(self, raw, query):
        body = self.json_body(raw)
        need(isinstance(body, dict), "body must be a JSON object")
        state = member(body, "state", str, "body")
        code = member(body, "code", str, "body")
        id_token = member(body, "id_token", str, "body")
        with self.st.lock:
            eid = self.st.by_state.get(state)
            e = self.st.enrollments.get(eid) if eid else None
            need(e is not None, "state matches no enrollment", status=404, code="not_found")
            bank = e["_"]["bank"]
            need(bank is not None, "the account holder never approved at redirect_url")
            need(code == bank["code"], "code is not the one the bank issued")
            need(id_token == bank["id_token"], "id_token is not the one the bank issued")
            need(not e["_"]["redirected"], "redirection already completed", status=409,
                 code="conflict")
            e["_"]["redirected"] = True
            e["details"]["status"] = "AWAITING_FIDO_REGISTRATION"  # GUIDE SILENT on this name
            e["updated_at"] = now_iso()
            self.st.count("complete-redirection")
            out = public(e)
        # The guide: the enrollment stays PENDING. GUIDE SILENT on the status code: 200.
        self.send_json(200, out)

    def enrollment(self, eid):
        e = self.st.enrollments.get(eid)
        need(e is not None, f"no enrollment {eid}", status=404, code="not_found")
        return e

    def fido_options(self, raw, query, eid):
        a = self.st.args
        with self.st.lock:
            e = self.enrollment(eid)
            p = e["_"]
            self.st.count("fido-options-polls")
            ready = p["redirected"] and p["option_polls"] >= a.options_after
            if p["redirected"]:
                p["option_polls"] += 1
            else:
                self.st.notes.append("fido-registration-options polled before complete-redirection")
            if ready and p["options"] is None:
                p["options"] = {
                    "rp": {"id": a.rp_id, "name": "Independent Mockbank - Stand-in"},
                    "user": {"id": str(uuid.uuid4()), "name": "Ana Independente",
                             "displayName": "Ana Independente"},
                    "challenge": b64u(secrets.token_bytes(32)),
                    "pubKeyCredParams": [{"alg": -257, "type": "public-key"},
                                         {"alg": -7, "type": "public-key"}],
                    "extensions": {"appid": "true"},
                }
            options = p["options"] if ready else None
            if ready:
                self.st.count("fido-options-served")
        if options is None:
            # GUIDE SILENT on how "not yet" looks: 404 with a Belvo error (configurable).
            if a.options_not_ready_status == 204:
                return self.send_json(204)
            return self.send_json(a.options_not_ready_status,
                                  [{"code": "fido_options_not_available",
                                    "message": "FIDO registration options are not available yet",
                                    "request_id": secrets.token_hex(16)}])
        self.send_json(200, options)

    def confirm_enrollment(self, raw, query, eid):
        a = self.st.args
        body = self.json_body(raw)
        need(isinstance(body, dict), "body must be a JSON object")
        cd = member(body, "confirmation_data", dict, "body")
        att = member(cd, "authenticatorAttachment", str, "confirmation_data")
        need(att == "platform", f"confirmation_data.authenticatorAttachment must be 'platform', got {att!r}")
        cid = b64u_member(cd, "id", "confirmation_data")
        raw_id = b64u_member(cd, "rawId", "confirmation_data")
        need(cid == raw_id, "confirmation_data.id and rawId differ")
        typ = member(cd, "type", str, "confirmation_data")
        need(typ == "public-key", f"confirmation_data.type must be 'public-key', got {typ!r}")
        resp = member(cd, "response", dict, "confirmation_data")
        b64u_member(resp, "attestationObject", "confirmation_data.response")
        b64u_member(resp, "clientDataJSON", "confirmation_data.response")
        with self.st.lock:
            e = self.enrollment(eid)
            p = e["_"]
            need(p["options"] is not None, "confirm before the FIDO registration options were served",
                 status=409, code="conflict")
            need(not p["confirmed"], "enrollment already confirmed", status=409, code="conflict")
            options = p["options"]
        try:
            v = verify_registration_response(
                credential=cd,
                expected_challenge=b64u_decode(options["challenge"]),
                expected_rp_id=a.rp_id,
                expected_origin=a.origin,
                require_user_verification=a.require_uv,
                # only what the options offered: RS256 (-257) and ES256 (-7)
                supported_pub_key_algs=[COSEAlgorithmIdentifier(-257), COSEAlgorithmIdentifier(-7)],
            )
        except Exception as ex:
            raise Reject(400, "invalid_confirmation_data", f"registration did not verify: {ex}")
        with self.st.lock:
            p["confirmed"] = True
            p["credential"] = {"id": b64u(v.credential_id), "public_key": v.credential_public_key,
                               "sign_count": v.sign_count, "uv": v.user_verified,
                               "fmt": str(v.fmt), "user_id": options["user"]["id"]}
            e["updated_at"] = now_iso()
            self.st.count("confirm-accepted")
        self.send_json(204)

    def get_enrollment(self, raw, query, eid):
        a = self.st.args
        with self.st.lock:
            e = self.enrollment(eid)
            p = e["_"]
            self.st.count("enrollment-polls")
            if p["confirmed"] and e["status"] == "PENDING":
                p["status_polls"] += 1
                if p["status_polls"] > a.status_after:
                    e["status"] = "SUCCEEDED"
                    e["details"]["status"] = "SUCCEEDED"
                    e["updated_at"] = now_iso()
            out = public(e)
        self.send_json(200, out)

    def create_intent(self, raw, query):
        a = self.st.args
        body = self.json_body(raw)
        need(isinstance(body, dict), "body must be a JSON object")
        amount = member(body, "amount", float, "body")
        need(amount > 0, "amount must be positive")
        methods = member(body, "allowed_payment_method_types", list, "body")
        need(methods == ["open_finance_biometric_pix"],
             f"allowed_payment_method_types must be ['open_finance_biometric_pix'], got {methods!r}")
        customer = uuid_member(body, "customer", "body")
        need(customer == a.customer_id, f"customer {customer} is not a customer of this account",
             status=404, code="not_found")
        member(body, "description", str, "body")
        member(body, "statement_description", str, "body")
        pmd = member(body, "payment_method_details", dict, "body")
        obp = member(pmd, "open_finance_biometric_pix", dict, "payment_method_details")
        where = "payment_method_details.open_finance_biometric_pix"
        account = uuid_member(obp, "beneficiary_bank_account", where)
        need(account == a.beneficiary_bank_account,
             f"{where}.beneficiary_bank_account {account} is not this merchant's bank account "
             "(pass the stand-in's id through BELVO_BENEFICIARY_BANK_ACCOUNT)", status=404,
             code="not_found")
        eid = uuid_member(obp, "enrollment", where)
        confirm = member(body, "confirm", bool, "body")
        need(confirm is True, "confirm must be true")
        with self.st.lock:
            e = self.enrollment(eid)
            need(e["status"] == "SUCCEEDED", f"enrollment {eid} is {e['status']}, not SUCCEEDED")
            need(e["customer"] == customer, "the enrollment belongs to another customer")
            cred = e["_"]["credential"]
            iid = str(uuid.uuid4())
            fido = {"rpId": a.rp_id, "timeout": 300000,
                    "challenge": b64u(secrets.token_bytes(32)),
                    "allowCredentials": [{"id": cred["id"], "type": "public-key"}]}
            intent = {
                "id": iid,
                "created_at": now_iso(),
                "amount": amount,
                "currency": "BRL",
                "status": "REQUIRES_ACTION",  # GUIDE SILENT on the first status
                "customer": customer,
                "description": body["description"],
                "statement_description": body["statement_description"],
                "allowed_payment_method_types": methods,
                "payment_method_details": pmd,
                "payment_method_information": {"open_finance_biometric_pix": {
                    "fido_options": fido,
                    "consent_id": "urn:independentmockbank:" + str(uuid.uuid4()),
                    "end_to_end_id": "E99999999" + datetime.now(timezone.utc).strftime("%Y%m%d%H%M")
                                     + secrets.token_hex(6).upper()[:11],
                    "external_payment_id": str(uuid.uuid4()),
                    "provider_request_id": str(uuid.uuid4()),
                }},
                "_": {"enrollment": eid, "authorized": False, "status_polls": 0},
            }
            self.st.intents[iid] = intent
            self.st.count("payment-intents-created")
        # GUIDE SILENT on the status: 201 as for enrollments.
        self.send_json(201, public(intent))

    def authorize_intent(self, raw, query, iid):
        a = self.st.args
        body = self.json_body(raw)
        need(isinstance(body, dict), "body must be a JSON object")
        rs = member(body, "risk_signals", dict, "body")
        check_risk_signals(rs, "risk_signals")
        if "platform" in body:  # the SDK edition's payload adds platform "ios"
            need(body["platform"] in ("ios", "IOS"), f"platform must be 'ios', got {body['platform']!r}")
        asr = member(body, "assertion", dict, "body")
        att = member(asr, "authenticatorAttachment", str, "assertion")
        need(att == "platform", f"assertion.authenticatorAttachment must be 'platform', got {att!r}")
        cid = b64u_member(asr, "id", "assertion")
        raw_id = b64u_member(asr, "rawId", "assertion")
        need(cid == raw_id, "assertion.id and rawId differ")
        typ = member(asr, "type", str, "assertion")
        need(typ == "public-key", f"assertion.type must be 'public-key', got {typ!r}")
        resp = member(asr, "response", dict, "assertion")
        for k in ("authenticatorData", "clientDataJSON", "signature"):
            b64u_member(resp, k, "assertion.response")
        user_handle = resp.get("userHandle")
        with self.st.lock:
            intent = self.st.intents.get(iid)
            need(intent is not None, f"no payment intent {iid}", status=404, code="not_found")
            need(not intent["_"]["authorized"], "payment intent already authorized", status=409,
                 code="conflict")
            fido = intent["payment_method_information"]["open_finance_biometric_pix"]["fido_options"]
            e = self.st.enrollments[intent["_"]["enrollment"]]
            cred = e["_"]["credential"]
        need(cid in [c["id"] for c in fido["allowCredentials"]],
             "assertion.id is not in fido_options.allowCredentials")
        if user_handle is not None:
            need(isinstance(user_handle, str) and B64U_RE.match(user_handle),
                 "assertion.response.userHandle must be base64url")
            uh = b64u_decode(user_handle)
            # The guide leaves the mapping of the UUID user.id to bytes to the adapter:
            # accept its UTF-8 text or its 16 bytes.
            uid = cred["user_id"]
            need(uh in (uid.encode(), uuid.UUID(uid).bytes),
                 "assertion.response.userHandle is not the enrolled user.id")
        try:
            v = verify_authentication_response(
                credential=asr,
                expected_challenge=b64u_decode(fido["challenge"]),
                expected_rp_id=a.rp_id,
                expected_origin=a.origin,
                credential_public_key=cred["public_key"],
                credential_current_sign_count=cred["sign_count"],
                require_user_verification=a.require_uv,
            )
        except Exception as ex:
            raise Reject(400, "invalid_assertion", f"assertion did not verify: {ex}")
        with self.st.lock:
            cred["sign_count"] = v.new_sign_count
            intent["_"]["authorized"] = True
            intent["status"] = "PROCESSING"  # GUIDE SILENT on the intermediate status
            self.st.count("authorize-accepted")
        self.send_json(204)

    def get_intent(self, raw, query, iid):
        a = self.st.args
        with self.st.lock:
            intent = self.st.intents.get(iid)
            need(intent is not None, f"no payment intent {iid}", status=404, code="not_found")
            self.st.count("payment-intent-polls")
            if intent["_"]["authorized"] and intent["status"] == "PROCESSING":
                intent["_"]["status_polls"] += 1
                if intent["_"]["status_polls"] > a.status_after:
                    intent["status"] = "SUCCEEDED"
            out = public(intent)
        self.send_json(200, out)


def snapshot(st: State):
    with st.lock:
        return {
            "complaints": list(st.complaints),
            "notes": list(st.notes),
            "counts": dict(st.counts),
            "enrollments": {k: {"status": e["status"], "details_status": e["details"]["status"],
                                "credential_fmt": (e["_"]["credential"] or {}).get("fmt"),
                                "user_verified": (e["_"]["credential"] or {}).get("uv")}
                            for k, e in st.enrollments.items()},
            "payment_intents": {k: {"status": i["status"], "enrollment": i["_"]["enrollment"]}
                                for k, i in st.intents.items()},
        }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--secret-id", required=True)
    ap.add_argument("--secret-password", required=True)
    ap.add_argument("--customer-id", default=None,
                    help="the Belvo customer this account knows (default: a fresh UUID, printed)")
    ap.add_argument("--beneficiary-bank-account", default=None,
                    help="the merchant's bank account (default: a fresh UUID, printed)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--rp-id", default="belvo.com", help="the guide's sample rp.id / rpId")
    ap.add_argument("--origin", action="append", default=None,
                    help="accepted WebAuthn origin (repeatable). Default https://belvo.com: the "
                         "guide ties a native app's origin to the associated domain belvo.com")
    ap.add_argument("--require-uv", action="store_true",
                    help="require the user-verified flag (the guide's biometric gesture)")
    ap.add_argument("--options-after", type=int, default=1,
                    help="polls of fido-registration-options after complete-redirection that "
                         "answer 'not yet' before the options appear")
    ap.add_argument("--options-not-ready-status", type=int, default=404)
    ap.add_argument("--status-after", type=int, default=1,
                    help="status polls that still answer PENDING/PROCESSING after confirm/authorize")
    ap.add_argument("--complaints", help="write complaints (JSON) here on SIGTERM/SIGINT")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    args.origin = args.origin or ["https://belvo.com"]
    args.customer_id = args.customer_id or str(uuid.uuid4())
    args.beneficiary_bank_account = args.beneficiary_bank_account or str(uuid.uuid4())

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    server.state = State(args)

    def finish(*_):
        if args.complaints:
            with open(args.complaints + ".tmp", "w") as f:
                json.dump(snapshot(server.state), f, indent=2)
            import os
            os.replace(args.complaints + ".tmp", args.complaints)
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, finish)
    signal.signal(signal.SIGINT, finish)
    print(json.dumps({"port": server.server_address[1], "customer_id": args.customer_id,
                      "beneficiary_bank_account": args.beneficiary_bank_account}), flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
