#!/usr/bin/env python3
"""maintstat maintainers against Xen's fork of get_maintainer.pl
(version 0.26-xen, $MS_XEN_SCRIPT: ../shared/data/get_maintainer-xen.pl),
on a synthetic Xen tree that plants every rule of the fork.

The tree (seeded, made anew each run) has a MAINTAINERS file with THE
REST and its `V: xen-maintainers-1`, entries of every status (and none),
names longer and shorter than the fork's 20 characters, reviewers,
people listed twice under other names or addresses, lists written as
`Name <list@x>`, moderated, subscribers-only, or without an address,
F:/X: patterns with `{a,b}` and `{,x}` braces, globs, directories, N:
regexes and K: keywords, a .mailmap, files that no entry but THE REST
covers; the fork's script is copied to its scripts/, so that maintstat
answers in Xen's dialect by itself.  Every file (at least 1,000) is put
to both with -f, and 20 patches in git format-patch form (new, deleted,
renamed and changed files, Fixes: lines, K: matches), each as its own
run, with the fork's defaults; then a sample again with its switches
(--rolestats, --remove-duplicates, --nodrop_the_rest_supporter,
--file-emails, --nomultiline...).  Byte for byte.

The oracle is the fork itself, patched as the kernel's is for the
conformance test (ties of equal depth broken by file order; a queue of
questions answered in one process); its answers are cached in $MS_CACHE
(keyed by the script, the tree's seed and the questions).
"""
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (MAINTSTAT, ok, eq, done, skip_all, tmpdir,  # noqa: E402
                    tree_files, get_maintainer_tiebreak,
                    get_maintainer_batch)

XEN_PL = os.environ.get("MS_XEN_SCRIPT",
                        "/work/shared/data/get_maintainer-xen.pl")
if not os.path.exists(XEN_PL) or not shutil.which("perl"):
    skip_all(f"Xen's get_maintainer.pl ({XEN_PL}) or perl is missing")
LINUX = os.environ.get("MS_LINUX_TREE")
CACHE = os.environ.get("MS_CACHE") or (
    os.path.dirname(os.path.abspath(LINUX)) if LINUX else None)

rng = random.Random(39)
PEOPLE = [("Ann Arbor", "ann@example.org"), ("Bo Chen", "bo@example.com"),
          ("Roger Pau Monné", "roger@example.net"), ("D. E. Fault",
                                                      "def@example.org"),
          ("Eve", "eve@example.org"), ("Fay O'Neil", "fay@example.org"),
          ("Gus", "GUS@Example.org"), ("Gus Again", "gus@example.org"),
          ("Hal", "hal@old.example.org"), ("Ivy", "ivy@example.org")]
LISTS = ["xen-devel@lists.example.org", "Team Z <team@z.example.org>",
         "arm@lists.example.org (moderated for non-subscribers)",
         "sec@lists.example.org (subscribers-only)", "no address here",
         "minios-devel@lists.example.org"]
STATUS = ["Supported", "Maintained", "Odd Fixes", "Orphan", "Obsolete",
          "Supported", None]
DIRS = ["xen/arch/arm", "xen/arch/x86", "xen/common", "xen/drivers/char",
        "tools/libs/ctrl", "tools/xl", "docs/misc", "xen/include/public",
        "stubdom", "automation/gitlab-ci"]
STEMS = ["core", "irq", "mm", "sched", "kexec", "kimage", "vpci", "iommu",
         "trace", "domain"]


def person():
    n, a = rng.choice(PEOPLE)
    return rng.choice([f"{n} <{a}>", a, f"{n} <{a}>"])


