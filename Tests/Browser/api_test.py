#!/usr/bin/env python3
"""The example server's HTTP API, driven from a real Chromium page by this script's own JavaScript.

Independent of the page's script: on a page of the server's origin (its autofill off) it injects
its own `fetch` and `navigator.credentials` helpers, asks for options, has a DevTools virtual
authenticator answer them and posts the answers, then compares each answer with what the API
promises:

  POST /registration/options     {"username"} (sign-up) or {} (signed in) → creation options
  POST /registration/verify      response → 200 {"verified": true, "credentialId", "username"}
  POST /authentication/options   {"username"} or {} → request options (decoys for unknown names)
  POST /authentication/verify    response → 200 {"verified": true, "username", "signCount"}
  POST /signout, GET /account, POST /account/passkeys/{id}/name, DELETE /account/passkeys/{id}
  any refusal                    → 4xx {"error", "code", "step"}

Accounts: a sign-up makes the account only when its passkey verifies, on a fresh signed-in
session ID; a sign-up for a taken name (from anyone, in any case or width) is refused without
revealing the account; another passkey needs a signed-in session; of two sign-ups for one
name, the first to verify wins. Unknown names get sign-in options of the same shape as known
ones, with stable decoy IDs. A platform passkey signs in by name and without one
(discoverable); a U2F security key signs up, then its account adds a platform passkey,
renames one and deletes one (not the last); tampered responses, replays, responses made for
another origin (the same server binary on a second port, sharing the database) and expired
states are refused, and a third server (--ceremony-timeout 2 --prune-interval 1) prunes
expired ceremonies and sessions. After each step the database holds what it should.

Usage: api_test.py PASSKEY_SERVER_BINARY
"""

import json
import sys
import time
import urllib.error
import urllib.request

from cdp import Browser
from harness import (NO_AUTOFILL, PLATFORM, SECURITY_KEY, Checks, Environment, b64url, session_cookie,
                     unb64url, wait_for)

HELPERS = r"""
window.api = {
  async post(path, body, omitCookies, method) {
    const init = { method: method || 'POST', credentials: omitCookies ? 'omit' : 'same-origin', headers: {} };
    if (body !== null) {
      init.headers['Content-Type'] = 'application/json';
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
    }
    const response = await fetch(path, init);
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
        """Loads `origin`'s page (its autofill off) and injects the helpers there."""
        self.origin = origin
        self.page.navigate(origin + "/")
        self.page.evaluate(HELPERS)

    def post(self, path, body, omit_cookies=False):
        return self.page.evaluate(f"api.post({json.dumps(path)}, {json.dumps(body)}, {json.dumps(omit_cookies)})")

    def delete(self, path):
        return self.page.evaluate(f"api.post({json.dumps(path)}, null, false, 'DELETE')")

    def get_json(self, path, cookie=None):
        """GET `path`: from the page, or from this script with `cookie` as the session cookie."""
        if cookie is None:
            return self.page.evaluate(f"api.post({json.dumps(path)}, null, false, 'GET')")
        request = urllib.request.Request(self.origin + path, headers={"Cookie": f"passkey_session={cookie}"})
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                status, text = answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            status, text = error.code, error.read().decode()
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = None
        return {"status": status, "json": parsed, "text": text}

    def create(self, options):
        return self.page.evaluate(f"api.create({json.dumps(options)})")

    def get(self, options):
        return self.page.evaluate(f"api.get({json.dumps(options)})")


