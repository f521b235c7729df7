#!/usr/bin/env python3
"""Where each patch stands (docs/review.md, "Where each patch stands"):
review --json's `state` and `state_evidence` on a planted list, one patch
per rule: a b4 ty naming two patches of a series, a b4 ty of "commit:"
lines only, a patchwork-bot notice, a NAK, a withdrawal, changes
requested then a new version, changes requested, "Applied" only in
quoted text, "Applied" from someone not listed, a review tag without a
maintainer, ignored, waiting, and a b4 ty naming patches the archive does
not hold; then the entry's figures."""
import os
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "drivers", "foo"))
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("FOO DRIVER\nM:\tMay Maint <may@example.org>\n"
            "L:\tfoo@lists.example.org\nS:\tMaintained\n"
            "F:\tdrivers/foo/\n\nFOO CORE FILE\n"
            "M:\tBob Core <bob@example.org>\nS:\tMaintained\n"
            "F:\tdrivers/foo/foo.c\n")
with open(os.path.join(tree, "drivers", "foo", "foo.c"), "w") as f:
    f.write("int foo;\n")

AUTHOR = "Ann Author <ann@example.net>"
MAY = "May Maint <may@example.org>"
msgs = []


def mail(mid, frm, subject, day, body, parent=None, hour=0):
    hdr = [f"From: {frm}", f"Subject: {subject}", f"Message-ID: <{mid}>",
           f"Date: Mon, {day:02d} Jan 2024 {hour:02d}:00:00 +0000",
           "List-Id: <foo.lists.example.org>"]
    if parent:
        hdr += [f"In-Reply-To: <{parent}>", f"References: <{parent}>"]
    msgs.append("From x Mon Jan  1 00:00:00 2024\n" + "\n".join(hdr) +
                "\n\n" + body + "\n")


def patch(mid, subject, day, prefix="PATCH", parent=None, hour=0):
    mail(mid, AUTHOR, f"[{prefix}] {subject}", day,
         f"Change {subject}.\n\nSigned-off-by: {AUTHOR}\n---\n"
         "diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n"
         "--- a/drivers/foo/foo.c\n+++ b/drivers/foo/foo.c\n"
         f"@@ -1 +1 @@\n-int foo;\n+int foo; /* {subject} */\n",
         parent, hour)


# a series of two, both applied by one b4 ty answering its cover letter
mail("s0@x", AUTHOR, "[PATCH 0/2] foo: two things", 2, "Two things.")
patch("s1@x", "foo: first thing", 2, "PATCH 1/2", "s0@x")
patch("s2@x", "foo: second thing", 2, "PATCH 2/2", "s0@x")
mail("ty1@x", MAY, "Re: [PATCH 0/2] foo: two things", 3,
     "On Tue, Ann Author wrote:\n> Two things.\n\nApplied, thanks!\n\n"
     "[1/2] foo: first thing\n      commit: 0123456789ab\n"
     "[2/2] foo: second thing\n      commit: 123456789abc\n\n"
     "Best regards,\n-- \nMay Maint <may@example.org>", "s0@x")
# b4 ty's item lines only, no "Applied" phrase
patch("c1@x", "foo: item only", 3)
mail("ty2@x", MAY, "Re: [PATCH] foo: item only", 5,
     "[1/1] foo: item only\n      commit: abcdef0123\n", "c1@x")
# patchwork-bot
patch("p1@x", "foo: bot applied", 3)
mail("pw@x", "patchwork-bot+foo@kernel.org <patchwork-bot+foo@kernel.org>",
     "Re: [PATCH] foo: bot applied", 6,
     "Hello:\n\nThis patch was applied to foo/foo.git (main)\n", "p1@x")
# a NAK from the maintainer
patch("n1@x", "foo: bad idea", 4)
mail("nak@x", MAY, "Re: [PATCH] foo: bad idea", 5,
     "> +int foo;\n\nNAK, this breaks every user.\n", "n1@x")
