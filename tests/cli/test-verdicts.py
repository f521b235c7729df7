#!/usr/bin/env python3
"""One verdict per listed person, whichever command says it (issue 34):
on gen-review.py's repository and list (fixtures/gen/README.md), with two
entries planted on top, activity, urgent, retire, maintainers --activity,
review, report and identities give each listed person of each entry the
same verdict.

Planted on top (a commit dated 2015, before every window):
- QUIET DRIVER (M: Fay Foo, active elsewhere; F: drivers/quiet/): no
  commit in any window and no patch: no evidence, never INACTIVE, and
  `retire --min-commits 0` leaves Fay in it (Xen's MINI-OS);
- CHANGE LOG (M: Fay Foo, R: Community Manager
  <community.manager@elsewhere.example>, F: drivers/foo/): a role address
  by its name and local part at a domain no one of the history uses
  (Xen's CHANGELOG.md reviewer): role_address everywhere, never retired;
  so are its R: a company, Acme Widgets, Inc. <source@acme.example>
  (U-Boot's PORTER BOARD: Cogent Embedded, Inc.), and Sam Seller
  <open-source@widgets.example>, a role's local part with a hyphen
  (U-Boot's VINING_2000 BOARD: open-source@softing.de), both never in
  the history: retire removed all three U-Boot ones as never active;
- LARK CORNER (M: Lena Lark <lena@corp.example>, F: drivers/foo/): never
  in git; on the list she answers a FOO patch as Lena Lark
  <lena@home.example>, an address only the list's senders join to hers
  (LTP's Petr Vorel, petr.vorel@suse.com): active on the list in every
  command, with the same list figures in activity --archive as in review
  (activity read the list through a history whose people knew no list
  sender, so she was never active there and active on the list in
  review).
"""
import glob
import json
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
rv = os.path.join(tmp, "gen")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"), rv],
               check=True)
repo, mbox = os.path.join(rv, "repo"), os.path.join(rv, "list.mbox")
CM = "community.manager@elsewhere.example"
INC, OSS = "source@acme.example", "open-source@widgets.example"


def git(*args, date=None):
    env = dict(os.environ)
    if date:
        env.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    env.update(GIT_AUTHOR_NAME="Fay Foo", GIT_AUTHOR_EMAIL="fay@example.org",
               GIT_COMMITTER_NAME="Fay Foo",
               GIT_COMMITTER_EMAIL="fay@example.org")
    return subprocess.run(["git", "-C", repo, *args], check=True, env=env,
                          capture_output=True, text=True).stdout


bare = subprocess.run(["git", "-C", repo, "rev-parse", "--is-bare-repository"],
                      capture_output=True, text=True).stdout.strip() == "true"
work = repo
if bare:
    work = os.path.join(tmp, "work")
    subprocess.run(["git", "clone", "-q", repo, work], check=True)
    repo_saved, repo = repo, work
mf = os.path.join(repo, "MAINTAINERS")
with open(mf, encoding="utf-8") as f:
    text = f.read()
text += ("\nQUIET DRIVER\nM:\tFay Foo <fay@example.org>\nS:\tMaintained\n"
         "F:\tdrivers/quiet/\n\nCHANGE LOG\nM:\tFay Foo <fay@example.org>\n"
         f"R:\tCommunity Manager <{CM}>\n"
         f"R:\tAcme Widgets, Inc. <{INC}>\nR:\tSam Seller <{OSS}>\n"
         "S:\tMaintained\n"
         "F:\tdrivers/foo/\n\nLARK CORNER\nM:\tLena Lark <lena@corp.example>\n"
         "S:\tMaintained\nF:\tdrivers/foo/\n")
with open(mf, "w", encoding="utf-8") as f:
    f.write(text)
os.makedirs(os.path.join(repo, "drivers", "quiet"), exist_ok=True)
with open(os.path.join(repo, "drivers", "quiet", "quiet.c"), "w") as f:
    f.write("int quiet;\n")
git("add", "-A")
git("commit", "-q", "-m", "quiet: a driver nobody touches", date="2015-01-01T00:00:00Z")
if bare:
    subprocess.run(["git", "-C", work, "push", "-q", repo_saved, "HEAD"],
                   check=True)
    repo = repo_saved

