#!/usr/bin/env python3
"""maintstat maintainers takes get_maintainer.pl's options exactly as the
script's Getopt::Long does, per dialect, and nothing else.

The option tables are read from the real scripts: the kernel's
(linux-source-6.1, $MS_LINUX_TREE) and Xen's fork
($MS_XEN_SCRIPT, ../shared/data/get_maintainer-xen.pl).  From each
table's names come the spellings a user may try: --name, -name, other
cases, --noname, --no-name, every prefix of each name, --name=V, ---name
and a value after a switch.  Perl decides with the script's own
Getopt::Long configuration and table which of them the script takes;
maintstat must take exactly those (an option it takes but does not
reproduce exits 2 saying so, which still counts as taken) and refuse the
others as unknown.  Then every switch maintstat reproduces is put, in
each of its spellings, to the script itself on a small planted tree, and
must print the same bytes (the script's answers kept in $MS_CACHE).  An
ASan build is put every 4th spelling (each run costs it ten times a
normal one's start), the normal build every one.
"""
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (MAINTSTAT, ok, eq, done, skip_all, tmpdir,  # noqa: E402
                    sanitized_sample, SANITIZED)

LINUX = os.environ.get("MS_LINUX_TREE")
XEN_PL = os.environ.get("MS_XEN_SCRIPT",
                        "/work/shared/data/get_maintainer-xen.pl")
scripts = {}
if LINUX and os.path.exists(os.path.join(LINUX, "scripts",
                                         "get_maintainer.pl")):
    scripts["kernel"] = os.path.join(LINUX, "scripts", "get_maintainer.pl")
if os.path.exists(XEN_PL):
    scripts["xen"] = XEN_PL
if not scripts or not shutil.which("perl"):
    skip_all("neither the kernel's get_maintainer.pl ($MS_LINUX_TREE) nor "
             "Xen's ($MS_XEN_SCRIPT) is here, or no perl")


def table(path):
    """The script's Getopt::Long configuration line and option specs."""
    text = open(path, encoding="utf-8", errors="replace").read()
    conf = re.search(r"^use Getopt::Long[^;]*;", text, re.M).group(0)
    block = re.search(r"GetOptions\((.*?)\)\) \{", text, re.S).group(1)
    specs = re.findall(r"'([^']+)'\s*=>", block)
    return conf, specs


HARNESS = r"""
%s
use strict;
my @specs = @{%s};
while (my $line = <STDIN>) {
    chomp $line;
    local @ARGV = split /\x01/, $line, -1;
    my %%o;
    local $SIG{__WARN__} = sub {};
    my $ok = GetOptions(\%%o, @specs) && !@ARGV ? 1 : 0;
    print "$ok\n";
}
"""


def perl_takes(conf, specs, cands):
    code = HARNESS % (conf, "[" + ",".join(
        "'" + s + "'" for s in specs) + "]")
    p = subprocess.run(["perl", "-e", code], capture_output=True,
                       input="".join("\x01".join(c) + "\n" for c in cands),
                       text=True, check=True)
    return [x == "1" for x in p.stdout.split()]


def spellings(specs):
    """Every spelling worth trying, as argument lists."""
    out = set()
    names = set()
    for spec in specs:
        m = re.match(r"([\w|-]+)([!=:]?)(.*)", spec)
        alts, kind, typ = m.group(1).split("|"), m.group(2), m.group(3)
        value = "3" if typ == "i" else "x"
        for n in alts:
            names.add(n)
            forms = [n, "no" + n, "no-" + n, n.upper(), "No" + n.title()]
            for f in forms:
                dashes = ("--", "-") if f in (n, "no-" + n) else ("--",)
                for a in (d + f for d in dashes):
                    if kind in ("=", ":"):
                        out.add((a, value))
                        if f == n:
                            out.add((a + "=" + value,))
                            out.add((a + "=",))
                        if kind == ":":
                            out.add((a,))
                    else:
                        out.add((a,))
                        if f == n:
                            out.add((a + "=1",))
            out.add(("---" + n,))
            for k in range(1, len(n)):
                out.add(("--" + n[:k],))
            out.add(("--no-" + n[:-1],))
    for n in ("git-min-signatures", "git-min-percent"):
        out |= {("--" + n, "-3"), ("--" + n, "+3"), ("--" + n, "3x"),
                ("--" + n, "0x3"), ("--" + n + "= 3",)}
    # maintstat's own --tree DIR is not the script's --tree switch, and
    # --help, -h, --usage print help: the rest are compared
    drop = {("--tree",), ("--tree=1",), ("--tree=x",), ("--tree", "x")}
    return sorted(out - drop), names


