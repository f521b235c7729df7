#!/usr/bin/env python3
"""What `maintstat review` and `mail stats` count (issue 16), on the
planted tree and list of fixtures/gen/gen-count.py: stable backports and
stable-tree notices, other projects' patches, References fallback, a v3
patch below a v2 cover letter, indented and forwarded tags, subjects in
other languages and cases, one first-response clock, per-person counts,
0 of 0, K: patterns in attachments.  Text and JSON."""
import glob
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (SCHEMA, run, ok, eq, done, tmpdir, FIXTURES,  # noqa: E402
                    git_commit)

tmp = tmpdir()
out = os.path.join(tmp, "gen")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-count.py"),
                out], check=True)
repo = os.path.join(out, "repo")
mbox = os.path.join(out, "list.mbox")
ENTRIES = ["FOO DRIVER", "THE REST", "KW DRIVER", "IDLE DRIVER"]


def review(*args):
    r = run("review", "--tree", repo, "--archive", mbox, "--json", *args)
    ok(r.rc == 0, f"review {' '.join(args)} exits 0", r.err)
    d = r.json()
    return d, {e["name"]: e for e in d["entries"]}


doc, ents = review(*ENTRIES)
eq(doc["schema_version"], SCHEMA, "schema_version (shares over nothing are "
   "null)")
foo = ents["FOO DRIVER"]
rest = ents["THE REST"]
pl = {p["message_id"]: p for p in foo["patch_list"]}

# 2: stable backports set aside, counted, --include-stable keeps them
for mid in ("s1@example.net", "s2@example.org", "s3@example.net",
            "s4@example.net"):
    ok(mid not in pl, f"the stable backport {mid} is no patch of FOO")
eq(foo["set_aside"], {"stable": 4, "foreign_subject": 0,
                      "foreign_recipients": 0, "foreign_paths": 0},
   "FOO: four stable backports set aside")
eq(doc["set_aside"], {"stable": 4, "foreign_subject": 2,
                      "foreign_recipients": 3, "foreign_paths": 4},
   "over the archive: 4 stable, 2 named projects, 3 by recipients, 4 by "
   "paths (mkfs/, legacy/ which the tree lacks, the autotools series)")
eq(foo["patches"], 13, "FOO counts 13 patches")
_, e2 = review("--include-stable", "FOO DRIVER")
eq(e2["FOO DRIVER"]["patches"], 17, "--include-stable: 17 patches")
eq(e2["FOO DRIVER"]["set_aside"]["stable"], 0, "... none set aside")

# 3: stable-tree notices are no patches and give no tags; as a reply
# they acknowledge
for mid in ("n1@example.org", "n2@example.org"):
    ok(all(mid not in p["versions"] for p in foo["patch_list"]),
       f"the notice {mid} is no patch")
eq(pl["c1@example.net"]["first_response"]["message_id"], "n3@example.org",
   "a notice answering a patch is a response (like 'Applied, thanks')")
people = {p["email"]: p for p in foo["people"] + foo["others"]}
eq(people["fay@example.org"]["tags"]["reviewed_by"], 1,
   "Fay's one review tag is her indented one, not the notices' quotes")
eq(people["rob@example.org"]["tags"]["acked_by"], 0,
   "the Acked-by quoted by the notices is not Rob's")
ok("greg@stable.example.org" not in [p["author"]["email"] for p in
                                     foo["patch_list"]],
   "Greg's notices and backport are no patches of his")

# 1: other projects
ok("f1@example.net" not in {p["message_id"] for p in rest["patch_list"]},
   "erofs-utils: (leading name) set aside")
ok("f2@example.net" not in {p["message_id"] for p in rest["patch_list"]},
   "[PATCH rdma-core] set aside")
ok("f3@example.net" not in {p["message_id"] for p in rest["patch_list"]},
   "mkfs/main.c: no such file nor directory in the tree: set aside")
eq(rest["set_aside"], {"stable": 4, "foreign_subject": 2,
                       "foreign_recipients": 3, "foreign_paths": 4},
   "THE REST's set-aside counts")
rest_ids = {v for p in rest["patch_list"] for v in p["versions"]}
ok("f6@example.net" not in rest_ids, "--tree: legacy/old.c is in neither "
   "the tree nor a commit of the window: set aside")
for mid in ("f7-1@example.net", "f7-2@example.net"):
    ok(mid in rest_ids, f"{mid}: a series on lib/util.c and a new top-level "
       "directory is the project's")
ok("f9@example.net" in rest_ids, "a new top-level file (AGENTS.md, beside "
   "a new agents/) is the project's: the root is every project's directory")
ok("f10@example.net" in rest_ids, "a new top-level configure.ac beside "
   "mkfs/ is the project's too (the subject names no sibling)")
for mid in ("f11-1@example.net", "f11-2@example.net"):
    ok(mid not in rest_ids, f"{mid}: a series of a new top-level autogen.sh "
       "and a foreign mkfs/ is set aside whole (rdma-core's CMakeLists.txt "
       "beside providers/)")
ok("f8@example.net" in rest_ids, "'sparse-check:' names no sibling project "
   "(sparse's branches are -next, -v1.2...)")
# ... by recipients: To: another project's list (x1), or To: people and
# Cc: both lists when MAINTAINERS names a list besides the archive's
# (x2); a new top-level file alone, sent to a list MAINTAINERS never
# names (x5)
for mid, why in (("x1@example.net", "To: another project's list, Cc: "
                  "this one, on a file the tree has"),
                 ("x2@example.net", "To: people, Cc: this list and "
                  "another project's, none of MAINTAINERS' other lists"),
                 ("x5@example.net", "a new top-level file alone, Cc: a "
                  "list MAINTAINERS never names")):
    ok(mid not in rest_ids, f"{mid}: {why}: set aside")
ok("x3@example.net" in rest_ids, "To: the archive's list, Cc: a list "
   "MAINTAINERS never names (LTP's IMA tests): the project's")
ok("x4@example.net" in rest_ids, "Cc'd to a list MAINTAINERS names too: "
   "the project's")
ok("x6@example.net" in rest_ids, "Cc'd to a list MAINTAINERS does not name "
   "yet, at a host of three it names (the kernel's netfs@lists.linux.dev): "
   "the project's")
# each posting set aside, with its rule and evidence (issue 35)
al = {x["message_id"]: x for x in doc["set_aside_list"]}
eq(len(doc["set_aside_list"]), 13, "set_aside_list: the 13 postings "
   "set_aside counts")
