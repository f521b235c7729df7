#!/usr/bin/env python3
"""maintstat maintainers --activity on the planted repository of
fixtures/gen/gen-repo.py (see fixtures/gen/README.md): Ivan, who has done
nothing in ALPHA DRIVER for years, is marked inactive with the month of
his last commit; Alice and Rita are not; the unlisted reviewers Rex, Tess
and Uma are suggested as de-facto reviewers; --active-only drops exactly
Ivan."""
import json
import os
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
repo = os.path.join(tmp, "planted.git")
truth_file = os.path.join(tmp, "truth.json")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo, "--truth", truth_file], check=True)
with open(truth_file) as fp:
    truth = json.load(fp)
ivan_month = time.strftime("%Y-%m", time.gmtime(truth["ivan_last"])) \
    if "ivan_last" in truth else None

PATH = "drivers/alpha/alpha_main.c"
r = run("maintainers", "--repo", repo, "--no-cache", PATH)
eq(r.rc, 0, "without --activity: exit 0")
plain = r.out.splitlines()

r = run("maintainers", "--repo", repo, "--no-cache", "--activity", PATH)
eq(r.rc, 0, "--activity: exit 0")
lines = r.out.splitlines()
ivan = [l for l in lines if "ivan@example.org" in l]
ok(len(ivan) == 1 and "(maintainer:ALPHA DRIVER, inactive since " in ivan[0],
   "Ivan is marked inactive", r.out)
if ivan_month:
    ok(ivan and ivan[0].endswith(f"inactive since {ivan_month})"),
       f"...since the month of his last commit ({ivan_month})", ivan)
ok(not any("inactive" in l for l in lines if "ivan@" not in l),
   "nobody else is marked inactive", r.out)
defacto = [l for l in lines if "de-facto reviewer:ALPHA DRIVER" in l]
eq(sorted(l.split("<")[1].split(">")[0] for l in defacto),
   ["rex@example.net", "tess@example.net", "uma@example.net"],
   "the unlisted reviewers are suggested")
ok(all(" reviews)" in l or " review)" in l for l in defacto),
   "...with their review counts", defacto)
ok(not any("rita@" in l for l in defacto), "Rita, listed, is not repeated")
eq([l for l in lines if "de-facto" not in l and "inactive" not in l],
   [l for l in plain if "ivan@" not in l],
   "the rest is get_maintainer.pl's answer, unchanged")
first_list = next(i for i, l in enumerate(lines) if "list" in l)
ok(all(i < first_list for i, l in enumerate(lines) if "de-facto" in l),
   "suggestions come after the people, before the lists", r.out)

r = run("maintainers", "--repo", repo, "--no-cache", "--activity",
        "--active-only", PATH)
eq(r.rc, 0, "--active-only: exit 0")
only = r.out.splitlines()
eq([l for l in only if "de-facto" not in l],
   [l for l in plain if "ivan@" not in l],
   "--active-only drops exactly Ivan")

r = run("maintainers", "--repo", repo, "--no-cache", "--activity",
        "--active-only", "--to-cc", PATH)
import shlex  # noqa: E402
args = shlex.split(r.out)
ok("--to=Alice Active <alice@example.org>" in args and
   not any("ivan@" in a for a in args) and
   "--cc=Rex External <rex@example.net>" in args,
   "--to-cc --active-only: Alice to, Ivan gone, Rex cc'd", r.out)

r = run("maintainers", "--repo", repo, "--no-cache", "--activity", "--json",
        PATH)
cc = {c["address"]: c for c in r.json()["cc"]}
eq(cc["ivan@example.org"]["activity"]["inactive"], True, "JSON: inactive")
eq(cc["alice@example.org"]["activity"]["inactive"], False,
   "JSON: Alice active")
ok(cc["alice@example.org"]["activity"]["authored"] > 0,
   "JSON: Alice's authored commits in the window")

r = run("maintainers", "--tree", tmp, "--activity", PATH)
eq(r.rc, 2, "--activity without --repo is a usage error")
r = run("maintainers", "--repo", repo, "--active-only", PATH)
eq(r.rc, 2, "--active-only without --activity is a usage error")
done()
