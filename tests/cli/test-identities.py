#!/usr/bin/env python3
"""Identities on the planted repository of fixtures/gen/gen-ident.py
(fixtures/gen/README.md "Identities"): every verdict that depends on who
is who, in text and JSON, with and without --no-name-join."""
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
repo = os.path.join(tmp, "ident.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-ident.py"), repo],
               check=True)


def blocks(text):
    out = {}
    for b in text.strip("\n").split("\n\n"):
        lines = b.splitlines()
        out[lines[0][len("Subsystem "):]] = lines[1:]
    return out


def inactive(text):
    return sorted(l.strip() for l in text.splitlines()
                  if l.startswith("  INACTIVE "))


# activity: only the listed Wei (a) is inactive; everyone else is active
# through a joined address, is a role address, or has no files here
r = run("activity", "--repo", repo)
eq(r.rc, 0, "activity exits 0")
eq(inactive(r.out), ["INACTIVE MAINTAINER Wei Zhang <wei@a.example>"],
   "one INACTIVE verdict: the Wei who stopped, not his namesake")
b = blocks(r.out)
eq(b["ACCENT DRIVER"][0], "  Changes: reviewed 1 of 7 commits (14%)",
   "a trailer block ended by git's '---' divider is read (Xen "
   "09de61c200c0)")
ok("    [1]: Rex Review <rex@review.example>" in b["ACCENT DRIVER"],
   "...Rex's Acked-by before the divider", b["ACCENT DRIVER"])
eq(b["ACCENT DRIVER"][2], "  Zolt\u00e1n N\u00e9meth "
   "<zoltan@listed.example> (also: zn@corp.example):",
   "accents: 'Zoltan Nemeth' in git is the listed Zolt\u00e1n")
eq(b["PETER DRIVER"][2], "  Peter Listed <peter@listed.example> (also: "
   "pl@home.example):", "the listed address only in MAINTAINERS: Peter "
   "commits from home")
eq(b["MOVED DRIVER"][2], "  Hana Moved <hmoved@newcorp.example> (also: "
   "hmoved@oldcorp.example):", "the MAINTAINERS change of address")
eq(b["HOMONYM DRIVER"][2], "  Wei Zhang <wei@a.example>:",
   "two Weis who review each other stay two")
ok("  No files in this tree (its code lives elsewhere): no verdict"
   in b["REMOTE TOOL"], "REMOTE TOOL has no files here", b["REMOTE TOOL"])
ok("  ROLE ADDRESS MAINTAINER Role Corp Support <support@corp.example>: "
   "not a person (never in the "
   "history; a list, or a role's name or address)"
   in b["ROLE DRIVER"], "the role address is one", b["ROLE DRIVER"])
ok(".mailmap:3: not a mailmap line" in r.err,
   "the malformed .mailmap line is named with file:line", r.err)
ok("the name 'sam many' joins 6 addresses" in r.err,
   "a name joining six addresses is warned about", r.err)

r = run("activity", "--repo", repo, "--json")
eq(r.rc, 0, "activity --json exits 0")
ents = {e["name"]: e for e in r.json()["entries"]}
people = {(n, p["email"]): p for n, e in ents.items() for p in e["people"]}
eq(sorted(k for k, p in people.items() if p["inactive"]),
   [("HOMONYM DRIVER", "wei@a.example")], "JSON: the one inactive")
eq(people[("ACCENT DRIVER", "zoltan@listed.example")]["also"],
   ["zn@corp.example"], "JSON: Zolt\u00e1n's other address")
eq(people[("MOVED DRIVER", "hmoved@newcorp.example")]["also"],
   ["hmoved@oldcorp.example"], "JSON: Hana's old address")
eq(people[("HOMONYM DRIVER", "wei@a.example")]["also"], [],
   "JSON: the listed Wei has no other address")
eq(sorted(people[("BIG NAME DRIVER", "sam@one.example")]["also"]),
   ["sam@%s.example" % d for d in ("five", "four", "six", "three",
                                   "two")], "JSON: Sam's five others")
ok(people[("ROLE DRIVER", "support@corp.example")]["role_address"] and
   not people[("ROLE DRIVER", "cora@corp.example")]["role_address"],
   "JSON: the role address, not Cora's")
