#!/usr/bin/env bash
# Runs the benchmark N times for the scenarios matching FILTER and prints each run's checks
# (scenario: check: judged ratio of the fastest rounds, and the ratio of the medians), one line
# per check and run. On a shared machine one run's ratio moves by several percent; the spread
# over runs is what docs/performance.md quotes for targets close to their limit.
#
#   benchmarks/repeat.sh N FILTER        e.g. benchmarks/repeat.sh 10 "WebAuthn: ES256"
set -euo pipefail
if [[ $# -ne 2 || ! "$1" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 RUNS FILTER" >&2
    exit 2
fi
binary="$(cd "$(dirname "$0")" && pwd)/.build/release/fido2kit-bench"
[[ -x "$binary" ]] || { echo "$0: build first: swift build -c release --package-path benchmarks" >&2; exit 1; }
for run in $(seq "$1"); do
    "$binary" --no-check --filter "$2" | awk -F'|' -v run="$run" \
        '/^### / { title = substr($0, 5) }
         NF >= 7 && $2 ~ / vs / { gsub(/^ +| +$/, "", $2); printf "run %s: %s: %s: %s (median %s)\n", run, title, $2, $4 + 0, $5 + 0 }'
done
