#!/usr/bin/env python3
"""fido2kit's credential store and I/O under concurrency and faults (issue 21).

Usage: Tests/CLI/faults.py [path/to/fido2kit]   (default: builds and uses the debug binary)

Runs the binary as separate processes: many at once on one credential, killed at random
points, fed endless or huge input, writing to a full or closed output, on a store with a
planted FIFO, symbolic link or stale temporary files, and on JSON that repeats a member name.
Each check prints one line; the last line counts them, and the exit status is 1 when any failed.
FAULTS_KILLS (default 200) sets how many processes the kill test kills.
"""

import base64
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORIGIN = "https://example.org"
RSS_LIMIT_KB = 200 * 1024  # peak resident memory allowed to a process refusing an input
SECONDS_LIMIT = 5.0  # and the time it may take
CHALLENGE = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"

failures = 0
passes = 0


def check(name, ok, detail=""):
    global failures, passes
    if ok:
        passes += 1
        print(f"ok   {name}" + (f" ({detail})" if detail else ""))
    else:
        failures += 1
        print(f"FAIL {name}" + (f": {detail}" if detail else ""))
    sys.stdout.flush()


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def limit_address_space():
    # An unbounded reader would take gigabytes; keep a broken binary from taking the machine.
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, close_stdout=False,
        timeout=60):
    """Runs the binary; returns (status, stdout, stderr, seconds, peak RSS in KiB).

    The status is -N for death by signal N and None for a time-out (then the process is
    killed)."""
    def prepare():
        limit_address_space()
        if close_stdout:
            os.close(1)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        process = subprocess.Popen(
            args, stdin=stdin, stdout=out if stdout is subprocess.PIPE else stdout,
            stderr=err, preexec_fn=prepare)
        deadline = start + timeout
        status = None
        while True:
            pid, code, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                status = os.waitstatus_to_exitcode(code)
                break
            if time.monotonic() > deadline:
                process.kill()
                _, _, usage = os.wait4(process.pid, 0)
                break
            time.sleep(0.002)
        process.returncode = status if status is not None else -9
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        return status, out.read(), err.read().decode(errors="replace"), seconds, usage.ru_maxrss


def one_line(stderr):
    return stderr.count("\n") == 1 and stderr.startswith("fido2kit: ")


def counter_of(response_json):
    data = unb64url(response_json["response"]["authenticatorData"])
    return int.from_bytes(data[33:37], "big")


def store_files(store):
    """name → bytes of every file in the store but its lock file."""
    files = {}
    for name in sorted(os.listdir(store)):
        if name == ".lock":
            continue
        path = os.path.join(store, name)
        if os.path.isfile(path) and not os.path.islink(path):
            with open(path, "rb") as handle:
                files[name] = handle.read()
        else:
            files[name] = None
    return files


def temporaries(store):
    return [name for name in os.listdir(store) if ".tmp-" in name]


def credential_file(store, credential_id):
    return os.path.join(store, hashlib.sha256(credential_id).hexdigest() + ".credential")


def stored_count(store, credential_id):
    with open(credential_file(store, credential_id), "rb") as handle:
        lines = handle.read().split(b"\n", 2)
    return json.loads(lines[1])["signCount"]


def parse_credential(path):
    """Raises unless the file is a whole credential whose name matches its ID."""
    with open(path, "rb") as handle:
        magic, metadata, pem = handle.read().split(b"\n", 2)
    assert magic == b"fido2kit-credential 1", "magic"
    fields = json.loads(metadata)
    assert pem.startswith(b"-----BEGIN PRIVATE KEY-----\n"), "PEM start"
    assert pem.rstrip().endswith(b"-----END PRIVATE KEY-----"), "PEM end"
    name = os.path.basename(path)
    assert name == hashlib.sha256(unb64url(fields["id"])).hexdigest() + ".credential", "name"
    return fields


