"""Helpers for the CLI tests: run the built maintstat, speak TAP.

Each test script calls the helpers below and ends with done().  A check
that fails prints what was expected and what came back.
"""
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

MAINTSTAT = os.environ.get("MAINTSTAT", "maintstat")
SOURCE_ROOT = os.environ.get("MS_SOURCE_ROOT", ".")
FIXTURES = os.environ.get("MS_FIXTURES", os.path.join(SOURCE_ROOT, "fixtures"))
# The JSON schema version the code writes (src/output/output.h); the
# json-keys test checks that docs/json.md says the same.
with open(os.path.join(SOURCE_ROOT, "src", "output", "output.h")) as _f:
    SCHEMA = int(re.search(r"#define MS_SCHEMA_VERSION (\d+)",
                           _f.read()).group(1))

# An ASan+UBSan build: each run starts ten times slower (the sanitizers'
# set-up and leak check), so a test that starts thousands of runs may put
# a sample of its inputs to it, saying so (sanitized_sample()), while the
# normal build's suite still runs them all.
try:
    with open(MAINTSTAT, "rb") as _f:
        SANITIZED = b"__asan_init" in _f.read()
except OSError:
    SANITIZED = False


def sanitized_sample(items, step, what):
    """`items` in a normal build; under ASan every `step`-th of them, with a
    TAP comment saying how many of what were left to the normal build."""
    if not SANITIZED or step <= 1:
        return list(items)
    kept = list(items)[::step]
    print(f"# ASan build: {what}: one in {step}, {len(kept)} of "
          f"{len(items)} (the normal build's suite runs them all)")
    return kept


_n = 0
_failed = 0


class Result:
    def __init__(self, rc, out, err):
        self.rc, self.out, self.err = rc, out, err

    def json(self):
        return json.loads(self.out)


def duration(seconds):
    """A latency as every command's text and the report write it
    (ms_duration_format(): 45min, 3.2h below a day, 17.1d above)."""
    if seconds < 0:
        return "-"
    if seconds < 60:
        return "%ds" % seconds
    if seconds < 3600:
        return "%.0fmin" % (seconds / 60)
    if seconds < 86400:
        return "%.1fh" % (seconds / 3600)
    if seconds < 365 * 86400:
        return "%.1fd" % (seconds / 86400)
    return "%.1fy" % (seconds / (365.25 * 86400))


def run(*args, stdin=None, cwd=None, env=None, timeout=600):
    """Run maintstat with args; return a Result (bytes decoded as UTF-8)."""
    e = dict(os.environ)
    if env:
        e.update(env)
    p = subprocess.run([MAINTSTAT, *args], input=stdin, capture_output=True,
                       cwd=cwd, env=e, timeout=timeout)
    return Result(p.returncode, p.stdout.decode("utf-8", "replace"),
                  p.stderr.decode("utf-8", "replace"))


_same_inputs = {}


def _inputs_state(paths):
    """What identifies the files under `paths` (files or directories) as
    they are now: every entry's name, inode, size and change times."""
    state = []
    for top in paths:
        for d, dirs, files in os.walk(top) if os.path.isdir(top) \
                else [(os.path.dirname(top), [], [os.path.basename(top)])]:
            dirs.sort()
            for n in sorted(files) + dirs:
                try:
                    st = os.lstat(os.path.join(d, n))
                except OSError:
                    continue
                state.append((os.path.join(d, n), st.st_ino, st.st_size,
                              st.st_mtime_ns, st.st_ctime_ns))
    return state


def run_reused(*args, inputs=(), cwd=None, env=None):
    """run(*args), or the Result of the same run made earlier, while no
    file under the paths among `args` and `inputs` (the repositories and
    archives it reads) has changed since: the --no-cache report a test
    compares each store-backed run against, where it is asked again and
    again of the same history (each ASan run of maintstat starts ten
    times slower)."""
    k = (args, cwd, tuple(sorted((env or {}).items())))
    state = _inputs_state([*inputs, *(
        os.path.join(cwd or ".", a) for a in args
        if os.path.exists(os.path.join(cwd or ".", a)))])
    hit = _same_inputs.get(k)
    if hit and hit[0] == state:
        return hit[1]
    r = run(*args, cwd=cwd, env=env)
    _same_inputs[k] = (state, r)
    return r