eq([(t["name"], t["count"]) for t in
    ents["ACCENT DRIVER"]["top_reviewers"]], [("Rex Review", 1)],
   "JSON: Rex's Acked-by before the divider")
eq(sorted(n for n, e in ents.items() if e["no_files"]), ["REMOTE TOOL"],
   "JSON: REMOTE TOOL has no files")

# --no-name-join: only the MAINTAINERS history and .mailmap join
r = run("activity", "--repo", repo, "--no-name-join")
eq(inactive(r.out),
   ["INACTIVE MAINTAINER Peter Listed <peter@listed.example> "
    "(never seen in the history)",
    "INACTIVE MAINTAINER Sam Many <sam@one.example> "
    "(never seen in the history)",
    "INACTIVE MAINTAINER Wei Zhang <wei@a.example>",
    "INACTIVE MAINTAINER Zolt\u00e1n N\u00e9meth <zoltan@listed.example> "
    "(never seen in the history)"],
   "--no-name-join: the name-joined are inactive again, Hana is not")

# urgent: never "never active" for anyone active under another address
r = run("urgent", "--repo", repo, "--min-commits", "0", "--never", "--json")
eq(r.rc, 0, "urgent --never exits 0")
eq(r.json()["entries"], [],
   "urgent --never: nobody (REMOTE TOOL has no files here)")
r = run("urgent", "--repo", repo, "--min-commits", "1", "--json")
eq([e["name"] for e in r.json()["entries"]],
   ["HOMONYM DRIVER", "ROLE REVIEWERS"],
   "urgent: the entry whose maintainer stopped, and the one without M:")

# retire: only the Wei who stopped; the cover lists the joins relied on
out = os.path.join(tmp, "series")
r = run("retire", "--repo", repo, "--min-commits", "1", "--no-credits",
        "--from", "Ann Auditor <ann@example.org>", "--output-dir", out, "--json",
        env={"SOURCE_DATE_EPOCH": "1717243200"})
eq(r.rc, 0, "retire exits 0")
eq([(p["entry"], p["subject"]) for p in r.json()["patch_files"][1:]],
   [("HOMONYM DRIVER", "MAINTAINERS: HOMONYM DRIVER: remove Wei Zhang")],
   "retire touches only the entry whose maintainer stopped")
with open(os.path.join(out, "0000-cover-letter.patch"),
          encoding="utf-8") as fp:
    cover = fp.read()
for want in ["  Zolt\u00e1n N\u00e9meth <zoltan@listed.example> is also "
             "zn@corp.example (name)\n",
             "  Peter Listed <peter@listed.example> is also pl@home.example "
             "(name)\n",
             "  Hana Moved <hmoved@newcorp.example> is also "
             "hmoved@oldcorp.example\n    (maintainers-history "]:
    ok(want in cover, "the cover letter lists the join: " +
       want.split(" is ")[0].strip(), cover)
with open(os.path.join(out, "0001-MAINTAINERS-HOMONYM-DRIVER-remove-Wei-"
                       "Zhang.patch"), encoding="utf-8") as fp:
    patch = fp.read()
ok("\nCc: Wei Zhang <wei@a.example>\nSigned-off-by: Ann Auditor" in patch,
   "the patch Cc's the person it removes", patch)
r = run("retire", "--repo", repo, "--min-commits", "1", "--no-credits",
        "--from", "Ann Auditor <ann@example.org>", "--output-dir", out,
        "--json", "--no-name-join", "--force")   # out holds the first series
eq(sorted(p["entry"] for p in r.json()["patch_files"][1:]),
   ["ACCENT DRIVER", "BIG NAME DRIVER", "HOMONYM DRIVER", "PETER DRIVER"],
   "--no-name-join: retire would remove the name-joined (what the joins "
   "prevent); never MOVED, REMOTE TOOL or ROLE DRIVER")

# identities: each join with its source and evidence
r = run("identities", "--repo", repo, "PETER DRIVER", "MOVED DRIVER",
        "HOMONYM DRIVER", "REMOTE TOOL")
eq(r.rc, 0, "identities exits 0")
ok(r.out.startswith(
    "Peter Listed <peter@listed.example> (listed: PETER DRIVER: active)\n"
    "  peter@listed.example: self, seen in HEAD:MAINTAINERS:24, unused address "
    "(listed, never in a commit)\n"
    "  pl@home.example: name, joined by name 'peter listed', seen in "), 
   "Peter: the listed address unused, the home one joined by name", r.out)
