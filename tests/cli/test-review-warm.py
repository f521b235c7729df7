#!/usr/bin/env python3
"""review's K: answers kept in the store (model kind "review-k"): a run
through the store gives the JSON of --no-cache, cold, warm, after new
messages and after a MAINTAINERS change; the warm run takes its answers
from the store (a tampered table shows through), and a change of the K:
lines changes the key, so the tampered answers are no longer used.  A
damaged table is ignored, not a crash.  And path answers saved by a run
on another branch stay out of this branch's history paths.  The tree's
blob ids kept ("tree-blobs") are taken for a file that did not change,
never for one touched since."""
import hashlib
import json
import os
import sqlite3
import struct
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402
from mstest import result_row, result_put, result_plant, result_drop  # noqa: E402,E501
from mstest import result_crc, model_put  # noqa: E402

tmp = tmpdir()
# the tree of the blob ids' checks at the end, written first: a file
# changed in the last two seconds has its id hashed again, never kept
btree = os.path.join(tmp, "btree")
os.makedirs(os.path.join(btree, "drivers", "net"))
with open(os.path.join(btree, "drivers", "net", "a.c"), "w") as f:
    f.write("int a = 1;\n")
with open(os.path.join(btree, "MAINTAINERS"), "w") as f:
    f.write("NET\nM:\tNe T <ne@example.com>\nF:\tdrivers/net/\n")
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
    """The table replaced, its CRC recomputed (mstest.model_put): what is
    tested is review-map.c's own reading of it."""
    model_put(db, "review-k", data)


def varint(n):
    out = b""
    while True:
        out += bytes([(n & 0x7f) | (0x80 if n > 0x7f else 0)])
        n >>= 7
        if not n:
            return out


def get_var(data, p):
    n, shift = 0, 0
    while True:
        b = data[p]
        n |= (b & 0x7f) << shift
        p, shift = p + 1, shift + 7
        if not b & 0x80:
            return n, p


def records(data):
    """[(digest, [entries])] of a saved table."""
    out, p = [], 0
    while p < len(data):
        d = data[p:p + 20]
        n, p = get_var(data, p + 20)
        e = []
        for _ in range(n):
            x, p = get_var(data, p)
            e.append(x)
        out.append((d, e))
    return out


def pack(recs):
    return b"".join(d + varint(len(e)) + b"".join(varint(x) for x in e)
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
    result_drop(db)     # the finished result would answer first
    # and the map's answers kept with the mail snapshot (test-review-grow)
    con = sqlite3.connect(db)
    con.execute("DELETE FROM models WHERE kind = 'mail-snapshot'")
    con.commit()
    con.close()
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
                  ("huge count", data[:20] + varint(0xffffffff) +
                   data[21:])]:
    put_table(bad)
    result_drop(db)
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
# a commit only a tag reaches (a branch's tip would make its files the
# project's: docs/review.md, foreign_paths)
git("checkout", "-q", "--detach")
os.makedirs(os.path.join(work, "elsewhere"))
with open(os.path.join(work, "elsewhere", "only.c"), "w") as f:
    f.write("int only;\n")
git("add", ".")
git("commit", "-q", "-m", "a file only this tag has")
git("tag", "other")
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

# ---- the finished result (src/cli/cli-result.h): a warm run with the
# same inputs prints the saved result; any change of an input gives the
# fresh answer.  Each change is made after planting a marker as the saved
# result (with a valid CRC): a run that still prints the marker served a
# stale result.
rtree = os.path.join(tmp, "rtree")
os.makedirs(os.path.join(rtree, "drivers", "net"))
with open(os.path.join(rtree, "drivers", "net", "a.c"), "w") as f:
    f.write("int a;\n")


def write_rtree(extra=""):
    with open(os.path.join(rtree, "MAINTAINERS"), "w") as f:
        f.write("NET DRIVERS\nM:\tNe Tee <ne@example.com>\n" + extra +
                "F:\tdrivers/net/\n\n"
                "THE REST\nM:\tR <r@example.com>\nF:\t*\nF:\t*/\n")


write_rtree()
with open(os.path.join(rtree, ".mailmap"), "w") as f:
    f.write("Ne Tee <ne@example.com>\n")


