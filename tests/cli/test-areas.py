#!/usr/bin/env python3
"""maintstat areas on the planted repository of fixtures/gen/gen-areas.py:
a broad entry whose maintainer works in one subdirectory while another
person does all the work in a second, a dormant third, a file pattern, an
inner entry taking part of the tree; an entry with only N: patterns,
overlapping F: lines, an area changed only by a merge, --split-commits 0;
and the same answers through the store, also after a new commit."""
import datetime
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (SCHEMA, run, ok, eq, done, tmpdir,  # noqa: E402
                    SOURCE_ROOT, git_commit)

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


def areas(*args, db=None):
    r = run("areas", "--repo", repo, *args,
            *(["--db", db] if db else ["--no-cache"]), "--json")
    eq(r.rc, 0, "areas %s exits 0" % " ".join(args))
    return r.json()


def by_path(doc, entry):
    for e in doc["entries"]:
        if e["name"] == entry:
            return e, {a["path"]: a for a in e["areas"]}
    return None, {}


doc = areas()
eq(doc["schema_version"], SCHEMA, "schema_version")
eq(doc["window"]["since"][:10], "2019-06-01", "window since, as activity")
eq(doc["window"]["until"][:10], "2024-06-01", "window until")
broad, a = by_path(doc, "BROAD ENTRY")
eq(sorted(a), ["drivers/broad/*", "drivers/broad/dormant/",
               "drivers/broad/inner/", "drivers/broad/mia/",
               "drivers/broad/work/", "include/broad.h"],
   "BROAD ENTRY cut into its directories, its own files and a file")
eq(list(a)[0], "drivers/broad/work/", "areas sorted by commits")
eq(broad["commits"], 82, "BROAD ENTRY: 82 commits (X: leaves 5 out)")
eq(sum(x["commits"] for x in a.values()), 82,
   "each commit counted in one area here")
w = a["drivers/broad/work/"]
eq((w["files"], w["commits"], w["reviewed"]), (3, 30, 10),
   "the worked directory: files, commits, reviewed")
eq(w["flags"], ["unattended", "de-facto"],
   "no listed person there, Wes does it all")
top = {t["name"]: t for t in w["top"]}
eq((top["Wes Worker"]["authored"], top["Wes Worker"]["committed"],
    top["Wes Worker"]["de_facto"]), (30, 30, True), "Wes, de-facto")
eq((top["Rhea Rev"]["reviewed"], top["Rhea Rev"]["de_facto"]), (10, True),
   "Rhea reviews all the reviewed ones")
eq(len(top["Wes Worker"]["examples"]), 3, "example commits kept")
eq([(x["name"], x["last_authored"]) for x in w["people"]],
   [("Mia Maint", None), ("Ray Listed", None)],
   "the listed people never worked there")
m = a["drivers/broad/mia/"]
eq((m["files"], m["commits"], m["reviewed"], m["flags"]), (2, 25, 5, []),
   "the maintainer's directory")
ray = [x for x in m["people"] if x["name"] == "Ray Listed"][0]
eq((ray["last_authored"], ray["last_tagged"]["count"]), (None, 5), "Ray tags 5 there")
i = a["drivers/broad/inner/"]
eq((i["commits"], i["flags"]), (22, []),
   "the inner entry's people attend their part")
eq(i["also_covered_by"], [{"name": "BROAD INNER", "commits": 22}],
   "files an inner entry covers still count, and it is named")
eq([(t["name"], t["listed_elsewhere"], t["de_facto"]) for t in i["top"]],
   [("Ian Inner", "BROAD INNER", False)], "Ian: listed in BROAD INNER")
d = a["drivers/broad/dormant/"]
eq((d["files"], d["commits"], d["flags"]), (2, 0, ["dormant"]),
   "the dormant directory")
eq(d["people"][0]["last_authored"]["date"][:10], "2016-09-14",
   "Mia's last commit there, before the window")