class Fixture:
    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.create = os.path.join(work, "create.json")
        with open(self.create, "w") as handle:
            json.dump({
                "rp": {"id": "example.org", "name": "Example"},
                "user": {"id": "dXNlci0x", "name": "alice", "displayName": "Alice"},
                "challenge": CHALLENGE,
                "pubKeyCredParams": [{"type": "public-key", "alg": -7}],
                "authenticatorSelection": {"residentKey": "required"}}, handle)

    def register(self, store):
        status, out, err, _, _ = run([self.binary, "register", "--options", self.create,
                                      "--origin", ORIGIN, "--store", store])
        if status != 0:
            raise RuntimeError(f"register failed: {err}")
        return unb64url(json.loads(out)["rawId"])

    def request(self, credential_id, name="get.json"):
        path = os.path.join(self.work, name)
        with open(path, "w") as handle:
            json.dump({"challenge": CHALLENGE, "rpId": "example.org",
                       "allowCredentials": [{"type": "public-key", "id": b64url(credential_id)}]},
                      handle)
        return path

    def assert_args(self, store, options):
        return [self.binary, "assert", "--options", options, "--origin", ORIGIN,
                "--store", store]

    def belvo_store(self):
        """A store with one Belvo credential, a payment intent allowing it, risk signals."""
        store = os.path.join(self.work, "belvo-store")
        options = os.path.join(self.work, "belvo-options.json")
        with open(options, "w") as handle:
            json.dump({"rp": {"id": "belvo.com", "name": "Belvo"},
                       "user": {"id": "a5bd0ef9-f8ab-41a2-b968-489761a91de6", "name": "R",
                                "displayName": "R"},
                       "challenge": "R3dsT2REOE5oZ25JbVE",
                       "pubKeyCredParams": [{"alg": -7, "type": "public-key"}]}, handle)
        status, out, err, _, _ = run([self.binary, "belvo", "enroll", "--fido-options", options,
                                      "--store", store])
        if status != 0:
            raise RuntimeError(f"belvo enroll failed: {err}")
        credential = json.loads(out)["confirmation_data"]["id"]
        intent = os.path.join(self.work, "belvo-intent.json")
        with open(intent, "w") as handle:
            json.dump({"id": "pi-1", "status": "REQUIRES_ACTION", "payment_method_information": {"open_finance_biometric_pix": {
                "fido_options": {"rpId": "belvo.com",
                                 "challenge": "oGW096Hvr8sVUIOf-10iqWI7ZfSx2GhoU359bBRK9h4",
                                 "allowCredentials": [{"id": credential, "type": "public-key"}]}}}},
                      handle)
        signals = os.path.join(self.work, "belvo-signals.json")
        with open(signals, "w") as handle:
            handle.write('{"deviceId": "d-1"}\n')
        return store, unb64url(credential), intent, signals


def parallel(args_list):
    """Starts every command at once; returns [(status, stdout, stderr)]."""
    processes = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL) for args in args_list]
    results = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        results.append((process.returncode, out, err.decode()))
    return results


def test_parallel_assertions(fixture, count=50):
    store = os.path.join(fixture.work, "parallel")
    credential = fixture.register(store)
    options = fixture.request(credential, "parallel-get.json")
    start = time.monotonic()
    results = parallel([fixture.assert_args(store, options)] * count)
    seconds = time.monotonic() - start
    failed = [err for status, _, err in results if status != 0]
    counters = sorted(counter_of(json.loads(out)) for status, out, _ in results if status == 0)
    check(f"{count} parallel assert processes all succeed", not failed,
          f"{len(failed)} failed: {failed[:2]}" if failed else f"{seconds:.2f} s")
    check(f"{count} parallel assertions get {count} distinct, consecutive counters",
          counters == list(range(1, count + 1)),
          f"{len(set(counters))} distinct of {len(counters)}: {counters[:8]}…"
          if counters != list(range(1, count + 1)) else f"1…{count}")
    check("the stored counter is the highest handed out", stored_count(store, credential) == count,
          f"stored {stored_count(store, credential)}")