# withdrawn by its author
patch("w1@x", "foo: wrong branch", 4)
mail("wd@x", AUTHOR, "Re: [PATCH] foo: wrong branch", 4,
     "Please ignore, sent to the wrong list.\n", "w1@x", hour=5)
# changes requested, then a v2 nobody answered yet
patch("v1@x", "foo: reworked", 5)
# (May answers from her other address: one person, named as listed)
mail("cr1@x", "May Maint <may@home.example.net>", "Re: [PATCH] foo: reworked", 6,
     "> +int foo;\n\nPlease split this in two.\n", "v1@x")
patch("v2@x", "foo: reworked", 27, "PATCH v2")
# changes requested, no new version
patch("g1@x", "foo: needs work", 6)
mail("cr2@x", MAY, "Re: [PATCH] foo: needs work", 7,
     "Why is this needed?\n", "g1@x")
# "Applied" only inside quoted text: no notice
patch("q1@x", "foo: quoted applied", 7)
mail("qa@x", MAY, "Re: [PATCH] foo: quoted applied", 8,
     "On Sun, someone wrote:\n> Applied, thanks!\n\nWas it really?\n",
     "q1@x")
# "Applied, thanks!" from someone who is not listed, never committed and
# never reviewed: neither applied nor a request
patch("o1@x", "foo: other applied", 8)
mail("oa@x", "Olaf Other <olaf@example.com>", "Re: [PATCH] foo: other "
     "applied", 9, "Applied, thanks!\n", "o1@x")
# a review tag from a reviewer, no maintainer
patch("t1@x", "foo: reviewed", 9)
mail("rv@x", "Rita Rev <rita@example.com>", "Re: [PATCH] foo: reviewed",
     10, "Reviewed-by: Rita Rev <rita@example.com>\n", "t1@x")
# no answer: old, and recent
patch("i1@x", "foo: nobody cares", 10)
patch("k1@x", "foo: just posted", 30)
# a b4 ty naming patches the archive does not hold
mail("ty3@x", MAY, "Re: [PATCH 0/2] foo: lost series", 12,
     "Applied, thanks!\n\n[1/2] foo: lost one\n      commit: 0a1b2c3d4e\n"
     "[2/2] foo: lost two\n      commit: 1a2b3c4d5e\n", "lost0@x")

mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as f:
    f.write("\n".join(msgs))

r = run("review", "--tree", tree, "--archive", mbox, "--json", "--no-cache",
        "--until", "2024-01-31", "--list-url", "https://l.example.org/foo")
eq(r.rc, 0, "review exits 0")
ents = {e["name"]: e for e in r.json()["entries"]}
ent = ents["FOO DRIVER"]
pl = {p["message_id"]: p for p in ent["patch_list"]}
want = {"s1@x": "accepted", "s2@x": "accepted", "c1@x": "accepted",
        "p1@x": "accepted", "n1@x": "rejected", "w1@x": "withdrawn",
        "v1@x": "waiting", "g1@x": "changes_requested",
        "q1@x": "changes_requested", "o1@x": "waiting",
        "t1@x": "waiting_for_maintainer", "i1@x": "ignored",
        "k1@x": "waiting"}
eq({m: p["state"] for m, p in pl.items()}, want, "each patch's state")


def why(mid):
    e = pl[mid]["state_evidence"]
    return e and (e.get("message_id") or e.get("commit"))


eq([why(m) for m in ("s1@x", "s2@x", "c1@x", "p1@x", "n1@x", "w1@x",
                     "g1@x", "t1@x")],
   ["ty1@x", "ty1@x", "ty2@x", "pw@x", "nak@x", "wd@x", "cr2@x", "rv@x"],
   "the message that decided each")
eq(pl["s1@x"]["state_evidence"]["date"][:10], "2024-01-03",
   "the evidence's date")
