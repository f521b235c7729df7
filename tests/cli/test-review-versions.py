#!/usr/bin/env python3
"""Which postings review takes for versions of one patch (issue 35,
docs/review.md "Versions"), on a planted tree and list: a v2 renamed in
a series linked by b4's change-id, a v2 cover letter sent in reply to the
v1 cover, a resend with a new subject and the same diff, a v2 whose
changelog links its v1 ("Link to v1: URL"), a v2 patch sent in reply to
the v1 cover letter, a lone patch renamed in each of its v2 and v3 (each
a thread of its own), a maintainer
reworking a contributor's patch under their own name; and what stays
apart: two patches of one posting with one subject, one subject on
the same files two years apart, and a v2 on a file whose earlier patch
names another component in other words; and, in a repository, a v2 of
a lone patch's component on its files after that patch was applied: a
new patch, applied too; and a cover-less series' renamed v2 patch on
the files of its applied v1 patch: a new patch."""
import os
import sys
sys.path.insert(0, os.path.dirname(__file__))
import subprocess
from mstest import run, ok, eq, done, tmpdir, git_commit  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
FILES = ["drivers/foo/a.c", "drivers/foo/b.c", "drivers/foo/c.c",
         "drivers/foo/d.c", "drivers/foo/e.c", "drivers/foo/f.c",
         "drivers/foo/g.c", "drivers/foo/h.c", "drivers/foo/i.c",
         "drivers/foo/j.c", "drivers/foo/k.c", "drivers/foo/l.c"]
for f in FILES:
    os.makedirs(os.path.dirname(os.path.join(tree, f)), exist_ok=True)
    with open(os.path.join(tree, f), "w") as fp:
        fp.write("int x;\n")
with open(os.path.join(tree, "MAINTAINERS"), "w") as fp:
    fp.write("FOO DRIVER\nM:\tFay Foo <fay@example.org>\nS:\tMaintained\n"
             "F:\tdrivers/foo/\n")

ANN = "Ann Author <ann@example.com>"
FAY = "Fay Foo <fay@example.org>"
msgs = []


def mail(mid, who, subj, day, body, parent=None, extra=""):
    hdr = (f"From: {who}\nTo: foo@lists.example.org\nSubject: {subj}\n"
           f"Date: Mon, {day:02d} Jan 2024 10:00:00 +0000\n"
           f"Message-ID: <{mid}>\n")
    if parent:
        hdr += f"In-Reply-To: <{parent}>\nReferences: <{parent}>\n"
    msgs.append("From mboxrd@z Thu Jan  1 00:00:00 1970\n" + hdr + "\n" +
                body + extra + "\n")


def patch(mid, who, subj, day, path, line, parent=None, extra=""):
    mail(mid, who, subj, day, "A change.\n\nSigned-off-by: " + who +
         f"\n---\ndiff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
         f"@@ -1 +1,2 @@\n int x;\n+{line}\n", parent, extra)


# 1: a b4 series (change-id in the cover letters); v2 renames patch 2
CID = "\nchange-id: 20240101-foo-1234\n"
mail("s1-0@x", ANN, "[PATCH 0/2] foo: widgets", 1, "Two parts.\n" + CID)
patch("s1-1@x", ANN, "[PATCH 1/2] foo: add widget", 1, FILES[0], "int w;",
      "s1-0@x")
patch("s1-2@x", ANN, "[PATCH 2/2] foo: update widget stuffs", 1, FILES[1],
      "int u;", "s1-0@x")
mail("s2-0@x", ANN, "[PATCH v2 0/2] foo: widgets", 5,
     "Two parts, again.\n" + CID)
patch("s2-1@x", ANN, "[PATCH v2 1/2] foo: add widget", 5, FILES[0],
      "int w2;", "s2-0@x")
patch("s2-2@x", ANN, "[PATCH v2 2/2] foo: better widget stuffs", 5,
      FILES[1], "int u2;", "s2-0@x")
# 2: a v2 cover letter in reply to the v1 cover (no change-id, new title)
mail("t1-0@x", ANN, "[PATCH 0/1] foo: gadgets", 2, "One part.\n")
patch("t1-1@x", ANN, "[PATCH 1/1] foo: gadget fix", 2, FILES[2], "int g;",
      "t1-0@x")
mail("t2-0@x", ANN, "[PATCH v2 0/1] foo: gadgets, reworked", 6,
     "One part, reworked.\n", "t1-0@x")
patch("t2-1@x", ANN, "[PATCH v2 1/1] foo: fix the gadget", 6, FILES[2],
      "int g2;", "t2-0@x")