def msg(mid, frm, subj, day, reply_to=None, diff=None):
    t = ("From x@y Mon Jan  2 10:00:00 2023\n"
         f"From: {frm}\nSubject: {subj}\nMessage-ID: <{mid}>\n"
         f"Date: Mon, {day} Jan 2023 10:00:00 +0000\n")
    if reply_to:
        t += f"In-Reply-To: <{reply_to}>\nReferences: <{reply_to}>\n"
    t += "\nbody\n"
    if diff:
        t += ("\nSigned-off-by: x <x@example.com>\n---\n"
              f"diff --git a/{diff} b/{diff}\n--- a/{diff}\n+++ b/{diff}\n"
              "@@ -0,0 +1 @@\n+int b;\n")
    return t + "\n"


rmbox = os.path.join(tmp, "r.mbox")
with open(rmbox, "w") as f:
    f.write(msg("n1@x", "Pa Tcher <pa@example.com>",
                "[PATCH] net: a fix", 2, diff="drivers/net/a.c") +
            msg("n2@x", "Ne Tee <ne2@example.com>", "Re: [PATCH] net: a fix",
                3, reply_to="n1@x") +
            msg("n3@x", "Pa Tcher <pa@example.com>",
                "[PATCH] new: a new driver", 4, diff="drivers/new/b.c"))
rdb = os.path.join(tmp, "r.sqlite")
# An archive changed in the last two seconds is keyed by its bytes too
# (its times might not move on the next write); from then on by stat
# alone.  A run crossing that moment computes again: the runs take their
# clock 3 s ahead (a test hook, docs/store.md; test-link-warm checks it),
# past that moment, so that the warm runs below are served.
os.environ["MS_TEST_CLOCK_AHEAD"] = "3"
KIND = {"json": "result:review:json", "text": "result:review:text"}


def rv(fmt, *extra, db=True):
    args = ["review", "--tree", rtree, "--archive", rmbox]
    args += ["--json"] if fmt == "json" else []
    args += ["--db", rdb] if db else ["--no-cache"]
    r = run(*args, *extra)
    ok(r.rc == 0 and not r.err, f"review ({fmt}) {' '.join(extra)} exits "
       "0 without a message", r.err)
    return r.out


def fresh(fmt, what, *extra):
    """After planting a marker: the run must print --no-cache's answer."""
    ok(result_plant(rdb, KIND[fmt]), f"{what}: a result was saved to "
       "plant over")
    want = rv(fmt, *extra, db=False)
    got = rv(fmt, *extra)
    eq(got, want, f"{what} ({fmt}): the fresh answer, = --no-cache")
    return got


for fmt in ("json", "text"):
    nc = rv(fmt, db=False)
    cold = rv(fmt)
    warm = rv(fmt)
    eq(cold, nc, f"{fmt}: cold = --no-cache, byte for byte")
    eq(warm, nc, f"{fmt}: warm = --no-cache, byte for byte")
    row = result_row(rdb, KIND[fmt])
    ok(row is not None and row[2].decode() == nc,
       f"{fmt}: the result is saved as printed")
    ok(row is not None and b"drivers/new/b.c" in row[1],
       f"{fmt}: with the tree's answers about the patches' paths")
    ok(result_plant(rdb, KIND[fmt]), f"{fmt}: plant a marker")
    eq(rv(fmt), "PLANTED RESULT\n", f"{fmt}: a warm run prints the saved "
       "result (it did not read the archive)")
base = json.loads(rv("json", db=False))
ok(base["entries"] and True, "the review has entries")

# damaged rows are ignored (and replaced)
key, facts, out, err = result_row(rdb, KIND["json"])
real_crc = result_crc(key, facts, out, err)
for what, f_, o_, crc in [("a byte changed", facts, out[:-2] + b"X\n",
                           real_crc),
                          ("a wrong CRC", facts, out, 12345),
                          ("facts cut short", facts[:-3], out, None)]:
    result_put(rdb, KIND["json"], key, f_, o_, err, crc)
    eq(rv("json"), rv("json", db=False), f"a damaged result ({what}) is "
       "ignored")
import sqlite3  # noqa: E402
con = sqlite3.connect(rdb)
con.execute("UPDATE models SET data = substr(data, 1, 40) WHERE kind = "
            "'result' AND key = ?", (key,))