eq(pl["s1@x"]["state_evidence"]["url"], "https://l.example.org/foo/ty1@x/",
   "the evidence's URL")
eq(pl["i1@x"]["state_evidence"], None, "nothing decided an ignored patch")
eq(pl["v1@x"]["versions"], ["v1@x", "v2@x"], "v2 is the same patch")
eq(ent["states"], {"accepted": 4, "rejected": 1, "withdrawn": 1,
                   "superseded": 1, "changes_requested": 2,
                   "waiting_for_maintainer": 1, "waiting": 3, "ignored": 1},
   "the entry's count per state (v1 superseded)")
eq({p["message_id"]: p["state"] for p in ents["FOO CORE FILE"]["patch_list"]
    if p["state"] == "accepted"}, {m: "accepted" for m in
                                   ("s1@x", "s2@x", "c1@x", "p1@x")},
   "a state does not depend on the entry: May, listed for FOO DRIVER only, "
   "applies FOO CORE FILE's patches too")
eq(ents["FOO CORE FILE"]["states"]["rejected"], 1, "May's NAK counts in "
   "FOO CORE FILE too")
eq(ent["acceptance_rate"], 0.8, "accepted over accepted and rejected")
eq(ent["revisions_until_accepted"], 1, "all accepted in their v1")
eq(ent["time_to_acceptance"], {"median_hours": 36.0, "p90_hours": 72.0},
   "first posting to the notice: 24h, 24h, 48h, 72h")
eq(ent["open"], 7, "open: changes requested, waiting, ignored")
eq(round(ent["open_age"]["median_hours"]), 24 * 24, "the open patches' "
   "wait to the end of --until's day (o1 posted on the 8th: 24 days)")

r = run("review", "--tree", tree, "--archive", mbox, "--no-cache",
        "--until", "2024-01-31")
ok("States: accepted 4, rejected 1," in r.out, "states in the text")
ok("Accepted of decided 80%" in r.out, "acceptance rate in the text",
   r.out)
ok("(no history: no merged figures, and only an applied notice or a pull "
   "request makes a patch accepted)" in r.out, "without a history the text "
   "says that only notices and pull requests accept", r.out[:600])
# nothing decided (two open patches): the figures are "-", not 0
open_only = os.path.join(tmp, "open.mbox")
with open(open_only, "w") as f:
    f.write("\n".join(m for m in msgs if "<i1@x>" in m or "<k1@x>" in m))
r = run("review", "--tree", tree, "--archive", open_only, "--no-cache",
        "--until", "2024-01-31")
ok("States: accepted 0, rejected 0," in r.out and
   "Accepted of decided -, versions until accepted (median) -," in r.out,
   "no acceptance: '-' for its rate and versions", r.out)

# An applied notice from someone not listed: Rita (a reviewer, never
# listed) applies one patch with a b4 ty naming its commit, which
# accepts it (linux-leds: Lee Jones's after he took LED over, beside a
# MAINTAINERS of before); her "Applied, thanks!" in words alone on
# another decides nothing, and is never a request for changes (LED's
# changes_requested were 1,008 of its 1,894 patches, now 450).
RITA = "Rita Rev <rita@example.com>"
extra = list(msgs)
patch("ra@x", "foo: rita applies", 13)
mail("raty@x", RITA, "Re: [PATCH] foo: rita applies", 14,
     "Applied, thanks!\n\n[1/1] foo: rita applies\n"
     "      commit: 4567890abcde\n", "ra@x")
patch("rw@x", "foo: rita says applied", 13)
mail("rwty@x", RITA, "Re: [PATCH] foo: rita says applied", 14,
     "Applied, thanks!\n", "rw@x")
notices = os.path.join(tmp, "notices.mbox")
with open(notices, "w") as f:
    f.write("\n".join(msgs))
msgs[:] = extra
r = run("review", "--tree", tree, "--archive", notices, "--json",
        "--no-cache", "--until", "2024-01-31")
