#!/usr/bin/env python3
"""A result larger than one row of the store is kept in chunks (models +
model_chunks, store-models.c), with the chunk limit made small for the
test (MS_STORE_CHUNK_LIMIT, read by the CLI only): the cold run keeps it
in several rows, the warm run is served from them byte for byte (a
planted message shows it was served), a missing chunk means computing
again, never a cut answer.  And a save that fails (a trigger of the
store refuses it, as a full disk or a busy store would) says so with a
warning, prints the right answer and exits 0: the finished result,
activity's model (and a failed read of it), review's K: answers.  And a
store of schema 8 (fixtures/store/schema-8.sql, from main 3808b78) is
rebuilt: every command answers as --no-cache does."""
import os
import re
import sqlite3
import struct
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES, SOURCE_ROOT  # noqa: E402,E501
from mstest import model_crc  # noqa: E402

LIMIT = 1000
CHUNKED = {"MS_STORE_CHUNK_LIMIT": str(LIMIT)}
KIND = "result"                   # keyed "review:json:<digest>"
tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "drivers", "net"))
with open(os.path.join(tree, "drivers", "net", "a.c"), "w") as f:
    f.write("int a;\n")
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("NET DRIVERS\nM:\tNe Tee <ne@example.com>\nF:\tdrivers/net/\n"
            "K:\tmagic_word\n\n"
            "THE REST\nM:\tR <r@example.com>\nF:\t*\nF:\t*/\n")


def msg(n, day):
    return ("From x@y Mon Jan  2 10:00:00 2023\n"
            f"From: Pa Tcher{n} <pa{n}@example.com>\n"
            f"Subject: [PATCH] net: fix number {n}\n"
            f"Message-ID: <p{n}@example.com>\n"
            f"Date: Mon, {day} Jan 2023 10:00:00 +0000\n\nfix\n\n"
            f"Signed-off-by: P <pa{n}@example.com>\n---\n"
            "diff --git a/drivers/net/a.c b/drivers/net/a.c\n"
            "--- a/drivers/net/a.c\n+++ b/drivers/net/a.c\n"
            f"@@ -0,0 +1 @@\n+int magic_word{n};\n\n")


mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as f:
    f.write("".join(msg(n, 2 + n % 20) for n in range(40)))
# an archive changed in the last two seconds is keyed by its bytes too:
# the runs take their clock past that (test-review-warm.py), so that warm
# runs are served
os.environ["MS_TEST_CLOCK_AHEAD"] = "3"
db = os.path.join(tmp, "store.sqlite")


def review(*extra, env=CHUNKED, store=db):
    args = ["review", "--tree", tree, "--archive", mbox, "--json"]
    args += ["--db", store] if store else ["--no-cache"]
    return run(*args, *extra, env=env)


def rows(kind, path=db):
    """(chunks, size, [data of each row]) of `kind`, or None."""
    c = sqlite3.connect(path)
    head = c.execute("SELECT chunks, size, data, key FROM models WHERE "
                     "kind = ?", (kind,)).fetchone()
    more = c.execute("SELECT data FROM model_chunks WHERE kind = ? AND "
                     "key = ? ORDER BY seq", (kind, head[3])).fetchall() \
        if head else []
    c.close()
    if not head:
        return None
    return head[0], head[1], [head[2]] + [m[0] for m in more]


def put_chunked(kind, key, data, path=db):
    """Save `data` as store-models.c writes a value, LIMIT per row, with
    its CRC."""
    parts = [data[i:i + LIMIT] for i in range(0, len(data), LIMIT)] or [b""]
    c = sqlite3.connect(path)
    c.execute("DELETE FROM model_chunks WHERE kind = ? AND key = ?",
              (kind, key))
    c.execute("UPDATE models SET data = ?, chunks = ?, size = ?, crc = ? "
              "WHERE kind = ? AND key = ?",
              (parts[0], len(parts), len(data), model_crc(kind, key, data),
               kind, key))
    c.executemany("INSERT INTO model_chunks VALUES (?, ?, ?, ?)",
                  [(kind, key, i, p) for i, p in enumerate(parts) if i])
    c.commit()
    c.close()