def test_parallel_belvo(fixture, count=50):
    store, credential, intent, signals = fixture.belvo_store()
    args = [fixture.binary, "belvo", "authorize", "--payment-intent", intent, "--risk-signals",
            signals, "--store", store]
    start = time.monotonic()
    results = parallel([args] * count)
    seconds = time.monotonic() - start
    failed = [err for status, _, err in results if status != 0]
    counters = sorted(counter_of(json.loads(out)["assertion"])
                      for status, out, _ in results if status == 0)
    check(f"{count} parallel belvo authorize processes all succeed", not failed,
          f"{len(failed)} failed: {failed[:2]}" if failed else f"{seconds:.2f} s")
    check(f"{count} parallel Belvo authorizations get distinct, consecutive counters",
          counters == list(range(1, count + 1)),
          f"{len(set(counters))} distinct of {len(counters)}"
          if counters != list(range(1, count + 1)) else f"1…{count}")


def test_kills(fixture, kills):
    """Kills register and assert at random points; then every delivered counter is unique,
    every delivered credential is there and readable, and no temporary file outlives the next
    opening of the store."""
    store = os.path.join(fixture.work, "kills")
    primary = fixture.register(store)
    options = fixture.request(primary, "kills-get.json")
    # Kill delays cluster around the moment runs finish, where the store is written (the
    # write takes about a millisecond of a run dominated by start-up): the centre moves up
    # after each kill and down after each run that finished first, so it tracks that moment.
    centre = 0.03
    delivered = []  # counters handed out by assertions that finished
    registered = set()
    rng = random.Random(21)
    killed = finished = 0
    left_behind = set()  # temporary files seen between batches: left by a kill
    start = time.monotonic()
    while killed < kills:
        batch = []
        for _ in range(4):  # a few at once, so kills land while others hold the lock
            register = rng.random() < 0.4
            args = ([fixture.binary, "register", "--options", fixture.create, "--origin", ORIGIN,
                     "--store", store] if register else fixture.assert_args(store, options))
            process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                       stdin=subprocess.DEVNULL)
            delay = rng.uniform(0.7, 1.15) * centre
            batch.append((process, register, time.monotonic() + delay))
        for process, register, at in sorted(batch, key=lambda item: item[2]):
            delay = at - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
                killed += 1
                centre *= 1.03
            else:
                centre *= 0.97
            out, err = process.communicate()
            if process.returncode == 0:
                finished += 1
                response = json.loads(out)
                if register:
                    registered.add(unb64url(response["rawId"]))
                else:
                    delivered.append(counter_of(response))
            elif process.returncode > 0:
                check("a process that was not killed succeeds", False, err.decode())
        left_behind.update(temporaries(store))
    seconds = time.monotonic() - start
    # The next opening of the store removes what killed writers left.
    status, out, err, _, _ = run(fixture.assert_args(store, options))
    final = counter_of(json.loads(out)) if status == 0 else None
    check(f"{killed} kills of register/assert ({finished} runs finished, {seconds:.1f} s): "
          "the next assertion succeeds", status == 0, err)
    check("no temporary file outlives the next opening of the store", not temporaries(store),
          f"{len(left_behind)} left by kills, each removed by a later opening"
          if not temporaries(store)
          else f"{temporaries(store)}")
    counters = delivered + ([final] if final is not None else [])
    check("no counter was handed out twice", len(counters) == len(set(counters)),
          f"{len(counters)} delivered assertions")
    check("the counter after the kills is above every one handed out",
          final is not None and all(final > value for value in delivered),
          f"final {final}, highest delivered {max(delivered, default=0)}")
    corrupt = []
    for name in os.listdir(store):
        if name.endswith(".credential"):
            try:
                parse_credential(os.path.join(store, name))
            except Exception as error:  # noqa: BLE001 - any failure means corrupt
                corrupt.append(f"{name}: {error}")
    check("no credential file is corrupt", not corrupt, "; ".join(corrupt[:3]))
    missing = [c for c in registered if not os.path.exists(credential_file(store, c))]
    check("every registration that finished kept its credential", not missing,
          f"{len(registered)} kept")
    unreadable = []
    for credential in sorted(registered)[:20]:
        status, _, err, _, _ = run(fixture.assert_args(store, fixture.request(credential)))
        if status != 0:
            unreadable.append(err)
    check("the kept credentials sign", not unreadable, "; ".join(unreadable[:2]))


