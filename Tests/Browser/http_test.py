#!/usr/bin/env python3
"""The example server over plain HTTP, without a browser: what a client other than a page sends.

  - POSTs without `Content-Type: application/json` (a cross-site form, a text/plain fetch) get
    415 and change nothing; a malformed body gets the server's own typed error;
  - a session ID the client made up is never adopted: the server answers with its own;
  - usernames that look alike are one name (width, case, NFC) or refused (invisible and bidi
    control characters, Latin mixed with Cyrillic or Greek, too many bytes, invalid UTF-8);
  - the options routes are rate limited per client (a server started with a limit of 5);
  - /.well-known/webauthn, provider names and the Signal API payloads (http_signals.py);
  - connections (a server with --request-timeout 2): a client trickling its head or its body
    a byte at a time, or sending nothing, is cut off once the request time is up; a body over
    the limit gets 413 and the connection is closed (no descriptor held); after hundreds of
    such clients the server's descriptors are back to their baseline and its RSS near it; a
    server with --maximum-connections 4 answers a fifth client only once one of four closes.

Each check prints one line; the script exits 1 when one fails.

Usage: http_test.py PASSKEY_SERVER_BINARY
"""

import base64
import http.client
import json
import os
import socket
import sys
import time

import http_signals
from harness import Checks, Environment, wait_for

RATE_LIMIT = 5
# The request time-out of the server the connection checks run on, in seconds.
REQUEST_TIMEOUT = 2
# How much later than the time-out a cut-off may come on a loaded machine (CI's two cores), in s.
SLACK = 3
# The connection cap of the server the cap check runs on.
CONNECTION_CAP = 4


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


def post_json(server, path, value, cookie=None, raw=None, name="passkey_session"):
    headers = {"Content-Type": "application/json"}
    if cookie:
        headers["Cookie"] = f"{name}={cookie}"
    body = raw if raw is not None else json.dumps(value).encode()
    return request(server, "POST", path, body, headers)


def main(binary):
    checks = Checks("HTTP")
    environment = Environment(binary)
    def secure_cookie():
        secure = environment.start_one("--origin", "https://localhost:{port}")
        answer = post_json(secure, "/authentication/options", {})
        header = next((h for h in answer.headers.get_all("Set-Cookie") or []
                       if h.startswith("__Host-passkey_session=")), "")
        checks.check("with an https --origin, the session cookie is __Host-passkey_session, Secure, Path=/ "
                     "(and still HttpOnly, SameSite=Strict)",
                     "Secure" in header and "Path=/" in header and "Domain" not in header
                     and "HttpOnly" in header and "SameSite=Strict" in header, header)
        # A recognised session is kept (no Set-Cookie); one the server does not read gets a new one.
        issued = header.split(";", 1)[0].split("=", 1)[-1]
        sets = lambda name: bool(post_json(secure, "/authentication/options", {}, cookie=issued, name=name)
                                 .headers.get_all("Set-Cookie"))
        checks.equal("... which the server reads back, and not the same ID under the unprefixed name",
                     (sets("__Host-passkey_session"), sets("passkey_session")), (False, True))

    # Each part on servers of its own: a crash in one is a failure, and the next still runs.
    parts = [
        ("requests, sessions, usernames, rate limit",
         lambda: run(checks, environment.start_one(), environment.start_one("--options-rate-limit", str(RATE_LIMIT)),
                     environment.database)),
        ("the Secure cookie", secure_cookie),
        ("related origins, provider names, signals",
         lambda: http_signals.run(checks, environment, request, post_json)),
        ("connections", lambda: connections(checks, environment.start_one("--request-timeout", str(REQUEST_TIMEOUT)))),
        ("the connection cap",
         lambda: cap(checks, environment.start_one("--maximum-connections", str(CONNECTION_CAP)))),
    ]
    try:
        for name, part in parts:
            try:
                part()
            except Exception as error:  # a crash of the harness is a failure, with the servers' logs
                checks.check(f"the HTTP test's part '{name}' ran to the end", False, f"{type(error).__name__}: {error}")
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
    answer = post_json(server, "/authentication/options", None, raw=b" " * (100 * 1024))
    check("a 100 KiB body (over the 64 KiB limit): 413 contentTooLarge, in the API's JSON shape",
          answer.status == 413 and answer.code == "contentTooLarge", answer)
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

    # A failure of the server: a stored state that does not read. The client gets a 500 with the
    # code and no detail; the detail goes to the server's log.
    database.execute("UPDATE ceremonies SET state = 'not a state' WHERE session = ?", issued)
    some_id = base64.urlsafe_b64encode(b"\x01" * 16).rstrip(b"=").decode()
    parseable = {"id": some_id, "rawId": some_id, "type": "public-key", "clientExtensionResults": {},
                 "response": {"clientDataJSON": "e30", "authenticatorData": "A" * 50, "signature": "MAA"}}
    answer = post_json(server, "/authentication/verify", parseable, cookie=issued)
    check("a state that does not read: 500 corruptData, with no detail in the answer",
          answer.status == 500 and answer.code == "corruptData"
          and answer.json.get("error") == "the server failed (its log says why)", answer)
    check("... and the detail in the server's log", "the authentication state" in server.output(),
          server.output()[-500:])
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


def descriptors(server):
    return len(os.listdir(f"/proc/{server.process.pid}/fd"))


def rss_kib(server):
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def connect(server):
    return socket.create_connection(("127.0.0.1", server.port), timeout=10)


def closed_by_server(sock, timeout):
    """Whether the server closes `sock` (EOF or reset) within `timeout` s, reading what it sends."""
    sock.settimeout(timeout)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            if not sock.recv(65536):
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False
    return False


