#!/usr/bin/env python3
"""Does a fuzz campaign still count for the code as it is now?

    Tests/Fuzz/stale.py COMMIT [TARGET ...] [--skip-build]

A campaign ran on the binaries of one commit. The library has changed since; the campaign still
speaks for the current tree only if none of the changed code is code the target executes. This
script answers that with line coverage instead of judgement:

1. builds the targets with source-based coverage (`.build-cov`: `-sanitize=fuzzer
   -profile-generate -profile-coverage-mapping`, no AddressSanitizer), from the working tree;
2. replays each target's corpus (`corpus-TARGET/`, what its campaigns grew) plus its seeds
   once (`-runs=0`) and exports the line counts (llvm-cov, the toolchain's own);
3. intersects them with `git diff -U0 COMMIT` over `Sources/`: a changed Swift line with a
   count above zero is changed code the target runs. Inlined code (`@inlinable` across modules)
   is counted where it came from, so it is not missed. C headers (the OpenSSL shim) are not
   instrumented: a changed C function counts as run when a Swift line that calls it ran, and
   so does a C function that uses a changed macro or calls a changed function.

Each target gets one verdict line: `current` (no changed line runs), or `STALE` with the lines
that run, so the campaign has to be repeated to count for this tree. The corpus stands in for
what the campaign exercised: it is the campaign's output, but a corpus that is missing (another
machine) leaves only the seeds, and the verdict says so. Changed comments never count; a
changed declaration (no line count of its own) in a file the target runs is listed as a note to
check by hand, since it can change what the code around it does.

Exit status: 0 when every target is current, 1 when one is stale, 2 on a usage or build error.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

FUZZ_DIR = Path(__file__).resolve().parent
ROOT = FUZZ_DIR.parents[1]
SCRATCH = FUZZ_DIR / ".build-cov"
BUILD_FLAGS = [
    "-c", "release",
    "-Xswiftc", "-sanitize=fuzzer",
    "-Xswiftc", "-profile-generate",
    "-Xswiftc", "-profile-coverage-mapping",
    "-Xswiftc", "-use-ld=lld",
]
C_SUFFIXES = (".h", ".c")


def fail(message: str) -> NoReturn:
    print(f"stale.py: {message}", file=sys.stderr)
    sys.exit(2)


def run(command: list, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, text=True, capture_output=True, **kwargs)


def toolchain_tool(name: str) -> str:
    """llvm-profdata and llvm-cov must be the toolchain's: a distribution's older LLVM cannot
    read the raw profiles Swift's runtime writes."""
    swift = shutil.which("swift")
    if swift is None:
        fail("swift is not on PATH")
    tool = Path(swift).resolve().parent / name
    if not tool.exists():
        fail(f"{name} is not beside {Path(swift).resolve()}")
    return str(tool)


def all_targets() -> list:
    return sorted(p.name[len("fuzz-"):] for p in (FUZZ_DIR / "Sources").glob("fuzz-*"))


# ---- what changed -------------------------------------------------------------------------


def changed_lines(commit: str) -> dict:
    """Lines of the working tree's Sources/ that differ from COMMIT (see `parse_diff`)."""
    # Explicit prefixes: diff.noprefix or diff.mnemonicPrefix in a user's config would change them.
    diff = run(["git", "-C", str(ROOT), "diff", "-U0", "--no-color", "--src-prefix=a/",
                "--dst-prefix=b/", commit, "--", "Sources"])
    if diff.returncode != 0:
        fail(f"git diff {commit} failed: {diff.stderr.strip()}")
    return parse_diff(diff.stdout)


def parse_diff(text: str) -> dict:
    """{path: set(line)} of the new side of a `git diff -U0`. A hunk that only deletes marks
    the lines on either side of the deletion; a deleted file marks nothing (no code of it can
    run now, and its callers changed too)."""
    changed: dict = {}
    path = None
    for line in text.splitlines():
        if line.startswith("+++ "):
            path = None if line[4:] == "/dev/null" else line[len("+++ b/"):]
        elif line.startswith("@@") and path is not None:
            match = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", line)
            start, count = int(match.group(1)), int(match.group(2) or "1")
            lines = changed.setdefault(path, set())
            if count == 0:
                lines.update({start, start + 1})
            else:
                lines.update(range(start, start + count))
    return changed


@dataclass
class CBlock:
    """A function or macro definition in a C header, by line range."""

    name: str
    kind: str  # "function" or "macro"
    first: int
    last: int
    body: str


