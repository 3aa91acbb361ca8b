#!/usr/bin/env python3
"""The example server on PostgreSQL, two instances on one database, in a real Chromium.

Starts Debian's PostgreSQL (initdb into a temporary directory, pg_ctl on a free loopback port,
as an unprivileged user when run as root), then two passkey-server processes, A and B, on two
ports over it, each accepting both origins (--origin twice), and checks with DevTools virtual
authenticators what a load balancer in front of them needs:

  - a sign-up on A signs in on B; a passkey added on B is listed on A (one session table);
  - the same verified sign-in response sent to A and B at the same moment: exactly one 200,
    the other a refusal (the state is deleted and returned by one statement);
  - two sign-ins with one credential, each to another instance at once: no 500, and the stored
    counter is the highest that got a 200 (compare-and-set);
  - sign-ups in a loop on both while A is killed with SIGKILL: B keeps answering 200, and every
    account that got a 200 from either is in the database with its credential.

Usage: postgres_test.py PASSKEY_SERVER_BINARY
"""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import api_test
from cdp import Browser
from harness import NO_AUTOFILL, PLATFORM, SECURITY_KEY, Checks, Server, free_port, session_cookie, wait_for


def postgres_bin():
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        raise RuntimeError("PostgreSQL missing (apt postgresql; .ci/install-deps --browser)")
    return os.path.dirname(found[-1])


