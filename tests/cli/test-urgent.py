#!/usr/bin/env python3
"""maintstat urgent on the planted repository of fixtures/gen/gen-repo.py:
exactly DELTA (no maintainer), EPSILON (maintainer never seen) and ZETA
(maintainer idle for years), with their de-facto committers.  With
--archive, on the repository and list of fixtures/gen/gen-review.py:
exactly one planted entry in each of LWN's four categories, text and
JSON."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import SCHEMA, run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
repo = os.path.join(tmp, "planted.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo], check=True)


def names(text):
    return [l[len("Subsystem "):] for l in text.splitlines()
            if l.startswith("Subsystem ")]


DELTA, EPS, ZETA = ("DELTA BUSY WITHOUT MAINTAINER", "EPSILON NEVER SEEN",
                    "ZETA IDLE")

# LWN's question: maintainers idle six months (the default, 5y, is every
# command's: Zed, idle since 2022, is not inactive by it)
r = run("urgent", "--repo", repo)
eq(names(r.out), [DELTA, EPS], "default --inactive-after 5y: Zed, idle "
   "two years, is not inactive")
r = run("urgent", "--repo", repo, "--inactive-after", "6m")
eq(r.rc, 0, "urgent exits 0")
eq(names(r.out), [DELTA, EPS, ZETA], "the three planted entries, busiest "
   "first")
want = """\
Subsystem DELTA BUSY WITHOUT MAINTAINER
  Commits 60 since 2023-06-01
  No maintainer listed
  Committed by:
    [45]: Carl Committer <carl@example.org>
    [15]: Dana Deputy <dana@example.org>

Subsystem EPSILON NEVER SEEN
  Commits 55 since 2023-06-01
  Maintainer Nora Never <nora@example.org>: never seen in the history
  Committed by:
    [40]: Sam Signer <sam@example.org>
    [15]: Ted Tree <ted@example.org>

