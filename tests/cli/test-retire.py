#!/usr/bin/env python3
"""maintstat retire on the planted repository of fixtures/gen/gen-repo.py,
given a CREDITS file and a few more MAINTAINERS lines in one commit:
Ivan Inactive also maintains ZETA IDLE (one person in two entries), ZETA
loses both its maintainers (Orphan), an address without a name, and an
entry name unfit for a file name.  The series must apply with git am and
the result must parse with maintstat itself."""
import json
import os
import re
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (SCHEMA, run, ok, eq, done, tmpdir,  # noqa: E402
                    SOURCE_ROOT, model_row, model_put)

GEN = os.path.join(SOURCE_ROOT, "fixtures", "gen", "gen-repo.py")
NEWEST = "2024-06-01T12:00:00+00:00"   # the planted history's last date
T = tmpdir()
env = dict(os.environ, GIT_AUTHOR_NAME="Test", GIT_AUTHOR_EMAIL="t@example.com",
           GIT_COMMITTER_NAME="Test", GIT_COMMITTER_EMAIL="t@example.com",
           GIT_AUTHOR_DATE=NEWEST, GIT_COMMITTER_DATE=NEWEST,
           GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")


def git(*args, cwd, env_tz=None, date=None):
    e = dict(env, TZ=env_tz) if env_tz else dict(env)
    if date:
        e.update(GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    return subprocess.run(["git", *args], cwd=cwd, env=e, check=True,
                          capture_output=True, text=True).stdout


# The window of the verdicts starts 5 years before the newest commit; a
# person added to an entry after that is too new to judge (not inactive).
# The commits that list people here are dated just before it, so that
# MAINTAINERS lists them when the window begins.
BEFORE_WINDOW = "2019-06-01T11:00:00+00:00"


planted = os.path.join(T, "planted.git")
subprocess.run([sys.executable, GEN, planted], check=True, capture_output=True)
work = os.path.join(T, "work")
git("clone", "-q", planted, work, cwd=T)
with open(os.path.join(work, "CREDITS"), "w") as f:
    f.write("\tThis is a partial credits-file, sorted by name.\n"
            "----------\n\n"
            "N: Werner Almesberger\nE: werner@example.net\nD: ATM\n\n"
            "N: Linus Torvalds\nE: torvalds@example.org\n"
            "D: Original kernel hacker\n")
mpath = os.path.join(work, "MAINTAINERS")
m = open(mpath).read()
m = m.replace("M:\tZed Idle <zed@example.org>\n",
              "M:\tZed Idle <zed@example.org>\n"
              "M:\tIvan Inactive <ivan@example.org>\n"
              "M:\tnoname@example.org\n")
m = m.replace("THE REST\n",
              "WEIRD/ENTRY: *with* \u00fc <chars>\n"
              "M:\tWalt Weird <walt@example.org>\n"
              "S:\tMaintained\nF:\tdrivers/zeta/\n\nTHE REST\n")
open(mpath, "w").write(m)
git("add", "-A", cwd=work)
git("commit", "-qm", "add CREDITS and more maintainers", cwd=work,
    date=BEFORE_WINDOW)
git("config", "user.name", "Repo User", cwd=work)
git("config", "user.email", "repo.user@example.org", cwd=work)
base = git("rev-parse", "HEAD", cwd=work).strip()

out = os.path.join(T, "out")
renv = {"SOURCE_DATE_EPOCH": "1717243200"}
r = run("retire", "--repo", work, "--min-commits", "10",
        "--output-dir", out, "--json",
        "--no-cache", env=renv)
eq(r.rc, 0, "retire exits 0")
doc = r.json()
eq(doc["schema_version"], SCHEMA, "schema_version")
subjects = [p["subject"] for p in doc["patch_files"]]
eq(subjects, [
    "MAINTAINERS: retire inactive maintainers and reviewers",
    "MAINTAINERS: ALPHA DRIVER: remove Ivan Inactive",
    "MAINTAINERS: EPSILON NEVER SEEN: move Nora Never to CREDITS",
    "MAINTAINERS: GAMMA BY KEYWORD: move Olga Old to CREDITS",
    # 77 characters with full names: surnames keep it within 75
    "MAINTAINERS: ZETA IDLE: move Inactive and noname@example.org "
    "to CREDITS",
    "MAINTAINERS: WEIRD/ENTRY: *with* \u00fc <chars>: move Walt Weird to "
    "CREDITS",
], "one patch per entry, subjects as the issue words them")
files = sorted(os.listdir(out))
eq(files, [p["file"] for p in doc["patch_files"]], "files written as listed")
eq(files[0], "0000-cover-letter.patch", "cover letter first")
ok(all(re.fullmatch(r"[0-9]{4}-[A-Za-z0-9._-]+\.patch", f) for f in files),
   "file names are safe even for an odd entry name", files)
eq([p["orphaned"] for p in doc["patch_files"][1:]],
   [False, True, False, False, True],
   "Orphan where no maintainer remains (Zed, active 2 years ago, stays)")
eq([p["credits"] for p in doc["patch_files"][1:]],
   [False, True, True, True, True], "CREDITS only when someone leaves")

p1 = open(os.path.join(out, files[1])).read()
ok("\nSubsystem ALPHA DRIVER\n  Changes: reviewed " in p1,
   "activity block in message")
ok("  INACTIVE MAINTAINER Ivan Inactive <ivan@example.org>\n" in p1,
   "the block says why")
ok("Signed-off-by: Repo User <repo.user@example.org>\n---\n" in p1,
   "default sign-off from the repository's user.name/user.email")
ok("Date: Sat, 1 Jun 2024 12:00:00 +0000\n" in p1, "SOURCE_DATE_EPOCH")
ok(all(len(l) <= 80 for l in p1.split("\n---\n")[0].splitlines()),
   "commit message lines fit 80 columns")

# --- the series applies with git am onto the analysed revision ---------
am = os.path.join(T, "am")
git("clone", "-q", work, am, cwd=T)
git("checkout", "-q", base, cwd=am)
patches = [os.path.join(out, f) for f in files[1:]]
p = subprocess.run(["git", "am", "-q", *patches], cwd=am, env=env,
                   capture_output=True, text=True)
eq(p.returncode, 0, "git am applies the whole series in order")
eq(len(git("log", "--format=%H", f"{base}..HEAD", cwd=am).split()), 5,
   "five commits")
credits = open(os.path.join(am, "CREDITS")).read()
eq(credits.count("N: Ivan Inactive"), 1, "one CREDITS record for Ivan")
ok("N: Ivan Inactive\nE: ivan@example.org\nD: ALPHA DRIVER\nD: ZETA IDLE\n"
   in credits, "with a D: line for each entry he left", credits)
ok(credits.index("N: Werner Almesberger") < credits.index("N: Ivan Inactive")
   < credits.index("N: Nora Never") < credits.index("N: Olga Old")
   < credits.index("N: Linus Torvalds") < credits.index("N: Walt Weird"),
   "records placed by surname", credits)
ok("N: noname@example.org\nE: noname@example.org\n" in credits,
   "a person without a name is credited under the address")
ok("rita@" not in credits, "reviewers are not credited")
newm = open(os.path.join(am, "MAINTAINERS")).read()
ok("ivan@" not in newm and "noname@" not in newm, "gone from MAINTAINERS")
ok("ZETA IDLE\nM:\tZed Idle <zed@example.org>\nS:\tMaintained\n" in newm,
   "ZETA IDLE keeps Zed and its status", newm)
ok("<chars>\nS:\tOrphan\n" in newm, "the odd entry is Orphan", newm)
r = run("coverage", "--repo", am, "--json")
eq(r.rc, 0, "the result parses with maintstat")
eq(r.err, "", "without warnings")
r = run("activity", "--repo", am, "--json", "--no-cache", "ZETA IDLE")
eq([(x["role"], x["email"]) for x in r.json()["entries"][0]["people"]],
   [("M", "zed@example.org")], "ZETA IDLE lists only Zed now")

# --- --keep ----------------------------------------------------------------
keep = os.path.join(T, "keep")
open(keep, "w").write("# said they will come back\n"
                      "noname@example.org  # by address\nOlga Old\n")
out2 = os.path.join(T, "out2")
r = run("retire", "--repo", work, "--min-commits", "10", "--output-dir", out2,
        "--keep", keep, "--json", "--no-cache", env=renv)
eq(r.rc, 0, "--keep run exits 0")
d2 = r.json()
eq(sorted((k["name"] or "", k["email"], k["entry"]) for k in d2["kept"]),
   [("", "noname@example.org", "ZETA IDLE"),
    ("Olga Old", "olga@example.org", "GAMMA BY KEYWORD")],
   "kept people listed")
ok(not any("Olga" in p["subject"] or "noname" in p["subject"]
           for p in d2["patch_files"]), "and not retired")
# one person label in every command: a listed address without a name
# reads as the address alone (identities wrote "(no name) <addr>")
r = run("identities", "--repo", work, "--no-cache", "ZETA IDLE")
ok("\nnoname@example.org (listed: ZETA IDLE" in "\n" + r.out and
   "(no name)" not in r.out, "identities: the nameless address as the "
   "other commands write it", r.out)
cover = open(os.path.join(out2, "0000-cover-letter.patch")).read()
ok("Kept, as they asked (--keep):\n  Olga Old" in cover,
   "cover letter names them", cover)

# --- --archive: list activity since the cutoff keeps a person ----------------
# fixtures/gen/gen-review.py: Rob Review (R: of FOO DRIVER) last appears in
# git in a Reviewed-by of a commit dated 2024-03-10 and last writes to the
# list on 2024-03-11 09:00.
rv = os.path.join(T, "rv")
subprocess.run([sys.executable, os.path.join(SOURCE_ROOT, "fixtures", "gen",
                                             "gen-review.py"), rv],
               check=True, capture_output=True)


def rob_retired(cutoff, *extra):
    o = os.path.join(T, "rv-out-%s-%d" % (cutoff, len(extra)))
    r = run("retire", "--repo", os.path.join(rv, "repo"), "--min-commits",
            "0", "--no-credits", "--no-cache", "--inactive-after", cutoff,
            "--from", "A <a@example.org>", "--output-dir", o, "--json", *extra)
    eq(r.rc, 0, "retire --inactive-after %s %s exits 0" % (cutoff, extra))
    return any("Rob Review" in p["subject"] for p in r.json()["patch_files"])


mbox = os.path.join(rv, "list.mbox")
ok(rob_retired("2024-03-11"),
   "idle in git since 2024-03-11 and no --archive: retired")
ok(not rob_retired("2024-03-11", "--archive", mbox),
   "a list message after the cutoff keeps him")
ok(rob_retired("2024-03-12", "--archive", mbox),
   "list messages only before the cutoff do not keep him")

# --- bad input ---------------------------------------------------------------
r = run("retire", "--repo", planted, "--min-commits", "10", "--output-dir",
        os.path.join(T, "x"), "--no-cache", "--from", "A <a@example.org>")
eq(r.rc, 0, "no CREDITS (most projects but the kernel): exit 0")
ok("has no CREDITS file: the patches change MAINTAINERS only" in r.err,
   "a warning says so", r.err)
x = sorted(os.listdir(os.path.join(T, "x")))
ok(len(x) > 1 and not any("CREDITS" in open(os.path.join(T, "x", n)).read()
                          .split("\n---\n", 1)[1] for n in x[1:]),
   "the series changes MAINTAINERS only", x)
cover = open(os.path.join(T, "x", x[0])).read()
ok("move to CREDITS" not in cover and "become Orphan" in cover,
   "and its cover letter promises no CREDITS records", cover[:900])
r = run("retire", "--repo", planted, "--min-commits", "10", "--output-dir",
        os.path.join(T, "nc"), "--no-credits", "--json", "--no-cache",
        "--from", "A <a@example.org>")
eq(r.rc, 0, "--no-credits writes the series")
nc = open(os.path.join(T, "nc", r.json()["patch_files"][1]["file"])).read()
ok("CREDITS" not in nc.split("\n---\n", 1)[1], "without CREDITS changes")
ok("remove Ivan Inactive" in nc, "subject says remove, not move", nc[:400])
# --output-dir DIR holding earlier patches: refused (git am would apply both), or
# emptied of *.patch first with --force
stale = os.path.join(out, "0099-stale-from-an-earlier-run.patch")
with open(stale, "w") as f:
    f.write("stale\n")
before = sorted(os.listdir(out))
r = run("retire", "--repo", work, "--min-commits", "10",
        "--output-dir", out,
        "--no-cache", env=renv)
ok(r.rc == 1 and "already holds" in r.err and "--force" in r.err,
   "retire --output-dir DIR holding patches: refused", r.err)
eq(sorted(os.listdir(out)), before, "  and the directory is untouched")
with open(os.path.join(out, "notes.txt"), "w") as f:
    f.write("mine\n")
r = run("retire", "--repo", work, "--min-commits", "10",
        "--output-dir", out,
        "--no-cache", "--force", "--json", env=renv)
eq(r.rc, 0, "retire --force: exit 0")
if r.rc == 0:
    eq(sorted(f for f in os.listdir(out) if f.endswith(".patch")),
       sorted(p["file"] for p in r.json()["patch_files"]),
       "  only the new series is left as *.patch")
ok(os.path.exists(os.path.join(out, "notes.txt")),
   "  and other files are kept")
# someone inactive in one entry but active elsewhere: the message says
# so (and until when), for the reviewers to ask rather than only remove;
# someone active nowhere gets no such clause


def joins_alpha(name, who, date=None):
    """A clone of `work` whose ALPHA DRIVER lists `who` ("Name <addr>")
    after Ivan, committed at `date` (default: NEWEST)."""
    clone = os.path.join(T, name)
    git("clone", "-q", work, clone, cwd=T)
    path = os.path.join(clone, "MAINTAINERS")
    ivan = "M:\tIvan Inactive <ivan@example.org>\n"
    text = open(path).read().replace(ivan, ivan + "M:\t" + who + "\n", 1)
    open(path, "w").write(text)
    git("commit", "-qam", who + " joins ALPHA", cwd=clone, date=date)
    return clone


work2 = joins_alpha("work2", "Quinn Quick <quinn@example.org>", BEFORE_WINDOW)
# his newest commit as author, committer or in a trailer (UTC dates)
quinn_dates = sorted(c.split("\0")[0].strip() for c in git(
    "log", "--date=format-local:%Y-%m-%d",
    "--format=%cd%x00%ae %ce %B%x01", cwd=work2,
    env_tz="UTC").split("\x01")
    if "quinn@example.org" in c)
quinn_last = quinn_dates[-1]
outq = os.path.join(T, "out-quinn")
r = run("retire", "--repo", work2, "--min-commits", "10", "--output-dir",
        outq, "--no-cache", "ALPHA DRIVER", env=renv)
ok(r.rc == 0, "retire ALPHA DRIVER with Quinn listed: exit 0", r.err)
msg = " ".join(open(os.path.join(outq, sorted(os.listdir(outq))[1]))
               .read().split("\n---\n")[0].split())
ok(re.search(r"Quinn Quick, listed as maintainer of ALPHA DRIVER, has not "
             r"authored, committed or tagged a change to its files in the "
             r"history \(active elsewhere in the history until " +
             quinn_last + r"\)", msg),
   "Quinn, active in ZETA: 'active elsewhere in the history until' his "
   "last date", (quinn_last, msg[:600]))
ok(re.search(r"Ivan Inactive, listed as maintainer of ALPHA DRIVER, has not "
             r"[^.]*\(last seen there on [0-9-]+\)", msg),
   "Ivan, active nowhere since: no such clause", msg[:600])
r = run("activity", "--repo", work2, "--no-cache", "--json", "ALPHA DRIVER")
people = {p["email"]: p for p in r.json()["entries"][0]["people"]}
eq(((people["quinn@example.org"]["active_elsewhere_until"] or "")[:10],
    people["ivan@example.org"]["active_elsewhere_until"],
    people["alice@example.org"]["active_elsewhere_until"]),
   (quinn_last, None, None),
   "activity --json: active_elsewhere_until for Quinn only (Ivan active "
   "nowhere, Alice not inactive)")
r = run("activity", "--repo", work2, "--no-cache", "ALPHA DRIVER")
ok("  INACTIVE MAINTAINER Quinn Quick <quinn@example.org> (active elsewhere "
   "in the history until " + quinn_last + ")\n" in r.out,
   "activity text: the same beside the verdict", r.out)
# an --until before his last commit: the newest date up to it, not after
# (ms_activity_last_seen() then answers from an index of the records up
# to it, not of all).  His listing is dated just before that window's
# start, so he is judged.
until = quinn_dates[len(quinn_dates) // 2]
r = run("activity", "--repo", work, "--no-cache", "--json", "--until", until,
        "ALPHA DRIVER")
start = r.json()["active_since"]
stamp = int(subprocess.run(["date", "-d", start, "+%s"], check=True,
                           capture_output=True, text=True).stdout) - 1
work5 = joins_alpha("work5", "Quinn Quick <quinn@example.org>",
                    "@%d +0000" % stamp)
r = run("activity", "--repo", work5, "--no-cache", "--json", "--until", until,
        "ALPHA DRIVER")
people = {p["email"]: p for p in r.json()["entries"][0]["people"]}
eq((people["quinn@example.org"]["inactive"],
    (people["quinn@example.org"]["active_elsewhere_until"] or "")[:10]),
   (True, max(d for d in quinn_dates if d <= until)),
   "--until in the past: active elsewhere until his last date up to it")

# someone added to an entry after the window began has not had the
# time the verdict needs: not inactive, said so, and not retired (on
# U-Boot, two MediaTek custodians listed five months before were)
work3 = joins_alpha("work3", "Larry Late <larry@example.org>")  # NEWEST
r = run("activity", "--repo", work3, "--no-cache", "--json", "ALPHA DRIVER")
people = {p["email"]: p for p in r.json()["entries"][0]["people"]}
eq((people["larry@example.org"]["inactive"],
    people["larry@example.org"]["listed_late"],
    people["ivan@example.org"]["inactive"],
    people["ivan@example.org"]["listed_late"]), (False, True, True, False),
   "Larry, listed after the window began: not inactive, listed_late; Ivan "
   "inactive")
r = run("activity", "--repo", work3, "--no-cache", "ALPHA DRIVER")
ok("  NEWLY LISTED MAINTAINER Larry Late <larry@example.org>: not listed "
   "in the entry at the cutoff (2019-06-01), so not judged\n" in r.out and
   "INACTIVE MAINTAINER Larry" not in r.out, "text: NEWLY LISTED, not "
   "INACTIVE", r.out)
outl = os.path.join(T, "out-larry")
r = run("retire", "--repo", work3, "--min-commits", "10", "--output-dir",
        outl, "--no-cache", "--json", "ALPHA DRIVER", env=renv)
eq([p["subject"] for p in r.json()["patch_files"][1:]] if r.rc == 0 else r.err,
   ["MAINTAINERS: ALPHA DRIVER: remove Ivan Inactive"],
   "retire removes Ivan, not Larry")

# --find-maintainer-files: an entry whose file moved since the window
# began (U-Boot's board/freescale/x/ became board/nxp/x/) is found in its
# old place, its maintainer judged; an entry in a file created since is
# new, its maintainer not
work4 = os.path.join(T, "work4")
git("clone", "-q", work, work4, cwd=T)
os.makedirs(os.path.join(work4, "board", "old", "x"))
with open(os.path.join(work4, "board", "old", "x", "MAINTAINERS"), "w") as f:
    f.write("XBOARD\nM:\tBob Board <bob@example.org>\nS:\tMaintained\n"
            "F:\tdrivers/alpha/\n")
git("add", "-A", cwd=work4)
git("commit", "-qm", "XBOARD", cwd=work4, date=BEFORE_WINDOW)
os.makedirs(os.path.join(work4, "board", "new"))
git("mv", "board/old/x", "board/new/x", cwd=work4)
os.makedirs(os.path.join(work4, "board", "new", "z"))
with open(os.path.join(work4, "board", "new", "z", "MAINTAINERS"), "w") as f:
    f.write("ZBOARD\nM:\tCarol Card <carol@example.org>\nS:\tMaintained\n"
            "F:\tdrivers/alpha/\n")
git("add", "-A", cwd=work4)
git("commit", "-qm", "move XBOARD, add ZBOARD", cwd=work4)
r = run("activity", "--repo", work4, "--no-cache", "--json",
        "--find-maintainer-files", "XBOARD", "ZBOARD")
got = {e["name"]: (e["people"][0]["inactive"], e["people"][0]["listed_late"])
       for e in r.json()["entries"]} if r.rc == 0 else r.err
eq(got, {"XBOARD": (True, False), "ZBOARD": (False, True)},
   "a moved file's entry is found where it was; a new file's is new")

# --- the address a person uses now ------------------------------------------
# Ivan, listed as ivan@example.org (last used in 2017), later wrote under
# joined addresses (the same name): authored from an old job, reviewed
# from a new one, and last a list's, an unset user.email's and a no-reply
# address, which reach no person.  Olga's other address is older than her listed one; Nora
# only ever wrote a +tag address (whose tag is no role word, though
# "kernel" is); noname@ wrote its own address with a
# +tag (the same one, folded); Walt wrote from linux@ at a domain of his
# own (his), then from opensource@ at one others use (a role's).  Dates
# are UTC.
work6 = os.path.join(T, "work6")
git("clone", "-q", work, work6, cwd=T)


def commit6(author, date, trailers=(), path="drivers/beta/beta.c"):
    """Commit a change to `path` in work6 authored by `author` ("Name
    <addr>") at `date`, with `trailers` ("Token: Name <addr>"); its id."""
    name, addr = author[:-1].split(" <")
    with open(os.path.join(work6, path), "a") as f:
        f.write("/* %s */\n" % date)
    git("add", path, cwd=work6)
    e = dict(env, GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=addr,
             GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    msg = "beta: change of %s\n\n%s" % (date, "\n".join(
        list(trailers) + ["Signed-off-by: " + author]))
    subprocess.run(["git", "commit", "-qm", msg], cwd=work6, env=e,
                   check=True)
    return git("rev-parse", "HEAD", cwd=work6).strip()


commit6("Olga Old <olga@oldschool.example.net>", "2016-06-01T10:00:00+00:00")
commit6("Ivan Inactive <Ivan.I@OldJob.example.net>",
        "2021-03-01T10:00:00+00:00")
ivan_review = commit6("Test <t@example.com>", "2022-05-10T10:00:00+00:00",
                      ["Reviewed-by: Ivan Inactive <Ivan@NewJob.Example.com>"])
nora_last = commit6("Nora Never <Nora+Kernel@Example.com>",
                    "2022-02-02T10:00:00+00:00")
walt_last = commit6("Walt Weird <linux@walt.example>",
                    "2022-09-09T10:00:00+00:00")
commit6("Walt Weird <opensource@example.com>", "2022-10-10T10:00:00+00:00")
commit6("N. Oname <noname+ci@example.org>", "2022-03-03T10:00:00+00:00")
commit6("Ivan Inactive <delta@lists.example.org>", "2023-01-01T10:00:00+00:00")
commit6("Ivan Inactive <ivan@laptop.(none)>", "2023-03-03T10:00:00+00:00")
commit6("Test <t@example.com>", "2023-06-01T10:00:00+00:00",
        ["Tested-by: Ivan Inactive <ivan@users.noreply.github.com>"])


def retire6(name, *extra, repo=work6):
    """retire --json on `repo` into a new directory `name`: (the JSON
    document without the directory, {entry: commit message}, {file: the
    whole patch}) or (None, stderr, None)."""
    o = os.path.join(T, name)
    r = run("retire", "--repo", repo, "--min-commits", "10", "--output-dir",
            o, "--json", *extra, env=renv)
    if r.rc != 0:
        return None, r.err, None
    doc = r.json()
    del doc["output_directory"]
    files = {p["file"]: open(os.path.join(o, p["file"])).read()
             for p in doc["patch_files"]}
    return doc, {p["entry"]: files[p["file"]].split("\n---\n")[0]
                 for p in doc["patch_files"][1:]}, files


def cc_lines(msg):
    return [l[4:] for l in msg.splitlines() if l.startswith("Cc: ")]


def entry_lines(text, entry, keys):
    """The values of the `keys` fields of `entry` in the MAINTAINERS
    `text`, in order (first entry of that name)."""
    block = ("\n" + text).split("\n" + entry + "\n", 1)[1] \
        .split("\n\n", 1)[0]
    return [l[3:] for l in block.splitlines() if l[:1] in keys and
            l[1:3] == ":\t"]


def stays(text, entry, removed):
    """The M: and R: people `entry` keeps once `removed` (addresses) go,
    as Cc'd: the Cc: lines the patch adds after the removed people."""
    return [v for v in entry_lines(text, entry, "MR")
            if not any("<%s>" % a in v or v == a for a in removed)]


def flat(msg):
    return " ".join(msg.split())


doc6, msgs, files6 = retire6("out6", "--no-cache")
ok(doc6 is not None, "retire on the clone with new addresses: exit 0", msgs)
alpha = msgs.get("ALPHA DRIVER", "") if doc6 else ""
m6 = open(os.path.join(work6, "MAINTAINERS")).read()
eq(cc_lines(alpha), ["Ivan Inactive <ivan@example.org>",
                     "Ivan Inactive <ivan@newjob.example.com>"] +
   stays(m6, "ALPHA DRIVER", ["ivan@example.org"]) +
   entry_lines(m6, "ALPHA DRIVER", "L"),
   "Ivan Cc'd at the listed address and the one he last used (lowercase), "
   "not at those he wrote from later; then the maintainer and reviewer who "
   "stay, the list")
ok("Ivan Inactive is also Cc'd at ivan@newjob.example.com, the address last "
   "used on 2022-05-10 (commit %s)." % ivan_review[:12] in flat(alpha),
   "the message names that address, its date and commit", alpha)
zeta = msgs.get("ZETA IDLE", "") if doc6 else ""
ok("Cc: Ivan Inactive <ivan@newjob.example.com>\n" in zeta and
   "Cc: noname@example.org\n" in zeta and "noname+" not in zeta,
   "ZETA's patch too; noname@'s +tag address is its listed one (folded): "
   "one Cc, no clause", zeta)
gamma = msgs.get("GAMMA BY KEYWORD", "") if doc6 else ""
eq((cc_lines(gamma), "also Cc'd" in gamma),
   (["Olga Old <olga@example.org>"] +
    stays(m6, "GAMMA BY KEYWORD", ["olga@example.org"]), False),
   "Olga's listed address is her newest: one Cc, no clause (and Gina, who "
   "stays)")
eps = msgs.get("EPSILON NEVER SEEN", "") if doc6 else ""
eq(cc_lines(eps), ["Nora Never <nora@example.org>",
                   "Nora Never <nora+kernel@example.com>"],
   "Nora's only written form keeps its +tag")
ok("nora+kernel@example.com, the address last used on 2022-02-02 "
   "(commit %s)" % nora_last[:12] in flat(eps), "and is named", eps)
weird = next((m for e, m in msgs.items() if e.startswith("WEIRD")), "") \
    if doc6 else ""
eq(cc_lines(weird), ["Walt Weird <walt@example.org>",
                     "Walt Weird <linux@walt.example>"],
   "Walt: linux@ at his own domain is his; opensource@ at a shared one, "
   "though newer, a role's")
ok("linux@walt.example, the address last used on 2022-09-09 "
   "(commit %s)" % walt_last[:12] in flat(weird), "and is named", weird)
if doc6:
    pa = next(p for p in doc6["patch_files"] if p["entry"] == "ALPHA DRIVER")
    eq(pa["people"], [{"name": "Ivan Inactive", "email": "ivan@example.org",
                       "role": "maintainer",
                       "last_used_address": {
                           "email": "ivan@newjob.example.com",
                           "date": "2022-05-10T10:00:00+00:00",
                           "commit": ivan_review}}],
       "--json: whom the patch removes, where last seen")
    eq([(c["email"], c["kind"]) for c in pa["cc"]],
       [("ivan@example.org", "listed"), ("ivan@newjob.example.com",
                                         "last_used"),
        ("alice@example.org", "remaining"), ("rita@example.org",
                                             "remaining"),
        ("alpha@lists.example.org", "list")], "--json: each Cc and why")
_, msgs_nf, _ = retire6("out6-nf", "--no-cache", "--no-plus-fold")
ok("Cc: Nora Never <nora+kernel@example.com>\n" in
   msgs_nf.get("EPSILON NEVER SEEN", ""), "--no-plus-fold: the same, its "
   "tag no role word",
   msgs_nf)

# one person listed under two addresses (rdma-core lists Yishai Hadas as
# yishaih@dev.mellanox.co.il and yishaih@mellanox.com): the cover letter
# names his joins once, not once an address
work6b = os.path.join(T, "work6b")
git("clone", "-q", work6, work6b, cwd=T)
mb = os.path.join(work6b, "MAINTAINERS")
m = open(mb).read()
zeta_at = m.index("ZETA IDLE\n")
m = m[:zeta_at] + m[zeta_at:].replace(
    "M:\tIvan Inactive <ivan@example.org>\n",
    "M:\tIvan Inactive <Ivan.I@OldJob.example.net>\n", 1)
open(mb, "w").write(m)
git("commit", "-qam", "ZETA: Ivan's other address", cwd=work6b,
    date=BEFORE_WINDOW)
d6b, m6b, f6b = retire6("out6b", "--no-cache", repo=work6b)
ok(d6b is not None and "ALPHA DRIVER" in m6b and "ZETA IDLE" in m6b,
   "Ivan is retired from both entries under his two listed addresses",
   m6b)
joins = [l for l in (f6b or {}).get("0000-cover-letter.patch",
                                    "").splitlines()
         if l.startswith("  Ivan Inactive <")]
eq(joins[:1] + [len(joins)], joins[:1] + [1],
   "the cover letter names Ivan's joins once")

# served from the store, the same series: a walk, the saved model read
# back, and the model of an older commit with the new one walked after it
db6 = os.path.join(T, "store6.sqlite")
for n in ("cold", "warm"):
    d, _, f = retire6("out6-" + n, "--db", db6)
    eq((d, f), (doc6, files6), "retire --db (%s) writes what --no-cache "
       "writes" % n)
ok(model_row(db6, "activity") is not None, "the model is in the store")
# a name planted in the saved model: the warm run takes the addresses
# from it, not from a walk
saved = model_row(db6, "activity")
model_put(db6, "activity", saved.replace(b"Ivan@NewJob.Example.com",
                                         b"Ivan@NowJob.Example.com"))
_, m, _ = retire6("out6-planted", "--db", db6)
ok("Cc: Ivan Inactive <ivan@nowjob.example.com>\n" in m.get("ALPHA DRIVER",
                                                            ""),
   "a warm run reads the addresses from the saved model", m)
model_put(db6, "activity", saved)
third = commit6("Test <t@example.com>", "2023-09-09T10:00:00+00:00",
                ["Acked-by: Ivan Inactive <ivan@third.example.com>"])
d_nc, _, f_nc = retire6("out6-new-nc", "--no-cache")
d, m, f = retire6("out6-new", "--db", db6)
eq((d, f), (d_nc, f_nc), "after a new commit (the saved model as the "
   "walk's tail): what --no-cache writes")
ok("Ivan Inactive is also Cc'd at ivan@third.example.com, the address last "
   "used on 2023-09-09 (commit %s)." % third[:12]
   in flat(m.get("ALPHA DRIVER", "")), "the new address",
   m.get("ALPHA DRIVER"))

# --- entries in other MAINTAINERS files (U-Boot's board/*/MAINTAINERS) ----
# Each patch edits the file its entry lives in and applies with git am on
# top of the ones before.  ACME X BOARD (board/acme/x) loses inactive Bob
# and keeps Alice and Rita; board/acme/pair has two entries that both lose
# every maintainer (Orphan, kept; TWO has no S: line); Bob also maintains
# an entry of the same name in board/other/y; ACME BOARDS, an entry of
# the top-level file, covers board/acme/ (a vendor's custodian).  Who is
# active is the planted history's: Alice and Rita are, the board people
# (who never wrote a commit) are not.
work7 = os.path.join(T, "work7")
git("clone", "-q", work, work7, cwd=T)
BOARD_FILES = {
    "board/acme/x/MAINTAINERS":
        "ACME X BOARD\n"
        "M:\tBob Board <bob.board@example.org>\n"
        "M:\tAlice Active <alice@example.org>\n"
        "R:\tRita Reviewer <rita@example.org>\n"
        "S:\tMaintained\n"
        "F:\tboard/acme/x/\n"
        "F:\tdrivers/alpha/\n",
    "board/acme/pair/MAINTAINERS":
        "ACME PAIR ONE\n"
        "M:\tDora Done <dora@example.org>\n"
        "M:\tEd Extra <ed@example.org>\n"
        "S:\tMaintained\n"
        "F:\tboard/acme/pair/\n"
        "F:\tdrivers/alpha/\n"
        "\n"
        "ACME PAIR TWO\n"
        "M:\tDora Done <dora@example.org>\n"
        "R:\tRita Reviewer <rita@example.org>\n"
        "F:\tboard/acme/pair/two.c\n"
        "F:\tdrivers/alpha/\n",
    "board/other/y/MAINTAINERS":
        "ACME X BOARD\n"
        "M:\tBob Board <bob.board@example.org>\n"
        "S:\tMaintained\n"
        "F:\tboard/other/y/\n"
        "F:\tdrivers/alpha/\n",
}
# what git am must leave
BOARD_AFTER = {
    "board/acme/x/MAINTAINERS":
        "ACME X BOARD\n"
        "M:\tAlice Active <alice@example.org>\n"
        "R:\tRita Reviewer <rita@example.org>\n"
        "S:\tMaintained\n"
        "F:\tboard/acme/x/\n"
        "F:\tdrivers/alpha/\n",
    "board/acme/pair/MAINTAINERS":
        "ACME PAIR ONE\n"
        "S:\tOrphan\n"
        "F:\tboard/acme/pair/\n"
        "F:\tdrivers/alpha/\n"
        "\n"
        "ACME PAIR TWO\n"
        "R:\tRita Reviewer <rita@example.org>\n"
        "S:\tOrphan\n"
        "F:\tboard/acme/pair/two.c\n"
        "F:\tdrivers/alpha/\n",
    "board/other/y/MAINTAINERS":
        "ACME X BOARD\n"
        "S:\tOrphan\n"
        "F:\tboard/other/y/\n"
        "F:\tdrivers/alpha/\n",
}
for path, text in BOARD_FILES.items():
    os.makedirs(os.path.dirname(os.path.join(work7, path)), exist_ok=True)
    with open(os.path.join(work7, path), "w") as f:
        f.write(text)
m7path = os.path.join(work7, "MAINTAINERS")
m7 = open(m7path).read().replace(
    "THE REST\n", "ACME BOARDS\nM:\tVera Vendor <vera@example.org>\n"
    "S:\tMaintained\nF:\tboard/acme/\n\nTHE REST\n")
open(m7path, "w").write(m7)
git("add", "-A", cwd=work7)
git("commit", "-qm", "board MAINTAINERS files", cwd=work7, date=BEFORE_WINDOW)
base7 = git("rev-parse", "HEAD", cwd=work7).strip()


def retire7(name, *extra):
    """retire --find-maintainer-files --json on work7 into `name`: (exit
    code, stderr, the JSON document without the directory, {file: the
    whole patch})."""
    o = os.path.join(T, name)
    r = run("retire", "--repo", work7, "--min-commits", "10",
            "--find-maintainer-files", "--output-dir", o, "--json", *extra,
            env=renv)
    if r.rc != 0:
        return r.rc, r.err, None, {}
    doc = r.json()
    del doc["output_directory"]
    return r.rc, r.err, doc, {p["file"]: open(os.path.join(o, p["file"]))
                              .read() for p in doc["patch_files"]}


def to_lines(patch):
    """The addresses of a patch's To: header (continued lines joined)."""
    head = patch.split("\n\n", 1)[0]
    m = re.search(r"^To: (.*(?:\n    .*)*)", head, re.M)
    return [a.strip() for a in m.group(1).split(",\n")] if m else []


rc, err7, doc7, files7 = retire7("out7", "--no-cache")
eq(rc, 0, "retire --find-maintainer-files with board files: exit 0")
ok("no entry" not in err7 and "skipped" not in err7,
   "no entry of a board file is skipped", err7)
bp = {"%s:%s" % (p["maintainers_file"], p["entry"]): p
      for p in (doc7 or {"patch_files": []})["patch_files"][1:]
      if p["maintainers_file"] != "MAINTAINERS"}
eq(sorted(bp), ["board/acme/pair/MAINTAINERS:ACME PAIR ONE",
                "board/acme/pair/MAINTAINERS:ACME PAIR TWO",
                "board/acme/x/MAINTAINERS:ACME X BOARD",
                "board/other/y/MAINTAINERS:ACME X BOARD"],
   "one patch per board entry, each in its own file (two entries of one "
   "name in two files)")
bx = bp.get("board/acme/x/MAINTAINERS:ACME X BOARD", {})
by = bp.get("board/other/y/MAINTAINERS:ACME X BOARD", {})
b1 = bp.get("board/acme/pair/MAINTAINERS:ACME PAIR ONE", {})
b2 = bp.get("board/acme/pair/MAINTAINERS:ACME PAIR TWO", {})
eq([p.get("subject") for p in (b1, b2, bx, by)],
   ["board: acme: pair: ACME PAIR ONE: move Extra to CREDITS, remove Done",
    "board: acme: pair: ACME PAIR TWO: move Dora Done to CREDITS",
    "board: acme: x: remove Bob Board from MAINTAINERS",
    "board: other: y: move Bob Board to CREDITS"],
   "subjects name the file's directories as U-Boot does, and the entry "
   "when the file has several, within 75 characters; Bob and Dora stay "
   "listed elsewhere until their last entry")
for p in (b1, b2, bx, by):
    text = files7.get(p.get("file"), "")
    diffs = re.findall(r"^diff --git a/(\S+) b/(\S+)\nindex [0-9a-f]{7,}\."
                       r"\.[0-9a-f]{7,} 100644\n--- a/(\S+)\n\+\+\+ b/(\S+)"
                       r"\n", text, re.M)
    eq(sorted(d[0] for d in diffs if len(set(d)) == 1),
       sorted([p.get("maintainers_file")] +
              (["CREDITS"] if p.get("credits") else [])),
       "%s: a diff --git and index line of %s only" %
       (p.get("subject"), p.get("maintainers_file")))
# git am, in order, onto the analysed revision
am7 = os.path.join(T, "am7")
git("clone", "-q", work7, am7, cwd=T)
git("checkout", "-q", base7, cwd=am7)
pl7 = [os.path.join(T, "out7", p["file"]) for p in doc7["patch_files"][1:]] \
    if doc7 else []
p = subprocess.run(["git", "am", "-q", *pl7], cwd=am7, env=env,
                   capture_output=True, text=True)
eq((p.returncode, p.stderr), (0, ""), "git am applies the whole series")
eq(len(git("log", "--format=%H", f"{base7}..HEAD", cwd=am7).split()),
   len(pl7), "one commit per patch")
for path, want in BOARD_AFTER.items():
    eq(open(os.path.join(am7, path)).read(), want,
       "%s after git am: the people removed, Orphan where no maintainer "
       "is left, every entry kept" % path)
eq(sorted(git("diff", "--name-only", base7, "HEAD", cwd=am7).split()),
   sorted(["CREDITS", "MAINTAINERS"] + list(BOARD_FILES)),
   "the series changed CREDITS, MAINTAINERS and the board files")
credits7 = open(os.path.join(am7, "CREDITS")).read()
ok("N: Bob Board\nE: bob.board@example.org\nD: ACME X BOARD (board/acme/x)\n"
   "D: ACME X BOARD (board/other/y)\n" in credits7,
   "Bob credited once, a D: line per board, told apart by directory",
   credits7)
r = run("activity", "--repo", am7, "--no-cache", "--json",
        "--find-maintainer-files")
eq(sorted((e["name"], e["status"], [p["email"] for p in e["people"]])
          for e in r.json()["entries"]
          if e["name"] in ("ACME X BOARD", "ACME PAIR TWO"))
   if r.rc == 0 else r.err,
   [("ACME PAIR TWO", "Orphan", ["rita@example.org"]),
    ("ACME X BOARD", "Maintained", ["alice@example.org",
                                     "rita@example.org"]),
    ("ACME X BOARD", "Orphan", [])],
   "the result parses, as activity reads it")

# Cc: the removed people, then the M: and R: people the entry keeps, then
# its lists; To: get_maintainer.pl's answer for the file (the
# `maintainers` command gives it) without whom the series retires from
# the entry naming them and without the addresses Cc'd


def get_maintainer(path):
    r = run("maintainers", "--repo", work7, "--find-maintainer-files",
            path)
    return [l.split(" (")[0] for l in r.out.splitlines()]


def addr(line):
    return (line.split("<")[1].rstrip(">") if "<" in line else line).lower()


msgx = files7.get(bx.get("file"), "")
eq(cc_lines(msgx), ["Bob Board <bob.board@example.org>"] +
   stays(BOARD_FILES["board/acme/x/MAINTAINERS"], "ACME X BOARD",
         ["bob.board@example.org"]),
   "board x: Cc Bob, then Alice and Rita who stay")
eq([(c["email"], c["kind"]) for c in bx.get("cc", [])],
   [("bob.board@example.org", "listed"), ("alice@example.org", "remaining"),
    ("rita@example.org", "remaining")], "--json: their kinds")
gm = get_maintainer("board/acme/x/MAINTAINERS")
ok("Vera Vendor <vera@example.org>" in gm and
   "Alice Active <alice@example.org>" in gm, "get_maintainer.pl names the "
   "board's and the vendor's maintainers for board/acme/x", gm)
eq(to_lines(msgx), [x for x in gm if addr(x) not in
                    {addr(c) for c in cc_lines(msgx)}],
   "board x: To: that answer less the Cc'd")
ok("Vera Vendor <vera@example.org>" in to_lines(msgx) and
   "linux-kernel@vger.example.org" in to_lines(msgx),
   "board x: To: the vendor's custodian and THE REST's list", msgx[:600])
eq([c["kind"] for c in bx.get("to", [])],
   ["maintainer" if "@lists." not in x and "@vger." not in x else "list"
    for x in to_lines(msgx)], "--json: to, with kinds")
msg2 = files7.get(b2.get("file"), "")
gm2 = get_maintainer("board/acme/pair/MAINTAINERS")
ok("Ed Extra <ed@example.org>" in gm2, "get_maintainer.pl names ACME PAIR "
   "ONE's Ed for the pair file", gm2)
eq(to_lines(msg2), [x for x in gm2 if "Ed Extra" not in x and
                    "Dora Done" not in x],
   "PAIR TWO: To: without Ed and Dora, whom the series retires from ONE")
eq(cc_lines(msg2), ["Dora Done <dora@example.org>",
                    "Rita Reviewer <rita@example.org>"],
   "PAIR TWO: Cc Dora and Rita, the reviewer who stays")
ok("Vera Vendor" not in files7.get(by.get("file"), "x").split("\n\n")[0],
   "board/other/y: not the acme vendor's")
dup = []
for f, text in files7.items():
    if f.startswith("0000-"):
        continue
    addrs = [addr(x) for x in to_lines(text) + cc_lines(text)]
    dup += [(f, a) for a in set(addrs) if addrs.count(a) > 1]
eq(dup, [], "no address twice in a patch, To: and Cc: together")
msga = next((t for f, t in files7.items() if "ALPHA-DRIVER" in f), "")
eq(to_lines(msga), [x for x in get_maintainer("MAINTAINERS")
                    if addr(x) not in {addr(c) for c in cc_lines(msga)}],
   "a top-level entry's patch: To: THE REST's, as get_maintainer.pl "
   "answers for MAINTAINERS")
ok("Linus Root <linus@example.org>" in to_lines(msga), "that is Linus "
   "Root", msga[:600])
ok(msga and "Alice Active <alice@example.org>" in cc_lines(msga),
   "and Cc the maintainer who stays")

# the store: cold, warm, and the same as --no-cache
db7 = os.path.join(T, "store7.sqlite")
for n in ("cold", "warm"):
    got = retire7("out7-" + n, "--db", db7)
    eq(got[2:], (doc7, files7), "board files: retire --db (%s) writes what "
       "--no-cache writes" % n)

# an entry that is really missing (read from a file on disk, not in the
# revision's MAINTAINERS) warns once, where it was read
disk = os.path.join(T, "MAINTAINERS.disk")
extra = "ONLY ON DISK\nM:\tBob Board <bob.board@example.org>\n" \
    "S:\tMaintained\nF:\tdrivers/alpha/\n\n"
with open(disk, "w") as f:
    f.write(m7.replace("THE REST\n", extra + "THE REST\n"))
title_line = m7.replace("THE REST\n", extra + "THE REST\n").splitlines() \
    .index("ONLY ON DISK") + 1
r = run("retire", "--repo", work7, "--min-commits", "10", "--maintainers",
        disk, "--output-dir", os.path.join(T, "out7-disk"), "--no-cache",
        env=renv)
warns = [l for l in r.err.splitlines() if "ONLY ON DISK" in l]
eq((r.rc, warns), (0, ["maintstat: warning: %s:%d: no entry 'ONLY ON DISK' "
                       "in MAINTAINERS: skipped" % (disk, title_line)]),
   "a missing entry: one warning with file:line")

r = run("retire", "--repo", work, "--from", "nobody", "--no-cache")
eq(r.rc, 2, "--from without an address is a usage error")
r = run("retire", "--repo", work, "--no-cache", "NO SUCH ENTRY")
eq(r.rc, 2, "unknown entry is a usage error")
r = run("retire", "--repo", os.path.join(T, "nope"))
eq(r.rc, 1, "not a repository: exit 1")
shutil.rmtree(T, ignore_errors=True)
done()
