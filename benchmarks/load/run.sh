#!/usr/bin/env bash
# The example passkey server under load, beside a peer, in one run on this machine's loopback:
#   1. passkey-server on SQLite (a temporary file);
#   2. passkey-server on PostgreSQL (Debian's, a throw-away cluster), one instance;
#   3. the same, two instances on the one database, the load split round-robin;
#   4. the peer: aiohttp + py_webauthn 3.0.1, SQLite in WAL mode, two worker processes
#      (benchmarks/load/peer/server.py).
# Each gets the same load from passkey-load (docs/examples/PasskeyServer/Sources/PasskeyLoad):
# 64 accounts signed up with fido2kit's software authenticator, then sign-ins (options, a real
# ES256 assertion, verify) at 1, 8 and 32 concurrent clients, SECONDS each. It prints one table
# line per server and level, with the client's own CPU share and the load average: the client
# runs on the same cores as the server, and other work on the machine shows in the figures.
#
# Usage: benchmarks/load/run.sh [SECONDS]   (default 5; needs postgresql and python3-venv)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-5}"
package=docs/examples/PasskeyServer

swift build -c release --package-path "$package" --product passkey-server >&2
swift build -c release --package-path "$package" --product passkey-load >&2
bin="$(swift build -c release --package-path "$package" --show-bin-path)"

venv=.build-peers/load-venv
if ! "$venv/bin/python" -c 'import webauthn, aiohttp' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q "webauthn==3.0.1" "aiohttp==3.14.5"
fi

work="$(mktemp -d)"
pids=()
pg=""
runas=()
[ "$(id -u)" -eq 0 ] && runas=(runuser -u nobody --) && chown nobody "$work"
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    [ -n "$pg" ] && "${runas[@]}" "$pg/pg_ctl" -D "$work/pgdata" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_port() {
    for _ in $(seq 300); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "load: nothing listens on port $1" >&2; exit 1
}
server() {  # server PORT DATABASE
    "$bin/passkey-server" --port "$1" --database "$2" --origin http://localhost \
        --options-rate-limit 1000000 --maximum-connections 10000 >"$work/server-$1.log" 2>&1 &
    pids+=($!)
    wait_port "$1"
}
load() {  # load LABEL PORT...
    local label="$1"; shift
    local ports=()
    for port in "$@"; do ports+=(--port "$port"); done
    "$bin/passkey-load" "${ports[@]}" --origin http://localhost --seconds "$seconds" \
        --label "$label" | tail -n +2
}

echo "server | clients | sign-ins/s | p50 ms | p99 ms | max ms | failed | client CPU % | load avg"
port=$(free_port); server "$port" "$work/passkeys.sqlite"
load "example, SQLite" "$port"

pg="$(dirname "$(ls /usr/lib/postgresql/*/bin/pg_ctl | sort | tail -n 1)")"
pgport=$(free_port)
"${runas[@]}" "$pg/initdb" -D "$work/pgdata" -U postgres --auth=trust --no-sync >/dev/null
"${runas[@]}" "$pg/pg_ctl" -D "$work/pgdata" -l "$work/pg.log" -w \
    -o "-p $pgport -k $work -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
"$pg/psql" -h 127.0.0.1 -p "$pgport" -U postgres -d postgres -qc "CREATE DATABASE passkeys"
url="postgres://postgres@127.0.0.1:$pgport/passkeys"
first=$(free_port); server "$first" "$url"
load "example, PostgreSQL, 1 instance" "$first"
second=$(free_port); server "$second" "$url"
load "example, PostgreSQL, 2 instances" "$first" "$second"

peer=$(free_port)
"$venv/bin/python" benchmarks/load/peer/server.py "$peer" "$work/peer.sqlite" --workers 2 \
    --origin http://localhost >"$work/peer.log" 2>&1 &
pids+=($!)
wait_port "$peer"
load "peer: aiohttp + py_webauthn, 2 workers" "$peer"
echo "load: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end"
