#!/usr/bin/env python3
"""maintstat people (docs/review.md, "The list's people") on a planted
list: Ann under three addresses and a DMARC rewrite, a company with two
domains (gitdm's domain-map and ml-stat's db.json), an employer change
with an end date both ways, the bots (kernel test robot, syzbot,
patchwork-bot, pr-tracker-bot), a review given on a cover letter, a
stable backport and another project's patch; ml-stat's scores worked
out by hand from its formula."""
import json
import re
import os
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import duration, run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "drivers", "foo"))
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("FOO DRIVER\nM:\tMay Maint <may@example.org>\n"
            "L:\tfoo@lists.example.org\nS:\tMaintained\n"
            "F:\tdrivers/foo/\n\nBAR DRIVER\nR:\tMay Maint "
            "<may@example.org>\nS:\tMaintained\nF:\tdrivers/bar/\n\n"
            "BAZ DRIVER\nM:\tVic Vanity <vic@bigco.com>\nM:\tOlga Other "
            "<olga@bigco.com>\nS:\tMaintained\nF:\tdrivers/baz/\n")
with open(os.path.join(tree, "drivers", "foo", "foo.c"), "w") as f:
    f.write("int foo;\n")

ANN = "Ann Author <ann@example.net>"
MAY = "May Maint <may@example.org>"
RITA = "Rita Rev <rita@example.com>"
BOB = "Bob Moved <bob@oldco.com>"
msgs = []


def mail(mid, frm, subject, day, body, parent=None):
    hdr = [f"From: {frm}", f"Subject: {subject}", f"Message-ID: <{mid}>",
           f"Date: Mon, {day:02d} Jan 2024 00:00:00 +0000",
           "List-Id: <foo.lists.example.org>"]
    if parent:
        hdr += [f"In-Reply-To: <{parent}>", f"References: <{parent}>"]
    msgs.append("From x Mon Jan  1 00:00:00 2024\n" + "\n".join(hdr) +
                "\n\n" + body + "\n")


def patch(mid, frm, subject, day, prefix="PATCH", parent=None,
          path="drivers/foo/foo.c"):
    mail(mid, frm, f"[{prefix}] {subject}", day,
         f"Change {subject}.\n\nSigned-off-by: {frm}\n---\n"
         f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
         f"@@ -1 +1 @@\n-int foo;\n+int foo; /* {subject} */\n", parent)


# Ann's series; Rita reviews it on its cover letter; two bots answer
mail("s0@x", ANN, "[PATCH 0/2] foo: two things", 2, "Two things.")
patch("s1@x", ANN, "foo: first", 2, "PATCH 1/2", "s0@x")
patch("s2@x", ANN, "foo: second", 2, "PATCH 2/2", "s0@x")
mail("r1@x", RITA, "Re: [PATCH 0/2] foo: two things", 3,
     "> Two things.\n\nReviewed-by: Rita Rev <rita@example.com>\n", "s0@x")
mail("lkp@x", "kernel test robot <lkp@intel.com>",
     "Re: [PATCH 1/2] foo: first", 3, "Hi Ann,\n\nbuild failed.\n", "s1@x")
mail("pw@x", "patchwork-bot+foo@kernel.org",
     "Re: [PATCH 0/2] foo: two things", 4,
     "Hello:\n\nThis series was applied to foo.git (main)\n", "s0@x")
# Ann from her work address; May acks; Ann thanks her through a DMARC
# rewrite of the list
patch("a1@x", "Ann Author <ann@corp-a.com>", "foo: third", 5)
mail("m1@x", MAY, "Re: [PATCH] foo: third", 6,
     "> +int foo;\n\nAcked-by: May Maint <may@example.org>\n", "a1@x")
mail("a2@x", "Ann Author via foo <foo@lists.example.org>",
     "Re: [PATCH] foo: third", 6, "Thanks!\n", "m1@x")
# Ann from her personal address; Bob asks
patch("g1@x", "Ann Author <ann.author@gmail.com>", "foo: fourth", 7)
mail("b1@x", BOB, "Re: [PATCH] foo: fourth", 8, "Why?\n", "g1@x")
# a rewrite under a name no one has: nobody's, never the list's
mail("z1@x", "Zed Unknown via foo <foo@lists.example.org>",
     "Re: [PATCH] foo: fourth", 9, "Me too.\n", "g1@x")
