#!/usr/bin/env python3
"""maintstat recruit on the planted repository of fixtures/gen/gen-areas.py:
Wes Worker does all the work of drivers/broad/work/, which nobody listed
for BROAD ENTRY touches (a new entry with him and Rhea Rev as R:); the
series applies with git am to the analysed revision, adds no M: line,
keeps subjects within 75 characters, addresses the people proposed and
Cc's the entry's; --keep leaves a person out; a catch-all gets none."""
import glob
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, SOURCE_ROOT  # noqa: E402

T = tmpdir()
repo = os.path.join(T, "areas.git")
subprocess.run(["git", "init", "-q", "--bare", repo], check=True)
gen = subprocess.run([sys.executable, os.path.join(
    SOURCE_ROOT, "fixtures", "gen", "gen-areas.py"), "-"],
    check=True, capture_output=True)
subprocess.run(["git", "--git-dir", repo, "fast-import", "--quiet"],
               input=gen.stdout, check=True)
subprocess.run(["git", "--git-dir", repo, "symbolic-ref", "HEAD",
                "refs/heads/main"], check=True)
FROM = "Ann Analyst <ann@example.org>"
env = {"SOURCE_DATE_EPOCH": "1717243200"}

out = os.path.join(T, "out")
r = run("recruit", "--repo", repo, "--no-cache", "-o", out, "--from", FROM,
        env=env)
eq(r.rc, 0, "recruit exits 0")
names = sorted(os.path.basename(p) for p in glob.glob(out + "/*.patch"))
eq(names, ["0000-cover-letter.patch",
           "0001-MAINTAINERS-add-BROAD-ENTRY-drivers-broad-work.patch",
           "0002-MAINTAINERS-add-SCRIPTS.patch"],
   "a cover letter and two proposals: THE REST's only for scripts/, the "
   "top-level directory no other entry covers")
ok(not glob.glob(T + "/.out*") and not [p for p in os.listdir(T)
                                        if p.startswith(".")],
   "nothing left beside the directory")
p1 = open(os.path.join(out, names[1])).read()
subj = re.search(r"^Subject: (.*)$", p1, re.M).group(1)
eq(subj, "[PATCH 1/2] MAINTAINERS: add BROAD ENTRY - drivers/broad/work",
   "the subject")
ok(len(subj) - len("[PATCH 1/2] ") <= 75, "within 75 characters")
eq(re.search(r"^To: (.*\n(?:    .*\n)*)", p1, re.M).group(1),
   "Wes Worker <wes@example.net>,\n    Rhea Rev <rhea@example.net>\n",
   "To: the people proposed")
eq(re.findall(r"^Cc: (.*)$", p1, re.M),
   ["Mia Maint <mia@example.org>", "Ray Listed <ray@example.org>",
    "broad@lists.example.org"], "Cc: the entry's people and list")
ok("This is a proposal" in p1 and "never as maintainers" in p1,
   "it says it is a proposal, and no M:")
ok("applied 30 of its 30" in p1 and "gave 10 of" in p1,
   "the evidence: counts", p1)
ok(re.search(r"for example\s+commit\s+[0-9a-f]{12},\s+[0-9a-f]{12}", p1),
   "the evidence: example commits")
added = [line[1:] for line in p1.splitlines()
         if line.startswith("+") and not line.startswith("+++")]
eq(added, ["BROAD ENTRY - drivers/broad/work", "R:\tWes Worker <wes@example.net>",
           "R:\tRhea Rev <rhea@example.net>", "L:\tbroad@lists.example.org",
           "S:\tMaintained", "F:\tdrivers/broad/work/", ""],
   "the new entry: R: only, the parent's list and status, F: the area")

