#!/usr/bin/env python3
"""Bash completion, driven through _maintstat with COMP_WORDS as bash
would, from the build tree's completion/ folder (which must hold the
files, as the source tree's does): every store subcommand; report's
options include review's, which it takes; the values of --by and
--dialect, not files or entry names; entry names for identities and
report, which take them."""
import os
import re
import subprocess
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import MAINTSTAT, done, eq, ok, run, tmpdir  # noqa: E402

BUILD = os.environ.get("MS_BUILD_ROOT", os.path.dirname(MAINTSTAT))
bash_comp = os.path.join(BUILD, "completion", "maintstat.bash")
ok(os.path.isfile(bash_comp), "the build's completion/ has maintstat.bash",
   os.listdir(os.path.join(BUILD, "completion"))
   if os.path.isdir(os.path.join(BUILD, "completion")) else None)
ok(os.path.isfile(os.path.join(BUILD, "completion", "_maintstat")),
   "...and _maintstat")

tree = tmpdir()
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("ZORRO DRIVER\nM:\tZ <z@example.org>\nF:\tdrivers/zorro/\n\n"
            "ZORBA WIDGET\nM:\tW <w@example.org>\nF:\tdrivers/zorba/\n\n"
            "ALPHA\nM:\tA <a@example.org>\nF:\talpha/\n")
# a file whose name an option value must not be completed to
with open(os.path.join(tree, "month-notes.txt"), "w") as f:
    f.write("x\n")


def complete(*words):
    """What _maintstat offers for the command line `words` (the last one
    being completed), sorted."""
    script = (f"source {bash_comp}\n"
              "COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1))\n"
              "_maintstat\n"
              "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(MAINTSTAT) + ":" + env["PATH"]
    p = subprocess.run(["bash", "-c", script, "bash", *words],
                       capture_output=True, text=True, env=env, cwd=tree)
    return sorted(l for l in p.stdout.splitlines() if l)


eq(complete("maintstat", "store", ""), ["info", "list", "log", "prune"],
   "store <TAB>: every subcommand")
eq(complete("maintstat", "mail", ""), ["show", "stats"],
   "mail <TAB>: both subcommands")
ok("--help" in complete("maintstat", "activity", "--"),
   "activity --<TAB>: --help too")
eq(complete("maintstat", "report", "--ar"), ["--archive"],
   "report --ar<TAB>: review's --archive, which report takes")
opts = complete("maintstat", "report", "--")
ok("--output-dir" in opts and "--help" in opts,
   "report --<TAB>: its own options too", opts)
ok("--by" not in opts and "--json" not in opts,
   "...not review's --by and --json, which report refuses", opts)
for cmd in ("review", "activity", "urgent"):
    eq(complete("maintstat", cmd, "--by", ""),
       ["month", "quarter", "release", "year"],
       f"{cmd} --by <TAB>: the intervals")
eq(complete("maintstat", "review", "--by", "m"), ["month"],
   "--by m<TAB>: month")
m = re.search(r"get_maintainer\.pl: ([a-z, ]*) \(default",
              " ".join(run("maintainers", "--help").out.split()))
dialects = sorted(re.split(r",? or |, ", m.group(1))) if m else None
ok(dialects and "kernel" in dialects, "maintainers --help names the "
   "dialects", dialects)
eq(complete("maintstat", "maintainers", "--dialect", ""), dialects,
   "--dialect <TAB>: the dialects maintainers --help names, not files")
eq(complete("maintstat", "sections", "--max"), [],
   "sections --max<TAB>: nothing (it reads no mail)")
eq(complete("maintstat", "review", "--max"),
   ["--max-index-size", "--max-message-size"],
   "review --max<TAB>: the limits of reading mail")
for cmd in ("identities", "report"):
    eq(complete("maintstat", cmd, "ZOR"),
       ["ZORBA\\ WIDGET", "ZORRO\\ DRIVER"],
       f"{cmd} ZOR<TAB>: entry names")
done()
