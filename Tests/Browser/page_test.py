#!/usr/bin/env python3
"""The example server's page, used as a person would: type a name, click its buttons, read #result.

Headless Chromium with DevTools virtual authenticators: a platform passkey signs up (which
signs in and shows the account view), another authenticator adds a second passkey (the first
is excluded on the authenticator holding one), the list renames and deletes them (not the
last), sign out, sign in by name and without one; an unknown name and a taken name are
refused; a U2F security key signs up and signs in; a response tampered with on its way to the
server is refused and the page shows the step; provider names and the Signal API calls
(page_signals.py). Then, on a page with autofill on, the
conditional request offers the passkey and signs in. After each step the server's SQLite
database holds what it should.

Usage: page_test.py PASSKEY_SERVER_BINARY
"""

import base64
import json
import sys
import time

import page_signals
from cdp import Browser, CDPError
from harness import NO_AUTOFILL, PLATFORM, SECURITY_KEY, Checks, Environment, session_cookie, unb64url, wait_for


def result(page, timeout=30):
    """#result once its outcome is no longer pending: {outcome, code, step, text}."""
    def settled():
        value = page.evaluate(
            "(() => { const r = document.getElementById('result');"
            " return {outcome: r.dataset.outcome, code: r.dataset.code, step: r.dataset.step,"
            " text: r.innerText}; })()")
        return value if value["outcome"] not in ("pending", "cleared") else None
    return wait_for(settled, timeout) or {"outcome": "timeout", "code": "", "step": "", "text": ""}


def press(page, button):
    """Clears #result's outcome, then clicks `button` and waits for the new outcome."""
    page.evaluate("document.getElementById('result').dataset.outcome = 'cleared'")
    page.click(button)
    return result(page)


def main(binary):
    checks = Checks("browser page")
    environment = Environment(binary)
    try:
        (server,) = environment.start(1)
        database = environment.database
        with Browser() as browser:
            page = browser.new_page("about:blank")
            page.send("Page.addScriptToEvaluateOnNewDocument", {"source": NO_AUTOFILL})
            page.navigate(server.origin + "/")
            run(checks, page, server, database)
            page.send("Network.clearBrowserCookies")
            autofill(checks, browser, server, database)
    except Exception as error:  # a crash of the harness is a failure, with the servers' logs
        checks.check("the page test ran to the end", False, f"{type(error).__name__}: {error}")
        environment.report()
    finally:
        environment.stop()
    return checks.finish()


def account_view(page):
    """What the account view shows: {signedIn, name, passkeys: [{id, name, details}]}."""
    return page.evaluate(
        "({signedIn: document.body.dataset.signedIn, hidden: document.getElementById('account').hidden,"
        " name: document.getElementById('account-name').textContent,"
        " passkeys: [...document.querySelectorAll('#passkeys li')].map((li) => ({id: li.dataset.id,"
        " name: li.querySelector('.passkey-name').value, details: li.querySelector('.details').textContent}))})")


