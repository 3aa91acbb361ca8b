#!/usr/bin/env python3
"""The example server over plain HTTP, without a browser: what a client other than a page sends.

  - POSTs without `Content-Type: application/json` (a cross-site form, a text/plain fetch) get
    415 and change nothing; a malformed body gets the server's own typed error;
  - a session ID the client made up is never adopted: the server answers with its own;
  - usernames that look alike are one name (width, case, NFC) or refused (invisible and bidi
    control characters, Latin mixed with Cyrillic or Greek, too many bytes, invalid UTF-8);
  - the options routes are rate limited per client (a server started with a limit of 5).

Each check prints one line; the script exits 1 when one fails.

Usage: http_test.py PASSKEY_SERVER_BINARY
"""

import http.client
import json
import sys

from harness import Checks, Environment

RATE_LIMIT = 5


class Answer:
    """One HTTP answer: status, headers, body text and JSON (or None)."""

    def __init__(self, response):
        self.status = response.status
        self.headers = response.headers
        self.text = response.read().decode("utf-8", "replace")
        try:
            self.json = json.loads(self.text)
        except ValueError:
            self.json = None

    @property
    def code(self):
        return (self.json or {}).get("code") if isinstance(self.json, dict) else None

    def cookie(self):
        """The passkey_session value this answer sets, or None."""
        for header in self.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            if name.strip() == "passkey_session":
                return rest.split(";", 1)[0]
        return None

    def __repr__(self):
        return f"{self.status} {self.text[:300]!r}"


