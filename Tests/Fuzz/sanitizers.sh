#!/usr/bin/env bash
# Runs the root package's tests under a sanitizer, each in its own scratch path:
#
#   Tests/Fuzz/sanitizers.sh address     # swift test --sanitize=address  (.build-asan)
#   Tests/Fuzz/sanitizers.sh thread      # swift test --sanitize=thread   (.build-tsan)
#
# Extra arguments go to `swift test` (e.g. --filter Fido2CryptoTests). Any sanitizer report
# fails the run. LeakSanitizer ignores XCTest's own objects, which it keeps alive at exit, and
# the small blocks libcurl leaves per URLSession request (see lsan-suppressions.txt); nothing of
# ours is suppressed.
set -euo pipefail

fuzz_dir="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$fuzz_dir/../.." && pwd)"
sanitizer="${1:-}"
case "$sanitizer" in
address) scratch="$root/.build-asan" ;;
thread) scratch="$root/.build-tsan" ;;
*)
    echo "usage: $0 address|thread [swift test arguments...]" >&2
    exit 2
    ;;
esac
shift

export LSAN_OPTIONS="suppressions=$fuzz_dir/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}"
export SWIFT_BACKTRACE=enable=no

cd "$root"
start=$SECONDS
swift build --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
built=$SECONDS
swift test --skip-build --sanitize="$sanitizer" --scratch-path "$scratch" "$@"
echo "sanitize=$sanitizer: build $((built - start)) s, tests $((SECONDS - built)) s"