ok("  hmoved@oldcorp.example: maintainers-history, joined by " in r.out,
   "Hana: joined by MAINTAINERS history", r.out)
ok("Wei Zhang <wei@a.example> (listed: HOMONYM DRIVER: inactive)\n"
   "  wei@a.example: self, seen in " in r.out and
   "  wzhang@b.example: " not in r.out,
   "the listed Wei alone", r.out)
ok(re.search(r"\n  not wzhang@b\.example: same name, another person "
             r"\(each reviewed the other's commit: "
             r"[0-9a-f]{12}, [0-9a-f]{12}\)\n", r.out),
   "the namesake kept apart, and why", r.out)
ok("  rob@remote.example: self, seen in HEAD:MAINTAINERS:30, unused address"
   in r.out, "Rob's address is unused", r.out)
r = run("identities", "--repo", repo, "--json")
eq(r.rc, 0, "identities --json exits 0")
ppl = {p["email"]: p for p in r.json()["people"]}
eq(sorted(ppl), ["bo@oldboard.example", "cora@corp.example",
                 "hmoved@newcorp.example", "mal@formed.example",
                 "peter@listed.example",
                 "quiet@new.example", "rchan@newco.example",
                 "rob@remote.example",
                 "ryan@oldco.example",
                 "sam@one.example", "support@corp.example",
                 "wei@a.example", "wzhang@b.example",
                 "zoltan@listed.example"],
   "JSON: everyone with several addresses, an unused listed one or a "
   "namesake kept apart")
eq([k["email"] for k in ppl["wei@a.example"]["kept_apart"]],
   ["wzhang@b.example"], "JSON: the Weis kept apart")
ok([len(x) for x in ppl["wei@a.example"]["kept_apart"][0]["evidence"]
    .split()] == [40, 40], "JSON: by two commits, one each way")
eq(ppl["wei@a.example"]["dmarc_name"], None, "JSON: no dmarc-name")
eq([(a["email"], a["source"]) for a in ppl["cora@corp.example"]["address_evidence"]],
   [("cora@corp.example", "self"), ("cora@home.example", "name")],
   "JSON: the author's Tested-by from another address of her name is "
   "her (only a review or ack keeps two apart)")
eq([(a["email"], a["source"]) for a in
    ppl["hmoved@newcorp.example"]["address_evidence"]],
   [("hmoved@newcorp.example", "self"),
    ("hmoved@oldcorp.example", "maintainers-history")], "JSON: Hana")
ok(len(ppl["hmoved@newcorp.example"]["address_evidence"][1]["evidence"]) == 40,
   "JSON: the evidence is the MAINTAINERS commit")
eq([(a["email"], a["source"]) for a in
    ppl["quiet@new.example"]["address_evidence"]],
   [("quiet@new.example", "self"), ("quiet@old.example", "mailmap")],
   "JSON: the .mailmap join")
ok(ppl["sam@one.example"]["big_name_join"], "JSON: Sam's name join flagged")
eq([a["unused_address"] for a in ppl["rob@remote.example"]["address_evidence"]],
   [True], "JSON: Rob's unused address")
# urgent: an entry with only R: lines names its reviewers, and whether
# they are active (Xen's RISCV)
u = run("urgent", "--repo", repo, "--nomaint")
ok("Subsystem ROLE REVIEWERS\n  Commits 4 since 2023-06-01\n"
   "  No maintainer listed; its reviewers (R:):\n"
   "  Reviewer Cora Corp <cora@corp.example> (also: cora@home.example): "
   "last active here 2024-04-07; active\n" in u.out,
   "urgent names the R: people of an entry without M:", u.out)
u = run("urgent", "--repo", repo, "--nomaint", "--json")
eq([(e["name"], [(p["email"], p["inactive"]) for p in e["reviewers"]])
    for e in u.json()["entries"]],
   [("ROLE REVIEWERS", [("cora@corp.example", False)])],
   "JSON: urgent's reviewers, active")

# evidence quality (issue 35): each person's addresses, as sets
groups = [set(a["email"] for a in p["address_evidence"])
          for p in r.json()["people"]]
ok(not any({"pat@alpha.example", "sid@whiskey.example"} <= g
           for g in groups), "a .mailmap placeholder for two people "
   "(noreply@example.com) makes no one of Pat and Sid", groups)