for mid, reason, says, by in (
        ("s1@example.net", "stable", "stable tree", None),
        ("f1@example.net", "foreign_subject", "erofs-utils", None),
        ("f3@example.net", "foreign_paths", "mkfs/main.c", None),
        ("f11-1@example.net", "foreign_paths", "mkfs/build.c",
         "f11-2@example.net"),
        ("x1@example.net", "foreign_recipients", "u-boot@lists.other.example",
         None),
        ("x5@example.net", "foreign_recipients", "only NOTES could be", None)):
    x = al.get(mid, {})
    eq((x.get("reason"), x.get("decided_by")), (reason, by),
       f"{mid}: set aside as {reason}, decided by {by}")
    ok(says in x.get("evidence", ""), f"{mid}: its evidence names '{says}'",
       x.get("evidence"))
# ... and in text: the counts by rule under the JSON's names, per entry
# and over the archive; with --set-aside each posting and its evidence,
# at most --limit of a rule
r = run("review", "--tree", repo, "--archive", mbox, "--set-aside",
        "--limit", "1", "THE REST")
counts = ("stable 4, foreign_subject 2, foreign_recipients 3, "
          "foreign_paths 4\n")
ok("\n  Set aside: " + counts in r.out and "\nSet aside over the archive "
   "(patch postings of the window, any entry): " + counts in r.out,
   "text: the set-aside lines, per entry and over the archive", r.out)
tail = r.out[r.out.index("\nSet aside over the archive"):]
ok("\n  foreign_paths:\n    2024-06-04 <f3@example.net> mkfs: add an "
   "option\n      no path could be the project's: mkfs/main.c\n    ... "
   "and 3 more not shown (--limit)\n" in tail, "--set-aside --limit 1: "
   "the first posting of each rule, its evidence, and how many more", tail)
# ... nor one applied as a commit of the project, whatever its recipients
# (LTP's maintainers' "iptables: ..." and "sparse: ..." patches, applied
# to LTP, were set aside by their subjects)
linked = os.path.join(tmp, "linked")
subprocess.run(["git", "clone", "-q", repo, linked], check=True)
git_commit(linked, "misc/other.c", "int other;\nint x1;\n",
           "misc: other board", "Zack Person", "zack@example.net",
           1717408800 + 3 * 86400)
# ... nor one made on a commit of the repository, as b4's base-commit:
# footer says (x2, To: people, Cc: this list and another project's)
with open(mbox) as f:
    text = f.read()
base = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], check=True,
                      capture_output=True, text=True).stdout.strip()
x2 = next(p for p in text.split("\nFrom ") if "<x2@example.net>" in p)
based = os.path.join(tmp, "based.mbox")
with open(based, "w") as f:
    f.write(text.replace(x2, x2.replace("\n-- \n", f"\nbase-commit: {base}"
                                        "\n-- \n", 1)))
r = run("review", "--repo", linked, "--archive", based, "--json",
        "--no-cache", "THE REST")
lk = r.json()["entries"][0]
x1 = [p for p in lk["patch_list"] if "x1@example.net" in p["versions"]]
eq([p["state"] for p in x1], ["accepted"], "x1, To: another project's list "
   "but applied as the project's commit: the project's (and accepted)")
ok(any("x2@example.net" in p["versions"] for p in lk["patch_list"]),
   "x2, sent past the project's lists, made on the repository's HEAD "
   "(base-commit:): the project's")
eq(lk["set_aside"]["foreign_recipients"], 1, "... so one is set aside by "
   "recipients, not three")
# ... nor one made against the project's own files: its diff's pre-image
# blob (the left of "index A..B") is in the repository (LTP: Mimi Zohar's
# "ima: skip verifying TPM 2.0 PCR values", To: linux-integrity, Cc: ltp,
# against LTP's file).  A blob the repository lacks says nothing, and
# without a repository (--tree) there is no such evidence.
blob = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD:misc/other.c"],
                      capture_output=True, text=True, check=True).stdout
with open(mbox) as f:
    parts = f.read().split("\nFrom ")
for k, part in enumerate(parts):
    for mid, pre in (("x1", blob[:12]), ("x2", "0123456789ab")):
        if f"Message-ID: <{mid}@example.net>" in part:
            parts[k] = part.replace("index 0000000..", f"index {pre}..")
blobbed = os.path.join(tmp, "blobbed.mbox")
with open(blobbed, "w") as f:
    f.write("\nFrom ".join(parts))
bdb = os.path.join(tmp, "blobbed.sqlite")
for fmt in ("--json", "--json", None):
    # cold, then warm (the kept result), then warm in text (recounted
    # from the stored records: they keep the blob ids)
    r = run("review", "--repo", repo, "--archive", blobbed, "--db", bdb,
            *([fmt] if fmt else []), "THE REST")
    ok(r.rc == 0, f"review of the blobbed list exits 0 ({fmt})", r.err)
bl = run("review", "--repo", repo, "--archive", blobbed, "--db", bdb,
         "--json", "THE REST").json()
be = bl["entries"][0]
bids = {v for p in be["patch_list"] for v in p["versions"]}
ok("x1@example.net" in bids, "x1, To: another project's list, but its "
   "pre-image blob is misc/other.c as the repository has it: the project's")
ok("x2@example.net" not in bids, "x2, whose pre-image blob the repository "
   "lacks: still set aside by its recipients")
eq((be["set_aside"]["foreign_recipients"], be["kept_by_blobs"],
    bl["kept_by_blobs"]), (2, 1, 1), "two set aside by recipients, one kept "
   "by its blobs (entry and archive)")
ok("the repository has their pre-image blobs: 1" in r.out,
   "text (recounted from the warm store) names the rule", r.out)
r = run("review", "--tree", repo, "--archive", blobbed, "--json",
        "THE REST")
tids = {v for p in r.json()["entries"][0]["patch_list"] for v in p["versions"]}
ok("x1@example.net" in tids, "--tree: no object database, but x1's "
   "pre-image blob is misc/other.c as the tree has it: the project's")
ok("x2@example.net" not in tids, "--tree: x2's blob is not the tree's "
   "file (weak: the list is newer): set aside by its recipients")
# ... but a sibling's name is no other project's when the analysed
# project's own history says it is its name (erofs-utils' commits are
# "erofs-utils: ..."): analysed as erofs-utils, its postings count
T_EU = 1717000000  # 2024-05-29, before the list's patches