def test_bounded_input(fixture):
    store = os.path.join(fixture.work, "bounded")
    credential = fixture.register(store)
    options = fixture.request(credential, "bounded-get.json")
    huge = os.path.join(fixture.work, "huge.json")
    with open(huge, "wb") as handle:
        handle.truncate(1 << 30)  # sparse: 1 GiB that takes no disk
    belvo_store, _, intent, signals = fixture.belvo_store()
    registration = os.path.join(fixture.work, "registration.json")
    with open(registration, "wb") as handle:
        handle.write(run([fixture.binary, "register", "--options", fixture.create, "--origin",
                          ORIGIN, "--store", os.path.join(fixture.work, "other")])[1])
    before = store_files(store)
    belvo_before = store_files(belvo_store)
    def register_from(options_path):
        return [fixture.binary, "register", "--options", options_path, "--origin", ORIGIN,
                "--store", store]
    register = register_from(fixture.create)
    verify = [fixture.binary, "verify", "registration", "--challenge", CHALLENGE, "--origin",
              ORIGIN, "--rp-id", "example.org", "--response"]
    authorize = [fixture.binary, "belvo", "authorize", "--store", belvo_store]
    zero = "/dev/zero"
    cases = [
        ("cbor diag < /dev/zero", [fixture.binary, "cbor", "diag"], zero, "limit"),
        ("cbor diag --hex < /dev/zero", [fixture.binary, "cbor", "diag", "--hex"], zero, "limit"),
        ("register --options - < /dev/zero", register_from("-"), zero, "limit"),
        ("assert --options - < /dev/zero",
         fixture.assert_args(store, "-"), zero, "limit"),
        ("assert --options <1 GiB file>", fixture.assert_args(store, huge), None, "limit"),
        ("register --options <1 GiB file>", register_from(huge), None, "limit"),
        ("verify registration --response <1 GiB file>", verify + [huge], None, "limit"),
        ("verify registration --response - < /dev/zero", verify + ["-"], zero, "limit"),
        ("belvo authorize --payment-intent <1 GiB file>",
         authorize + ["--payment-intent", huge, "--risk-signals", signals], None, "limit"),
        ("belvo authorize --risk-signals - < /dev/zero",
         authorize + ["--payment-intent", intent, "--risk-signals", "-"], zero, "limit"),
        ("belvo enroll --fido-options - < /dev/zero",
         [fixture.binary, "belvo", "enroll", "--fido-options", "-", "--store", belvo_store], zero,
         "limit"),
        ("vectors verify <1 GiB file>", [fixture.binary, "vectors", "verify", huge], None, None),
        ("cbor diag < a directory", [fixture.binary, "cbor", "diag"], "/", "directory"),
    ]
    for name, args, stdin_path, needle in cases:
        stdin = os.open(stdin_path, os.O_RDONLY) if stdin_path else subprocess.DEVNULL
        try:
            status, out, err, seconds, rss = run(args, stdin=stdin, timeout=30)
        finally:
            if stdin_path:
                os.close(stdin)
        bounded = seconds < SECONDS_LIMIT and rss < RSS_LIMIT_KB
        if name.startswith("vectors verify"):  # the suite runner reports a file per line
            report = out.decode(errors="replace")
            good = status == 1 and bounded and "the limit for a vector suite" in report
            err = report
        else:
            good = status == 1 and bounded and one_line(err) and needle in err
        check(f"{name}: exit 1, one line, bounded", good,
              f"exit {status}, {seconds:.2f} s, peak RSS {rss // 1024} MB: "
              + " ".join(err.split())[:160])
    check("refused inputs leave the stores as they were",
          store_files(store) == before and store_files(belvo_store) == belvo_before)

    # Output that cannot be written.
    get = fixture.assert_args(store, options)
    with open("/dev/full", "wb") as full:
        count = stored_count(store, credential)
        status, _, err, seconds, rss = run(get, stdout=full)
        check("assert > /dev/full: exit 1, one line", status == 1 and one_line(err)
              and "No space left on device" in err,
              f"exit {status}, {seconds:.2f} s, peak RSS {rss // 1024} MB: {err.strip()}")
        check("assert > /dev/full: the counter was committed before the write (a gap, no repeat)",
              stored_count(store, credential) == count + 1 and not temporaries(store),
              f"{count} → {stored_count(store, credential)}")
        before = store_files(store)
        status, _, err, seconds, rss = run(register, stdout=full)
        check("register > /dev/full: exit 1, one line, the new credential removed",
              status == 1 and one_line(err) and store_files(store) == before,
              f"exit {status}, {seconds:.2f} s, peak RSS {rss // 1024} MB: {err.strip()}")
        enroll = [fixture.binary, "belvo", "enroll", "--fido-options",
                  os.path.join(fixture.work, "belvo-options.json"), "--store", belvo_store]
        belvo_before = store_files(belvo_store)
        status, _, err, _, _ = run(enroll, stdout=full)
        check("belvo enroll > /dev/full: exit 1, one line, the new credential removed",
              status == 1 and one_line(err) and store_files(belvo_store) == belvo_before, err.strip())
        status, _, err, _, _ = run([fixture.binary, "demo"], stdout=full)
        check("demo > /dev/full: exit 1, one line", status == 1 and one_line(err), err.strip())
    before = store_files(store)
    for name, args in [("assert", get), ("register", register)]:
        status, _, err, seconds, rss = run(args, close_stdout=True)
        check(f"{name} >&-: exit 1, one line, store as it was",
              status == 1 and one_line(err) and store_files(store) == before,
              f"exit {status}, {seconds:.2f} s, peak RSS {rss // 1024} MB: {err.strip()}")
    read_end, write_end = os.pipe()
    os.close(read_end)  # no reader: the write fails with EPIPE (SIGPIPE is ignored)
    status, _, err, _, _ = run(register, stdout=write_end)
    os.close(write_end)
    check("register | <closed pipe>: exit 1, one line, the new credential removed",
          status == 1 and one_line(err) and "Broken pipe" in err and store_files(store) == before,
          f"exit {status}: {err.strip()}")