work = os.path.join(T, "work")
subprocess.run(["git", "clone", "-q", repo, work], check=True)
genv = dict(os.environ, GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@x",
            GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@x",
            GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
p2 = open(os.path.join(out, names[2])).read()
added = [line[1:] for line in p2.splitlines()
         if line.startswith("+") and not line.startswith("+++")]
eq(added, ["SCRIPTS", "R:\tSam Script <sam@example.net>",
           "L:\trest@lists.example.org", "F:\tscripts/", ""],
   "THE REST's top-level directory: a new entry named for it, R: only")
ok(re.search(r"^To: Sam Script <sam@example.net>$", p2, re.M) and
   "Cc: Tom Rest <tom@example.org>" in p2, "To: Sam; Cc: THE REST's", p2)
am = subprocess.run(["git", "-C", work, "am", os.path.join(out, names[1]),
                     os.path.join(out, names[2])],
                    env=genv, capture_output=True, text=True)
eq(am.returncode, 0, "git am applies both to the analysed revision")
m = open(os.path.join(work, "MAINTAINERS")).read()
ok(m.index("BROAD ENTRY - drivers/broad/work") < m.index("BROAD INNER") and
   m.index("BROAD ENTRY\n") < m.index("BROAD ENTRY - "),
   "placed in MAINTAINERS' order")
r2 = run("sections", work, "drivers/broad/work/x.c")
eq(r2.out.split("\n")[1:3], ["  BROAD ENTRY - drivers/broad/work",
                            "  BROAD ENTRY"],
   "the new entry parses and matches the area, beside the parent")
ok(m.index("OVERLAP") < m.index("SCRIPTS\n") < m.index("THE REST"),
   "SCRIPTS placed in MAINTAINERS' order, before THE REST", m)
r2 = run("sections", work, "scripts/s.sh")
ok("SCRIPTS" in r2.out and "THE REST" in r2.out,
   "SCRIPTS parses and matches scripts/, beside THE REST", r2.out)

# --maintainers naming a copy outside the tree: the patch edits the tree's
# MAINTAINERS (as retire's do), not a/<the copy's absolute path>, which
# git am refuses; a file inside the work tree keeps its path there.
outside = os.path.join(T, "elsewhere", "M.copy")
os.makedirs(os.path.dirname(outside))
open(outside, "w").write(subprocess.run(
    ["git", "--git-dir", repo, "show", "HEAD:MAINTAINERS"],
    capture_output=True, text=True, check=True).stdout)
work2 = os.path.join(T, "work2")
subprocess.run(["git", "clone", "-q", repo, work2], check=True)
for mfile, where, label in ((outside, "MAINTAINERS", "a copy outside"),
                            (os.path.join(work2, "MAINTAINERS"),
                             "MAINTAINERS", "the work tree's own")):
    o = os.path.join(T, "out-" + label.split()[1])
    r = run("recruit", "--repo", work2, "--no-cache", "-o", o, "--from",
            FROM, "--maintainers", mfile, "BROAD ENTRY", env=env)
    ps = sorted(glob.glob(o + "/0001-*.patch"))
    ok(r.rc == 0 and ps and f"diff --git a/{where} b/{where}\n" in
       open(ps[0]).read(), f"--maintainers {label}: the patch edits "
       f"{where}", r.err)
    if label == "a copy outside":
        am = subprocess.run(["git", "-C", work2, "am", ps[0]], env=genv,
                            capture_output=True, text=True)
        ok(am.returncode == 0, "... and git am applies it", am.stderr)
        subprocess.run(["git", "-C", work2, "reset", "-q", "--hard",
                        "HEAD~1"], check=True)

keep = os.path.join(T, "keep")
open(keep, "w").write("# never\nwes@example.net\n")
out2 = os.path.join(T, "out2")
r = run("recruit", "--repo", repo, "--no-cache", "-o", out2, "--from", FROM,
        "--keep", keep, "BROAD ENTRY", env=env)
eq(r.rc, 0, "--keep: exits 0")
p = open(glob.glob(out2 + "/0001-*.patch")[0]).read()
ok("Wes Worker" not in p and "R:\tRhea Rev" in p, "--keep leaves Wes out")
r = run("recruit", "--repo", repo, "--no-cache", "-o", out2, "--from", FROM,
        env=env)
eq(r.rc, 1, "a directory holding patches is refused")
r = run("recruit", "--repo", repo, "--no-cache", "-o",
        os.path.join(T, "out3"), "--from", FROM, "KEYWORD ONLY", env=env)
eq(r.rc, 0, "nothing to propose: exits 0")
ok("nothing to propose" in r.out, "and says so", r.out)

# A second MAINTAINERS file, as U-Boot's board/*/MAINTAINERS (found
# through .get_maintainer.conf's --find-maintainer-files): Rob Board
# reviews every change of board/acme/, listed nowhere; the proposal edits
# board/acme/MAINTAINERS, where ACME BOARD is, and applies with git am.
TOP = "THE REST\nM:\tTom Rest <tom@example.org>\nF:\t*\nF:\t*/\n"
ACME = ("ACME BOARD\nM:\tAda Acme <ada@example.org>\nS:\tMaintained\n"
        "F:\tboard/acme/\n")
fi = []


def imported(name, stream):
    """A bare repository under T holding the fast-import `stream`."""
    path = os.path.join(T, name)
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", path],
                   check=True)
    subprocess.run(["git", "--git-dir", path, "fast-import", "--quiet"],
                   input=stream, check=True)
    return path


