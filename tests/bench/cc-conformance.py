#!/usr/bin/env python3
"""cc-conformance.py TREE [N] - how many of N files of TREE (default
1,000: every k-th regular file in sorted order, .git left out) get from
`maintstat maintainers --tree TREE -f FILE` exactly the bytes the tree's
own scripts/get_maintainer.pl --no-git --no-git-fallback -f FILE prints.

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
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
MS = os.path.realpath(os.environ.get("MAINTSTAT",
                                     os.path.join(root, "build/maintstat")))
TREE = os.path.abspath(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
WORKERS = int(os.environ.get("WORKERS", "2"))

files = []
for dp, dn, fn in os.walk(TREE):
    if dp == TREE and ".git" in dn:
        dn.remove(".git")
    for f in fn:
        p = os.path.join(dp, f)
        if os.path.isfile(p) and not os.path.islink(p):
            files.append(os.path.relpath(p, TREE))
files.sort()
step = max(1, len(files) // N)
sample = files[::step][:N]

with open(os.path.join(TREE, "scripts", "get_maintainer.pl")) as f:
    script = f.read()
TIE = "sort {$hash{$b} <=> $hash{$a}} keys %hash"
LOOP_START = 'if (!@ARGV) {\n    push(@ARGV, "&STDIN");\n}\n'
LOOP_END = "\nexit($exit);\n"
if TIE not in script or script.count(LOOP_START) != 1 or \
        script.count(LOOP_END) != 1:
    sys.exit("cc-conformance: the script differs from the kernel's where "
             "the oracle copy changes it")
script = script.replace(TIE, "sort {$hash{$b} <=> $hash{$a} || $a <=> $b} "
                        "keys %hash")
# with --find-maintainer-files (U-Boot's .get_maintainer.conf) the script
# reads the MAINTAINERS files in File::Find's order, the file system's, so
# "file order" among them is the order of the checkout's directories; the
# copy reads them sorted, as maintstat does, for ties to mean one thing
MFILES = "foreach my $file (@mfiles) {"
script = script.replace(MFILES, "foreach my $file (sort @mfiles) {")
script = script.replace(LOOP_START, """my @QUEUE;
open(my $q, '<', $ENV{ORACLE_QUEUE}) or die "queue: $!";
while (<$q>) { chomp; push(@QUEUE, $_); }
close($q);
@ARGV = (shift(@QUEUE));
NEXT_QUESTION:
""").replace(LOOP_END, """
print("\\0\\n");
if (@QUEUE) {
    @ARGV = (shift(@QUEUE));
    @files = (); @fixes = (); @range = (); @keyword_tvi = ();
    @file_emails = ();
    goto NEXT_QUESTION;
}
exit($exit);
""")
work = tempfile.mkdtemp(prefix="cc-conformance-")
batch = os.path.join(work, "get_maintainer-batch.pl")
with open(batch, "w") as f:
    f.write(script)


def oracle(paths):
    qf = os.path.join(work, f"queue-{id(paths)}")
    with open(qf, "w") as f:
        f.write("\n".join(paths) + "\n")
    p = subprocess.run(["perl", batch, "--no-git", "--no-git-fallback",
                        "-f"], cwd=TREE, capture_output=True,
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