def make_tree(root):
    files = set()
    entries = []
    for i in range(40):
        name = rng.choice(["ARM", "X86 MEMORY MANAGEMENT AND PAGING",
                           "KEXEC", "SCHEDULING (CREDIT2)",
                           "VPCI", "IOMMU VENDOR SPECIFIC DRIVERS",
                           "LIBXENCTRL", "XL", "DOCS AND STUFF    TRAILING",
                           "CI"]) + f" {i}"
        d = rng.choice(DIRS)
        a, b, c = rng.sample(STEMS, 3)
        fields = []
        for _ in range(rng.randint(0, 3)):
            fields.append("M:\t" + person())
        for _ in range(rng.randint(0, 2)):
            fields.append("R:\t" + person())
        for _ in range(rng.randint(0, 2)):
            fields.append("L:\t" + rng.choice(LISTS))
        st = rng.choice(STATUS)
        if st:
            fields.append("S:\t" + st)
        kind = i % 8
        if kind == 0:
            pats = [f"F:\t{d}/{{{a},{b}}}.c"]
            files |= {f"{d}/{a}.c", f"{d}/{b}.c", f"{d}/{c}.c"}
        elif kind == 1:
            pats = [f"F:\t{d}/{{{a},{b},{c}}}/"]
            files |= {f"{d}/{x}/f{i}.c" for x in (a, b, c, "other")}
        elif kind == 2:
            pats = [f"F:\t{d}/{a}{{,-x86}}.h"]
            files |= {f"{d}/{a}.h", f"{d}/{a}-x86.h", f"{d}/{a}-arm.h"}
        elif kind == 3:
            pats = [f"F:\t{d}/", f"X:\t{d}/{{{a},{b}}}*"]
            files |= {f"{d}/{a}1.c", f"{d}/{b}.S", f"{d}/{c}.c"}
        elif kind == 4:
            pats = [f"F:\t{d}/*{a}*", f"F:\t{d}/?{b}.c"]
            files |= {f"{d}/x{a}y.c", f"{d}/z{b}.c", f"{d}/zz{b}.c"}
        elif kind == 5:
            pats = [f"N:\t{a}", f"F:\t{d}/{b}.c"]
            files |= {f"{d}/{b}.c", f"tools/misc/{a}-tool.c"}
        elif kind == 6:
            pats = [f"F:\t{d}/{a}.c", f"K:\t\\b{a}_frob\\b"]
            files |= {f"{d}/{a}.c", f"{d}/{a}_frob.txt"}
        else:
            pats = [f"F:\t{d}/{{{a}/,{b}/}}"]
            files |= {f"{d}/{a}/x.c", f"{d}/{b}/y/z.c"}
        if rng.random() < 0.2:
            fields.append("T:\tgit https://xenbits.example.org/" + a)
        if rng.random() < 0.2:
            fields.append("W:\thttps://wiki.example.org/" + b)
        entries.append(f"{name}\n" + "\n".join(fields + pats) + "\n")
    rest = ("THE REST\n"
            "M:\tAndrew Cooper <andrew.cooper3@example.com>\n"
            "M:\tJan Beulich <jbeulich@example.com>\n"
            "M:\tRoger Pau Monné <roger@example.net>\n"
            "R:\tIvy <ivy@example.org>\n"
            "L:\txen-devel@lists.example.org\n"
            "S:\tSupported\n"
            "F:\t*\n"
            "F:\t*/\n"
            "V:\txen-maintainers-1\n")
    text = ("\tXen Project maintainers (synthetic)\n\n"
            "\tM: Mail patches to\n\n"
            + "\n".join(entries[:20]) + "\n" + rest + "\n"
            + "\n".join(entries[20:]))
    os.makedirs(os.path.join(root, "scripts"))
    with open(os.path.join(root, "MAINTAINERS"), "w") as f:
        f.write(text)
    shutil.copy(XEN_PL, os.path.join(root, "scripts", "get_maintainer.pl"))
    with open(os.path.join(root, ".mailmap"), "w") as f:
        f.write("Hal Newname <hal@example.org> <hal@old.example.org>\n"
                "Bo Chen <bo@example.com> Bo <bo@old.example.com>\n")
    for d in DIRS:
        for k in range(rng.randint(90, 140)):
            files.add(f"{d}/{rng.choice(STEMS)}{k}.{rng.choice('chS')}")
    files |= {"README", "COPYING", "Config.mk", "tools/misc/x.c"}
    for p in sorted(files):
        full = os.path.join(root, p)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w") as f:
            f.write(f"/* {p} */\n")
            if rng.random() < 0.1:
                f.write(f"{rng.choice(STEMS)}_frob();\n")
            if rng.random() < 0.1:
                n, a = rng.choice(PEOPLE)
                f.write(f" * Copyright (c) {n} <{a}>\n")
    return text