# 3: the same diff again with a corrected subject
patch("r1@x", ANN, "[PATCH] foo: remove unneeded semicolon", 3, FILES[3],
      "int r;")
patch("r2@x", ANN, "[PATCH v2] foo: remove duplicated include", 4, FILES[3],
      "int r;")
# 4: the maintainer reworks Ann's patch under her own name
patch("m1@x", ANN, "[PATCH] foo: convert to the new api", 7, FILES[4],
      "int m;")
patch("m2@x", FAY, "[PATCH v2] foo: convert to the new api", 9, FILES[4],
      "int m2;")
# 5: a v2 whose changelog links its v1 (b4's "Link to v1:"), renamed and
# on other files
patch("k1@x", ANN, "[PATCH] foo: frob the bar", 8, FILES[1], "int k;")
patch("k2@x", ANN, "[PATCH v2] foo: rework bar frobbing", 11, FILES[2],
      "int k2;", extra="")
msgs[-1] = msgs[-1].replace("A change.\n", "A change.\n\nChanges in v2:\n"
                            "- moved to c.c\n- Link to v1: "
                            "https://lore.kernel.org/r/k1@x\n")
# 6: a v2 patch sent in reply to the v1 cover letter, into its thread
# (LTP, 20220309030440.4166954-1-liwang@redhat.com)
mail("u1-0@x", ANN, "[PATCH 0/2] foo: conf", 12, "Two parts.\n")
patch("u1-1@x", ANN, "[PATCH 1/2] foo: move conf inside", 12, FILES[3],
      "int u1;", "u1-0@x")
patch("u1-2@x", ANN, "[PATCH 2/2] foo: use the conf", 12, FILES[4],
      "int u12;", "u1-0@x")
patch("u2-1@x", ANN, "[PATCH v2 1/1] foo: move conf inside", 13, FILES[3],
      "int u2;", "u1-0@x")
# 7: a lone patch renamed in its v2 and v3, each in a new thread (LTP's
# ioctl_pidfd06, Jan Polensky, Feb 2026): half the words, then the
# component alone
patch("e1@x", ANN, "[PATCH] foo_paths01: expect ENOENT for bad paths", 14,
      FILES[6], "int e1;")
patch("e2@x", ANN, "[PATCH v2] foo_paths01: accept ENOENT or EINVAL for "
      "bad paths", 15, FILES[6], "int e2;")
patch("e3@x", ANN, "[PATCH v3] foo_paths01: select the errno", 16,
      FILES[6], "int e3;")
# apart: a renamed v2 that has its own v3 already, when the component is
# the subsystem's ("foo: ", on most patches of the list): linux-erofs's
# Chunhai Guo, "erofs: allocate more short-lived pages ..." (Sep 2024),
# then "[PATCH v2] erofs: free pclusters if no cached folio attached" and
# its v3 to v6 (Nov 2024), another patch whose v1 had another file set
patch("c1@x", ANN, "[PATCH] foo: allocate more pages from the pool", 17,
      FILES[11], "int c1;")
patch("c2@x", ANN, "[PATCH v2] foo: free clusters once nothing is cached",
      19, FILES[11], "int c2;")
patch("c3@x", ANN, "[PATCH v3] foo: free clusters once nothing is cached",
      20, FILES[11], "int c3;")
# 8: a lone patch renamed in its v2, its v3 under the new name: the v2
# starts a patch that already has a later version (LTP's prctl06, Yang Xu,
# May-July 2019: "syscalls/prctl06.c: New test ..." then v3 and v4 as
# "syscalls/prctl06: New test ...")
patch("g1@x", ANN, "[PATCH] foo/i.c: new test for gizmo limits", 17,
      FILES[8], "int g1;")
patch("g2@x", ANN, "[PATCH v2] foo/i: new test for gizmo limits", 18,
      FILES[8], "int g2;")
patch("g3@x", ANN, "[PATCH v3] foo/i: new test for gizmo limits", 19,
      FILES[8], "int g3;")
# 9: a series without a cover letter whose v2 renames its first patch
# (so no family: LTP's "lib: add .needs_hugepages ..." v2 1/2, then v3
# 1/2 ".request_hugepages", Dec 2019); the same from another sender
# stays apart
BOB = "Bob Other <bob@example.com>"
patch("n1-1@x", ANN, "[PATCH 1/2] foo: add a knob for widgets", 20,
      FILES[9], "int n1;")
patch("n1-2@x", ANN, "[PATCH 2/2] foo: use the widget knob", 20, FILES[10],
      "int n12;", "n1-1@x")