def eu_repo(name, prefix, archive=mbox):
    work = os.path.join(tmp, name)
    subprocess.run(["git", "init", "-q", work], check=True)
    git_commit(work, "MAINTAINERS", "EROFS-UTILS\nM:\tXiang Person "
               "<xiang@example.net>\nL:\tfoo@lists.example.org\n"
               "S:\tMaintained\nF:\t*\nF:\t*/\n", prefix + "add MAINTAINERS",
               "Xiang Person", "xiang@example.net", T_EU)
    for k in range(5):
        git_commit(work, "lib/util.c", f"int util{k};\n", prefix +
                   f"lib: step {k}", "Xiang Person", "xiang@example.net",
                   T_EU + 60 * (k + 1))
    r = run("review", "--repo", work, "--archive", archive, "--json",
            "--no-cache", "EROFS-UTILS")
    ok(r.rc == 0, f"review of {name} exits 0", r.err)
    e = r.json()["entries"][0]
    return e, {v for p in e["patch_list"] for v in p["versions"]}


e_eu, ids_eu = eu_repo("erofs-utils", "erofs-utils: ")
ok("f1@example.net" in ids_eu, "analysed as erofs-utils (its commits are "
   "'erofs-utils: ...'), 'erofs-utils: lib: fix' is its own patch")
ok("f2@example.net" not in ids_eu, "... while [PATCH rdma-core] stays "
   "another project's")
e_k, ids_k = eu_repo("kernel-like", "")
ok("f1@example.net" not in ids_k and e_k["set_aside"]["foreign_subject"] >=
   e_eu["set_aside"]["foreign_subject"] + 1, "the same list and files with "
   "a history that never says 'erofs-utils:': set aside by subject")
# ... and so is a sibling's name after a vendor's tag ("AOSP: erofs-utils:
# ..."), while the project's own name makes a patch its own whatever its
# paths (erofs-utils' tests/ live on a branch of their own)
with open(mbox) as f:
    text = f.read()
f1 = next(p for p in text.split("\nFrom ") if "<f1@example.net>" in p)
sib = os.path.join(tmp, "sibling.mbox")
with open(sib, "w") as f:
    f.write(text + "\nFrom " + f1.replace("f1@", "aosp@").replace(
        "erofs-utils: lib:", "AOSP: erofs-utils: lib:") + "\nFrom " +
        f1.replace("f1@", "eutests@").replace("lib/util.c", "tests/001.sh")
        .replace("erofs-utils: lib: fix", "erofs-utils: tests: add"))
_, ids_eu = eu_repo("erofs-utils-2", "erofs-utils: ", sib)
_, ids_k = eu_repo("kernel-like-2", "", sib)
ok("aosp@example.net" in ids_eu and "aosp@example.net" not in ids_k,
   "'AOSP: erofs-utils: lib: fix': erofs-utils' own patch, another "
   "project's for the kernel-like history")
ok("eutests@example.net" in ids_eu and
   "eutests@example.net" not in ids_k,
   "'erofs-utils: tests: add' on tests/001.sh, a path the history never "
   "had: erofs-utils' own by its name, another project's for the other")
# ... a patch that modifies (a pre-image blob, not a new file) a file
# right in the root that the project lacks is another project's: the
# kernel tree read against erofs-utils' "build: ..." patches that modify
# configure.ac; while a new file in a new directory below a known
# top-level one is the project's own (LTP's new testcases/kexec/), and a
# modified one in such a directory is not (a kernel patch to
# include/linux/x.h on a project with an include/)
def variant(mid, subject, path, pre):
    t = f1.replace("f1@", mid + "@").replace(
        "erofs-utils: lib: fix compression", subject).replace(
        "lib/util.c", path)
    return t.replace("index 0000000..", f"index {pre}..") if pre else \
        t.replace("index 0000000..", "new file mode 100644\nindex 0000000..")


mod = os.path.join(tmp, "modified.mbox")
with open(mod, "w") as f:
    f.write(text + "\nFrom " + variant("mcfg", "build: support a static "
            "library", "configure.ac", "1a2b3c4d5e6f") +
            "\nFrom " + variant("newdir", "lib: add a sub-library",
                                "lib/newsub/new.c", None) +
            "\nFrom " + variant("moddir", "lib: fix a sub-library",
                                "lib/gonesub/old.c", "6f5e4d3c2b1a"))
r = run("review", "--tree", repo, "--archive", mod, "--json", "--no-cache",
        "THE REST")
mids = {v for p in r.json()["entries"][0]["patch_list"] for v in p["versions"]}
ok("mcfg@example.net" not in mids, "--tree: a patch modifying configure.ac, "
   "which the tree lacks, is another project's")
r = run("review", "--repo", repo, "--archive", mod, "--json", "--no-cache",
        "THE REST")
mids = {v for p in r.json()["entries"][0]["patch_list"] for v in p["versions"]}
ok("newdir@example.net" in mids, "--repo: a new file in a new directory "
   "below lib/ is the project's")
ok("moddir@example.net" not in mids, "--repo: a modified file in a "
   "directory below lib/ the history never had is another project's")
ok("mcfg@example.net" not in mids, "--repo: so is one modifying "
   "configure.ac")


# ... by the lists of its files' entries: a patch that modifies a file
# the tree lacks in a top-level directory it has (erofs-utils' lib/tar.c,
# include/erofs/internal.h read with the kernel tree), and went to none of
# the lists the entries matching its files name (THE REST's
# linux-kernel@), only to the archive's own, is another project's; Cc'd
# to THE REST's list it is the project's.  A new file in a new directory
# below a top-level one, To: the archive's list and Cc: a list
# MAINTAINERS never names, is the project's (LTP's testcases/kexec/, To:
# ltp, Cc: linux-integrity)
def cc(t, lists):
    return t.replace("Message-ID: <", f"Cc: {lists}\nMessage-ID: <", 1)


rout = os.path.join(tmp, "routed.mbox")
with open(rout, "w") as f:
    f.write(text + "\nFrom " + variant("tar1", "lib: fix the tar reader",
                                       "lib/tar.c", "7a6b5c4d3e2f") +
            "\nFrom " + cc(variant("tar2", "lib: fix the tar reader again",
                                   "lib/tar.c", "7a6b5c4d3e2f"),
                           "linux-kernel@lists.example.org") +
            "\nFrom " + cc(variant("kexec", "lib: add kexec tests",
                                   "lib/kexec/cmdline.sh", None),
                           "ima@lists.other.example"))
r = run("review", "--tree", repo, "--archive", rout, "--json", "--no-cache",
        "THE REST")