def run_tty(*args):
    """Run maintstat with stderr on a pseudo-terminal (stdout discarded);
    return (exit code, what it wrote to stderr)."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.run([MAINTSTAT, *args], stdout=subprocess.DEVNULL,
                       stderr=slave)
    os.close(slave)
    data = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    return p.returncode, data.decode("utf-8", "replace")


def ok(cond, what, detail=None, todo=None):
    """One check.  `todo` names a known, open bug: a failure is then
    reported as TAP 'not ok ... # TODO <why>' and does not fail the run."""
    global _n, _failed
    _n += 1
    line = ("ok" if cond else "not ok") + f" {_n} - {what}"
    if todo and not cond:
        # only a failure is marked: meson counts a passing TODO as an
        # unexpected pass, i.e. a failure
        line += f" # TODO {todo}"
    print(line)
    if not cond and not todo:
        _failed += 1
    if not cond:
        if detail is not None:
            for line in str(detail).splitlines():
                print("#   " + line)
    sys.stdout.flush()
    return cond


def eq(got, want, what):
    return ok(got == want, what, f"got:  {got!r}\nwant: {want!r}")


def skip(what, why):
    """Skip one check, saying why (TAP '# SKIP')."""
    global _n
    _n += 1
    print(f"ok {_n} - {what} # SKIP {why}")


def skip_all(why):
    """The whole script cannot run here: say why (TAP's '1..0 # SKIP',
    which meson counts as a skip)."""
    print(f"1..0 # SKIP {why}")
    sys.exit(0)


_tmpdirs = []


def tmpdir():
    """A new temporary directory, removed when the test ends (each run of
    the suite left some 120 of them in /tmp); MS_KEEP_TMP=1 keeps them
    to look at after a failure."""
    d = tempfile.mkdtemp(prefix="maintstat-test-")
    _tmpdirs.append(d)
    return d


def _remove_tmpdirs():
    def writable(fn, path, _exc):
        # a test may leave a directory unreadable or unwritable on purpose
        os.chmod(os.path.dirname(path), 0o700)
        if os.path.isdir(path) and not os.path.islink(path):
            os.chmod(path, 0o700)
        fn(path)

    if os.environ.get("MS_KEEP_TMP"):
        return
    for d in _tmpdirs:
        try:
            shutil.rmtree(d, onerror=writable)
        except OSError:
            pass


atexit.register(_remove_tmpdirs)


def tree_files(tree):
    """Every regular file of `tree` (not symbolic links, not a top-level
    .git), relative, in bytewise order as maintstat sorts."""
    out = []
    for dirpath, dirnames, filenames in os.walk(tree):
        if dirpath == tree and ".git" in dirnames:
            dirnames.remove(".git")
        for f in filenames:
            p = os.path.join(dirpath, f)
            if os.path.isfile(p) and not os.path.islink(p):
                out.append(os.path.relpath(p, tree))
    return sorted(out, key=lambda s: s.encode())


# get_maintainer.pl as an oracle (the maintainers-conformance test,
# tests/bench/cc-conformance.py).  Perl's hash order, which the script's
# one sort of matching entries leaves ties in, changes from run to run;
# and starting perl once per question costs more than a shared machine
# can give.
GM_TIE = "sort {$hash{$b} <=> $hash{$a}} keys %hash"
GM_LOOP_START = 'if (!@ARGV) {\n    push(@ARGV, "&STDIN");\n}\n'
GM_LOOP_END = "\nexit($exit);\n"
# the per-question arrays of the kernel's script (QEMU's has no @fixes)
GM_RESET = ("@files", "@fixes", "@range", "@keyword_tvi", "@file_emails")


def get_maintainer_tiebreak(script):
    """get_maintainer.pl's text with ties among matching entries broken by
    their place in MAINTAINERS, and among git signers of equal count by
    their bytes, as maintstat breaks them; None when the script has no
    such sort."""
    if GM_TIE not in script:
        return None
    # the first sorts entries (numbers); a second, in vcs_assign(), sorts
    # the git signers (addresses), which maintstat takes in byte order
    script = script.replace(GM_TIE, "sort {$hash{$b} <=> $hash{$a} || "
                            "$a <=> $b} keys %hash", 1)
    return script.replace(GM_TIE, "sort {$hash{$b} <=> $hash{$a} || "
                          "$a cmp $b} keys %hash")


def get_maintainer_batch(script):
    """The script answering, in one process, the questions of the file
    $ORACLE_QUEUE (one argument a line), each answer followed by "\\0\\n":
    a loop around its own code that resets the per-question arrays.  None
    when the script lacks the argument loop and exit the loop wraps."""
    if script.count(GM_LOOP_START) != 1 or script.count(GM_LOOP_END) != 1:
        return None
    reset = " ".join(f"{a} = ();" for a in GM_RESET
                     if re.search(r"^my " + re.escape(a) + r"\b", script,
                                  re.M))
    # QEMU's script turns its fallback off for good once an answer has an
    # address: each question starts with the value the options gave
    reset += " $email_git_fallback = $ORACLE_FALLBACK;"
    return script.replace(GM_LOOP_START, """my @QUEUE;