def c_blocks(text: str) -> list:
    lines = text.splitlines()
    blocks = []
    index = 0
    while index < len(lines):
        line = lines[index]
        macro = re.match(r"^#define\s+(\w+)\(", line)
        # A definition starts in column 0 and does not end in `;` (that is a prototype).
        function = re.match(r"^(?:static\s+)?(?:inline\s+)?[A-Za-z_][\w\s\*]*?\b(\w+)\s*\(", line)
        if macro:
            end = index
            while lines[end].rstrip().endswith("\\") and end + 1 < len(lines):
                end += 1
            blocks.append(CBlock(macro.group(1), "macro", index + 1, end + 1,
                                 "\n".join(lines[index:end + 1])))
            index = end + 1
        elif function and not line.rstrip().endswith(";"):
            end = index
            if not (line.rstrip().endswith("}") and "{" in line):
                while end + 1 < len(lines) and not lines[end].startswith("}"):
                    end += 1
            blocks.append(CBlock(function.group(1), "function", index + 1, end + 1,
                                 "\n".join(lines[index:end + 1])))
            index = end + 1
        else:
            index += 1
    return blocks


def changed_c_functions(text: str, lines: set) -> tuple:
    """The functions of a C header that changed: their definition, a macro they use or a
    function they call changed. And the changed lines that lie in no function or macro
    (includes, types, comments)."""
    blocks = c_blocks(text)
    functions = [b for b in blocks if b.kind == "function"]
    changed = {b.name for b in blocks if any(b.first <= n <= b.last for n in lines)}
    while True:
        callers = {f.name for f in functions if f.name not in changed and any(
            re.search(rf"\b{name}\b", f.body) for name in changed)}
        if not callers:
            break
        changed |= callers
    loose = sorted(n for n in lines if not any(b.first <= n <= b.last for b in blocks))
    return {f.name for f in functions if f.name in changed}, loose


# ---- what runs ----------------------------------------------------------------------------


def build(targets: list) -> Path:
    command = ["swift", "build", "--package-path", str(FUZZ_DIR), "--scratch-path", str(SCRATCH)]
    command += BUILD_FLAGS
    print(f"==> building {len(targets)} target(s) with coverage into {SCRATCH}", flush=True)
    for target in targets:
        result = run(command + ["--product", f"fuzz-{target}"])
        if result.returncode != 0:
            fail(f"building fuzz-{target} failed:\n{result.stdout[-3000:]}{result.stderr[-2000:]}")
    return bin_path()


def bin_path() -> Path:
    result = run(["swift", "build", "--package-path", str(FUZZ_DIR), "--scratch-path",
                  str(SCRATCH), *BUILD_FLAGS, "--show-bin-path"])
    if result.returncode != 0:
        fail(f"cannot find the coverage build: {result.stderr.strip()}")
    return Path(result.stdout.strip())


@dataclass
class Replay:
    counts: dict = field(default_factory=dict)  # {repo-relative path: {line: count}}
    corpus_inputs: int = 0
    seed_inputs: int = 0


def replay(target: str, binary: Path, work: Path) -> Replay:
    seeds = work / f"seeds-{target}"
    seeds.mkdir()
    made = run([sys.executable, str(FUZZ_DIR / "seeds.py"), str(seeds), "--target", target])
    if made.returncode != 0:
        fail(f"seeds for {target}: {made.stderr.strip()}")
    env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
    own = run([str(binary)], env=dict(env, FUZZ_WRITE_SEEDS=str(seeds)))
    if own.returncode != 0:
        fail(f"fuzz-{target} cannot write its own seeds: {own.stderr[-500:]}")
    corpus = FUZZ_DIR / f"corpus-{target}"
    directories = [seeds] + ([corpus] if corpus.is_dir() else [])

    raw = work / f"{target}.profraw"
    replayed = run([str(binary), "-runs=0", "-timeout=60", "-rss_limit_mb=2048",
                    "-malloc_limit_mb=512", *map(str, directories)],
                   env=dict(env, LLVM_PROFILE_FILE=str(raw)))
    if replayed.returncode != 0 or not raw.exists():
        fail(f"replaying fuzz-{target}'s corpus failed:\n{replayed.stderr[-2000:]}")
    profile = work / f"{target}.profdata"
    merged = run([toolchain_tool("llvm-profdata"), "merge", "-sparse", str(raw), "-o",
                  str(profile)])
    if merged.returncode != 0:
        fail(f"llvm-profdata: {merged.stderr.strip()}")
    exported = run([toolchain_tool("llvm-cov"), "export", "-format=lcov", str(binary),
                    f"-instr-profile={profile}"])
    if exported.returncode != 0:
        fail(f"llvm-cov: {exported.stderr.strip()}")

    result = Replay(
        corpus_inputs=sum(1 for p in corpus.iterdir() if p.is_file()) if corpus.is_dir() else 0,
        seed_inputs=sum(1 for p in seeds.iterdir() if p.is_file()))
    source = None
    for line in exported.stdout.splitlines():
        if line.startswith("SF:"):
            path = Path(line[3:])
            source = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else None
        elif line.startswith("DA:") and source is not None:
            number, count = line[3:].split(",")[:2]
            lines = result.counts.setdefault(source, {})
            lines[int(number)] = max(lines.get(int(number), 0), int(count))
    return result