class Postgres:
    """A throw-away PostgreSQL cluster on 127.0.0.1:port, trust authentication, database `passkeys`."""

    def __init__(self):
        self.bin = postgres_bin()
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="fido2kit-postgres-")
        self.data = os.path.join(self.dir, "data")
        # PostgreSQL refuses to run as root: CI is root, so the cluster belongs to nobody.
        self.runas = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
        if self.runas:
            shutil.chown(self.dir, "nobody")
        self._run("initdb", "-D", self.data, "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-sync")
        self._run("pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-o",
                  f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
                  " -c max_connections=200", "start")
        self.psql("CREATE DATABASE passkeys", database="postgres")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/passkeys"

    def _run(self, tool, *arguments):
        subprocess.run([*self.runas, os.path.join(self.bin, tool), *arguments], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)

    def psql(self, sql, database="passkeys"):
        """Runs `sql`; returns the rows, each a list of its columns as text."""
        output = subprocess.run(
            [os.path.join(self.bin, "psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U",
             "postgres", "-d", database, "-At", "-F", "\t", "-c", sql],
            check=True, capture_output=True, text=True, timeout=30).stdout
        return [line.split("\t") for line in output.splitlines() if line]

    def stop(self):
        try:
            self._run("pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        except Exception as error:  # already gone: nothing to stop
            print(f"postgres: stop: {error}", file=sys.stderr)
        shutil.rmtree(self.dir, ignore_errors=True)


class Client(api_test.Client):
    """The API from a page at `origin` (api_test.py's client), with a whole sign-in."""

    def sign_in(self, username):
        """Options, assertion and verify; returns the verify answer."""
        options = self.post("/authentication/options", {"username": username})["json"]
        made = self.get(options)
        return self.post("/authentication/verify", made.get("credential"))


def post_raw(origin, path, body, cookie):
    """POST `body` (bytes) from this script with `cookie`; returns (status, parsed JSON or None)."""
    request = urllib.request.Request(
        origin + path, data=body, method="POST",
        headers={"Content-Type": "application/json", "Cookie": f"passkey_session={cookie}"})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            status, text = answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        status, text = error.code, error.read().decode()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, None


def at_once(*calls):
    """Runs each call on its own thread, released together; returns their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        results[index] = call()

    threads = [threading.Thread(target=run, args=(index, call)) for index, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


# Sign-ups one after another until `window.loadStop`, each result kept in window.loadResults.
LOAD_LOOP = r"""
window.loadStop = false;
window.loadResults = [];
window.loadDone = (async () => {
  for (let i = 0; !window.loadStop && i < 2000; i++) {
    const name = `%s-${i}`;
    try {
      const options = await api.post('/registration/options', { username: name });
      if (options.status !== 200) { loadResults.push([name, options.status]); continue; }
      const made = await api.create(options.json);
      if (!made.credential) { loadResults.push([name, 'create ' + made.error]); continue; }
      const verified = await api.post('/registration/verify', made.credential);
      loadResults.push([name, verified.status]);
    } catch (error) {
      loadResults.push([name, 'network ' + error.name]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return true;
})();
true
"""


def main(binary):
    checks = Checks("PostgreSQL, two instances")
    postgres = None
    servers = []
    workdir = tempfile.mkdtemp(prefix="fido2kit-pg-servers-")
    try:
        started = time.monotonic()
        postgres = Postgres()
        ports = [free_port(), free_port()]
        origins = [f"http://localhost:{port}" for port in ports]
        arguments = [item for origin in origins for item in ("--origin", origin)]
        # Both at once: the schema is made under an advisory lock, by one of them.
        starters = [threading.Thread(target=lambda port=port: servers.append(
            Server(os.path.abspath(binary), port, postgres.url, workdir, arguments))) for port in ports]
        for starter in starters:
            starter.start()
        for starter in starters:
            starter.join(60)
        servers.sort(key=lambda server: ports.index(server.port))  # A first, as `origins`
        checks.equal("two instances started together on one database", len(servers), 2)
        checks.equal("the schema was made once", postgres.psql("SELECT version FROM schema_version"),
                     [["1"]])
        print(f"postgres: cluster and servers up in {time.monotonic() - started:.1f} s", flush=True)
        with Browser() as browser:
            run(checks, browser, postgres, servers, origins)
    except Exception as error:  # a crash of the harness is a failure, with the servers' logs
        checks.check("the PostgreSQL test ran to the end", False, f"{type(error).__name__}: {error}")
        for server in servers:
            print(f"--- passkey-server on port {server.port}:\n{server.output()}", file=sys.stderr)
    finally:
        for server in servers:
            server.stop()
        if postgres:
            postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    return checks.finish()


def new_page(browser, context=None):
    """A tab with autofill off that counts as focused (WebAuthn needs a focused document, and
    two tabs run at once here)."""
    page = browser.new_page("about:blank", context)
    page.send("Page.addScriptToEvaluateOnNewDocument", {"source": NO_AUTOFILL})
    page.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
    return page


def run(checks, browser, postgres, servers, origins):
    check, equal = checks.check, checks.equal
    a, b = origins
    page = new_page(browser)
    platform = page.add_authenticator(**PLATFORM)
    client = Client(page, a)

    # Register on A, sign in on B.
    options = client.post("/registration/options", {"username": "alice"})["json"]
    registered = client.post("/registration/verify", client.create(options).get("credential"))
    equal("a sign-up on A: 200", registered["status"], 200)
    client.go(b)
    answer = client.sign_in("alice")
    check("the passkey made on A signs in on B", answer["status"] == 200
          and answer["json"].get("username") == "alice", answer)

    # Add a passkey on B (a security key, in a tab of its own: the cookie jar is shared), see
    # it on A.
    adder_page = new_page(browser)
    adder_page.add_authenticator(**SECURITY_KEY)
    adder = Client(adder_page, b)
    options = adder.post("/registration/options", {})["json"]
    made = adder.create(options)
    added = adder.post("/registration/verify", made.get("credential"))
    check("a passkey added on B (signed in there): 200", added["status"] == 200, (made, added))
    client.go(a)
    account = page.evaluate("api.post('/account', null, false, 'GET')")
    passkeys = (account.get("json") or {}).get("passkeys", [])
    equal("A lists both passkeys of the account (sessions and credentials are shared)",
          len(passkeys), 2)

    # The same verified response to A and B at the same moment: exactly one 200.
    options = client.post("/authentication/options", {"username": "alice"})["json"]
    response = client.get(options).get("credential")
    cookie = session_cookie(page)
    body = json.dumps(response).encode()
    results = at_once(lambda: post_raw(a, "/authentication/verify", body, cookie),
                      lambda: post_raw(b, "/authentication/verify", body, cookie))
    statuses = sorted(status for status, _ in results)
    check("one response sent to A and B at once: exactly one 200, the other a refusal",
          statuses == [200, 400] and any((json_body or {}).get("code") == "noCeremony"
                                         for status, json_body in results if status == 400), results)

    # Two sign-ins with one credential at once, each on another instance: no 500, and the
    # stored counter is the highest that got a 200.
    other = new_page(browser, browser.new_context())  # its own cookie jar: its own session
    twins = [client, Client(other, b)]
    # Both pages sign in with the platform passkey, the second page's a copy of the first's:
    # both sign with the same counter.
    twin_authenticator = other.add_authenticator(**PLATFORM)
    for entry in page.credentials(platform):
        other.send("WebAuthn.addCredential", {"authenticatorId": twin_authenticator, "credential": entry})
    bodies = []
    for twin in twins:
        options = twin.post("/authentication/options", {"username": "alice"})["json"]
        bodies.append((twin.origin, json.dumps(twin.get(options).get("credential")).encode(),
                       session_cookie(twin.page)))
    results = at_once(*[lambda o=o, body=body, c=c: post_raw(o, "/authentication/verify", body, c)
                        for o, body, c in bodies])
    statuses = [status for status, _ in results]
    counts = [json_body.get("signCount") for status, json_body in results if status == 200]
    stored = postgres.psql("SELECT max(sign_count) FROM credentials")
    check("two sign-ins with one credential at once: no 500, at least one 200",
          500 not in statuses and 200 in statuses, results)
    check("the stored counter is the highest that got a 200",
          counts and stored and int(stored[0][0]) == max(counts), (results, stored))

    # A row lock another session holds for 12 s: the servers' 5 s lock_timeout fails the
    # sign-in (500) instead of holding the request, and its connection, for as long as the lock.
    options = client.post("/authentication/options", {"username": "alice"})["json"]
    body = json.dumps(client.get(options).get("credential")).encode()
    holder = subprocess.Popen(
        [os.path.join(postgres.bin, "psql"), "-h", "127.0.0.1", "-p", str(postgres.port), "-U", "postgres",
         "-d", "passkeys", "-c", "BEGIN; SELECT 1 FROM credentials FOR UPDATE; SELECT pg_sleep(12); COMMIT;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: postgres.psql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE "
                                       "'%pg_sleep(12)%' AND pid <> pg_backend_pid()") == [["1"]], 10)
        began = time.monotonic()
        status, answer = post_raw(client.origin, "/authentication/verify", body, session_cookie(client.page))
        took = time.monotonic() - began
    finally:
        holder.wait(30)
    check(f"a sign-in waiting on a row lock held for 12 s fails after the 5 s lock time-out (500 in "
          f"{took:.1f} s), not when the lock goes", status == 500 and took < 11, (status, answer, took))

    # Two passkeys added to one account at once, from two sessions on A and B: the user's row
    # lock counts them one after the other, so their default names differ. First a second
    # session (its own cookie jar) signed in with a copy of the platform passkey.
    check("alice signs in again on A", client.sign_in("alice")["status"] == 200)
    second_page = new_page(browser, browser.new_context())
    copy = second_page.add_authenticator(**PLATFORM)
    for entry in page.credentials(platform):
        second_page.send("WebAuthn.addCredential", {"authenticatorId": copy, "credential": entry})
    second = Client(second_page, b)
    check("a second session signs in as alice on B", second.sign_in("alice")["status"] == 200)
    bodies = []
    for adding, authenticator in ((client, platform), (second, copy)):
        # A new authenticator: the one holding alice's passkey is in excludeCredentials.
        adding.page.remove_authenticator(authenticator)
        adding.page.add_authenticator(**SECURITY_KEY)
        options = adding.post("/registration/options", {})["json"]
        adding.page.send("Page.bringToFront")
        created = adding.create(options)
        check(f"a new passkey made on {adding.origin}", created.get("credential") is not None, created)
        made = created.get("credential")
        bodies.append((adding.origin, json.dumps(made).encode(), session_cookie(adding.page)))
    results = at_once(*[lambda o=o, body=body, c=c: post_raw(o, "/registration/verify", body, c)
                        for o, body, c in bodies])
    names = postgres.psql("SELECT c.name FROM credentials c JOIN users u ON u.id = c.user_id "
                          "WHERE u.username = 'alice'")
    check("two passkeys added to one account at once on A and B: both 200, all default names "
          "differ", [status for status, _ in results] == [200, 200]
          and len(names) == 4 and len({row[0] for row in names}) == 4, (results, names))

    # Sign-ups on both while A is killed: B keeps serving, no 200 is lost. Each load tab is in
    # a browser context of its own: its own cookie jar, as two people are.
    pages = []
    for origin, prefix in ((a, "load-a"), (b, "load-b")):
        target = new_page(browser, browser.new_context())
        target.add_authenticator(**PLATFORM)
        Client(target, origin)
        target.evaluate(LOAD_LOOP % prefix)
        pages.append(target)
    page, other = pages
    # Conditions, not fixed sleeps: on a loaded machine a sign-up may take far longer than usual.
    # A has had sign-ups (and a second more) when it is killed; B has answered a few after.
    wait_for(lambda: any(status == 200 for _, status in page.evaluate("window.loadResults")), 30)
    time.sleep(1.0)
    servers[0].process.kill()
    servers[0].process.wait(5)
    killed_at = len(other.evaluate("window.loadResults"))
    time.sleep(1.5)
    wait_for(lambda: len(other.evaluate("window.loadResults")) >= killed_at + 5, 30)
    for target in pages:
        target.evaluate("window.loadStop = true; window.loadDone")
    results = page.evaluate("window.loadResults") + other.evaluate("window.loadResults")
    on_b = other.evaluate("window.loadResults")
    after_kill = [status for _, status in on_b[killed_at:]]
    ok = [name for name, status in results if status == 200]
    stored = {row[0] for row in postgres.psql(
        "SELECT u.username FROM users u JOIN credentials c ON c.user_id = u.id")}
    print(f"postgres: load: {len(ok)} sign-ups got 200 ({len(on_b) - killed_at} on B after A was killed)",
          flush=True)
    check("B keeps answering 200 after A is killed (SIGKILL)",
          len(after_kill) > 0 and after_kill.count(200) == len(after_kill), after_kill[:10])
    missing = [name for name in ok if name not in stored]
    equal("every sign-up that got a 200 is in the database with its credential", missing, [])
    check("A got sign-ups before it was killed", any(name.startswith("load-a") for name in ok), results[:5])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: postgres_test.py PASSKEY_SERVER_BINARY")
    sys.exit(main(sys.argv[1]))