with open(mbox, "a", encoding="utf-8") as f:
    f.write("From mboxrd@z Thu Jan  1 00:00:00 1970\n"
            "From: Lena Lark <lena@home.example>\n"
            "Date: Tue, 12 Mar 2024 16:00:00 +0000\n"
            "Subject: Re: [PATCH] foo: add widget support\n"
            "Message-ID: <b1-lark@example.org>\n"
            "To: list@lists.example.org\n"
            "In-Reply-To: <b1@example.net>\nReferences: <b1@example.net>\n"
            "\nLooks right to me.\n\n\n")

A = ["--repo", repo, "--no-cache"]
L = ["--archive", mbox]

# what each command says: (entry, address) -> verdict
verdicts = {}


def say(cmd, entry, email, v):
    verdicts.setdefault((entry, email.lower()), {})[cmd] = v


r = run("activity", *A, *L, "--json")
ok(r.rc == 0, "activity --json exits 0", r.err)
for e in r.json()["entries"]:
    for p in e["people"]:
        say("activity", e["name"], p["email"], p["verdict"])
act = {k: v["activity"] for k, v in verdicts.items()}
FIGS = ("replied", "messages", "first_responses", "authored")
# the list's figures of each listed person, activity's and review's
figures = {"activity": {}, "review": {}}
for e in r.json()["entries"]:
    for p in (e.get("list") or {}).get("people", []):
        figures["activity"][(e["name"], p["email"].lower())] = \
            {k: p[k] for k in FIGS}

r = run("activity", *A, *L)
quiet = r.out.split("Subsystem QUIET DRIVER\n", 1)[-1].split("\nSubsystem ")[0]
ok("  NO EVIDENCE MAINTAINER Fay Foo <fay@example.org>: no commit and no "
   "patch of the entry in the window or since the cutoff (" in quiet and
   "INACTIVE" not in quiet, "activity text: QUIET DRIVER has no evidence, "
   "no INACTIVE line", quiet)
log = r.out.split("Subsystem CHANGE LOG\n", 1)[-1].split("\nSubsystem ")[0]
ok(f"  ROLE ADDRESS REVIEWER Community Manager <{CM}>: not a person" in log
   and "INACTIVE" not in log,
   "activity text: the Community Manager is a role address", log)

r = run("identities", *A, *L, "--json",
        *sorted({e for e, _ in verdicts}))
ok(r.rc == 0, "identities --json exits 0", r.err)
for p in r.json()["people"]:
    for v in p["verdicts"]:
        say("identities", v["entry"], p["email"], v["verdict"])
r = run("identities", *A, *L, "CHANGE LOG", "QUIET DRIVER")
ok("Fay Foo <fay@example.org> (listed: CHANGE LOG: active; QUIET DRIVER: "
   "no evidence)\n" in r.out and f"<{CM}> (listed: CHANGE LOG: role "
   "address)\n" in r.out, "identities text: the verdicts in words", r.out)

r = run("urgent", *A, *L, "--json", "--min-commits", "0")
ok(r.rc == 0, "urgent --json exits 0", r.err)
for e in r.json()["entries"]:
    for p in e["maintainers"]:
        say("urgent", e["name"], p["email"], p["verdict"])

r = run("review", *A, *L, "--json")
ok(r.rc == 0, "review --json exits 0", r.err)
for e in r.json()["entries"]:
    for p in e["people"]:
        say("review", e["name"], p["email"], p["verdict"])
        figures["review"][(e["name"], p["email"].lower())] = \
            {k: p[k] for k in FIGS}

out = os.path.join(tmp, "report")
r = run("report", *A, *L, "--output-dir", out)
ok(r.rc == 0, "report exits 0", r.err)
for fn in glob.glob(os.path.join(out, "data", "entry-*.json")):
    with open(fn, encoding="utf-8") as f:
        e = json.load(f)["review_entry"]
    for p in e["people"]:
        say("report", e["name"], p["email"], p["verdict"])