def run(checks, page, server, database):
    check, equal = checks.check, checks.equal

    shown = page.evaluate(
        "({title: document.title, buttons: ['#username', '#register', '#signin', '#passkey', '#result']"
        ".map((s) => !!document.querySelector(s)), outcome: document.getElementById('result').dataset.outcome,"
        " scripts: [...document.scripts].map((s) => s.src),"
        " autocomplete: document.getElementById('username').getAttribute('autocomplete')})")
    equal("the page has a username field, the three buttons and #result", shown["buttons"], [True] * 5)
    equal("the page is idle when loaded", shown["outcome"], "idle")
    equal("the page loads its script from its own origin only", shown["scripts"], [server.origin + "/passkeys.js"])
    equal("the username field offers passkeys in autofill", shown["autocomplete"], "username webauthn")
    check("signed out, the page shows the form and not the account view",
          wait_for(lambda: page.evaluate("document.body.dataset.signedIn === 'false' && !document.getElementById('form').hidden"), 10))

    # A platform passkey: sign up, which signs in.
    platform = page.add_authenticator(**PLATFORM)
    page.type_into("#username", "Alice")
    outcome = press(page, "#register")
    check("platform passkey: Sign up shows success for alice (the name case-mapped)", outcome["outcome"] == "success"
          and "Registered a passkey for alice" in outcome["text"], outcome)
    credentials = page.credentials(platform)
    check("platform passkey: the authenticator made one resident credential",
          len(credentials) == 1 and credentials[0]["isResidentCredential"], credentials)
    equal("platform passkey: the database has alice and her credential, no state left",
          database.counts(), {"users": 1, "credentials": 1, "ceremonies": 0})
    alice_credential = b64(credentials[0]["credentialId"]) if credentials else ""
    check("platform passkey: the page shows the credential ID the database stored",
          alice_credential and alice_credential in outcome["text"]
          and database.count("credentials", "id = ?", alice_credential) == 1, (alice_credential, outcome))
    view = wait_for(lambda: (lambda v: v if v["signedIn"] == "true" else None)(account_view(page)), 10) or {}
    check("signed up, the page shows the account view: alice and her passkey",
          view.get("name") == "alice" and [p["id"] for p in view.get("passkeys", [])] == [alice_credential]
          and "not backed up" in view["passkeys"][0]["details"], view)

    cookies = page.send("Network.getCookies")["cookies"]
    session = [cookie for cookie in cookies if cookie["name"] == "passkey_session"]
    check("the session cookie is HttpOnly and SameSite=Strict",
          len(session) == 1 and session[0]["httpOnly"] and session[0]["sameSite"] == "Strict", cookies)
    check("the page's script cannot read the session cookie",
          "passkey_session" not in page.evaluate("document.cookie"))

    # Signed in: another passkey. The authenticator holding one is stopped by excludeCredentials.
    outcome = press(page, "#add-passkey")
    check("Add a passkey on the authenticator holding alice's is stopped by excludeCredentials",
          outcome["outcome"] == "error" and outcome["code"] == "InvalidStateError"
          and outcome["text"].startswith("Add a passkey:"), outcome)
    equal("no second credential is stored", database.count("credentials"), 1)
    page.remove_authenticator(platform)
    laptop = page.add_authenticator(**PLATFORM)
    outcome = press(page, "#add-passkey")
    check("Add a passkey on another authenticator: success for alice",
          outcome["outcome"] == "success" and "Added a passkey for alice" in outcome["text"], outcome)
    view = wait_for(lambda: (lambda v: v if len(v["passkeys"]) == 2 else None)(account_view(page)), 10) or {}
    laptop_credential = b64(page.credentials(laptop)[0]["credentialId"])
    equal("the account view lists both passkeys, oldest first",
          [p["id"] for p in view.get("passkeys", [])], [alice_credential, laptop_credential])
    equal("the database has alice's two credentials and still one account",
          database.counts(), {"users": 1, "credentials": 2, "ceremonies": 0})

    # Rename and delete from the list.
    item = f"#passkeys li[data-id='{laptop_credential}']"
    page.type_into(f"{item} .passkey-name", "Work laptop")
    outcome = press(page, f"{item} .rename")
    check("Rename shows success", outcome["outcome"] == "success" and "Work laptop" in outcome["text"], outcome)
    equal("the new name is stored", database.row("SELECT name FROM credentials WHERE id = ?", laptop_credential),
          {"name": "Work laptop"})
    outcome = press(page, f"#passkeys li[data-id='{alice_credential}'] .delete")
    check("Delete shows success", outcome["outcome"] == "success", outcome)
    view = wait_for(lambda: (lambda v: v if len(v["passkeys"]) == 1 else None)(account_view(page)), 10) or {}
    equal("the list then has the laptop's passkey, renamed",
          [(p["id"], p["name"]) for p in view.get("passkeys", [])], [(laptop_credential, "Work laptop")])
    outcome = press(page, f"{item} .delete")
    check("deleting the last passkey shows the server's refusal with its step",
          outcome["outcome"] == "error" and outcome["code"] == "lastPasskey"
          and outcome["text"].startswith("Delete: Refused (lastPasskey)"), outcome)
    equal("alice keeps one credential", database.count("credentials"), 1)

    # Sign out, then sign in by name, without one, and refusals.
    before = session_cookie(page)
    outcome = press(page, "#signout")
    check("Sign out: the form is back and the session is gone",
          wait_for(lambda: page.evaluate("document.body.dataset.signedIn === 'false'"), 10)
          and database.session(before) is None, (outcome, before))
    page.type_into("#username", "alice")
    outcome = press(page, "#signin")
    check("platform passkey: Sign in shows alice", outcome["outcome"] == "success"
          and "Signed in as alice" in outcome["text"], outcome)
    count = sign_count(database, laptop_credential)
    check("platform passkey: the database keeps the counter the page shows",
          count > 0 and f"Signature counter {count}" in outcome["text"], (count, outcome))
    check("signed in, the session ID is new", session_cookie(page) not in (None, before))
    press(page, "#signout")

    page.type_into("#username", "")
    outcome = press(page, "#passkey")
    check("platform passkey: Sign in with a passkey (no name) shows alice",
          outcome["outcome"] == "success" and "Signed in as alice with a passkey" in outcome["text"], outcome)
    check("platform passkey: the counter moved on", sign_count(database, laptop_credential) > count,
          (count, sign_count(database, laptop_credential)))
    press(page, "#signout")

    page.type_into("#username", "")
    outcome = press(page, "#signin")
    equal("Sign in without a name asks for one", (outcome["outcome"], outcome["code"]), ("error", "noUsername"))
    page.type_into("#username", "nobody")
    outcome = press(page, "#signin")
    check("Sign in as an unknown name: the authenticator has no passkey for the decoy IDs",
          outcome["outcome"] == "error" and outcome["code"] == "NotAllowedError", outcome)
    equal("an unknown user is not created by a sign-in", database.count("users", "username = 'nobody'"), 0)
    page.type_into("#username", "alice")
    outcome = press(page, "#register")
    check("Sign up with a name that has an account: usernameUnavailable",
          outcome["outcome"] == "error" and outcome["code"] == "usernameUnavailable"
          and outcome["text"].startswith("Sign up: Refused (usernameUnavailable)"), outcome)

    # A response tampered with between the page and the server: the page shows the step.
    page.type_into("#username", "alice")
    before = sign_count(database, laptop_credential)
    page.send("Fetch.enable", {"patterns": [{"urlPattern": "*/authentication/verify", "requestStage": "Request"}]})
    page.evaluate("document.getElementById('result').dataset.outcome = 'cleared'")
    page.click("#signin")
    paused = page.wait_event("Fetch.requestPaused", timeout=30)["params"]
    body = json.loads(posted_body(paused["request"]))
    body["response"]["signature"] = flip_last_byte(body["response"]["signature"])
    page.send("Fetch.continueRequest", {
        "requestId": paused["requestId"],
        "postData": base64.b64encode(json.dumps(body).encode()).decode()})
    page.send("Fetch.disable")
    outcome = result(page)
    check("a tampered signature is refused and the page shows the step and code",
          outcome["outcome"] == "error" and outcome["code"] == "signatureInvalid"
          and outcome["step"] == "§7.2 step 21" and "Sign in: Refused at §7.2 step 21" in outcome["text"], outcome)
    equal("the refused sign-in left the counter alone and used the state up",
          (sign_count(database, laptop_credential), database.count("ceremonies", "ceremony = 'authentication'")),
          (before, 0))

    # A U2F security key: sign up, sign in by name.
    page.remove_authenticator(laptop)
    key = page.add_authenticator(**SECURITY_KEY)
    page.type_into("#username", "carol")
    outcome = press(page, "#register")
    check("U2F security key: Sign up shows success", outcome["outcome"] == "success"
          and "Registered a passkey for carol" in outcome["text"], outcome)
    credentials = page.credentials(key)
    check("U2F security key: the key made one non-resident credential",
          len(credentials) == 1 and not credentials[0]["isResidentCredential"], credentials)
    carol_credential = b64(credentials[0]["credentialId"]) if credentials else ""
    record = database.row("SELECT record FROM credentials WHERE id = ?", carol_credential)
    check("U2F security key: the stored record names the usb transport",
          record is not None and "usb" in json.loads(record["record"]).get("transports", []), record)
    equal("U2F security key: the database has two users and two credentials",
          database.counts(), {"users": 2, "credentials": 2, "ceremonies": 0})
    press(page, "#signout")
    page.type_into("#username", "carol")
    outcome = press(page, "#signin")
    check("U2F security key: Sign in shows carol", outcome["outcome"] == "success"
          and "Signed in as carol" in outcome["text"], outcome)
    count = sign_count(database, carol_credential)
    check("U2F security key: the database keeps the counter the page shows",
          count > 0 and f"Signature counter {count}" in outcome["text"], (count, outcome))
    press(page, "#signout")
    page.remove_authenticator(key)

    page_signals.run(checks, page, database, press, account_view, b64)


