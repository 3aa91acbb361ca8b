"""A small Chrome DevTools Protocol client over --remote-debugging-pipe.

Chromium reads commands from its file descriptor 3 and writes answers and events to 4, each
message one JSON text ended by a NUL byte. No WebSocket, no port, no package beyond Python's
own library. Every wait is bounded: a command that gets no answer in time raises CDPTimeout.
"""

import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time


class CDPError(Exception):
    """A command answered with an error, or the browser went away."""


class CDPTimeout(CDPError):
    """No answer within the time allowed."""


def find_chromium():
    """The Chromium binary: $CHROMIUM, or chromium / chromium-browser on the PATH."""
    for candidate in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser"):
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    raise CDPError("no chromium on the PATH (apt-get install chromium; .ci/install-deps)")


def _pipe():
    """A pipe whose two ends are numbered 10 or above, clear of the 3 and 4 Chromium reads."""
    ends = []
    for fd in os.pipe():
        ends.append(fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10))
        os.close(fd)
    return tuple(ends)


class Browser:
    """A headless Chromium driven over the pipe. Use as a context manager: it is killed on exit."""

    def __init__(self, timeout=30.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="fido2kit-chromium-")
        to_browser_read, self._to_browser = _pipe()
        self._from_browser, from_browser_write = _pipe()
        args = [
            find_chromium(),
            "--headless",
            "--remote-debugging-pipe",
            f"--user-data-dir={self.profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-extensions",
            "--disable-background-networking",
            "--disable-sync",
            "--password-store=basic",
            "--use-mock-keychain",
            "about:blank",
        ]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        # The shell moves the two pipe ends to descriptors 3 and 4, where Chromium expects them.
        script = f'exec "$@" 3<&{to_browser_read} 4>&{from_browser_write} {to_browser_read}<&- {from_browser_write}>&-'
        self.log = open(os.path.join(self.profile, "chromium.log"), "wb")
        self.process = subprocess.Popen(
            ["bash", "-c", script, "chromium", *args],
            pass_fds=(to_browser_read, from_browser_write),
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
        )
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        self.events = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.process.poll() is None:
            try:
                self.send("Browser.close", timeout=5)
            except CDPError:
                pass
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=5)
        for fd in (self._to_browser, self._from_browser):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)

    def chromium_log(self):
        """What Chromium wrote to stdout and stderr so far (for failure reports)."""
        self.log.flush()
        with open(self.log.name, "rb") as log:
            return log.read().decode("utf-8", "replace")

    # Messages

    def send(self, method, params=None, session=None, timeout=None):
        """Sends one command and returns its result; raises CDPError with the browser's error."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        while data:
            data = data[os.write(self._to_browser, data):]
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            answer = self._read(deadline, method)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise CDPError(f"{method}: {answer['error'].get('message')} {answer['error'].get('data', '')}".strip())
                return answer.get("result", {})
            if "method" in answer:
                self.events.append(answer)

    def _read(self, deadline, waiting_for):
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CDPTimeout(f"{waiting_for}: no answer in time")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise CDPError(f"{waiting_for}: the browser closed the pipe\n{self.chromium_log()[-2000:]}")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_event(self, method, timeout=None, session=None):
        """The next event `method` (from `session`, when given), waiting at most `timeout` s."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            for index, event in enumerate(self.events):
                if event["method"] == method and (session is None or event.get("sessionId") == session):
                    return self.events.pop(index)
            answer = self._read(deadline, method)
            if "method" in answer:
                self.events.append(answer)

    # Pages

    def new_context(self):
        """A new browser context (its own cookie jar, as another profile); its ID."""
        return self.send("Target.createBrowserContext")["browserContextId"]

    def new_page(self, url, context=None):
        """Opens `url` in a new tab (of browser context `context`, when given), attached;
        returns a Page once it has loaded."""
        params = {"url": "about:blank"}
        if context:
            params["browserContextId"] = context
        target = self.send("Target.createTarget", params)["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, target, session)
        page.send("Page.enable")
        page.send("Runtime.enable")
        page.navigate(url)
        return page


class Page:
    """One tab: commands go to its session."""

    def __init__(self, browser, target, session):
        self.browser = browser
        self.target = target
        self.session = session

    def send(self, method, params=None, timeout=None):
        return self.browser.send(method, params, session=self.session, timeout=timeout)

    def navigate(self, url, timeout=20.0):
        """Loads `url` and waits until its document is complete."""
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.evaluate("document.readyState === 'complete' && location.href") == url:
                return
            time.sleep(0.05)
        raise CDPTimeout(f"{url} did not load in {timeout} s")

    def evaluate(self, expression, timeout=None):
        """Evaluates `expression` in the page (awaiting a promise); returns its value as JSON.

        An exception thrown in the page raises CDPError with its description.
        """
        result = self.send(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True, "userGesture": True},
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CDPError(f"page threw: {text}")
        return result["result"].get("value")

    def click(self, selector):
        """Clicks the middle of the element `selector` with the mouse, as a person would (scrolled
        into view first: a click outside the viewport reaches nothing)."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()"
        )
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent",
                      {"type": kind, "x": box[0], "y": box[1], "button": "left", "clickCount": 1})

    def type_into(self, selector, text):
        """Empties the field `selector` and types `text` into it."""
        self.evaluate(f"(() => {{ const e = document.querySelector({json.dumps(selector)}); e.value = ''; e.focus(); }})()")
        if text:
            self.send("Input.insertText", {"text": text})

    def wait_event(self, method, timeout=None):
        """The next event `method` of this tab."""
        return self.browser.wait_event(method, timeout=timeout, session=self.session)

    def add_authenticator(self, **options):
        """Adds a DevTools virtual authenticator with `options`; returns its ID."""
        self.send("WebAuthn.enable", {"enableUI": False})
        return self.send("WebAuthn.addVirtualAuthenticator", {"options": options})["authenticatorId"]

    def remove_authenticator(self, authenticator):
        self.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": authenticator})

    def credentials(self, authenticator):
        """The credentials the virtual authenticator holds."""
        return self.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