def blob(path, text):
    data = text.encode()
    fi.append(f"M 100644 inline {path}\ndata {len(data)}\n".encode() +
              data + b"\n")


def commit(who, when, msg, files, committer=None):
    global fi
    fi = []
    for path, text in files.items():
        blob(path, text)
    m = msg.encode()
    return (f"commit refs/heads/main\nauthor {who} {when} +0000\n"
            f"committer {committer or who} {when} +0000\n"
            f"data {len(m)}\n").encode() + \
        m + b"\n" + b"".join(fi) + b"\n"


ADA = "Ada Acme <ada@example.org>"
stream = commit(ADA, 1700000000, "import", {
    "MAINTAINERS": TOP, "board/acme/MAINTAINERS": ACME,
    ".get_maintainer.conf": "--find-maintainer-files\n",
    "board/acme/a.c": "a\n", "README": "r\n"})
for i in range(5):
    stream += commit(ADA, 1700000000 + (i + 1) * 86400,
                     f"acme: change {i}\n\n"
                     "Reviewed-by: Rob Board <rob@example.net>\n",
                     {"board/acme/a.c": f"a {i}\n"})
two = imported("two.git", stream)
out4 = os.path.join(T, "out4")
# (these small planted cases run at --split-commits 6: 3 tags or
# commits are enough evidence there)
SMALL = ["--split-commits", "6"]
r = run("recruit", "--repo", two, "--no-cache", "-o", out4, "--from", FROM,
        *SMALL, env=env)
ok(r.rc == 0, "a board MAINTAINERS file: exits 0", r.err)
ok("left out" not in r.err, "no proposal is left out", r.err)
pats = sorted(glob.glob(out4 + "/0001-*.patch"))
p = open(pats[0]).read() if pats else ""
ok("--- a/board/acme/MAINTAINERS\n+++ b/board/acme/MAINTAINERS" in p and
   "\n+R:\tRob Board <rob@example.net>\n" in p and
   "a/MAINTAINERS" not in p, "the R: line goes into board/acme/MAINTAINERS",
   p)
ok("Subject: [PATCH 1/1] board: acme: add Rob Board as reviewer\n" in p,
   "the subject as U-Boot titles changes to its board files", p)
ok("board/acme/MAINTAINERS | 1 +" in
   open(os.path.join(out4, "0000-cover-letter.patch")).read(),
   "the cover letter's diffstat names it")
w2 = os.path.join(T, "w2")
subprocess.run(["git", "clone", "-q", two, w2], check=True)
am = subprocess.run(["git", "-C", w2, "am"] + pats, env=genv,
                    capture_output=True, text=True)
ok(am.returncode == 0, "git am applies it", am.stderr)
eq(open(os.path.join(w2, "board/acme/MAINTAINERS")).read(),
   ACME.replace("S:", "R:\tRob Board <rob@example.net>\nS:"),
   "after git am: the board's entry with its new R: line")

# A custodian (issue 37): Cus Todian keeps ARM BEE's tree (M: and T:)
# and applies every patch of board/bee/, written by others, adding his
# Reviewed-by; that is passing them through his tree, not looking after
# the board: no proposal.  Nia Nocust, who keeps no tree, applies and
# reviews board/cee/'s the same way: proposed, with the counts the rule
# weighs: a tree-wide commit (12 entries) she applied there is left out
# of both, and said so (the import, Ada's, counts: 6 commits).
CUS, NIA = "Cus Todian <cus@example.net>", "Nia Nocust <nia@example.net>"
WIDE = "".join(f"LIB {k}\nM:\tLe Lib <le@example.org>\nF:\tlib/l{k}/\n\n"
               for k in range(11))