# ---- the verdict --------------------------------------------------------------------------


def is_inert(line: str) -> bool:
    """A blank, comment or `#undef`/`#pragma` line: coverage regions span them, but they run
    nothing."""
    text = line.strip()
    return not text or text.startswith(("//", "/*", "*", "#undef", "#pragma"))


def reached_changes(changed: dict, counts: dict, read, swift_files: list) -> tuple:
    """What of `changed` ({path: set(line)}) runs, by `counts` ({path: {line: count}}):
    a list of report lines, and a list of notes on changes it cannot judge. `read(path)` gives
    a file's lines; `swift_files` lists the Swift sources, searched for calls into changed C."""
    reached, notes = [], []
    for path in sorted(changed):
        source = read(path)
        if path.endswith(C_SUFFIXES):
            functions, loose = changed_c_functions("\n".join(source), changed[path])
            for function in sorted(functions):
                sites = [(site, number, counts.get(site, {}).get(number, 0))
                         for site in swift_files
                         for number, text in enumerate(read(site), start=1)
                         if re.search(rf"\b{function}\s*\(", text)]
                ran = [site for site in sites if site[2] > 0]
                if ran:
                    site, number, count = ran[0]
                    reached.append(f"{path}: {function} changed, called at {site}:{number} "
                                   f"(run {count:,} times)")
            loose = [n for n in loose if n <= len(source) and not is_inert(source[n - 1])]
            if loose:
                notes.append(f"{path} lines {', '.join(map(str, loose))} changed outside any "
                             "function (includes or types); check them by hand")
            continue
        file_counts = counts.get(path, {})
        uninstrumented = []
        for number in sorted(changed[path]):
            if number > len(source) or is_inert(source[number - 1]):
                continue
            if file_counts.get(number, 0) > 0:
                reached.append(f"{path}:{number} (run {file_counts[number]:,} times): "
                               f"{source[number - 1].strip()[:70]}")
            elif number not in file_counts:
                uninstrumented.append(number)
        # A declaration (a stored property's type, an enum case's raw value) has no line count
        # but can change what the code around it does; in a file the target runs, say so.
        if uninstrumented and any(count > 0 for count in file_counts.values()):
            notes.append(f"{path} lines {', '.join(map(str, uninstrumented))} changed outside "
                         "any code with a line count (declarations); check them by hand")
    return reached, notes


def read_source(path: str) -> list:
    file = ROOT / path
    return file.read_text().splitlines() if file.exists() else []


def verdict(target: str, commit: str, changed: dict, replayed: Replay) -> bool:
    """Prints the target's verdict; True when it is stale."""
    swift_files = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "Sources").rglob("*.swift"))
    reached, notes = reached_changes(changed, replayed.counts, read_source, swift_files)
    for note in notes:
        print(f"    note: {note}")
    inputs = f"{replayed.corpus_inputs:,} corpus + {replayed.seed_inputs:,} seed inputs"
    if replayed.corpus_inputs == 0:
        inputs = f"seeds only ({replayed.seed_inputs:,} inputs; no corpus-{target}/ here)"
    if reached:
        print(f"fuzz-{target}: STALE since {commit}: {len(reached)} changed line(s) or "
              f"function(s) run ({inputs})")
        for item in reached:
            print(f"    {item}")
    else:
        print(f"fuzz-{target}: current since {commit}: no changed line runs ({inputs})")
    return bool(reached)


def main(arguments: list) -> int:
    skip_build = "--skip-build" in arguments
    arguments = [a for a in arguments if a != "--skip-build"]
    if not arguments or arguments[0].startswith("-"):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    commit, targets = arguments[0], arguments[1:] or all_targets()
    unknown = sorted(set(targets) - set(all_targets()))
    if unknown:
        fail(f"no target {', '.join(unknown)} (targets: {' '.join(all_targets())})")
    resolved = run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet",
                    f"{commit}^{{commit}}"])
    if resolved.returncode != 0:
        fail(f"{commit} is not a commit of this repository")
    changed = changed_lines(commit)
    if not changed:
        print(f"Sources/ has not changed since {commit}: every campaign on it is current")
        return 0
    print(f"Sources/ changed since {commit} in {len(changed)} file(s): "
          + ", ".join(Path(p).name for p in sorted(changed)))

    binaries = bin_path() if skip_build else build(targets)
    stale = False
    with tempfile.TemporaryDirectory(prefix="fido2kit-stale-") as work:
        for target in targets:
            binary = binaries / f"fuzz-{target}"
            if not binary.exists():
                fail(f"{binary} is not built (run without --skip-build)")
            stale |= verdict(target, commit, changed, replay(target, binary, Path(work)))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
