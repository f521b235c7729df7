#!/usr/bin/env python3
"""How maintainers announce an apply (docs/review.md, "Where each patch
stands"), as review --json's `state` and `state_evidence` read them: LTP's
"Pushed, thanks.", "Thanks for your review, merged!", "Finally merged",
"Finally merged :)." and "Merged this one.", "Applied both to", a b4 ty naming two patches of a series of three (each accepted with
its own commit, the third left as it stands), and the words that are no
notice: a sentence wrapped before "applied,", a "merged?" question, words
after a smiley, a
"Merged this into" that names no apply, an "Applied" in a b4 ty's quoted
text; a pull request's shortlog naming patches posted before it."""
import os
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, eq, ok, done, tmpdir, result_plant  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "lib"))
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("LIB\nM:\tMay Maint <may@example.org>\nS:\tMaintained\n"
            "F:\tlib/\n")
with open(os.path.join(tree, "lib", "a.c"), "w") as f:
    f.write("int a;\n")

AUTHOR = "Ann Author <ann@example.net>"
MAY = "May Maint <may@example.org>"
msgs = []


def mail(mid, frm, subject, day, body, parent=None):
    hdr = [f"From: {frm}", f"Subject: {subject}", f"Message-ID: <{mid}>",
           f"Date: Mon, {day:02d} Jan 2024 10:00:00 +0000"]
    if parent:
        hdr += [f"In-Reply-To: <{parent}>", f"References: <{parent}>"]
    msgs.append("From x Mon Jan  1 00:00:00 2024\n" + "\n".join(hdr) +
                "\n\n" + body + "\n")


def patch(mid, subject, day, prefix="PATCH", parent=None):
    mail(mid, AUTHOR, f"[{prefix}] {subject}", day,
         f"Change {subject}.\n\nSigned-off-by: {AUTHOR}\n---\n"
         "diff --git a/lib/a.c b/lib/a.c\n--- a/lib/a.c\n+++ b/lib/a.c\n"
         f"@@ -1 +1 @@\n-int a;\n+int a; /* {subject} */\n", parent)


def series(tag, cover, day, subjects):
    """Cover letter TAG0@x and patches TAG1@x.. below it."""
    n = len(subjects)
    mail(f"{tag}0@x", AUTHOR, f"[PATCH 0/{n}] {cover}", day, "Cover.")
    for i, subj in enumerate(subjects, 1):
        patch(f"{tag}{i}@x", subj, day, f"PATCH {i}/{n}", f"{tag}0@x")


def answer(mid, parent, subject, day, body, frm=MAY):
    mail(mid, frm, f"Re: [PATCH] {subject}", day, body, parent)


FOOTER = "\n-- \nMailing list info: https://lists.example.org/listinfo/x"
patch("pu@x", "lib: pushed", 2)
answer("pu-n@x", "pu@x", "lib: pushed", 3, "Hi,\n\nPushed, thanks." + FOOTER)
patch("me@x", "lib: merged", 2)
answer("me-n@x", "me@x", "lib: merged", 3,
       "Hi Ann,\n\n> +int a;\n\nThanks for your review, merged!" + FOOTER)
patch("bo@x", "lib: both", 2)
answer("bo-n@x", "bo@x", "lib: both", 3, "Applied both to for-rc, thanks")
patch("ch@x", "lib: changed", 2)
answer("ch-n@x", "ch@x", "lib: changed", 3,
       "Pushed with a minor change, thanks.")
patch("fi@x", "lib: finally", 2)
answer("fi-n@x", "fi@x", "lib: finally", 3,
       "Finally merged, thanks to all reviewers.")
patch("on@x", "lib: this one", 2)
answer("on-n@x", "on@x", "lib: this one", 3, "Hi Ann,\n\nMerged this one.")
# LTP, 20250307234554.GA347736@pevik
patch("sm@x", "lib: smiley", 2)
answer("sm-n@x", "sm@x", "lib: smiley", 3, "Hi Ann,\n\nFinally merged :)." +
       FOOTER)
# not notices
patch("wr@x", "lib: wrapped", 2)
answer("wr-n@x", "wr@x", "lib: wrapped", 3,
       "This will oops on old kernels once it is\n"
       "applied, so please check the version first.")
patch("qu@x", "lib: question", 2)
answer("qu-n@x", "qu@x", "lib: question", 3, "Hi,\n\nmerged?\n")
patch("ms@x", "lib: more after a smiley", 2)
answer("ms-n@x", "ms@x", "lib: more after a smiley", 3,
       "Merged :) once the CI passes, so please ping me.")
patch("in@x", "lib: into", 2)
answer("in-n@x", "in@x", "lib: into", 3,
       "Merged timer01 and timer02 into one test, please resend.")
