#!/usr/bin/env python3
"""maintstat sections against the kernel's own scripts/get_maintainer.pl.

On the linux-source-6.1 tree ($MS_LINUX_TREE), every 25th regular file in
sorted order (3,144 files) is given to both; the sections must be the same,
in the same order.  get_maintainer.pl prints entries of equal pattern depth
in Perl's hash order, which differs from run to run; where that is the only
difference (checked with the depths maintstat reports), the paths are
counted separately and must all be such ties.  get_maintainer.pl's answers
are cached in $MS_CACHE (keyed by the MAINTAINERS file, the script and the
sample), so they are computed once per machine: by the script's batch copy
(mstest.get_maintainer_batch(), checked against single runs by the
maintainers-conformance test), one perl process per core answering a
queue: a perl process per file took 110 ms of CPU, a question in the
queue 45 ms.
"""
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, ok, eq, done, skip_all, tree_files,  # noqa: E402
                    get_maintainer_batch)

TREE = os.environ.get("MS_LINUX_TREE")
CACHE = os.environ.get("MS_CACHE")
if not TREE or not os.path.exists(os.path.join(TREE, "MAINTAINERS")):
    skip_all("MS_LINUX_TREE is not set to an unpacked linux-source-6.1 "
             "tree (make check sets it up)")




walked = tree_files(TREE)
# an older unpack script left its stamp inside the tree: not a kernel file
files = [f for f in walked if f != ".maintstat-unpacked"]
sample = files[::25]
ok(len(sample) >= 3000, f"sample has at least 3000 files ({len(sample)})")


def oracle_batch(script, paths):
    """get_maintainer.pl's sections for `paths`, one process: a list with
    one entry a path (None where the script failed)."""
    with tempfile.TemporaryDirectory(prefix="oracle-") as d:
        with open(os.path.join(d, "queue"), "w") as f:
            f.write("\n".join(paths) + "\n")
        with open(os.path.join(d, "gm.pl"), "w") as f:
            f.write(script)
        p = subprocess.run(
            ["perl", os.path.join(d, "gm.pl"), "--no-git", "--no-git-fallback",
             "--no-keywords", "--noemail", "--nol", "--subsystem", "-f"],
            cwd=TREE, capture_output=True,
            env=dict(os.environ, ORACLE_QUEUE=os.path.join(d, "queue")))
    out = p.stdout.decode("utf-8", "replace").split("\0\n")[:len(paths)]
    if p.returncode != 0:
        out = out[:-1]   # the one it died on, if any
    answers = [[l for l in t.splitlines() if l.strip()] for t in out]
    return answers + [None] * (len(paths) - len(answers))


key = hashlib.sha256()
for name in ("MAINTAINERS", "scripts/get_maintainer.pl"):
    with open(os.path.join(TREE, name), "rb") as f:
        key.update(f.read())
key.update("\n".join(sample).encode())
cache_file = os.path.join(CACHE or "/tmp", "oracle",
                          f"get_maintainer-{key.hexdigest()[:16]}.json")
if os.path.exists(cache_file):
    with open(cache_file) as f:
        oracle = json.load(f)
else:
    with open(os.path.join(TREE, "scripts/get_maintainer.pl")) as f:
        batch = get_maintainer_batch(f.read())
    ok(batch is not None, "get_maintainer.pl has the argument loop and exit "
       "the batch copy wraps")
    chunks = [sample[i:i + 400] for i in range(0, len(sample), 400)]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count()) as ex:
        answers = [a for c in ex.map(lambda c: oracle_batch(batch or "", c),
                                     chunks) for a in c]
    oracle = dict(zip(sample, answers))
    os.makedirs(os.path.dirname(cache_file), exist_ok=True)
    with open(cache_file + ".tmp", "w") as f:
        json.dump(oracle, f)
    os.replace(cache_file + ".tmp", cache_file)

failed_oracle = [p for p, a in oracle.items() if a is None]
eq(failed_oracle, [], "get_maintainer.pl answered for every sampled file")

r = run("sections", "--tree", TREE, "--full", "--json", "-",
        stdin="\n".join(sample).encode())
eq(r.rc, 0, "maintstat sections exits 0")
eq(r.err, "", "no warnings on the kernel's MAINTAINERS")
doc = r.json()
ours = {p["path"]: p for p in doc["paths"]}
eq(len(ours), len(sample), "one answer per sampled path")

exact = ties = 0
wrong = []
for path in sample:
    want = oracle.get(path) or []
    got = ours.get(path)
    names = got["sections"] if got else None
    if names == want:
        exact += 1
        continue
    # same entries, and the oracle's order is ours up to equal depths?
    depth = {e["name"]: e["depth"] for e in (got or {}).get("entries", [])}
    if names is not None and sorted(names) == sorted(want) and \
            [depth[n] for n in want] == [depth[n] for n in names]:
        ties += 1
        continue
    wrong.append((path, want, names))

ok(not wrong, f"sections equal get_maintainer.pl's for all {len(sample)} "
   f"paths ({exact} exactly, {ties} differing only among equal-depth ties)",
   "\n".join(f"{p}\n  get_maintainer.pl: {w}\n  maintstat:         {g}"
             for p, w, g in wrong[:20]) + f"\n({len(wrong)} paths differ)")
ok(exact >= len(sample) * 0.9, f"most paths agree exactly ({exact})")

# coverage sees the same tree the sample came from
r = run("coverage", "--tree", TREE, "--json")
eq(r.rc, 0, "coverage on the kernel tree exits 0")
c = r.json()
eq(c["files_total"], len(walked), "coverage counts every regular file")
eq(c["catch_all_entries"], ["THE REST"], "THE REST is the only catch-all")
# a file covered by no entry but THE REST has exactly ['THE REST']
unc_sample = [p for p in sample if oracle[p] == ["THE REST"]]
unc = set(c["uncovered"]["file_list"])
eq([p for p in unc_sample if p not in unc], [],
   "every sampled file get_maintainer.pl gives only THE REST is uncovered")
eq(len([p for p in sample if p in unc]), len(unc_sample),
   "and no other sampled file is")
done()
