#!/usr/bin/env python3
"""The CLI's contract: help, version, exit codes, errors on stderr."""
import os
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done  # noqa: E402

r = run()
eq(r.rc, 2, "no command is a usage error")
ok("usage: maintstat" in r.err, "usage on stderr without a command", r.err)

r = run("--help")
eq(r.rc, 0, "--help exits 0")
ok("usage: maintstat <command>" in r.out, "--help on stdout", r.out)
COMMANDS = ("sections", "coverage", "mail", "activity", "urgent", "retire",
            "fetch", "store", "link", "review")
for cmd in COMMANDS:
    ok("\n  %s " % cmd in r.out, f"--help lists {cmd}", r.out)
r2 = run("help")
eq((r2.rc, r2.out), (0, r.out), "'help' is --help")

r = run("--version")
eq(r.rc, 0, "--version exits 0")
ok(r.out.startswith("maintstat "), "--version prints the version", r.out)

r = run("no-such-command")
eq(r.rc, 2, "unknown command exits 2")
ok(r.err.startswith("maintstat: "), "error prefixed with maintstat:", r.err)
r = run("help", "no-such-command")
eq(r.rc, 2, "help of an unknown command exits 2")
ok("'no-such-command' is not a maintstat command" in r.err, "  named",
   r.err)
r = run("help", "activity", "urgent")
eq(r.rc, 2, "help of two commands is a usage error")

for cmd in COMMANDS:
    r = run(cmd, "--help")
    eq(r.rc, 0, f"{cmd} --help exits 0")
    ok("usage: maintstat " + cmd in r.out, f"{cmd} --help shows usage", r.out)
    ok("--json" in r.out, f"{cmd} --help lists --json", r.out)
    r2 = run("help", cmd)
    eq((r2.rc, r2.out), (0, r.out), f"'help {cmd}' is '{cmd} --help'")
    r = run(cmd, "--no-such-option")
    eq(r.rc, 2, f"{cmd} with an unknown option exits 2")
    ok(r.err.startswith("maintstat: "), f"{cmd} usage error on stderr", r.err)

if os.path.exists("/dev/full"):
    with open("/dev/full", "w") as full:
        p = subprocess.run([os.environ.get("MAINTSTAT", "maintstat"),
                            "--help"], stdout=full, stderr=subprocess.PIPE)
    eq(p.returncode, 1, "a failed write to stdout is an error (exit 1)")
done()