TOP3 = ("ARM BEE\nM:\tCus Todian <cus@example.net>\nS:\tMaintained\n"
        "T:\tgit https://example.org/bee.git\nF:\tarch/arm/mach-bee/\n\n" +
        WIDE + TOP)
BEE = "BEE BOARD\nM:\tBo Bee <bo@example.org>\nS:\tMaintained\nF:\tboard/bee/\n"
CEE = "CEE BOARD\nM:\tCy Cee <cy@example.org>\nS:\tMaintained\nF:\tboard/cee/\n"
stream = commit(ADA, 1700000000, "import", {
    "MAINTAINERS": TOP3, "board/bee/MAINTAINERS": BEE,
    "board/cee/MAINTAINERS": CEE,
    ".get_maintainer.conf": "--find-maintainer-files\n",
    "board/bee/b.c": "b\n", "board/cee/c.c": "c\n",
    "arch/arm/mach-bee/m.c": "m\n"})
for i in range(5):
    who = f"Au Thor{i} <au{i}@example.org>"
    stream += commit(who, 1700000000 + (i + 1) * 86400,
                     f"bee: change {i}\n\nReviewed-by: {CUS}\n",
                     {"board/bee/b.c": f"b {i}\n"}, committer=CUS)
    stream += commit(who, 1700000000 + (i + 1) * 86400 + 60,
                     f"cee: change {i}\n\nReviewed-by: {NIA}\n",
                     {"board/cee/c.c": f"c {i}\n"}, committer=NIA)
wide = {f"lib/l{k}/x.c": "w\n" for k in range(11)}
wide["board/cee/c.c"] = "wide\n"
stream += commit("Wi De <wi@example.org>", 1700000000 + 7 * 86400,
                 f"global: rename\n\nReviewed-by: {NIA}\n", wide,
                 committer=NIA)
three = imported("three.git", stream)
out5 = os.path.join(T, "out5")
r = run("recruit", "--repo", three, "--no-cache", "-o", out5, "--from", FROM,
        "BEE BOARD", "CEE BOARD", *SMALL, env=env)
ok(r.rc == 0, "custodian: exits 0", r.err)
pats = sorted(glob.glob(out5 + "/0*.patch"))
text = "".join(open(p).read() for p in pats)
ok("Cus Todian" not in text, "no proposal for the custodian", text)
ok(len(pats) == 2 and "board: cee: add Nia Nocust as reviewer" in text,
   "one for Nia, who keeps no tree", [os.path.basename(p) for p in pats])
flat = " ".join(text.split())
ok("they applied 5 of its 6 commits and gave 5 of the review tags of its "
   "5 reviewed ones, the last on 2023-11-19" in flat and "(1 tree-wide commit, "
   "touching more than 10 entries, is left out)" in flat,
   "the evidence gives the counts the rule weighs", flat)
r = run("areas", "--repo", three, "--no-cache", "--json", "BEE BOARD",
        *SMALL, env=env)
top = json.loads(r.out)["entries"][0]["areas"][0]["top"]
cus = [p for p in top if p["name"] == "Cus Todian"]
eq([(p["custodial"], p["custodian_of"], p["de_facto"]) for p in cus],
   [(5, "ARM BEE", False)], "--json: custodial, custodian_of")
# The list (issue 37): review's de-facto maintainer of an entry, someone
# not listed who answers most of its patches first (fixtures/gen/
# gen-review.py: Dan Defacto, first to answer both BAZ LEGACY patches,
# once from the old address --aliases joins), gets an R: line with the
# evidence review's verdict weighed; never an M: line; --keep holds.
rv = os.path.join(T, "rv")
subprocess.run([sys.executable, os.path.join(SOURCE_ROOT, "fixtures", "gen",
                                             "gen-review.py"), rv],
               check=True, capture_output=True)
rvrepo, mbox = os.path.join(rv, "repo"), os.path.join(rv, "list.mbox")
LIST = ["--archive", mbox, "--aliases", os.path.join(rv, "aliases")]
out6 = os.path.join(T, "out6")
r = run("recruit", "--repo", rvrepo, "--no-cache", "-o", out6, "--from",
        FROM, "--list-url", "https://lore.example.org/baz", *LIST, env=env)