patch("n2-1@x", ANN, "[PATCH v2 1/2] foo: add a knob helper for widgets",
      22, FILES[9], "int n2;")
patch("n2-2@x", ANN, "[PATCH v2 2/2] foo: use the widget knob", 22,
      FILES[10], "int n22;", "n2-1@x")
patch("n3-1@x", BOB, "[PATCH v3 1/2] foo: add knob helpers for widgets",
      23, FILES[9], "int n3;")
patch("n3-2@x", BOB, "[PATCH v3 2/2] foo: rework widgets", 23,
      FILES[10], "int n32;", "n3-1@x")
# apart: a v2 on a file whose earlier patch is of another component, in
# other words
patch("h1@x", ANN, "[PATCH] lib: frob widgets", 14, FILES[7], "int h1;")
patch("h2@x", ANN, "[PATCH v2] core: unrelated rework", 16, FILES[7],
      "int h2;")
# apart: two patches of one posting with one subject
mail("p0@x", ANN, "[PATCH 0/2] foo: silence warnings", 10, "Two.\n")
patch("p1@x", ANN, "[PATCH 1/2] foo: silence INTEGER_OVERFLOW", 10,
      FILES[5], "int p1;", "p0@x")
patch("p2@x", ANN, "[PATCH 2/2] foo: silence INTEGER_OVERFLOW", 10,
      FILES[0], "int p2;", "p0@x")
mbox = os.path.join(tmp, "list.mbox")
with open(mbox, "w") as fp:
    fp.write("".join(msgs))
# ... and one subject on the same files two years apart (another list)
old = os.path.join(tmp, "old.mbox")
msgs.clear()
patch("d1@x", FAY, "[PATCH] foo: update documentation", 3, FILES[5],
      "int d1;")
text = msgs[0].replace("Jan 2024", "Jan 2022")
msgs.clear()
patch("d2@x", ANN, "[PATCH] foo: update documentation", 3, FILES[5],
      "int d2;")
with open(old, "w") as fp:
    fp.write(text + msgs[0])

r = run("review", "--tree", tree, "--archive", mbox, "--archive", old,
        "--json", "--no-cache", "--since", "2021-01-01")
eq(r.rc, 0, "review exits 0")
foo = r.json()["entries"][0]
versions = {p["message_id"]: p["versions"] for p in foo["patch_list"]}
by_msg = {v: tuple(vs) for vs in versions.values() for v in vs}


def same(a, b, what):
    ok(a in by_msg and b in by_msg[a], what, str(by_msg.get(a)))


def apart(a, b, what):
    ok(a in by_msg and b in by_msg and b not in by_msg[a], what,
       str(by_msg.get(a)))


same("s1-2@x", "s2-2@x", "a v2 renamed in a change-id series (same place, "
     "same files, half the words) is a version")
same("s1-1@x", "s2-1@x", "its unrenamed sibling too")
same("t1-1@x", "t2-1@x", "a v2 whose cover letter answers the v1 cover")
same("r1@x", "r2@x", "the same diff with a corrected subject")
same("k1@x", "k2@x", "a v2 whose changelog says 'Link to v1: URL'")
same("m1@x", "m2@x", "the maintainer's rework under her own name (same "
     "subject, same files)")
same("u1-1@x", "u2-1@x", "a v2 patch sent in reply to the v1 cover "
     "letter")
same("e1@x", "e2@x", "a lone patch's v2, renamed in a new thread (half "
     "the words, same files, same sender)")
same("e1@x", "e3@x", "... and its v3, renamed again (the component)")
same("g1@x", "g2@x", "a lone patch's renamed v2 whose v3 keeps the new "
     "name: still the v1's next version")
same("g1@x", "g3@x", "... and so is the v3")
same("n1-1@x", "n2-1@x", "a series without a cover letter: its v2's "
     "renamed first patch (same files, half the words) is a version")
apart("n1-1@x", "n3-1@x", "... not another sender's posting on those "
      "files")
apart("c1@x", "c2@x", "a renamed v2 with a v3 of its own, on the same "
      "file, whose only common ground is the subsystem's component")
apart("h1@x", "h2@x", "a v2 on the same file of another component in "
      "other words")
apart("p1@x", "p2@x", "two patches of one posting with one subject")
apart("d1@x", "d2@x", "one subject on the same files two years apart")
eq(foo["patches"], 22, "22 patches: widget x2, gadget, semicolon, api, "
   "bar, conf x2, errno, gizmo limits, knob x2, Bob's two, pool and "
   "clusters, lib and core, two silences, two documentation updates")