ro = r.json()["entries"][0]
mids = {v for p in ro["patch_list"] for v in p["versions"]}
ok("tar1@example.net" not in mids, "lib/tar.c, which the tree lacks, sent "
   "past THE REST's list: another project's")
ok("tar2@example.net" in mids, "... Cc'd to THE REST's list: the project's")
ok("kexec@example.net" in mids, "a new lib/kexec/, To: the archive's list, "
   "Cc: a list MAINTAINERS never names: the project's")
eq(ro["set_aside"]["foreign_recipients"],
   rest["set_aside"]["foreign_recipients"] + 1, "tar1 counts under "
   "recipients")


# ... but a file that another patch of the same series creates is no
# other project's file: LTP's new doc_new/, created by 1/10 and changed
# by the other nine (here a new directory below lib/, which --repo's
# history never had)
def in_series(t, n):
    t = t.replace("[PATCH] ", f"[PATCH {n}/2] ")
    return t.replace("Message-ID: <", "In-Reply-To: <webc@example.net>\n"
                     "References: <webc@example.net>\nMessage-ID: <", 1)


head = f1.split("\n\n", 1)[0].replace("f1@", "webc@").replace(
    "[PATCH] erofs-utils: lib: fix compression", "[PATCH 0/2] a new website")
ser = os.path.join(tmp, "series.mbox")
with open(ser, "w") as f:
    f.write(text + "\nFrom " + head + "\n\nTwo parts.\n\nFrom " +
            in_series(variant("web1", "lib: add a site", "lib/web/site.c",
                              None), 1) + "\nFrom " +
            in_series(variant("web2", "lib: fix the site", "lib/web/site.c",
                              "0a1b2c3d4e5f"), 2))
for how in ("--tree", "--repo"):
    r = run("review", how, repo, "--archive", ser, "--json", "--no-cache",
            "THE REST")
    mids = {v for p in r.json()["entries"][0]["patch_list"]
            for v in p["versions"]}
    ok({"web1@example.net", "web2@example.net"} <= mids, how + ": 2/2 "
       "modifies lib/web/site.c, which its 1/2 creates: the series is the "
       "project's", sorted(m for m in mids if m.startswith("web")))
# ... and a pre-image blob the repository has is the project's file
# whatever else the patch shows (a blob it lacks says nothing): a patch
# of a fork's tree changing tests/Makefile.am as a branch of the project
# has it, beside a Makefile of the fork (erofs-utils' "erofsd-utils:
# tests: add stress test"), is the project's; and a series with such a
# patch is the project's, though its 1/2 modifies a file right in the
# root that the project lacks (LTP's 20200812073529.25715-*: TI's
# device-discovery.sh in 1/2, LTP's device-drivers/Makefile in 2/2)
def two(mid, subject, a, b):
    t = variant(mid, subject, a[0], a[1])
    d = t[t.index("diff --git"):t.index("-- \n2.43.0")]
    return t.replace("-- \n2.43.0", d.replace(a[0], b[0]).replace(
        a[1], b[1]) + "-- \n2.43.0", 1)


side = os.path.join(tmp, "side")
subprocess.run(["git", "clone", "-q", repo, side], check=True)
subprocess.run(["git", "-C", side, "checkout", "-q", "-b", "tests"],
               check=True)
git_commit(side, "tests/Makefile.am", "TESTS = 001\n", "tests: add",
           "Xiang Person", "xiang@example.net", 1717408800 + 4 * 86400)
tblob = subprocess.run(["git", "-C", side, "rev-parse",
                        "HEAD:tests/Makefile.am"], capture_output=True,
                       text=True, check=True).stdout[:12]
ublob = subprocess.run(["git", "-C", side, "rev-parse", "HEAD:lib/util.c"],
                       capture_output=True, text=True,
                       check=True).stdout[:12]
subprocess.run(["git", "-C", side, "checkout", "-q", "-"], check=True)
fork = os.path.join(tmp, "fork.mbox")
dd = in_series(variant("dd1", "device-discovery: detect uarts",
                       "device-discovery.sh", "08460c41f0aa"), 1)
with open(fork, "w") as f:
    f.write(text + "\nFrom " + two("stress", "erofsd-utils: tests: add "
                                   "stress test", ("Makefile", "055b485aa0"),
                                   ("tests/Makefile.am", tblob)) +
            "\nFrom " + head.replace("webc@", "ddc@") + "\n\nTwo parts.\n"
            "\nFrom " + dd.replace("webc@", "ddc@") + "\nFrom " +
            in_series(two("dd2", "uart01: extend it", ("lib/util.c", ublob),
                          ("lib/uart/uart01.c", "4647c55e3aa0")),
                      2).replace("webc@", "ddc@"))
r = run("review", "--repo", side, "--archive", fork, "--json", "--no-cache",
        "THE REST")
mids = {v for p in r.json()["entries"][0]["patch_list"] for v in p["versions"]}
ok("stress@example.net" in mids, "tests/Makefile.am, not in the history "
   "of HEAD, but its pre-image blob is the repository's: the project's")
# ... but one blob alone is no match for the recipients: To: another
# project's list, a file of the repository (its copy of a kernel uapi
# header, rdma-core on linux-rdma) beside one it lacks
with open(fork, "a") as f:
    f.write("\nFrom " + cc(two("uapi", "misc: sync a header",
                               ("tests/Makefile.am", tblob),
                               ("misc/gone.h", "5e6f7a8b9c0d")).replace(
        "To: foo@lists.example.org", "To: u-boot@lists.other.example")
        .replace("Xiang Person <xiang@", "Zack Person <zack@"),
        "foo@lists.example.org"))
r = run("review", "--repo", side, "--archive", fork, "--json", "--no-cache",
        "THE REST")
mids = {v for p in r.json()["entries"][0]["patch_list"] for v in p["versions"]}
ok("uapi@example.net" not in mids, "To: another project's list, one blob "
   "of two the repository's: still set aside by its recipients")
ok({"dd1@example.net", "dd2@example.net"} <= mids, "a series whose 2/2 "
   "has a blob of the repository is the project's, though its 1/2 modifies "
   "device-discovery.sh, which the project lacks",
   sorted(m for m in mids if m.startswith("dd")))