ok(not any("tom@typo.example" in g or "hedy@host.example" in g
           for g in groups), "Tom's name once on Hedy's address (used 25 "
   "times) joins no one", groups)
ok(not any({"spam1@a1.example", "spam2@a2.example"} <= g for g in groups),
   "a domain as a display name ('Acme.co.jp') joins no one", groups)
eq([(a["email"], a["source"], a["malformed"]) for a in
    ppl["mal@formed.example"]["address_evidence"]],
   [("mal@formed.example", "self", False),
    ("mal@box.(none)", "name", True)], "JSON: 'mal at formed dot example' "
   "and '[mal@formed.example]' are mal@formed.example; 'mal@box.(none)' is "
   "no address")
eq(ppl["rchan@newco.example"]["address_evidence"][1:], [],
   "JSON: the Ryan Chans at two companies eight years apart are not joined")
eq([(x["email"], x["evidence"]) for x in
    ppl["rchan@newco.example"]["possible_joins"]],
   [("ryan@oldco.example", "same name, another organisation, active "
     "2016-01..2016-01 and 2024-05..2024-05")], "JSON: ...but a possible join")
r = run("identities", "--repo", repo)
ok("\n  'mal@box.(none)' (not an address): name, " in r.out and
   " mal at " not in r.out and "[mal@" not in r.out,
   "text: the malformed address as evidence text only", r.out)
ok("Ryan Chan <rchan@newco.example>\n  rchan@newco.example: self, seen in "
   in r.out and "\n  possible ryan@oldco.example: same name, another "
   "organisation, active 2016-01..2016-01 and 2024-05..2024-05; not joined "
   in r.out, "text: the possible join", r.out)
r = run("identities", "--repo", repo, "--suggest-mailmap")
eq(r.rc, 0, "--suggest-mailmap exits 0")
ok("(none)" not in r.out and " at " not in r.out,
   "--suggest-mailmap: never a malformed address", r.out)
ok("\n# Ryan Chan <rchan@newco.example> <ryan@oldco.example>\n" in r.out
   and "\nRyan Chan <" not in r.out and not r.out.startswith("Ryan"),
   "--suggest-mailmap: the possible join as a question", r.out)
ok("Hana Moved <hmoved@newcorp.example> <hmoved@oldcorp.example>\n" in r.out
   and "Peter Listed <peter@listed.example> <pl@home.example>\n" in r.out
   and "quiet@" not in r.out, "--suggest-mailmap: the joins .mailmap "
   "lacks, not the one it makes", r.out)
r = run("identities", "--repo", repo, "--json", "--suggest-mailmap")
eq(r.rc, 2, "--json with --suggest-mailmap: usage error")
r = run("identities", "--repo", repo, "NO SUCH ENTRY")
eq(r.rc, 2, "an unknown entry: usage error")

# review --tree: a tree directory without git, its own .mailmap, a list
tl = os.path.join(tmp, "tl")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-ident.py"), "--tree-list",
                tl], check=True)


def review(*extra):
    r = run("review", "--tree", os.path.join(tl, "tree"), "--archive",
            os.path.join(tl, "list.mbox"), "--json", "--no-cache",
            *extra, "PETER DRIVER", "ACCENT DRIVER", "MOVED DRIVER",
            "HOMONYM DRIVER")
    eq(r.rc, 0, "review --tree exits 0 " + " ".join(extra))
    return {e["name"]: ([(p["email"], p["replied"], p["authored"])
                         for p in e["people"]],
                        sorted(o["email"] if not o["via_list"] else
                               "%s via %s" % (o["name"], o["email"])
                               for o in e["others"]))
            for e in r.json()["entries"]}


got = review()
eq(got["PETER DRIVER"], ([("peter@listed.example", 1, 0)],
                         ["Nobody Known via peter@lists.example.org",
                          "Wei Zhang via peter@lists.example.org"]),
   "Peter's reply from home is his (name); the list's DMARC address "
   "with his name is Peter's reply (dmarc-name), never a person itself; "
   "rewrites under a name no one or two people have are unattributed "
   "via-list rows, one per name, not the list address")
