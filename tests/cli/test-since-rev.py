#!/usr/bin/env python3
"""--since REV means the commits not reachable from REV (git's REV..),
not those dated after REV's commit date (issue 16, item 12), in
activity, review, link, retire and urgent.

The repository built here makes the two disagree both ways:

  C0 (2024-01-01) -- B (committed 2024-02-15, skewed) -- V (2024-02-01,
  tag v1) -- C2 (2024-03-01) -- M (merge, 2024-03-05)
     \\-- S (2024-01-10, a branch merged by M) ------------/

v1.. is {C2, S, M}: S is dated before v1 yet new; B is dated after v1
yet in v1's history.  By dates, --since v1 would count B, V and C2."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402


def git(repo, *args, env=None):
    e = dict(os.environ)
    e.update({"GIT_CONFIG_NOSYSTEM": "1", "HOME": repo, "LC_ALL": "C",
              "TZ": "UTC"})
    e.update(env or {})
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          stdout=subprocess.PIPE, text=True, env=e).stdout


tmp = tmpdir()
repo = os.path.join(tmp, "repo")
os.makedirs(repo)

MAINTAINERS = """\
FOO DRIVER
M:\tFay Foo <fay@example.org>
R:\tRob Review <rob@example.org>
L:\tfoo@lists.example.org
S:\tMaintained
F:\tdrivers/foo/
"""

PEOPLE = {
    "fay": ("Fay Foo", "fay@example.org"),
    "bob": ("Bob Skew", "bob@example.net"),
    "sam": ("Sam Side", "sam@example.net"),
    "ann": ("Ann Main", "ann@example.net"),
}


def commit(who, date, msg, path, text):
    full = os.path.join(repo, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "a") as f:
        f.write(text)
    git(repo, "add", "-A")
    name, email = PEOPLE[who]
    env = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
           "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_NAME": name,
           "GIT_COMMITTER_EMAIL": email, "GIT_COMMITTER_DATE": date}
    git(repo, "commit", "-q", "-m", msg, env=env)
    return git(repo, "rev-parse", "HEAD").strip()


git(repo, "init", "-q", "-b", "main")
c0 = commit("fay", "2024-01-01T10:00:00+00:00", "initial",
            "MAINTAINERS", MAINTAINERS)
commit("fay", "2024-01-01T10:00:00+00:00", "foo: core", "drivers/foo/a.c",
       "int a;\n")
git(repo, "checkout", "-q", "-b", "side")
s = commit("sam", "2024-01-10T10:00:00+00:00",
           "foo: side work\n\nReviewed-by: Rob Review <rob@example.org>",
           "drivers/foo/s.c", "int s;\n")
git(repo, "checkout", "-q", "main")
b = commit("bob", "2024-02-15T10:00:00+00:00", "foo: skewed clock",
           "drivers/foo/a.c", "int b;\n")
v = commit("fay", "2024-02-01T10:00:00+00:00", "foo: release",
           "drivers/foo/a.c", "int v;\n")
git(repo, "tag", "v1")
c2 = commit("ann", "2024-03-01T10:00:00+00:00", "foo: after the release",
            "drivers/foo/a.c", "int c2;\n")
git(repo, "merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side",
    env={"GIT_AUTHOR_NAME": "Fay Foo", "GIT_AUTHOR_EMAIL": "fay@example.org",
         "GIT_AUTHOR_DATE": "2024-03-05T10:00:00+00:00",
         "GIT_COMMITTER_NAME": "Fay Foo",
         "GIT_COMMITTER_EMAIL": "fay@example.org",
         "GIT_COMMITTER_DATE": "2024-03-05T10:00:00+00:00"})
# git itself agrees on the planted facts
eq(sorted(git(repo, "rev-list", "--no-merges", "v1..HEAD").split()),
   sorted([c2, s]), "git: v1.. is C2 and S (no merges)")

# a list with one patch after v1, so that review and link have an archive
mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as f:
    f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
            "From: Ann Main <ann@example.net>\n"
            "Date: Fri, 01 Mar 2024 09:00:00 +0000\n"
            "Subject: [PATCH] foo: after the release\n"
            "Message-ID: <c2@example.net>\n"
            "To: foo@lists.example.org\n\n"
            "Details.\n\nSigned-off-by: Ann Main <ann@example.net>\n---\n"
            "diff --git a/drivers/foo/a.c b/drivers/foo/a.c\n"
            "--- a/drivers/foo/a.c\n+++ b/drivers/foo/a.c\n"
            "@@ -1 +1,2 @@\n int a;\n+int c2;\n\n")

# activity: the window's commits are S and C2
r = run("activity", "--repo", repo, "--since", "v1", "--json", "FOO DRIVER")
ok(r.rc == 0, "activity --since v1 exits 0", r.err)
e = r.json()["entries"][0]
eq(e["commits"], 2, "activity: v1.. holds 2 commits (S, dated before v1, "
   "and C2), not B (dated after v1, in its history)")
eq(e["reviewed"], 1, "activity: S, merged from an old branch, is reviewed")
people = {p["email"]: p for p in e["people"]}
eq(people["rob@example.org"]["last_tagged"]["count"], 1,
   "Rob's tag on S is in the window")
eq(people["fay@example.org"]["last_committed"]["count"], 0,
   "Fay committed V, which is v1 itself: not in the window")
r = run("activity", "--repo", repo, "--since", "2024-02-01", "--json",
        "FOO DRIVER")
eq(r.json()["entries"][0]["commits"], 3, "activity --since 2024-02-01 (a "
   "date) still means the commit date: B, V and C2")
t = run("activity", "--repo", repo, "--since", "v1", "FOO DRIVER").out
ok("  Changes: reviewed 1 of 2 commits (50%)\n" in t, "activity text: 1 of the 2 commits of "
   "v1.. reviewed", t)
ok(f"    Tags {s[:12]} 2024-01-10" in t, "activity text: Rob's tag on S, "
   "dated before v1", t)
t = run("activity", "--repo", repo, "--since", "2024-02-01",
        "FOO DRIVER").out
ok("  Changes: reviewed 0 of 3 commits (0%)\n" in t, "activity text, a date: 3 commits, none "
   "reviewed", t)
r = run("activity", "--repo", repo, "--since", "nosuchrev", "--json")
eq(r.rc, 2, "--since neither a date nor a revision: usage error")

# link: the commits of the window
r = run("link", "--repo", repo, "--archive", mbox, "--since", "v1",
        "--json")
ok(r.rc == 0, "link --since v1 exits 0", r.err)
eq(r.json()["counts"]["commits"], 2, "link: v1.. holds 2 commits")
eq(r.json()["unlinked_commits"], [s], "link: S, never posted, is unlinked; C2 is "
   "linked to its posting")

# review: the entry's commits of the window
r = run("review", "--repo", repo, "--archive", mbox, "--since", "v1",
        "--json", "FOO DRIVER")
ok(r.rc == 0, "review --since v1 exits 0", r.err)
eq(r.json()["entries"][0]["commits"], 2, "review: v1.. holds 2 commits")

# review --by: the intervals start at v1's month, and S, in v1.. but
# dated before it, counts in the first (a month with commits and no
# patch is no empty month); the intervals add up to the window
r = run("review", "--repo", repo, "--archive", mbox, "--since", "v1",
        "--by", "month", "--json", "FOO DRIVER")
ok(r.rc == 0, "review --since v1 --by month exits 0", r.err)
ser = r.json()["entries"][0]["intervals"]
eq(sum((x or {}).get("commits") or 0 for x in ser), 2,
   "review --by month: the months' commits add up to v1..'s 2")
r = run("activity", "--repo", repo, "--since", "v1", "--by", "month",
        "--json", "--no-cache", "FOO DRIVER")
ok(r.rc == 0, "activity --since v1 --by month exits 0", r.err)
ser = r.json()["entries"][0]["intervals"]
eq(sum((x or {}).get("commits") or 0 for x in ser), 2,
   "activity --by month: the months' commits add up to v1..'s 2")

# urgent: FOO has 2 commits in v1.., 3 after v1's date
for since, want in (("v1", [("FOO DRIVER", 2)]),
                    ("2024-02-01", [("FOO DRIVER", 3)])):
    r = run("urgent", "--repo", repo, "--since", since, "--months", "0",
            "--min-commits", "2", "--json")
    ok(r.rc == 0, f"urgent --since {since} exits 0", r.err)
    eq([(x["name"], x["commits"]) for x in r.json()["entries"]], want,
       f"urgent --since {since}: FOO's commits in the window")
r = run("urgent", "--repo", repo, "--since", "v1", "--months", "0",
        "--min-commits", "3", "--json")
eq(r.json()["entries"], [], "urgent --since v1 --min-commits 3: FOO has "
   "only 2")

# retire: an entry needs --min-commits commits in the window
rdir = os.path.join(tmp, "retire")
os.makedirs(rdir)
for since, n, want in (("v1", 2, True), ("v1", 3, False),
                       ("2024-02-01", 3, True)):
    for f in os.listdir(rdir):
        os.unlink(os.path.join(rdir, f))
    r = run("retire", "--repo", repo, "--since", since, "--min-commits",
            str(n), "--inactive-after", "2024-02-20", "--no-credits",
            cwd=rdir)
    ok(r.rc == 0, f"retire --since {since} --min-commits {n} exits 0",
       r.err)
    eq(any("FOO-DRIVER" in f for f in os.listdir(rdir)), want,
       f"retire --since {since} --min-commits {n}: FOO "
       + ("is" if want else "is not") + " eligible")
done()
