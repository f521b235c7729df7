#!/usr/bin/env python3
"""review's K: answers kept in the store (model kind "review-k"): a run
through the store gives the JSON of --no-cache, cold, warm, after new
messages and after a MAINTAINERS change; the warm run takes its answers
from the store (a tampered table shows through), and a change of the K:
lines changes the key, so the tampered answers are no longer used.  A
damaged table is ignored, not a crash.  And path answers saved by a run
on another branch stay out of this branch's history paths."""
import json
import os
import sqlite3
import struct
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "drivers"))
open(os.path.join(tree, "drivers", "x.c"), "w").close()
maint = os.path.join(tree, "MAINTAINERS")


def write_maintainers(alpha_k, beta_k):
    with open(maint, "w") as f:
        f.write("ALPHA\nM:\tAl Pha <al@example.com>\nK:\t%s\n\n"
                "BETA\nM:\tBe Ta <be@example.com>\nK:\t%s\n\n"
                "THE REST\nM:\tR <r@example.com>\nF:\t*\nF:\t*/\n"
                % (alpha_k, beta_k))


def patch(n, word, day):
    return ("From x@y Mon Jan  2 10:00:00 2023\n"
            f"From: P{n} <p{n}@example.com>\n"
            f"Subject: [PATCH] drivers: change {n}\n"
            f"Message-ID: <p{n}@example.com>\n"
            f"Date: Mon, {day} Jan 2023 10:00:00 +0000\n\nchange\n\n"
            f"Signed-off-by: P{n} <p{n}@example.com>\n---\n"
            "diff --git a/drivers/x.c b/drivers/x.c\n"
            "--- a/drivers/x.c\n+++ b/drivers/x.c\n@@ -0,0 +1 @@\n"
            f"+int {word} = {n};\n\n")


mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as f:
    f.write(patch(1, "alpha_reg", 2) + patch(2, "beta_reg", 3) +
            patch(3, "gamma_reg", 4))
db = os.path.join(tmp, "store.sqlite")
write_maintainers("alpha_reg", "beta_reg")


def review(*extra):
    r = run("review", "--tree", tree, "--archive", mbox, "--json", *extra)
    ok(r.rc == 0, "review %s exits 0" % " ".join(extra), r.err)
    return r.out


def patches(out, name):
    for e in json.loads(out)["entries"]:
        if e["name"] == name:
            return sorted(p["message_id"] for p in e["patch_list"])
    return []


def k_table():
    con = sqlite3.connect(db)
    row = con.execute("SELECT key, data FROM models WHERE kind = ?",
                      ("review-k",)).fetchone()
    con.close()
    return row


def put_table(data):
    con = sqlite3.connect(db)
    con.execute("UPDATE models SET data = ? WHERE kind = ?",
                (data, "review-k"))
    con.commit()
    con.close()


def records(data):
    """[(digest, [entries])] of a saved table."""
    out, p = [], 0
    while p < len(data):
        n = struct.unpack_from("=I", data, p + 20)[0]
        out.append((data[p:p + 20],
                    list(struct.unpack_from("=%dI" % n, data, p + 24))))
        p += 24 + 4 * n
    return out


def pack(recs):
    return b"".join(d + struct.pack("=I%dI" % len(e), len(e), *e)
                    for d, e in recs)


want = review("--no-cache")
eq(patches(want, "ALPHA"), ["p1@example.com"], "K: alpha_reg maps patch 1")
eq(patches(want, "BETA"), ["p2@example.com"], "K: beta_reg maps patch 2")
eq(review("--db", db), want, "cold run through the store = --no-cache")
row = k_table()
ok(row is not None, "the K: answers are saved (kind review-k)")
recs = records(row[1]) if row else []
eq(sorted(len(e) for _, e in recs), [0, 1, 1],
   "one answer per patch: none, ALPHA, BETA")
eq(review("--db", db), want, "warm run = --no-cache")
eq(records(k_table()[1]) if row else None, recs,
   "a warm run with nothing new saves nothing more")

# the warm run takes its answers from the store: swap the two answers
if len(recs) == 3:
    ones = [i for i, (_, e) in enumerate(recs) if len(e) == 1]
    swapped = list(recs)
    a, b = ones
    swapped[a], swapped[b] = (recs[a][0], recs[b][1]), (recs[b][0],
                                                        recs[a][1])
    put_table(pack(swapped))
    out = review("--db", db)
    eq((patches(out, "ALPHA"), patches(out, "BETA")),
       (["p2@example.com"], ["p1@example.com"]),
       "the warm run answers from the store (swapped answers show)")

# a change of K: lines changes the key: every patch matched again
write_maintainers("gamma_reg", "beta_reg")
want2 = review("--no-cache")
eq(patches(want2, "ALPHA"), ["p3@example.com"],
   "after the change K: gamma_reg maps patch 3")
