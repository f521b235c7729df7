#!/usr/bin/env python3
"""maintstat activity on the planted repository of fixtures/gen/gen-repo.py:
the tool must find exactly the planted facts (see fixtures/gen/README.md),
in text and JSON; and every bad input gets a clear message and exit code."""
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import SCHEMA, run, run_tty, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
repo = os.path.join(tmp, "planted.git")
truth_file = os.path.join(tmp, "truth.json")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo, "--truth", truth_file], check=True)
with open(truth_file) as fp:
    truth = json.load(fp)


def git(*args):
    return subprocess.run(["git", "--git-dir", repo, *args], check=True,
                          capture_output=True, text=True).stdout


def blocks(text):
    """Text report -> {entry name: [lines]}."""
    out, cur = {}, None
    for line in text.splitlines():
        if line.startswith("Subsystem "):
            cur = out.setdefault(line[len("Subsystem "):], [])
        elif line and cur is not None:
            cur.append(line)
    return out


def person_lines(block, who):
    """The Author/Committer/Tags lines under a person's header."""
    out, inside = [], False
    for line in block:
        if line.startswith("  ") and not line.startswith("    "):
            inside = line.startswith("  " + who)
        elif inside:
            out.append(line.split()[0])
    return out


r = run("activity", "--repo", repo)
eq(r.rc, 0, "activity exits 0")
eq(r.err, "", "no warnings on the planted repository")
b = blocks(r.out)
eq(sorted(b), sorted(list(truth["entries"]) + ["THE REST"]),
   "one block per entry")
for name, t in truth["entries"].items():
    # a share rounds to the nearest whole percent, half up (docs/cli.md)
    pct = (t["reviewed"] * 200 + t["commits"]) // (2 * t["commits"])
    eq(b.get(name, [""])[0],
       "  Changes: reviewed %d of %d commits (%d%%)"
       % (t["reviewed"], t["commits"], pct),
       "%s: window commits and reviewed ones" % name)

alpha = b["ALPHA DRIVER"]
ok("  INACTIVE MAINTAINER Ivan Inactive <ivan@example.org>" in alpha,
   "Ivan is inactive", r.out)
ok(not any("INACTIVE" in l and "Alice" in l for l in alpha),
   "Alice is active")
ok(not any("INACTIVE" in l and "Rita" in l for l in alpha),
   "Rita, active only through reviews, is not inactive")
eq(person_lines(alpha, "Rita Reviewer"), ["Tags"],
   "Rita has Tags only (never authors nor commits)")
ivan = [l for l in alpha if l.startswith("    Author")]
ok(any(l.endswith(" (0 in window)") and "2017-01-24" in l for l in ivan),
   "Ivan's last authored commit, before the window (count 0)", ivan)
revs = [l.strip() for l in alpha if l.startswith("    [")]
want = sorted(truth["alpha_reviewers"].items(), key=lambda kv: -kv[1])
want = ["[%d]: %s" % (n, {"rex": "Rex External <rex@example.net>",
                          "tess": "Tess Tester <tess@example.net>",
                          "uma": "Uma Upstream <uma@example.net>"}[k])
        for k, n in want if k != "rita"]
eq(revs, want, "top reviewers of ALPHA (X: excluded, listed Rita left out)")

# Alice's last authored commit: the newest by author date, as git says.
log = git("log", "--no-merges", "--author=alice@example.org",
          "--format=%at %H", "--", "drivers/alpha",
          ":!drivers/alpha/legacy")
newest = max(log.split("\n")[:-1], key=lambda l: int(l.split()[0]))
ok(any(l.startswith("    Author " + newest.split()[1][:12]) for l in alpha),
   "Alice's last authored commit is git's newest by author date",
   "\n".join(alpha))

beta = b["BETA SUBSYSTEM"]
eq([l for l in r.out.splitlines() if "home.example.net" in l],
   ["  Mark Twoaddr <mark@work.example.com> (also: "
    "mark@home.example.net):"],
   "Mark's second address shows only as joined to him (mailmap)")
eq([l.strip() for l in beta if l.startswith("    [")],
   ["[2]: Rex External <rex@example.net>"],
   "Mark's own reviews do not make him a top reviewer of his entry")
ok(any(l.startswith("    Author ") and l.endswith(" (20 in window)")
       for l in beta),
   "Mark's 20 commits under two addresses count once", beta)
ok(not any("INACTIVE" in l for l in beta), "Pete (plus-address) is active")