def main(binary):
    checks = Checks("browser API")
    environment = Environment(binary)
    try:
        first, second = environment.start(2)
        hasty = environment.start_one("--ceremony-timeout", str(HASTY_TIMEOUT), "--prune-interval", "1")
        with Browser() as browser:
            page = browser.new_page("about:blank")
            page.send("Page.addScriptToEvaluateOnNewDocument", {"source": NO_AUTOFILL})
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

    def refused(name, answer, code, step="", status=400):
        body = answer.get("json")
        check(name, answer.get("status") == status and isinstance(body, dict)
              and sorted(body) == ["code", "error", "step"] and isinstance(body["error"], str)
              and body["error"] != "" and body["code"] == code and body["step"] == step,
              f"expected {status} {{code: {code}, step: {step}}}, got {answer}")

    def accepted(name, answer, expected_keys):
        body = answer.get("json")
        return check(name, answer.get("status") == 200 and isinstance(body, dict)
                     and sorted(body) == sorted(expected_keys) and body.get("verified") is True
                     and (answer.get("type") or "").startswith("application/json"), answer)

    def sign_count(credential_id):
        row = database.row("SELECT sign_count FROM credentials WHERE id = ?", credential_id)
        return row["sign_count"] if row else -1

    def signed_in_as(name, username, before):
        """The cookie is a new session's, signed in as `username`; the session `before` is gone."""
        after = session_cookie(page)
        row = database.session(after) if after else None
        user = database.row("SELECT id FROM users WHERE username = ?", username)
        check(name, after and after != before and row is not None and user is not None
              and row["user_id"] == user["id"] and database.session(before or "") is None,
              (before, after, row, user))

    with urllib.request.urlopen(first.origin + "/", timeout=10) as answer:
        headers = answer.headers
        check("GET / serves the page as HTML with a same-origin Content-Security-Policy",
              headers.get_content_type() == "text/html"
              and "default-src 'self'" in (headers.get("Content-Security-Policy") or ""), dict(headers))

    # --- Sign-up: bob, with a platform passkey ------------------------------------------------
    platform = page.add_authenticator(**PLATFORM)
    answer = client.post("/registration/options", {"username": "bob"})
    options = answer["json"] or {}
    selection = options.get("authenticatorSelection", {})
    user_id = unb64url(options.get("user", {}).get("id", ""))
    check("sign-up options: 200 JSON for bob, RP ID localhost",
          answer["status"] == 200 and answer["type"].startswith("application/json")
          and options.get("rp", {}).get("id") == "localhost" and options.get("user", {}).get("name") == "bob",
          answer)
    equal("sign-up options: residentKey and userVerification preferred",
          (selection.get("residentKey"), selection.get("userVerification")), ("preferred", "preferred"))
    equal("sign-up options: a new account excludes no credential", options.get("excludeCredentials", []), [])
    check("sign-up options: a random user handle of 16 to 64 bytes, a challenge of 16 or more",
          16 <= len(user_id) <= 64 and len(unb64url(options.get("challenge", ""))) >= 16, options)
    equal("sign-up options make no account (the account is made when its passkey verifies)",
          database.count("users"), 0)
    equal("sign-up options: one registration state is kept", database.count("ceremonies", "ceremony = 'registration'"), 1)
    anonymous = session_cookie(page)
    row = database.session(anonymous or "")
    check("sign-up options: a server-issued session, signed in as nobody",
          row is not None and row["user_id"] is None, row)

    made = client.create(options)
    registration = made.get("credential")
    check("the platform authenticator answers the creation options", registration is not None, made)
    answer = client.post("/registration/verify", registration)
    bob_credential = registration["id"]
    if accepted("sign-up verify: 200 {verified, credentialId, username}", answer, ["verified", "credentialId", "username"]):
        equal("sign-up verify: credentialId is the credential's id, username bob",
              (answer["json"]["credentialId"], answer["json"]["username"]), (bob_credential, "bob"))
    user = database.row("SELECT * FROM users WHERE username = 'bob'")
    check("sign-up verify: bob's account now exists, with the user handle of the options",
          user is not None and bytes(user["user_handle"]) == user_id, user)
    stored = database.row("SELECT * FROM credentials WHERE id = ?", bob_credential)
    record = json.loads(stored["record"]) if stored else {}
    check("the credentials table holds bob's record, for bob's user handle",
          stored is not None and stored["user_id"] == user["id"] and record.get("id") == bob_credential
          and record.get("userHandle") == b64url(user_id), stored)
    signed_in_as("sign-up verify: signed in as bob on a fresh session ID (the old session is gone)",
                 "bob", anonymous)
    equal("the state was used up", database.count("ceremonies"), 0)

    refused("a replayed registration (the state is used up) is refused",
            client.post("/registration/verify", registration), "noCeremony", "§7.1 step 1")
    equal("... and stores nothing", database.count("credentials"), 1)

    # --- Takeover: a sign-up for a name that has an account -----------------------------------
    for who, name in [("bob himself", "bob"), ("another session", "bob"), ("another session", "BOB"),
                      ("another session", "\uff42\uff4f\uff42")]:
        if who == "another session":
            page.send("Network.clearBrowserCookies")
        answer = client.post("/registration/options", {"username": name})
        refused(f"sign-up for {name!r} from {who}: usernameUnavailable", answer, "usernameUnavailable")
        check(f"... and the answer holds neither bob's handle nor his credential ({name!r})",
              b64url(user_id) not in answer["text"] and bob_credential not in answer["text"], answer["text"])
    equal("the takeover attempts made no account and no credential",
          (database.users(), database.count("credentials")), (["bob"], 1))
    refused("another passkey ({}) without a signed-in session: 401 notSignedIn",
            client.post("/registration/options", {}), "notSignedIn", status=401)

    # --- Sign-in by name -----------------------------------------------------------------------
    answer = client.post("/authentication/options", {"username": "bob"})
    options = answer["json"] or {}
    known = answer
    check("authentication options for bob: 200, RP ID localhost, bob's credential allowed",
          answer["status"] == 200 and options.get("rpId") == "localhost"
          and [d["id"] for d in options.get("allowCredentials", [])] == [bob_credential], answer)
    equal("authentication options: userVerification preferred", options.get("userVerification"), "preferred")
    assertion = client.get(options).get("credential")
    before = session_cookie(page)
    answer = client.post("/authentication/verify", assertion)
    if accepted("sign-in by name: 200 {verified, username, signCount, currentUserDetails}", answer,
                ["verified", "username", "signCount", "currentUserDetails"]):
        equal("sign-in by name: bob", answer["json"]["username"], "bob")
        details = answer["json"]["currentUserDetails"]
        equal("sign-in by name: the signalCurrentUserDetails payload names bob under his user handle",
              (details.get("rpId"), details.get("name"), details.get("displayName"), details.get("userId")),
              ("localhost", "bob", "bob", b64url(user_id)))
        count = answer["json"]["signCount"]
        check("sign-in by name: the counter is stored", count > 0 and sign_count(bob_credential) == count,
              (count, sign_count(bob_credential)))
    signed_in_as("sign-in by name: signed in as bob on a fresh session ID", "bob", before)
    count = sign_count(bob_credential)

    refused("a replayed sign-in (the state is used up) is refused",
            client.post("/authentication/verify", assertion), "noCeremony", "§7.2 step 1")
    client.post("/authentication/options", {"username": "bob"})
    refused("the old assertion to a fresh state is refused (challenge)",
            client.post("/authentication/verify", assertion), "challengeMismatch", "§7.2 step 11")
    equal("the replays moved no counter and left no state", (sign_count(bob_credential), database.count("ceremonies")), (count, 0))

    # --- Signed in: another passkey for bob, excluded on the authenticator that has one -------
    answer = client.post("/registration/options", {})
    options = answer["json"] or {}
    check("another passkey ({}, signed in): bob's options, his user handle, his credential excluded",
          answer["status"] == 200 and options.get("user", {}).get("name") == "bob"
          and unb64url(options.get("user", {}).get("id", "")) == user_id
          and [d["id"] for d in options.get("excludeCredentials", [])] == [bob_credential], answer)
    made = client.create(options)
    equal("the authenticator holding bob's passkey refuses to make a second", made.get("error"), "InvalidStateError")
    refused("the old registration response to a fresh state is refused (challenge)",
            client.post("/registration/verify", registration), "challengeMismatch", "§7.1 step 8")
    # clientDataJSON is not signed with attestation "none": a replay can carry the new challenge.
    options = client.post("/registration/options", {})["json"]
    refused("bob's credential replayed with a fresh challenge is excluded (§7.1 step 26, the library)",
            client.post("/registration/verify", rechallenged(registration, options["challenge"])),
            "credentialExcluded", "§7.1 step 26")
    options = client.post("/registration/options", {"username": "mallory"})["json"]
    refused("bob's credential replayed for a sign-up is refused (§7.1 step 26, the server)",
            client.post("/registration/verify", rechallenged(registration, options["challenge"])),
            "credentialExists", "§7.1 step 26")
    equal("the database still has one credential, bob's, and no mallory",
          (database.count("credentials"), database.count("credentials", "id = ?", bob_credential), database.users()),
          (1, 1, ["bob"]))

    # --- Nothing to enumerate: unknown names get options of the same shape --------------------
    unknown = client.post("/authentication/options", {"username": "nobody"})
    again = client.post("/authentication/options", {"username": "nobody"})
    other = client.post("/authentication/options", {"username": "nobody2"})

    def shape(answer):
        body = answer.get("json") or {}
        return (answer.get("status"), sorted(body),
                [(sorted(d), len(unb64url(d["id"]))) for d in body.get("allowCredentials", [])])

    equal("authentication options for an unknown name: the same shape as for bob (status, members, "
          "descriptors)", shape(unknown), shape(known))
    ids = lambda answer: [d["id"] for d in (answer.get("json") or {}).get("allowCredentials", [])]
    check("... with decoy credential IDs that repeat for the same name and differ for another",
          ids(unknown) and ids(unknown) == ids(again) and ids(unknown) != ids(other)
          and bob_credential not in ids(unknown), (ids(unknown), ids(again), ids(other)))
    check("... which the authenticator has no credential for",
          client.get(again["json"]).get("error") == "NotAllowedError")
    equal("... and asking made no account", database.users(), ["bob"])
    discoverable = client.get(client.post("/authentication/options", {})["json"]).get("credential")
    client.post("/authentication/options", {"username": "nobody"})
    decoy_refusal = client.post("/authentication/verify", discoverable)
    refused("bob's passkey answering an unknown name's options is refused (not among the decoys)",
            decoy_refusal, "credentialNotAllowed", "§7.2 step 5")

    # --- Discoverable sign-in ------------------------------------------------------------------
    answer = client.post("/authentication/options", {})
    options = answer["json"] or {}
    check("discoverable options ({}): 200 with no allowCredentials",
          answer["status"] == 200 and options.get("allowCredentials", []) == [], answer)
    assertion = client.get(options).get("credential")
    check("the discoverable assertion carries bob's user handle",
          assertion is not None and assertion["response"].get("userHandle") == b64url(user_id), assertion)
    answer = client.post("/authentication/verify", assertion)
    if accepted("discoverable sign-in: 200 {verified, username, signCount, currentUserDetails}", answer,
                ["verified", "username", "signCount", "currentUserDetails"]):
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
        ("another user handle", lambda a: edit(a, "userHandle", lambda _: b64url(b"\x07" * 32)),
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
    # The row's expires_at column stays in the future: the hasty server on this database prunes
    # by that column every second, and a prune landing between this update and the verify would
    # turn the library's refusal into noCeremony (the pruning has its own check further down).
    options = client.post("/authentication/options", {})["json"]
    assertion = client.get(options).get("credential")
    past = int(time.time() * 1000) - 1000
    database.execute("UPDATE ceremonies SET state = json_set(state, '$.expiresAt', ?)", past)
    answer = client.post("/authentication/verify", assertion)
    refused("a state past its expiry is refused", answer, "ceremonyExpired", "§7.2 step 1")

    # Requests the API refuses before any ceremony.
    refused("a verify request without the session cookie is refused",
            client.post("/authentication/verify", {}, omit_cookies=True), "noCeremony", "§7.2 step 1")
    options = client.post("/authentication/options", {})["json"]
    assertion = client.get(options).get("credential")
    refused("a verify body that is not JSON is refused at §7.2 step 3",
            client.post("/authentication/verify", "not json"), "malformedJSON", "§7.2 step 3")
    refused("... and it used the sign-in up: the real response to those options finds none",
            client.post("/authentication/verify", assertion), "noCeremony", "§7.2 step 1")
    refused("another passkey ({}) from a request without the cookie: 401 notSignedIn",
            client.post("/registration/options", {}, omit_cookies=True), "notSignedIn", status=401)
    answer = client.post("/authentication/options", "{")
    refused("options with a body that is not JSON are refused", answer, "invalidRequest")
    check("... with the server's message, not Foundation's",
          "correct format" not in answer["text"] and "username" in answer["text"], answer["text"])
    equal("the accounts so far: bob", database.users(), ["bob"])

    # A registration made on the second origin, by an authenticator of its own.
    page.remove_authenticator(platform)
    stray = page.add_authenticator(**PLATFORM)
    options = client.post("/registration/options", {"username": "dora"})["json"]
    client.go(second.origin)
    registration = client.create(options).get("credential")
    client.go(first.origin)
    refused(f"a registration made on {second.origin} is refused by {first.origin}",
            client.post("/registration/verify", registration), "originNotAllowed", "§7.1 step 9")
    equal("... and stores no credential and no account", (database.count("credentials"), database.users()), (1, ["bob"]))
    page.remove_authenticator(stray)

    # --- erin: a U2F security key, then a second passkey on a platform authenticator ---------
    key = page.add_authenticator(**SECURITY_KEY)
    options = client.post("/registration/options", {"username": "erin"})["json"]
    registration = client.create(options).get("credential")
    answer = client.post("/registration/verify", registration)
    accepted("U2F security key: sign-up verify 200 {verified, credentialId, username}", answer,
             ["verified", "credentialId", "username"])
    erin_credential = registration["id"] if registration else ""
    stored = database.row("SELECT record FROM credentials WHERE id = ?", erin_credential)
    check("U2F security key: the record is stored, with the usb transport",
          stored is not None and "usb" in json.loads(stored["record"]).get("transports", []), stored)
    options = client.post("/authentication/options", {"username": "erin"})["json"]
    assertion = client.get(options).get("credential")
    answer = client.post("/authentication/verify", assertion)
    if accepted("U2F security key: sign-in 200 {verified, username, signCount, currentUserDetails}", answer,
                ["verified", "username", "signCount", "currentUserDetails"]):
        equal("U2F security key: erin, counter stored",
              (answer["json"]["username"], answer["json"]["signCount"]), ("erin", sign_count(erin_credential)))
    options = client.post("/authentication/options", {"username": "erin"})["json"]
    assertion = client.get(options).get("credential")
    refused("U2F security key: a flipped signature byte is refused",
            client.post("/authentication/verify", edit(assertion, "signature", flip)), "signatureInvalid", "§7.2 step 21")
    # The refused sign-in left erin's session as it was: still signed in as erin.
    page.remove_authenticator(key)
    laptop = page.add_authenticator(**PLATFORM)
    options = client.post("/registration/options", {})["json"]
    check("signed in as erin, another passkey's options are erin's, her key excluded",
          options.get("user", {}).get("name") == "erin"
          and [d["id"] for d in options.get("excludeCredentials", [])] == [erin_credential], options)
    registration = client.create(options).get("credential")
    answer = client.post("/registration/verify", registration)
    accepted("erin's second passkey: 200", answer, ["verified", "credentialId", "username"])
    second_credential = registration["id"] if registration else ""
    equal("erin has two passkeys", database.count("credentials", "user_id = (SELECT id FROM users WHERE username = 'erin')"), 2)
    options = client.post("/authentication/options", {"username": "erin"})["json"]
    equal("erin's sign-in options allow both", sorted(d["id"] for d in options.get("allowCredentials", [])),
          sorted([erin_credential, second_credential]))
    answer = client.post("/authentication/verify", client.get(options).get("credential"))
    check("erin signs in with the second passkey", answer["status"] == 200 and answer["json"]["username"] == "erin", answer)
    client.post("/authentication/options", {"username": "erin"})
    answer = client.post("/authentication/verify", discoverable)
    equal("bob's passkey answering erin's options: the very refusal an unknown name's decoys get "
          "(nothing tells a name with an account)", (answer["status"], answer["json"]),
          (decoy_refusal["status"], decoy_refusal["json"]))

    # --- The account: list, rename, delete ----------------------------------------------------
    answer = client.get_json("/account")
    body = answer["json"] or {}
    passkeys = body.get("passkeys", [])
    check("GET /account: erin and her two passkeys, oldest first, with name, dates, backup state and provider,"
          " and the signalAllAcceptedCredentials payload listing both",
          answer["status"] == 200 and body.get("username") == "erin"
          and [p.get("credentialId") for p in passkeys] == [erin_credential, second_credential]
          and all(sorted(p) == ["backedUp", "backupEligible", "createdAt", "credentialId", "lastUsedAt", "name",
                                "provider"]
                  for p in passkeys)
          and sorted((body.get("allAcceptedCredentials") or {}).get("allAcceptedCredentialIds", []))
          == sorted([erin_credential, second_credential])
          and passkeys[1]["lastUsedAt"] is not None and passkeys[0]["name"] == "Passkey 1", answer)
    answer = client.post(f"/account/passkeys/{second_credential}/name", {"name": "  Work laptop "})
    check("rename: 200, the account with the new name, trimmed",
          answer["status"] == 200 and [p["name"] for p in (answer["json"] or {}).get("passkeys", [])]
          == ["Passkey 1", "Work laptop"], answer)
    equal("rename: stored", database.row("SELECT name FROM credentials WHERE id = ?", second_credential),
          {"name": "Work laptop"})
    refused("rename to a name with a bidi control is refused",
            client.post(f"/account/passkeys/{second_credential}/name", {"name": "a\u202eb"}), "invalidRequest")
    refused("rename to 1 character with 200 combining accents (401 bytes) is refused",
            client.post(f"/account/passkeys/{second_credential}/name", {"name": "x" + "\u0301" * 200}),
            "invalidRequest")
    refused("rename of bob's passkey from erin's session: 404",
            client.post(f"/account/passkeys/{bob_credential}/name", {"name": "mine"}), "passkeyNotFound", status=404)
    refused("delete of bob's passkey from erin's session: 404",
            client.delete(f"/account/passkeys/{bob_credential}"), "passkeyNotFound", status=404)
    answer = client.delete(f"/account/passkeys/{erin_credential}")
    check("delete: 200, the account without the security key",
          answer["status"] == 200 and [p["credentialId"] for p in (answer["json"] or {}).get("passkeys", [])]
          == [second_credential], answer)
    refused("deleting the last passkey is refused",
            client.delete(f"/account/passkeys/{second_credential}"), "lastPasskey")
    equal("bob's passkey is untouched, erin keeps one",
          (database.count("credentials", "id = ?", bob_credential), database.count("credentials", "id = ?", second_credential),
           database.count("credentials", "id = ?", erin_credential)), (1, 1, 0))

    # --- Sign out --------------------------------------------------------------------------------
    before = session_cookie(page)
    answer = client.post("/signout", {})
    check("POST /signout: 200, the session ended and the cookie cleared",
          answer["status"] == 200 and database.session(before or "") is None and session_cookie(page) is None,
          (answer, session_cookie(page)))
    refused("GET /account after signing out: 401", client.get_json("/account"), "notSignedIn", status=401)
    refused("the old session ID no longer signs anything in (replayed by hand)",
            client.get_json("/account", cookie=before), "notSignedIn", status=401)
    page.remove_authenticator(laptop)

    # --- Two sign-ups for one name: the first to verify gets it -------------------------------
    racer = page.add_authenticator(**PLATFORM)
    page.send("Network.clearBrowserCookies")
    first_options = client.post("/registration/options", {"username": "zoe"})["json"]
    first_session = session_cookie(page)
    page.send("Network.clearBrowserCookies")
    second_options = client.post("/registration/options", {"username": "zoe"})["json"]
    answer = client.post("/registration/verify", client.create(second_options).get("credential"))
    check("two sign-ups for zoe under way: the second to begin verifies first and gets the name",
          answer["status"] == 200 and answer["json"]["username"] == "zoe", answer)
    page.send("Network.setCookie", {"name": "passkey_session", "value": first_session, "url": first.origin + "/"})
    refused("... and the other, verified later, is told the name is unavailable",
            client.post("/registration/verify", client.create(first_options).get("credential")), "usernameUnavailable")
    equal("zoe has one account with one passkey",
          (database.count("users", "username = 'zoe'"),
           database.count("credentials", "user_id = (SELECT id FROM users WHERE username = 'zoe')")), (1, 1))
    page.remove_authenticator(racer)

    # --- States that expire on the clock, and their pruning -----------------------------------
    # A server whose ceremonies may take HASTY_TIMEOUT s, on the same database, pruning every
    # second; the authenticator answers at once, the answer is posted after the timeout.
    client.go(hasty.origin)
    key = page.add_authenticator(**SECURITY_KEY)
    options = client.post("/registration/options", {"username": "fay"})["json"]
    begun = time.monotonic()
    equal(f"--ceremony-timeout {HASTY_TIMEOUT}: the options' timeout is {HASTY_TIMEOUT * 1000} ms",
          options.get("timeout"), HASTY_TIMEOUT * 1000)
    registration = client.create(options).get("credential")
    time.sleep(max(0, begun + HASTY_TIMEOUT + 0.5 - time.monotonic()))
    answer = client.post("/registration/verify", registration)
    # This server prunes every second: the expired state is refused, or already gone.
    check(f"a sign-up posted after its {HASTY_TIMEOUT} s timeout is refused at §7.1 step 1 "
          "(ceremonyExpired, or noCeremony once pruned)",
          answer["status"] == 400 and (answer["json"] or {}).get("code") in ("ceremonyExpired", "noCeremony")
          and answer["json"]["step"] == "§7.1 step 1", answer)
    equal("... and makes no account", database.count("users", "username = 'fay'"), 0)
    client.post("/registration/options", {"username": "gus"})  # a sign-up never finished
    database.execute("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES ('stale', NULL, 0, ?)", past)
    pruned = wait_for(lambda: database.count("ceremonies") == 0 and database.session("stale") is None, 10)
    check("expired ceremonies (a sign-up never finished) and sessions are pruned on a timer", pruned,
          (database.count("ceremonies"), database.session("stale")))
    client.go(first.origin)
    equal("the database at the end: bob, erin, zoe; 3 credentials; no state",
          (database.users(), database.count("credentials"), database.count("ceremonies")),
          (["bob", "erin", "zoe"], 3, 0))
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


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