eq(review("--db", db), want2, "after a MAINTAINERS change: = --no-cache "
   "(the swapped answers are not used)")
row2 = k_table()
ok(row2 is not None and row is not None and row2[0] != row[0],
   "the K: table's key changed with the K: lines")
eq(review("--db", db), want2, "warm after the change = --no-cache")

# a new message: only it is matched, the result still = --no-cache
with open(mbox, "a") as f:
    f.write(patch(4, "gamma_reg", 5))
want3 = review("--no-cache")
eq(patches(want3, "ALPHA"), ["p3@example.com", "p4@example.com"],
   "the new patch 4 maps to ALPHA")
eq(review("--db", db), want3, "warm after a new message = --no-cache")
eq(len(records(k_table()[1])), 4, "its answer is added to the table")

# damaged tables: cut short, an entry index out of range, a huge count
data = k_table()[1]
for what, bad in [("cut short", data[:-3]),
                  ("entry out of range",
                   pack([(d, [9999]) for d, _ in records(data)])),
                  ("huge count", data[:20] + struct.pack("=I", 0xffffffff)
                   + data[24:])]:
    put_table(bad)
    eq(review("--db", db), want3, f"a damaged table ({what}) is ignored")

# Path answers saved by a run on another branch (activity-paths, keyed by
# the MAINTAINERS fingerprint, the same on both branches) must not count
# as paths of this branch's history (ms_activity_foreach_path): review's
# patch to a file only the other branch has stays another project's.
work = os.path.join(tmp, "work")
genv = dict(os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@example.com",
            GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@example.com",
            GIT_AUTHOR_DATE="1672600000 +0000",
            GIT_COMMITTER_DATE="1672600000 +0000")


def git(*args):
    subprocess.run(["git", "-C", work, *args], check=True, env=genv,
                   stdout=subprocess.DEVNULL)


os.makedirs(os.path.join(work, "drivers"))
with open(os.path.join(work, "MAINTAINERS"), "w") as f:
    f.write("ALPHA\nM:\tAl Pha <al@example.com>\nF:\tdrivers/\n"
            "K:\tmagic_word\n")
with open(os.path.join(work, "drivers", "x.c"), "w") as f:
    f.write("int x;\n")
git("init", "-q", "-b", "main")
git("add", ".")
git("commit", "-q", "-m", "start")
git("checkout", "-q", "-b", "other")
os.makedirs(os.path.join(work, "elsewhere"))
with open(os.path.join(work, "elsewhere", "only.c"), "w") as f:
    f.write("int only;\n")
git("add", ".")
git("commit", "-q", "-m", "a file only this branch has")
git("checkout", "-q", "main")
pmbox = os.path.join(tmp, "paths.mbox")
with open(pmbox, "w") as f:
    f.write("From x@y Mon Jan  2 10:00:00 2023\n"
            "From: P <p@example.com>\nSubject: [PATCH] elsewhere: only\n"
            "Message-ID: <only@example.com>\n"
            "Date: Mon, 2 Jan 2023 10:00:00 +0000\n\nonly\n\n"
            "Signed-off-by: P <p@example.com>\n---\n"
            "diff --git a/elsewhere/only.c b/elsewhere/only.c\n"
            "--- a/elsewhere/only.c\n+++ b/elsewhere/only.c\n"
            "@@ -1 +1 @@\n-int only;\n+int magic_word;\n\n")
pdb = os.path.join(tmp, "paths.sqlite")
gitdir = os.path.join(work, ".git")


def review_main(*extra):
    r = run("review", "--repo", gitdir, "--rev", "main", "--archive", pmbox,
            "--json", *extra)
    ok(r.rc == 0, "review --rev main %s exits 0" % " ".join(extra), r.err)
    return json.loads(r.out) if r.rc == 0 else {}


want = review_main("--no-cache")
eq(want.get("set_aside", {}).get("foreign_paths"), 1, "on main, the patch to elsewhere/ "
   "(K: magic_word, ALPHA's) is another project's: set aside")
r = run("activity", "--repo", gitdir, "--rev", "other", "--json", "--db", pdb)
ok(r.rc == 0, "activity on the other branch fills the store", r.err)
con = sqlite3.connect(pdb)
saved = con.execute("SELECT data FROM models WHERE kind = ?",
                    ("activity-paths",)).fetchone()
con.close()
ok(saved is not None and b"elsewhere/only.c\0" in saved[0],
   "the other branch's path answer is saved (activity-paths)")
got = review_main("--db", pdb)
eq(got.get("set_aside", {}).get("foreign_paths"), 1, "on main through that store: "
   "still set aside (the saved answer is not a path of main's history)")
eq(got, want, "... and the report = --no-cache")
done()