ok(r.rc == 0, "--archive: exits 0", r.err)
pats = sorted(glob.glob(out6 + "/0*-BAZ-*.patch"))
p = open(pats[0]).read() if pats else ""
flat = " ".join(p.split())
ok("Subject: [PATCH 1/1] MAINTAINERS: BAZ LEGACY DRIVER: add Dan Defacto "
   "as reviewer\n" in p and "\n+R:\tDan Defacto <dan@example.net>\n" in p,
   "Dan, review's de-facto maintainer, proposed as R:", p)
ok("\n+M:" not in p and "To: Dan Defacto <dan@example.net>\n" in p and
   "Cc: Old Ghost <ghost@example.org>" in p, "no M:; To: Dan, Cc: the "
   "entry's", p)
ok("answered 2 of its 2 patches and were the first to answer 2 of the 2 "
   "answered, posted from 2024-03-07 to 2024-03-09 (for example "
   "<f1-r1@example.net> https://lore.example.org/baz/f1-r1@example.net/, "
   "<g1-r1@example.net>" in flat, "the evidence: answers, first answers, "
   "dates, Message-IDs and links", flat)
w3 = os.path.join(T, "w3")
subprocess.run(["git", "clone", "-q", rvrepo, w3], check=True)
am = subprocess.run(["git", "-C", w3, "am"] +
                    sorted(glob.glob(out6 + "/0[1-9]*.patch")), env=genv,
                    capture_output=True, text=True)
ok(am.returncode == 0, "git am applies the series", am.stderr)
# De-facto in git too (Dan applies a third of BAZ's commits, 3 of 4: at
# --split-commits 6 enough): one R: line, and the message gives both
# evidences, git's and the list's.
w4 = os.path.join(T, "w4")
subprocess.run(["git", "clone", "-q", rvrepo, w4], check=True)
open(os.path.join(w4, "drivers/baz/core.c"), "a").write("more\n")
subprocess.run(["git", "-C", w4, "commit", "-qam", "baz: more"], check=True,
               env=dict(genv, GIT_AUTHOR_NAME="Eve Else",
                        GIT_AUTHOR_EMAIL="eve@example.org",
                        GIT_COMMITTER_NAME="Dan Defacto",
                        GIT_COMMITTER_EMAIL="dan@example.net",
                        GIT_AUTHOR_DATE="2024-03-13T11:00:00Z",
                        GIT_COMMITTER_DATE="2024-03-13T11:00:00Z"))
o = os.path.join(T, "out6b")
r = run("recruit", "--repo", w4, "--no-cache", "-o", o, "--from", FROM,
        *SMALL, *LIST, "BAZ LEGACY DRIVER", env=env)
p = "".join(open(f).read() for f in glob.glob(o + "/0001-*.patch"))
flat = " ".join(p.split())
ok(r.rc == 0 and p.count("\n+R:\tDan Defacto") == 1 and
   "applied 3 of its 4 commits" in flat and
   "were the first to answer 2 of the 2 answered" in flat and
   "Found by maintstat areas and review" in flat,
   "de-facto in git and on the list: one R: line, both evidences", flat)
r = run("recruit", "--repo", rvrepo, "--no-cache", "-o",
        os.path.join(T, "out7"), "--from", FROM, "--json", "BAZ LEGACY DRIVER",
        env=env)
eq(r.json()["patch_files"], [], "without --archive: no proposal for Dan")
open(keep, "w").write("Dan Defacto\n")
r = run("recruit", "--repo", rvrepo, "--no-cache", "-o",
        os.path.join(T, "out8"), "--from", FROM, "--json", "--keep", keep,
        "BAZ LEGACY DRIVER", *LIST, env=env)
eq((r.json()["patch_files"], r.json()["kept"]), ([], 1),
   "--keep leaves Dan out")
# ... but not when another entry matching its files lists Dan already
# (as THE REST's or an arch's maintainer): get_maintainer.pl names him.
mfile = os.path.join(T, "MAINTAINERS.outer")
open(mfile, "w").write(subprocess.run(
    ["git", "-C", rvrepo, "show", "HEAD:MAINTAINERS"],
    capture_output=True, text=True, check=True).stdout +
    "\nDRIVERS\nM:\tDan Defacto <dan@example.net>\nF:\tdrivers/\n")
