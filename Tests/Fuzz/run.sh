#!/usr/bin/env bash
# Runs one fido2kit fuzz target for a given time:
#
#   Tests/Fuzz/run.sh TARGET SECONDS [libFuzzer flags...]     e.g. run.sh cbor-strict 60
#   Tests/Fuzz/run.sh --list                                   the targets
#   Tests/Fuzz/run.sh --build                                  build every target, fail if it fails
#
# Builds the fuzz package if needed (release, -sanitize=fuzzer,address), writes seeds made from
# ../shared/vectors into Tests/Fuzz/corpus-TARGET/ (ignored by git, kept between runs so the
# corpus grows), and runs libFuzzer with the target's dictionary, a per-input time-out and
# memory limits. Prints one summary line with executions, time, exec/s, corpus size and peak
# memory, and exits non-zero on a crash, an invariant failure, a time-out or running out of
# memory; the input that did it is saved under Tests/Fuzz/artifacts/.
#
# Environment: FUZZ_SKIP_BUILD=1 skips the build (ci.sh builds once); FUZZ_RUNS=N stops after N
# executions as well; FUZZ_TIMEOUT (seconds per input, default 10), FUZZ_RSS_LIMIT_MB (default
# 2048) and FUZZ_MALLOC_LIMIT_MB (largest single allocation, default 512) tune the limits;
# FIDO2KIT_SHARED_VECTORS points at the vectors elsewhere.
set -euo pipefail

fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
scratch="$fuzz_dir/.build-fuzz"

targets() {
    find "$fuzz_dir/Sources" -maxdepth 1 -type d -name 'fuzz-*' -printf '%f\n' | sed 's/^fuzz-//' | sort
}

build_flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
# Builds the fuzz package (every target, or the swift build options given) and fails when the
# build fails, so no later step runs binaries left from an older tree.
build() {
    local log status
    log="$(mktemp)"
    swift build --package-path "$fuzz_dir" --scratch-path "$scratch" "${build_flags[@]}" "$@" \
        >"$log" 2>&1 && status=0 || status=$?
    grep -Ev '^\[[0-9]+/[0-9]+\]' "$log" || true
    rm -f "$log"
    if [[ $status -ne 0 ]]; then
        echo "run.sh: the fuzz package does not build" >&2
        return 1
    fi
}

if [[ "${1:-}" == "--list" ]]; then
    targets
    exit 0
fi
if [[ "${1:-}" == "--build" ]]; then
    build
    exit $?
fi
if [[ $# -lt 2 || ! "$2" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 TARGET SECONDS [libFuzzer flags...]   (targets: $(targets | tr '\n' ' '))" >&2
    exit 2
fi
target="$1"
seconds="$2"
shift 2
source_dir="$fuzz_dir/Sources/fuzz-$target"
if [[ ! -d "$source_dir" ]]; then
    echo "run.sh: no target '$target' (targets: $(targets | tr '\n' ' '))" >&2
    exit 2
fi

if [[ "${FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
    echo "==> building fuzz-$target"
    build_start=$SECONDS
    build --product "fuzz-$target"
    echo "    build took $((SECONDS - build_start)) s"
fi
binary="$(swift build --package-path "$fuzz_dir" --scratch-path "$scratch" "${build_flags[@]}" \
    --show-bin-path)/fuzz-$target"
if [[ ! -x "$binary" ]]; then
    echo "run.sh: $binary was not built" >&2
    exit 1
fi

# The target's header names its dictionary (and its seed kinds, which seeds.py reads).
dictionary="$(sed -n 's|^// dictionary: *||p' "$source_dir"/*Fuzzer.swift | head -n 1)"
corpus="$fuzz_dir/corpus-$target"
artifacts="$fuzz_dir/artifacts"
mkdir -p "$corpus" "$artifacts"
python3 "$fuzz_dir/seeds.py" "$corpus" --target "$target"
# ...and whatever the target makes itself (most make nothing).
FUZZ_WRITE_SEEDS="$corpus" "$binary" || { echo "run.sh: $target cannot write its own seeds" >&2; exit 1; }

flags=(
    "-max_total_time=$seconds"
    "-timeout=${FUZZ_TIMEOUT:-10}"
    "-rss_limit_mb=${FUZZ_RSS_LIMIT_MB:-2048}"
    "-malloc_limit_mb=${FUZZ_MALLOC_LIMIT_MB:-512}"
    "-artifact_prefix=$artifacts/$target-"
    -print_final_stats=1
    -reload=0
)
[[ -n "$dictionary" ]] && flags+=("-dict=$fuzz_dir/dictionaries/$dictionary.dict")
[[ -n "${FUZZ_RUNS:-}" ]] && flags+=("-runs=$FUZZ_RUNS")

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "==> fuzz-$target for ${seconds}s: $binary ${flags[*]} $* $corpus"
start=$(date +%s.%N)
set +e
# The Swift runtime's own crash handler fights AddressSanitizer's; libFuzzer reports crashes.
SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}" \
    "$binary" "${flags[@]}" "$@" "$corpus" >"$log" 2>&1
status=$?
set -e
end=$(date +%s.%N)

stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -n 1; }
executions="$(stat number_of_executed_units)"
rate="$(stat average_exec_per_sec)"
peak="$(stat peak_rss_mb)"
corpus_size="$(find "$corpus" -type f | wc -l)"
elapsed="$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.0f", e - s }')"

if [[ $status -ne 0 ]]; then
    grep -E 'ERROR|FUZZ INVARIANT|SUMMARY|Test unit written|deadly signal|out-of-memory|timeout' "$log" |
        head -n 20 >&2 || true
    echo "---- last lines of the libFuzzer log ----" >&2
    tail -n 40 "$log" >&2
fi
result="ok"
[[ $status -ne 0 ]] && result="FAILED (libFuzzer exit $status)"
printf 'fuzz-%s: %s executions in %s s (%s exec/s), corpus %s, peak RSS %s MB: %s\n' \
    "$target" "${executions:-?}" "$elapsed" "${rate:-?}" "$corpus_size" "${peak:-?}" "$result"
exit "$status"
