#!/usr/bin/env bash
# The example passkey server (docs/examples/PasskeyServer) in a real browser.
#
# Builds the example in release once, then runs three tests against it, each with its own
# servers (free loopback ports, a temporary SQLite file); the first two with their own headless
# Chromium driven over the DevTools protocol (--remote-debugging-pipe) with virtual
# authenticators:
#   - page_test.py: the page's own buttons, account view, autofill and #result, as a person
#                   uses them;
#   - api_test.py:  the HTTP API from a page of the server's origin with the script's own
#                   JavaScript (fetch, navigator.credentials), independent of the page's script;
#   - http_test.py: plain HTTP from Python, what no page sends: wrong Content-Types, planted
#                   session IDs, look-alike usernames, the rate limit;
#   - postgres_test.py: two servers on one PostgreSQL (Debian's, a throw-away cluster on a
#                   loopback port): a passkey made on one signs in on the other, one response
#                   sent to both at once verifies once, and killing one under load loses nothing.
# They check the SQLite database after each step. Each prints one line per check and
# "N passed, M failed"; the script exits 1 when one fails.
#
# Usage: Tests/Browser/run.sh
# Needs chromium, libsqlite3-dev and postgresql from Debian (installed here when missing, by
# `.ci/install-deps --browser`) and python3 (its standard library only).
set -euo pipefail
cd "$(dirname "$0")/../.."

.ci/install-deps --browser
command -v chromium >/dev/null || command -v chromium-browser >/dev/null \
    || { echo "browser: chromium missing (apt chromium; .ci/install-deps --browser)" >&2; exit 1; }

package=docs/examples/PasskeyServer
started=$(date +%s)
swift build -c release --package-path "$package" --product passkey-server
built=$(date +%s)
server="$(swift build -c release --package-path "$package" --show-bin-path)/passkey-server"
echo "browser: passkey-server built in $((built - started)) s"

# The tests stop their servers and browser themselves, also when timeout stops them (SIGTERM).
status=0
timeout -k 15 300 python3 Tests/Browser/page_test.py "$server" || status=1
timeout -k 15 300 python3 Tests/Browser/api_test.py "$server" || status=1
timeout -k 15 300 python3 Tests/Browser/http_test.py "$server" || status=1
timeout -k 15 300 python3 Tests/Browser/postgres_test.py "$server" || status=1
echo "browser: tests ran in $(($(date +%s) - built)) s"
exit "$status"
