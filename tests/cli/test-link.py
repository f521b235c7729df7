#!/usr/bin/env python3
"""maintstat link on the planted repository and list archive of
fixtures/gen/gen-review.py: each commit linked to its posting by the
planted method (Link: trailer in lore and patch.msgid.link form,
Message-Id: trailer, patch-id, author + subject), the earlier versions of
a patch applied in its v3, the unposted commits unlinked; with
--ignore-link-trailers the trailer-linked commits are found by patch-id;
every bad input."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (run, run_tty, ok, eq, done, tmpdir, FIXTURES,  # noqa: E402
                    git_commit)
import json  # noqa: E402

tmp = tmpdir()
out = os.path.join(tmp, "gen")
truth_path = os.path.join(tmp, "truth.json")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"),
                out, "--truth", truth_path], check=True)
truth = json.load(open(truth_path))
repo = os.path.join(out, "repo")
mbox = os.path.join(out, "list.mbox")
ids = truth["commits"]

r = run("link", "--repo", repo, "--archive", mbox, "--json")
eq(r.rc, 0, "link exits 0")
doc = r.json()
ok("schema_version" in doc, "schema_version present")
links = {l["commit"]: l for l in doc["links"]}
for name, (msgid, method) in sorted(truth["links"].items()):
    l = links.get(ids[name], {})
    eq(l.get("message_id"), msgid, f"commit {name} linked to its posting")
    eq(l.get("method"), method, f"commit {name} linked by {method}")
eq(links[ids["B"]]["earlier"], truth["earlier"]["B"],
   "the v3 commit knows v1 and v2")
eq(links[ids["A"]]["earlier"], [], "a single posting has no earlier one")
eq(sorted(doc["unlinked_commits"]), sorted(ids[n] for n in truth["unlinked"]),
   "unposted commits stay unlinked")
eq(doc["counts"], {"commits": 16, "link_trailer": 2,
                   "message_id_trailer": 1, "patch_id": 1, "subject_match": 2,
                   "author_date": 1, "unlinked": 9}, "counts per method")
eq(links[ids["L"]]["matched_on"], ["author", "files"],
   "L (reworded, edited, redated) shares only its author and files: "
   "linked by a similar subject")
eq(links[ids["I"]]["matched_on"], ["author-date", "author", "files"],
   "I shares its author date, author and file, not patch-id nor subject")
eq(links[ids["B"]]["matched_on"],
   ["patch-id", "author-date", "subject", "author", "files"],
   "B's v3 agrees with its commit on everything")
eq(links[ids["F"]]["matched_on"], ["subject", "author", "files"],
   "F (edited by Dan) agrees on subject, author and files")

r = run("link", "--repo", repo, "--archive", mbox, "--json",
        "--ignore-link-trailers")
eq(r.rc, 0, "--ignore-link-trailers exits 0")
doc = r.json()
links = {l["commit"]: l for l in doc["links"]}
for name in ("A", "E", "G"):
    eq(links.get(ids[name], {}).get("method"), "patch-id",
       f"without trailers commit {name} is found by patch-id")
    eq(links.get(ids[name], {}).get("message_id"), truth["links"][name][0],
       f"without trailers commit {name} gets the same posting")
eq(doc["counts"]["link_trailer"] + doc["counts"]["message_id_trailer"], 0,
   "no trailer links when they are ignored")

r = run("link", "--repo", repo, "--archive", mbox)
eq(r.rc, 0, "text exits 0")
ok("Commits 16, linked 7 (44%)" in r.out, "text summary line: 7/16 = 43.75%, "
   "rounded to the nearest percent as every share is (docs/cli.md)", r.out)
ok(any(l.startswith(ids["B"][:12]) and "patch-id" in l and
       "<b3@example.net>" in l for l in r.out.splitlines()),
   "text line of the v3 commit", r.out)
ok(any("earlier" in l and "<b1@example.net>" in l
       for l in r.out.splitlines()), "text lists earlier versions")

r = run("link", "--repo", repo, "--archive", mbox, "--since", "2024-03-09",
        "--json")
eq(r.rc, 0, "--since exits 0")
eq(sorted(l["commit"] for l in r.json()["links"]),
   sorted([ids["B"], ids["E"], ids["G"]]), "--since limits commits by commit date")

# bad input
r = run("link", "--archive", mbox, cwd=tmp)
eq(r.rc, 2, "missing --repo outside a git repository is a usage error")
ok("--repo" in r.err, "the message names --repo", r.err)
r = run("link", "--archive", mbox, "--json", "--no-cache",
        cwd=os.path.join(repo, "."))
r2 = run("link", "--archive", mbox, "--json", "--no-cache", "--repo", repo)
eq((r.rc, r.out), (0, r2.out),
   "inside a git repository, --repo defaults to it")
r = run("link", "--repo", repo)
eq(r.rc, 2, "missing --archive is a usage error")
r = run("link", "--repo", os.path.join(tmp, "nope"), "--archive", mbox)
eq(r.rc, 1, "a missing repository is a runtime error")
ok("nope" in r.err, "the message names the repository", r.err)
r = run("link", "--repo", repo, "--archive", os.path.join(tmp, "no.mbox"))
eq(r.rc, 1, "a missing archive is a runtime error")
ok("no.mbox" in r.err, "the message names the archive", r.err)
# history and archives are read side by side: both failing reports the
# history's error alone, once, as the two reads one after the other did
r = run("link", "--repo", os.path.join(tmp, "nope"), "--archive",
        os.path.join(tmp, "no.mbox"))
eq(r.rc, 1, "a missing repository and archive: a runtime error")
ok("nope" in r.err and "no.mbox" not in r.err and
   r.err.count("maintstat: ") == 1, "  one message, naming the repository",
   r.err)
# Progress on a terminal only: messages read and commits walked (the
# history is walked on a thread while the archive is read), one line.
rc, err = run_tty("link", "--repo", repo, "--archive", mbox, "--no-cache")
eq(rc, 0, "on a terminal")
ok("\rreading the archives: " in err and ", walking history: " in err and
   err.endswith("\r\x1b[K"), "  counts on stderr, erased when done",
   repr(err))
r = run("link", "--repo", repo, "--archive", mbox, "--no-cache")
eq(r.err, "", "  stderr not a terminal: no progress")

r = run("link", "--repo", repo, "--archive", mbox, "--since", "yesterday")
eq(r.rc, 2, "a bad --since is a usage error")
r = run("link", "--repo", repo, "--archive", mbox, "extra")
eq(r.rc, 2, "a stray argument is a usage error")
# One missing blob: that commit goes without a patch-id, the rest is
# linked and the count said (link failed with exit 1; activity warns).
def g(*args, gitdir, **kw):
    return subprocess.run(["git", "--git-dir", gitdir, *args],
                          capture_output=True, check=True, **kw).stdout


src_git = g("rev-parse", "--absolute-git-dir", gitdir=repo
            if os.path.isfile(os.path.join(repo, "HEAD"))
            else os.path.join(repo, ".git")).decode().strip()
broken = os.path.join(tmp, "broken.git")
subprocess.run(["git", "init", "-q", "--bare", broken], check=True)
pack = g("pack-objects", "--all", "--revs", "--stdout", gitdir=src_git,
         input=b"")
g("unpack-objects", "-q", gitdir=broken, input=pack)
head = g("rev-parse", "HEAD", gitdir=src_git).decode().strip()
g("update-ref", "refs/heads/main", head, gitdir=broken)
g("symbolic-ref", "HEAD", "refs/heads/main", gitdir=broken)
victim = ids["B"]                 # linked by its Link: trailer... and more
new_blobs = [ln.split()[3] for ln in g(
    "diff-tree", "-r", "--no-commit-id", victim,
    gitdir=broken).decode().splitlines() if ln.startswith(":")]
blob = new_blobs[0]
os.unlink(os.path.join(broken, "objects", blob[:2], blob[2:]))
r = run("link", "--repo", broken, "--archive", mbox, "--json", "--no-cache")
eq(r.rc, 0, "a missing blob: link exits 0")
ok("could not be diffed" in r.err and "linked without a patch-id" in r.err,
   "... and says how many commits went without a patch-id", r.err)
if r.rc == 0:
    got = {l["commit"]: l["method"] for l in r.json()["links"]}
    for name, (msgid, method) in sorted(truth["links"].items()):
        if method == "link-trailer":
            eq(got.get(ids[name]), method,
               f"... commit {name} is still linked by its trailer")
# Siblings are no versions: two patches of one posting with one subject
# (erofs-utils' seven "lib: silence INTEGER_OVERFLOW"), both applied,
# each linked by its Link: trailer, list none of the other as earlier.
sib = os.path.join(tmp, "siblings")
subprocess.run(["git", "init", "-q", sib], check=True)
T = 1750000000
git_commit(sib, "lib/a.c", "int a;\n", "lib: start", "Ann Dev",
           "ann@example.org", T)
msgs = []
for n, path in ((0, None), (1, "lib/a.c"), (2, "lib/b.c")):
    subj = (f"[PATCH {n}/2] lib: silence INTEGER_OVERFLOW" if n else
            "[PATCH 0/2] lib: two fixes")
    body = "Fix.\n" if not n else (
        "Fix.\n\nSigned-off-by: Ann Dev <ann@example.org>\n---\n"
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
        f"@@ -1 +1,2 @@\n int a;\n+int fix{n};\n")
    msgs.append("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
                "From: Ann Dev <ann@example.org>\nTo: list@example.org\n"
                f"Subject: {subj}\n"
                f"Date: Mon, 16 Jun 2025 1{n}:00:00 +0000\n"
                f"Message-ID: <sib-{n}@example.org>\n" +
                ("In-Reply-To: <sib-0@example.org>\n" if n else "") +
                "\n" + body + "\n")
with open(os.path.join(tmp, "siblings.mbox"), "w") as f:
    f.write("".join(msgs))
for n, path in ((1, "lib/a.c"), (2, "lib/b.c")):
    git_commit(sib, path, f"int a;\nint fix{n};\n",
               "lib: silence INTEGER_OVERFLOW\n\n"
               f"Link: https://lore.kernel.org/r/sib-{n}@example.org",
               "Ann Dev", "ann@example.org", T + 86400 * n)
r = run("link", "--repo", sib, "--archive",
        os.path.join(tmp, "siblings.mbox"), "--json", "--no-cache")
eq(r.rc, 0, "siblings: link exits 0")
sl = {l["message_id"]: l for l in r.json()["links"]}
eq(sorted(sl), ["sib-1@example.org", "sib-2@example.org"],
   "siblings: both patches linked")
eq([sl[m]["earlier"] for m in sorted(sl)], [[], []],
   "siblings: patch 2/2 is no later version of 1/2, nor 1/2 an earlier "
   "version of 2/2")

done()
