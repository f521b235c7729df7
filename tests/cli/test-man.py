#!/usr/bin/env python3
"""The man pages, rendered with man -l as a reader sees them: the
SYNOPSIS holds every usage line of --help whole; each example of --help
is on a line of its own, as written, so that it can be copied; nothing is
hyphenated; SEE ALSO names maintstat(1), related pages that exist, and
the documentation where it is installed; every doc a page names is
installed there."""
import json
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import MAINTSTAT, done, eq, ok, run, tmpdir  # noqa: E402

BUILD = os.environ.get("MS_BUILD_ROOT", os.path.dirname(MAINTSTAT))
mandir = os.path.join(BUILD, "docs")
pages = sorted(p for p in os.listdir(mandir) if p.endswith(".1"))
ok(len(pages) >= 17, "the build has the man pages", pages)

opts = {o["name"]: o["value"] for o in json.loads(subprocess.run(
    ["meson", "introspect", "--buildoptions", BUILD], capture_output=True,
    text=True).stdout)}
docdir = os.path.join(opts["prefix"], opts["datadir"], "doc", "maintstat")
dest = tmpdir()
p = subprocess.run(["meson", "install", "-C", BUILD, "--no-rebuild",
                    "--quiet", "--destdir", dest], capture_output=True,
                   text=True)
eq(p.returncode, 0, "meson install --destdir succeeds", )
installed_docs = set(os.listdir(dest + docdir)) if os.path.isdir(
    dest + docdir) else set()


def render(path, width):
    p = subprocess.run(["man", "-l", path], capture_output=True, text=True,
                       env=dict(os.environ, MANWIDTH=str(width),
                                MANPAGER="cat", PAGER="cat",
                                LC_ALL="C.UTF-8"))
    return p.returncode, p.stdout + p.stderr


def section(text, name):
    m = re.search(r"^" + name + r"\n(.*?)(?=^[A-Z][A-Z ]+\n|\Z)", text,
                  re.M | re.S)
    return m.group(1) if m else None


def usage_lines(help_text):
    """The usage lines of --help, each whole (continuations joined)."""
    out = []
    for line in help_text.split("\n\n")[0].splitlines():
        if line.startswith("Usage:") or line.startswith("   or:"):
            out.append(line.split(":", 1)[1].strip())
        else:
            out[-1] += " " + line.strip()
    return out


def examples(help_text):
    m = re.search(r"^Examples:\n(.*)", help_text, re.M | re.S)
    return [l.strip() for l in m.group(1).splitlines() if l.strip()] \
        if m else []


for page in pages:
    name = page[:-2]
    args = name.split("-")[1:]   # maintstat-mail-stats: mail stats
    h = run(*args, "--help") if args else run("--help")
    rc, wide = render(os.path.join(mandir, page), 400)
    if not ok(rc == 0 and "NAME" in wide, f"man -l renders {page}", wide):
        continue
    syn = section(wide, "SYNOPSIS") or ""
    eq(" ".join(syn.split()), " ".join(" ".join(usage_lines(h.out))
                                       .split()),
       f"{page}: SYNOPSIS is every usage line of --help, whole")
    ex = examples(h.out)
    shown = [l.strip() for l in (section(wide, "EXAMPLES") or "")
             .splitlines() if l.strip()]
    eq(shown, ex, f"{page}: each example on its own line, as --help has it")
    rc, narrow = render(os.path.join(mandir, page), 60)
    eq([l for l in narrow.splitlines() if l.rstrip().endswith("\u2010")],
       [], f"{page}: nothing hyphenated at 60 columns")
    see = section(wide, "SEE ALSO")
    if not ok(see, f"{page}: has SEE ALSO"):
        continue
    refs = re.findall(r"(maintstat[a-z-]*)\(1\)", see)
    ok(name == "maintstat" or "maintstat" in refs,
       f"{page}: SEE ALSO maintstat(1)", see)
    ok(len(refs) >= 2 or name == "maintstat-mail-show", f"{page}: SEE ALSO "
       "names related commands", see)
    eq([r for r in refs if r + ".1" not in pages], [],
       f"{page}: SEE ALSO names only pages that exist")
    ok(docdir in " ".join(see.split()), f"{page}: names the installed docs",
       see)
    ok("docs/" not in wide, f"{page}: no docs/ path of the source tree")
    named = set(re.findall(r"\b([a-z-]+\.md)\b", wide)) | set(
        re.findall(r"\b(README\.md)\b", wide))
    eq(sorted(named - installed_docs), [],
       f"{page}: every doc it names is installed in {docdir}")
done()