gamma = b["GAMMA BY KEYWORD"]
ok("  INACTIVE MAINTAINER Olga Old <olga@example.org>" in gamma,
   "Olga, seen only before the window, is inactive at 5y")
ok("  INACTIVE MAINTAINER Nora Never <nora@example.org> (never seen in "
   "the history)" in b["EPSILON NEVER SEEN"],
   "Nora is inactive, and the line says she is nowhere in the history")
eq(b["DELTA BUSY WITHOUT MAINTAINER"][1], "  Last activity: never",
   "no listed person, no last activity")

r = run("activity", "--repo", repo, "--inactive-after", "6y")
b6 = blocks(r.out)
ok(not any("Olga" in l and "INACTIVE" in l
           for l in b6["GAMMA BY KEYWORD"]),
   "--inactive-after 6y: Olga is active")
ok(any("Ivan" in l and "INACTIVE" in l for l in b6["ALPHA DRIVER"]),
   "--inactive-after 6y: Ivan still inactive")
r = run("activity", "--repo", repo, "--inactive-after", "18m",
        "ZETA IDLE")
ok("  INACTIVE MAINTAINER Zed Idle <zed@example.org>" in r.out,
   "--inactive-after 18m: Zed is inactive", r.out)
eq(list(blocks(r.out)), ["ZETA IDLE"], "ENTRY arguments select entries")

r = run("activity", "--repo", repo, "--no-plus-fold", "--no-name-join",
        "BETA SUBSYSTEM")
ok("  INACTIVE MAINTAINER Pete Plus <pete@example.org>" in r.out,
   "--no-plus-fold --no-name-join: Pete's plus-address is someone else",
   r.out)
r = run("activity", "--repo", repo, "--no-plus-fold", "BETA SUBSYSTEM")
ok("INACTIVE" not in r.out, "--no-plus-fold alone: Pete's plus-address "
   "still joins him by his name", r.out)

r = run("activity", "--repo", repo, "--min-commits", "50")
eq(sorted(blocks(r.out)),
   sorted(["DELTA BUSY WITHOUT MAINTAINER", "EPSILON NEVER SEEN",
           "ZETA IDLE", "THE REST"]), "--min-commits 50")

# A window by date, checked against git's own count.
r = run("activity", "--repo", repo, "--since", "2023-01-01",
        "--until", "2023-12-31", "ALPHA DRIVER")
n = len(git("log", "--no-merges", "--since=2023-01-01T00:00:00Z",
            "--until=2023-12-31T23:59:59Z", "--format=%H", "--",
            "drivers/alpha", ":!drivers/alpha/legacy").split())
ok(re.search(r"Changes: reviewed \d+ of %d commits" % n, r.out)
   is not None,
   "--since/--until: %d commits, as git log counts" % n, r.out)
# --until a revision: the history ends there
rev = git("rev-list", "-1", "--before=2020-06-01", "main").strip()
r = run("activity", "--repo", repo, "--until", rev, "ZETA IDLE")
ok("Zed Idle" in r.out and "    Author" not in r.out,
   "--until REV: Zed's later commits are not seen", r.out)

# JSON carries the same facts
r = run("activity", "--repo", repo, "--json")
eq(r.rc, 0, "--json exits 0")
j = r.json()
eq(j["schema_version"], SCHEMA, "schema_version")
eq(j["window"], {"since": "2019-06-01T12:00:00+00:00",
                 "until": "2024-06-01T12:00:00+00:00"},
   "window: 5 years before the newest commit")
je = {e["name"]: e for e in j["entries"]}
for name, t in truth["entries"].items():
    eq((je[name]["commits"], je[name]["reviewed"]),
       (t["commits"], t["reviewed"]), "JSON %s counts" % name)
jp = {p["name"]: p for p in je["ALPHA DRIVER"]["people"]}
eq([(p["role"], p["inactive"]) for p in je["ALPHA DRIVER"]["people"]],
   [("M", False), ("M", True), ("R", False)], "JSON roles and inactive")
eq((jp["Rita Reviewer"]["last_authored"],
    jp["Rita Reviewer"]["last_committed"]),
   (None, None), "JSON: Rita never authored nor committed")
eq(jp["Rita Reviewer"]["last_tagged"]["tag"] in ("Reviewed-by", "Acked-by"), True,
   "JSON: Rita's last tag is a review")
ok(re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$",
            jp["Ivan Inactive"]["last_authored"]["date"]),
   "JSON dates are ISO 8601 with offset")