def sql(statements, path=db):
    c = sqlite3.connect(path)
    c.executescript(statements)
    c.commit()
    c.close()


want = review(store=None, env=None)
ok(want.rc == 0 and not want.err, "review --no-cache exits 0", want.err)
ok(len(want.out) > 3 * LIMIT, f"its output ({len(want.out)} bytes) is "
   f"longer than three chunks of {LIMIT}")
r = review()
ok(r.rc == 0 and not r.err and r.out == want.out,
   "cold run through the store = --no-cache", r.err)
row = rows(KIND)
ok(row is not None and row[0] > 3 and len(row[2]) == row[0],
   "the result is kept, in several rows", repr(row and row[:2]))
whole = b"".join(row[2]) if row else b""
ok(row is not None and row[1] == len(whole) and
   whole.endswith(want.out.encode()),
   "... which hold it whole, the output last")
key = sqlite3.connect(db).execute("SELECT key FROM models WHERE kind = ?",
                                  (KIND,)).fetchone()[0]
r = review()
ok(r.rc == 0 and not r.err and r.out == want.out,
   "warm run = --no-cache, byte for byte", r.err)

# served from the chunks: a result planted with the same output and a
# message of its own prints both
facts_len = struct.unpack_from("<Q", whole, 0)[0] if row else 0
facts = whole[32:32 + facts_len]
out_b = want.out.encode()
marker = b"maintstat: warning: PLANTED\n"
planted = (struct.pack("<QQQQ", len(facts), len(out_b), len(marker), 0) +
           facts + out_b + marker)
put_chunked(KIND, key, planted)
eq(len(rows(KIND)[2]), (len(planted) - 1) // LIMIT + 1,
   "a planted result of as many chunks")
r = review()
ok(r.rc == 0 and r.out == want.out and r.err == marker.decode(),
   "the warm run is served from the chunks: the output byte for byte, "
   "and the planted message", r.err)
r = review(env=None)
ok(r.rc == 0 and r.out == want.out and r.err == marker.decode(),
   "... whatever limit the reading run has", r.err)

# a chunk missing: not served cut short, computed again and kept again
sql(f"DELETE FROM model_chunks WHERE kind = '{KIND}' AND seq = 2")
r = review()
ok(r.rc == 0 and not r.err and r.out == want.out,
   "a chunk missing: the answer computed again, = --no-cache", r.err)
row = rows(KIND)
ok(row is not None and len(row[2]) == row[0] and
   b"".join(row[2]).endswith(out_b), "... and kept whole again")

# a save that fails is said, and the answer is right all the same
sql(f"DELETE FROM models WHERE kind = '{KIND}';"
    f"DELETE FROM model_chunks WHERE kind = '{KIND}';"
    "CREATE TRIGGER refuse BEFORE INSERT ON model_chunks BEGIN "
    "SELECT RAISE(ABORT, 'simulated failure'); END;")
r = review()
ok(r.rc == 0 and r.out == want.out, "a failed save: exit 0 and the "
   "answer of --no-cache", r.err)
ok("maintstat: warning: the result was not kept in the store: " in r.err
   and "simulated failure" in r.err, "... with a warning saying why",
   r.err)
eq(rows(KIND), None, "... and nothing half kept")
r = review(env=None)
ok(r.rc == 0 and r.out == want.out and not r.err,
   "with a result of one row the same store keeps it", r.err)

# review's K: answers (kind review-k), when they cannot be kept
kdb = os.path.join(tmp, "k.sqlite")
r = review(store=kdb, env=None)
ok(r.rc == 0 and r.out == want.out and rows("review-k", kdb) is not None,
   "K: answers kept in a new store", r.err)
sql("DELETE FROM models; DELETE FROM model_chunks;"
    "CREATE TRIGGER refuse BEFORE INSERT ON models WHEN "
    "NEW.kind = 'review-k' BEGIN SELECT RAISE(ABORT, 'no room'); END;",
    kdb)