# ... and a series whose other patches name another project is that
# project's whole: "[PATCH 3/3] README: ..." below two "erofs-utils: ..."
# patches (20260330052127.9173-*), though the tree has a README
with open(ser, "w") as f:
    f.write(text + "\nFrom " + head.replace("webc@", "eusc@") +
            "\n\nTwo parts.\n\nFrom " +
            in_series(variant("eus1", "erofs-utils: lib: fix a leak",
                              "lib/util.c", "0a1b2c3d4e5f"),
                      1).replace("webc@", "eusc@") + "\nFrom " +
            in_series(variant("eus2", "Makefile: refactor", "Makefile",
                              "1a1b2c3d4e5f"), 2).replace("webc@", "eusc@"))
r = run("review", "--tree", repo, "--archive", ser, "--json", "--no-cache",
        "THE REST")
mids = {v for p in r.json()["entries"][0]["patch_list"] for v in p["versions"]}
ok("eus2@example.net" not in mids, "2/2 on the tree's Makefile, below an "
   "'erofs-utils:' 1/2: another project's with its series")
eq(r.json()["set_aside"]["foreign_subject"],
   doc["set_aside"]["foreign_subject"] + 2, "... two patches more set aside "
   "by subject over the archive, not the cover letter as a third")
# ... and so is a series whose cover letter names another project, its
# patches' subjects naming none (Qu Wenruo's "[PATCH 0/8] u-boot: fs: add
# generic unaligned read handling" over "fs: btrfs: ...", To: u-boot, Cc:
# linux-erofs and the kernel's linux-btrfs), as is a patch in a list's
# "[U-Boot]" tag; a name in passing is none ("lib: keep u-boot: ..."
# further on, a cover letter "as u-boot does"), though MAINTAINERS
# names a list u-boot@ for no files (the kernel's util-linux@); but the
# catch-all entry's list u-boot@ makes the name the project's own
ubh = head.replace("webc@", "ubc@").replace("[PATCH 0/2] a new website",
                                            "[PATCH 0/2] U-boot: fs: align")
ub = os.path.join(tmp, "uboot.mbox")
with open(ub, "w") as f:
    f.write(text + "\nFrom " + ubh + "\n\nTwo parts.\n\nFrom " +
            "\nFrom ".join(in_series(variant(
                f"ub{n}", f"fs: part {n}", "lib/util.c", "5a5b5c5d5e5f"),
                n).replace("webc@", "ubc@") for n in (1, 2)) +
            "\nFrom " + variant("ubtag", "lib: tagged", "lib/util.c",
                                "5a5b5c5d5e5f").replace(
                "[PATCH] ", "[U-Boot] [PATCH] ") +
            "\nFrom " + variant("ubpass", "lib: boot as u-boot: does",
                                "lib/util.c", "6a6b6c6d6e6f") +
            "\nFrom " + head.replace("webc@", "ubn@").replace(
                "a new website", "lib: as u-boot does") +
            "\n\nTwo parts.\n\nFrom " + in_series(variant(
                "ubn1", "lib: part one", "lib/util.c", "6a6b6c6d6e6f"),
                1).replace("webc@", "ubn@"))


def ub_review(maint):
    path = os.path.join(tmp, "uboot-MAINTAINERS")
    with open(path, "w") as f:
        f.write(maint)
    r = run("review", "--tree", repo, "--archive", ub, "--json", "--no-cache",
            "--maintainers", os.path.join(repo, "MAINTAINERS"),
            "--maintainers", path, "THE REST")
    d = r.json()
    return ({v for p in d["entries"][0]["patch_list"] for v in p["versions"]},
            {x["message_id"]: x for x in d["set_aside_list"]})


ubs = {"ub1@example.net", "ub2@example.net", "ubtag@example.net"}
mids, al = ub_review("UBOOT TOOLS\nL:\tu-boot@lists.other.example\n")
ok(not ubs & mids, "a series whose cover letter says 'U-boot: fs: ...', "
   "and a '[U-Boot] [PATCH]': set aside", sorted(mids))
eq([al.get(m, {}).get("reason") for m in sorted(ubs)],
   ["foreign_subject"] * 3, "... by subject")
ok("cover letter <ubc@example.net> names the project u-boot" in
   al.get("ub1@example.net", {}).get("evidence", ""), "... the evidence "
   "names the cover letter", al.get("ub1@example.net"))
ok({"ubpass@example.net", "ubn1@example.net"} <= mids, "'u-boot' in "
   "passing, in a patch's or a cover letter's subject: the project's",
   [al.get(m) for m in ("ubpass@example.net", "ubn1@example.net")])
mids, _ = ub_review("U-BOOT\nL:\tu-boot@lists.other.example\nF:\t*\n")
ok(ubs <= mids, "the catch-all entry's list is u-boot@: the u-boot series "
   "and the '[U-Boot]' patch are the project's", sorted(ubs - mids))
# ... what the archive's other patches show (issue 35): a patch modifying
# a file of the tree from the same pre-image blob as a patch set aside by
# its subject is that project's (erofs-utils' README, read with the
# kernel tree, from the blob of "erofs-utils: fix typos ..."); a new file
# right in the root that another patch modifies as a file the project
# could not have is another project's (the stress tester's stress.c); a
# series of new files in a new directory below a top-level one (new
# include/ez/) beside a top-level directory the project lacks (lzma/) is
# another project's whole (Gao Xiang's "ez" library); a new file in a
# directory only a branch of the repository has is the project's
# (erofs-utils' tests/ on experimental-tests)
arch = os.path.join(tmp, "archive-says.mbox")
with open(arch, "w") as f:
    f.write(text + "\nFrom " + variant("eutidy", "erofs-utils: lib: tidy",
                                       "lib/util.c", "1ca376f0aa11") +
            "\nFrom " + variant("qstart", "lib: add a quick start",
                                "lib/util.c", "1ca376f0aa11") +
            "\nFrom " + variant("st1", "add a stress tester", "stress.c",
                                None) +
            "\nFrom " + variant("st2", "stress: direct IO", "stress.c",
                                "f4bf874aa000") +
            "\nFrom " + head.replace("webc@", "ezc@") + "\n\nTwo parts.\n" +
            "\nFrom " + in_series(variant("ez1", "ez: add basic files",
                                          "lib/ez/defs.h", None),
                                  1).replace("webc@", "ezc@") +
            "\nFrom " + in_series(variant("ez2", "ez: lzma: add an encoder",
                                          "lzma/enc.c", None),
                                  2).replace("webc@", "ezc@") +
            "\nFrom " + variant("smoke", "tests: add a smoke test",
                                "tests/smoke.sh", None))
