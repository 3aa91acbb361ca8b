#!/usr/bin/env bash
# Runs long fuzz campaigns, one target after another, and writes the table rows docs/security.md
# records them with:
#
#   Tests/Fuzz/campaign.sh LOG TARGET...        e.g. campaign.sh /tmp/round6 spki jwk belvo
#
# Builds the fuzz targets once, from a tree whose library and target sources are committed (so
# the campaign belongs to one commit, which Tests/Fuzz/stale.py can later check against), then
# runs each TARGET with run.sh until ten million executions or one hour, whichever comes first
# (issue 8's criterion), at nice 19. After each target it appends to LOG one Markdown row:
#
#   | target | executions | time | exec/s | corpus | UTC | findings | criterion met |
#
# and LOG.TARGET keeps run.sh's output. A target that fails (a crash, an invariant, a time-out,
# out of memory) is recorded as such, its input stays in artifacts/, and the queue goes on.
# Run several queues side by side for several cores; each row's exec/s shows what it got.
#
# Environment: FUZZ_RUNS (default 10000000), FUZZ_SECONDS (default 3600), FUZZ_NICE (default
# 19); run.sh's own variables pass through.
set -euo pipefail

fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$fuzz_dir/../.." && pwd)"
if [[ $# -lt 2 ]]; then
    echo "usage: $0 LOG TARGET...   (targets: $("$fuzz_dir/run.sh" --list | tr '\n' ' '))" >&2
    exit 2
fi
log="$1"
shift
for target in "$@"; do
    if [[ ! -d "$fuzz_dir/Sources/fuzz-$target" ]]; then
        echo "campaign.sh: no target '$target'" >&2
        exit 2
    fi
done
runs="${FUZZ_RUNS:-10000000}"
seconds="${FUZZ_SECONDS:-3600}"

# The binaries must be a commit's, or no later check can say what the campaign covered.
sources=(Sources Package.swift Tests/Fuzz/Sources Tests/Fuzz/Package.swift)
if [[ -n "$(git -C "$root" status --porcelain -- "${sources[@]}")" ]]; then
    echo "campaign.sh: uncommitted changes in ${sources[*]}; commit them first" >&2
    exit 2
fi
commit="$(git -C "$root" rev-parse --short HEAD)"
echo "==> building the fuzz targets at $commit"
"$fuzz_dir/run.sh" --build
if [[ -n "$(git -C "$root" status --porcelain -- "${sources[@]}")" ]]; then
    echo "campaign.sh: the sources changed during the build" >&2
    exit 1
fi
echo "<!-- binaries built at $commit, $(date -u +%Y-%m-%dT%H:%M:%SZ); FUZZ_SKIP_BUILD=1" \
    "FUZZ_RUNS=$runs nice -n ${FUZZ_NICE:-19} Tests/Fuzz/run.sh TARGET $seconds -->" >>"$log"

commas() { sed ':again; s/\B[0-9]\{3\}\>/,&/; t again' <<<"$1"; }

for target in "$@"; do
    start="$(date -u +%H:%M:%S)"
    set +e
    FUZZ_SKIP_BUILD=1 FUZZ_RUNS="$runs" nice -n "${FUZZ_NICE:-19}" \
        "$fuzz_dir/run.sh" "$target" "$seconds" >"$log.$target" 2>&1
    status=$?
    set -e
    end="$(date -u +%H:%M:%S)"
    # run.sh's last line: "fuzz-T: N executions in S s (R exec/s), corpus C, peak RSS M MB: ok"
    summary="$(tail -n 1 "$log.$target")"
    pattern='^fuzz-[a-z0-9-]+: ([0-9?]+) executions in ([0-9]+) s \(([0-9?]+) exec/s\), corpus ([0-9]+)'
    if [[ "$summary" =~ $pattern ]]; then
        executions="${BASH_REMATCH[1]}" elapsed="${BASH_REMATCH[2]}"
        rate="${BASH_REMATCH[3]}" corpus="${BASH_REMATCH[4]}"
    else
        executions="?" elapsed="?" rate="?" corpus="?"
    fi
    if [[ $status -ne 0 ]]; then
        findings="**run.sh exit $status: see $log.$target and artifacts/**"
        met="no"
    elif [[ "$executions" =~ ^[0-9]+$ && "$executions" -ge "$runs" ]]; then
        findings="none"
        met="yes ($( ((runs % 1000000 == 0)) && echo "$((runs / 1000000))M" || commas "$runs"))"
    elif [[ "$elapsed" =~ ^[0-9]+$ && "$elapsed" -ge "$seconds" ]]; then
        findings="none"
        met="yes ($( ((seconds == 3600)) && echo "1 h" || echo "$seconds s"))"
    else
        findings="none"
        met="no (stopped early)"
    fi
    printf '| `%s` | %s | %s s | %s | %s | %s–%s | %s | %s |\n' "$target" \
        "$(commas "$executions")" "$(commas "$elapsed")" "$(commas "$rate")" \
        "$(commas "$corpus")" "$start" "$end" "$findings" "$met" >>"$log"
done