eq(len(jp["Ivan Inactive"]["last_authored"]["commit"]), 40, "full commit id")
eq(jp["Ivan Inactive"]["last_authored"]["count"], 0, "Ivan: nothing in window")
eq(je["DELTA BUSY WITHOUT MAINTAINER"]["last_activity"], None,
   "JSON last_activity null")
eq([(x["email"], x["count"]) for x in je["BETA SUBSYSTEM"]["top_reviewers"]],
   [("rex@example.net", 2)], "JSON top reviewers of BETA")

# --aliases: a second address joined by hand; a malformed line warns.
aliases = os.path.join(tmp, "aliases")
with open(aliases, "w") as fp:
    fp.write("# gitdm style\nnot-an-alias-line\n"
             "zed@example.org quinn@example.org\n")
r = run("activity", "--repo", repo, "--aliases", aliases,
        "--inactive-after", "6m", "ZETA IDLE")
eq(r.rc, 0, "a malformed aliases line is only a warning")
ok("aliases:2: malformed alias line" in r.err,
   "the warning names file and line", r.err)
ok("INACTIVE" not in r.out, "aliases join Zed to Quinn", r.out)

# Progress: a count of commits on a terminal, erased at the end; silence
# otherwise (every run above had stderr on a pipe).
rc, err = run_tty("activity", "--repo", repo, "--no-cache")
eq(rc, 0, "on a terminal")
ok(err.startswith("\rwalking history: ") and err.endswith("\r\x1b[K"),
   "  a commit count on stderr, erased when done", repr(err))
r = run("activity", "--repo", repo, "--no-cache")
eq(r.err, "", "  stderr not a terminal: no progress")

# Bad input
r = run("activity", "--repo", tmp)
eq(r.rc, 1, "not a git repository: exit 1")
ok("not a git repository" in r.err, "...with a clear message", r.err)
r = run("activity", "--repo", tmp, "--since", "v1.0")
eq(r.rc, 1, "--since REV in no repository: a runtime error (exit 1), not "
   "a usage error")
ok("not a git repository" in r.err, "...that names the problem", r.err)
r = run("activity", "--repo", repo, "--since", "no-such-rev")
eq(r.rc, 2, "--since naming no revision of a repository: usage error")
r = run("activity", "--repo", repo, "--rev", "no-such-rev")
eq(r.rc, 1, "unknown revision: exit 1")
ok("unknown revision 'no-such-rev'" in r.err, "...named", r.err)
empty = os.path.join(tmp, "empty.git")
subprocess.run(["git", "init", "-q", "--bare", empty], check=True)
r = run("activity", "--repo", empty)
eq(r.rc, 1, "empty repository: exit 1")
ok("has no commits" in r.err, "...says it has no commits", r.err)
r = run("activity", cwd=tmp)
eq(r.rc, 2, "outside a git repository --repo is required")
ok("not inside a git repository" in r.err, "...said so", r.err)
r = run("activity", "--json", cwd=repo)
r2 = run("activity", "--json", "--repo", repo)
eq((r.rc, r.out), (0, r2.out), "inside a repository, --repo defaults to it")
r = run("activity", "--repo", repo, "--since", "yesterday-ish")
eq(r.rc, 2, "a bad --since is a usage error")
ok("neither a date" in r.err, "...explained", r.err)
r = run("activity", "--repo", repo, "--inactive-after", "5 parsecs")
eq(r.rc, 2, "a bad --inactive-after is a usage error")
r = run("activity", "--repo", repo, "NO SUCH ENTRY")
eq(r.rc, 2, "an unknown entry is a usage error")
ok("no entry 'NO SUCH ENTRY'" in r.err, "...named", r.err)
r = run("activity", "--repo", repo, "--aliases", os.path.join(tmp, "none"))
eq(r.rc, 1, "an unreadable aliases file: exit 1")
ok("cannot read" in r.err, "...with the reason", r.err)
r = run("activity", "--repo", repo, "--since", "2024-01-01",
        "--until", "2023-01-01")
eq(r.rc, 2, "an empty window is a usage error")

for big in ("99999999999999999999y", "9223372036854775808d", "100001y"):
    r = run("activity", "--repo", repo, "--inactive-after", big)
    ok(r.rc == 2 and "out of range" in r.err,
       f"--inactive-after {big}: out of range, not wrapped", r.err)
