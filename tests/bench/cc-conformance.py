#!/usr/bin/env python3
"""cc-conformance.py TREE [N] [--script PL] [--patch FILE...] - how many
of N files of TREE (default 1,000: every k-th regular file in sorted
order, .git left out) get from `maintstat maintainers --tree TREE -f FILE`
exactly the bytes the tree's own scripts/get_maintainer.pl --no-git
--no-git-fallback -f FILE prints (or the script PL's, run in TREE), and
likewise each patch FILE given (without -f).

For the projects that ship their own copy of the script (U-Boot,
barebox...): the conformance test (tests/cli/test-maintainers-conformance.py)
checks the kernel's on linux-source-6.1; this measures another tree
without making the suite depend on it.  As in that test, the oracle is a
copy of the script whose sort of matching entries breaks ties by their
place in MAINTAINERS (Perl's hash order changes from run to run), which
reads several MAINTAINERS files in sorted order (File::Find's is the file
system's), and which answers a queue of files in one process.  maintstat answers all of
them in one run (--each --json).  Prints the mismatch count and the first
mismatches in full.

Env: MAINTSTAT (default build/maintstat), WORKERS (perl processes,
default 2).
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
os.environ.setdefault("MS_SOURCE_ROOT", root)
sys.path.insert(0, os.path.join(root, "tests", "cli"))
from mstest import (tree_files, get_maintainer_tiebreak,  # noqa: E402
                    get_maintainer_batch)

ap = argparse.ArgumentParser()
ap.add_argument("tree")
ap.add_argument("n", nargs="?", type=int, default=1000)
ap.add_argument("--script", help="the get_maintainer.pl to run in TREE "
                "(default: TREE/scripts/get_maintainer.pl)")
ap.add_argument("--patch", nargs="*", default=[],
                help="patch files to put to both")
args = ap.parse_args()
MS = os.path.realpath(os.environ.get("MAINTSTAT",
                                     os.path.join(root, "build/maintstat")))
TREE = os.path.abspath(args.tree)
N = args.n
WORKERS = int(os.environ.get("WORKERS", "2"))

files = tree_files(TREE)
step = max(1, len(files) // N)
sample = files[::step][:N]

with open(args.script or os.path.join(TREE, "scripts",
                                      "get_maintainer.pl")) as f:
    script = f.read()
# with --find-maintainer-files (U-Boot's .get_maintainer.conf) the script
# reads the MAINTAINERS files in File::Find's order, the file system's, so
# "file order" among them is the order of the checkout's directories; the
# copy reads them sorted, as maintstat does, for ties to mean one thing
MFILES = "foreach my $file (@mfiles) {"
script = script.replace(MFILES, "foreach my $file (sort @mfiles) {")
script = get_maintainer_tiebreak(script)
script = script and get_maintainer_batch(script)
if not script:
    sys.exit("cc-conformance: the script differs from the kernel's where "
             "the oracle copy changes it")
work = tempfile.mkdtemp(prefix="cc-conformance-")
batch = os.path.join(work, "get_maintainer-batch.pl")
with open(batch, "w") as f:
    f.write(script)


def oracle(paths, as_files=True):
    qf = os.path.join(work, f"queue-{id(paths)}")
    with open(qf, "w") as f:
        f.write("\n".join(paths) + "\n")
    p = subprocess.run(["perl", batch, "--no-git", "--no-git-fallback",
                        *(["-f"] if as_files else [])], cwd=TREE,
                       capture_output=True,
                       env=dict(os.environ, ORACLE_QUEUE=qf))
    out = p.stdout.decode("utf-8", "surrogateescape").split("\0\n")
    if out and out[-1] == "":
        out.pop()
    return out + [None] * (len(paths) - len(out))


chunks = [sample[i:i + 100] for i in range(0, len(sample), 100)]
with concurrent.futures.ThreadPoolExecutor(max_workers=WORKERS) as ex:
    want = [a for c in ex.map(oracle, chunks) for a in c]

r = subprocess.run([MS, "maintainers", "--tree", TREE, "-f", "--each",
                    "--json", "-"], input="\n".join(sample).encode(),
                   capture_output=True)
got = {a["input"]: a["text"] for a in json.loads(
    r.stdout.decode("utf-8", "surrogateescape"))["answers"]}
bad = [(p, w, got.get(p)) for p, w in zip(sample, want)
       if w is None or got.get(p) != w]


def text_answer(path):
    """maintstat's own bytes for `path` (JSON cannot carry the bytes of
    a name cut inside a UTF-8 character, as the script cuts some)."""
    return subprocess.run([MS, "maintainers", "--tree", TREE, "-f", path],
                          capture_output=True).stdout


bad = [(p, w, g) for p, w, g in bad
       if w is None or text_answer(p) != w.encode("utf-8",
                                                   "surrogateescape")]
print(f"tree: {TREE}\nfiles: {len(sample)} (every {step}th of "
      f"{len(files)})\nmismatches: {len(bad)}")
for p, w, g in bad[:5]:
    print(f"--- {p}\nget_maintainer.pl:\n{w}maintstat:\n{g}")
if args.patch:
    patches = [os.path.abspath(p) for p in args.patch]
    want = oracle(patches, as_files=False)
    bad = []
    for p, w in zip(patches, want):
        g = subprocess.run([MS, "maintainers", "--tree", TREE, p],
                           capture_output=True).stdout
        if w is None or g != w.encode("utf-8", "surrogateescape"):
            bad.append((p, w, g.decode("utf-8", "surrogateescape")))
    print(f"patches: {len(patches)}\nmismatches: {len(bad)}")
    for p, w, g in bad[:5]:
        print(f"--- {p}\nget_maintainer.pl:\n{w}maintstat:\n{g}")