def trickle(server, head, body=b"", interval=0.25, limit=15):
    """Sends `head` at once, then `body` a byte every `interval` s (at most `limit` s); returns
    after how many seconds the server cut the connection off, or None if it never did."""
    began = time.monotonic()
    with connect(server) as sock:
        try:
            sock.sendall(head)
            for byte in body:
                if time.monotonic() - began > limit:
                    return None
                sock.sendall(bytes([byte]))
                time.sleep(interval)
            # Everything sent: the server may answer (the old behaviour) or close.
            sock.settimeout(2)
            return time.monotonic() - began if not sock.recv(65536) else None
        except (ConnectionResetError, BrokenPipeError):
            return time.monotonic() - began
        except socket.timeout:
            return None


def oversized(server, close_header, baseline=None):
    """Posts a 1 MB body (over the 64 KiB limit), reading while it uploads, as a client that
    keeps sending would; returns (the answer's status line, whether the server then closed,
    whether its descriptors were back to `baseline` while this client still held its socket)."""
    with connect(server) as sock:
        sock.sendall(b"POST /authentication/options HTTP/1.1\r\nHost: localhost\r\n"
                     b"Content-Type: application/json\r\nContent-Length: 1048576\r\n"
                     + (b"Connection: close\r\n" if close_header else b"") + b"\r\n")
        sock.setblocking(False)
        answer, sent, deadline = b"", 0, time.monotonic() + 5
        while b"\r\n\r\n" not in answer and time.monotonic() < deadline:
            if sent < 1048576:
                try:
                    sent += sock.send(b"x" * 10240)
                except (BlockingIOError, ConnectionResetError, BrokenPipeError):
                    pass
            try:
                data = sock.recv(65536)
                if not data:
                    break
                answer += data
            except BlockingIOError:
                time.sleep(0.005)
            except ConnectionResetError:
                break
        sock.setblocking(True)
        status = answer.split(b"\r\n", 1)[0].decode(errors="replace")
        closed = closed_by_server(sock, 3)
        released = baseline is None or wait_for(lambda: descriptors(server) <= baseline, 3, 0.1)
        return status, closed, released


def connections(checks, server):
    check = checks.check
    baseline, rss = descriptors(server), rss_kib(server)
    head = b"GET / HTTP/1.1\r\nHost: localhost\r\nUser-Agent: a-slow-client-trickling-bytes\r\n\r\n"
    took = trickle(server, b"", head)
    check(f"a client trickling its request head a byte every 0.25 s is cut off after the "
          f"{REQUEST_TIMEOUT} s request time-out", took is not None and took < REQUEST_TIMEOUT + SLACK, took)
    post = (b"POST /authentication/options HTTP/1.1\r\nHost: localhost\r\n"
            b"Content-Type: application/json\r\nContent-Length: 60\r\n\r\n")
    took = trickle(server, post, b"{" + b" " * 58 + b"}")
    check(f"a client trickling its body a byte every 0.25 s is cut off after {REQUEST_TIMEOUT} s",
          took is not None and took < REQUEST_TIMEOUT + SLACK, took)
    with connect(server) as sock:
        began = time.monotonic()
        closed = closed_by_server(sock, REQUEST_TIMEOUT + SLACK + 1)
        check("a connection that sends nothing is closed after the request time-out",
              closed and time.monotonic() - began < REQUEST_TIMEOUT + SLACK, time.monotonic() - began)
    with connect(server) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        sock.settimeout(5)
        answered = sock.recv(65536).startswith(b"HTTP/1.1 200")
        check("a keep-alive connection idle after its answer is closed after the request time-out",
              answered and closed_by_server(sock, REQUEST_TIMEOUT + 3))
    for close_header in (True, False):
        status, closed, released = oversized(server, close_header, baseline)
        what = "with Connection: close" if close_header else "keep-alive"
        check(f"a 1 MB body ({what}) is answered 413, the server closes the connection and its "
              "descriptor while the client still holds its socket",
              status.startswith("HTTP/1.1 413") and closed and released, (status, closed, released))

    # Many at once: slow heads, silent connections and oversized bodies; then the baseline.
    sockets = []
    try:
        for index in range(300):
            sock = connect(server)
            if index % 2 == 0:
                sock.sendall(b"GET / HTTP/1.1\r\nHost: local")
            sockets.append(sock)
        for _ in range(10):
            oversized(server, True)
        during = descriptors(server)
        back = wait_for(lambda: descriptors(server) <= baseline, REQUEST_TIMEOUT + 5, 0.2)
        check(f"300 slow and silent clients and 10 oversized ones: the server's descriptors "
              f"({baseline} before, {during} with them) are back to the baseline once they are cut off",
              back and during > baseline + 100, (baseline, during, descriptors(server)))
        grown = rss_kib(server) - rss
        check(f"... and its RSS is within 16 MiB of its baseline ({grown} KiB more)", grown < 16 * 1024, grown)
    finally:
        for sock in sockets:
            sock.close()


def cap(checks, server):
    """--maximum-connections: the next connection waits, unanswered, until one closes."""
    held = [connect(server) for _ in range(CONNECTION_CAP)]
    try:
        time.sleep(0.3)
        with connect(server) as waiting:
            waiting.sendall(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            waiting.settimeout(1)
            try:
                early = waiting.recv(65536)
            except socket.timeout:
                early = b""
            checks.check(f"--maximum-connections {CONNECTION_CAP}: a fifth connection is not served "
                         "while four are open", early == b"", early[:60])
            held.pop().close()
            waiting.settimeout(5)
            try:
                late = waiting.recv(65536)
            except socket.timeout:
                late = b""
            checks.check("... and is served once one of them closes", late.startswith(b"HTTP/1.1 200"), late[:60])
    finally:
        for sock in held:
            sock.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
