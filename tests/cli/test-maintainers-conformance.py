#!/usr/bin/env python3
"""maintstat maintainers against the kernel's own scripts/get_maintainer.pl.

Byte for byte, the text `get_maintainer.pl --no-git --no-git-fallback`
prints, on the linux-source-6.1 tree ($MS_LINUX_TREE):
  - every 25th regular file in sorted order (3,144 files, the sample of the
    sections conformance test), each as its own `-f FILE` run;
  - real patches: every 4th message with a diff in the linux-rdma 2023
    slice, and mboxes of five consecutive patches (the union of files);
  - a few runs with the switches (--no-rolestats, --separator, --no-l,
    --no-m, --no-r, --no-n, --s, --subsystem, --status).

get_maintainer.pl prints entries of equal pattern depth in Perl's hash
order, which changes from run to run; the oracle is therefore a copy of
the script whose one sort of matching entries breaks ties by their place in
MAINTAINERS (as maintstat does).  Starting perl 4,000 times costs more
than this shared machine can give a test, so the copy also answers a queue
of questions in one process: after printing an answer it resets the
per-question arrays (@files, @keyword_tvi, @file_emails, @fixes, @range)
and goes back to reading the next argument, a loop that
get_maintainer_batch() adds around the script's own code.  A sample of the
questions is also put to the copy one process each, and must get the same
bytes, so the loop is checked too.  Answers are cached in $MS_CACHE, keyed
by MAINTAINERS, .mailmap, the script and the inputs.  An ASan build is
asked every 4th sampled file and every 3rd patch and mbox (its suite's
longest wait, the sanitized allocator), the normal build all of them.
"""
import concurrent.futures
import gzip
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, ok, eq, done, skip_all, tree_files,  # noqa: E402
                    get_maintainer_tiebreak, get_maintainer_batch,
                    sanitized_sample)

TREE = os.environ.get("MS_LINUX_TREE")
# beside the tree (make check's cache) unless told: one oracle per machine
CACHE = os.environ.get("MS_CACHE") or os.path.dirname(
    os.path.abspath(TREE or "/tmp/x"))
SLICE = os.environ.get("MS_RDMA_SLICE",
                       "/work/shared/data/linux-rdma-2023.mbox.gz")
if not TREE or not os.path.exists(os.path.join(TREE, "MAINTAINERS")):
    skip_all("MS_LINUX_TREE is not set to an unpacked linux-source-6.1 "
             "tree (make check sets it up)")
if not os.path.exists(SLICE):
    skip_all(f"the linux-rdma slice {SLICE} is missing")




files = [f for f in tree_files(TREE) if f != ".maintstat-unpacked"]
sample = files[::25]
ok(len(sample) >= 3000, f"sample has at least 3000 files ({len(sample)})")

# The patches of the slice, split at mbox "From " lines.
with gzip.open(SLICE, "rb") as f:
    raw = f.read()
messages = re.split(rb"\n(?=From [^\n]*\d{4}\n)", raw)
with_diff = [m if m.endswith(b"\n") else m + b"\n"
             for m in messages if b"\ndiff --git " in m]
patches = with_diff[::4]
mboxes = [b"".join(with_diff[i:i + 5]) for i in range(0, 100, 5)]
ok(len(patches) >= 500, f"at least 500 real patches ({len(patches)})")

key = hashlib.sha256()
for name in ("MAINTAINERS", ".mailmap", "scripts/get_maintainer.pl"):
    with open(os.path.join(TREE, name), "rb") as f:
        key.update(f.read())
key.update("\n".join(sample).encode())
for p in patches + mboxes:
    key.update(hashlib.sha256(p).digest())
work = os.path.join(CACHE, "oracle", f"get_maintainer-cc-{key.hexdigest()[:16]}")
os.makedirs(work, exist_ok=True)

# The oracle: get_maintainer.pl with its ties broken by file order.
with open(os.path.join(TREE, "scripts/get_maintainer.pl")) as f:
    script = get_maintainer_tiebreak(f.read())
ok(script is not None, "get_maintainer.pl sorts matching entries as expected")
single_pl = os.path.join(work, "get_maintainer.pl")
with open(single_pl, "w") as f:
    f.write(script or "")

# The batch copy: the same script, looping over a queue read from a file.
batch = get_maintainer_batch(script or "")
ok(batch is not None,
   "get_maintainer.pl has the argument loop and exit the batch copy wraps")
batch_pl = os.path.join(work, "get_maintainer-batch.pl")
with open(batch_pl, "w") as f:
    f.write(batch or "")

patch_files = []
for i, p in enumerate(patches + mboxes):
    name = os.path.join(work, f"{'p' if i < len(patches) else 'mbox'}{i:04d}.patch")
    if not os.path.exists(name):
        with open(name, "wb") as f:
            f.write(p)
    patch_files.append(name)

BASE = ["--no-git", "--no-git-fallback"]
SWITCHES = [
    ["--no-rolestats"], ["--separator", " | "], ["--no-l"], ["--no-m"],
    ["--no-r"], ["--no-n"], ["--s"], ["--no-moderated"],
    ["--no-keywords"], ["--subsystem", "--status"], ["--scm", "--web"],
    ["--no-email", "--subsystem"], ["--no-remove-duplicates"],
    ["--no-mailmap"],
]
switch_files = [s for s in sample[:200:20]]
switch_patches = patch_files[:6]