# Carl asks on a thread of his own (before his employer's end date),
# Bob answers after his
mail("c1@x", "Carl Stays <carl@oldco.com>", "foo: a question", 5, "How?")
mail("b2@x", BOB, "Re: foo: a question", 20, "Like this.\n", "c1@x")
# syzbot's report, May answers; May's pull request, pr-tracker-bot
mail("syz@x", "syzbot <syzbot+1234@syzkaller.appspotmail.com>",
     "[syzbot] KASAN: use-after-free in foo", 9, "Hello,\n\nsyzbot found")
mail("m2@x", MAY, "Re: [syzbot] KASAN: use-after-free in foo", 10,
     "Fixing.\n", "syz@x")
mail("pull@x", MAY, "[GIT PULL] foo for 6.8", 11, "Please pull.\n")
mail("prt@x", "pr-tracker-bot@kernel.org", "Re: [GIT PULL] foo for 6.8",
     12, "The pull request you sent has been merged.\n", "pull@x")
# a stable backport; another project's patch, reviewed
patch("st@x", "Greg KH <gregkh@linuxfoundation.org>", "foo: backport",
      12, "PATCH 6.1.y")
patch("rc@x", "Dan Other <dan@corp-a.de>", "lib: fix", 13,
      "PATCH rdma-core", path="libfoo/x.c")
mail("dv@x", "Dave Corp <dave@corp-a.com>", "Re: [PATCH rdma-core] lib: fix",
     14, "Reviewed-by: Dave Corp <dave@corp-a.com>\n", "rc@x")

mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as f:
    f.write("\n".join(msgs))
domain_map = os.path.join(tmp, "domain-map")
with open(domain_map, "w") as f:
    f.write("# gitdm\ncorp-a.com\tCorp A\ncorp-a.de Corp A\n\n"
            "bob@oldco.com OldCo < 2024-01-10\nbob@oldco.com NewCo\n"
            "carl@oldco.com OldCo < 2024-01-10\ncarl@oldco.com NewCo\n")
db_json = os.path.join(tmp, "db.json")
with open(db_json, "w") as f:
    json.dump({"mailmap": [], "corpmap": [["@corp-a.com>", "Corp A"],
                                          ["@corp-a.de>", "Corp A"]]}, f)

args = ["--tree", tree, "--archive", mbox, "--no-cache", "--until",
        "2024-01-31"]
r = run("people", *args, "--json", "--employers", domain_map)
eq(r.rc, 0, "people exits 0")
doc = r.json()
ok("schema_version" in doc, "one document with schema_version")
ppl = {p["email"]: p for p in doc["people"]}
ann = ppl.get("ann@example.net") or {}
eq(sorted(ann.get("addresses", [])), ["ann.author@gmail.com",
                                      "ann@corp-a.com", "ann@example.net"],
   "Ann: three addresses, one person")
eq([ann.get(k) for k in ("messages", "authored", "series", "threads",
                         "replied", "tags_received", "tags_given")],
   [6, 4, 1, 3, 0, 3, 0], "Ann: 6 messages (the DMARC rewrite hers), 4 "
   "patches in 1 series, 3 threads, no one else's patch, 3 of hers "
   "tagged (two through the cover letter)")
ok("foo@lists.example.org" not in ppl, "the list's address is no person")
for bot in ("lkp@", "patchwork-bot", "pr-tracker-bot", "syzbot"):
    ok(not [a for p in doc["people"] for a in p["addresses"] if bot in a],
       "no bot: " + bot)
rita = ppl["rita@example.com"]
eq([rita[k] for k in ("messages", "replied", "first_responses",
                      "tags_given", "median_latency_hours")],
   [1, 2, 2, 2, 24.0], "Rita's one reply to the cover letter answers "
   "both patches, first, with a tag, a day after")
may = ppl["may@example.org"]
eq([may[k] for k in ("messages", "replied", "first_responses",
                     "tags_given", "entries_listed", "entries_answered")],
   [3, 1, 1, 1, 2, 1], "May: 3 messages, answered Ann's third patch, "
   "listed in 2 entries, answered in FOO DRIVER")
eq(ppl["gregkh@linuxfoundation.org"]["projects"],
   {"own": 0, "other": 0, "stable": 1}, "a stable backport counts, as such")
