#!/usr/bin/env python3
"""bench-walk.py - the history walk against git log, on the same commits.

Baseline: git log --no-merges --raw --no-renames --format=<author,
committer, dates, body>, written to /dev/null.  Measured: build/tests/
bench-walk (the walk `maintstat activity` does: trailers and touched
paths, merges skipped) and `maintstat activity` itself (walk + matching
every path to its MAINTAINERS entries + the report).  Each is run RUNS
times (default 3) and the best wall time kept, since the machine is
shared.  Prints both figures and the ratio.

    tests/bench/bench-walk.py [--build DIR] [REPO...]

Without REPO: a generated 100,000-commit repository (fixtures/gen/
gen-repo.py --commits 100000 --layout $MS_LINUX_TREE when that tree
exists), cached in $MS_CACHE/bench/, plus $MS_BENCH_UBOOT if set (a
U-Boot mirror: bring one here with the search tool's fetch of
u-boot/u-boot; never commit it).
"""
import argparse
import os
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
FORMAT = "%H%n%an <%ae> %at %ai%n%cn <%ce> %ct %ci%n%B"


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def best(cmd, runs, cwd=None):
    """Best (wall, cpu) seconds of `runs` runs, or None on failure.  CPU
    time (user+sys, all threads) is printed too: on a shared, loaded
    machine it is the steadier figure."""
    times = []
    for _ in range(runs):
        t, c = time.monotonic(), cpu()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, cwd=cwd)
        if p.returncode != 0:
            return None
        times.append((time.monotonic() - t, cpu() - c))
    return min(times)


def show(what, t, base):
    if t is None:
        print("  %-40s  failed (see above)" % what)
    elif base is None:
        print("  %-40s %7.2f s wall %7.2f s cpu" % (what, t[0], t[1]))
    else:
        print("  %-40s %7.2f s wall %7.2f s cpu  ratio %.2f wall, "
              "%.2f cpu" % (what, t[0], t[1], t[0] / base[0],
                            t[1] / base[1]))


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
        print("\n%s (%s commits without merges, %d cores)"
              % (repo, n, os.cpu_count()))
        g = best(["git", "--git-dir", repo, "log", "--no-merges", "--raw",
                  "--no-renames", "--format=" + FORMAT, "HEAD"], a.runs)
        w = best([walk, repo], a.runs)
        act = best([ms, "activity", "--no-cache", "--repo", repo],
                   a.runs)
        show("git log --no-merges --raw --no-renames:", g, None)
        show("maintstat walk (bench-walk):", w, g)
        show("maintstat activity (walk+match+report):", act, g)


if __name__ == "__main__":
    main()
