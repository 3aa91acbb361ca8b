"""The page's provider names and Signal API calls, part of page_test.py.

Where Chromium has the Signal API (`PublicKeyCredential.signal…`), the page calls
signalCurrentUserDetails after each sign-in, signalAllAcceptedCredentials after a deletion and
signalUnknownCredential only when a sign-in presents a credential ID the server does not know
(here: a passkey whose row was deleted from the database behind the page's back); it records
each call in `document.body.dataset.signals`. Where it has not, the page calls nothing. The
account view shows each passkey's provider name as the server's GET /account gives it.
"""

from harness import PLATFORM, wait_for


def signals_sent(page):
    return page.evaluate("document.body.dataset.signals || ''")


def run(checks, page, database, press, account_view, b64):
    check, equal = checks.check, checks.equal
    supported = page.evaluate(
        "['signalUnknownCredential', 'signalAllAcceptedCredentials', 'signalCurrentUserDetails']"
        ".every((name) => typeof PublicKeyCredential[name] === 'function')")
    check("the tampered and refused sign-ins before sent no signalUnknownCredential",
          "signalUnknownCredential" not in signals_sent(page), signals_sent(page))

    first = page.add_authenticator(**PLATFORM)
    page.type_into("#username", "erin")
    outcome = press(page, "#register")
    check("erin signs up", outcome["outcome"] == "success", outcome)
    erin_first = b64(page.credentials(first)[0]["credentialId"])
    served = page.evaluate("fetch('/account').then((r) => r.json())"
                           ".then((a) => a.passkeys.map((p) => p.provider || ''))")
    shown = page.evaluate("[...document.querySelectorAll('#passkeys li')].map((li) => li.dataset.provider)")
    equal("the account view shows each passkey's provider as GET /account names it", shown, served)

    press(page, "#signout")
    page.type_into("#username", "")
    outcome = press(page, "#passkey")
    check("erin signs in with a passkey", outcome["outcome"] == "success", outcome)
    equal(f"after the sign-in, the page called signalCurrentUserDetails (browser has the API: {supported})",
          "signalCurrentUserDetails" in signals_sent(page), supported)

    page.remove_authenticator(first)
    second = page.add_authenticator(**PLATFORM)
    outcome = press(page, "#add-passkey")
    check("erin adds a second passkey", outcome["outcome"] == "success", outcome)
    erin_second = b64(page.credentials(second)[0]["credentialId"])
    wait_for(lambda: len(account_view(page)["passkeys"]) == 2, 10)
    outcome = press(page, f"#passkeys li[data-id='{erin_first}'] .delete")
    check("erin deletes the first", outcome["outcome"] == "success", outcome)
    equal("after the deletion, the page called signalAllAcceptedCredentials",
          "signalAllAcceptedCredentials" in signals_sent(page), supported)
    check("... and still no signalUnknownCredential", "signalUnknownCredential" not in signals_sent(page))

    press(page, "#signout")
    database.execute("DELETE FROM credentials WHERE id = ?", erin_second)
    page.type_into("#username", "")
    outcome = press(page, "#passkey")
    equal("a sign-in with a passkey the server no longer knows: credentialNotFound",
          (outcome["outcome"], outcome["code"]), ("error", "credentialNotFound"))
    equal("... and the page called signalUnknownCredential",
          "signalUnknownCredential" in signals_sent(page), supported)
    page.remove_authenticator(second)