eq(ppl["dan@corp-a.de"]["projects"], {"own": 0, "other": 1, "stable": 0},
   "another project's patch counts, as such")
eq(ann["projects"], {"own": 4, "other": 0, "stable": 0}, "Ann's: own")
# ml-stat.py: 2 cs + 8 thr + 2 (msg - 1) as reviewer - 4 msg as author
eq({e: p["reviewer_score"] for e, p in ppl.items()},
   {"bob@oldco.com": 20, "may@example.org": 16, "rita@example.com": 10,
    "dave@corp-a.com": 10, "carl@oldco.com": -6, "dan@corp-a.de": -6,
    "gregkh@linuxfoundation.org": -6, "ann@example.net": -22},
   "ml-stat's score per person")
eq(ann["author_score"], 22, "the author score is its negation")
eq([p["email"] for p in doc["people"]],
   ["bob@oldco.com", "may@example.org", "dave@corp-a.com",
    "rita@example.com", "carl@oldco.com", "dan@corp-a.de",
    "gregkh@linuxfoundation.org", "ann@example.net"],
   "ranked by reviewer score, then address")
eq({e: p["company"] for e, p in ppl.items()},
   {"bob@oldco.com": "NewCo", "carl@oldco.com": "OldCo",
    "ann@example.net": "Corp A", "dan@corp-a.de": "Corp A",
    "dave@corp-a.com": "Corp A", "may@example.org": "example.org",
    "rita@example.com": "(Unknown)",
    "gregkh@linuxfoundation.org": "(Unknown)"},
   "companies: two domains are Corp A; Bob moved after the end date, "
   "Carl did not; otherwise the domain when someone else uses it too "
   "(example.org: the list's lists.example.org), a domain of one "
   "person being theirs (Rita's, Greg's): (Unknown)")
cos = {c["name"]: c for c in doc["companies"]}
eq([len(cos["Corp A"]["people"])] + [cos["Corp A"][k] for k in
                                    ("messages", "authored",
                                     "reviewer_score")], [3, 8, 5, -18],
   "Corp A: Ann, Dan and Dave summed")
eq(sorted(p["email"] for p in cos["Corp A"]["people"]),
   ["ann@example.net", "dan@corp-a.de", "dave@corp-a.com"],
   "a company's people: the persons, as the people list writes them")
ok(all(p == ppl[p["email"]] for c in doc["companies"] for p in c["people"]),
   "... each the very object of the top-level people list")
# Bob moved mid-window (OldCo until 2024-01-10): his day-8 message counts
# for OldCo, his day-20 one for NewCo; he is NewCo's, as of his newest
eq([[len(cos[c]["people"])] + [cos[c][k] for k in ("messages", "threads")]
    for c in ("OldCo", "NewCo")], [[2, 2, 2], [1, 1, 1]],
   "an employer change splits a person's figures between the companies "
   "by message date (Carl and Bob's first at OldCo, Bob's second at "
   "NewCo)")
eq([(e["company"], e["since"], e["until"], e["messages"], e["threads"])
    for e in ppl["bob@oldco.com"]["employers"]],
   [("OldCo", None, "2024-01-09T23:59:59+00:00", 1, 1),
    ("NewCo", "2024-01-10T00:00:00+00:00", "2024-01-31T23:59:59+00:00", 1,
     1)], "Bob's employers: each stretch of the window by the file's end "
   "date, with his figures there")
eq([[p["email"] for p in cos[c]["people"]] for c in ("OldCo", "NewCo")],
   [["bob@oldco.com", "carl@oldco.com"], ["bob@oldco.com"]],
   "... he is among the people of both")
# a file that only says when Bob left OldCo: after that he is unknown,
# not his address's domain again (gitdm's reading)
left = os.path.join(tmp, "left-map")
with open(left, "w") as f:
    f.write("bob@oldco.com OldCo < 2024-01-10\n")
lp = {p["email"]: p for p in run("people", *args, "--json", "--employers",
                                 left).json()["people"]}
eq([lp["bob@oldco.com"]["company"]] +
   [e["company"] for e in lp["bob@oldco.com"]["employers"]],
   ["(Unknown)", "OldCo", "(Unknown)"],
   "an employer's end date with no later line: (Unknown) after it")
eq([p["employers"] for e, p in ppl.items() if e != "bob@oldco.com"],
   [[]] * 7, "no one else moved (Carl's one message was at OldCo)")