npl = {p["message_id"]: p for p in r.json()["entries"][0]["patch_list"]}
eq((npl["ra@x"]["state"], npl["ra@x"]["state_evidence"]["commit"]),
   ("accepted", "4567890abcde"), "a b4 ty naming the commit accepts, "
   "whoever sent it")
eq(npl["rw@x"]["state"], "waiting", "'Applied' in words from someone not "
   "listed: no decision, and no request for changes")

# A de-facto maintainer by applied notices: Rita, listed nowhere,
# applies all three of FOO DRIVER's patches with b4 ty notices (without
# a history nothing else tells who applies); Bob, who does the same, is
# listed for their file in FOO CORE FILE, so his do not count.
for who, mbx in ((RITA, "rita.mbox"), ("Bob Core <bob@example.org>",
                                       "bob.mbox")):
    extra = list(msgs)
    msgs.clear()
    for i in range(3):
        patch(f"d{i}@x", f"foo: applied {i}", 13 + i)
        mail(f"d{i}ty@x", who, f"Re: [PATCH] foo: applied {i}", 16,
             f"Applied, thanks!\n\n[1/1] foo: applied {i}\n"
             f"      commit: {i}bcdef012345\n", f"d{i}@x")
    with open(os.path.join(tmp, mbx), "w") as f:
        f.write("\n".join(msgs))
    msgs[:] = extra
    r = run("review", "--tree", tree, "--archive", os.path.join(tmp, mbx),
            "--json", "--no-cache", "--until", "2024-01-31")
    fd = [e for e in r.json()["entries"] if e["name"] == "FOO DRIVER"][0]
    if who == RITA:
        eq([(d["email"], d["accepted_by_notice"])
            for d in fd["defacto_maintainers"]],
           [("rita@example.com", 3)], "Rita, who applied all three, is "
           "FOO DRIVER's de-facto maintainer")
        r = run("review", "--tree", tree, "--archive",
                os.path.join(tmp, mbx), "--no-cache", "--until",
                "2024-01-31", "FOO DRIVER")
        ok("DE-FACTO MAINTAINER Rita Rev <rita@example.com> (applied n/a, "
           "accepted by notice 3, " in r.out, "... and the text says so",
           r.out)
        site = os.path.join(tmp, "rita-site")
        r = run("report", "--tree", tree, "--archive",
                os.path.join(tmp, mbx), "--no-cache", "--until",
                "2024-01-31", "--output-dir", site)
        pages = "".join(open(os.path.join(site, n)).read()
                        for n in os.listdir(site) if n.startswith("entry-"))
        ok("Rita Rev &lt;rita@example.com&gt;: applied n/a, accepted by "
           "notice 3, " in pages, "... and so does the report's entry page",
           pages[:300])
    else:
        eq([d["accepted_by_notice"] for d in fd["others"]
            if d["email"] == "bob@example.org"], [0], "Bob's notices, "
           "listed for the file in FOO CORE FILE, count for no de-facto "
           "share")

# maintstat pending: the open patches, oldest first posting first
args = ["--tree", tree, "--archive", mbox, "--no-cache", "--until",
        "2024-01-31", "--list-url", "https://l.example.org/foo"]
r = run("pending", *args, "--json")
eq(r.rc, 0, "pending exits 0")
doc = r.json()
ok("schema_version" in doc, "pending: one document with schema_version")
eq([(p["message_id"], p["state"]) for p in doc["pending"]],
   [("v1@x", "waiting"), ("g1@x", "changes_requested"),
    ("q1@x", "changes_requested"), ("o1@x", "waiting"),
    ("t1@x", "waiting_for_maintainer"), ("i1@x", "ignored"),
    ("k1@x", "waiting")], "the open patches, oldest first")