eq((a["drivers/broad/*"]["files"], a["drivers/broad/*"]["commits"]), (1, 3),
   "the directory's own files")
eq((a["include/broad.h"]["files"], a["include/broad.h"]["commits"]),
   (1, 2), "the file pattern")
ok(not any("excluded" in p for p in a), "X: excluded directory left out")

_, k = by_path(doc, "KEYWORD ONLY")
eq([(p, x["files"], x["commits"]) for p, x in k.items()],
   [("N: keyword", 1, 4)], "an entry with only N: patterns: one area")
_, o = by_path(doc, "OVERLAP")
eq([(p, x["files"], x["commits"]) for p, x in o.items()],
   [("lib/over/", 3, 6)], "overlapping F: lines: one area, counted once")
_, mo = by_path(doc, "MERGE ONLY")
eq([(p, x["commits"], x["flags"]) for p, x in mo.items()],
   [("tools/mergeonly/", 0, ["dormant"])],
   "an area changed only by a merge: no commit (merges left out)")
_, mo = by_path(areas("--merges", "MERGE ONLY"), "MERGE ONLY")
eq(mo["tools/mergeonly/"]["commits"], 1, "--merges counts the merge")

_, a0 = by_path(areas("--split-commits", "0", "BROAD ENTRY"), "BROAD ENTRY")
eq(sorted(a0), sorted(a), "--split-commits 0: nothing left to cut")
_, a100 = by_path(areas("--split-commits", "100", "BROAD ENTRY"), "BROAD ENTRY")
eq([(p, x["commits"]) for p, x in a100.items()],
   [("drivers/broad/", 80), ("include/broad.h", 2)],
   "--split-commits 100: the patterns' areas, not cut")
# --by: each area's figures per interval (the areas are the window's);
# uncut (--split-commits 100), an interval's figures are those of a
# window of its own, and they add up to the window's.
byd = areas("--by", "year", "--split-commits", "100", "BROAD ENTRY")
_, ab = by_path(byd, "BROAD ENTRY")
eq(sorted(ab), ["drivers/broad/", "include/broad.h"], "--by: the same areas")
checked = 0
for path, x in ab.items():
    ivs = x.get("intervals") or []
    eq(len(ivs), 6, "%s: six intervals, 2019 to 2024" % path)
    eq(sum(i["commits"] or 0 for i in ivs), x["commits"],
       "%s: the intervals' commits add up to the window's" % path)
    for iv in ivs:
        if iv["commits"] is None:
            ok(all(iv[k] is None for k in ("reviewed", "people", "top",
                                           "flags")),
               "%s from %s: no commits, every figure null" % (path,
                                                             iv["start"]))
            continue
        end = datetime.datetime.fromisoformat(iv["end"])
        until = (end - datetime.timedelta(seconds=1)).isoformat()
        _, one = by_path(areas("--since", iv["start"], "--until", until,
                               "--split-commits", "100", "BROAD ENTRY"),
                         "BROAD ENTRY")
        w = one[path]
        eq((iv["commits"], iv["reviewed"], iv["flags"]),
           (w["commits"], w["reviewed"], w["flags"]),
           "%s from %s: commits, reviewed, flags as its own window"
           % (path, iv["start"]))
        eq([(t["name"], t["authored"], t["committed"], t["reviewed"],
             t["de_facto"]) for t in iv["top"]],
           [(t["name"], t["authored"], t["committed"], t["reviewed"],
             t["de_facto"]) for t in w["top"]],
           "%s from %s: the top people as its own window" % (path,
                                                            iv["start"]))
        eq([(p["name"], p["authored"], p["committed"], p["tagged"])
            for p in iv["people"]],
           [(p["name"], *((p[k] or {}).get("count", 0)
                          for k in ("last_authored", "last_committed",
                                    "last_tagged")))
            for p in w["people"]],
           "%s from %s: the listed people's counts" % (path, iv["start"]))
        checked += 1