files = ["drivers/foo/core.c", "drivers/quiet/quiet.c", "drivers/bar/irq.c",
         "drivers/baz/leak.c"]
for fn in files:
    if not os.path.exists(os.path.join(work, fn)):
        continue
    r = run("maintainers", *A, "--activity", *L, "--json", "-f", fn)
    ok(r.rc == 0, f"maintainers --activity {fn} exits 0", r.err)
    for c in r.json()["cc"]:
        a = c.get("activity")
        if a and c["kind"] in ("maintainer", "reviewer"):
            say("maintainers", c["entry"], c["email"], a["verdict"])

r = run("retire", *A, *L, "--json", "--min-commits", "0",
        "--output-dir", os.path.join(tmp, "retire"), "--from",
        "T <t@example.org>", "--no-credits")
ok(r.rc == 0, "retire --json exits 0", r.err)
retired = set()
for pt in r.json().get("patch_files", []):
    for p in pt.get("people", []):
        retired.add((pt["entry"], p["email"].lower()))

eq(act.get(("QUIET DRIVER", "fay@example.org")), "no_evidence",
   "activity: Fay in QUIET DRIVER (0 of 0 commits): no evidence")
eq(act.get(("CHANGE LOG", CM)), "role_address",
   "activity: the Community Manager is a role address")
eq(act.get(("LARK CORNER", "lena@corp.example")), "active_on_list",
   "activity --archive: Lena, on the list as lena@home.example, is active "
   "on the list")
eq(figures["activity"].get(("LARK CORNER", "lena@corp.example"),
                           {}).get("replied"), 1,
   "activity --archive: Lena's reply to FOO's patch counts")
eq(figures["activity"], {k: v for k, v in figures["review"].items()
                         if k in figures["activity"]},
   "activity --archive counts each listed person's list figures as review "
   "does over the same list")
ok(("QUIET DRIVER", "fay@example.org") not in retired,
   "retire --min-commits 0 does not remove Fay from QUIET DRIVER")
ok(("CHANGE LOG", CM) not in retired,
   "retire does not remove the Community Manager")
for role in (INC, OSS):
    eq(act.get(("CHANGE LOG", role)), "role_address",
       f"activity: {role} is a role address")
    ok(("CHANGE LOG", role) not in retired, f"retire does not remove {role}")
ok(any(v == "inactive" or v == "never_active" for v in act.values()) and
   "role_address" in act.values() and "no_evidence" in act.values(),
   "the planted history holds inactive, role and no-evidence verdicts",
   str(sorted(act.items())))

for (entry, email), by in sorted(verdicts.items()):
    ok(len(set(by.values())) == 1,
       f"{entry} / {email}: one verdict in every command", str(by))
for cmd in ("urgent", "review", "report", "maintainers", "identities"):
    ok(any(cmd in by for by in verdicts.values()),
       f"{cmd} said something to compare")
inactive = {k for k, v in act.items() if v in ("inactive", "never_active")}
eq(sorted(retired), sorted(inactive),
   "retire removes exactly the people activity calls inactive")

# an --until after the newest commit and message: every command judges up
# to the newest commit (ms_verdict_window()); review counted 5 years back
# from --until itself, so it called Fay and Rob of FOO DRIVER inactive in
# 2030 where activity, on the same history, calls them active
later = {}
for cmd in ("activity", "review"):
    r = run(cmd, *A, *L, "--json", "--until", "2030-01-01")
    ok(r.rc == 0, f"{cmd} --until 2030-01-01 exits 0", r.err)
    d = r.json()
    later[cmd] = (d["active_since"], {(e["name"], p["email"].lower()):
                                      p["verdict"] for e in d["entries"]
                                      for p in e["people"]})
eq(later["review"][0], later["activity"][0],
   "--until 2030-01-01: review's cutoff is activity's")
eq({k: v for k, v in later["review"][1].items() if k in later["activity"][1]},
   {k: v for k, v in later["activity"][1].items() if k in later["review"][1]},
   "--until 2030-01-01: review's verdicts are activity's")

subprocess.run(["rm", "-rf", tmp])
done()