eq(got["ACCENT DRIVER"], ([("zoltan@listed.example", 2, 0)], []),
   "the tree's own .mailmap joins Zolt\u00e1n's second address; his "
   "DMARC-rewritten reply without an original address is his by name")
eq(got["MOVED DRIVER"], ([("hmoved@newcorp.example", 1, 0)], []),
   "a DMARC-rewritten reply with Reply-To is Hana's")
eq(got["HOMONYM DRIVER"], ([("wei@a.example", 1, 1)],
                           ["wzhang@b.example"]),
   "the other Wei's patch, reviewed by the listed Wei, and the listed "
   "Wei's, reviewed by the other (each reviewed the other's: two "
   "people), are one each")
got = review("--no-name-join")
eq(got["PETER DRIVER"], ([("peter@listed.example", 0, 0)],
                         ["Nobody Known via peter@lists.example.org",
                          "Peter Listed via peter@lists.example.org",
                          "Wei Zhang via peter@lists.example.org",
                          "pl@home.example"]),
   "--no-name-join: Peter's home address is someone else, and no "
   "rewrite is credited by name")
eq(got["ACCENT DRIVER"], ([("zoltan@listed.example", 1, 0)],
                          ["Zolt\u00e1n N\u00e9meth via "
                           "peter@lists.example.org"]),
   "--no-name-join: no DMARC credit by name either")
r = run("review", "--tree", os.path.join(tl, "tree"), "--archive",
        os.path.join(tl, "list.mbox"), "--no-cache", "PETER DRIVER")
ok("Nobody Known via peter@lists.example.org (unattributed)" in r.out and
   "Wei Zhang via peter@lists.example.org (unattributed)" in r.out and
   "<peter@lists.example.org>" not in r.out,
   "text: the unattributed via-list rows, never the list as a person",
   r.out)

# identities over a tree without git and a list: the list's senders join
# people by name; From and Cc of one message keep the Weis apart; the
# list's DMARC rewrites are credited by name
tree, mbox = os.path.join(tl, "tree"), os.path.join(tl, "list.mbox")
r = run("identities", "--tree", tree, "--archive", mbox, "--no-cache")
eq(r.rc, 0, "identities --tree --archive exits 0")
ok("Wei Zhang <wei@a.example> (listed: HOMONYM DRIVER)\n"
   "  wei@a.example: self, seen in homonym-2@example.org\n"
   "  not wzhang@b.example: same name, another person (review of "
   "homonym-1@example.org in homonym-1-r1@example.org; review of "
   "homonym-2@example.org in homonym-2-r1@example.org)\n" in r.out,
   "--tree --archive: the namesakes kept apart by a review", r.out)
ok("Peter Listed <peter@listed.example> (listed: PETER DRIVER)\n"
   "  peter@listed.example: self, seen in MAINTAINERS:24, unused address "
   "(listed, never in a message)\n"
   "  pl@home.example: name, joined by name 'peter listed', seen in "
   "peter-1-r1@example.org\n"
   "  peter@lists.example.org: dmarc-name, 1 message a list rewrote "
   "credited by name, first peter-1-r2@example.org\n" in r.out,
   "--tree --archive: Peter joined by name, his DMARC rewrite credited",
   r.out)
ok("Zolt\u00e1n N\u00e9meth <zoltan@listed.example> (listed: ACCENT "
   "DRIVER)\n  zoltan@listed.example: self, seen in MAINTAINERS:4, "
   "unused address (listed, never in a message)\n"
   "  zn2@other.example: mailmap, seen in accent-1-r1@example.org\n"
   "  peter@lists.example.org: dmarc-name, 1 message a list rewrote "
   "credited by name, first accent-2-r1@example.org\n" in r.out,
   "--tree --archive: the tree's .mailmap, and the DMARC rewrite with "
   "Zolt\u00e1n's name (the canonical address first)", r.out)
r = run("identities", "--tree", tree, "--archive", mbox, "--no-cache",
        "--json")
eq(r.rc, 0, "identities --tree --archive --json exits 0")
ppl = {p["email"]: p for p in r.json()["people"]}
eq(ppl["wei@a.example"]["kept_apart"],
   [{"email": "wzhang@b.example",
     "evidence": "review of homonym-1@example.org in "
                 "homonym-1-r1@example.org; review of "
                 "homonym-2@example.org in homonym-2-r1@example.org"}],
   "JSON: the Weis kept apart by reviews on the list, one each way")