def make_patch(i, files):
    """A git format-patch mail touching a few files."""
    chosen = rng.sample(files, rng.randint(1, 4))
    out = [f"From {i:040x} Mon Sep 17 00:00:00 2001",
           "From: Someone <someone@example.org>",
           f"Subject: [PATCH] touch {len(chosen)} files",
           "", "Body text mentioning core_frob." if i % 3 == 0 else "Body.",
           ""]
    if i % 4 == 0:
        out.append("Fixes: 0123456789ab (\"irq_frob: something\")")
    out += ["Signed-off-by: Someone <someone@example.org>", "---", ""]
    for k, f in enumerate(chosen):
        kind = (i + k) % 5
        if kind == 0:
            out += [f"diff --git a/{f} b/{f}", "new file mode 100644",
                    "--- /dev/null", f"+++ b/{f}", "@@ -0,0 +1 @@",
                    "+mm_frob();"]
        elif kind == 1:
            out += [f"diff --git a/{f} b/{f}", "deleted file mode 100644",
                    f"--- a/{f}", "+++ /dev/null", "@@ -1 +0,0 @@",
                    "-gone"]
        elif kind == 2:
            g = rng.choice(files)
            out += [f"diff --git a/{f} b/{g}", "similarity index 90%",
                    f"rename from {f}", f"rename to {g}", f"--- a/{f}",
                    f"+++ b/{g}", "@@ -1 +1 @@", "-a", "+b"]
        elif kind == 3:
            out += [f"diff --git a/{f} b/{f}", "old mode 100644",
                    "new mode 100755"]
        else:
            out += [f"diff --git a/{f} b/{f}", "index 1..2 100644",
                    f"--- a/{f}", f"+++ b/{f}", "@@ -1,2 +1,2 @@",
                    " ctx", "-sched_frob();", "+sched_frob(1);"]
    out += ["-- ", "2.39.2", ""]
    return "\n".join(out)


tmp = tmpdir()
tree = os.path.join(tmp, "xen")
os.makedirs(tree)
mtext = make_tree(tree)
files = [f for f in tree_files(tree) if not f.startswith("scripts/")]
ok(len(files) >= 1000, f"the synthetic tree has {len(files)} files")
pdir = os.path.join(tmp, "patches")
os.makedirs(pdir)
patches = []
for i in range(20):
    p = os.path.join(pdir, f"{i:02d}.patch")
    with open(p, "w") as f:
        f.write(make_patch(i, files))
    patches.append(p)

with open(XEN_PL) as f:
    script = get_maintainer_tiebreak(f.read())
script = script and get_maintainer_batch(script)
ok(script is not None, "the fork has the sort and the loop the oracle "
   "copy changes")
batch = os.path.join(tmp, "get_maintainer-batch.pl")
with open(batch, "w") as f:
    f.write(script or "")

SWITCHES = [["--rolestats"], ["--remove-duplicates"],
            ["--nodrop_the_rest_supporter"], ["--roles", "--subsystem"],
            ["--file-emails"], ["--nomultiline"], ["--separator", " ; "],
            ["--git-chief-penguins", "--rolestats"], ["--nol", "--s"],
            ["--status", "--scm", "--web", "--noemail"], ["--non"],
            ["--nokeywords"], ["--nomailmap", "--remove-duplicates"]]