r = run("recruit", "--repo", rvrepo, "--no-cache", "-o",
        os.path.join(T, "out9"), "--from", FROM, "--json", "--maintainers",
        mfile, "BAZ LEGACY DRIVER", *LIST, env=env)
eq((r.rc, r.json()["patch_files"] if r.rc == 0 else r.err), (0, []),
   "Dan, listed for drivers/ by DRIVERS, is not proposed for BAZ LEGACY")
# Only recent work makes someone de-facto (issue 37, real output: U-Boot's
# recruit proposed people MAINTAINERS had removed as inactive, and
# reviewers of one series years ago): Rex reviewed every change of
# board/old/ 2023-11-15..18, more than a year before the window's end
# (the last commit, 2025-01-01): no proposal, no de-facto flag; Pia did the
# same for board/new/ within the last year: proposed.
OLD = ("OLD BOARD\nM:\tOla Old <ola@example.org>\nS:\tMaintained\n"
       "F:\tboard/old/\n\nNEW BOARD\nM:\tNed New <ned@example.org>\n"
       "S:\tMaintained\nF:\tboard/new/\n\n" + TOP)
REX, PIA = "Rex Rev <rex@example.net>", "Pia Rev <pia@example.net>"
stream = commit(ADA, 1699000000, "import", {
    "MAINTAINERS": OLD, "board/old/o.c": "o\n", "board/new/n.c": "n\n"})
for i in range(4):
    stream += commit(f"Au Thor{i} <au{i}@example.org>",
                     1700000000 + i * 86400,
                     f"old: change {i}\n\nReviewed-by: {REX}\n",
                     {"board/old/o.c": f"o {i}\n"})
    stream += commit(f"Au Thor{i} <au{i}@example.org>",
                     1730000000 + i * 86400,
                     f"new: change {i}\n\nReviewed-by: {PIA}\n",
                     {"board/new/n.c": f"n {i}\n"})
stream += commit(ADA, 1735689600, "readme", {"README": "r2\n"})
four = imported("four.git", stream)
r = run("recruit", "--repo", four, "--no-cache", "-o",
        os.path.join(T, "out10"), "--from", FROM, "--json", *SMALL, env=env)
eq([p["subject"] for p in r.json()["patch_files"]][1:] if r.rc == 0 else r.err,
   ["MAINTAINERS: NEW BOARD: add Pia Rev as reviewer"],
   "Pia, recent, proposed; Rex, whose reviews are over a year old, not")
r = run("areas", "--repo", four, "--no-cache", "--json", "OLD BOARD", *SMALL)
eq(json.loads(r.out)["entries"][0]["areas"][0]["flags"], ["unattended"],
   "OLD BOARD's area: unattended, not de-facto")
# A custodian whose tree carries an area's patches maintains it already
# (issue 37, real output: U-Boot's sunxi custodian proposed as reviewer of
# three sunxi boards whose patches, his own and others', he applied to his
# tree): Cus, ARM BEE's custodian, writes and applies 4 changes of
# board/dee/ and applies one of Ann's: no proposal.
DEE = "DEE BOARD\nM:\tDi Dee <di@example.org>\nS:\tMaintained\nF:\tboard/dee/\n"
stream = commit(ADA, 1734000000, "import", {
    "MAINTAINERS": TOP3, "board/dee/MAINTAINERS": DEE,
    ".get_maintainer.conf": "--find-maintainer-files\n",
    "board/dee/d.c": "d\n", "arch/arm/mach-bee/m.c": "m\n"})
for i in range(5):
    stream += commit(CUS if i else "Ann Au <ann@example.org>",
                     1735000000 + i * 86400, f"dee: change {i}\n",
                     {"board/dee/d.c": f"d {i}\n"}, committer=CUS)
five = imported("five.git", stream)
r = run("recruit", "--repo", five, "--no-cache", "-o",
        os.path.join(T, "out11"), "--from", FROM, "--json", "DEE BOARD",
        *SMALL, env=env)
eq(r.json()["patch_files"] if r.rc == 0 else r.err, [],
   "no proposal for the custodian whose tree carries board/dee/")
