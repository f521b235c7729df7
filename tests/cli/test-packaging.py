#!/usr/bin/env python3
"""Packaging: `meson install` puts the binary, one man page per command
(rendered by man -l), the bash and zsh completion and the docs under the
prefix; the bash completion completes commands, options and entry names of
the tree's MAINTAINERS; --version names the commit."""
import os
import re
import shutil
import subprocess

from mstest import MAINTSTAT, SOURCE_ROOT, done, eq, ok, run, tmpdir

BUILD = os.environ.get("MS_BUILD_ROOT", os.path.dirname(MAINTSTAT))

# The commands, as `maintstat help` lists them.
r = run("help")
eq(r.rc, 0, "maintstat help exits 0")
commands = re.findall(r"^  ([a-z]+)  ", r.out, re.M)
ok(len(commands) >= 10, "maintstat help lists the commands", r.out)

# --version: the version and the commit it was built from
r = run("--version")
head = subprocess.run(["git", "-C", SOURCE_ROOT, "rev-parse", "HEAD"],
                      capture_output=True, text=True).stdout.strip()
m = re.match(r"maintstat (\d+\.\d+\.\d+) \(git ([0-9a-f]{12})", r.out)
ok(m and head.startswith(m.group(2)),
   "--version names the version and the commit built", (r.out, head))

# Install into a scratch directory, as a packager's DESTDIR would.
dest = tmpdir()
p = subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild",
                    "--quiet", "--destdir", dest],
                   capture_output=True, text=True)
eq(p.returncode, 0, "meson install --destdir succeeds")
if p.returncode:
    print("# " + p.stderr.replace("\n", "\n# "))
prefix = subprocess.run(["meson", "introspect", "--buildoptions", BUILD],
                        capture_output=True, text=True).stdout
import json
opts = {o["name"]: o["value"] for o in json.loads(prefix)}
root = dest + opts["prefix"]


def installed(rel):
    return os.path.join(root, rel)


ok(os.access(installed(os.path.join(opts["bindir"], "maintstat")), os.X_OK),
   "the binary is installed")
# the full program, which the quick `maintstat` hands most commands to
# (main-quick.c), where that one looks for it when not beside it
libexec = os.path.join(opts["prefix"], opts["libexecdir"], "maintstat")
full = installed(os.path.join(opts["libexecdir"], "maintstat",
                              "maintstat-full"))
ok(os.access(full, os.X_OK), "maintstat-full is installed in libexecdir")
with open(installed(os.path.join(opts["bindir"], "maintstat")), "rb") as f:
    ok((libexec + "\0").encode() in f.read(),
       "the installed maintstat looks for it there", libexec)
r = subprocess.run([full, "--version"], capture_output=True, text=True)
ok(r.returncode == 0 and r.stdout.startswith("maintstat "),
   "the installed maintstat-full runs", r.stdout + r.stderr)
# two programs: maintstat-full has every command and loads libcurl only
# when the network is used (fetch/http.c, dlopen)


def needed(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True,
                         text=True).stdout
    return sorted(l.split("[")[1].split("]")[0] for l in out.splitlines()
                  if "(NEEDED)" in l)


for gone in ("maintstat-net", "maintstat-mail"):
    ok(not os.path.exists(installed(os.path.join(
        opts["libexecdir"], "maintstat", gone))), f"no {gone} installed")
ok(needed(full) and not [l for l in needed(full) if "libcurl" in l],
   "maintstat-full does not load libcurl at its start", needed(full))
mbox = os.path.join(tmpdir(), "one.mbox")
with open(mbox, "w") as f:
    f.write("From a@b Thu Jan  1 00:00:00 2026\nFrom: A <a@example.org>\n"
            "Message-ID: <1@example.org>\nSubject: hello\n\nbody\n")
# alone (not beside the quick program nor installed in the prefix): it
# needs nothing else, the network's commands and mail included
alone = os.path.join(tmpdir(), "maintstat-full")
shutil.copy(full, alone)
for args, want in ((["fetch", "--help"], "Usage: maintstat fetch"),
                   (["coverage", "--help"], "check-urls"),
                   (["mail", "stats", "--no-cache", mbox], "messages: 1\n")):
    r = subprocess.run([alone] + args, capture_output=True, text=True)
    ok(r.returncode == 0 and want in r.stdout,
       f"the installed maintstat-full alone runs {args[0]}",
       (r.returncode, r.stdout[:200], r.stderr))