patch("qt@x", "lib: quoted", 2)
answer("qt-n@x", "qt@x", "lib: quoted", 3,
       "> Applied, thanks!\n>\n> [1/1] lib: quoted\n>       commit: "
       "abcdef1234\n\nWhere did this go?")
# a b4 ty naming two patches of three, with their commits
series("s", "lib: three", 4, ["lib: one", "lib: two", "lib: three"])
mail("ty@x", MAY, "Re: [PATCH 0/3] lib: three", 5,
     "On Thu, Ann Author wrote:\n> Three things.\n\nApplied, thanks!\n\n"
     "[1/3] lib: one\n      commit: 0123456789ab\n"
     "[3/3] lib: three\n"
     "      https://git.kernel.org/foo/foo/c/FEDCBA987654\n\n"
     "Best regards,\n-- \nMay Maint <may@example.org>", "s0@x")
# changes requested, and answers that request none
RITA = "Rita Rev <rita@example.com>"
OLAF = "Olaf Other <olaf@example.com>"
patch("rv@x", "lib: reviewed", 6)
answer("rv-t@x", "rv@x", "lib: reviewed", 7,
       "Reviewed-by: Rita Rev <rita@example.com>", RITA)
patch("as@x", "lib: asked", 6)
answer("as-q@x", "as@x", "lib: asked", 7, "Hi Ann,\n\nWhy is this needed?")
patch("an@x", "lib: answered", 6)
answer("an-q@x", "an@x", "lib: answered", 7, "Why is this needed?")
mail("an-a@x", AUTHOR, "Re: [PATCH] lib: answered", 8,
     "> Why is this needed?\n\nBecause old kernels oops.", "an-q@x")
patch("th@x", "lib: thanked", 6)
answer("th-n@x", "th@x", "lib: thanked", 7,
       "Hi,\n\nLGTM, thanks!\n\nMay" + FOOTER)
patch("ri@x", "lib: by a reviewer", 6)
answer("ri-q@x", "ri@x", "lib: by a reviewer", 7,
       "Please rename a to b.", RITA)
patch("ol@x", "lib: by a passer-by", 6)
answer("ol-q@x", "ol@x", "lib: by a passer-by", 7,
       "Does this fix my laptop?", OLAF)
# a cover letter's shortlog, quoted and split by the answer (linux-rdma,
# Y707Qv31FXlAz2SF@unreal): the applied line answers the items above it,
# a wrapped one too; quoted whole, the series
LONG = "lib: reject a zero-length buffer that no caller sends but fuzzers do"
series("h", "lib: fixups", 9,
       ["lib: restore resources", LONG, "lib: reserve ids"])
mail("h-n@x", MAY, "Re: [PATCH 0/3] lib: fixups", 10,
     "On Mon, Ann Author wrote:\n> Fixups.\n>\n> Ann Author (3):\n"
     ">       lib: restore resources\n\nThis needs to be resent.\n\n"
     ">       lib: reject a zero-length buffer that no caller sends but\n"
     ">         fuzzers do\n>       lib: reserve ids\n\n"
     "These applied to -rc.\n\nThanks\n>\n>  lib/a.c | 1 +\n", "h0@x")
series("u", "lib: pair", 9, ["lib: first of a pair", "lib: second of a pair"])
mail("u-n@x", MAY, "Re: [PATCH 0/2] lib: pair", 10,
     "> Ann Author (2):\n>       lib: first of a pair\n"
     ">       lib: second of a pair\n\nApplied, thanks\n", "u0@x")
# linux-rdma's "I took ..." (Y9P6bGbtTNYIdoWN@nvidia.com), not "I took it
# to mean"; a shortlog of two authors split under the first's
# (ZHkhjTvi8vNAmmEC@nvidia.com)
patch("tk@x", "lib: took", 11)
answer("tk-n@x", "tk@x", "lib: took", 12,
       "I took it to for-next, but I made these changes, please check:")
patch("tm@x", "lib: took to mean", 11)
answer("tm-n@x", "tm@x", "lib: took to mean", 12,
       "I took it to mean the opposite.")
series("m", "lib: two authors", 11,
       ["lib: by ann, one", "lib: by ann, two", "lib: by bob"])
mail("m-n@x", MAY, "Re: [PATCH 0/3] lib: two authors", 12,
     "> Ann Author (2):\n>       lib: by ann, one\n"
     ">       lib: by ann, two\n\nI took these two\n\n"
     "> Bob Builder (1):\n>       lib: by bob\n\n"
     "Don't know what to do with this one\n", "m0@x")
