#!/usr/bin/env python3
"""The demo's generated repository (fixtures/gen/gen-repo.py
--maintainers) invents its history: it must carry the real entries,
patterns and layout but no real person.  A MAINTAINERS file naming
people with and without a display name, one of them in two entries, and
a layout; maintstat reads the result and names only pseudonyms."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, FIXTURES  # noqa: E402

tmp = tmpdir()
REAL = ["Real Person", "real.person@kernel.example", "role@corp.example",
        "Other Human", "other@human.example", "Torvalds", "torvalds"]
maint = os.path.join(tmp, "MAINTAINERS")
with open(maint, "w") as fp:
    fp.write("""\
Intro text, kept.

FOO DRIVER
M:	Real Person <real.person@kernel.example>
R:	Other Human <other@human.example>
L:	foo@lists.example
S:	Maintained
F:	drivers/foo/

BAR CHIP
M:	role@corp.example
M:	Real Person <REAL.Person@kernel.example>
S:	Supported
F:	drivers/bar/

THE REST
M:	Linus Torvalds <torvalds@linux-foundation.org>
F:	*
F:	*/
""")
layout = os.path.join(tmp, "tree")
for f in ("drivers/foo/foo.c", "drivers/foo/foo.h", "drivers/bar/bar.c",
          "lib/x.c"):
    os.makedirs(os.path.dirname(os.path.join(layout, f)), exist_ok=True)
    open(os.path.join(layout, f), "w").close()
repo = os.path.join(tmp, "demo.git")
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen", "gen-repo.py"),
                repo, "--maintainers", maint, "--layout", layout,
                "--commits", "1000"], check=True, stdout=subprocess.DEVNULL)

m = subprocess.run(["git", "--git-dir", repo, "show", "HEAD:MAINTAINERS"],
                   capture_output=True, text=True, check=True).stdout
log = subprocess.run(["git", "--git-dir", repo, "log", "--format=%an %ae "
                      "%cn %ce%n%B"], capture_output=True, text=True,
                     check=True).stdout
for what, text in (("MAINTAINERS", m), ("history", log)):
    bad = [r for r in REAL if r.lower() in text.lower()]
    eq(bad, [], "no real person in the generated " + what)
for line in ("FOO DRIVER", "BAR CHIP", "F:\tdrivers/foo/", "Intro text, kept.",
             "L:\tfoo@lists.example", "S:\tSupported"):
    ok(line in m.splitlines(), "kept: " + line)
people = [l for l in m.splitlines() if l[:2] in ("M:", "R:")]
eq(len(people), 5, "every M:/R: line kept")
ok(all(l.endswith("@maintainers.invalid>") for l in people),
   "every listed person a pseudonym", "\n".join(people))
# the same person (any case) gets the same pseudonym in both entries
eq(people[0][3:], people[3][3:], "one person, one pseudonym")
eq(len(set(p[3:] for p in people)), 4, "four people, four pseudonyms")

r = run("activity", "--repo", repo, "--json")
eq(r.rc, 0, "activity reads the generated repository")
names = sorted(e["name"] for e in r.json()["entries"])
ok("FOO DRIVER" in names and "BAR CHIP" in names, "real entries reported",
   names)
ok(not any(x.lower() in r.out.lower() for x in REAL),
   "activity names no real person")
done()