FIGS = ("authored", "messages", "threads", "replied", "tags_given",
        "reviewer_score")
eq({k: cos["OldCo"][k] for k in FIGS},
   {k: ppl["carl@oldco.com"][k] + ppl["bob@oldco.com"]["employers"][0][k]
    for k in FIGS}, "OldCo: Carl's figures and Bob's there")
eq(cos["NewCo"]["reviewer_score"] + cos["OldCo"]["reviewer_score"],
   ppl["bob@oldco.com"]["reviewer_score"] + ppl["carl@oldco.com"]
   ["reviewer_score"] - 2 * 1,
   "...each part scored as a window of its own (ml-stat's -2 once more)")
eq(cos["Corp A"]["review_balance"], 6 / 24, "review balance: review "
   "points (Dave's 8 + 2, Ann's and Dan's -2 each) over author points "
   "(4 x (5 + 1))")
for p in doc["people"]:
    ok(p["messages"] <= sum(m.count("From: " + p["name"]) for m in msgs),
       "messages never exceed what was sent: " + p["email"])

r = run("people", *args, "--json", "--employers", db_json)
eq({p["email"]: p["company"] for p in r.json()["people"]
    if "corp-a" in p["company"].lower() or "Corp" in p["company"]},
   {"ann@example.net": "Corp A", "dan@corp-a.de": "Corp A",
    "dave@corp-a.com": "Corp A"}, "ml-stat's db.json corpmap")
r = run("people", *args, "--json")
eq({p["email"]: p["company"] for p in r.json()["people"]}["ann@example.net"],
   "corp-a.com", "without a file: the domain she sent the most from that "
   "someone else uses (Dave), not her own example.net")
mail("x@x", "Gus Gmail <gus@gmail.com>", "hello", 15, "Hi.")
# Vic sends from a vanity domain; MAINTAINERS lists him at bigco.com,
# beside Olga
mail("v@x", "Vic Vanity <vic@vic-vanity.net>", "Re: hello", 16, "Hey.",
     "x@x")
with open(mbox, "w") as f:
    f.write("\n".join(msgs))
r = run("people", *args, "--json")
run_json_before = r.json()["people"]
cos = {p["email"]: p["company"] for p in r.json()["people"]}
eq(cos["gus@gmail.com"], "(Unknown)", "personal mail: (Unknown)")
eq(cos.get("vic@bigco.com"), "bigco.com", "a vanity domain's sender: the "
   "company of his listed address (joined by name)")

r = run("people", *args, "--sort", "messages", "--limit", "2")
eq(r.rc, 0, "text exits 0")
table = r.out[r.out.index("Top people by messages:"):
              r.out.index("Companies:")]
ok(table.count("Ann Author") == 1
   and "  ... and 8 more not shown (--limit)" in table,
   "text: maintstat's table ranked by --sort, --limit rows", r.out)


def column(out, title, right=False):
    """The rows of a ranked column of the netdev report's layout."""
    lines = out.splitlines()
    i = next(k for k, l in enumerate(lines) if title + ":" in l)
    rows = []
    for line in lines[i + 1:]:
        if not line.strip() or line.lstrip().startswith("Top "):
            break
        rows.append((line[41:] if right else line[:40]).strip())
    return rows


eq(column(r.out, "Top scores (positive)"),
   ["1 [20] Bob Moved", "2 [16] May Maint"],
   "the netdev report's ranked lists, --limit rows each: top scores")
eq(column(r.out, "Top scores (negative)", True),
   ["1 [22] Ann Author", "2 [ 6] Carl Stays"],
   "... and beside it the negative scores (ties by address)")
eq(column(r.out, "Top authors (messages)", True),
   ["1 [5] Ann Author", "2 [1] Carl Stays"], "... the authors' messages")
comp = r.out[r.out.index("Companies:"):]
ok("(Unknown)" not in column(comp, "Top reviewers (messages)", True)
   and "(Unknown)" not in comp[comp.index("How top authors"):]
   and "(Unknown)" in comp[comp.index("Top companies by"):],
   "(Unknown) is no company in the ranked lists, a row of the table",
   comp)