# De-facto evidence must be real (issue 37, real output: rdma-core's
# recruit proposed Patrisious Haddad for LIBIBVERBS on 5 review tags of
# 74 commits, the 5 of the 10 reviewed; and Leon Romanovsky, M: of "*
# OVERALL PACKAGE", an entry naming no file, for SUSE PACKAGING on his
# release commits).  At --split-commits 6 (evidence: 3): Pat gives the
# only 3 review tags of libv/'s 13 commits (under a quarter of them: no
# proposal) and 3 of libw/'s 12 (a quarter: proposed); Leo, listed for
# the whole project by * OVERALL, authors and applies 4 of pkg/'s 6: no
# proposal, and areas says where he is listed.
PAT = "Patrisious Haddad <pat@example.net>"
LEO = "Leo Whole <leo@example.org>"
LIBW = "LIBW USERSPACE LIBRARY FOR RDMA VERBS (/dev/infiniband/uverbsW)"
WHOLE = ("* OVERALL\nM:\t" + LEO + "\nS:\tSupported\n\n"
         "LIBV\nM:\tVi Vee <vi@example.org>\nF:\tlibv/\n\n" +
         LIBW + "\nM:\tWu Wee <wu@example.org>\nF:\tlibw/\n\n"
         "PKG\nM:\tPia Pkg <pia@example.org>\nF:\tpkg/\n\n"
         "OUTER\nM:\tOla Outer <ola@example.org>\nF:\touter/\n\n"
         "OUTER INNER\nM:\tIna Inner <ina@example.org>\nF:\touter/in/\n\n" +
         TOP)
stream = commit(ADA, 1734000000, "import", {
    "MAINTAINERS": WHOLE, "pkg/p.spec": "p\n"})
for i in range(12):
    for d in ("libv", "libw"):
        stream += commit(f"Au Thor{i} <au{i}@example.org>",
                         1735000000 + i * 86400 + len(d) + ord(d[3]),
                         f"{d}: change {i}\n\n" +
                         (f"Reviewed-by: {PAT}\n" if i < 3 else ""),
                         {f"{d}/{d[3]}.c": f"{i}\n"})
stream += commit("Au Thor <au@example.org>", 1736100000, "libv: one more",
                 {"libv/v.c": "more\n"})
for i in range(5):
    stream += commit(LEO if i < 4 else "Pia Pkg <pia@example.org>",
                     1736200000 + i * 86400, f"pkg: version {i}\n",
                     {"pkg/p.spec": f"{i}\n"})
for i in range(4):
    stream += commit("Ina Inner <ina@example.org>", 1736700000 + i * 86400,
                     f"outer/in: change {i}\n\nReviewed-by: {REX}\n",
                     {"outer/in/i.c": f"{i}\n"})
    if i < 3:
        stream += commit("Ola Outer <ola@example.org>",
                         1736700000 + i * 86400 + 60, f"outer: change {i}\n",
                         {"outer/o.c": f"{i}\n"})
six = imported("six.git", stream)
r = run("recruit", "--repo", six, "--no-cache", "-o",
        os.path.join(T, "out12"), "--from", FROM, "--json", *SMALL, env=env)
eq([p["subject"] for p in r.json()["patch_files"]][1:] if r.rc == 0 else r.err,
   ["MAINTAINERS: LIBW USERSPACE LIBRARY FOR: add Patrisious Haddad as "
    "reviewer", "MAINTAINERS: OUTER INNER: add Rex Rev as reviewer"],
   "Pat for libw/ (3 tags on 12 commits), not libv/ (3 on 13); not Leo; "
   "Rex, de-facto in outer/in/, for OUTER INNER, which covers it, not "
   "for OUTER (its R: line would Cc him on all of outer/); "
   "the subject within 75 characters by the entry's name, never his")
pat = [p["subject"] for p in (r.json()["patch_files"] if r.rc == 0 else [])
       if "Patri" in p["subject"]]
ok(pat and all(len(t) <= 75 and "Patrisious Haddad as reviewer" in t
               for t in pat), "his name whole in every subject naming him, "
   "within 75 characters", pat)
doc = run("areas", "--repo", six, "--no-cache", "--json", "PKG", "LIBV",
          *SMALL).json()
leo = [p for p in doc["entries"][0]["areas"][0]["top"]
       if p["name"] == "Leo Whole"]