def oracle_batch(sw, paths, as_files):
    """get_maintainer.pl's answers to `paths`, one process: a list of
    (exit status, text)."""
    qf = tempfile.mktemp(prefix="queue-", dir=work)
    with open(qf, "w") as f:
        f.write("\n".join(paths) + "\n")
    p = subprocess.run(["perl", batch_pl, *BASE, *sw,
                        *(["-f"] if as_files else [])], cwd=TREE,
                       capture_output=True, env=dict(os.environ,
                                                     ORACLE_QUEUE=qf))
    os.unlink(qf)
    out = p.stdout.decode("latin-1").split("\0\n")
    if out and out[-1] == "":
        out.pop()
    return [(p.returncode, t) for t in out]


def oracle_single(sw, path, as_files):
    p = subprocess.run(["perl", single_pl, *BASE, *sw,
                        *(["-f"] if as_files else []), path], cwd=TREE,
                       capture_output=True)
    return (p.returncode, p.stdout.decode("latin-1"))


def key(sw, path, as_files):
    return json.dumps([sw, path, as_files])


cache_file = os.path.join(work, "answers.json")
if os.path.exists(cache_file):
    with open(cache_file) as f:
        oracle = json.load(f)
else:
    groups = [([], sample, True), ([], patch_files, False)]
    for sw in SWITCHES:
        groups.append((sw, switch_files, True))
        groups.append((sw, switch_patches, False))
    # big groups in chunks, so every core has a share
    chunks = []
    for sw, paths, as_files in groups:
        for i in range(0, len(paths), 400):
            chunks.append((sw, paths[i:i + 400], as_files))
    with concurrent.futures.ThreadPoolExecutor(
            max_workers=os.cpu_count()) as ex:
        results = list(ex.map(lambda c: oracle_batch(*c), chunks))
    oracle = {}
    for (sw, paths, as_files), answers in zip(chunks, results):
        for path, a in zip(paths, answers):
            oracle[key(sw, path, as_files)] = a
        for path in paths[len(answers):]:
            oracle[key(sw, path, as_files)] = (-1, "")
    with open(cache_file + ".tmp", "w") as f:
        json.dump(oracle, f)
    os.replace(cache_file + ".tmp", cache_file)

# the batch loop answers as separate runs of the script do
checks = [([], s, True) for s in sample[::300]] + \
    [([], p, False) for p in patch_files[::60]] + \
    [(["--separator", " | "], switch_files[1], True),
     (["--no-email", "--subsystem"], switch_patches[2], False)]
# the single runs' answers are the script's too: cached beside the others
singles_file = os.path.join(work, "singles.json")
singles = {}
if os.path.exists(singles_file):
    with open(singles_file) as f:
        singles = json.load(f)
if any(key(*c) not in singles for c in checks):
    with concurrent.futures.ThreadPoolExecutor(
            max_workers=os.cpu_count()) as ex:
        singles = dict(zip((key(*c) for c in checks),
                           ex.map(lambda c: list(oracle_single(*c)),
                                  checks)))
    with open(singles_file + ".tmp", "w") as f:
        json.dump(singles, f)
    os.replace(singles_file + ".tmp", singles_file)
differ = [c for c in checks
          if list(oracle[key(*c)]) != list(singles[key(*c)])]
eq(differ, [], f"the batch copy answers {len(checks)} sampled questions "
   "byte for byte as one run each of the script")

failed = [j for j, a in oracle.items() if a[0] != 0]
eq(failed, [], "get_maintainer.pl answered every question")


def ours_each(args, inputs, stdin=None):
    r = run("maintainers", "--tree", TREE, "--each", "--json", *args,
            *inputs, stdin=stdin)
    if r.rc != 0:
        return None, r
    return [a["text"] for a in r.json()["answers"]], r


def want(k):
    return oracle[k][1].encode("latin-1").decode("utf-8", "replace")


def compare(what, keys, got):
    wrong = []
    for k, text in zip(keys, got):
        if text != want(k):
            wrong.append((k, want(k), text))
    wrong += [(k, want(k), None) for k in keys[len(got):]]
    ok(not wrong, f"{what}: {len(keys) - len(wrong)} of {len(keys)} "
       f"byte-identical, {len(wrong)} mismatches",
       "\n".join(f"{k}\n--- get_maintainer.pl\n{w}--- maintstat\n{g}"
                 for k, w, g in wrong[:5]))
    print(f"# {what}: {len(wrong)} mismatches of {len(keys)}")
    return len(wrong)


total = 0
asked = sanitized_sample(sample, 4, "the sampled files compared")
got, r = ours_each(["--paths", "-"], [],
                   stdin="\n".join(asked).encode())
ok(got is not None and len(got) == len(asked),
   "maintainers --each answers every sampled file", r.err[-2000:])
total += compare("files (-f)", [key([], s, True) for s in asked], got or [])

one = sanitized_sample(patch_files[:len(patches)], 3,
                       "the patches compared")
five = sanitized_sample(patch_files[len(patches):], 3,
                        "the mboxes of five patches compared")
got, r = ours_each(["--patches"], one + five)
ok(got is not None and len(got) == len(one + five),
   "maintainers --each answers every patch", r.err[-2000:])
n = len(one)
total += compare("patches", [key([], p, False) for p in one],
                 (got or [])[:n])
total += compare("mboxes of five patches",
                 [key([], p, False) for p in five], (got or [])[n:])

for sw in SWITCHES:
    g1, r = ours_each(sw + ["--paths"], switch_files)
    g2, r2 = ours_each(sw + ["--patches"], switch_patches)
    keys = [key(sw, f, True) for f in switch_files] + \
        [key(sw, p, False) for p in switch_patches]
    total += compare(" ".join(sw), keys, (g1 or []) + (g2 or []))

print(f"# total mismatches against get_maintainer.pl: {total}")

# the plain (non --each) text output of one run is the same bytes
r = run("maintainers", "--tree", TREE, "--patches", patch_files[0])
eq(r.out, want(key([], patch_files[0], False)),
   "without --each, the text is get_maintainer.pl's own")
done()