r = run("activity", "--repo", repo, "--inactive-after", "100000y")
eq(r.rc, 0, "--inactive-after 100000y: saturated, not an error")
r = run("activity", "--repo", repo, "--since", "2090-01-01",
        "--until", "2091-01-01")
ok(r.rc == 2 and "lies outside the history, which runs from 2016-01-01 "
   "to 2024-06-01" in r.err, "a window holding no commit is an error "
   "naming the history's range, not a report of everyone inactive",
   r.err + r.out[:300])

# One commit dated 9999 must not become the default --until.
future = os.path.join(tmp, "future.git")
subprocess.run(["git", "clone", "-q", "--bare", repo, future], check=True)
work = os.path.join(tmp, "future-work")
subprocess.run(["git", "clone", "-q", future, work], check=True)
with open(os.path.join(work, "FUTURE"), "w") as f:
    f.write("x\n")
env = dict(os.environ, GIT_AUTHOR_NAME="Tim Travel",
           GIT_AUTHOR_EMAIL="tim@example.org", GIT_COMMITTER_NAME="Tim Travel",
           GIT_COMMITTER_EMAIL="tim@example.org",
           GIT_AUTHOR_DATE="@253370764800 +0000",
           GIT_COMMITTER_DATE="@253370764800 +0000")
subprocess.run(["git", "-C", work, "add", "FUTURE"], check=True, env=env)
subprocess.run(["git", "-C", work, "commit", "-q", "-m", "from 9999"],
               check=True, env=env)
subprocess.run(["git", "-C", work, "push", "-q", "origin", "HEAD"],
               check=True, env=env)
base = run("activity", "--repo", repo, "--json")
r = run("activity", "--repo", future, "--json")
eq(r.rc, 0, "a commit dated 9999: activity exits 0")
ok("1 commit is dated in the future (the latest 9999-01-01)" in r.err,
   "... warning about the outlier", r.err)
if r.rc == 0 and base.rc == 0:
    def inactive(doc):
        return [(e.get("name"), sorted(p.get("name", "")
                                       for p in e.get("people", [])
                                       if p.get("inactive")))
                for e in doc.get("entries", [])]
    eq(inactive(r.json()), inactive(base.json()),
       "... the same entries and the same INACTIVE people as without it")

# A shallow clone (git clone --depth): libgit2 1.5 walked nothing at all and
# every listed person came out INACTIVE.  The commits it has are read, the
# boundary left out and said, and absence before it is no evidence.
shallow = os.path.join(tmp, "shallow.git")
subprocess.run(["git", "clone", "-q", "--bare", "--depth", "40",
                "file://" + repo, shallow], check=True)
nr_shallow = int(subprocess.run(
    ["git", "--git-dir", shallow, "rev-list", "--count", "HEAD"],
    check=True, capture_output=True, text=True).stdout)
r = run("activity", "--repo", shallow, "--json", "--no-cache")
eq(r.rc, 0, "a shallow clone: activity exits 0")
ok("shallow clone:" in r.err and "git fetch --unshallow" in r.err,
   "... says the history is cut short and how to get all of it", r.err)
ok("no one is called inactive" in r.err, "... and what that means", r.err)
if r.rc == 0:
    doc = r.json()
    ok(sum(e.get("commits", 0) for e in doc.get("entries", [])) > 0,
       "... its commits are read (%d in the clone)" % nr_shallow)
    eq([p.get("name") for e in doc.get("entries", [])
        for p in e.get("people", []) if p.get("inactive")], [],
       "... no one is INACTIVE for want of older history")
r2 = run("activity", "--repo", shallow, "--json")
eq((r2.rc, r2.out), (r.rc, r.out), "a shallow clone through the store: "
   "the same report (it is not cached)")
def retire_patches(gitdir, name):
    r = run("retire", "--repo", gitdir, "--min-commits", "1", "--json",
            "--no-credits", "--from", "Ann Auditor <ann@example.org>",
            "--output-dir", os.path.join(tmp, name))
    return r.rc, len(r.json().get("patch_files", [])) if r.rc == 0 else r.err


full_rc, full_n = retire_patches(repo, "full-retire")
ok(full_rc == 0 and full_n > 0, "retire on the whole history proposes "
   "patches (so the next check can fail)", (full_rc, full_n))
eq(retire_patches(shallow, "shallow-retire"), (0, 0),
   "retire on a shallow clone proposes no one")

subprocess.run(["rm", "-rf", tmp])
done()