for how, where in (("--tree", repo), ("--repo", repo), ("--repo", side)):
    r = run("review", how, where, "--archive", arch, "--json", "--no-cache",
            "THE REST")
    d = r.json()
    mids = {v for p in d["entries"][0]["patch_list"] for v in p["versions"]}
    al = {x["message_id"]: x for x in d["set_aside_list"]}
    what = f"{how} {os.path.basename(where)}"
    ok("qstart@example.net" not in mids, f"{what}: lib/util.c from the "
       "pre-image blob of an 'erofs-utils:' patch: erofs-utils'")
    eq(al.get("qstart@example.net", {}).get("reason"), "foreign_subject",
       f"{what}: ... counted as that patch is")
    ok("<eutidy@example.net>" in al.get("qstart@example.net", {}).get(
        "evidence", ""), f"{what}: ... its evidence names that patch")
    ok("st1@example.net" not in mids and "stress.c" in al.get(
        "st1@example.net", {}).get("evidence", ""), f"{what}: a new "
       "stress.c that another patch modifies as a file the project could "
       "not have: set aside")
    ok(not {"ez1@example.net", "ez2@example.net"} & mids, f"{what}: a new "
       "lib/ez/ beside a new top-level lzma/: the series is set aside whole")
    eq(al.get("ez1@example.net", {}).get("decided_by"), "ez2@example.net",
       f"{what}: ... ez1 by ez2's evidence")
    ok(("smoke@example.net" in mids) == (where == side), f"{what}: a new "
       "tests/smoke.sh is the project's only where a branch has tests/")
# ... and a list MAINTAINERS names blocks the recipients rule only when
# an entry of the patch's files names it: U-Boot's fs/fat patches, To:
# u-boot, Cc: linux-erofs and linux-btrfs (the kernel's list for
# fs/btrfs/, not for fs/fat/), are U-Boot's; Cc'd to THE REST's list
# (which claims its file) it is the project's
x1 = next(p for p in text.split("\nFrom ") if "<x1@example.net>" in p)
cross = os.path.join(tmp, "cross.mbox")
with open(cross, "w") as f:
    f.write(text + "\nFrom " + x1.replace("x1@", "xlate@").replace(
        "Cc: foo@lists.example.org", "Cc: foo@lists.example.org, "
        "late@lists.example.org") + "\nFrom " + x1.replace(
        "x1@", "xlkml@").replace("Cc: foo@lists.example.org",
                                 "Cc: foo@lists.example.org, "
                                 "linux-kernel@lists.example.org"))
r = run("review", "--tree", repo, "--archive", cross, "--json", "--no-cache",
        "THE REST")
d = r.json()
mids = {v for p in d["entries"][0]["patch_list"] for v in p["versions"]}
al = {x["message_id"]: x for x in d["set_aside_list"]}
eq(al.get("xlate@example.net", {}).get("reason"), "foreign_recipients",
   "To: another project's list, Cc: a list MAINTAINERS names for other "
   "files only: set aside by recipients")
ok("xlkml@example.net" in mids, "... Cc'd to the list of its file's entry: "
   "the project's")
# ... with --repo the whole history knows legacy/old.c, removed before
# the snapshot; mkfs/ it never had
db = os.path.join(tmp, "count.sqlite")
for run_no in ("cold", "warm"):
    # the warm run reads the activity model back from the store: the
    # paths of the history must come back with it
    r = run("review", "--repo", repo, "--archive", mbox, "--json",
            "--db", db, "THE REST")
    ok(r.rc == 0, f"review --repo exits 0 ({run_no} store)", r.err)
    ok("f6@example.net" in {v for p in r.json()["entries"][0]["patch_list"]
                            for v in p["versions"]},
       f"--repo, {run_no} store: legacy/old.c is the project's")
rr = r.json()["entries"][0]
rr_ids = {v for p in rr["patch_list"] for v in p["versions"]}
ok("f6@example.net" in rr_ids, "--repo: a patch to a file the history had "
   "(removed before the snapshot) is the project's")
ok("f3@example.net" not in rr_ids, "--repo: mkfs/main.c, never in the "
   "history, stays set aside")
eq(rr["set_aside"]["foreign_paths"], 3, "--repo: three set aside by paths "
   "(legacy/old.c is the history's)")
eq(rr["patches"], rest["patches"] + 1, "--repo: one patch more than --tree")
ok("f5@example.net" in pl, "a new file in a new directory below "
   "drivers/ belongs to the project")
ok("f4@example.net" in pl, "[PATCH zzz-tool] is not on the built-in list")
_, e3 = review("--foreign-subject", r"\[PATCH zzz-tool", "FOO DRIVER")
eq((e3["FOO DRIVER"]["patches"],
    e3["FOO DRIVER"]["set_aside"]["foreign_subject"]), (12, 1),
   "--foreign-subject sets it aside")
_, e4 = review("--include-foreign", "THE REST")
eq(e4["THE REST"]["patches"], rest["patches"] + 9,
   "--include-foreign keeps the nine")
r = run("review", "--tree", repo, "--archive", mbox, "--foreign-subject",
        "(")
eq(r.rc, 2, "an invalid --foreign-subject is a usage error")
ok("--foreign-subject" in r.err, "the message names the option", r.err)

# 4: a reply below a lost message answers the patch above it
eq(pl["d1@example.net"]["first_response"]["message_id"],
   "d1-r2@example.org", "References fallback: the reply to a lost "
   "message answers D")
eq(pl["d1@example.net"]["first_response"]["hours"], 5.0, "after 5h")

# 5: v3 patches below the v2 cover letter belong to it, with its review
for n in (1, 2):
    p = pl[f"v3-{n}@example.net"]
    eq(p["first_review_tag"]["message_id"], "v2-0-r1@example.org",
       f"v3 {n}/2: Rob's review of the v2 cover letter applies")
eq(foo["series"], 12, "13 patches in 12 series (the two v3 parts are one; "
   "'Trailing dot.' and 'trailing dot' one)")

# 6: an indented trailer is a review tag
eq(pl["e1@example.net"]["first_review_tag"]["message_id"],
   "e1-r1@example.org", "the indented Reviewed-by is a review tag")

# 6, commit side: a trailer block that is no longer the last paragraph
r = run("activity", "--repo", repo, "--json", "--since", "2024-01-01",
        "FOO DRIVER")
a = r.json()["entries"][0]
eq((a["commits"], a["reviewed"]), (2, 1), "activity: the recommitted "
   "change is reviewed (Rob's tag before the committer's note)")
