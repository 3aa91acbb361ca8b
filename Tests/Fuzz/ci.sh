#!/usr/bin/env bash
# Runs every fido2kit fuzz target for a short time, as CI does:
#
#   Tests/Fuzz/ci.sh SECONDS_PER_TARGET        e.g. ci.sh 30
#
# Builds the fuzz package once, then runs each target with run.sh. Every target runs even after
# one fails; the script prints one summary line per target and a last line
# "fuzz: N passed, M failed", and exits non-zero when any target found a crash, a time-out or an
# out-of-memory (the inputs are under Tests/Fuzz/artifacts/).
set -uo pipefail

fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
seconds="${1:-}"
if [[ ! "$seconds" =~ ^[0-9]+$ ]]; then
    echo "usage: $0 SECONDS_PER_TARGET" >&2
    exit 2
fi

echo "==> building every fuzz target"
build_start=$SECONDS
"$fuzz_dir/run.sh" --build || exit 1
echo "    build took $((SECONDS - build_start)) s"

passed=0
failed=0
summaries=()
for target in $("$fuzz_dir/run.sh" --list); do
    output="$(FUZZ_SKIP_BUILD=1 "$fuzz_dir/run.sh" "$target" "$seconds" 2>&1)"
    status=$?
    summary="$(grep -E "^fuzz-$target: " <<<"$output" | tail -n 1)"
    if [[ $status -eq 0 ]]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "$output" >&2
        [[ -z "$summary" ]] && summary="fuzz-$target: FAILED (exit $status)"
    fi
    echo "$summary"
    summaries+=("$summary")
done

echo
echo "==> fuzzing summary ($seconds s per target)"
printf '%s\n' "${summaries[@]}"
echo "fuzz: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
