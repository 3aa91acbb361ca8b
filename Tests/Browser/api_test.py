#!/usr/bin/env python3
"""The example server's HTTP API, driven from a real Chromium page by this script's own JavaScript.

Independent of the page's script: on a page of the server's origin it injects its own `fetch`
and `navigator.credentials` helpers, asks for options, has a DevTools virtual authenticator
answer them and posts the answers, then compares each answer with what the API promises:

  POST /registration/options     {"username"}  → PublicKeyCredentialCreationOptionsJSON
  POST /registration/verify      response      → 200 {"verified": true, "credentialId"}
  POST /authentication/options   {"username"} or {} → PublicKeyCredentialRequestOptionsJSON
  POST /authentication/verify    response      → 200 {"verified": true, "username", "signCount"}
  any refusal                                   → 400 {"error", "code", "step"}

A platform passkey registers and signs in by name and without one (discoverable); a U2F
security key registers and signs in; tampered responses, replays (the same response again: the
state is used up; an old response to a fresh state: another challenge), responses made for
another origin (the same server binary on a second port, sharing the database) and an expired
state are refused (one edited into the past in the database, and one that expires on the clock
on a third server started with --ceremony-timeout 2). After each step the database holds what
it should.

Usage: api_test.py PASSKEY_SERVER_BINARY
"""

import json
import sys
import time
import urllib.request

from cdp import Browser
from harness import PLATFORM, SECURITY_KEY, Checks, Environment, b64url, unb64url

HELPERS = r"""
window.api = {
  async post(path, body, omitCookies) {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      credentials: omitCookies ? 'omit' : 'same-origin',
    });
    const text = await response.text();
    let json = null;
    try { json = JSON.parse(text); } catch (error) { /* not JSON: json stays null */ }
    return { status: response.status, type: response.headers.get('content-type'), json, text };
  },
  async create(options) {
    try {
      const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
      return { credential: (await navigator.credentials.create({ publicKey })).toJSON() };
    } catch (error) {
      return { error: error.name, message: error.message };
    }
  },
  async get(options) {
    try {
      const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
      return { credential: (await navigator.credentials.get({ publicKey })).toJSON() };
    } catch (error) {
      return { error: error.name, message: error.message };
    }
  },
};
true
"""


# The ceremony timeout, in seconds, of the third server, whose states expire while the test waits.
HASTY_TIMEOUT = 2


class Client:
    """The API as this script's JavaScript calls it from `page`, now at `origin`."""

    def __init__(self, page, origin):
        self.page = page
        self.go(origin)

    def go(self, origin):
        """Loads `origin`'s page and injects the helpers there."""
        self.origin = origin
        self.page.navigate(origin + "/")
        self.page.evaluate(HELPERS)

    def post(self, path, body, omit_cookies=False):
        return self.page.evaluate(f"api.post({json.dumps(path)}, {json.dumps(body)}, {json.dumps(omit_cookies)})")

    def create(self, options):
        return self.page.evaluate(f"api.create({json.dumps(options)})")

    def get(self, options):
        return self.page.evaluate(f"api.get({json.dumps(options)})")


def main(binary):
    checks = Checks("browser API")
    environment = Environment(binary)
    try:
        first, second = environment.start(2)
        hasty = environment.start_one("--ceremony-timeout", str(HASTY_TIMEOUT))
        with Browser() as browser:
            page = browser.new_page("about:blank")
            run(checks, Client(page, first.origin), first, second, hasty, environment.database)
    except Exception as error:  # a crash of the harness is a failure, with the servers' logs
        checks.check("the API test ran to the end", False, f"{type(error).__name__}: {error}")
        environment.report()
    finally:
        environment.stop()
    return checks.finish()