def test_store_checks(fixture):
    store = os.path.join(fixture.work, "checks")
    credential = fixture.register(store)
    options = fixture.request(credential, "checks-get.json")
    get = fixture.assert_args(store, options)
    for mode in (0o777, 0o770, 0o707):
        os.chmod(store, mode)
        status, _, err, _, _ = run(get)
        check(f"a store of mode {mode:o} is refused", status == 1 and one_line(err)
              and "writable by group or others" in err, err.strip())
    os.chmod(store, 0o700)
    if os.geteuid() == 0:
        os.chown(store, 12345, 12345)
        status, _, err, _, _ = run(get)
        check("a store owned by another user is refused",
              status == 1 and one_line(err) and "belongs to user 12345" in err, err.strip())
        os.chown(store, 0, 0)
    else:
        print("skip a store owned by another user (needs root to make one)")
    path = credential_file(store, credential)
    saved = path + ".saved"
    os.rename(path, saved)
    os.mkfifo(path)
    status, _, err, seconds, _ = run(get, timeout=10)
    check("a FIFO under a credential's name is refused at once", status == 1 and one_line(err)
          and "not a regular file" in err and seconds < SECONDS_LIMIT,
          f"exit {status} after {seconds:.2f} s: {err.strip()}")
    os.unlink(path)
    os.symlink(os.path.join(store, "nowhere"), path)
    status, _, err, _, _ = run(get)
    check("a dangling symbolic link is a corrupt credential, not a missing one",
          status == 1 and one_line(err) and "symbolic link" in err, err.strip())
    os.unlink(path)
    os.rename(saved, path)
    # PID reuse: the old names were .<name>.tmp-<pid>-<n>; plant them for the next PIDs.
    with open("/proc/sys/kernel/ns_last_pid") as handle:
        last = int(handle.read())
    name = os.path.basename(path)
    planted = 0
    for pid in range(last + 1, last + 400):
        for number in (1, 2):
            with open(os.path.join(store, f".{name}.tmp-{pid}-{number}"), "wb") as handle:
                handle.write(b"-----BEGIN PRIVATE KEY-----\nleftover\n")
            planted += 1
    results = [run(get) for _ in range(5)]
    check(f"{planted} leftover temporary files named for the next PIDs block nothing",
          all(status == 0 for status, *_ in results),
          "; ".join(err.strip() for status, _, err, _, _ in results if status != 0)[:200])
    check("and the next opening removed them", not temporaries(store), f"{len(temporaries(store))} left")