v1 = doc["pending"][0]
eq((v1["version"], [p["email"] for p in v1["listed_people"]],
    [p["email"] for p in v1["answered"]], v1["url"]),
   (2, ["may@example.org"], ["may@example.org"],
    "https://l.example.org/foo/v1@x/"), "v1: its v2, May listed and "
   "answered (from her other address, named as listed), the URL")
eq(round(v1["waited_hours"]), 27 * 24, "waited since the first posting")
eq(round(v1["since_last_hours"]), 4 * 24 + 24, "since the v2 (27th)")
eq(v1["first_responders"][0]["email"], "may@example.org",
   "May answers first most often")
# a first responder is review's person object, its list figures (one
# emitter per object, schema 9)
eq(sorted(v1["first_responders"][0]),
   ["accepted_by_notice", "applied", "authored", "commits", "email",
    "first_responses",
    "last_list_activity", "median_latency_hours", "messages", "name",
    "netdev_score", "own_patches", "replied", "replied_share",
    "responsiveness", "role", "tags", "threads", "within_target"],
   "first responders: review's person keys")
r = run("pending", *args, "--json", "--person", "May@Example.org")
eq([p["message_id"] for p in r.json()["pending"]],
   ["v1@x", "o1@x", "t1@x", "i1@x", "k1@x"],
   "waiting on May: not those her own answer decided (g1, q1)")
# May's own patch, unanswered: in the queue, but it waits on others,
# not on her (watchdog: Guenter Roeck's own 25 patches were "waiting on"
# him)
own = os.path.join(tmp, "own.mbox")
with open(own, "w") as f:
    f.write("\n".join(msgs))
    msgs.clear()
    mail("m1@x", MAY, "[PATCH] foo: May's own", 11,
         f"Change.\n\nSigned-off-by: {MAY}\n---\n"
         "diff --git a/drivers/foo/foo.c b/drivers/foo/foo.c\n"
         "--- a/drivers/foo/foo.c\n+++ b/drivers/foo/foo.c\n"
         "@@ -1 +1 @@\n-int foo;\n+int foo; /* may */\n")
    f.write("\n" + msgs[0])
oargs = [own if a == mbox else a for a in args]
r = run("pending", *oargs, "--json")
ok("m1@x" in [p["message_id"] for p in r.json()["pending"]],
   "May's own unanswered patch is in the queue")
r = run("pending", *oargs, "--json", "--person", "may@example.org")
eq([p["message_id"] for p in r.json()["pending"]],
   ["v1@x", "o1@x", "t1@x", "i1@x", "k1@x"],
   "... but not waiting on her: she sent its newest version")
r = run("pending", *args, "--json", "--person", "rita@example.com")
eq(r.json()["pending"], [], "nothing waits on someone not listed")
ok("'rita@example.com' is listed in no entry with patches" in r.err,
   "... and a warning says so (a mistyped address reads the same)", r.err)
r = run("pending", *args, "--person", "May@Example.org")
ok("\nWaiting on: May@Example.org (listed in 1 entry with patches), "
   "where they did not answer last\n" in r.out and "listed in no" not in
   r.err, "pending --person's text names whom it is for", r.out[:700])
r = run("pending", *args, "--limit", "2")
ok(r.out.count(" waited ") == 2 and "5 more not shown (--limit)" in r.out,
   "pending --limit 2: two patches and how many more", r.out[-200:])
r = run("pending", *args)
head, _, rows = r.out.partition("\n\n")
ok("\nWindow: patches posted from " in "\n" + head and
   rows.startswith("2024-01-05  waited 27.0d") and "foo: reworked" in rows,
   "pending's text: its context (archives, window), then the oldest first",
   r.out[:600])
ok("\n    usually first: May Maint <may@example.org> (" in rows and
   "\n    listed: " in rows and "<may@example.org>" in
   rows.split("\n    listed: ")[1].split("\n")[0],
   "pending names people as every command does: Name <addr>", rows[:600])
done()