def autofill(checks, browser, server, database):
    """Conditional mediation: a page without the override offers the passkey in autofill, and
    the virtual authenticator picks it at once, as a person choosing it would."""
    page = browser.new_page("about:blank")
    authenticator = page.add_authenticator(**PLATFORM)
    page.navigate(server.origin + "/")
    # The form is shown once the page's GET /account answers: typing before that would type
    # into a hidden field (the name lost, the sign-up refused with noUsername).
    checks.check("autofill: signed out, the page shows the form",
                 wait_for(lambda: page.evaluate("document.body.dataset.signedIn === 'false'"
                                                " && !document.getElementById('form').hidden"), 10))
    page.type_into("#username", "dave")
    outcome = press(page, "#register")
    checks.check("autofill: dave signs up", outcome["outcome"] == "success", outcome)
    press(page, "#signout")
    outcome = wait_for(lambda: (lambda r: r if "autofill" in r["text"] else None)(result(page)), 20) or {}
    checks.check("autofill: signed out, the page's conditional request (mediation 'conditional') "
                 "offers dave's passkey and signs him in",
                 outcome.get("outcome") == "success" and "Signed in as dave with a passkey from autofill"
                 in outcome.get("text", "")
                 and wait_for(lambda: page.evaluate("document.body.dataset.signedIn === 'true'"), 10), outcome)
    page.remove_authenticator(authenticator)


def b64(devtools_base64):
    """DevTools gives credential IDs in base64; the API and the database in base64url."""
    return base64.urlsafe_b64encode(base64.b64decode(devtools_base64)).rstrip(b"=").decode()


def posted_body(request):
    """The body of a request paused by the Fetch domain (postDataEntries are base64)."""
    if "postDataEntries" in request:
        return b"".join(base64.b64decode(entry.get("bytes", "")) for entry in request["postDataEntries"]).decode()
    return request.get("postData", "")


def flip_last_byte(text):
    data = bytearray(unb64url(text))
    data[-1] ^= 0x01
    return base64.urlsafe_b64encode(bytes(data)).rstrip(b"=").decode()


def sign_count(database, credential):
    row = database.row("SELECT sign_count FROM credentials WHERE id = ?", credential)
    return row["sign_count"] if row else -1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