r = review(store=kdb, env=None)
ok(r.rc == 0 and r.out == want.out, "K: answers not kept: exit 0 and the "
   "answer of --no-cache", r.err)
ok("maintstat: warning: the K: answers were not kept in the store: "
   in r.err and "no room" in r.err, "... with a warning saying why", r.err)

# activity's model
repo = os.path.join(tmp, "planted.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo], check=True, stdout=subprocess.DEVNULL)
adb = os.path.join(tmp, "a.sqlite")
awant = run("activity", "--repo", repo, "--json", "--no-cache")
ok(awant.rc == 0, "activity --no-cache exits 0", awant.err)
r = run("activity", "--repo", repo, "--json", "--db", adb)
ok(r.rc == 0 and r.out == awant.out and not r.err and
   rows("activity", adb) is not None, "activity: a model kept", r.err)
sql("DELETE FROM models; DELETE FROM model_chunks;"
    "CREATE TRIGGER refuse BEFORE INSERT ON models BEGIN "
    "SELECT RAISE(ABORT, 'disk full'); END;", adb)
r = run("activity", "--repo", repo, "--json", "--db", adb)
ok(r.rc == 0 and r.out == awant.out, "activity, its model not kept: exit 0 "
   "and the report of --no-cache", r.err)
ok("maintstat: warning: the activity model was not kept in the store: "
   in r.err and "disk full" in r.err, "... with a warning saying why",
   r.err)
# a store whose models cannot be read: the history is walked, and said
sql("DROP TRIGGER refuse; ALTER TABLE models RENAME TO models_gone;"
    "CREATE VIEW models AS SELECT kind, key, data FROM models_gone;", adb)
r = run("activity", "--repo", repo, "--json", "--db", adb)
ok(r.rc == 0 and r.out == awant.out, "activity, its model unreadable: exit "
   "0 and the report of --no-cache", r.err)
ok("maintstat: warning: the saved activity model was not read from the "
   "store: " in r.err, "... with a warning saying why", r.err)

# a store of main 3808b78 (schema 8: every derived row framed its own
# way, results keyed by kind alone): rebuilt, every command answers as
# --no-cache, its old rows never read
gen = os.path.join(tmp, "gen")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"), gen],
               check=True, stdout=subprocess.DEVNULL)
grepo, glist = os.path.join(gen, "repo"), os.path.join(gen, "list.mbox")
odb = os.path.join(tmp, "schema8.sqlite")
with open(os.path.join(FIXTURES, "store", "schema-8.sql")) as f:
    sql(f.read(), odb)
ok(sqlite3.connect(odb).execute("SELECT count(*) FROM models WHERE kind "
                                "GLOB 'result:*'").fetchone()[0] > 0,
   "schema 8: rows of the old formats")
for args in (["activity", "--json"], ["urgent"], ["identities", "--json"],
             ["areas", "--json"],
             ["review", "--archive", glist, "--json"],
             ["link", "--archive", glist, "--json"],
             ["activity", "--json"]):
    want = run(*args, "--repo", grepo, "--no-cache", env=None)
    got = run(*args, "--repo", grepo, "--db", odb, env=None)
    ok(want.rc == 0 and got.rc == 0 and got.out == want.out and
       got.err == want.err, f"schema 8, {args[0]}: the answer of "
       "--no-cache", got.err)
c = sqlite3.connect(odb)
with open(os.path.join(SOURCE_ROOT, "src", "store",
                       "store.h")) as f:
    schema = int(re.search(r"#define MS_STORE_SCHEMA_VERSION (\d+)",
                           f.read()).group(1))
eq(c.execute("PRAGMA user_version").fetchone()[0], schema,
   "... now at the current schema")
eq(c.execute("SELECT count(*) FROM commits").fetchone()[0], 16,
   "... its 16 records stored again")
eq(c.execute("SELECT count(*) FROM models WHERE kind GLOB 'result:*' OR "
             "crc IS NULL").fetchone()[0], 0, "... no row of then left")
c.close()
done()
