#!/usr/bin/env python3
"""link's finished result kept in the store (kinds result:link:json and
result:link:text, src/cli/cli-result.h): on fixtures/gen/gen-review.py's
repository and list, --no-cache, a cold and a warm run print the same
bytes; the warm run prints the saved result (a planted marker shows);
after each change of an input (a new commit, new mail, the archive
touched with the same bytes, --aliases and --mailmap files edited,
another option, another --since) the run gives --no-cache's answer, not
the planted one; a damaged row is ignored."""
import os
import subprocess
import sqlite3
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402
from mstest import result_row, result_put, result_plant, result_crc  # noqa: E402,E501

tmp = tmpdir()
out = os.path.join(tmp, "gen")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"), out],
               check=True, capture_output=True)
repo = os.path.join(out, "repo")
mbox = os.path.join(out, "list.mbox")
db = os.path.join(tmp, "store.sqlite")
KIND = {"json": "result:link:json", "text": "result:link:text"}
# An archive changed in the last two seconds cannot be pinned by stat:
# its run keeps no result.  Rather than sleep past it, the runs take their
# clock 3 s ahead (a test hook, docs/store.md), which puts the archive
# past it at once; with the clock 100 s behind it is racy.
two = os.path.join(tmp, "two.sqlite")
for ahead, kept in (("-100", 0), ("-100", 0), ("3", 1)):
    r = run("link", "--repo", repo, "--archive", mbox, "--json", "--db", two,
            env={"MS_TEST_CLOCK_AHEAD": ahead})
    eq(r.rc, 0, f"link with the clock {ahead} s ahead exits 0")
    con = sqlite3.connect(two)
    eq(con.execute("SELECT count(*) FROM models WHERE kind = 'result'")
       .fetchone()[0], kept, f"clock {ahead} s ahead: {kept} result kept "
       "(a just-written archive: none)")
    con.close()
os.environ["MS_TEST_CLOCK_AHEAD"] = "3"


def link(fmt, *extra, db_=True):
    args = ["link", "--repo", repo, "--archive", mbox]
    args += ["--json"] if fmt == "json" else []
    args += ["--db", db] if db_ else ["--no-cache"]
    r = run(*args, *extra)
    ok(r.rc == 0 and not r.err, f"link ({fmt}) {' '.join(extra)} exits 0 "
       "without a message", r.err)
    return r.out


def fresh(fmt, what, *extra):
    ok(result_plant(db, KIND[fmt]), f"{what}: a result to plant over")
    want = link(fmt, *extra, db_=False)
    got = link(fmt, *extra)
    eq(got, want, f"{what} ({fmt}): the fresh answer, = --no-cache")
    return got


for fmt in ("json", "text"):
    nc = link(fmt, db_=False)
    eq(link(fmt), nc, f"{fmt}: cold = --no-cache, byte for byte")
    eq(link(fmt), nc, f"{fmt}: warm = --no-cache, byte for byte")
    row = result_row(db, KIND[fmt])
    ok(row is not None and row[2].decode() == nc,
       f"{fmt}: the result is saved as printed")
    ok(result_plant(db, KIND[fmt]), f"{fmt}: plant a marker")
    eq(link(fmt), "PLANTED RESULT\n", f"{fmt}: a warm run prints the "
       "saved result")

key, facts, saved, err = result_row(db, KIND["json"])
result_put(db, KIND["json"], key, facts, saved, err, crc=1)
eq(link("json"), link("json", db_=False), "a result with a wrong CRC is "
   "ignored")
result_put(db, KIND["json"], key, facts, saved[:-2] + b"X\n", err,
           crc=result_crc(key, facts, saved, err))
eq(link("json"), link("json", db_=False), "a result changed without its "
   "CRC is ignored")

genv = dict(os.environ, GIT_AUTHOR_NAME="N", GIT_AUTHOR_EMAIL="n@example.com",
            GIT_COMMITTER_NAME="N", GIT_COMMITTER_EMAIL="n@example.com")
for fmt in ("json", "text"):
    link(fmt)
    os.utime(mbox, (1700000000, 1700000000))
    fresh(fmt, "archive touched, same bytes")
    aliases = os.path.join(tmp, "aliases")
    with open(aliases, "w") as f:
        f.write("a@example.com b@example.com\n")
    link(fmt, "--aliases", aliases)
    with open(aliases, "w") as f:
        f.write(f"a@example.com c-{fmt}@example.com\n")
    fresh(fmt, "--aliases file edited", "--aliases", aliases)
    mailmap = os.path.join(tmp, "mailmap")
    with open(mailmap, "w") as f:
        f.write("A <a@example.com>\n")
    link(fmt, "--mailmap", mailmap)
    with open(mailmap, "w") as f:
        f.write(f"A {fmt} <a@example.com>\n")
    fresh(fmt, "--mailmap file edited", "--mailmap", mailmap)
    fresh(fmt, "another option", "--ignore-link-trailers")
    fresh(fmt, "another --since", "--since", "2024-03-09")
    before = link(fmt, db_=False)
    with open(os.path.join(repo, f"new-{fmt}.c"), "w") as f:
        f.write("int n;\n")
    subprocess.run(["git", "-C", repo, "add", "."], check=True)
    subprocess.run(["git", "-C", repo, "commit", "-q", "-m",
                    f"new: a commit of {fmt}"], check=True, env=genv)
    got = fresh(fmt, "a new commit")
    ok(got != before, f"{fmt}: the new commit shows")
    before = got
    with open(mbox, "a") as f:
        f.write("From x@y Mon Jan  2 10:00:00 2023\n"
                "From: N <n@example.com>\n"
                f"Subject: [PATCH] new: a commit of {fmt}\n"
                f"Message-ID: <new-{fmt}@example.com>\n"
                "Date: Mon, 2 Jan 2023 10:00:00 +0000\n\nnew\n\n")
    got = fresh(fmt, "new mail")
    if fmt == "text":
        ok(got != before, "text: the new message is counted")
done()