def request(server, method, path, body=b"", headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        return Answer(connection.getresponse())
    finally:
        connection.close()


def post_json(server, path, value, cookie=None, raw=None):
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = f"passkey_session={cookie}"
    body = raw if raw is not None else json.dumps(value).encode()
    return request(server, "POST", path, body, headers)


def main(binary):
    checks = Checks("HTTP")
    environment = Environment(binary)
    try:
        (server,) = environment.start(1)
        limited = environment.start_one("--options-rate-limit", str(RATE_LIMIT))
        run(checks, server, limited, environment.database)
    except Exception as error:  # a crash of the harness is a failure, with the servers' logs
        checks.check("the HTTP test ran to the end", False, f"{type(error).__name__}: {error}")
        environment.report()
    finally:
        environment.stop()
    return checks.finish()


def run(checks, server, limited, database):
    check, equal = checks.check, checks.equal

    # --- Content-Type and malformed bodies -------------------------------------------------------
    body = json.dumps({"username": "carl"}).encode()
    for content_type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None]:
        headers = {"Content-Type": content_type} if content_type else {}
        answer = request(server, "POST", "/registration/options", body, headers)
        check(f"a POST with Content-Type {content_type}: 415 unsupportedMediaType",
              answer.status == 415 and answer.code == "unsupportedMediaType", answer)
    answer = request(server, "POST", "/signout", b"{}", {"Content-Type": "text/plain"})
    equal("POST /signout as text/plain (a cross-site form could send it): 415", answer.status, 415)
    equal("... the refused POSTs made no session and no ceremony",
          (database.count("sessions"), database.count("ceremonies")), (0, 0))
    answer = request(server, "POST", "/registration/options", body,
                     {"Content-Type": "Application/JSON; charset=utf-8"})
    equal("Content-Type application/json with a charset (any case) is accepted", answer.status, 200)
    for raw, name in [(b'{"username":', "truncated JSON"), (b"[1, 2]", "an array"), (b'{"username": 7}', "a number")]:
        answer = post_json(server, "/registration/options", None, raw=raw)
        check(f"options with {name}: 400 invalidRequest with the server's message",
              answer.status == 400 and answer.code == "invalidRequest"
              and "correct format" not in answer.text and "username" in answer.json.get("error", ""), answer)

    # --- Session IDs come from the server only ------------------------------------------------
    planted = "A" * 43
    answer = post_json(server, "/authentication/options", {}, cookie=planted)
    issued = answer.cookie()
    check("a client-chosen session ID (43 'A's) is replaced by a server-issued one",
          answer.status == 200 and issued not in (None, planted), (answer, issued))
    check("... which the database holds, and not the planted one",
          database.session(planted) is None and database.session(issued or "") is not None)
    header = next((h for h in answer.headers.get_all("Set-Cookie") or [] if h.startswith("passkey_session=")), "")
    check("... in a cookie that is HttpOnly, SameSite=Strict, Path=/ (not Secure on http)",
          "HttpOnly" in header and "SameSite=Strict" in header and "Path=/" in header and "Secure" not in header,
          header)
    answer = post_json(server, "/authentication/options", {}, cookie=issued)
    equal("the server's own session ID is kept: no new cookie", (answer.status, answer.cookie()), (200, None))
    answer = post_json(server, "/authentication/verify", {}, cookie=planted)
    equal("a verify under the planted ID finds no ceremony", (answer.status, answer.code), (400, "noCeremony"))
    answer = request(server, "GET", "/account", headers={"Cookie": f"passkey_session={issued}"})
    equal("an anonymous session is signed in as nobody: GET /account 401", (answer.status, answer.code),
          (401, "notSignedIn"))

    # --- Usernames: look-alikes merged or refused -------------------------------------------------
    def signup_name(raw):
        answer = post_json(server, "/registration/options", None, raw=raw)
        name = ((answer.json or {}).get("user") or {}).get("name") if answer.status == 200 else None
        return answer, name

    for typed, expected, why in [
        ("Jos\u00e9", "jos\u00e9", "NFC é"),
        ("Jose\u0301", "jos\u00e9", "NFD e + U+0301 is the NFC name"),
        ("\uff21\uff4c\uff49\uff43\uff45", "alice", "fullwidth ＡＬＩＣＥ is alice"),
        ("  Alice  ", "alice", "trimmed and case-mapped"),
        ("\u30a2\uff71", "\u30a2\u30a2", "halfwidth katakana is width-mapped"),
        ("\u03b1\u03b2\u03b3", "\u03b1\u03b2\u03b3", "Greek alone is fine"),
        ("\u0438\u0432\u0430\u043d", "\u0438\u0432\u0430\u043d", "Cyrillic alone is fine"),
    ]:
        answer, name = signup_name(json.dumps({"username": typed}).encode())
        equal(f"username {typed!r}: {why}", name, expected)
    for typed, why in [
        ("alice\u200b", "a zero-width space"),
        ("\u202ealice", "U+202E right-to-left override"),
        ("al\u2066ice", "U+2066 bidi isolate"),
        ("\ufeffalice", "a byte order mark"),
        ("ali\u00adce", "a soft hyphen"),
        ("\u0430lice", "Latin with a Cyrillic а"),
        ("p\u03b1ypal", "Latin with a Greek α"),
        ("al ice", "a space"),
        ("alice\ufffd", "U+FFFD"),
        ("a" * 65, "65 bytes"),
        ("\u00e9" * 33, "33 é: 66 bytes of UTF-8"),
        ("\U0001F600" * 16, "emoji (symbols)"),
        ("x" + "\u0301" * 19231, "a 38,464-byte name of 19,232 characters"),
    ]:
        answer, name = signup_name(json.dumps({"username": typed}, ensure_ascii=False).encode())
        check(f"username refused: {why}", answer.status == 400 and answer.code == "invalidRequest", answer)
    answer, name = signup_name(json.dumps({"username": "a" * 64}).encode())
    equal("username of 64 bytes: accepted", name, "a" * 64)
    answer, name = signup_name(b'{"username": "al\xffice"}')
    check("invalid UTF-8 in the body: refused before JSON decoding",
          answer.status == 400 and answer.code == "invalidRequest" and "UTF-8" in answer.text, answer)
    answer, name = signup_name(b'{"username": "al\\ud800ice"}')
    check("a lone surrogate escape (\\ud800): refused", answer.status == 400, answer)
    equal("no username check made an account", database.count("users"), 0)

    # --- Rate limit on the options routes ----------------------------------------------------
    statuses = [post_json(limited, "/authentication/options", {}).status for _ in range(RATE_LIMIT)]
    equal(f"--options-rate-limit {RATE_LIMIT}: {RATE_LIMIT} options requests in a row are answered",
          statuses, [200] * RATE_LIMIT)
    answer = post_json(limited, "/registration/options", {"username": "rita"})
    check("... the next is 429 tooManyRequests with Retry-After",
          answer.status == 429 and answer.code == "tooManyRequests" and answer.headers.get("Retry-After"), answer)
    equal("... while the page is still served", request(limited, "GET", "/").status, 200)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