eq([(p["committed"], p["listed_elsewhere"], p["de_facto"]) for p in leo],
   [(4, "* OVERALL", False)], "PKG: Leo listed in * OVERALL, not de-facto")
eq(doc["entries"][1]["areas"][0]["flags"], ["unattended"],
   "LIBV: Pat's tags, on under a quarter of its commits: no de-facto flag")


def listed_not_defacto(repo, out, name, figure, why):
    """No recruit proposal for NAME, and areas calls them listed_then,
    not de-facto (FIGURE: the count of theirs areas shows, 4)."""
    r = run("recruit", "--repo", repo, "--no-cache", "-o",
            os.path.join(T, out), "--from", FROM, "--json", "OC", *SMALL,
            env=env)
    eq(r.json()["patch_files"] if r.rc == 0 else r.err, [],
       f"no proposal for {name.split()[0]}, {why}")
    doc = run("areas", "--repo", repo, "--no-cache", "--json", "OC",
              *SMALL).json()
    eq([(p[figure], p["listed_then"], p["de_facto"])
        for p in doc["entries"][0]["areas"][0]["top"]
        if p["name"] == name], [(4, True, False)],
       f"areas: {name.split()[0]} listed_then, not de-facto")


# Someone the entry listed when the window began, removed since (issue
# 37, real output: Xen's recruit proposed Christian Lindig back for
# OCAML TOOLS, whose M: he was until two months before the window's end,
# on the review tags he gave as its maintainer): no proposal; areas says
# listed_then.  Lin is M: of OC from 2018; the window (5 years to the
# last commit, 2025-01-02) begins 2020; Lin reviews oc/'s 4 changes of
# 2024 and is replaced by Ann at the end.
OC = "OC\nM:\t{}\nS:\tSupported\nF:\toc/\n\n" + TOP
LIN = "Lin Former <lin@example.org>"
stream = commit(ADA, 1514764800, "import", {
    "MAINTAINERS": OC.format(LIN), "oc/o.c": "o\n"})
stream += commit(ADA, 1600000000, "oc: old", {"oc/o.c": "old\n"})
for i in range(4):
    stream += commit(f"Au Thor{i} <au{i}@example.org>",
                     1720000000 + i * 86400,
                     f"oc: change {i}\n\nReviewed-by: {LIN}\n",
                     {"oc/o.c": f"{i}\n"})
stream += commit(ADA, 1735776000, "MAINTAINERS: OC: Ann for Lin",
                 {"MAINTAINERS": OC.format("Ann Au <ann@example.org>")})
seven = imported("seven.git", stream)
listed_not_defacto(seven, "out13", "Lin Former", "reviewed",
                   "whom OC listed when the window began")
# Listed in the middle of the window only (real output: DPDK's recruit
# proposed Paul Szczepanek for DTS, its maintainer from October 2024 to
# August 2025, on the patches he applied as such): no proposal either.
# OC lists Ann from 2020; Pam joins her in mid-2024, applies oc/'s four
# changes, and leaves before the window's end; MAINTAINERS spells her
# in capitals, as her commits do not.
PAM = "Pam Mid <pam@example.org>"
ANN = "Ann Au <ann@example.org>"
stream = commit(ADA, 1514764800, "import", {
    "MAINTAINERS": OC.format(ANN), "oc/o.c": "o\n"})
stream += commit(ADA, 1600000000, "oc: old", {"oc/o.c": "old\n"})
stream += commit(ADA, 1719000000, "MAINTAINERS: OC: add Pam",
                 {"MAINTAINERS": OC.format(ANN + "\nM:\tPAM MID "
                                           "<Pam@Example.ORG>")})
for i in range(4):
    stream += commit(f"Au Thor{i} <au{i}@example.org>",
                     1720000000 + i * 86400, f"oc: change {i}\n",
                     {"oc/o.c": f"{i}\n"}, committer=PAM)
stream += commit(ADA, 1735776000, "MAINTAINERS: OC: Pam leaves",
                 {"MAINTAINERS": OC.format(ANN)})
eight = imported("eight.git", stream)
listed_not_defacto(eight, "out14", "Pam Mid", "committed",
                   "whom OC listed for half a year of the window")
done()