# --compare: ranks by reviewer score in the earlier document (not its
# order), a person found under any address, the score's change
prev = os.path.join(tmp, "prev.json")
with open(prev, "w") as f:
    json.dump({"schema_version": 6, "people": [
        {"email": "may@example.org", "reviewer_score": 30},
        {"email": "ann.author@gmail.com", "reviewer_score": -22},
        {"email": "bob@oldco.com", "reviewer_score": 5}],
        "companies": [{"name": "Corp A", "reviewer_score": -40}]}, f)
r = run("people", *args, "--json", "--employers", domain_map,
        "--compare", prev)
got = {p["email"]: (p["previous_rank"], p["score_change"])
       for p in r.json()["people"]}
eq([got[e] for e in ("may@example.org", "bob@oldco.com", "ann@example.net",
                     "rita@example.com")],
   [(1, -14), (2, 15), (3, 0), (None, None)],
   "--compare: earlier rank by score, Ann by another address, Rita new")
eq([(c["previous_rank"], c["score_change"]) for c in r.json()["companies"]
    if c["name"] == "Corp A"], [(1, 22)], "--compare: a company's")
# against itself, no company of the ranked lists moved: "(Unknown)" is
# not ranked there, in the earlier document either
same = os.path.join(tmp, "same.json")
with open(same, "w") as f:
    f.write(run("people", *args, "--json").out)
cols = run("people", *args, "--compare", same).out.split("Companies:")[1]
cols = cols.split("Top companies")[0]
ok(re.search(r"\((?!   \))...\)", cols) is None,
   "--compare with the same document: every company '(   )'", cols)
r = run("people", *args, "--compare", prev)
ok("     1     2    +15      20  Bob Moved" in r.out and
   "   new      -      10  Rita Rev" in r.out, "--compare in text", r.out)
eq(column(r.out, "Top scores (positive)")[:3],
   ["1 ( +1) [ 20] Bob Moved", "2 ( -1) [ 16] May Maint",
    "3 (***) [ 10] Dave Corp"], "--compare: stat-print.py's moves (the "
   "width of the column's widest figure, Ann's -22)")
r = run("people", *args, "--compare", mbox)
ok(r.rc == 1 and "list.mbox: line 1:" in r.err, "--compare of a file "
   "that is no JSON: runtime error naming it", r.err)
# --check: what a list owner should fix
r = run("people", *args, "--check")
ok(r.rc == 0 and "Ann Author <ann@example.net> and <ann@corp-a.com>: "
   "joined by name only" in r.out and "oldco.com: 2 people and no company "
   "(--employers)" in r.out, "--check: a join by name only, a domain of "
   "two people without a company", r.out)
r = run("people", *args, "--check", "--employers", domain_map)
ok("oldco.com" not in r.out and "Ann Author" in r.out,
   "--check: a domain the file names is no problem", r.out)
r = run("people", *args, "--suggest-mailmap")
eq(sorted(r.out.splitlines()), ["Ann Author <ann@example.net> "
                                "<ann.author@gmail.com>",
                                "Ann Author <ann@example.net> "
                                "<ann@corp-a.com>",
                                "Vic Vanity <vic@bigco.com> "
                                "<vic@vic-vanity.net>"],
   "--suggest-mailmap: the .mailmap lines only")
r = run("people", *args, "--check", "--json")
eq(r.rc, 0, "--check --json exits 0")
ok(r.json().get("schema_version") and
   {"kind": "weak_join", "what": "Ann Author <ann@example.net> and "
    "<ann@corp-a.com>: joined by name only", "mailmap":
    "Ann Author <ann@example.net> <ann@corp-a.com>"} in r.json()["to_fix"]
   and {"kind": "domain_without_company", "what": "oldco.com: 2 people and "
        "no company (--employers)", "mailmap": None} in r.json()["to_fix"],
   "--check --json: one document, each problem with its kind", r.out)
eq(run("people", *args, "--suggest-mailmap", "--json").rc, 2,
   "--suggest-mailmap and --json: usage error")
# --by month: each interval the same computation over its dates; a
# month without a message is null in every figure
feb = ("From x Mon Jan  1 00:00:00 2024\nFrom: Rita Rev <rita@example.com>\n"
       "Subject: Re: hello\nMessage-ID: <feb@x>\nIn-Reply-To: <x@x>\n"
       "Date: Thu, 01 Feb 2024 12:00:00 +0000\n"
       "List-Id: <foo.lists.example.org>\n\nLater.\n")
