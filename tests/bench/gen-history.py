#!/usr/bin/env python3
"""gen-history.py - a seeded, kernel-like git history through git fast-import.

  gen-history.py [--seed N] [--commits N] [--append] [--layout DIR]
                 [--interval SECONDS] GITDIR

Creates the bare repository GITDIR (or, with --append, adds N commits on
top of its master branch) holding N commits by a pool of authors, each
touching one to five files spread over a drivers/net/fs/... layout, with
Signed-off-by, Reviewed-by, Acked-by, Link and Fixes trailers, and a merge
of a short topic branch every 97 commits.  The same seed and counts always
give the same repository (fixed dates, no randomness from the clock), so
benchmarks and tests can rebuild it instead of committing it.

With --layout DIR (a source tree such as linux-source-6.1), commits
touch DIR's files instead (two thirds of a commit's files in the
directory of its first one, as real patches do), and the first commit
adds DIR's MAINTAINERS and .mailmap, so that `maintstat activity` reports
on the tree's real entries.  Everything is streamed to fast-import: a
million commits need no more memory than a thousand.

The store benchmark (tests/bench/bench-store.sh) and the kernel-scale run
(tests/bench/bench-scale.sh) use it.
"""
import argparse
import os
import random
import subprocess
import sys

TOP = ["drivers/net", "drivers/gpu", "drivers/usb", "fs", "net", "kernel",
       "mm", "arch/x86", "arch/arm64", "sound", "include/linux", "lib",
       "tools", "Documentation"]
TOKENS = ["Reviewed-by", "Acked-by", "Tested-by", "Reported-by", "Cc"]


def layout(rng):
    files = []
    for top in TOP:
        for d in range(rng.randint(3, 12)):
            sub = f"{top}/sub{d}"
            for f in range(rng.randint(2, 10)):
                files.append(f"{sub}/file{f}.c")
    return files


def tree_files(root):
    out = []
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        rel = os.path.relpath(d, root)
        for f in sorted(names):
            if not f.startswith("."):
                out.append(f if rel == "." else f"{rel}/{f}")
    return out


def people(rng, n):
    out = []
    for i in range(n):
        first = rng.choice(["Ann", "Bob", "Chen", "Dana", "Emil", "Fatima",
                            "Gus", "Hiro", "Ines", "Jakub", "Kees", "Lena"])
        last = rng.choice(["Smith", "Novak", "Li", "Garcia", "Müller",
                           "Kowalski", "Ito", "Rossi", "Dubois", "Olsen"])
        out.append((f"{first} {last}", f"{first.lower()}.{i}@example.org"))
    return out


def emit(out, s):
    out.write(s.encode("utf-8") if isinstance(s, str) else s)