# the quick maintstat alone: what it hands on fails the same way, what
# it answers itself still runs (cli_route(), cli_exec())
quick = os.path.join(tmpdir(), "maintstat")
shutil.copy(installed(os.path.join(opts["bindir"], "maintstat")), quick)
for args, prog in ((["review", "--help"], "maintstat-full"),
                   (["fetch", "--help"], "maintstat-full"),
                   (["mail", "stats", "--help"], "maintstat-full"),
                   (["maintainers", "--repo", "x", "y"], "maintstat-full")):
    r = subprocess.run([quick] + args, capture_output=True, text=True)
    if os.path.exists(os.path.join(libexec, prog)):
        continue  # one installed in the prefix on this machine answers
    ok(r.returncode == 1 and r.stdout == "" and
       f"maintstat: cannot run '{libexec}/{prog}'" in r.stderr,
       f"no {prog}: the quick maintstat exits 1 with the error",
       (r.returncode, r.stderr))
r = subprocess.run([quick, "sections", "--help"], capture_output=True,
                   text=True)
ok(r.returncode == 0 and "Usage: maintstat sections" in r.stdout,
   "...while its own commands run", r.stderr)
# beside it, a maintstat-full that prints its GLIBC_TUNABLES: the quick
# program asks for malloc on huge pages, and keeps a user's own tunables
side = tmpdir()
shutil.copy(quick, os.path.join(side, "maintstat"))
with open(os.path.join(side, "maintstat-full"), "w") as f:
    f.write('#!/bin/sh\nprintf "%s" "$GLIBC_TUNABLES"\n')
os.chmod(os.path.join(side, "maintstat-full"), 0o755)
for user, want in ((None, "glibc.malloc.hugetlb=1:"
                         "glibc.malloc.mmap_threshold=33554432"),
                   ("glibc.malloc.check=0", "glibc.malloc.check=0")):
    env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
    if user:
        env["GLIBC_TUNABLES"] = user
    r = subprocess.run([os.path.join(side, "maintstat"), "review"],
                       capture_output=True, text=True, env=env)
    eq(r.stdout, want, f"maintstat-full is run with GLIBC_TUNABLES={want}")
# ...which maintstat-full reads as it starts and takes back out of the
# environment of what it runs (pending --mine runs git config): a git of
# its own beside it records its GLIBC_TUNABLES
fake = tmpdir()
with open(os.path.join(fake, "git"), "w") as f:
    f.write('#!/bin/sh\nprintf "%s" "${GLIBC_TUNABLES-unset}" > "$FG_OUT"\n'
            'echo me@example.org\n')
os.chmod(os.path.join(fake, "git"), 0o755)
seen = os.path.join(fake, "seen")
env = {k: v for k, v in os.environ.items() if k != "GLIBC_TUNABLES"}
env.update(PATH=fake + os.pathsep + os.environ["PATH"], FG_OUT=seen)
subprocess.run([MAINTSTAT, "pending", "--mine", "--archive",
                os.path.join(fake, "none")], capture_output=True, env=env)
with open(seen) if os.path.exists(seen) else open(os.devnull) as f:
    eq(f.read(), "unset", "the git maintstat-full runs has no GLIBC_TUNABLES")
mandir = installed(os.path.join(opts["mandir"], "man1"))
pages = ["maintstat.1"] + [f"maintstat-{c}.1" for c in commands] + \
    ["maintstat-mail-stats.1", "maintstat-mail-show.1"]
for page in pages:
    path = os.path.join(mandir, page)
    if not ok(os.path.exists(path), f"man page {page} installed",
              sorted(os.listdir(mandir)) if os.path.isdir(mandir) else None):
        continue
    rp = subprocess.run(["man", "-l", path], capture_output=True, text=True,
                        env=dict(os.environ, MANWIDTH="80", MANPAGER="cat",
                                 PAGER="cat"))
    name = page[:-2]
    ok(rp.returncode == 0 and "NAME" in rp.stdout and name in rp.stdout
       and ("OPTIONS" in rp.stdout or page == "maintstat.1"
            or page == "maintstat-mail.1"),
       f"man -l renders {page} with NAME and OPTIONS",
       rp.stdout[:600] + rp.stderr)
    if page not in ("maintstat.1", "maintstat-mail.1"):
        ok("EXAMPLES" in rp.stdout, f"{page} has an EXAMPLES section")
