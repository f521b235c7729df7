#!/usr/bin/env python3
"""activity after new commits walks only them: the model saved by the last
run (another commit) is the tail of the walk when its commits are exactly
the rest of the walk order and nothing it depends on changed (options,
MAINTAINERS, .mailmap).  Every report equals --no-cache's: new people and
new reviews, a branch of old dates merged (the tail no longer fits), a
.mailmap change, a MAINTAINERS change, an older revision.  A planted name
in the saved model shows that the old commits came from it."""
import os
import sqlite3
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, run_reused, ok, done, git_commit,  # noqa: E402
                    planted_clone, model_put)

tmp, repo, work = planted_clone()
db = os.path.join(tmp, "store.sqlite")
when = [1717300000]


def fresh_db():
    """Start the store over: the database and SQLite's -wal and -shm."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)


def commit(path, content, msg, name="Zed New", email="zed@example.org",
           date=None):
    if date is None:
        when[0] += 3600
        date = when[0]
    git_commit(work, path, content, msg, name, email, date)


def push():
    subprocess.run(["git", "-C", work, "push", "-q", "origin",
                    "HEAD:refs/heads/main"], check=True)


def same(what, *extra):
    want = run_reused("activity", "--repo", repo, "--json", "--no-cache",
                      *extra)
    got = run("activity", "--repo", repo, "--json", "--db", db, *extra)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out,
       f"{what}: the report of --no-cache", got.err + want.err)
    return got.out


# the saved model's rows: the whole one (kind 'activity') and the parts
# after it (kind 'activity-part', each keyed by the key of the row before
# it; a part holds its head (168 bytes), then its own key (64), ...;
# src/metrics/activity-model.c), named here 'activity', 'activity-part-1',
# ... in chain order.  (kind, key, data) each.
PART_KEY = 168


def chain():
    c = sqlite3.connect(db)
    whole = c.execute("SELECT key, data FROM models WHERE kind = "
                      "'activity'").fetchall()
    parts = dict(c.execute("SELECT key, data FROM models WHERE kind = "
                           "'activity-part'").fetchall())
    c.close()
    out = [("activity", whole[0][0], whole[0][1])] if whole else []
    k = whole[0][0] if whole else None
    while k in parts:
        d = parts.pop(k)
        out.append(("activity-part", k, d))
        k = d[PART_KEY:PART_KEY + 64].decode()
    return out


def rows():
    return {("activity" if i == 0 else f"activity-part-{i}"): d
            for i, (_, _, d) in enumerate(chain())}


def model():
    return b"".join(rows().values())


def plant(old, new, fix_sum=True):
    """Replace `old` by `new` in the saved rows, with the CRC the store
    checks recomputed unless fix_sum is False (a damaged row)."""
    for kind, key, data in chain():
        d = data.replace(old, new)
        if d != data:
            model_put(db, kind, d, key, None if fix_sum else 1)


subprocess.run(["git", "-C", work, "checkout", "-q", "-B", "main",
                "origin/main"], check=True)
same("cold")
same("warm, nothing new")
ok(b"Tess Tester" in model(), "the saved model names Tess Tester")
# the old commits come from the saved model: a planted name shows
plant(b"Tess Tester", b"Tess Testex")
commit("drivers/alpha/new.c", "x\n", "alpha: new\n\n"
       "Reviewed-by: Rex External <rex@example.net>\n")
push()
r = run("activity", "--repo", repo, "--json", "--db", db)
ok(r.rc == 0 and "Tess Testex" in r.out,
   "after a new commit the old ones come from the saved model (the "
   "planted name shows), only the new one is walked", r.err)
# a .mailmap change: the saved model no longer fits, a full walk
commit(".mailmap", "Tess Tester <tess@example.net> <tess@old.example.net>\n",
       "mailmap: tess\n")
push()
out = same("after a .mailmap change (a full walk)")
ok("Tess Testex" not in out, "... without the planted name")
# new people, new reviews, a new address of a known one
commit("drivers/alpha/b.c", "b\n", "alpha: b\n\n"
       "Reviewed-by: Nia Newcomer <nia@example.com>\n"
       "Acked-by: Alice Active <alice@example.org>\n",
       name="Bo Brandnew", email="bo@example.com")
push()
same("after new people and reviews")
commit("drivers/alpha/c.c", "c\n", "alpha: c\n\n"
       "Tested-by: Bo Brandnew <bo@example.com>\n"
       "Reviewed-by: Rex External <rex@other.example.net>\n",
       name="Alice Active", email="alice@example.org")
commit("drivers/alpha/d.c", "d\n", "alpha: d\n",
       name="Tess Tester", email="tess@example.net")
push()
same("after two more commits")
same("warm, nothing new again")
# a branch of old dates merged: its commits fall among the old ones
base = subprocess.run(["git", "-C", work, "rev-list", "--max-parents=0",
                       "HEAD"], check=True, capture_output=True,
                      text=True).stdout.split()[0]
subprocess.run(["git", "-C", work, "checkout", "-q", "-b", "old", base],
               check=True)
commit("drivers/alpha/old.c", "o\n", "alpha: an old change\n",
       name="Olga Old", email="olga@example.org", date=1500000000)
subprocess.run(["git", "-C", work, "checkout", "-q", "main"], check=True)
env = dict(os.environ, GIT_AUTHOR_NAME="M", GIT_AUTHOR_EMAIL="m@example.org",
           GIT_COMMITTER_NAME="M", GIT_COMMITTER_EMAIL="m@example.org")
subprocess.run(["git", "-C", work, "merge", "-q", "--no-ff", "-m", "merge",
                "old"], check=True, env=env)
push()
same("after merging a branch of old dates")
same("after merging a branch of old dates, --merges", "--merges")
# MAINTAINERS changes: other entries, other answers
with open(os.path.join(work, "MAINTAINERS")) as f:
    maint = f.read()
commit("MAINTAINERS", maint.replace("drivers/alpha/", "drivers/alpha/*.h"),
       "maintainers: alpha headers only\n")
push()
same("after a MAINTAINERS change")
commit("drivers/alpha/e.c", "e\n", "alpha: e\n")
push()
same("after a commit on top of it")
# an older revision than the saved model's
same("an older revision", "--rev", "HEAD~3")
same("back at the tip")
# commits of equal commit time, on two branches merged: libgit2's walk
# orders such ties by how its queue filled, which depends on the tip;
# ordered by id, the walk from a new tip ends with the saved one's, so
# the model is reused (its planted name shows) and the reports stay
# --no-cache's
tie = when[0] + 86400
fork = subprocess.run(["git", "-C", work, "rev-parse", "HEAD"], check=True,
                      capture_output=True, text=True).stdout.strip()
for i in range(6):
    commit(f"drivers/alpha/tie-{i}.c", f"{i}\n", f"alpha: tie {i}\n\n"
           "Reviewed-by: Tia Tie <tia@example.org>\n", date=tie)
subprocess.run(["git", "-C", work, "checkout", "-q", "-b", "ties", fork],
               check=True)
for i in range(6):
    commit(f"drivers/alpha/side-{i}.c", f"{i}\n", f"alpha: side {i}\n\n"
           "Reviewed-by: Tia Tie <tia@example.org>\n",
           name="Sid Side", email="sid@example.org", date=tie)
subprocess.run(["git", "-C", work, "checkout", "-q", "main"], check=True)
env = dict(os.environ, GIT_AUTHOR_NAME="M", GIT_AUTHOR_EMAIL="m@example.org",
           GIT_COMMITTER_NAME="M", GIT_COMMITTER_EMAIL="m@example.org",
           GIT_AUTHOR_DATE=f"@{tie} +0000",
           GIT_COMMITTER_DATE=f"@{tie} +0000")
subprocess.run(["git", "-C", work, "merge", "-q", "--no-ff", "-m",
                "merge ties", "ties"], check=True, env=env)
push()
when[0] = tie
out = same("twelve commits and a merge of equal commit time")
ok("Tia Tie" in out, "... name their reviewer")
plant(b"Tia Tie", b"Tia Tix")
commit("drivers/alpha/after.c", "a\n", "alpha: after the ties\n")
push()
r = run("activity", "--repo", repo, "--json", "--db", db)
ok(r.rc == 0 and "Tia Tix" in r.out,
   "after a new commit on top of commits of equal time the saved model "
   "is reused (the planted name shows)", r.err)
fresh_db()
same("ties again, cold")
commit("drivers/alpha/after2.c", "a\n", "alpha: after the ties, 2\n\n"
       "Reviewed-by: Tia Tie <tia@example.org>\n")
push()
same("after a new commit on top of commits of equal time")
same("the same, --merges", "--merges")
# after new commits only what was walked is saved: a part after the model
# before it (no rewrite of the whole model); a warm run reads the whole
# model and its parts
fresh_db()
same("parts: cold")
commit("drivers/epsilon/p1.c", "p\n", "epsilon: p1\n\n"
       "Reviewed-by: Pia Part <pia@example.org>\n")
push()
same("parts: after a new commit")
saved = rows()
ok(sorted(saved) == ["activity", "activity-part-1"] and
   b"Pia Part" in saved["activity-part-1"] and
   b"Pia Part" not in saved["activity"] and
   b"Tia Tie" not in saved["activity-part-1"],
   "... saved as a part holding the new commit's people, not the old ones",
   str(sorted(saved)))
same("parts: nothing new")
plant(b"Pia Part", b"Pia Parx")
r = run("activity", "--repo", repo, "--json", "--db", db)
ok(r.rc == 0 and "Pia Parx" in r.out,
   "nothing new: the model is read from the whole one and the part (the "
   "name planted in the part shows)", r.err)
# a damaged part (its digest no longer holds) is not read: the model
# before it is taken and the new commit walked again
plant(b"Pia Parx", b"Pia Pary", fix_sum=False)
out = same("a damaged part")
ok("Pia Pary" not in out and "Pia Parx" not in out and "Pia Part" in out,
   "... is not misread: the commit is walked again", out[-300:])
ok(b"Pia Part" in rows().get("activity-part-1", b""),
   "... and its part saved again")
# a chain of parts, with commits of one commit time and a merge of a
# branch of older dates among them, compacted into one whole model once
# it has ACT_MAX_PARTS (8) parts
nparts = []
for i in range(11):
    if i == 5:
        fork = subprocess.run(["git", "-C", work, "rev-parse", "HEAD~2"],
                              check=True, capture_output=True,
                              text=True).stdout.strip()
        subprocess.run(["git", "-C", work, "checkout", "-q", "-b",
                        "chain-side", fork], check=True)
        commit("drivers/alpha/chain-side.c", "s\n", "alpha: chain side\n",
               name="Sid Side", email="sid@example.org", date=when[0] - 5000)
        subprocess.run(["git", "-C", work, "checkout", "-q", "main"],
                       check=True)
        when[0] += 3600
        env = dict(os.environ, GIT_AUTHOR_NAME="M",
                   GIT_AUTHOR_EMAIL="m@example.org",
                   GIT_COMMITTER_NAME="M", GIT_COMMITTER_EMAIL="m@example.org",
                   GIT_AUTHOR_DATE=f"@{when[0]} +0000",
                   GIT_COMMITTER_DATE=f"@{when[0]} +0000")
        subprocess.run(["git", "-C", work, "merge", "-q", "--no-ff", "-m",
                        "merge chain-side", "chain-side"], check=True,
                       env=env)
    else:
        # every other commit shares the commit time of the one before
        commit(f"drivers/alpha/chain-{i}.c", f"{i}\n",
               f"alpha: chain {i}\n\nReviewed-by: Tia Tie "
               "<tia@example.org>\n", date=when[0] if i % 2 else None)
    push()
    same(f"parts: chain step {i + 1}")
    nparts.append(len(rows()) - 1)
same("parts: chain, nothing new")
same("parts: chain, --merges", "--merges")
ok(max(nparts) == 8 and 0 in nparts and nparts[-1] < 8,
   "at most 8 parts, then one whole model again", str(nparts))
# the walk order is kept with the model: after new commits only their
# headers are read, from the new tip down to the saved order's commits,
# never the old graph (an old record deleted from the store stays
# deleted), and the merges the records leave out are kept beside them
# (an old tip that is a merge is not read again either)


def rev(r):
    return subprocess.run(["git", "-C", work, "rev-parse", r], check=True,
                           capture_output=True, text=True).stdout.strip()


def forget(*ids):
    c = sqlite3.connect(db)
    c.executemany("DELETE FROM commits WHERE id = ?", [(i,) for i in ids])
    c.commit()
    c.close()


def stored(i):
    c = sqlite3.connect(db)
    n = c.execute("SELECT count(*) FROM commits WHERE id = ?",
                  (i,)).fetchone()[0]
    c.close()
    return n == 1


def paths_table():
    c = sqlite3.connect(db)
    r = c.execute("SELECT data FROM models WHERE kind = 'activity-paths'"
                  ).fetchone()
    c.close()
    return r[0] if r else b""


def merge(branch, start, msg):
    subprocess.run(["git", "-C", work, "checkout", "-q", "-b", branch,
                    start], check=True)
    commit(f"drivers/alpha/{branch}.c", "m\n", f"alpha: {branch}\n",
           name="Sid Side", email="sid@example.org", date=when[0] - 90000)
    subprocess.run(["git", "-C", work, "checkout", "-q", "main"], check=True)
    when[0] += 3600
    env = dict(os.environ, GIT_AUTHOR_NAME="M",
               GIT_AUTHOR_EMAIL="m@example.org", GIT_COMMITTER_NAME="M",
               GIT_COMMITTER_EMAIL="m@example.org",
               GIT_AUTHOR_DATE=f"@{when[0]} +0000",
               GIT_COMMITTER_DATE=f"@{when[0]} +0000")
    subprocess.run(["git", "-C", work, "merge", "-q", "--no-ff", "-m", msg,
                    branch], check=True, env=env)


fresh_db()
root = rev(base)
merge("order-side", "HEAD~1", "merge order-side")
push()
same("order: cold, the tip a merge")
tip_merge = rev("HEAD")
forget(root, tip_merge)
commit("drivers/alpha/order-1.c", "1\n", "alpha: order 1\n\n"
       "Reviewed-by: Ora Order <ora@example.org>\n")
push()
same("order: after a new commit on a merge")
ok(not stored(root) and not stored(tip_merge),
   "... read neither the old graph (the deleted root record stays "
   "deleted) nor the old tip, a merge kept beside the records")
ok(b"drivers/alpha/order-side.c" in paths_table() and
   b"drivers/alpha/order-1.c" not in paths_table(),
   "... and did not rewrite the saved path answers for one new path "
   "(fewer than 64 and a 32nd of them)")
commit("drivers/alpha/order-2.c", "2\n", "alpha: order 2\n",
       date=when[0])
commit("drivers/alpha/order-3.c", "3\n", "alpha: order 3\n",
       name="Ty Tie", email="ty@example.org", date=when[0])
push()
same("order: two new commits of the old tip's commit time")
ok(not stored(root), "... read only the new commits")
merge("order-old", "HEAD~4", "merge order-old")
push()
same("order: a merged branch of older dates")
ok(not stored(root), "... read only the new commits")
# 64 new paths (and more than a 32nd of the saved answers) are saved
# with them
for i in range(64):
    commit(f"drivers/alpha/many-{i}.c", f"{i}\n", f"alpha: many {i}\n")
push()
same("order: 64 new commits")
ok(b"drivers/alpha/many-63.c" in paths_table() and
   b"drivers/alpha/order-side.c" in paths_table(),
   "... saved the path answers with the new paths")
ok(not stored(root), "... read only the new commits")
same("order: --merges, its own model (a full walk)", "--merges")
forget(root)
commit("drivers/alpha/order-4.c", "4\n", "alpha: order 4\n")
push()
same("order: --merges after a new commit", "--merges")
ok(not stored(root), "... read only the new commit")
# a rewound history: the saved order's tip is not in the new one, so the
# whole graph is read (the deleted record comes back), never misread
subprocess.run(["git", "-C", work, "reset", "-q", "--hard", "HEAD~3"],
               check=True)
commit("drivers/alpha/order-5.c", "5\n", "alpha: order 5\n\n"
       "Reviewed-by: Ora Order <ora@example.org>\n")
subprocess.run(["git", "-C", work, "push", "-q", "-f", "origin",
                "HEAD:refs/heads/main"], check=True)
same("order: a rewound history", "--merges")
ok(stored(root), "... reads the whole graph again")
done()