Subsystem ZETA IDLE
  Commits 52 since 2023-06-01
  Maintainer Zed Idle <zed@example.org>: last active here 2022-"""
head, body = r.out.split("\n\n", 1)
ok(head.startswith("Repository " + repo + " at HEAD (") and
   "\nWindow: commits dated 2023-06-01 to 2024-06-01 (UTC)\n" in head and
   "\nIdentities: HEAD's .mailmap, changes of address in MAINTAINERS, "
   "equal names, plus-address folding" in head and
   "\nInactive: listed people with nothing since 2023-12-01 (merge commits "
   "left out: --merges counts them)\n" in head,
   "the text report starts with its context (a project merging on "
   "GitHub is told its merges were not counted)", head)
ok(body.startswith(want), "text report: counts, reasons and the "
   "de-facto committers (a bot's commits go to the last Signed-off-by)",
   r.out)
ok(r.out.endswith("  Committed by:\n    [52]: Quinn Quick "
                  "<quinn@example.org>\n"), "Quinn commits ZETA", r.out)

r = run("urgent", "--repo", repo, "--merges", "--inactive-after", "6m")
ok(r.rc == 0 and "\nInactive: listed people with nothing since 2023-12-01\n"
   in r.out, "--merges: no word of merges left out", r.out)
r = run("urgent", "--repo", repo, "--never")
eq(names(r.out), [EPS], "--never: only EPSILON")
r = run("urgent", "--repo", repo, "--nomaint")
eq(names(r.out), [DELTA], "--nomaint: only DELTA")
r = run("urgent", "--repo", repo, "--months", "36")
eq(names(r.out), [DELTA, EPS], "--months 36: Zed counts as active")
r = run("urgent", "--repo", repo, "--min-commits", "56")
eq(names(r.out), [DELTA], "--min-commits 56")
r = run("urgent", "--repo", repo, "--since", "2024-03-01",
        "--inactive-after", "6m", "--min-commits", "50")
ok(all(n in (DELTA, EPS, ZETA) for n in names(r.out)) and
   len(names(r.out)) < 3, "--since narrows the window", r.out)

r = run("urgent", "--repo", repo, "--json", "--inactive-after", "6m")
eq(r.rc, 0, "--json exits 0")
j = r.json()
eq(j["schema_version"], SCHEMA, "schema_version")
eq(j["window"]["since"], "2023-06-01T12:00:00+00:00",
   "one year before the newest commit")
eq([(e["name"], e["commits"], e["reason"]) for e in j["entries"]],
   [(DELTA, 60, "no_maintainer"), (EPS, 55, "never"),
    (ZETA, 52, "inactive")], "JSON entries")
eq([(c["email"], c["count"]) for c in j["entries"][1]["committers"]],
   [("sam@example.org", 40), ("ted@example.org", 15)], "JSON committers")
eq(j["entries"][1]["maintainers"],
   [{"role": "M", "name": "Nora Never", "email": "nora@example.org",
     "last_authored": None, "last_committed": None, "last_tagged": None,
     "last_activity": None, "seen_anywhere": False, "inactive": True,
     "verdict": "never_active", "listed_late": False,
     "active_elsewhere_until": None, "also": [], "joins": [],
     "role_address": False}],
   "JSON maintainers of EPSILON: activity's listed person")
ok(j["entries"][2]["maintainers"][0]["last_activity"].startswith("2022-"),
   "JSON: Zed last active in 2022")

r = run("urgent", "--repo", repo, "--never", "--nomaint")
eq(r.rc, 2, "--never and --nomaint exclude each other")
r = run("urgent", "--repo", tmp)
eq(r.rc, 1, "not a git repository: exit 1")
ok("not a git repository" in r.err, "...said so", r.err)
r = run("urgent", "--repo", repo, "--rev", "nope")
eq(r.rc, 1, "unknown revision: exit 1")
r = run("urgent", "--repo", repo, "--months", "many")
eq(r.rc, 2, "--months takes a number")

# --archive: LWN's four categories on gen-review.py's planted facts
# (fixtures/gen/README.md): WIDGET CORNER's only file is also matched by the
# active FOO DRIVER (overlap); BAR CHIP's role address never appears while
# Cora of its domain acks (corporate alias); Dan answers first on both BAZ
# patches and commits them (de-facto maintainer); ZOO ORPHAN's three
# commits have three committers, LAST RESORT's two are Linus's, who
# commits in 14 entries (truly unmaintained, both ways).
rv = os.path.join(tmp, "review")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"), rv],
               check=True)
rrepo, mbox = os.path.join(rv, "repo"), os.path.join(rv, "list.mbox")
args = ["urgent", "--repo", rrepo, "--archive", mbox, "--min-commits", "1",
        "--months", "0", "--aliases", os.path.join(rv, "aliases")]
CATS = [("WIDGET CORNER", "overlap",
         "1 of 1 files also claimed by active FOO DRIVER"),
        ("BAR CHIP DRIVER", "corporate_alias",
         "support.opensource@corp.example.com is answered by 1 people of "
         "its domain"),
        ("BAZ LEGACY DRIVER", "defacto_maintainer",
         "dan@example.net handles its patches"),
        ("ZOO ORPHAN DRIVER", "unmaintained",
         "merged by many different committers"),
        ("LAST RESORT DRIVER", "unmaintained",
         "merged by a maintainer of last resort: linus@example.org, a top "
         "committer of 14 entries")]
r = run(*args, "--json")
eq(r.rc, 0, "urgent --archive --json exits 0")
eq([(e["name"], e["category"], e["category_reason"])
    for e in r.json()["entries"]], CATS,
   "exactly the planted entry in each category, in LWN's order")
ok(all("list" in e for e in r.json()["entries"]),
   "each entry carries its list facts")
r = run(*args)
eq(r.rc, 0, "urgent --archive exits 0")
eq(names(r.out), [c[0] for c in CATS], "text: the same entries, same order")
blocks = r.out.split("\n\n")[1:]  # after the context
for (name, cat, why), block in zip(CATS, blocks):
    ok(block.startswith(f"Subsystem {name}\n") and
       f"\n  Category: {cat} ({why})\n" in block,
       f"text: {name} is {cat}", block)
ok("\n  List: no patches" in blocks[3], "ZOO ORPHAN has no patches")
ok("  [1]: Bob Builder <bob@example.net>\n    [1]: Fay Foo" in blocks[3],
   "ZOO ORPHAN: three committers, one commit each", blocks[3])

subprocess.run(["rm", "-rf", tmp])
done()