def data(out, payload):
    b = payload.encode("utf-8")
    emit(out, f"data {len(b)}\n")
    emit(out, b)
    emit(out, "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--commits", type=int, default=1000)
    ap.add_argument("--append", action="store_true")
    ap.add_argument("--layout", help="a source tree whose files to touch")
    ap.add_argument("--interval", type=int, default=1800,
                    help="seconds between commits (default 1800; the "
                    "kernel's 1.3M commits since 2005 are about 450 apart)")
    ap.add_argument("gitdir")
    a = ap.parse_args()

    base = 0
    if a.append:
        r = subprocess.run(["git", "--git-dir", a.gitdir, "rev-list",
                            "--count", "--no-merges", "master"], capture_output=True,
                           text=True, check=True)
        base = int(r.stdout.strip())
    else:
        subprocess.run(["git", "init", "-q", "--bare", a.gitdir], check=True)
        subprocess.run(["git", "--git-dir", a.gitdir, "symbolic-ref", "HEAD",
                        "refs/heads/master"], check=True)

    shape = random.Random(a.seed)
    files = layout(shape)
    by_dir = {}
    if a.layout:
        # the first commit adds the real MAINTAINERS and .mailmap: no
        # later one may overwrite them with a stub (from commit 10,124 on
        # every 1M-commit report had no entries)
        files = [f for f in tree_files(a.layout)
                 if f not in ("MAINTAINERS", ".mailmap")]
        for f in files:
            by_dir.setdefault(os.path.dirname(f), []).append(f)
    folks = people(shape, 400)
    # Per-commit randomness depends on the commit's number only, so that
    # an appended history equals the one generated in one go.
    p = subprocess.Popen(["git", "--git-dir", a.gitdir, "fast-import",
                          "--quiet", "--done"], stdin=subprocess.PIPE)
    out = p.stdin
    t0 = 1104537600  # 2005-01-01
    mark = 0
    master_mark, master_seen = 0, False
    for n in range(base, base + a.commits):
        rng = random.Random(a.seed * 1000003 + n)
        when = t0 + n * a.interval + rng.randint(0, min(600, a.interval // 3))
        author = folks[rng.randrange(len(folks))]
        committer = folks[rng.randrange(20)]
        topic = n % 97 == 96
        branch = "refs/heads/topic" if topic else "refs/heads/master"
        mark += 1
        emit(out, f"commit {branch}\nmark :{mark}\n")
        emit(out, f"author {author[0]} <{author[1]}> {when} +0100\n")
        emit(out, f"committer {committer[0]} <{committer[1]}> "
                  f"{when + 60} +0000\n")
        lines = [f"{files[rng.randrange(len(files))].split('/')[0]}: change "
                 f"number {n}", "", f"Body of change {n}.", ""]
        for _ in range(rng.randint(0, 3)):
            tok = rng.choice(TOKENS)
            who = folks[rng.randrange(len(folks))]
            lines.append(f"{tok}: {who[0]} <{who[1]}>")
        if rng.random() < 0.3:
            lines.append(f"Link: https://lore.kernel.org/r/{n}.{a.seed}"
                         "@example.org")
        lines.append(f"Signed-off-by: {author[0]} <{author[1]}>")
        if committer != author:
            lines.append(f"Signed-off-by: {committer[0]} <{committer[1]}>")
        data(out, "\n".join(lines) + "\n")
        # fast-import writes refs at the end: within a session, name
        # the branch's last commit by its mark.
        if topic or not master_seen:
            if master_mark:
                emit(out, f"from :{master_mark}\n")
            elif n:
                emit(out, "from refs/heads/master^0\n")
        if a.layout and n == 0:
            for meta in ("MAINTAINERS", ".mailmap"):
                src = os.path.join(a.layout, meta)
                if os.path.exists(src):
                    with open(src, "rb") as f:
                        body = f.read()
                    emit(out, f"M 100644 inline {meta}\n")
                    emit(out, f"data {len(body)}\n")
                    emit(out, body)
                    emit(out, "\n")
        first = None
        for _ in range(rng.randint(1, 5)):
            path = files[rng.randrange(len(files))]
            if a.layout:
                if first is None:
                    first = path
                elif rng.random() < 0.67:
                    near = by_dir[os.path.dirname(first)]
                    path = near[rng.randrange(len(near))]
            emit(out, f"M 100644 inline {path}\n")
            data(out, f"/* {path} at change {n}: {rng.random()} */\n")
        emit(out, "\n")
        if not topic:
            master_mark, master_seen = mark, True
        if topic:
            mark += 1
            emit(out, f"commit refs/heads/master\nmark :{mark}\n")
            emit(out, f"author {committer[0]} <{committer[1]}> "
                      f"{when + 120} +0000\n")
            emit(out, f"committer {committer[0]} <{committer[1]}> "
                      f"{when + 120} +0000\n")
            data(out, f"Merge branch 'topic-{n}'\n")
            emit(out, f"from :{master_mark}\n" if master_mark else
                 "from refs/heads/master^0\n")
            emit(out, f"merge :{mark - 1}\n\n")
            master_mark, master_seen = mark, True
    emit(out, "done\n")
    out.close()
    if p.wait() != 0:
        sys.exit("gen-history: git fast-import failed")


if __name__ == "__main__":
    main()