my $ORACLE_FALLBACK = $email_git_fallback;
open(my $q, '<', $ENV{ORACLE_QUEUE}) or die "queue: $!";
while (<$q>) { chomp; push(@QUEUE, $_); }
close($q);
@ARGV = (shift(@QUEUE));
NEXT_QUESTION:
""").replace(GM_LOOP_END, f"""
print("\\0\\n");
if (@QUEUE) {{
    @ARGV = (shift(@QUEUE));
    {reset}
    goto NEXT_QUESTION;
}}
exit($exit);
""")


def gen_review(tmp):
    """fixtures/gen/gen-review.py's repository and list under `tmp`:
    (repository, mbox)."""
    out = os.path.join(tmp, "gen")
    subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                                 "gen-review.py"), out],
                   check=True, capture_output=True)
    return os.path.join(out, "repo"), os.path.join(out, "list.mbox")


# The store's cache (src/store/store-models.c): rows of `models` keyed by
# (kind, key), each with its last use and a CRC-64 of its kind, key and
# bytes.  A test that alters a row's bytes on purpose recomputes the CRC
# with model_put(), so that what it tests is the reader's own checks (a
# row whose CRC does not hold is refused before anything reads it).

def _crc64_table():
    poly, table = 0xC96C5795D7870F42, []   # ECMA-182, reflected
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
        table.append(c)
    return table


_CRC64 = _crc64_table()


def crc64(data, crc=0):
    """ISA-L's crc64_ecma_refl(crc, data): CRC-64/XZ, chained."""
    crc ^= 0xFFFFFFFFFFFFFFFF
    for b in data:
        crc = _CRC64[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFFFFFFFFFF


def model_crc(kind, key, data):
    """The CRC maintstat saves with a value (SQLite's signed integer)."""
    c = crc64(data, crc64(key.encode() + b"\0",
                          crc64(kind.encode() + b"\0")))
    return c - (1 << 64) if c >= 1 << 63 else c


def _model_find(c, kind, key, prefix=""):
    """(key, data) of the value of `kind` under `key` (None: the one used
    last whose key starts with `prefix`), its chunks joined, or None."""
    rows = c.execute("SELECT key, data, chunks FROM models WHERE kind = ? "
                     "ORDER BY used DESC, rowid DESC", (kind,)).fetchall()
    for k, data, chunks in rows:
        if (key is not None and k != key) or not k.startswith(prefix):
            continue
        if chunks > 1:
            data += b"".join(r[0] for r in c.execute(
                "SELECT data FROM model_chunks WHERE kind = ? AND key = ? "
                "ORDER BY seq", (kind, k)))
        return k, data
    return None


def model_row(db, kind, key=None):
    """The data of the value saved as `kind` (under `key`; None: the one
    used last) in store `db`, or None (no store, no table, no row)."""
    import sqlite3
    if not os.path.exists(db):
        return None
    c = sqlite3.connect(db)
    try:
        r = _model_find(c, kind, key)
    except sqlite3.OperationalError:
        r = None
    c.close()
    return r[1] if r else None


def model_put(db, kind, data, key=None, crc=None):
    """Replace the value saved as `kind` (under `key`; None: the one used
    last) in store `db` by `data` in one row, with its CRC recomputed
    unless `crc` is given."""
    import sqlite3
    c = sqlite3.connect(db)
    if key is None:
        key = _model_find(c, kind, None)[0]
    c.execute("DELETE FROM model_chunks WHERE kind = ? AND key = ?",
              (kind, key))
    c.execute("UPDATE models SET data = ?, chunks = 1, size = ?, crc = ? "
              "WHERE kind = ? AND key = ?",
              (data, len(data), model_crc(kind, key, data) if crc is None
               else crc, kind, key))
    c.commit()
    c.close()


# ---- finished results kept in the store (src/cli/cli-result.h) ----
# Values of kind "result", keyed "CMD:FORMAT:digest"; a test names the one
# it means "result:CMD:FORMAT" and gets the one of those used last.

def _result_split(data):
    """facts, output and messages of a result value: four lengths (the
    output's own length last when it is kept deflated), then the parts
    (src/store/store-results.c)."""
    import struct
    import zlib
    fl, ol, el, raw = struct.unpack_from("<QQQQ", data, 0)
    out = data[32 + fl:32 + fl + ol]
    return (data[32:32 + fl], zlib.decompress(out, -15) if raw else out,
            data[32 + fl + ol:32 + fl + ol + el])


def result_row(db, kind):
    """(key, facts, output, messages) of the result `kind` (e.g.
    "result:review:json": the JSON one used last) in store `db`, or
    None."""
    import sqlite3
    con = sqlite3.connect(db)
    row = _model_find(con, "result", None, kind.split(":", 1)[1] + ":")
    con.close()
    if not row:
        return None
    return (row[0],) + _result_split(row[1])


def _result_bytes(facts, out, err):
    import struct
    return struct.pack("<QQQQ", len(facts), len(out), len(err), 0) + \
        facts + out + err


def result_crc(key, facts, out, err):
    """The CRC maintstat saves with a result."""
    return model_crc("result", key, _result_bytes(facts, out, err))


def result_put(db, kind, key, facts, out, err=b"", crc=None):
    """Save a result row as maintstat frames it, with a correct CRC
    unless `crc` is given."""
    model_put(db, "result", _result_bytes(facts, out, err), key, crc)


def result_plant(db, kind, marker="PLANTED RESULT\n"):
    """Replace the output of the saved result with `marker` (a valid
    row): a run that prints the marker was served from the store."""
    row = result_row(db, kind)
    if row:
        result_put(db, kind, row[0], row[1], marker.encode(), row[3])
    return row is not None


def result_drop(db):
    """Remove every saved result of store `db` (if it exists and has
    any), so that the next run computes."""
    import sqlite3
    if not os.path.exists(db):
        return
    con = sqlite3.connect(db)
    try:
        con.execute("DELETE FROM models WHERE kind = 'result'")
        con.execute("DELETE FROM model_chunks WHERE kind = 'result'")
        con.commit()
    except sqlite3.OperationalError:
        pass
    con.close()


def refuse_model_writes(db, kind_glob):
    """Make store `db` refuse (an SQL trigger) to save any model whose
    kind matches `kind_glob`: a store that cannot keep it."""
    import sqlite3
    c = sqlite3.connect(db)
    c.execute("CREATE TRIGGER refuse BEFORE INSERT ON models WHEN "
              "new.kind GLOB ? BEGIN SELECT RAISE(ABORT, 'refused'); END"
              .replace("?", "'" + kind_glob.replace("'", "''") + "'"))
    c.commit()
    c.close()


def planted_clone():
    """The planted history (fixtures/gen/gen-repo.py) in a new temporary
    directory, and a clone of it to commit in: (tmp, repo, work)."""
    tmp = tmpdir()
    repo = os.path.join(tmp, "planted.git")
    subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                                 "gen-repo.py"), repo],
                   check=True, stdout=subprocess.DEVNULL)
    work = os.path.join(tmp, "work")
    subprocess.run(["git", "clone", "-q", repo, work], check=True)
    return tmp, repo, work


def git_commit(work, path, content, msg, name, email, date, adate=None):
    """Write `content` to `path` in the work tree `work` and commit it as
    `name <email>`: committed at `date`, authored at `adate` (default the
    same), both in seconds since the epoch, UTC."""
    env = dict(os.environ, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email,
               GIT_AUTHOR_DATE=f"@{adate or date} +0000",
               GIT_COMMITTER_DATE=f"@{date} +0000")
    full = os.path.join(work, path)
    os.makedirs(os.path.dirname(full) or work, exist_ok=True)
    with open(full, "w") as f:
        f.write(content)
    for args in (["add", path], ["commit", "-q", "-m", msg]):
        subprocess.run(["git", "-C", work] + args, check=True, env=env,
                       capture_output=True)


def done():
    print(f"1..{_n}")
    sys.exit(1 if _failed else 0)