eq(checked, 3, "three intervals with commits compared")
# THE REST (F: *, F: */): the whole tree, cut once into its top-level
# directories (drivers/ holds far more than 20 commits, in several parts,
# and is not cut); the files at the top are F: *'s area
rest, ra = by_path(doc, "THE REST")
eq(sorted(ra), ["*", "drivers/", "include/", "lib/", "scripts/", "tools/"],
   "THE REST: its top-level directories and the top's files")
eq(ra["scripts/"]["flags"], ["unattended", "de-facto"],
   "scripts/: only Sam works there, and nobody lists him")
eq(ra["tools/"]["flags"], ["dormant"], "tools/: only a merge")
ok(ra["drivers/"]["commits"] > 40 and ra["drivers/"]["flags"] == [],
   "drivers/: attended through the entries inside it; Rhea's 10 review "
   "tags, all its reviewed commits' but on under a quarter of its commits, "
   "make her no de-facto reviewer", str(ra["drivers/"]))
r = run("areas", "--repo", repo, "--no-cache", "--by", "year",
        "KEYWORD ONLY")
ok(r.rc == 0 and "By interval:" in r.out and "2021-01-01" in r.out,
   "--by in text: a table per area", r.out)
r = run("areas", "--repo", repo, "--no-cache", "--by", "fortnight")
eq(r.rc, 2, "--by fortnight is a usage error")

r = run("areas", "--repo", repo, "--split-commits", "-1", "--no-cache")
eq(r.rc, 2, "a negative --split-commits is a usage error")
r = run("areas", "--repo", repo, "NO SUCH ENTRY", "--no-cache")
eq(r.rc, 2, "an unknown entry is a usage error")

r = run("areas", "--repo", repo, "--no-cache")
eq(r.rc, 0, "text exits 0")
ok("KEYWORD ONLY: one area, N: keyword: 1 file, 4 commits" in r.out,
   "a one-area entry in one line", r.out)
ok("also covered: BROAD INNER (22 of the commits)" in r.out,
   "the text names the inner entry", r.out)
ok("get_maintainer.pl names both" in r.out, "and says why")

# Through the store: the same, also after a new commit (its paths from
# the walk, the others' from the store's row).
db = os.path.join(T, "store.sqlite")
work = os.path.join(T, "work")
subprocess.run(["git", "clone", "-q", "--bare", repo, work], check=True)
repo = work
cold = run("areas", "--repo", repo, "--db", db, "--json")
warm = run("areas", "--repo", repo, "--db", db, "--json")
eq(warm.out, cold.out, "a warm run answers as the cold one")
clone = os.path.join(T, "clone")
subprocess.run(["git", "clone", "-q", work, clone], check=True)
git_commit(clone, "drivers/broad/work/x.c", "new\n", "work: new",
           "Wes Worker", "wes@example.net", 1717243200 + 3600)
subprocess.run(["git", "-C", clone, "push", "-q", "origin", "HEAD:main"],
               check=True, capture_output=True)
after = run("areas", "--repo", repo, "--db", db, "--json",
            env={"MS_AREAS_TRACE": "1"})
ok("paths of 1 commits from the walk, 114 from the store" in after.err,
   "after a new commit: only it is walked", after.err)
fresh = run("areas", "--repo", repo, "--no-cache", "--json")
eq(after.json(), fresh.json(), "and the answer is the cold one")
# one new commit does not rewrite the row: the next run (another command
# line, so no kept result) reads its paths from git again
again = run("areas", "--repo", repo, "--db", db, "--json", "--by", "year",
            env={"MS_AREAS_TRACE": "1"})
ok("paths of 0 commits from the walk, 114 from the store, 1 read from git"
   in again.err, "the row is not rewritten for one new commit", again.err)
eq(again.json()["entries"], run("areas", "--repo", repo, "--no-cache",
                                "--json", "--by", "year").json()["entries"],
   "and the answer is still the cold one")
