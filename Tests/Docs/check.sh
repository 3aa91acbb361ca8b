#!/usr/bin/env bash
# Builds the DocC documentation of every target of this package (libraries, the command-line
# tool, the test support libraries; not the dependencies') and fails on any warning: an
# unresolved link, a parameter documented that does not exist, an article that does not parse.
#
# Usage: Tests/Docs/check.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

targets="$(swift package describe --type json | python3 -c '
import json, sys
package = json.load(sys.stdin)
for target in package["targets"]:
    if target["type"] in ("library", "executable", "regular") and target.get("module_type") == "SwiftTarget":
        print(target["name"])
')"
[ -n "$targets" ] || { echo "docs: no targets found" >&2; exit 1; }
failed=0
for target in $targets; do
    log="$(swift package generate-documentation --target "$target" 2>&1)" || {
        echo "$log" >&2
        echo "docs: $target: generate-documentation failed" >&2
        failed=1
        continue
    }
    warnings="$(grep -E '^(warning|error):' <<<"$log" || true)"
    if [ -n "$warnings" ]; then
        echo "$warnings" | sed "s/^/docs: $target: /" >&2
        failed=1
    else
        echo "docs: $target: no warnings"
    fi
done
exit "$failed"
