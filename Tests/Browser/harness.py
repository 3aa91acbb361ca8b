"""What both browser tests share: the example server's processes, its database, and checks.

Each check prints one line, `ok   name` or `FAIL name: why`; `Checks.finish()` prints
`N passed, M failed` and returns the exit status.
"""

import base64
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

# `timeout` (run.sh) stops a test with SIGTERM: raise SystemExit, so that the `finally` blocks
# stop the servers and the browser.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))

PLATFORM = dict(protocol="ctap2", transport="internal", hasResidentKey=True,
                hasUserVerification=True, isUserVerified=True)
SECURITY_KEY = dict(protocol="u2f", transport="usb")


# Run in every page before its scripts (Page.addScriptToEvaluateOnNewDocument): the page's
# autofill sign-in (a conditional request, which a virtual authenticator answers at once) stays
# off, except where a test looks at it.
NO_AUTOFILL = ("if (window.PublicKeyCredential)"
               " PublicKeyCredential.isConditionalMediationAvailable = async () => false;")

# The options routes' rate limit of the servers the flows run on: far above what a test asks;
# http_test.py checks the limit on a server of its own.
GENEROUS_RATE_LIMIT = ("--options-rate-limit", "100000")


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def free_port():
    """A TCP port on the loopback interface that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """One passkey-server process on `port` with `database`; stopped by stop() (or on exit)."""

    def __init__(self, binary, port, database, workdir, arguments=()):
        """`{port}` in `arguments` stands for the server's port."""
        self.port = port
        arguments = [argument.replace("{port}", str(port)) for argument in arguments]
        self.origin = f"http://localhost:{port}"
        self.log_path = os.path.join(workdir, f"server-{port}.log")
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [binary, "--port", str(port), "--hostname", "127.0.0.1", "--database", database,
             *(() if "--options-rate-limit" in arguments else GENEROUS_RATE_LIMIT), *arguments],
            cwd=workdir, stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log)
        deadline = time.monotonic() + 30
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"passkey-server on port {port} exited: {self.output()}")
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, socket.timeout):
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"passkey-server on port {port} did not answer in 30 s: {self.output()}")
            time.sleep(0.1)

    def output(self):
        self.log.flush()
        with open(self.log_path, "rb") as log:
            return log.read().decode("utf-8", "replace")[-3000:]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        self.log.close()


class Database:
    """Reads (and, for the expiry check, edits) the servers' SQLite file."""

    def __init__(self, path):
        self.path = path

    def _connect(self):
        connection = sqlite3.connect(self.path, timeout=10)
        connection.row_factory = sqlite3.Row
        return connection

    # A table or column the server's schema lacks reads as None (a failed check, not a crash
    # that would skip the checks after it).

    def count(self, table, where="1", *args):
        try:
            with self._connect() as db:
                return db.execute(f"SELECT count(*) FROM {table} WHERE {where}", args).fetchone()[0]
        except sqlite3.OperationalError:
            return None

    def row(self, sql, *args):
        try:
            with self._connect() as db:
                found = db.execute(sql, args).fetchone()
                return dict(found) if found else None
        except sqlite3.OperationalError:
            return None

    def execute(self, sql, *args):
        with self._connect() as db:
            db.execute(sql, args)

    def counts(self):
        return {table: self.count(table) for table in ("users", "credentials", "ceremonies")}

    def users(self):
        with self._connect() as db:
            return sorted(row[0] for row in db.execute("SELECT username FROM users"))

    def session(self, session_id):
        """The sessions row `session_id`, or None."""
        return self.row("SELECT * FROM sessions WHERE id = ?", session_id)


class Checks:
    """Counts checks; prints each one as it is made."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {name}", flush=True)
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}", flush=True)
        return bool(condition)

    def equal(self, name, actual, expected):
        return self.check(name, actual == expected, f"expected {expected!r}, got {actual!r}")

    def finish(self):
        print(f"{self.name}: {self.passed} passed, {self.failed} failed", flush=True)
        return 0 if self.failed == 0 and self.passed > 0 else 1


class Environment:
    """Two servers on free ports sharing one temporary database, in a temporary directory."""

    def __init__(self, binary):
        self.workdir = tempfile.mkdtemp(prefix="fido2kit-browser-")
        self.database = Database(os.path.join(self.workdir, "passkeys.sqlite"))
        self.servers = []
        self.binary = os.path.abspath(binary)  # the servers run in the temporary directory

    def start(self, count=1):
        for _ in range(count):
            self.servers.append(Server(self.binary, free_port(), self.database.path, self.workdir))
        return self.servers

    def start_one(self, *arguments):
        """One more server on the same database, with extra command-line `arguments`."""
        server = Server(self.binary, free_port(), self.database.path, self.workdir, arguments)
        self.servers.append(server)
        return server

    def stop(self):
        for server in self.servers:
            server.stop()

    def report(self):
        for server in self.servers:
            print(f"--- passkey-server on port {server.port}:\n{server.output()}", file=sys.stderr)


def wait_for(predicate, timeout, interval=0.1):
    """Polls `predicate` until it returns something true, at most `timeout` s; returns that or None."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    return None


def session_cookie(page):
    """The value of the page's passkey_session cookie, or None."""
    cookies = page.send("Network.getCookies")["cookies"]
    found = [cookie["value"] for cookie in cookies if cookie["name"] == "passkey_session"]
    return found[0] if found else None


def json_dumps(value):
    return json.dumps(value, separators=(",", ":"))