def planted(tmp, dialect):
    """A tree both the script and maintstat answer on."""
    t = os.path.join(tmp, dialect)
    for d in ("Documentation", "arch", "include", "drivers", "fs", "init",
              "ipc", "kernel", "lib", "scripts", "drivers/foo", "xen"):
        os.makedirs(os.path.join(t, d), exist_ok=True)
    for f in ("COPYING", "CREDITS", "Kbuild", "Makefile", "README"):
        open(os.path.join(t, f), "w").write("x\n")
    open(os.path.join(t, "drivers/foo/foo.c"), "w").write(
        "/* Copyright Fred Flint <fred@example.org> */\nfoo_frob();\n")
    open(os.path.join(t, "drivers/foo/bar.c"), "w").write("bar\n")
    open(os.path.join(t, ".mailmap"), "w").write(
        "Alice Real <alice@example.org> <alice@old.example.org>\n")
    rest_v = "V:\txen-maintainers-1\n" if dialect == "xen" else ""
    open(os.path.join(t, "MAINTAINERS"), "w").write(
        "FOO DRIVER\n"
        "M:\tAlice <alice@old.example.org>\n"
        "M:\tBob <bob@example.org>\n"
        "R:\tCarol <carol@example.org>\n"
        "L:\tfoo@lists.example.org (moderated for non-subscribers)\n"
        "L:\tfoo-sub@lists.example.org (subscribers-only)\n"
        "S:\tMaintained\n"
        "W:\thttps://foo.example.org/\n"
        "T:\tgit git://foo.example.org/foo.git\n"
        "F:\tdrivers/foo/\n"
        "K:\tfoo_frob\n"
        "\n"
        "BAR PART\n"
        "M:\tbob@example.org\n"
        "M:\tBob Again <BOB@example.org>\n"
        "S:\tOdd Fixes\n"
        "F:\tdrivers/foo/bar.c\n"
        "\n"
        "THE REST\n"
        "M:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
        "M:\tRita Rest <rita@example.org>\n"
        "L:\tlinux-kernel@vger.kernel.org\n"
        "S:\tBuried alive in reporters\n"
        "F:\t*\n"
        "F:\t*/\n" + rest_v)
    shutil.copy(scripts[dialect], os.path.join(t, "scripts",
                                               "get_maintainer.pl"))
    return t


def ms(tree, args, inputs):
    p = subprocess.run([MAINTSTAT, "maintainers", "--tree", tree, *args,
                        *inputs], capture_output=True)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


# The script's answers are kept in $MS_CACHE (make check's cache), keyed
# by the planted tree's files and the arguments: the normal and the ASan
# suites (and later runs) ask perl once.
CACHE = os.environ.get("MS_CACHE")
answers_file = os.path.join(CACHE, "oracle", "cc-options.json") \
    if CACHE else None
script_answers = {}
used = set()
if answers_file and os.path.exists(answers_file):
    with open(answers_file) as f:
        script_answers = json.load(f)


def tree_digest(tree):
    h = hashlib.sha256()
    for d, dirs, files in sorted(os.walk(tree)):
        dirs.sort()
        h.update(os.path.relpath(d, tree).encode() + b"\0")
        for n in sorted(files):
            h.update(n.encode() + b"\0")
            with open(os.path.join(d, n), "rb") as f:
                h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


class Answer:
    def __init__(self, rc, out):
        self.returncode, self.stdout = rc, out


def script_answer(tree, args, env):
    """The tree's scripts/get_maintainer.pl run with `args` in `tree`."""
    k = json.dumps([tree_digest(tree), args])
    used.add(k)
    if k not in script_answers:
        p = subprocess.run(["perl", "scripts/get_maintainer.pl", *args],
                           cwd=tree, capture_output=True, env=env)
        script_answers[k] = [p.returncode, p.stdout.decode("latin-1")]
    rc, out = script_answers[k]
    return Answer(rc, out.encode("latin-1"))


REFUSED = ("unknown option", "unknown or incomplete option", "is not an option of", "invalid for option",
           "requires an argument", "does not take an argument")