with open(mbox, "w") as f:
    f.write("\n".join(msgs + [feb]))
feb_args = ["--tree", tree, "--archive", mbox, "--no-cache"]
r = run("people", *feb_args, "--until", "2024-02-29", "--json", "--by",
        "month")
eq(r.rc, 0, "--by month exits 0")
byp = {p["email"]: p for p in r.json()["people"]}
jan = {p["email"]: p for p in run("people", *feb_args, "--until",
                                  "2024-01-31", "--json").json()["people"]}
FIG = ("authored", "messages", "threads", "replied", "first_responses",
       "tags_given", "tags_received", "reviewer_score", "ml_stat",
       "company")
eq([[iv["start"][:10], iv["end"][:10]] for iv in byp["may@example.org"]
    .get("intervals", [])], [["2024-01-02", "2024-02-01"],
                             ["2024-02-01", "2024-03-01"]],
   "--by month: two intervals, the first cut by the window's start")
ok(all({k: p["intervals"][0][k] for k in FIG} ==
       {k: jan[e][k] for k in FIG} for e, p in byp.items() if e in jan),
   "January's figures are those of a window ending with January")
eq([byp["may@example.org"]["intervals"][1][k] for k in ("messages",
                                                         "reviewer_score")],
   [None, None], "May sent nothing in February: null")
eq([byp["rita@example.com"]["intervals"][1][k] for k in ("messages",
                                                          "replied")],
   [1, 0], "Rita's February: her one reply (to no patch)")
eq(byp["rita@example.com"]["messages"], 2, "the window counts both")
unk = {c["name"]: c for c in r.json()["companies"]}["(Unknown)"]
eq([[(p["email"], p["messages"]) for p in iv["people"] or []]
     for iv in unk["intervals"]][1], [("rita@example.com", 1)],
   "a company's interval: its people there, with their figures there")
ok(all(len(iv["people"]) and iv["messages"] ==
       sum(p["messages"] for p in iv["people"])
       for c in r.json()["companies"] for iv in c["intervals"]
       if iv["people"] is not None), "... which sum to its figures")
# a company's people are the top-level list's, whose intervals hold their
# split: not written twice (the rdma slice's document: 4.0 -> 2.7 MB)
ok(all(p["intervals"] is None and
       {k: v for k, v in byp[p["email"]].items() if k != "intervals"} ==
       {k: v for k, v in p.items() if k != "intervals"}
       for c in r.json()["companies"] for p in c["people"]),
   "--by: a company's people, as the top-level list, intervals null")
r = run("people", *feb_args, "--until", "2024-02-29", "--by", "month")
rows = r.out[r.out.index("By month:"):].splitlines()
eq([rows[1].split(), rows[2].split(), rows[3].split(), rows[4].split(),
    rows[5].split()],
   [["name", "from", "score", "auth", "msgs", "thr", "repl", "first",
     "tag+", "tag-"],
    ["Bob", "Moved", "2024-01-02", "20", "0", "2", "2", "1", "1", "0", "0"],
    ["2024-02-01", "-"],
    ["Rita", "Rev", "2024-01-02", "10", "0", "1", "1", "2", "2", "2", "0"],
    ["2024-02-01", "8", "0", "1", "1", "0", "0", "0", "0"]],
   "--by in text: each row's figures per interval, '-' for none")
crows = r.out[r.out.rindex("By month:"):].splitlines()
eq(crows[1].split()[:4], ["company", "from", "score", "people"],
   "... companies with their people per interval")
eq(run("people", *feb_args, "--by", "fortnight").rc, 2,
   "--by of an unknown unit: usage error")
with open(mbox, "w") as f:
    f.write("\n".join(msgs))
# report: the people page, linked from the overview
site = os.path.join(tmp, "site")
r = run("report", *args, "--output-dir", site)
eq(r.rc, 0, "report exits 0")
with open(os.path.join(site, "people.html")) as f:
    page = f.read()
with open(os.path.join(site, "index.html")) as f:
    ok('href="people.html"' in f.read(), "the overview links the page")
ok('<table class="sortable" id="people">' in page and
   page.index("Bob Moved &lt;bob@oldco.com&gt;") <
   page.index("May Maint &lt;may@example.org&gt;") <
   page.index("Ann Author &lt;ann@example.net&gt;") and
   '<table class="sortable" id="companies">' in page and
   '<td class="n" data-sort="-22">-22<figure class="spark">' in page,
   "people.html: sortable tables, by reviewer score", page[:2000])
