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
for cmd in ("sections", "coverage", "activity", "urgent"):
    ok(cmd in r.out, f"--help lists {cmd}", r.out)

r = run("--version")
eq(r.rc, 0, "--version exits 0")
ok(r.out.startswith("maintstat "), "--version prints the version", r.out)

r = run("no-such-command")
eq(r.rc, 2, "unknown command exits 2")
ok(r.err.startswith("maintstat: "), "error prefixed with maintstat:", r.err)

for cmd in ("sections", "coverage", "activity", "urgent"):
    r = run(cmd, "--help")
    eq(r.rc, 0, f"{cmd} --help exits 0")
    ok("usage: maintstat " + cmd in r.out, f"{cmd} --help shows usage", r.out)
    ok("--json" in r.out, f"{cmd} --help lists --json", r.out)
    r = run(cmd, "--no-such-option")
    eq(r.rc, 2, f"{cmd} with an unknown option exits 2")
    ok(r.err.startswith("maintstat: "), f"{cmd} usage error on stderr", r.err)

if os.path.exists("/dev/full"):
    with open("/dev/full", "w") as full:
        p = subprocess.run([os.environ.get("MAINTSTAT", "maintstat"),
                            "--help"], stdout=full, stderr=subprocess.PIPE)
    eq(p.returncode, 1, "a failed write to stdout is an error (exit 1)")
done()