eq([(p["email"], (p["last_tagged"] or {}).get("tag")) for p in a["people"]],
   [("fay@example.org", None), ("rob@example.org", "Reviewed-by")],
   "Rob's tag is credited")

# 7: a forwarded tag is the named person's
eq(people["zed@example.org"]["tags"]["reviewed_by"], 1,
   "Cora forwards Zed's Reviewed-by: Zed's tag")
eq(people["cora@example.com"]["tags"]["reviewed_by"], 0, "not Cora's")
eq(people["cora@example.com"]["replied"], 1, "Cora still replied")

# 8: subjects
eq(pl["t1@example.net"]["versions"], ["t1@example.net", "t2@example.net"],
   "'Trailing dot.' and 'trailing dot' are one patch")
for mid in ("a1-hu@example.net", "a1-xiang@example.net",
            "a1-tom@example.net"):
    ok(all(mid not in p["versions"] for p in foo["patch_list"]),
       f"{mid} (回复:/答复：/AW: with a diff) is a reply, not a patch")
r = run("mail", "show", mbox, "a1-xiang@example.net", "--json")
eq((r.json()["kind"], r.json()["subject_parsed"]["reply_depth"]),
   ("reply", 1), "答复： (full-width colon) is a reply prefix")
eq(people["hu@example.net"]["replied"], 1, "回复: answered A")

# 9: one clock, from the first posting of any version
eq(pl["r1@example.net"]["first_response"]["hours"], 169.0,
   "reposted unanswered for a week: waited 169h, not 1h")
ttfr = foo["time_to_first_response"]
ok(abs(ttfr["median_hours"] - (179 / 60 + 4) / 2) < 1e-6 and
   ttfr["p90_hours"] == 169.0, "FOO time to first response: 2, 2, 2h58m, "
   "2h59m, 4, 5, 6, 169 hours: median 3h29.5m, p90 169h", ttfr)
ok(abs(pl["v3-1@example.net"]["first_response"]["hours"] - (3 - 1 / 60))
   < 1e-6, "v3 1/2: 3h after the cover, 2h59m after the patch")

# 10: per-person counts
rob = people["rob@example.org"]
eq(rob["messages"], 3, "Rob sent 3 messages (one cover reply answering "
   "two patches counts once)")
eq(rob["replied"], 4, "... answering 4 patches")
hank = people["hank@example.net"]
eq((hank["authored"], hank["own_patches"]), (2, 1),
   "Hank, unlisted, authored 2 postings of 1 patch")
eq(hank["netdev_score"], 2 * 1 + 8 * 1 + 0 - 4 * 2,
   "... and the netdev score subtracts them")
fay = people["fay@example.org"]
eq(fay["own_patches"], 1, "Fay wrote one FOO patch")
eq(fay["replied_share"], 2 / 12, "Fay's share is over the 12 patches "
   "she did not write")
eq((foo["ignored"], foo["ignored_contributor"], foo["own_unreviewed"]),
   (5, 4, 1), "5 ignored: 4 contributors' patches, 1 of Fay's own that "
   "nobody else reviewed")

# 9 follow-up: ignored means no response to any version, however late
r = run("review", "--tree", repo, "--archive", mbox, "--json", "LATE DRIVER")
late = r.json()["entries"][0]
lpl = {p["message_id"]: p for p in late["patch_list"]}
eq((late["patches"], late["replied"], late["ignored"]), (4, 2, 2),
   "LATE: 4 patches, 2 replied, 2 ignored (replied + ignored <= patches)")
eq(late["series"], 4, "LATE: 4 series (the v2 of 'late: tidy', sent alone, "
   "and the v2 1/2 of the RFC whose v2 cover letter is not in the list, "
   "are other versions of their series, not series of their own: never "
   "more series than patches)")
eq(lpl["l4-1@example.net"]["versions"], ["l4-1@example.net",
                                         "l5-1@example.net"],
   "the RFC's 1/2 and the v2 1/2 are one patch")
eq((lpl["l1@example.net"]["is_ignored"],
    lpl["l1@example.net"]["first_response"]["hours"]), (False, 480.0),
   "answered after 20 days: a 480 h first response, not ignored")
eq((lpl["l2-1@example.net"]["is_ignored"], lpl["l2-1@example.net"]["versions"]),
   (False, ["l2-1@example.net", "l2-2@example.net"]),
   "v2 unanswered, v1's cover letter answered: the patch is not ignored")
eq(lpl["l3@example.net"]["is_ignored"], True, "never answered: ignored")
eq(late["time_to_first_response"]["median_hours"],
   ((2 * 3600 - 60) + 480 * 3600) / 2 / 3600,
   "one clock: median of 2 h less a minute (v1's cover letter answered 2 h "
   "after it, the patch posted a minute after the cover) and 480 h")
t = run("review", "--tree", repo, "--archive", mbox, "LATE DRIVER").out
ok("Ignored patches: 2 " in t, "text: two ignored patches", t)

# 11: 0 of 0
idle = ents["IDLE DRIVER"]
eq((idle["patches"], idle["reply_share"], idle["responsiveness"]),
   (0, None, None), "an idle entry: shares are null, not 0")
eq((idle["people"][0]["replied_share"], idle["people"][0]["responsiveness"]),
   (None, None), "... and so are its people's")

# 13: K: in an attached diff
eq([p["message_id"] for p in ents["KW DRIVER"]["patch_list"]],
   ["k1@example.net"], "K: matches the diff sent as an attachment")

# mail stats
r = run("mail", "stats", mbox, "--json")
st = r.json()
eq((st["stable_patches"], st["stable_notices"], st["foreign_patches"]),
   (4, 3, 2), "mail stats counts backports, notices, named projects")
eq((st["misdated"], st["first_date"][:10]), (1, "2024-06-03"),
   "the spam dated 2000-12-31 is misdated: counted, and the archive "
   "starts after it")
r = run("review", "--tree", repo, "--archive", mbox, "--json", *ENTRIES)
eq(r.json()["window"]["since"][:10], "2024-06-03",
   "the misdated message sets no window")
head = run("review", "--tree", repo, "--archive", mbox,
           *ENTRIES).out.split("\n")[0]
ok(head.startswith(f"Archives: {mbox} (") and ", 2024-06-03 to " in head,
   "the text's archive span leaves the misdated message out too", head)
site = os.path.join(tmpdir(), "site")
r = run("report", "--tree", repo, "--archive", mbox, "--output-dir", site,
        *ENTRIES)