tmp = tmpdir()
for dialect, path in scripts.items():
    conf, specs = table(path)
    ok("no_auto_abbrev" in conf, f"{dialect}: the script turns "
       "abbreviations off (what this test assumes of it)", conf)
    cands, names = spellings(specs)
    cands = sanitized_sample(cands, 4, f"{dialect}: the spellings tried")
    takes = perl_takes(conf, specs, cands)
    tree = planted(tmp, dialect)
    wrong = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
        answers = list(ex.map(lambda c: ms(tree, list(c), [
            "-f", "drivers/foo/foo.c"]), cands))
    for cand, want, (rc, out, err) in zip(cands, takes, answers):
        got = not (rc == 2 and any(w in err for w in REFUSED))
        if got != want:
            wrong.append(f"{' '.join(cand)}: script "
                         f"{'takes' if want else 'refuses'} it, maintstat "
                         f"{'takes' if got else 'refuses'} it ({err.strip()})")
    ok(len(cands) > (450 if not SANITIZED else 110),
       f"{dialect}: {len(cands)} spellings tried "
       f"({sum(takes)} the script takes)")
    eq(wrong[:10], [], f"{dialect}: maintstat takes exactly the spellings "
       "the script takes")

    # the same answer, for every spelling of every switch reproduced
    switches = ["email", "m", "r", "n", "l", "moderated", "s",
                "remove-duplicates", "mailmap", "k", "keywords", "fe",
                "file-emails", "multiline", "roles", "rolestats",
                "subsystem", "status", "scm", "web", "git-chief-penguins",
                "fixes", "tree", "git", "git-fallback",
                "drop_the_rest_supporter"]
    runs = []
    for sw in switches:
        if sw not in names:
            continue
        for form in ("--" + sw, "-" + sw.upper(), "--no" + sw,
                     "--no-" + sw):
            if form == "--tree":
                continue  # maintstat's --tree DIR
            extra = ["--scm"] if sw == "email" else []
            for inp in (["-f", "drivers/foo/foo.c"],
                        ["-f", "drivers/foo/bar.c"]):
                runs.append(([form, *extra], inp))
    runs += [(["--separator", " | "], ["-f", "drivers/foo/bar.c"]),
             (["--separator=, ", "--nomultiline"], ["-f", "drivers/foo/"]),
             (["--norolestats", "--roles", "--subsystem"],
              ["-f", "drivers/foo/foo.c"])]
    differ = []
    env = dict(os.environ, HOME=tmp)

    def both(run):
        args, inp = run
        return (script_answer(tree, ["--nogit", *args, *inp], env),
                ms(tree, ["--nogit", *args], inp))

    runs = sanitized_sample(runs, 2, f"{dialect}: the switches' runs")
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
        results = list(ex.map(both, runs))
    for (args, inp), (p, (rc, out, err)) in zip(runs, results):
        if p.returncode == 0 and out.encode() != p.stdout:
            differ.append(f"{' '.join(args + inp)}:\n  script: "
                          f"{p.stdout!r}\n  maintstat: {out!r} {err!r}")
        elif p.returncode != 0 and rc == 0:
            differ.append(f"{' '.join(args + inp)}: the script fails, "
                          f"maintstat answers")
    # the tree's .get_maintainer.conf: its options first, the command
    # line's after them (the script reads it from its directory)
    with open(os.path.join(tree, ".get_maintainer.conf"), "w") as f:
        f.write("# switches for everyone\n  --norolestats   --s # not --l\n"
                "--separator\n; \n")
    for args, inp in [([], ["-f", "drivers/foo/foo.c"]),
                      (["--rolestats"], ["-f", "drivers/foo/bar.c"]),
                      (["--separator", ", ", "--nos"],
                       ["-f", "drivers/foo/foo.c"])]:
        runs.append((args, inp))
        p, (rc, out, err) = both((args, inp))
        eq((rc, out), (0, p.stdout.decode()), f"{dialect}: "
           f".get_maintainer.conf, then {' '.join(args) or 'nothing'}")
    os.remove(os.path.join(tree, ".get_maintainer.conf"))
    # --git in a git work tree: every script adds git signers, which
    # maintstat reproduces (test-cc-git.py, test-cc-git-xen.py); asked on
    # the command line or by the tree's conf (U-Boot's says --git)
    os.mkdir(os.path.join(tree, ".git"))
    rc, out, err = ms(tree, ["--git"], ["-f", "drivers/foo/foo.c"])
    p, _ = both((["--git"], ["-f", "drivers/foo/foo.c"]))
    eq((rc, out), (0, p.stdout.decode()), f"{dialect}: --git in a (broken) "
       "git work tree: the script's answer")
    with open(os.path.join(tree, ".get_maintainer.conf"), "w") as f:
        f.write("--git\n")
    rc, out, err = ms(tree, [], ["-f", "drivers/foo/foo.c"])
    p, _ = both(([], ["-f", "drivers/foo/foo.c"]))
    eq((rc, out), (0, p.stdout.decode()), f"{dialect}: --git from "
       ".get_maintainer.conf in a git work tree: the script's answer")
    rc2, out2, err2 = ms(tree, ["--nogit"], ["-f", "drivers/foo/foo.c"])
    eq(rc2, 0, f"{dialect}: ... and --nogit answers")
    os.remove(os.path.join(tree, ".get_maintainer.conf"))
    os.rmdir(os.path.join(tree, ".git"))
    ok(len(runs) > 60, f"{dialect}: {len(runs)} runs with the switches")
    eq(differ[:5], [], f"{dialect}: every spelling of each switch gives the "
       "script's answer")
if answers_file:
    os.makedirs(os.path.dirname(answers_file), exist_ok=True)
    fd, part = tempfile.mkstemp(dir=os.path.dirname(answers_file))
    with os.fdopen(fd, "w") as f:
        json.dump({k: script_answers[k] for k in used}, f)
    os.replace(part, answers_file)
done()