lena = [p for p in r.json()["people"]
        if p["email"] in ("lena@work.example", "lena@home.example")]
eq([(p["email"], [(a["email"], a["source"]) for a in p["address_evidence"]],
     p["kept_apart"]) for p in lena],
   [("lena@work.example", [("lena@work.example", "self"),
                           ("lena@home.example", "name")], [])],
   "JSON: Lena reviewing her own patch from home is one person")
eq(ppl["zoltan@listed.example"]["dmarc_name"],
   {"messages": 1, "list_address": "peter@lists.example.org",
    "evidence": "accent-2-r1@example.org"}, "JSON: dmarc-name")
ok("peter@lists.example.org" not in ppl, "JSON: the list is nobody")
r = run("identities", "--tree", tree, "--archive", mbox, "--no-cache",
        "--no-name-join", "PETER DRIVER")
eq(r.out, "Peter Listed <peter@listed.example> (listed: PETER DRIVER)\n"
   "  peter@listed.example: self, seen in MAINTAINERS:24, unused address "
   "(listed, never in a message)\n",
   "--no-name-join: neither the name join nor a DMARC credit by name")
r = run("identities", "--tree", tree, "PETER DRIVER")
eq((r.rc, r.out), (0, "Peter Listed <peter@listed.example> (listed: "
                   "PETER DRIVER)\n  peter@listed.example: self, seen in "
                   "MAINTAINERS:24\n"),
   "--tree alone: no use known, so no address is called unused")
r = run("identities", "--tree", tree, "--repo", repo)
eq(r.rc, 2, "--tree with --repo: usage error")
# with --repo, the list joins the history's model
r = run("identities", "--repo", repo, "--archive", mbox, "--no-cache",
        "MOVED DRIVER", "PETER DRIVER", "HOMONYM DRIVER")
eq(r.rc, 0, "identities --repo --archive exits 0")
ok("Hana Moved <hmoved@newcorp.example> (listed: MOVED DRIVER: active)\n"
   "  hmoved@newcorp.example: self, seen in HEAD:MAINTAINERS:19\n" in r.out,
   "--repo --archive: Hana's listed address, used in a message, is not "
   "unused", r.out)
ok("  peter@lists.example.org: dmarc-name, 1 message a list rewrote "
   "credited by name, first peter-1-r2@example.org\n" in r.out and
   "unused address (listed, never in a commit or message)" in r.out,
   "--repo --archive: Peter's DMARC credit; his listed address unused "
   "in both", r.out)

# bad input: --mailmap with a malformed line, non-UTF-8 names
mm = os.path.join(tmp, "extra.mailmap")
with open(mm, "wb") as fp:
    fp.write(b"Wei Zhang <wei@a.example> <wzhang@b.example>\n"
             b"<broken@example\n"
             b"N\xe9meth \xff <nobody@example.org>\n")
r = run("activity", "--repo", repo, "--mailmap", mm, "HOMONYM DRIVER")
eq(r.rc, 0, "--mailmap exits 0")
ok(mm + ":2: " in r.err, "the malformed --mailmap line named with "
   "file:line", r.err)
eq(inactive(r.out), [], "the rest is used: a mailmap joining the two "
   "Weis is believed over the evidence")
r = run("activity", "--repo", repo, "--mailmap",
        os.path.join(tmp, "nope"))
eq(r.rc, 1, "a missing --mailmap file: exit 1")
ok("cannot read" in r.err, "...said so", r.err)

# link: a commit whose posting came from another address of its author
# is linked through the join, and the link shows the join it relied on
lmbox = os.path.join(tmp, "repo-list.mbox")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-ident.py"), "--repo-list",
                lmbox], check=True)
r = subprocess.run(["git", "--git-dir", repo, "log", "--format=%H %s"],
                   capture_output=True, text=True, check=True)
subj = {l.split(" ", 1)[1]: l.split(" ", 1)[0]
        for l in r.stdout.splitlines()}
r = run("link", "--repo", repo, "--archive", lmbox, "--no-cache", "--json")
eq(r.rc, 0, "link exits 0")
links = {l["commit"]: l for l in r.json()["links"]}
quiet = links.get(subj["misc: quiet"], {})
eq(quiet.get("message_id"), "joined-0@example.org",
   "the posting from the .mailmap's address is linked to 'misc: quiet'")