eq(r.rc, 0, "report exits 0")
with open(os.path.join(site, "data/review.json")) as fp:
    months = [iv["start"][:7] for iv in
              json.load(fp)["entries"][0]["intervals"]]
eq(months[:1], ["2024-06"], "the report's months start at the first "
   "month with data, not at the misdated message's (2000-12)")

# text
r = run("review", "--tree", repo, "--archive", mbox, "--set-aside",
        "--limit", "0", *ENTRIES)
eq(r.rc, 0, "text exits 0")
t = r.out
tail = t[t.index("\nSet aside over the archive"):]
eq(len(re.findall(r"\n    \d{4}-\d\d-\d\d <", tail)),
   len(doc["set_aside_list"]), "--set-aside --limit 0: every posting of "
   "set_aside_list")
ok("<f11-1@example.net> " in tail and "(decided by <f11-2@example.net>)"
   in tail, "... one decided by another patch of its series says which",
   tail)
ok("\nIgnored: no response at all (a late one counts), not judged until "
   "14.0d after the newest version; response target 2.0d\n" in t,
   "the header says the ignored rule docs/review.md states (R's 169 h "
   "first response is late, not ignored)", t)
ok("  Set aside: stable 4, foreign_subject 0, foreign_recipients 0, "
   "foreign_paths 0\n" in t, "text set-aside line", t)
ok("  Ignored patches: 5 (from contributors 4); listed people's own "
   "patches without another's review tag: 1\n" in t, "text ignored line")
ok("    List replied 2/12 (17%)" in t, "Fay's text line over 12 patches "
   "(16.7% rounds to 17%, as the report's pages round it)")
ok("Subsystem IDLE DRIVER\n  Patches 0 (series 0), replied 0 (-), by a "
   "listed person 0 (-)\n" in t, "0 of 0 is '-' in text")
ok("  Responsiveness (48h): -\n" in t, "idle responsiveness '-'")
ok("score -," in t, "idle person's score '-'")
sec = {x.split("\n", 1)[0]: x for x in t.split("Subsystem ")[1:]}
ok("  Set aside: stable 4, foreign_subject 2, foreign_recipients 3, "
   "foreign_paths 4\n" in sec["THE REST"], "1: THE REST's text set-aside "
   "line", sec["THE REST"])
ok("First response: median 3.5h, p90 7.0d;" in sec["FOO DRIVER"],
   "9: text first response p90 7.0d, 169 h (the repost waited a week)")
ok("    List replied 4/13 (31%), median 3.0h, Reviewed-by 2, Acked-by 0,"
   in sec["FOO DRIVER"], "3, 5: Rob's text line: his one review of the "
   "cover letter counts for each of its 2 patches (tags count patches, as "
   "b4 applies them), the notices' quoted Acked-by is not his")
eq((rob["tags"]["reviewed_by"], rob["messages"]), (2, 3), "Rob: 2 "
   "Reviewed-by (one cover-letter review, two patches) in 3 messages")
ok("    List replied 2/12 (17%), median 4.5h, Reviewed-by 1, Acked-by 0,"
   in sec["FOO DRIVER"], "4, 6: Fay's text line: the reply below a lost "
   "message (5 h) and the indented tag (4 h)")
# the report's person page says the same share as the text (it divided
# by all the entry's patches, her own too: 2/13)
site = os.path.join(tmpdir(), "site")
r = run("report", "--tree", repo, "--archive", mbox, "--output-dir", site,
        "FOO DRIVER")
eq(r.rc, 0, "report exits 0")
page = "".join(open(p).read() for p in
               glob.glob(os.path.join(site, "person-*.html"))
               if "fay@example.org" in open(p).read().split("<h1>")[1][:200])
ok(re.search(r">2/12 \(17%\)<", page), "Fay's page: 2/12 (17%), as "
   "the text", re.findall(r">\d+/\d+ \(\d+%\)<", page))
ok("Cora Forwarder <cora@example.com> (first responses 1, tags 0," in
   sec["FOO DRIVER"], "7: text: the forwarded tag is not Cora's")
eq(sec["FOO DRIVER"].lower().count("foo: trailing dot"), 1, "8: text: "
   "'Trailing dot.' and 'trailing dot' are one ignored patch (shown by "
   "its first version)")
ok("<a1-hu@example.net>" not in t and "<a1-tom@example.net>" not in t,
   "8: text: replies in other languages are no patches")
ok("  Patches 1 (series 1), replied 0" in sec["KW DRIVER"],
   "13: text: K: matched the attached diff: KW DRIVER has its patch")
# 1 and 2 in activity and urgent --archive: their list facts count the
# patches review counts (stable backports and other projects' patches
# set aside).  A clone of the repository with one commit after the list,
# so that the history's window covers it.
late = os.path.join(tmp, "late")
subprocess.run(["git", "clone", "-q", repo, late], check=True)
with open(os.path.join(late, "Makefile"), "a") as f:
    f.write("# late\n")
subprocess.run(["git", "-C", late, "commit", "-qam", "late"], check=True,
               env=dict(os.environ, GIT_AUTHOR_NAME="Linus Root",
                        GIT_AUTHOR_EMAIL="linus@example.org",
                        GIT_COMMITTER_NAME="Linus Root",
                        GIT_COMMITTER_EMAIL="linus@example.org",
                        GIT_AUTHOR_DATE="2024-09-01T00:00:00+00:00",
                        GIT_COMMITTER_DATE="2024-09-01T00:00:00+00:00"))
WIN = ["--since", "2024-05-01", "--until", "2024-09-01", "--no-cache"]
r = run("review", "--repo", late, "--archive", mbox, "--json", *WIN,
        "THE REST", "FOO DRIVER")
ok(r.rc == 0, "review --repo (late clone) exits 0", r.err)
want = {e["name"]: e["patches"] for e in r.json()["entries"]}
ok(want["THE REST"] > 0 and want["FOO DRIVER"] > 0, "both have patches",
   want)
for cmd, extra in (("activity", []),
                   ("urgent", ["--months", "0", "--min-commits", "0"])):
    r = run(cmd, "--repo", late, "--archive", mbox, "--json", *WIN, *extra)
    ok(r.rc == 0, f"{cmd} --archive exits 0", r.err)
    got = {e["name"]: (e.get("list") or {}).get("patches")
           for e in r.json()["entries"] if e["name"] in want}
    eq(got, want, f"{cmd} --archive counts review's patches (no stable "
       "backport, no other project's)")
done()