con.commit()
con.close()
eq(rv("json"), rv("json", db=False), "a truncated result is ignored")
ok(result_row(rdb, KIND["json"])[2] == rv("json", db=False).encode(),
   "and replaced by the run's")

for fmt in ("json", "text"):
    rv(fmt)     # saved again, then each change
    # the same bytes, touched: the key changes (size/mtime/inode)
    os.utime(rmbox, (1672700000, 1672700000))
    fresh(fmt, "archive touched, same bytes")
    # a tree file a patch names appears: the tree's answers change
    os.makedirs(os.path.join(rtree, "drivers", "new"), exist_ok=True)
    with open(os.path.join(rtree, "drivers", "new", "b.c"), "w") as f:
        f.write("int b;\n")
    got = fresh(fmt, "a file a patch touches appears in the tree")
    os.remove(os.path.join(rtree, "drivers", "new", "b.c"))
    os.rmdir(os.path.join(rtree, "drivers", "new"))
    fresh(fmt, "and disappears")
    write_rtree(f"R:\tRe Viewer <rev-{fmt}@example.com>\n")
    got = fresh(fmt, "MAINTAINERS edited")
    ok(f"rev-{fmt}@example.com" in got, f"{fmt}: the new R: shows")
    with open(os.path.join(rtree, ".mailmap"), "w") as f:
        f.write(f"Ne Tee {fmt} <ne@example.com> <ne2@example.com>\n")
    fresh(fmt, ".mailmap edited")
    aliases = os.path.join(tmp, "aliases")
    with open(aliases, "w") as f:
        f.write("pa@example.com pa@elsewhere.example\n")
    rv(fmt, "--aliases", aliases)
    with open(aliases, "w") as f:
        f.write("ne2@example.com ne@example.com\n")
    fresh(fmt, "--aliases file edited", "--aliases", aliases)
    fresh(fmt, "another option (--target 1h)", "--target", "1h")
    fresh(fmt, "another --since", "--since", "2023-01-03")
    before = rv(fmt, db=False)
    with open(rmbox, "a") as f:
        f.write(msg(f"n9{fmt}@x", "Ne Tee <ne@example.com>",
                    f"[PATCH] net: another fix {fmt}", 5,
                    diff="drivers/net/a.c"))
    got = fresh(fmt, "new mail appended")
    ok(got != before, f"{fmt}: the new patch changes the answer")

# a run that warns keeps its warnings with its output: the warm run
# prints both, as the cold run did
write_rtree("Z:\tan unknown field\n")


def rv_err(*extra):
    r = run("review", "--tree", rtree, "--archive", rmbox, "--json", *extra)
    ok(r.rc == 0, "review with a warning exits 0", r.err)
    return r.out, r.err


nc_out, nc_err = rv_err("--no-cache")
ok("unknown field 'Z:'" in nc_err and "MAINTAINERS:3" in nc_err,
   "the unknown field is warned about, with its file:line", nc_err)
eq(rv_err("--db", rdb), (nc_out, nc_err), "warning: cold = --no-cache, "
   "stdout and stderr")
eq(rv_err("--db", rdb), (nc_out, nc_err), "warning: warm = --no-cache, "
   "stdout and stderr")
row = result_row(rdb, KIND["json"])
ok(row is not None and b"unknown field 'Z:'" in row[3],
   "the warning is saved with the result")
ok(result_plant(rdb, KIND["json"]), "warning: plant a marker")
eq(rv_err("--db", rdb), ("PLANTED RESULT\n", nc_err), "warning: the warm "
   "run is served, and prints the saved warning")
write_rtree()

# a repository: a new commit changes the answer's key
rwork = os.path.join(tmp, "rwork")
os.makedirs(os.path.join(rwork, "drivers", "net"))
with open(os.path.join(rwork, "MAINTAINERS"), "w") as f:
    f.write("NET DRIVERS\nM:\tNe Tee <ne@example.com>\nF:\tdrivers/net/\n")
with open(os.path.join(rwork, "drivers", "net", "a.c"), "w") as f:
    f.write("int a;\n")