def questions():
    qs = [(["-f"], [f]) for f in files]
    qs += [([], [os.path.relpath(p, tree)]) for p in patches]
    sample = files[::40] + [os.path.relpath(p, tree) for p in patches[::4]]
    for sw in SWITCHES:
        for x in sample:
            qs.append((sw + ([] if x.startswith("..") else ["-f"]), [x]))
    return qs


def oracle(qs):
    """The fork's answers: one process per set of switches."""
    key = hashlib.sha256(json.dumps([script, mtext, qs, [
        open(p).read() for p in patches]]).encode()).hexdigest()[:24]
    cache = CACHE and os.path.join(CACHE, "oracle", f"xen-{key}.json")
    if cache and os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    groups = {}
    for k, (args, inp) in enumerate(qs):
        groups.setdefault(tuple(args), []).append((k, inp[0]))
    out = [None] * len(qs)
    for args, items in groups.items():
        qf = os.path.join(tmp, "queue")
        with open(qf, "w") as f:
            f.write("".join(x + "\n" for _, x in items))
        p = subprocess.run(["perl", batch, *args], cwd=tree,
                           capture_output=True,
                           env=dict(os.environ, ORACLE_QUEUE=qf,
                                    HOME=tmp))
        ans = p.stdout.decode("utf-8", "surrogateescape").split("\0\n")
        for (k, _), a in zip(items, ans):
            out[k] = a
    if cache:
        os.makedirs(os.path.dirname(cache), exist_ok=True)
        with open(cache + ".tmp", "w") as f:
            json.dump(out, f)
        os.replace(cache + ".tmp", cache)
    return out


qs = questions()
want = oracle(qs)
groups = {}
for k, (args, inp) in enumerate(qs):
    groups.setdefault(tuple(a for a in args if a != "-f"), []).append(k)
got = [None] * len(qs)
for args, ks in groups.items():
    paths = [k for k in ks if "-f" in qs[k][0]]
    if paths:
        p = subprocess.run([MAINTSTAT, "maintainers", "--tree", tree, *args,
                            "-f", "--each", "--json", "-"],
                           input="\n".join(qs[k][1][0] for k in paths
                                           ).encode(),
                           capture_output=True)
        ans = json.loads(p.stdout)["answers"] if p.returncode == 0 else []
        for k, a in zip(paths, ans):
            got[k] = a["text"]
    for k in ks:
        if "-f" not in qs[k][0]:
            p = subprocess.run([MAINTSTAT, "maintainers", "--tree", tree,
                                *args, os.path.join(tree, qs[k][1][0])],
                               capture_output=True)
            got[k] = p.stdout.decode("utf-8", "replace")
nf = len(files)
bad_files = [k for k in range(nf) if got[k] != want[k]]
bad_patches = [k for k in range(nf, nf + 20) if got[k] != want[k]]
bad_sw = [k for k in range(nf + 20, len(qs)) if got[k] != want[k]]


def show(ks):
    return [f"{' '.join(qs[k][0] + qs[k][1])}:\n  script: {want[k]!r}\n"
            f"  maintstat: {got[k]!r}" for k in ks[:3]]


ok(all(w for w in want[:nf]), "the fork answered every file")
eq(show(bad_files), [], f"0 of {nf} files differ from the fork's answer "
   f"({len(bad_files)} do)")
eq(show(bad_patches), [], f"0 of 20 patches differ ({len(bad_patches)} do)")
eq(show(bad_sw), [], f"0 of {len(qs) - nf - 20} answers with the fork's "
   f"switches differ ({len(bad_sw)} do)")
# the rules are planted: the answers show them
ok(any("supporter:THE REST" in (w or "") for w in want) and
   any(w and "Andrew Cooper" not in w and "@" in w for w in want[:nf]),
   "THE REST's supporters are both kept and dropped in the answers")
done()