def test_repeated_member_names(fixture):
    store = os.path.join(fixture.work, "repeated")
    credential = fixture.register(store)
    before = store_files(store)
    create = open(fixture.create).read()
    cases = []
    duplicated = create.replace('"challenge":', '"challenge": "AAAA", "challenge":', 1)
    cases.append(("register options repeating challenge", "challenge",
                  [fixture.binary, "register", "--options", "-", "--origin", ORIGIN, "--store",
                   store], duplicated))
    get = ('{"challenge": "AAAA", "challenge": "%s", "rpId": "example.org", "allowCredentials": '
           '[{"type": "public-key", "id": "%s"}]}' % (CHALLENGE, b64url(credential)))
    cases.append(("assert options repeating challenge", "challenge",
                  fixture.assert_args(store, "-"), get))
    response = run([fixture.binary, "register", "--options", fixture.create, "--origin", ORIGIN,
                    "--store", os.path.join(fixture.work, "repeated-other")])[1].decode()
    response = response.replace('"type":"public-key"', '"type":"public-key","type":"other"', 1)
    cases.append(("verify registration, a response repeating type", "type",
                  [fixture.binary, "verify", "registration", "--response", "-", "--challenge",
                   CHALLENGE, "--origin", ORIGIN, "--rp-id", "example.org"], response))
    belvo_store, belvo_credential, intent, signals = fixture.belvo_store()
    belvo_before = store_files(belvo_store)
    options = open(os.path.join(fixture.work, "belvo-options.json")).read()
    cases.append(("belvo enroll options repeating challenge", "challenge",
                  [fixture.binary, "belvo", "enroll", "--fido-options", "-", "--store",
                   belvo_store],
                  options.replace('"challenge":', '"challenge": "AAAA", "challenge":', 1)))
    nested = open(intent).read().replace('"challenge":', '"challenge": "AAAA", "challenge":', 1)
    cases.append(("belvo authorize, a payment intent repeating fido_options.challenge",
                  "payment_method_information.open_finance_biometric_pix.fido_options.challenge",
                  [fixture.binary, "belvo", "authorize", "--payment-intent", "-",
                   "--risk-signals", signals, "--store", belvo_store], nested))
    bare = ('{"rpId": "belvo.com", "challenge": "AAAA", "challenge": "oGW096Hvr8sVUIOf", '
            '"allowCredentials": [{"id": "%s", "type": "public-key"}]}' % b64url(belvo_credential))
    cases.append(("belvo authorize, bare fido_options repeating challenge", "challenge",
                  [fixture.binary, "belvo", "authorize", "--payment-intent", "-",
                   "--risk-signals", signals, "--store", belvo_store], bare))
    cases.append(("belvo authorize, risk signals repeating a name", "appears twice",
                  [fixture.binary, "belvo", "authorize", "--payment-intent", intent,
                   "--risk-signals", "-", "--store", belvo_store], '{"a": 1, "a": 2}'))
    for name, needle, args, text in cases:
        with tempfile.TemporaryFile() as stdin:
            stdin.write(text.encode())
            stdin.seek(0)
            status, _, err, _, _ = run(args, stdin=stdin)
        check(f"{name}: refused, naming the member", status == 1 and one_line(err)
              and needle in err and "twice" in err, err.strip())
    check("refused JSON leaves the stores as they were",
          store_files(store) == before and store_files(belvo_store) == belvo_before)