# a series without a cover letter: the b4 ty below patch 1/2 names 2/2
# too (linux-rdma, 168052561618.175957.10886078005080789036.b4-ty)
patch("c1@x", "lib: first, no cover", 11, "PATCH 1/2")
patch("c2@x", "lib: second, no cover", 11, "PATCH 2/2", "c1@x")
mail("c-ty@x", MAY, "Re: [PATCH 1/2] lib: first, no cover", 12,
     "Applied, thanks!\n\n[1/2] lib: first, no cover\n"
     "      commit: 1111111111ab\n[2/2] lib: second, no cover\n"
     "      commit: 2222222222ab\n", "c1@x")
# b4 ty q-encodes a long In-Reply-To, folded (linux-rdma,
# 168103607661.170852.10541162686308465242.b4-ty): still its parent
patch("a-long-message-id-that-b4-encodes.1234567890@example.org",
      "lib: encoded parent", 11)
msgs.append("From x Mon Jan  1 00:00:00 2024\nFrom: " + MAY +
            "\nSubject: Re: [PATCH] lib: encoded parent\n"
            "Message-ID: <e-ty@x>\n"
            "Date: Fri, 12 Jan 2024 10:00:00 +0000\nIn-Reply-To: "
            "=?utf-8?q?=3Ca-long-message-id-that-b4-encodes=2E123?=\n"
            " =?utf-8?q?4567890=40example=2Eorg=3E?=\n\n"
            "Applied, thanks!\n\n[1/1] lib: encoded parent\n"
            "      commit: 3333333333ab\n")
# a pull request's own shortlog (linux-watchdog: its maintainer applies
# without a word, then asks Linus to pull; 20260216132051.GA30445@...),
# from anyone; not a patch posted after it, nor a shortlog quoted in an
# answer to a pull request
patch("pl1@x", "lib: pulled one", 13)
patch("pl2@x", "lib: pulled two", 13)
patch("pl3@x", "lib: posted after the pull", 20)
patch("pl4@x", "lib: only quoted", 13)
PETE = "Pete Puller <pete@example.com>"
mail("pull@x", PETE, "[GIT PULL] lib fixes for 6.8", 15,
     "The following changes since commit 0123456789ab:\n\n"
     "  lib: posted after the pull (2024-01-01 10:00:00 +0000)\n\n"
     "are available in the Git repository at:\n\n"
     "  git://git.example.org/lib.git tags/lib-6.8\n\n"
     "----------------------------------------------------------------\n"
     "Ann Author (2):\n      lib: pulled one\n      lib: pulled two\n\n"
     "Bob Builder (1):\n      lib: posted after the pull\n\n"
     " lib/a.c | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)")
mail("pull-re@x", MAY, "Re: [GIT PULL] lib fixes for 6.8", 16,
     "> Ann Author (1):\n>       lib: only quoted\n\nWhy this one?",
     "pull@x")

mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as f:
    f.write("\n".join(msgs))

r = run("review", "--tree", tree, "--archive", mbox, "--json", "--no-cache",
        "--until", "2024-01-31")
eq(r.rc, 0, "review exits 0")
pl = {p["message_id"]: p for p in r.json()["entries"][0]["patch_list"]}
accepted = {m for m, p in pl.items() if p["state"] == "accepted"}
eq({m: pl[m]["state"] == "accepted" for m in
    ("h1@x", "h2@x", "h3@x", "u1@x", "u2@x")},
   {"h1@x": False, "h2@x": True, "h3@x": True, "u1@x": True, "u2@x": True},
   "a split quoted shortlog: its applied line answers the items above it "
   "(a wrapped subject too), not the one above 'This needs to be resent.'; "
   "quoted whole, the series")
eq([pl[m]["state_evidence"]["message_id"] for m in ("h2@x", "u1@x")],
   ["h-n@x", "u-n@x"], "each decided by its answer")
ENC = "a-long-message-id-that-b4-encodes.1234567890@example.org"
eq([(pl[m]["state"], (pl[m]["state_evidence"] or {}).get("commit"))
    for m in ("c1@x", "c2@x", ENC)],
   [("accepted", "1111111111ab"), ("accepted", "2222222222ab"),
    ("accepted", "3333333333ab")],
   "a b4 ty below patch 1/2 of a series without a cover letter accepts "
   "2/2 as well; a q-encoded In-Reply-To is decoded")
eq({m: pl[m]["state"] == "accepted" for m in
    ("tk@x", "tm@x", "m1@x", "m2@x", "m3@x")},
   {"tk@x": True, "tm@x": False, "m1@x": True, "m2@x": True, "m3@x": False},
   "'I took it to for-next', not 'I took it to mean'; 'I took these two' "
   "under the first author's items of a split shortlog, not the second's")