extra = set(os.listdir(mandir)) - set(pages) if os.path.isdir(mandir) else ()
eq(sorted(extra), [], "no man page for a command maintstat help lacks")

man_summary = subprocess.run(["man", "-l", os.path.join(mandir, "maintstat.1")],
                             capture_output=True, text=True,
                             env=dict(os.environ, MANWIDTH="80")).stdout
for c in commands:
    ok(c in man_summary, f"maintstat(1) lists {c}")

datadir = installed(opts["datadir"])
bash_comp = os.path.join(datadir, "bash-completion", "completions",
                         "maintstat")
zsh_comp = os.path.join(datadir, "zsh", "site-functions", "_maintstat")
ok(os.path.exists(bash_comp), "bash completion installed")
ok(os.path.exists(zsh_comp), "zsh completion installed")
for doc in ("README.md", "json.md", "review.md"):
    ok(os.path.exists(os.path.join(datadir, "doc", "maintstat", doc)),
       f"doc {doc} installed")
if shutil.which("zsh"):
    p = subprocess.run(["zsh", "-n", zsh_comp], capture_output=True,
                       text=True)
    eq((p.returncode, p.stderr), (0, ""), "zsh parses _maintstat")
else:
    ok(False, "zsh is installed (scripts/deps.sh installs it)")

# Completion in bash: a tree whose MAINTAINERS plants two entries that
# share a prefix and hold spaces, and one that does not.
tree = tmpdir()
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("List of maintainers\n===================\n\n"
            "\tM: *Mail* patches to\n\n"
            "ZORRO DRIVER\nM:\tZ <z@example.org>\nF:\tdrivers/zorro/\n\n"
            "ZORBA WIDGET (ZW)\nM:\tW <w@example.org>\nS:\tMaintained\n"
            "F:\tdrivers/zorba/\n\n"
            "ALPHA\nM:\tA <a@example.org>\nF:\talpha/\n")


def complete(*words, cwd=None):
    """What _maintstat offers for the command line `words` (the last one
    being completed), one per line."""
    script = (f"source {bash_comp}\n"
              "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1))\n"
              "_maintstat\n"
              "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(MAINTSTAT) + ":" + env["PATH"]
    p = subprocess.run(["bash", "-c", script, "bash", *words],
                       capture_output=True, text=True, env=env, cwd=cwd)
    return p.returncode, sorted(l for l in p.stdout.splitlines() if l)


eq(complete("maintstat", "sec"), (0, ["sections"]), "completes a command")
rc, got = complete("maintstat", "activity", "--inact")
eq((rc, got), (0, ["--inactive-after"]), "completes an option")
eq(complete("maintstat", "activity", "--tree", tree, "ZOR"),
   (0, ["ZORBA\\ WIDGET\\ \\(ZW\\)", "ZORRO\\ DRIVER"]),
   "completes entry names of --tree's MAINTAINERS, quoted")
eq(complete("maintstat", "review", "AL", cwd=tree),
   (0, ["ALPHA"]), "completes entry names of the current tree")
# a revision of a git repository: the entry only the revision has
git = ["git", "-C", tree, "-c", "user.name=T", "-c", "user.email=t@e.org"]
subprocess.run(git + ["init", "-q"], check=True)
subprocess.run(git + ["add", "MAINTAINERS"], check=True)
subprocess.run(git + ["commit", "-q", "-m", "m"], check=True)
with open(os.path.join(tree, "MAINTAINERS"), "a") as f:
    f.write("\nZEBRA\nM:\tZ <z@example.org>\nF:\tzebra/\n")
eq(complete("maintstat", "urgent", "--repo", tree, "--rev", "HEAD", "ZE"),
   (0, []), "--repo --rev: entries of the revision, not the work tree")

done()