subprocess.run(["git", "-C", rwork, "init", "-q", "-b", "main"], check=True)
for i, (what, ddir) in enumerate([("start", "drivers/net"),
                                  ("net: a fix", "drivers/net")]):
    with open(os.path.join(rwork, ddir, "a.c"), "a") as f:
        f.write(f"int x{i};\n")
    subprocess.run(["git", "-C", rwork, "add", "."], check=True)
    subprocess.run(["git", "-C", rwork, "commit", "-q", "-m", what],
                   check=True, env=dict(genv, GIT_AUTHOR_NAME="Pa Tcher",
                                        GIT_AUTHOR_EMAIL="pa@example.com"))
rgit = os.path.join(rwork, ".git")


def rv_repo(*extra, db=True):
    r = run("review", "--repo", rgit, "--archive", rmbox, "--json",
            *(["--db", rdb] if db else ["--no-cache"]), *extra)
    ok(r.rc == 0, "review --repo exits 0", r.err)
    return r.out


eq(rv_repo(), rv_repo(db=False), "--repo: cold = --no-cache")
eq(rv_repo(), rv_repo(db=False), "--repo: warm = --no-cache")
ok(result_plant(rdb, KIND["json"]), "--repo: plant a marker")
eq(rv_repo(), "PLANTED RESULT\n", "--repo: the warm run is served")
with open(os.path.join(rwork, "MAINTAINERS"), "a") as f:
    f.write("R:\tRe Viewer <rev@example.com>\n")
subprocess.run(["git", "-C", rwork, "commit", "-q", "-a", "-m", "add R"],
               check=True, env=genv)
got = rv_repo()
eq(got, rv_repo(db=False), "--repo: after a new commit, = --no-cache")
ok("rev@example.com" in got, "--repo: the new commit's R: shows")

# The tree's blob ids kept (model kind "tree-blobs"): a patch whose
# pre-image blob is the tree's file is the project's, though its subject
# names u-boot.  A run takes the kept id of a file that answers fstat()
# as it did (a tampered id shows through), and hashes a touched one again.
with open(os.path.join(btree, "drivers", "net", "a.c"), "rb") as f:
    content = f.read()
blob = hashlib.sha1(b"blob %d\0" % len(content) + content).hexdigest()
bmbox = os.path.join(tmp, "blob.mbox")
with open(bmbox, "w") as f:
    f.write("From x@y Mon Jan  2 10:00:00 2023\nFrom: P <p@example.com>\n"
            "Subject: [PATCH] u-boot: net: change a\n"
            "Message-ID: <b1@example.com>\n"
            "Date: Mon, 2 Jan 2023 10:00:00 +0000\n\nchange\n---\n"
            "diff --git a/drivers/net/a.c b/drivers/net/a.c\n"
            f"index {blob[:12]}..0123456789ab 100644\n"
            "--- a/drivers/net/a.c\n+++ b/drivers/net/a.c\n"
            "@@ -1 +1 @@\n-int a = 1;\n+int a = 2;\n\n")
bdb = os.path.join(tmp, "b.sqlite")
age = time.time() - os.stat(os.path.join(btree, "drivers", "net",
                                         "a.c")).st_ctime
time.sleep(max(0.0, 2.2 - age))


def kept(*db):
    r = run("review", "--tree", btree, "--archive", bmbox, "--json", *db)
    ok(r.rc == 0, "review of the blob tree exits 0", r.err)
    result_drop(bdb)     # the next run computes
    return json.loads(r.out)["kept_by_blobs"], r.out


eq(kept("--db", bdb)[0], 1, "blobs: the tree's file is the pre-image")
con = sqlite3.connect(bdb)
row = con.execute("SELECT key, data FROM models WHERE kind = "
                  "'tree-blobs'").fetchone()
con.close()
ok(row is not None and row[0] == os.path.realpath(btree) and
   blob.encode() in row[1], "blobs: the file's id is kept, under the "
   "tree's real path")
if row:
    model_put(bdb, "tree-blobs", row[1].replace(blob.encode(), b"f" * 40),
              key=row[0])
eq(kept("--db", bdb)[0], 0, "blobs: a file that did not change is not "
   "read again (the tampered id shows)")
os.utime(os.path.join(btree, "drivers", "net", "a.c"))
got = kept("--db", bdb)
eq(got, kept("--no-cache"), "blobs: a touched file is hashed again: "
   "= --no-cache")
eq(got[0], 1, "blobs: ... and is the pre-image again")
done()
