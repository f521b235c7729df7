#!/usr/bin/env python3
"""maintstat review on the planted repository and list archive of
fixtures/gen/gen-review.py (the facts are listed in fixtures/gen/README.md):
response times, ignored patches (no reply; only a bot and the author),
a patch applied in its v3, clamped clock skew, per-person figures and
scores, the tag ledger (a dropped Acked-by, an untraced Reviewed-by), a
corporate alias, a de-facto maintainer, inactive maintainers; text and
JSON; every bad input."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402

tmp = tmpdir()
out = os.path.join(tmp, "gen")
truth_path = os.path.join(tmp, "truth.json")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"),
                out, "--truth", truth_path], check=True)
ids = json.load(open(truth_path))["commits"]
repo = os.path.join(out, "repo")
mbox = os.path.join(out, "list.mbox")
aliases = os.path.join(out, "aliases")
URL = "https://lists.example.org/foo"

r = run("review", "--repo", repo, "--archive", mbox, "--json",
        "--list-url", URL, "--aliases", aliases)
eq(r.rc, 0, "review exits 0")
doc = r.json()
ok("schema_version" in doc, "schema_version present")
ents = {e["name"]: e for e in doc["entries"]}
eq(sorted(ents), ["BAR CHIP DRIVER", "BAZ LEGACY DRIVER", "FOO DRIVER",
                  "QUX SENSOR DRIVER", "WIDGET CORNER"],
   "every entry with patches (ZOO ORPHAN has none)")
eq(doc["negative_intervals"], 1, "one negative interval in all")

foo = ents["FOO DRIVER"]
for k, v in {"patches": 5, "series": 5, "replied": 3, "replied_by_listed": 3,
             "review_tagged": 2, "ignored": 2, "merged": 2,
             "negative_intervals": 1}.items():
    eq(foo[k], v, f"FOO {k}")
eq(foo["time_to_first_response"], {"median_hours": 2.0, "p90_hours": 30.0},
   "FOO time to first response (2h, 30h, clamped 0h)")
eq(foo["time_to_first_maintainer_response"],
   {"median_hours": 2.0, "p90_hours": 30.0},
   "FOO time to first listed response")
eq(foo["time_to_first_review_tag"],
   {"median_hours": 79.5, "p90_hours": 154.0},
   "FOO time to first review tag, from the first posting of any version "
   "(Fay 5h on A; Rob 10h after B v3, 154h after B v1)")
eq(foo["review_cycle_duration"], {"median_hours": 120.0, "p90_hours": 192.0},
   "FOO posting to commit (A 48h, B from v1 192h)")
eq(foo["responsiveness"], 0.6, "FOO responsiveness within 48h")
people = {p["email"]: p for p in foo["people"]}
eq([p["role"] for p in foo["people"]], ["M", "R"], "listed M: and R:")
eq(people["fay@example.org"]["replied"], 2, "Fay replied to 2 patches")
eq(people["fay@example.org"]["median_latency_hours"], 17.5,
   "Fay's median latency (5h, 30h)")
eq(people["fay@example.org"]["tags"]["reviewed_by"], 1, "Fay's tag")
eq(people["rob@example.org"]["replied"], 3, "Rob replied to 3 patches")
eq(people["rob@example.org"]["median_latency_hours"], 2.0,
   "Rob's median latency (2h, 154h, 0h)")
eq(people["rob@example.org"]["responsiveness"], 0.4,
   "Rob's score: A and H within 48h of their first posting, B not (154h)")
eq(people["rob@example.org"]["netdev_score"], 2 * 3 + 8 * 3 + 2 * 2,
   "Rob's netdev reviewer score")
ok(not people["rob@example.org"]["inactive"],
   "Rob tags rarely but reviews on the list: not inactive")
ok(people["rob@example.org"]["git"]["last_authored"] is None,
   "Rob never authors in git")
pl = {p["message_id"]: p for p in foo["patch_list"]}
eq(sorted(m for m, p in pl.items() if p["is_ignored"]),
   ["c1@example.net", "d1@example.net"], "ignored: no reply, bot + self")
eq(pl["d1@example.net"]["first_response"], None,
   "the bot and the author's own reply are no response")
eq(pl["b1@example.net"]["versions"],
   ["b1@example.net", "b2@example.net", "b3@example.net"],
   "the three versions of B are one patch")
eq(pl["b1@example.net"]["merged_as"], {"commit": ids["B"], "hours": 192.0},
   "B merged in its v3")
eq((pl["b1@example.net"]["state"],
    pl["b1@example.net"]["state_evidence"]["commit"]),
   ("accepted", ids["B"]), "B accepted by its commit, without a notice")
eq(pl["b1@example.net"]["first_response"]["from"]["email"],
   "fay@example.org",
   "B first answered by Fay")
eq(pl["a1@example.net"]["first_response"]["url"],
   URL + "/a1-r1@example.org/", "evidence URL from --list-url")
eq(pl["h1@example.net"]["first_response"]["clamped"], True,
   "H's reply before the posting is clamped")
eq(pl["h1@example.net"]["first_response"]["hours"], 0.0, "clamped to 0")
others = [p["email"] for p in foo["others"]]
ok("lkp@intel.com" not in others, "the bot is not a replier")
ok("rob.review@home.example.net" not in others,
   "Rob's second address (.mailmap) is Rob, not another replier")
ok(not any("fay+" in o.lower() for o in others),
   "Fay+lists@Example.ORG (case, plus-folding) is Fay")
ok("quoted@example.org" not in json.dumps(doc),
   "trailers in quoted text are not tags")

bar = ents["BAR CHIP DRIVER"]
eq(bar["corporate_aliases"],
   [{"email": "support.opensource@corp.example.com",
     "name": "Dialog Support",
     "people": [{"name": "Cora Corp", "email": "cora@corp.example.com"}]}],
   "the role address is a corporate alias for Cora; the R: address "
   "chip.support@, which acked a commit 400 days earlier, is not")
r = run("review", "--repo", repo, "--archive", mbox, "--json", "--since",
        "2024-01-01", "BAR CHIP DRIVER")
eq([a["email"] for a in r.json()["entries"][0]["corporate_aliases"]],
   ["support.opensource@corp.example.com"],
   "with --since after chip.support@'s ack and bar.team@'s only message, "
   "the rule still reads the whole history and archive: neither is a "
   "corporate alias")
eq([(t["tag"], t["email"], t.get("message_id"))
    for t in bar["tag_ledger"]["dropped"]],
   [("Acked-by", "cora@corp.example.com", "e1-r1@corp.example.com")],
   "Cora's Acked-by was dropped from the commit")
eq([(t["tag"], t["email"], t["commit"])
    for t in bar["tag_ledger"]["untraced"]],
   [("Reviewed-by", "zed@example.org", ids["E"])],
   "Zed's Reviewed-by has no trace on the list")
eq(bar["defacto_maintainers"], [], "one applied patch makes nobody "
   "de-facto")
ok(not bar["people"][0]["inactive"] and bar["people"][0]["role_address"],
   "the role address is reported as one, not as an inactive person")

baz = ents["BAZ LEGACY DRIVER"]
eq([(d["email"], d["applied"], d["first_responses"])
    for d in baz["defacto_maintainers"]],
   [("dan@example.net", 2, 2)], "Dan is BAZ's de-facto maintainer")
ok(baz["people"][0]["inactive"], "Old Ghost is inactive")
ok("dan@oldjob.example.com" not in [p["email"] for p in baz["others"]],
   "with --aliases, Dan's old address is Dan")

qux = ents["QUX SENSOR DRIVER"]
quinn = qux["people"][0]
eq((quinn["email"], quinn["replied"], quinn["tags"]["acked_by"]),
   ("quinn@qux.example.com", 2, 1),
   "Quinn, replying from his .mailmap'd second address, answered both "
   "QUX patches and acked one")
eq(qux["replied_by_listed"], 2, "QUX: both patches answered by a listed "
   "person")
eq(qux["corporate_aliases"], [], "Quinn posts (from his second address): "
   "not a corporate alias")
eq(qux["defacto_maintainers"], [], "Quinn's second address is no de-facto "
   "maintainer")
eq([p["email"] for p in qux["others"] if p["replied"]],
   ["pat@qux.example.com"], "only Pat is another replier")

# without the .mailmap (the revision before it), --aliases nor name joins:
# the second addresses are other people, and the conclusions go wrong as
# planted
r = run("review", "--repo", repo, "--archive", mbox, "--json", "--rev",
        ids["fixup"] + "~1", "--no-name-join")
eq(r.rc, 0, "review at the revision before the .mailmap exits 0")
e2 = {e["name"]: e for e in r.json()["entries"]}
eq([p["replied"] for p in e2["FOO DRIVER"]["people"]
    if p["email"] == "rob@example.org"], [2],
   "without the .mailmap Rob's reply from home is not his")
eq([a["email"] for a in e2["QUX SENSOR DRIVER"]["corporate_aliases"]],
   ["quinn@qux.example.com"], "... and Quinn looks like a corporate alias")
eq([d["email"] for d in e2["QUX SENSOR DRIVER"]["defacto_maintainers"]],
   ["quinn.qux@qux.example.com"], "... with his own second address as "
   "de-facto maintainer")
eq([(p["email"], p["first_responses"])
    for p in e2["BAZ LEGACY DRIVER"]["others"] if p["replied"]],
   [("dan@example.net", 1), ("dan@oldjob.example.com", 1)],
   "without --aliases Dan's old address is someone else")
# ... but the list's senders join people by name as with --tree (one
# model): Rob's and Quinn's second addresses carry their names
r = run("review", "--repo", repo, "--archive", mbox, "--json", "--rev",
        ids["fixup"] + "~1")
e3 = {e["name"]: e for e in r.json()["entries"]}
eq([p["replied"] for p in e3["FOO DRIVER"]["people"]
    if p["email"] == "rob@example.org"], [3],
   "without the .mailmap, Rob's reply from home is his by name (list "
   "senders join by name with --repo too)")
eq(e3["QUX SENSOR DRIVER"]["defacto_maintainers"], [],
   "... and Quinn's second address is no de-facto maintainer")
r = run("review", "--repo", repo, "--archive", mbox, "--json",
        "--no-plus-fold", "--no-name-join", "FOO DRIVER")
fo = r.json()["entries"][0]
eq([p["replied"] for p in fo["people"] if p["email"] == "fay@example.org"],
   [1], "--no-plus-fold: Fay+lists@ is not Fay")
ok("fay+lists@example.org" in [p["email"] for p in fo["others"]],
   "--no-plus-fold: ... but still case-insensitive (one lowercase "
   "address)")
r = run("review", "--repo", repo, "--archive", mbox, "--aliases",
        os.path.join(tmp, "no-such-aliases"))
eq(r.rc, 1, "an unreadable --aliases file is a runtime error")
ok("no-such-aliases" in r.err, "the message names the file", r.err)
eq(baz["merged"], 2, "both BAZ patches merged")

# the same list as a public-inbox v2 mirror fetched from a lore-style
# server: without --list-url, evidence URLs use the mirror's remote
import gitinbox  # noqa: E402
import re  # noqa: E402
inbox = os.path.join(tmp, "inbox")
ep = os.path.join(inbox, "git", "0.git")
os.makedirs(ep)
gitinbox.git(ep, "init", "-q", "--bare")
msgs = open(mbox).read().split("From mboxrd@z Thu Jan  1 00:00:00 1970\n")
parent = None
for m in msgs[1:]:
    raw = re.sub(r"(?m)^>(>*From )", r"\1", m).encode()
    blob = gitinbox.git(ep, "hash-object", "-w", "--stdin", stdin=raw)
    tree = gitinbox.git(ep, "mktree", stdin=f"100644 blob {blob}\tm\n".encode())
    parent = gitinbox.git(ep, "commit-tree", tree, "-m", "m",
                          *(["-p", parent] if parent else []))
gitinbox.git(ep, "update-ref", "refs/heads/master", parent)
gitinbox.git(ep, "remote", "add", "origin",
             "https://lore.example.org/foo/git/0.git")
r = run("review", "--repo", repo, "--archive", inbox, "--json",
        "FOO DRIVER")
eq(r.rc, 0, "review of the inbox mirror exits 0")
eq(r.json()["list_url"], "https://lore.example.org/foo",
   "the list URL comes from the mirror's remote")
pl2 = {p["message_id"]: p for p in r.json()["entries"][0]["patch_list"]}
eq(pl2["a1@example.net"]["first_response"]["url"],
   "https://lore.example.org/foo/a1-r1@example.org/",
   "evidence URL built from the archive's own address")
r = run("review", "--repo", repo, "--archive", inbox, "--json",
        "--list-url", URL, "FOO DRIVER")
eq(r.json()["list_url"], URL, "--list-url wins over the remote")
r = run("review", "--repo", repo, "--archive", mbox, "--json", "FOO DRIVER")
eq(r.json()["list_url"], None, "an mbox has no address of its own")

# text
r = run("review", "--repo", repo, "--archive", mbox)
eq(r.rc, 0, "text exits 0")
t = r.out
ok("Subsystem FOO DRIVER\n  Changes: reviewed 2 of 4 commits (50%)\n" in t,
   "text extends the activity layout", t)
ok("  Patches 5 (series 5), replied 3 (60%), by a listed person 3 (60%)"
   in t, "text patches line")
ok("  First response: median 2.0h, p90 1.2d;" in t,
   "text first response, latencies in hours or days", t)
ok("  Ignored patches: 2" in t, "text ignored count")
ok("<c1@example.net> foo: tidy comments" in t, "text lists ignored patch")
ok("  DE-FACTO MAINTAINER Dan Defacto <dan@example.net>" in t,
   "text de-facto line")
ok("  CORPORATE ALIAS support.opensource@corp.example.com: Cora Corp "
   "<cora@corp.example.com>" in t, "text corporate alias line")
ok("  INACTIVE MAINTAINER Old Ghost <ghost@example.org>" in t,
   "text inactive line")
ok("INACTIVE MAINTAINER Fay" not in t and "INACTIVE REVIEWER Rob" not in t,
   "active people are not inactive")

# options
r = run("review", "--repo", repo, "--archive", mbox, "--json", "--target",
        "24h", "FOO DRIVER")
eq(r.rc, 0, "--target and an entry exit 0")
d = r.json()
eq([e["name"] for e in d["entries"]], ["FOO DRIVER"], "only the named entry")
fay = [p for p in d["entries"][0]["people"] if p["role"] == "M"][0]
eq(fay["responsiveness"], 0.2, "Fay within 24h: A only")
r2 = run("review", "--repo", repo, "--archive", mbox, "--json", "--target",
         "1 day", "FOO DRIVER")
eq(r2.json()["entries"], d["entries"], "--target '1 day' is --target 24h")
eq(d["target_seconds"], 86400, "the target in the document, in seconds")
r = run("review", "--repo", repo, "--archive", mbox, "--json",
        "--ignore-after", "40d")
eq(r.json()["entries"][2]["ignored"], 0,
   "nothing is ignored before 40 days have passed")
r = run("review", "--tree", repo, "--archive", mbox, "--json")
eq(r.rc, 0, "without --repo, from a tree")
e = {x["name"]: x for x in r.json()["entries"]}["FOO DRIVER"]
eq(e["merged"], None, "no merged figures without a repository")
eq(e["replied"], 3, "the list figures stay")
# Old Ghost is inactive with the history (above); one list's silence alone
# is no evidence: without --repo nobody is judged.
ghost = [p for x in r.json()["entries"] for p in x["people"]
         if p["email"] == "ghost@example.org"][0]
eq(ghost["inactive"], None, "without --repo Old Ghost is not judged (null)")
# Without git history a count of commits is unknown, not 0 (issue 40):
# null in JSON, n/a in text.
allp = [p for x in r.json()["entries"] for k in ("people", "others")
        for p in x[k]]
eq(sorted({(p["commits"], p["applied"]) for p in allp}, key=str),
   [(None, None)], "without --repo every person's commits and applied "
   "are null")
eq({d["applied"] for x in r.json()["entries"]
    for d in x["defacto_maintainers"]} | {None}, {None},
   "without --repo a de-facto maintainer's applied is null")
r = run("review", "--tree", repo, "--archive", mbox)
ok("INACTIVE" not in r.out, "without --repo no INACTIVE line", r.out)
ok(re.search(r"commits n/a\)", r.out) and
   not re.search(r"commits \d|applied \d", r.out),
   "without --repo the text says commits n/a, never commits 0", r.out)

# bad input
r = run("review", "--repo", repo)
eq(r.rc, 2, "missing --archive is a usage error")
r = run("review", "--repo", repo, "--archive", mbox, "--ignore-after", "-1")
eq(r.rc, 2, "a negative --ignore-after is a usage error")
r = run("review", "--repo", repo, "--archive", mbox, "--target", "0h")
eq(r.rc, 2, "a zero --target is a usage error")
r = run("review", "--repo", repo, "--archive", mbox, "--target", "48")
eq(r.rc, 2, "a duration without a unit is a usage error")
ok("not a duration" in r.err, "...explained", r.err)
r = run("review", "--repo", repo, "--archive", mbox, "--ignore-after",
        "100001y")
eq(r.rc, 2, "an --ignore-after out of range is a usage error")
ok("out of range" in r.err, "...named so", r.err)
r = run("review", "--repo", repo, "--archive", mbox, "NO SUCH ENTRY")
eq(r.rc, 2, "an unknown entry is a usage error")
ok("NO SUCH ENTRY" in r.err, "the message names the entry", r.err)
r = run("review", "--repo", repo, "--archive", os.path.join(tmp, "x.mbox"))
eq(r.rc, 1, "a missing archive is a runtime error")
r = run("review", "--repo", os.path.join(tmp, "nope"), "--archive", mbox)
eq(r.rc, 1, "a missing repository is a runtime error")
# activity and urgent with --archive: list facts, LWN categories
r = run("activity", "--repo", repo, "--since", "2024-01-01",
        "--inactive-after", "1d", "--json", "FOO DRIVER")
rob = [p for p in r.json()["entries"][0]["people"]
       if p["email"] == "rob@example.org"][0]
ok(rob["inactive"], "without the list, Rob (last tag 3 days before "
   "the end) is inactive at 1d")
r = run("activity", "--repo", repo, "--archive", mbox, "--since",
        "2024-01-01", "--inactive-after", "1d", "--json", "FOO DRIVER")
eq(r.rc, 0, "activity --archive exits 0")
e = r.json()["entries"][0]
rob = [p for p in e["people"] if p["email"] == "rob@example.org"][0]
ok(rob["inactive"], "his last list message (2024-03-11 09:00) is older "
   "than the 1d cutoff too: inactive")
r = run("activity", "--repo", repo, "--archive", mbox, "--since",
        "2024-01-01", "--inactive-after", "2024-03-11", "--json",
        "FOO DRIVER")
rob = [p for p in r.json()["entries"][0]["people"]
       if p["email"] == "rob@example.org"][0]
ok(not rob["inactive"], "with a cutoff before that message, Rob is active "
   "(he reviews on the list, his last tag is older)")
e = r.json()["entries"][0]
eq((e["list"]["patches"], e["list"]["replied"]), (5, 3),
   "activity JSON carries the list facts")
r = run("activity", "--repo", repo, "--archive", mbox, "--since",
        "2024-01-01", "--inactive-after", "2024-03-11", "FOO DRIVER")
ok("  List: patches 5, replied 3 (60%), median first response 2.0h" in
   r.out, "activity text has the list line", r.out)
ok("INACTIVE REVIEWER Rob" not in r.out, "no INACTIVE line for Rob")
r = run("activity", "--repo", repo, "--since", "2024-01-01",
        "--inactive-after", "2024-03-11", "FOO DRIVER")
ok("INACTIVE REVIEWER Rob" in r.out, "which git alone prints", r.out)
r = run("activity", "--repo", repo, "--archive", mbox, "--since",
        "2024-01-01", "--until", "2024-03-09", "--inactive-after",
        "2024-03-09", "--json", "FOO DRIVER")
rob = [p for p in r.json()["entries"][0]["people"]
       if p["email"] == "rob@example.org"][0]
ok(rob["inactive"], "a list message after --until (2024-03-11) does not "
   "count: as of 2024-03-09 Rob last wrote on 2024-03-08")
r = run("urgent", "--repo", repo, "--archive", mbox, "--min-commits", "1",
        "--months", "0", "--json")
eq(r.rc, 0, "urgent --archive exits 0")
eq([(e["name"], e["category"]) for e in r.json()["entries"]],
   [("WIDGET CORNER", "overlap"),
    ("BAR CHIP DRIVER", "corporate_alias"),
    ("BAZ LEGACY DRIVER", "defacto_maintainer"),
    ("ZOO ORPHAN DRIVER", "unmaintained"),
    ("LAST RESORT DRIVER", "unmaintained")],
   "urgent sorts the entries into LWN's categories (see test-urgent)")
r = run("urgent", "--repo", repo, "--archive", mbox, "--min-commits", "1",
        "--months", "0", "--aliases", aliases)
ok("  Category: defacto_maintainer (dan@example.net handles its patches)"
   in r.out, "urgent text names the category: with --aliases Dan's two "
   "addresses answer first on both BAZ patches", r.out)
r = run("urgent", "--repo", repo, "--archive", mbox, "--min-commits", "1",
        "--months", "0")
ok("  Category: defacto_maintainer (dan@example.net handles its patches)"
   in r.out, "without --aliases his name joins Dan's two list addresses, "
   "as review joins them", r.out)
r = run("urgent", "--repo", repo, "--archive", mbox, "--min-commits", "1",
        "--months", "0", "--no-name-join")
ok("  Category: defacto_maintainer (dan@example.net committed 2 of 3)"
   in r.out, "without --aliases nor name joins Dan's list replies split, "
   "his commits remain", r.out)
r = run("urgent", "--repo", repo, "--until", "2024-03-12", "--months", "0",
        "--min-commits", "1", "--json")
ok("FOO DRIVER" in [e["name"] for e in r.json()["entries"]],
   "by git alone FOO's maintainer is idle before 2024-03-12")
r = run("urgent", "--repo", repo, "--archive", mbox, "--until",
        "2024-03-12", "--months", "0", "--min-commits", "1", "--json")
ok("FOO DRIVER" in [e["name"] for e in r.json()["entries"]],
   "with the list too: the maintainers' list messages are older than "
   "the --months 0 cutoff, so FOO stays urgent")
r = run("urgent", "--repo", repo, "--archive", os.path.join(tmp, "x"),
        "--min-commits", "1")
eq(r.rc, 1, "urgent with a missing archive is a runtime error")
# A K: pattern that backtracks for ages on a patch line: run under the match
# limits, reported once with its file:line, and taken as a match there
# (never silently a miss).
# The git facts and the inactive verdict cover the review's window: without
# --since it starts with the oldest message (2023-08-14), not with the
# history.  chip.support@'s one Acked-by (2023-01-26) is before it.


def chip(*extra):
    r = run("review", "--repo", repo, "--archive", mbox, "--json",
            "--no-cache", *extra, "BAR CHIP DRIVER")
    if r.rc != 0:
        return r.rc, r.err
    p = {q["email"]: q for q in r.json()["entries"][0]["people"]}
    c = p["chip.support@corp.example.com"]
    return (r.json()["active_since"], c["git"]["last_tagged"]["count"],
            c["inactive"])


eq(chip(), ("2019-03-13T10:00:00+00:00", 0, False),
   "no --inactive-after: 5y before the history's end (its newest commit, "
   "not the list's newest message), as every command: the ack "
   "before the window (not counted in it) is activity")
eq(chip("--inactive-after", "6m"), ("2023-09-13T10:00:00+00:00", 0, True),
   "--inactive-after 6m: nothing in git since, no list message: inactive")
eq(chip("--inactive-after", "2y"), ("2022-03-13T10:00:00+00:00", 0, False),
   "--inactive-after 2y: the ack 14 months before the end is activity")
eq(chip("--since", "2023-01-01"), ("2019-03-13T10:00:00+00:00", 1, False),
   "--since before the ack: counted, not inactive")
r = run("review", "--repo", repo, "--archive", mbox, "--no-cache",
        "BAR CHIP DRIVER")
ok("\nInactive: listed people with nothing in git and no list message "
   "since 2019-03-13\n" in r.out and "  Changes: reviewed 1 of 2 "
   "commits (50%)\n" in r.out, "text: the cutoff said, the commits of "
   "the window counted", r.out)
empty = os.path.join(tmp, "empty.mbox")
open(empty, "w").close()
r = run("review", "--repo", repo, "--archive", empty, "--no-cache")
ok(r.rc == 0 and "Inactive:" not in r.out, "an empty archive: no window, "
   "so no cutoff said (was 'since 1969-07-01')", r.out)
r = run("review", "--repo", repo, "--archive", empty, "--no-cache",
        "--json")
eq(r.json()["active_since"] if r.rc == 0 else r.err, None,
   "... null in JSON")
r = run("review", "--repo", repo, "--archive", mbox, "--inactive-after",
        "soon")
eq(r.rc, 2, "--inactive-after soon: a usage error")
ok("--inactive-after" in r.err, "... naming the option", r.err)

kt = tmpdir()
os.makedirs(os.path.join(kt, "drivers"))
open(os.path.join(kt, "drivers", "k.c"), "w").close()
with open(os.path.join(kt, "MAINTAINERS"), "w") as f:
    f.write("COSTLY\nM:\tCo Stly <co@example.com>\nK:\t(.*a){25}$\n\n"
            "THE REST\nM:\tR <r@example.com>\nF:\t*\nF:\t*/\n")
kmbox = os.path.join(kt, "k.mbox")
with open(kmbox, "w") as f:
    f.write("From x@y Mon Jan  2 10:00:00 2023\n"
            "From: P <p@example.com>\nSubject: [PATCH] drivers: k\n"
            "Message-ID: <costly@example.com>\n"
            "Date: Mon, 2 Jan 2023 10:00:00 +0000\n\nk\n\n"
            "Signed-off-by: P <p@example.com>\n---\n"
            "diff --git a/drivers/k.c b/drivers/k.c\n"
            "--- a/drivers/k.c\n+++ b/drivers/k.c\n@@ -0,0 +1 @@\n"
            "+" + "a" * 60 + "b\n\n")
r = run("review", "--tree", kt, "--archive", kmbox, "--json", "--no-cache")
ok(r.rc == 0 and r.err.count("too costly to match") == 1 and
   "MAINTAINERS:3" in r.err, "a costly K: pattern: reported once with "
   "its file:line", (r.rc, r.err))
if r.rc == 0:
    ents = {e["name"]: e for e in r.json().get("entries", [])}
    ok("COSTLY" in ents, "... and the patch is taken as COSTLY's",
       sorted(ents))

# K: patterns are first matched once on all changed lines joined
# (review-map.c, maint_k_joinable()): only a miss there is taken, a hit is
# tested line by line; a pattern that could miss there though a line
# alone matches is matched line by line only.  Each entry's answer is
# what the pattern says of some line alone (as the main e3f13c6 binary
# answered, line by line).
kpats = [
    ("JOINED", r"frob_b", True),
    ("NEVER", r"never_seen", False),
    # joined: across two lines only; no line alone
    ("ACROSS", r"frob_a\n\+frob_b", False),
    ("SPACES", r"frob_a\s+\+frob_b", False),
    # match a line alone, but not where another line follows or precedes
    ("AHEAD", r"frob_b(?!\s)", True),
    ("BEHIND", r"(?<!\s)\+frob_b", True),
    ("ANCHORS", r"\A\+frob_b\z", True),
    ("NOMULTI", r"(?-m)^\+frob_b$", True),
    ("POSSESSIVE", r"frob_b\s*+$", True),
    ("ATOMIC", r"(?>frob_b\s*)$", True),
    ("VERB", r"(*COMMIT)\+frob_b", True),
    # an inline option is the pattern's own
    ("CASELESS", r"(?i)FROB_B", True),
    ("CASED", r"FROB_A", False),
    ("BACKREF", r"\b(\w+)_\1\b", True),
    ("BACKREF2", r"\b(\w+)_\1_\1\b", False),
    # undeclared 8-bit mail is read as Latin-1 (mime.c): its bytes
    # reach the patterns as UTF-8; a pattern is bytes, its own invalid
    # UTF-8 (raw or \x) no error
    ("LATIN1", r"\xc3\xbf\xc3\xbe zork_u$", True),
    ("HALFCHAR", "\xbf\xc3\xbe zork", True),
    ("RAWBYTE", r"\xff\xfe zork", False),
    ("LIMIT", r"(.*a){25}$", True),
]
with open(os.path.join(kt, "MAINTAINERS"), "wb") as f:
    for name, pat, _ in kpats:
        f.write(("%s\nM:\t%s <%s@example.com>\nK:\t%s\n\n"
                 % (name, name.title(), name.lower(), pat)).encode(
                     "latin-1"))
    f.write(b"THE REST\nM:\tR <r@example.com>\nF:\t*\nF:\t*/\n")
with open(kmbox, "wb") as f:
    f.write(b"From x@y Mon Jan  2 10:00:00 2023\n"
            b"From: P <p@example.com>\nSubject: [PATCH] drivers: k\n"
            b"Message-ID: <joined@example.com>\n"
            b"Date: Mon, 2 Jan 2023 10:00:00 +0000\n\nk\n\n"
            b"Signed-off-by: P <p@example.com>\n---\n"
            b"diff --git a/drivers/k.c b/drivers/k.c\n"
            b"--- a/drivers/k.c\n+++ b/drivers/k.c\n@@ -1,2 +1,5 @@\n"
            b"-old\n+frob_a\n+frob_b\n+ foo_foo;\n+\xff\xfe zork_u\n+" +
            b"a" * 60 + b"b\n\n")
r = run("review", "--tree", kt, "--archive", kmbox, "--json", "--no-cache")
ok(r.rc == 0, "K: patterns on several changed lines: review exits 0",
   r.err)
if r.rc == 0:
    ents = {e["name"] for e in r.json().get("entries", [])}
    eq(sorted(n for n, _, _ in kpats if n in ents),
       sorted(n for n, _, m in kpats if m),
       "K: patterns on several changed lines: each entry as its pattern "
       "answers a line alone")
    ok(r.err.count("too costly to match") == 1, "... the match limit hit "
       "once, by LIMIT", r.err)
    ok("MAINTAINERS:%d" % (4 * len(kpats) - 1) in r.err and
       "on 1 patch line)" in r.err, "... said with its file:line and "
       "the one line", r.err)

# --- the ignored list: each patch by its first version, oldest first, the
# same in text, JSON and the report's page; the archive holds them out of
# date order, and "two" was posted again as v2 ---
it = tmpdir()
os.makedirs(os.path.join(it, "drivers"))
open(os.path.join(it, "drivers", "i.c"), "w").close()
with open(os.path.join(it, "MAINTAINERS"), "w") as f:
    f.write("IGN\nM:\tMa Int <ma@example.com>\nF:\tdrivers/\n")


def posting(mid, subject, day, line):
    return (f"From x@y Mon Jan  1 10:00:00 2024\n"
            f"From: Po Ster <po@example.com>\nSubject: {subject}\n"
            f"Message-ID: <{mid}@example.com>\n"
            f"Date: {day} Mar 2024 10:00:00 +0000\n\nx\n\n"
            "Signed-off-by: Po Ster <po@example.com>\n---\n"
            "diff --git a/drivers/i.c b/drivers/i.c\n"
            "--- a/drivers/i.c\n+++ b/drivers/i.c\n@@ -0,0 +1 @@\n"
            f"+{line}\n\n")


imbox = os.path.join(it, "i.mbox")
with open(imbox, "w") as f:
    f.write(posting("one", "[PATCH] drivers: one", 10, "int one;") +
            posting("two-v1", "[PATCH] drivers: two", 1, "int two;") +
            posting("two-v2", "[PATCH v2] drivers: two", 5, "int two2;"))
IARGS = ["--tree", it, "--archive", imbox, "--no-cache", "--until",
         "2024-06-01"]
want = ["two-v1@example.com", "one@example.com"]
r = run("review", *IARGS)
lines = re.findall(r"^    2024-03-(\d\d) <([^>]+)>", r.out, re.M)
eq(lines, [("01", want[0]), ("10", want[1])],
   "text: the ignored patches oldest first, each by its first version")
r = run("review", *IARGS, "--json")
pl = r.json()["entries"][0]["patch_list"] if r.rc == 0 else []
eq([p["message_id"] for p in pl if p["is_ignored"]], want,
   "JSON: the same patches in the same order")
site = os.path.join(it, "site")
r = run("report", *IARGS, "-o", site)
eq(r.rc, 0, "report exits 0")
page = open(os.path.join(site, "entry-0.html")).read() if r.rc == 0 else ""
ign = page.split('id="ignored"')[-1].split("</ul>")[0]
eq(re.findall(r"<li>2024-03-(\d\d) ", ign), ["01", "10"],
   "the report's page: the same patches in the same order")

done()