eq([(j["email"], j["source"]) for j in quiet.get("author_joins", [])],
   [("quiet@old.example", "mailmap")],
   "...through the .mailmap join, shown with its source")
eq(quiet.get("author_email"), "quiet@new.example", "...and the author")
ok(subj["misc: quiet again"] not in links,
   "'misc: quiet again' no longer takes its sibling's posting")
acc = links.get(subj["accent: fix 0"], {})
eq(acc.get("message_id"), "joined-1@example.org",
   "Zolt\u00e1n's posting from his listed address is linked")
eq([(j["email"], j["source"], j["first_seen"])
    for j in acc.get("author_joins", [])],
   [("zoltan@listed.example", "name", "joined-1@example.org")],
   "...through the name join, with the first evidence")
ok("author" in acc.get("matched_on", []), "...the author is evidence")
r = run("link", "--repo", repo, "--archive", lmbox, "--no-cache")
eq(r.rc, 0, "link text exits 0")
ok("author joined      Quiet Mapped <quiet@new.example> (also: "
   "quiet@old.example (mailmap" in r.out, "text names the join", r.out)
# his name as he writes it on the list (ident.h, ms_ident_name()), not
# the first one seen (git's 'Zoltan Nemeth')
ok("Zolt\u00e1n N\u00e9meth <zn@corp.example> (also: zoltan@listed.example "
   "(name))" in r.out, "text names the name join", r.out)

# link takes the identity options the other commands take: without name
# joins Zoltan's posting is not his by the author rule; --aliases or
# --mailmap give the join back, with their own source
def link_joins(*extra):
    r = run("link", "--repo", repo, "--archive", lmbox, "--no-cache",
            "--json", *extra)
    links = {l["commit"]: l for l in r.json()["links"]} if r.rc == 0 else {}
    a = links.get(subj["accent: fix 0"], {})
    return r.rc, [(j["email"], j["source"])
                  for j in a.get("author_joins", [])], a.get("matched_on", [])


rc, joins, ev = link_joins("--no-name-join")
eq((rc, joins, "author" in ev), (0, [], False),
   "link --no-name-join: no name join, the author is no evidence")
al = os.path.join(tmp, "link-aliases")
with open(al, "w") as f:
    f.write("zoltan@listed.example zn@corp.example\n")
rc, joins, ev = link_joins("--no-name-join", "--aliases", al)
eq((rc, joins, "author" in ev),
   (0, [("zoltan@listed.example", "aliases")], True),
   "link --aliases: the aliases join, shown with its source")
mm = os.path.join(tmp, "link-mailmap")
with open(mm, "w") as f:
    f.write("Zoltan Nemeth <zn@corp.example> <zoltan@listed.example>\n")
rc, joins, ev = link_joins("--no-name-join", "--mailmap", mm)
eq((rc, joins, "author" in ev),
   (0, [("zoltan@listed.example", "mailmap")], True),
   "link --mailmap: the .mailmap join, shown with its source")
r = run("link", "--repo", repo, "--archive", lmbox, "--no-cache",
        "--no-name-join", "--mailmap", mm)
ok(f"Identities: the revision's .mailmap, {mm}, the commits' and the "
   "list's people (no name joins)" in r.out, "link's text names them",
   r.out[:600])
r = run("link", "--repo", repo, "--archive", lmbox, "--aliases",
        os.path.join(tmp, "nope"))
eq((r.rc, "cannot read" in r.err), (1, True),
   "link: a missing --aliases file: exit 1, said so")

# activity --json shows each listed person's joins with source and
# evidence, as link does
r = run("activity", "--repo", repo, "--json", "MOVED DRIVER")
eq(r.rc, 0, "activity --json exits 0")
p = r.json()["entries"][0]["people"][0]
eq([(j["email"], j["source"]) for j in p["joins"]],
   [("hmoved@oldcorp.example", "maintainers-history")],
   "activity --json: Hana's old address joined by MAINTAINERS history")