def run(checks, client, first, second, hasty, database):
    check, equal = checks.check, checks.equal
    page = client.page

    def refused(name, answer, code, step):
        body = answer.get("json")
        check(name, answer.get("status") == 400 and isinstance(body, dict)
              and sorted(body) == ["code", "error", "step"] and isinstance(body["error"], str)
              and body["error"] != "" and body["code"] == code and body["step"] == step,
              f"expected 400 {{code: {code}, step: {step}}}, got {answer}")

    def accepted(name, answer, expected_keys):
        body = answer.get("json")
        return check(name, answer.get("status") == 200 and isinstance(body, dict)
                     and sorted(body) == sorted(expected_keys) and body.get("verified") is True
                     and (answer.get("type") or "").startswith("application/json"), answer)

    def sign_count(credential_id):
        row = database.row("SELECT sign_count FROM credentials WHERE id = ?", credential_id)
        return row["sign_count"] if row else -1

    with urllib.request.urlopen(first.origin + "/", timeout=10) as answer:
        headers = answer.headers
        check("GET / serves the page as HTML with a same-origin Content-Security-Policy",
              headers.get_content_type() == "text/html"
              and "default-src 'self'" in (headers.get("Content-Security-Policy") or ""), dict(headers))

    # --- A platform passkey for bob --------------------------------------------------------
    platform = page.add_authenticator(**PLATFORM)
    answer = client.post("/registration/options", {"username": "bob"})
    options = answer["json"] or {}
    selection = options.get("authenticatorSelection", {})
    user_id = unb64url(options.get("user", {}).get("id", ""))
    check("registration options: 200 JSON for bob, RP ID localhost",
          answer["status"] == 200 and answer["type"].startswith("application/json")
          and options.get("rp", {}).get("id") == "localhost" and options.get("user", {}).get("name") == "bob",
          answer)
    equal("registration options: residentKey and userVerification preferred",
          (selection.get("residentKey"), selection.get("userVerification")), ("preferred", "preferred"))
    equal("registration options: a new user excludes no credential", options.get("excludeCredentials", []), [])
    check("registration options: a random user handle of 16 to 64 bytes, a challenge of 16 or more",
          16 <= len(user_id) <= 64 and len(unb64url(options.get("challenge", ""))) >= 16, options)
    user = database.row("SELECT * FROM users WHERE username = 'bob'")
    check("registration options: bob is in the users table with that user handle",
          user is not None and bytes(user["user_handle"]) == user_id, user)
    equal("registration options: one registration state is kept", database.count("ceremonies", "ceremony = 'registration'"), 1)

    made = client.create(options)
    registration = made.get("credential")
    check("the platform authenticator answers the creation options", registration is not None, made)
    answer = client.post("/registration/verify", registration)
    bob_credential = registration["id"]
    if accepted("registration verify: 200 {verified, credentialId}", answer, ["verified", "credentialId"]):
        equal("registration verify: credentialId is the credential's id", answer["json"]["credentialId"], bob_credential)
    stored = database.row("SELECT * FROM credentials WHERE id = ?", bob_credential)
    record = json.loads(stored["record"]) if stored else {}
    check("the credentials table holds bob's record, for bob's user handle",
          stored is not None and stored["user_id"] == user["id"] and record.get("id") == bob_credential
          and record.get("userHandle") == b64url(user_id), stored)
    equal("the state was used up", database.count("ceremonies"), 0)

    refused("a replayed registration (the state is used up) is refused",
            client.post("/registration/verify", registration), "noCeremony", "§7.1 step 1")
    equal("... and stores nothing", database.count("credentials"), 1)

    options = client.post("/registration/options", {"username": "bob"})["json"]
    equal("registration options for bob exclude his credential",
          [descriptor["id"] for descriptor in options.get("excludeCredentials", [])], [bob_credential])
    made = client.create(options)
    equal("the authenticator holding it refuses to make a second", made.get("error"), "InvalidStateError")
    refused("the old registration response to a fresh state is refused (challenge)",
            client.post("/registration/verify", registration), "challengeMismatch", "§7.1 step 8")

    # clientDataJSON is not signed with attestation "none": a replay can carry the new challenge.
    options = client.post("/registration/options", {"username": "bob"})["json"]
    refused("bob's credential replayed with a fresh challenge is excluded (§7.1 step 26, the library)",
            client.post("/registration/verify", rechallenged(registration, options["challenge"])),
            "credentialExcluded", "§7.1 step 26")
    options = client.post("/registration/options", {"username": "mallory"})["json"]
    refused("bob's credential replayed for another user is refused (§7.1 step 26, the server)",
            client.post("/registration/verify", rechallenged(registration, options["challenge"])),
            "credentialExists", "§7.1 step 26")
    equal("the database still has one credential, bob's",
          (database.count("credentials"), database.count("credentials", "id = ?", bob_credential)), (1, 1))

    answer = client.post("/authentication/options", {"username": "bob"})
    options = answer["json"] or {}
    check("authentication options for bob: 200, RP ID localhost, bob's credential allowed",
          answer["status"] == 200 and options.get("rpId") == "localhost"
          and [d["id"] for d in options.get("allowCredentials", [])] == [bob_credential], answer)
    equal("authentication options: userVerification preferred", options.get("userVerification"), "preferred")
    assertion = client.get(options).get("credential")
    answer = client.post("/authentication/verify", assertion)
    if accepted("sign-in by name: 200 {verified, username, signCount}", answer, ["verified", "username", "signCount"]):
        equal("sign-in by name: bob", answer["json"]["username"], "bob")
        count = answer["json"]["signCount"]
        check("sign-in by name: the counter is stored", count > 0 and sign_count(bob_credential) == count,
              (count, sign_count(bob_credential)))
    count = sign_count(bob_credential)

    refused("a replayed sign-in (the state is used up) is refused",
            client.post("/authentication/verify", assertion), "noCeremony", "§7.2 step 1")
    client.post("/authentication/options", {"username": "bob"})
    refused("the old assertion to a fresh state is refused (challenge)",
            client.post("/authentication/verify", assertion), "challengeMismatch", "§7.2 step 11")
    equal("the replays moved no counter and left no state", (sign_count(bob_credential), database.count("ceremonies")), (count, 0))

    answer = client.post("/authentication/options", {})
    options = answer["json"] or {}
    check("discoverable options ({}): 200 with no allowCredentials",
          answer["status"] == 200 and options.get("allowCredentials", []) == [], answer)
    assertion = client.get(options).get("credential")
    check("the discoverable assertion carries bob's user handle",
          assertion is not None and assertion["response"].get("userHandle") == b64url(user_id), assertion)
    answer = client.post("/authentication/verify", assertion)
    if accepted("discoverable sign-in: 200 {verified, username, signCount}", answer, ["verified", "username", "signCount"]):
        equal("discoverable sign-in: bob, counter moved on",
              (answer["json"]["username"], answer["json"]["signCount"] > count), ("bob", True))
    count = sign_count(bob_credential)

    # Tampered responses.
    for name, tamper, code, step in [
        ("a flipped signature byte", lambda a: edit(a, "signature", flip), "signatureInvalid", "§7.2 step 21"),
        ("a changed counter in authenticatorData", lambda a: edit(a, "authenticatorData", lambda d: flip(d, 36)),
         "signatureInvalid", "§7.2 step 21"),
        ("a clientDataJSON naming another challenge", lambda a: rechallenged(a, b64url(b"\x00" * 32)),
         "challengeMismatch", "§7.2 step 11"),
        ("another user's handle (mallory's)", lambda a: edit(a, "userHandle", lambda _: mallory_handle(database)),
         "userHandleMismatch", "§7.2 step 6"),
    ]:
        options = client.post("/authentication/options", {})["json"]
        assertion = client.get(options).get("credential")
        refused(f"tampered sign-in, {name}: refused", client.post("/authentication/verify", tamper(assertion)), code, step)
    equal("the tampered sign-ins moved no counter and left no state",
          (sign_count(bob_credential), database.count("ceremonies")), (count, 0))

    # Another origin: the same binary on a second port, sharing the database (and, as cookies
    # ignore ports, the session). The authenticator answers the first server's options on the
    # second server's page; the first server refuses, the second accepts its own origin.
    options = client.post("/authentication/options", {"username": "bob"})["json"]
    client.go(second.origin)
    assertion = client.get(options).get("credential")
    client.go(first.origin)
    refused(f"a sign-in made on {second.origin} is refused by {first.origin}",
            client.post("/authentication/verify", assertion), "originNotAllowed", "§7.2 step 12")
    client.go(second.origin)
    options = client.post("/authentication/options", {"username": "bob"})["json"]
    answer = client.post("/authentication/verify", client.get(options).get("credential"))
    check(f"... while {second.origin}'s own server, on the same database, accepts bob there",
          answer["status"] == 200 and (answer["json"] or {}).get("username") == "bob", answer)
    client.go(first.origin)

    # An expired state: the state's own expiresAt (what the library checks) moved into the past.
    options = client.post("/authentication/options", {})["json"]
    assertion = client.get(options).get("credential")
    past = int(time.time() * 1000) - 1000
    database.execute("UPDATE ceremonies SET state = json_set(state, '$.expiresAt', ?), expires_at = ?", past, past)
    answer = client.post("/authentication/verify", assertion)
    refused("a state past its expiry is refused", answer, "ceremonyExpired", "§7.2 step 1")
    database.execute("INSERT INTO ceremonies (session, ceremony, user_id, state, expires_at) VALUES (?, ?, NULL, ?, ?)",
                     "stale-session", "authentication", "{}", past)
    client.post("/authentication/options", {})
    equal("beginning a ceremony prunes expired states of other sessions",
          database.count("ceremonies", "session = 'stale-session'"), 0)

    # Requests the API refuses before any ceremony.
    refused("a verify request without the session cookie is refused",
            client.post("/authentication/verify", {}, omit_cookies=True), "noCeremony", "§7.2 step 1")
    client.post("/authentication/options", {})
    refused("a verify body that is not JSON is refused at §7.2 step 3",
            client.post("/authentication/verify", "not json"), "malformedJSON", "§7.2 step 3")
    refused("registration options without a username are refused",
            client.post("/registration/options", {}), "invalidRequest", "")
    refused("options with a body that is not JSON are refused",
            client.post("/authentication/options", "{"), "invalidRequest", "")
    refused("authentication options for an unknown user are refused",
            client.post("/authentication/options", {"username": "nobody"}), "unknownUser", "")
    equal("the users so far: bob and mallory (no nobody)", sorted(users(database)), ["bob", "mallory"])

    # A registration made on the second origin, by an authenticator of its own.
    page.remove_authenticator(platform)
    stray = page.add_authenticator(**PLATFORM)
    options = client.post("/registration/options", {"username": "dora"})["json"]
    client.go(second.origin)
    registration = client.create(options).get("credential")
    client.go(first.origin)
    refused(f"a registration made on {second.origin} is refused by {first.origin}",
            client.post("/registration/verify", registration), "originNotAllowed", "§7.1 step 9")
    equal("... and stores no credential", database.count("credentials"), 1)
    page.remove_authenticator(stray)

    # --- A U2F security key for erin -----------------------------------------------------------
    key = page.add_authenticator(**SECURITY_KEY)
    options = client.post("/registration/options", {"username": "erin"})["json"]
    registration = client.create(options).get("credential")
    answer = client.post("/registration/verify", registration)
    accepted("U2F security key: registration verify 200 {verified, credentialId}", answer, ["verified", "credentialId"])
    erin_credential = registration["id"] if registration else ""
    stored = database.row("SELECT record FROM credentials WHERE id = ?", erin_credential)
    check("U2F security key: the record is stored, with the usb transport",
          stored is not None and "usb" in json.loads(stored["record"]).get("transports", []), stored)
    options = client.post("/authentication/options", {"username": "erin"})["json"]
    assertion = client.get(options).get("credential")
    answer = client.post("/authentication/verify", assertion)
    if accepted("U2F security key: sign-in 200 {verified, username, signCount}", answer, ["verified", "username", "signCount"]):
        equal("U2F security key: erin, counter stored",
              (answer["json"]["username"], answer["json"]["signCount"]), ("erin", sign_count(erin_credential)))
    options = client.post("/authentication/options", {"username": "erin"})["json"]
    assertion = client.get(options).get("credential")
    refused("U2F security key: a flipped signature byte is refused",
            client.post("/authentication/verify", edit(assertion, "signature", flip)), "signatureInvalid", "§7.2 step 21")

    # States that expire on the clock: a server whose ceremonies may take HASTY_TIMEOUT s, on the
    # same database; the authenticator answers at once, the answer is posted after the timeout.
    client.go(hasty.origin)
    count = sign_count(erin_credential)
    options = client.post("/authentication/options", {"username": "erin"})["json"]
    begun = time.monotonic()
    equal(f"--ceremony-timeout {HASTY_TIMEOUT}: the options' timeout is {HASTY_TIMEOUT * 1000} ms",
          options.get("timeout"), HASTY_TIMEOUT * 1000)
    assertion = client.get(options).get("credential")
    time.sleep(max(0, begun + HASTY_TIMEOUT + 0.5 - time.monotonic()))
    refused(f"a sign-in posted after its {HASTY_TIMEOUT} s timeout is refused",
            client.post("/authentication/verify", assertion), "ceremonyExpired", "§7.2 step 1")
    equal("... and moves no counter", sign_count(erin_credential), count)
    options = client.post("/registration/options", {"username": "fay"})["json"]
    begun = time.monotonic()
    registration = client.create(options).get("credential")
    time.sleep(max(0, begun + HASTY_TIMEOUT + 0.5 - time.monotonic()))
    refused(f"a registration posted after its {HASTY_TIMEOUT} s timeout is refused",
            client.post("/registration/verify", registration), "ceremonyExpired", "§7.1 step 1")
    client.go(first.origin)
    equal("the database at the end: 5 users (fay has no credential), 2 credentials, no state",
          database.counts(), {"users": 5, "credentials": 2, "ceremonies": 0})
    page.remove_authenticator(key)


def flip(text, index=-1):
    """`text` (base64url) with one bit of byte `index` flipped."""
    data = bytearray(unb64url(text))
    data[index] ^= 0x01
    return b64url(bytes(data))


def edit(response, member, change):
    """A copy of `response` whose `response.member` is `change(old value)`."""
    copy = json.loads(json.dumps(response))
    copy["response"][member] = change(copy["response"].get(member))
    return copy


def rechallenged(response, challenge):
    """A copy of `response` whose clientDataJSON names `challenge` instead."""
    def change(client_data):
        data = json.loads(unb64url(client_data))
        data["challenge"] = challenge
        return b64url(json.dumps(data, separators=(",", ":")).encode())
    return edit(response, "clientDataJSON", change)


def mallory_handle(database):
    return b64url(bytes(database.row("SELECT user_handle FROM users WHERE username = 'mallory'")["user_handle"]))


def users(database):
    with database._connect() as db:
        return [row[0] for row in db.execute("SELECT username FROM users")]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
