#!/usr/bin/env python3
"""maintstat maintainers --activity on the planted repository of
fixtures/gen/gen-repo.py (see fixtures/gen/README.md): Ivan, who has done
nothing in ALPHA DRIVER for years, is marked inactive with the month of
his last commit; Alice and Rita are not; the unlisted reviewers Rex, Tess
and Uma are suggested as de-facto reviewers; --active-only drops exactly
Ivan.  With --archive, on the repository and list of
fixtures/gen/gen-review.py: each listed person's replies and median time
to a first reply in the entry, and someone active on the list is not
called inactive."""
import json
import os
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
repo = os.path.join(tmp, "planted.git")
truth_file = os.path.join(tmp, "truth.json")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo, "--truth", truth_file], check=True)
with open(truth_file) as fp:
    truth = json.load(fp)
ivan_month = time.strftime("%Y-%m", time.gmtime(truth["ivan_last"])) \
    if "ivan_last" in truth else None

PATH = "drivers/alpha/alpha_main.c"
r = run("maintainers", "--repo", repo, "--no-cache", PATH)
eq(r.rc, 0, "without --activity: exit 0")
plain = r.out.splitlines()

r = run("maintainers", "--repo", repo, "--no-cache", "--activity", PATH)
eq(r.rc, 0, "--activity: exit 0")
lines = r.out.splitlines()
ivan = [l for l in lines if "ivan@example.org" in l]
ok(len(ivan) == 1 and "(maintainer:ALPHA DRIVER, inactive since " in ivan[0],
   "Ivan is marked inactive", r.out)
if ivan_month:
    ok(ivan and ivan[0].endswith(f"inactive since {ivan_month})"),
       f"...since the month of his last commit ({ivan_month})", ivan)
ok(not any("inactive" in l for l in lines if "ivan@" not in l),
   "nobody else is marked inactive", r.out)
defacto = [l for l in lines if "de-facto reviewer:ALPHA DRIVER" in l]
eq(sorted(l.split("<")[1].split(">")[0] for l in defacto),
   ["rex@example.net", "tess@example.net", "uma@example.net"],
   "the unlisted reviewers are suggested")
ok(all(" reviews)" in l or " review)" in l for l in defacto),
   "...with their review counts", defacto)
ok(not any("rita@" in l for l in defacto), "Rita, listed, is not repeated")
eq([l for l in lines if "de-facto" not in l and "inactive" not in l],
   [l for l in plain if "ivan@" not in l],
   "the rest is get_maintainer.pl's answer, unchanged")
first_list = next(i for i, l in enumerate(lines) if "list" in l)
ok(all(i < first_list for i, l in enumerate(lines) if "de-facto" in l),
   "suggestions come after the people, before the lists", r.out)

r = run("maintainers", "--repo", repo, "--no-cache", "--activity",
        "--active-only", PATH)
eq(r.rc, 0, "--active-only: exit 0")
only = r.out.splitlines()
eq([l for l in only if "de-facto" not in l],
   [l for l in plain if "ivan@" not in l],
   "--active-only drops exactly Ivan")

r = run("maintainers", "--repo", repo, "--no-cache", "--activity",
        "--active-only", "--to-cc", PATH)
import shlex  # noqa: E402
args = shlex.split(r.out)
ok("--to=alice@example.org" in args and
   not any("ivan@" in a for a in args) and
   "--cc=rex@example.net" in args,
   "--to-cc --active-only: Alice to, Ivan gone, Rex cc'd", r.out)

r = run("maintainers", "--repo", repo, "--no-cache", "--activity", "--json",
        PATH)
cc = {c["email"]: c for c in r.json()["cc"]}
eq(cc["ivan@example.org"]["activity"]["inactive"], True, "JSON: inactive")
eq(cc["alice@example.org"]["activity"]["inactive"], False,
   "JSON: Alice active")
ok(cc["alice@example.org"]["activity"]["authored"] > 0,
   "JSON: Alice's authored commits in the window")

# --archive: the list facts planted by gen-review.py (FOO DRIVER: Fay
# replies first to A after 5 h and B v1 after 30 h, Rob to A after 2 h,
# B v3 after 10 h and H at once: 2 and 3 patches, medians 17.5 h and 2 h;
# BAZ LEGACY's Old Ghost answers nothing)
rv = os.path.join(tmp, "review")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"), rv],
               check=True, stdout=subprocess.DEVNULL)
RV = ["--repo", os.path.join(rv, "repo"), "--no-cache", "--activity"]
MBOX = os.path.join(rv, "list.mbox")
r = run("maintainers", *RV, "--archive", MBOX, "drivers/foo/core.c",
        "drivers/baz/core.c")
eq(r.rc, 0, "--archive: exit 0")
lines = r.out.splitlines()
ok("Fay Foo <fay@example.org> (maintainer:FOO DRIVER, 2 replies, median "
   "17.5h)" in lines, "--archive: Fay's replies and median", r.out)
ok("Rob Review <rob@example.org> (reviewer:FOO DRIVER, 3 replies, median "
   "2.0h)" in lines, "--archive: Rob's replies and median", r.out)
ok("Old Ghost <ghost@example.org> (maintainer:BAZ LEGACY DRIVER, 0 "
   "replies, inactive: nothing in the entry)" in lines,
   "--archive: Old Ghost replied to nothing and, never in the history, "
   "is inactive (as activity says)", r.out)
