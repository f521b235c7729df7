#!/usr/bin/env python3
"""bench-walk.py - the history walk against git log, on the same commits.

Baseline: git log --no-merges --raw --no-renames --format=<author,
committer, dates, body>, written to /dev/null.  Measured: build/tests/
bench-walk (the walk `maintstat activity` does: trailers and touched
paths, merges skipped) and `maintstat activity` itself (walk + matching
every path to its MAINTAINERS entries + the report).  Each is run RUNS
times (default 3), in turn, and the best wall time kept, since the
machine is shared.  Prints both figures and the ratio, the spread of
the wall times (worst - best), the load average before and after, and
each one's peak anonymous (private) memory, sampled every 20 ms, and
peak resident size (ru_maxrss, what /usr/bin/time -v reports).  The walk
maps each pack once and reads trees through one delta-base cache
(src/history/pack.c); its resident size counts the pack pages it
touched, as git log's does.

    tests/bench/bench-walk.py [--build DIR] [REPO...]

Without REPO: a generated 100,000-commit repository (fixtures/gen/
gen-repo.py --commits 100000 --layout $MS_LINUX_TREE when that tree
exists), cached in $MS_CACHE/bench/, plus $MS_BENCH_UBOOT if set (a
U-Boot mirror: bring one here with the search tool's fetch of
u-boot/u-boot; never commit it).
"""
import argparse
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FORMAT = "%H%n%an <%ae> %at %ai%n%cn <%ce> %ct %ci%n%B"


def anon_kib(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def once(cmd):
    """(wall s, cpu s, peak anonymous MiB, peak RSS MiB) of one run, or
    None on failure.  Anonymous memory is sampled every 20 ms."""
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    anon = 0
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        anon = max(anon, anon_kib(p.pid))
        time.sleep(0.02)
    wall = time.monotonic() - t
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        return None
    return (wall, ru.ru_utime + ru.ru_stime, anon / 1024,
            ru.ru_maxrss / 1024)


def best_of(cmds, runs):
    """Each command's best run (by wall time) of `runs`, the commands run
    in turn so that a slow spell of the shared machine hits them all.
    CPU time (user+sys, all threads) is printed too: on a loaded machine
    it is the steadier figure."""
    res = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            res[i].append(once(cmd))
    return [None if None in r else (min(r), max(x[0] for x in r) -
                                    min(r)[0])
            for r in res]


def show(what, r, base):
    if r is None:
        print("  %-40s  failed (see above)" % what)
        return
    t, spread = r
    line = ("  %-40s %6.2f s wall (spread %.2f) %6.2f s cpu %5.0f MiB anon "
            "%5.0f MiB rss" % (what, t[0], spread, t[1], t[2], t[3]))
    if base is not None:
        b = base[0]
        line += "  ratio %.2f wall, %.2f cpu, %.2f rss" % (
            t[0] / b[0], t[1] / b[1], t[3] / b[3])
    print(line)


def generated(cache):
    out = os.path.join(cache, "bench", "gen-100k.git")
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = [sys.executable, os.path.join(ROOT, "fixtures", "gen",
                                            "gen-repo.py"), out,
               "--commits", "100000", "--seed", "7",
               "--repack"]
        tree = os.environ.get("MS_LINUX_TREE",
                              os.path.join(cache, "linux-source-6.1"))
        if os.path.isdir(tree):
            cmd += ["--layout", tree]
        print("generating %s ..." % out, flush=True)
        subprocess.run(cmd, check=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("repos", nargs="*")
    a = ap.parse_args()
    cache = os.environ.get("MS_CACHE", os.path.expanduser(
        "~/.cache/maintstat-dev"))
    repos = a.repos or [generated(cache)]
    if not a.repos and os.environ.get("MS_BENCH_UBOOT"):
        repos.append(os.environ["MS_BENCH_UBOOT"])
    walk = os.path.join(a.build, "tests", "bench-walk")
    ms = os.path.join(a.build, "maintstat")
    for repo in repos:
        n = subprocess.run(["git", "--git-dir", repo, "rev-list",
                            "--no-merges", "--count", "HEAD"], check=True,
                           capture_output=True, text=True).stdout.strip()
        print("\n%s (%s commits without merges, %d cores, load %.1f)"
              % (repo, n, os.cpu_count(), os.getloadavg()[0]))
        g, w, act = best_of(
            [["git", "--git-dir", repo, "log", "--no-merges", "--raw",
              "--no-renames", "--format=" + FORMAT, "HEAD"],
             [walk, repo],
             [ms, "activity", "--no-cache", "--repo", repo]], a.runs)
        show("git log --no-merges --raw --no-renames:", g, None)
        show("maintstat walk (bench-walk):", w, g)
        show("maintstat activity (walk+match+report):", act, g)
        print("  best of %d; load average now %.1f" % (a.runs,
                                                      os.getloadavg()[0]))


if __name__ == "__main__":
    main()