api = [p for p in foo["patch_list"] if "m1@x" in p["versions"]][0]
eq(api["author"]["email"], "ann@example.com", "the reworked patch stays Ann's")

# (6) never follows an applied patch: two applied patches are two patches
# (LTP's "waitid10: Fix when coredumps are piped" and "waitid10: raise
# SIGFPE directly")
repo = os.path.join(tmp, "repo")
subprocess.run(["git", "init", "-q", repo], check=True)
JAN = 1704067200            # 2024-01-01 00:00 UTC
git_commit(repo, "MAINTAINERS", open(os.path.join(tree, "MAINTAINERS")).read(),
           "add MAINTAINERS", "Fay Foo", "fay@example.org", JAN)
git_commit(repo, "drivers/foo/z.c", "int x;\n", "add z.c", "Fay Foo",
           "fay@example.org", JAN)
msgs.clear()
mail("z1@x", ANN, "[PATCH] foo: fix the frob", 18, "A change.\n\n"
     "Signed-off-by: " + ANN + "\n---\ndiff --git a/drivers/foo/z.c "
     "b/drivers/foo/z.c\n--- a/drivers/foo/z.c\n+++ b/drivers/foo/z.c\n"
     "@@ -1 +1,2 @@\n int x;\n+int a1;\n")
mail("z2@x", ANN, "[PATCH v2] foo: rework bar handling", 21, "A change.\n\n"
     "Signed-off-by: " + ANN + "\n---\ndiff --git a/drivers/foo/z.c "
     "b/drivers/foo/z.c\n--- a/drivers/foo/z.c\n+++ b/drivers/foo/z.c\n"
     "@@ -1,2 +1,3 @@\n int x;\n int a1;\n+int a2;\n")
git_commit(repo, "drivers/foo/z.c", "int x;\nint a1;\n",
           "foo: fix the frob\n\nSigned-off-by: " + ANN, "Ann Author",
           "ann@example.com", JAN + 20 * 86400)
git_commit(repo, "drivers/foo/z.c", "int x;\nint a1;\nint a2;\n",
           "foo: rework bar handling\n\nSigned-off-by: " + ANN,
           "Ann Author", "ann@example.com", JAN + 22 * 86400)
# ... nor does a cover-less series' next version follow an applied patch
git_commit(repo, "drivers/foo/y.c", "int x;\n", "add y.c", "Fay Foo",
           "fay@example.org", JAN + 86400)


def ypatch(mid, subj, day, path, line, parent=None):
    mail(mid, ANN, subj, day, "A change.\n\nSigned-off-by: " + ANN +
         f"\n---\ndiff --git a/{path} b/{path}\n--- a/{path}\n"
         f"+++ b/{path}\n@@ -1 +1,2 @@\n int x;\n+{line}\n", parent)


ypatch("y1-1@x", "[PATCH 1/2] foo: add the frob knob", 18,
       "drivers/foo/y.c", "int k1;")
ypatch("y1-2@x", "[PATCH 2/2] foo: use the frob knob", 18,
       "drivers/foo/w.c", "int k12;", "y1-1@x")
ypatch("y2-1@x", "[PATCH v2 1/2] foo: add a frob knob helper", 24,
       "drivers/foo/y.c", "int k2;")
ypatch("y2-2@x", "[PATCH v2 2/2] foo: use the frob knob", 24,
       "drivers/foo/w.c", "int k22;", "y2-1@x")
git_commit(repo, "drivers/foo/y.c", "int x;\nint k1;\n",
           "foo: add the frob knob\n\nSigned-off-by: " + ANN, "Ann Author",
           "ann@example.com", JAN + 19 * 86400)
applied = os.path.join(tmp, "applied.mbox")
with open(applied, "w") as fp:
    fp.write("".join(msgs))
r = run("review", "--repo", repo, "--archive", applied, "--json",
        "--no-cache", "--since", "2024-01-01")
pl = r.json()["entries"][0]["patch_list"] if r.rc == 0 else []
got = {p["versions"][0]: (p["versions"], p["state"]) for p in pl}
eq((got.get("z1@x"), got.get("z2@x")),
   ((["z1@x"], "accepted"), (["z2@x"], "accepted")),
   "a v2 on the files of an applied lone patch is a new patch")
eq((got.get("y1-1@x"), (got.get("y2-1@x") or [None])[0]),
   ((["y1-1@x"], "accepted"), ["y2-1@x"]),
   "a cover-less series' renamed v2 patch on the files of an applied "
   "v1 patch is a new patch")
done()