# .mailmap maps Fay's listed address to another, which the line prints
# (get_maintainer.pl does): her replies are still those of the address
# FOO DRIVER lists (erofs-utils' Chengyu Zhu had "0 replies")
mm = os.path.join(tmp, "mailmapped")
subprocess.run(["git", "clone", "-q", os.path.join(rv, "repo"), mm],
               check=True)
with open(os.path.join(mm, ".mailmap"), "a") as fp:
    fp.write("Fay Foo <fay.foo@new.example> <fay@example.org>\n")
subprocess.run(["git", "-C", mm, "-c", "user.name=Fay Foo", "-c",
                "user.email=fay@example.org", "commit", "-q", "-a", "-m",
                "mailmap"], check=True, env=dict(
                    os.environ, GIT_AUTHOR_DATE="1710324001 +0000",
                    GIT_COMMITTER_DATE="1710324001 +0000"))
r = run("maintainers", "--repo", mm, "--no-cache", "--activity",
        "--archive", MBOX, "drivers/foo/core.c")
ok("Fay Foo <fay.foo@new.example> (maintainer:FOO DRIVER, 2 replies, "
   "median 17.5h)" in r.out.splitlines(), "--archive, a .mailmap'd "
   "listed address: Fay's replies and median all the same", r.out)
r = run("maintainers", *RV, "--archive", MBOX, "--json",
        "drivers/foo/core.c")
cc = {c["email"]: c for c in r.json()["cc"]}
eq(cc["rob@example.org"]["activity"]["on_list"],
   {"patches": 5, "replied": 3, "median_latency_hours": 2.0,
    "active_on_list": True}, "--archive --json: Rob's list figures")
eq(cc["fay@example.org"]["activity"]["on_list"][
    "median_latency_hours"],
   17.5, "--archive --json: Fay's median")
# Rob's last commit in FOO is a tag of 2024-03-10, his last list message
# is dated 2024-03-11 09:00: inactive after 2024-03-11 by git alone, not
# with the list
CUT = ["--inactive-after", "2024-03-11"]
r = run("maintainers", *RV, *CUT, "drivers/foo/core.c")
ok("Rob Review <rob@example.org> (reviewer:FOO DRIVER, inactive since "
   "2024-03)" in r.out.splitlines(), "git alone: Rob inactive", r.out)
r = run("maintainers", *RV, *CUT, "--archive", MBOX, "--active-only",
        "drivers/foo/core.c")
ok(any(l.startswith("Rob Review <rob@example.org> (reviewer:FOO DRIVER, "
                    "3 replies") for l in r.out.splitlines()),
   "with the list: Rob active, kept by --active-only", r.out)
ok("inactive" not in r.out, "with the list: nobody inactive", r.out)
r = run("maintainers", "--repo", os.path.join(rv, "repo"), "--archive",
        MBOX, "drivers/foo/core.c")
eq(r.rc, 2, "--archive without --activity is a usage error")
r = run("maintainers", *RV, "--archive", os.path.join(rv, "none.mbox"),
        "drivers/foo/core.c")
eq(r.rc, 1, "a missing archive: runtime failure")
ok("none.mbox" in r.err, "naming it", r.err)


# --archive without --repo: the list's facts alone, on a checkout of the
# same tree; nobody is called inactive (Old Ghost answered nothing on the
# list, but the list alone is no evidence) and the text says so
TREE = ["--tree", os.path.join(rv, "repo"), "--no-cache", "--activity"]
r = run("maintainers", *TREE, "--archive", MBOX, "drivers/foo/core.c",
        "drivers/baz/core.c")
eq(r.rc, 0, "--archive alone: exit 0")
lines = r.out.splitlines()
ok("Fay Foo <fay@example.org> (maintainer:FOO DRIVER, 2 replies, median "
   "17.5h)" in lines, "--archive alone: Fay's replies and median", r.out)
ok("Rob Review <rob@example.org> (reviewer:FOO DRIVER, 3 replies, median "
   "2.0h)" in lines, "--archive alone: Rob's replies and median", r.out)
ok("Old Ghost <ghost@example.org> (maintainer:BAZ LEGACY DRIVER, 0 "
   "replies)" in lines, "--archive alone: Old Ghost replied to nothing, "
   "and is not called inactive", r.out)
ok("inactive" not in r.out and "de-facto" not in r.out,
   "--archive alone: no inactive mark, no de-facto reviewer", r.out)
ok("list facts only (no --repo)" in r.err and "no commit facts" in r.err,
   "--archive alone: the text says there are no commit facts", r.err)
r = run("maintainers", *TREE, "--archive", MBOX, "--json",
        "drivers/foo/core.c")
cc = {c["email"]: c for c in r.json()["cc"]}
eq(cc["rob@example.org"]["activity"],
   {"inactive": None, "verdict": "active_on_list", "role_address": False,
    "seen_anywhere": None,
    "last_activity": None, "authored": None, "committed": None,
    "tagged": None,
    "on_list": {"patches": 5, "replied": 3, "median_latency_hours": 2.0,
                "active_on_list": True}},
   "--archive alone --json: the list's figures, null commit facts")
r = run("maintainers", *TREE, "--archive", MBOX, "--active-only",
        "drivers/foo/core.c")
ok(r.rc == 2 and "--active-only needs --repo" in r.err,
   "--archive alone with --active-only: usage error", r.err)
r = run("maintainers", "--tree", tmp, "--activity", PATH)
ok(r.rc == 2 and "--archive" in r.err,
   "--activity with neither --repo nor --archive is a usage error", r.err)
r = run("maintainers", "--repo", repo, "--active-only", PATH)
eq(r.rc, 2, "--active-only without --activity is a usage error")
done()