def hold_lock(store, seconds):
    """A second process that takes the store's lock and keeps it `seconds` (or until killed);
    returns once it holds the lock."""
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\n"
         "print('locked', flush=True)\n"
         "time.sleep(float(sys.argv[2]))",
         os.path.join(store, ".lock"), str(seconds)],
        stdout=subprocess.PIPE, stdin=subprocess.DEVNULL)
    assert holder.stdout.readline() == b"locked\n"
    return holder


def test_store_access(fixture):
    """Issue 32: a held lock is waited for, said so and given up on; an input file that is a
    FIFO or a device is refused without blocking; a credential file others may read, or that
    another user owns, is refused; assert creates no store."""
    store = os.path.join(fixture.work, "access")
    credential = fixture.register(store)
    options = fixture.request(credential, "access-get.json")
    get = fixture.assert_args(store, options)

    # A lock another process holds.
    holder = hold_lock(store, 30)
    try:
        before = store_files(store)
        status, _, err, seconds, _ = run(get + ["--lock-timeout", "2.5"], timeout=20)
        lines = err.splitlines()
        check("assert --lock-timeout 2.5 on a held lock: says it waits, gives up, exit 1",
              status == 1 and len(lines) == 2 and lines[0].startswith("fido2kit: waiting for ")
              and "(for at most 2.5 s)" in lines[0] and lines[1].startswith("fido2kit: ")
              and "gave up waiting" in lines[1] and 2.5 <= seconds < 2.5 + SECONDS_LIMIT,
              f"exit {status} after {seconds:.2f} s: {err.strip()}")
        environment = dict(os.environ, FIDO2KIT_LOCK_TIMEOUT="0.5")
        start = time.monotonic()
        process = subprocess.run(get, capture_output=True, env=environment, timeout=20)
        seconds = time.monotonic() - start
        err = process.stderr.decode()
        check("FIDO2KIT_LOCK_TIMEOUT=0.5: gives up before the notice, one line",
              process.returncode == 1 and one_line(err) and "gave up waiting" in err
              and 0.5 <= seconds < 0.5 + SECONDS_LIMIT, f"{seconds:.2f} s: {err.strip()}")
        status, _, err, seconds, _ = run(
            [fixture.binary, "register", "--options", fixture.create, "--origin", ORIGIN,
             "--store", store, "--lock-timeout", "1.2"], timeout=20)
        check("register on a held lock gives up too, the store unchanged",
              status == 1 and "gave up waiting" in err and store_files(store) == before,
              f"exit {status} after {seconds:.2f} s: {err.strip()}")
        status, _, err, _, _ = run(get + ["--lock-timeout", "soon"])
        check("--lock-timeout that is not a number is a usage error (64)",
              status == 64 and one_line(err) and "not a number of seconds" in err, err.strip())
        # The holder killed with SIGKILL mid-wait: the kernel drops its lock, the waiter goes on.
        waiter = subprocess.Popen(get, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  stdin=subprocess.DEVNULL)
        time.sleep(1.5)
        holder.kill()
        holder.wait()
        out, err = waiter.communicate(timeout=30)
        err = err.decode()
        check("a waiter whose lock holder is killed -9 goes on and says it waited",
              waiter.returncode == 0 and err.startswith("fido2kit: waiting for ")
              and err.count("\n") == 1 and counter_of(json.loads(out)) > 0, err.strip())
    finally:
        holder.kill()
        holder.wait()

    # Input files that are not regular files: refused at once, never read.
    fifo = os.path.join(fixture.work, "input.fifo")
    os.mkfifo(fifo)
    belvo_store, _, intent, signals = fixture.belvo_store()
    verify = [fixture.binary, "verify", "registration", "--challenge", CHALLENGE, "--origin",
              ORIGIN, "--rp-id", "example.org", "--response"]
    for device, words in ((fifo, "is a FIFO"), ("/dev/zero", "is a character device"),
                          ("/dev/null", "is a character device")):
        for name, args in [
            ("register --options", [fixture.binary, "register", "--origin", ORIGIN, "--store",
                                    store, "--options", device]),
            ("assert --options", fixture.assert_args(store, device)),
            ("verify registration --response", verify + [device]),
            ("belvo enroll --fido-options", [fixture.binary, "belvo", "enroll", "--store",
                                             belvo_store, "--fido-options", device]),
            ("belvo authorize --risk-signals", [fixture.binary, "belvo", "authorize", "--store",
                                                belvo_store, "--payment-intent", intent,
                                                "--risk-signals", device]),
        ]:
            status, _, err, seconds, _ = run(args, timeout=10)
            check(f"{name} {device}: refused at once", status == 1 and one_line(err)
                  and words in err and "not a regular file" in err and seconds < SECONDS_LIMIT,
                  f"exit {status} after {seconds:.2f} s: {err.strip()}")

    # A credential file others may read, or another user's.
    path = credential_file(store, credential)
    before = store_files(store)
    for mode in (0o644, 0o640, 0o604):
        os.chmod(path, mode)
        status, _, err, _, _ = run(get)
        check(f"a credential file of mode {mode:o} is refused", status == 1 and one_line(err)
              and f"open to group or others (mode {mode:o})" in err
              and store_files(store) == before, err.strip())
    os.chmod(path, 0o600)
    if os.geteuid() == 0:
        os.chown(path, 12345, 12345)
        status, _, err, _, _ = run(get)
        check("a credential file owned by another user is refused",
              status == 1 and one_line(err) and "belongs to user 12345" in err, err.strip())
        os.chown(path, 0, 0)
    else:
        print("skip a credential file owned by another user (needs root to make one)")
    status, _, err, _, _ = run(get)
    check("mode 600 again: assert signs", status == 0, err.strip())

    # assert and belvo authorize never create a store.
    missing = os.path.join(fixture.work, "missing", "store")
    status, _, err, _, _ = run(fixture.assert_args(missing, options))
    check("assert on a missing store fails and creates nothing",
          status == 1 and one_line(err) and "no such credential store" in err
          and not os.path.exists(os.path.join(fixture.work, "missing")), err.strip())
    status, _, err, _, _ = run([fixture.binary, "belvo", "authorize", "--store", missing,
                                "--payment-intent", intent, "--risk-signals", signals])
    check("belvo authorize on a missing store fails and creates nothing",
          status == 1 and one_line(err) and not os.path.exists(os.path.join(fixture.work, "missing")),
          err.strip())


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else None
    if not binary:
        subprocess.run(["swift", "build", "--product", "fido2kit"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
        binary = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, check=True,
                                capture_output=True, text=True).stdout.strip() + "/fido2kit"
    binary = os.path.abspath(binary)
    work = tempfile.mkdtemp(prefix="fido2kit-faults-")
    os.chmod(work, 0o700)
    start = time.monotonic()
    try:
        fixture = Fixture(binary, work)
        for test in (test_parallel_assertions, test_parallel_belvo, test_bounded_input,
                     test_store_checks, test_store_access, test_repeated_member_names):
            test(fixture)
        test_kills(fixture, int(os.environ.get("FAULTS_KILLS", "200")))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"faults: {passes} passed, {failures} failed in {time.monotonic() - start:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