# MAINTAINERS files other than the top-level one: Bo's address changes
# in board/x/MAINTAINERS; he commits as "B. Board" under the old one, so
# only that change joins him (--no-name-join), cold and from the store
bdb = os.path.join(tmp, "board.sqlite")
for run_no in ("cold", "warm"):
    r = run("activity", "--repo", repo, "--find-maintainer-files",
            "--no-name-join", "--db", bdb, "--json", "BOARD X")
    eq(r.rc, 0, "activity --find-maintainer-files exits 0 (%s)" % run_no)
    p = r.json()["entries"][0]["people"][0]
    eq((p["email"], p["inactive"], p["last_authored"] and
        p["last_authored"]["count"]),
       ("bo@newboard.example", False, 3),
       "BOARD X: Bo active through board/x/MAINTAINERS history (%s)"
       % run_no)
    eq([(j["email"], j["source"]) for j in p["joins"]],
       [("bo@oldboard.example", "maintainers-history")],
       "...the join shown with its source (%s)" % run_no)
r = run("activity", "--repo", repo, "--find-maintainer-files",
        "--no-name-join", "--no-cache", "BOARD X")
ok("Bo Board <bo@newboard.example> (also: bo@oldboard.example)" in r.out
   and "INACTIVE" not in r.out, "text: Bo with his old address", r.out)
ok("\nIdentities: HEAD's .mailmap, changes of address in MAINTAINERS, "
   "plus-address folding\n" in r.out, "text: the joins applied, without "
   "equal names (--no-name-join)", r.out)
r = run("identities", "--repo", repo, "--no-cache", "--json")
eq(r.rc, 0, "identities exits 0")
bo = [a for pp in r.json()["people"] for a in pp["address_evidence"]
      if a["email"] == "bo@newboard.example"]
eq([a["source"] for a in bo], ["maintainers-history"],
   "identities: the board file's change of address is a "
   "maintainers-history join")

# Outlook's "Surname, Given": a reply from "Listed, Peter" at another
# address is the listed Peter Listed's, by name
st = os.path.join(tmp, "surname")
os.makedirs(os.path.join(st, "tree", "drivers", "sn"))
with open(os.path.join(st, "tree", "MAINTAINERS"), "w") as f:
    f.write("SN DRIVER\nM:\tPeter Listed <peter@listed.example>\n"
            "S:\tMaintained\nF:\tdrivers/sn/\n")
with open(os.path.join(st, "tree", "drivers", "sn", "s.c"), "w") as f:
    f.write("/* s */\n")
with open(os.path.join(st, "list.mbox"), "w") as f:
    f.write("From x@y Thu Jan  1 00:00:00 1970\n"
            "From: Carl Committer <carl@example.org>\n"
            "Subject: [PATCH] sn: fix\nDate: Mon, 2 Jan 2023 10:00:00 +0000\n"
            "Message-ID: <sn-1@example.org>\n\nA fix.\n---\n"
            "diff --git a/drivers/sn/s.c b/drivers/sn/s.c\n"
            "--- a/drivers/sn/s.c\n+++ b/drivers/sn/s.c\n@@ -1 +1 @@\n"
            "-/* s */\n+/* s 1 */\n\n"
            "From x@y Thu Jan  1 00:00:00 1970\n"
            "From: \"Listed, Peter\" <peter.listed@corp.example>\n"
            "Subject: Re: [PATCH] sn: fix\n"
            "Date: Mon, 2 Jan 2023 12:00:00 +0000\n"
            "Message-ID: <sn-1-r1@example.org>\n"
            "In-Reply-To: <sn-1@example.org>\n\n> quoted\n\nOK.\n")
for extra, want in (((), [("peter@listed.example", 1)]),
                    (("--no-name-join",), [("peter@listed.example", 0)])):
    r = run("review", "--tree", os.path.join(st, "tree"), "--archive",
            os.path.join(st, "list.mbox"), "--json", "--no-cache", *extra,
            "SN DRIVER")
    eq(r.rc, 0, "review of 'Surname, Given' exits 0 " + " ".join(extra))
    eq([(p["email"], p["replied"]) for p in r.json()["entries"][0]["people"]],
       want, "'Listed, Peter' is Peter Listed by name " + " ".join(extra))

# Nobody with a second address, nothing flagged (kvm-unit-tests' tree:
# no .mailmap): the text says so, not nothing
r = run("identities", "--tree", os.path.join(st, "tree"))
eq((r.rc, r.out), (0, "No one is known under more than one address, "
                   "nor flagged.\n"), "an empty answer says it is empty")

subprocess.run(["rm", "-rf", tmp])
done()