# each row's reviewer score with its trend per quarter: the window lies
# in one quarter, whose point is the window's score
sc = {"%s &lt;%s&gt;" % (p["name"], p["email"]): p["reviewer_score"]
      for p in run("people", *args, "--json").json()["people"]}
rows = {r.split("</th>")[0]: r for r in
        page.split('<table class="sortable" id="companies">')[0]
        .split('<tr><th scope="row">')[1:]}
eq({k: r.split('data-values0="')[1].split('"')[0] for k, r in rows.items()
    if 'data-values0="' in r}, {k: str(v) for k, v in sc.items()},
   "people.html: each person's reviewer score per quarter (a sparkline)")
# the median first response as every duration is written (hours below a
# day, days above), not a bare number of hours
meds = [(p["name"], p["email"], duration(round(
    p["median_latency_hours"] * 3600)))
    for p in doc["people"] if p["median_latency_hours"] is not None]
ok(meds and all(page.split("%s &lt;%s&gt;" % (n, e))[1].split("</tr>")[0]
                .endswith(">%s</td>" % d) for n, e, d in meds),
   "people.html: the median first response as a duration", meds)
# report --employers, --compare: people's, on people.html
site2 = os.path.join(tmp, "site2")
r = run("report", *args, "--output-dir", site2, "--employers", domain_map,
        "--compare", prev)
eq(r.rc, 0, "report --employers --compare exits 0")
with open(os.path.join(site2, "people.html")) as f:
    page = f.read()
bob = page[page.index("Bob Moved &lt;"):]
bob = bob[:bob.index("</tr>")]
ok("<th scope=\"row\">Corp A</th>" in page and
   "<th scope=\"col\">Previous rank</th>" in page and
   bob.endswith('<td class="n">2</td><td class="n" data-sort="15">+15</td>')
   and "<td>NewCo<br>" in bob,
   "people.html: the employers file's companies, Bob's earlier rank 2 and "
   "score change +15", bob)
# his change of employer inside the window, as JSON's employers[] has it
eq(bob.split("<td>")[1].split("</td>")[0],
   "NewCo<br><small>OldCo until 2024-01-09, NewCo from 2024-01-10</small>",
   "people.html: Bob's company cell lists each employer with its dates")
ok(all("<br><small>" not in r.split("</td>")[0] for r in
       page.split("<tr><th scope=\"row\">")[1:] if "Bob Moved" not in r),
   "... and no one else's")
# a reply to a message the archive lacks (its thread began on another
# list) is review: its sender starts no thread of their own
with open(mbox, "w") as f:
    f.write("\n".join(msgs + [
        "From x Mon Jan  1 00:00:00 2024\nFrom: Rita Rev <rita@example.com>"
        "\nSubject: Re: [PATCH net] bar: elsewhere\nMessage-ID: <o1@x>\n"
        "In-Reply-To: <gone@elsewhere>\nReferences: <gone@elsewhere>\n"
        "Date: Wed, 17 Jan 2024 00:00:00 +0000\n"
        "List-Id: <foo.lists.example.org>\n\nLooks fine.\n"]))
r = run("people", *args, "--json")
was = {p["email"]: p for p in run_json_before}["rita@example.com"]
now = {p["email"]: p for p in r.json()["people"]}["rita@example.com"]
eq([now["ml_stat"][k] - was["ml_stat"][k] for k in
    ("author_messages", "reviewer_threads", "reviewer_messages")]
   + [now["reviewer_score"] - was["reviewer_score"]], [0, 1, 1, 10],
   "a reply whose parent is not in the archive: a thread Rita reviewed "
   "(8 + 2), not one she wrote")
with open(mbox, "w") as f:
    f.write("\n".join(msgs))
r = run("people", *args, "--sort", "nonsense")
eq(r.rc, 2, "--sort of an unknown figure: usage error")
with open(domain_map, "a") as f:
    f.write("bob@oldco.com NewCo < 2024-13-45\n")
r = run("people", *args, "--employers", domain_map)
eq(r.rc, 1, "a bad end date: runtime error")
ok("domain-map:9: bad end date '2024-13-45'" in r.err, "naming file:line", r.err)
done()