_, a2 = by_path(after.json(), "BROAD ENTRY")
eq(a2["drivers/broad/work/"]["commits"], 31, "the new commit counted")

# Tree-wide commits and a subtree's history, as U-Boot has them: Wide
# Rev reviewed only commits touching all 12 entries (as "global: Move
# remaining CONFIG_SYS_* to CFG_SYS_*" does, 744 files), which count in
# the figures but make no one de-facto; Rob Rev reviewed d1's own
# commits, and is.  library/ (a merged subtree's own paths) has no file
# in the tree: no area of THE REST.
ents = "".join(f"E{i}\nM:\tL{i} <l{i}@example.org>\nF:\td{i}/\n\n"
               for i in range(12))
ents += "GONE\nM:\tL0 <l0@example.org>\nF:\tgone.h\n\n"
top = ents + "THE REST\nM:\tTom Rest <tom@example.org>\nF:\t*\nF:\t*/\n"
stream, when = b"", 1700000000


def fi_commit(who, msg, files, delete=()):
    global stream, when
    when += 86400
    m = msg.encode()
    stream += (f"commit refs/heads/main\nauthor {who} {when} +0000\n"
               f"committer {who} {when} +0000\ndata {len(m)}\n").encode() + m
    for path, text in files.items():
        d = text.encode()
        stream += f"\nM 100644 inline {path}\ndata {len(d)}\n".encode() + d
    for path in delete:
        stream += f"\nD {path}".encode()
    stream += b"\n\n"


TOM = "Tom Rest <tom@example.org>"
fi_commit(TOM, "import", dict({"MAINTAINERS": top}, **{
    f"d{i}/f.c": "0\n" for i in range(12)}))
for k in range(4):
    fi_commit(TOM, f"global: change {k}\n\nReviewed-by: Wide Rev "
              "<wide@example.net>\n", {f"d{i}/f.c": f"{k + 1}\n"
                                        for i in range(12)})
    fi_commit("L1 <l1@example.org>", f"d1: change {k}\n\nReviewed-by: Rob "
              "Rev <rob@example.net>\n", {"d1/g.c": f"{k}\n"})
for k in range(3):
    fi_commit(TOM, f"gone: change {k}\n\nReviewed-by: Rob Rev "
              "<rob@example.net>\n", {"gone.h": f"{k}\n"})
fi_commit(TOM, "gone: removed", {}, ["gone.h"])
fi_commit(TOM, "library: import", {"library/x.c": "x\n"})
fi_commit(TOM, "library: gone", {}, ["library/x.c"])
wide = os.path.join(T, "wide.git")
subprocess.run(["git", "init", "-q", "--bare", "-b", "main", wide],
               check=True)
subprocess.run(["git", "--git-dir", wide, "fast-import", "--quiet"],
               input=stream, check=True)
doc = run("areas", "--repo", wide, "--no-cache", "--json", "--split-commits",
          "2").json()
ar = {(e["name"], a["path"]): a for e in doc["entries"] for a in e["areas"]}
eq(ar[("E0", "d0/")]["reviewed"], 4, "E0: the tree-wide commits counted")
ok("de-facto" not in ar[("E0", "d0/")]["flags"] and
   not [p for p in ar[("E0", "d0/")]["top"] if p["de_facto"]],
   "but their reviewer is no de-facto reviewer", ar[("E0", "d0/")])
ok([p["name"] for p in ar[("E1", "d1/")]["top"] if p["de_facto"]] ==
   ["Rob Rev"], "d1's own reviewer is", ar[("E1", "d1/")])
ok(ar[("GONE", "gone.h")]["files"] == 0 and
   not [p for p in ar[("GONE", "gone.h")]["top"] if p["de_facto"]],
   "no one is de-facto for a file the tree no longer has",
   ar[("GONE", "gone.h")])
ok(("THE REST", "library/") not in ar,
   "no area of THE REST for a top-level directory with no file",
   sorted(k for k in ar if k[0] == "THE REST"))
done()