eq([(pl[m]["state"], (pl[m]["state_evidence"] or {}).get("message_id"))
    for m in ("pl1@x", "pl2@x", "pl3@x", "pl4@x")],
   [("accepted", "pull@x"), ("accepted", "pull@x"), ("waiting", None),
    ("ignored", None)],
   "a pull request's shortlog accepts the patches it names, posted before "
   "it; not one posted after, nor a shortlog quoted in an answer")
accepted -= {"pl1@x", "pl2@x"}
accepted -= {"h2@x", "h3@x", "u1@x", "u2@x", "c1@x", "c2@x", ENC, "tk@x",
             "m1@x", "m2@x"}
eq(sorted(accepted), sorted(["pu@x", "me@x", "bo@x", "ch@x", "fi@x", "on@x",
                             "sm@x", "s1@x", "s3@x"]),
   "accepted: Pushed, merged after thanks, Applied both to, Pushed with, "
   "Finally merged, Merged this one, Finally merged :)., and the two "
   "patches the b4 ty names")
eq([pl[m]["state_evidence"]["message_id"] for m in
    ("pu@x", "me@x", "bo@x", "ch@x", "fi@x", "on@x", "sm@x", "s1@x",
     "s3@x")],
   ["pu-n@x", "me-n@x", "bo-n@x", "ch-n@x", "fi-n@x", "on-n@x", "sm-n@x",
    "ty@x", "ty@x"],
   "each decided by its notice")
eq([pl[m]["state_evidence"].get("commit") for m in ("s1@x", "s3@x", "pu@x")],
   ["0123456789ab", "fedcba987654", None],
   "the commit id each b4 ty item gives; none from a notice in words")
eq(pl["s2@x"]["state"], "waiting",
   "the patch of the series the b4 ty does not name stays open")
eq({m: pl[m]["state"] != "accepted" for m in
     ("wr@x", "qu@x", "ms@x", "in@x", "qt@x")},
   {"wr@x": True, "qu@x": True, "ms@x": True, "in@x": True, "qt@x": True},
   "no notice: a wrapped sentence, a question, words after a smiley, "
   "'Merged ... into', quoted")
eq({m: pl[m]["state"] for m in ("as@x", "an@x", "th@x", "ri@x", "ol@x")},
   {"as@x": "changes_requested", "an@x": "waiting", "th@x": "waiting",
    "ri@x": "changes_requested", "ol@x": "waiting"},
   "changes requested by a listed person or a reviewer; not when the "
   "author answered, nor by thanks, nor by someone who never reviewed")
eq([pl[m]["state_evidence"]["message_id"] for m in ("as@x", "ri@x")],
   ["as-q@x", "ri-q@x"], "the request is the evidence")

# the states by month (--by), and in the report
args = ["--tree", tree, "--archive", mbox, "--no-cache", "--until",
        "2024-01-31"]
r = run("review", *args, "--by", "month", "--json")
iv = r.json()["entries"][0]["intervals"]
eq((iv[0]["states"]["accepted"], iv[0]["open"]),
   (21, len(pl) - 21),
   "--by month: each interval's states and open queue")
r = run("review", *args, "--by", "month")
eq("accepted" in r.out.split("By month")[1].split("\n")[1], True,
   "--by month's text has an accepted column")
out = os.path.join(tmp, "site")
r = run("report", *args, "--output-dir", out)
eq(r.rc, 0, "report exits 0")
with open(os.path.join(out, "entry-0.html")) as f:
    page = f.read()
with open(os.path.join(out, "index.html")) as f:
    index = f.read()
eq(('id="states"' in page, "<td>accepted (0123456789ab)</td>" in page,
    "Open patches (accepted of decided)" in index),
   (True, True, True), "report: the entry's states section, each patch's "
   "state with its commit, and the overview's open column")

# a warm pending prints the result kept in the store (planted: a served
# result shows the marker); another --person is another result
os.environ["MS_TEST_CLOCK_AHEAD"] = "3"  # the archive is not racy
db = os.path.join(tmp, "p.sqlite")
pargs = ["pending", "--tree", tree, "--archive", mbox, "--until",
         "2024-01-31", "--json", "--db", db]
cold = run(*pargs).out
ok(result_plant(db, "result:pending:json"), "pending keeps its result")
eq(run(*pargs).out, "PLANTED RESULT\n", "a warm pending is served")
eq(run(*pargs, "--person", "may@example.org").out,
   run(*pargs, "--person", "may@example.org", "--no-cache").out,
   "--person: its own result")
eq(cold, run(*pargs, "--no-cache").out, "cold = --no-cache")
done()
