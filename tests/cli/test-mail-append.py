#!/usr/bin/env python3
"""New mail appended to an mbox file between two runs that share a store:
the stored messages are handed out and only the file's new part (from its
last stored message on, which may go on in the new bytes) is read, and
every report equals a cold run's on the whole file (`mail stats`,
`review` and `pending`, text and JSON; plain and .gz).  A file whose
first bytes changed too is read again whole.  A dropped or doubled
message shows in every report; the planted subject proves the read
resumed."""
import gzip
import os
import shutil
import sqlite3
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir  # noqa: E402

tmp = tmpdir()
tree = os.path.join(tmp, "tree")
os.makedirs(os.path.join(tree, "drivers"))
open(os.path.join(tree, "drivers", "x.c"), "w").close()
with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
    f.write("DRIVERS\nM:\tMa Int <ma@example.com>\nF:\tdrivers/\n\n"
            "THE REST\nM:\tR <r@example.com>\nF:\t*\nF:\t*/\n")

# more than MS_MBOX_SNIFF (2 MiB): smaller files are read again whole
FILLER = "".join("filler line %04d of the long description\n" % i
                 for i in range(190))


def patch(n, day, version=1):
    v = "v%d " % version if version > 1 else ""
    return ("From x@y Mon Jan  2 10:00:00 2023\n"
            f"From: P{n} <p{n}@example.com>\n"
            f"Subject: [PATCH {v}{n}/1] drivers: change {n}\n"
            f"Message-ID: <p{n}v{version}@example.com>\n"
            f"Date: Mon, {day:02d} Jan 2023 {n % 24:02d}:00:00 +0000\n\n"
            f"change {n}\n{FILLER}\n"
            f"Signed-off-by: P{n} <p{n}@example.com>\n---\n"
            "diff --git a/drivers/x.c b/drivers/x.c\n"
            "--- a/drivers/x.c\n+++ b/drivers/x.c\n@@ -0,0 +1 @@\n"
            f"+int v{n} = {version};\n\n")


def reply(n, day, text, blank_end=True):
    return ("From x@y Mon Jan  2 10:00:00 2023\n"
            "From: Ma Int <ma@example.com>\n"
            f"Subject: Re: [PATCH {n}/1] drivers: change {n}\n"
            f"Message-ID: <r{n}-{day}@example.com>\n"
            f"In-Reply-To: <p{n}v1@example.com>\n"
            f"Date: Mon, {day:02d} Jan 2023 23:00:00 +0000\n\n"
            f"> change {n}\n\n{text}\n" + ("\n" if blank_end else ""))


old = "".join(patch(n, 1 + n % 20) + (reply(n, 2 + n % 20, "Looks good.")
                                      if n % 3 == 0 else "")
              for n in range(320))
# the old file's last message goes on in the new bytes: its review tag
# is only there
old += reply(7, 25, "Thanks,", blank_end=False)
new = ("Reviewed-by: Ma Int <ma@example.com>\n\n" +
       reply(5, 26, "Applied, thanks!") + patch(5, 26, version=2) +
       "".join(patch(n, 27) for n in range(320, 340)))
ok(len(old.encode()) > 2 * 1024 * 1024, "the old file is over 2 MiB")

COMMANDS = {"mail": ["mail", "stats"], "review": ["review", "--tree", tree],
            "pending": ["pending", "--tree", tree]}


def report(key, archive, store):
    """A command's text or JSON on `archive`, through `store` or (None)
    with --no-cache."""
    cmd, form = key
    args = [*COMMANDS[cmd], *(["--json"] if form else []),
            *(["--no-cache"] if store is None else ["--db", store])]
    r = run(*args, archive) if cmd == "mail" else run(*args, "--archive",
                                                       archive)
    ok(r.rc == 0, "%s %s exits 0" % (" ".join(args[:2]), form), r.err)
    return r.out


KEYS = [(cmd, form) for cmd in COMMANDS for form in (False, True)]


def write(path, text, gz, append=False):
    data = text.encode()
    with open(path, "ab" if append else "wb") as f:
        # a new gzip member at the end of a .gz, as a mirror appends
        f.write(gzip.compress(data, mtime=0) if gz else data)


def case(name, gz, change_prefix=False):
    path = os.path.join(tmp, name + (".mbox.gz" if gz else ".mbox"))
    store = os.path.join(tmp, name + ".sqlite")
    write(path, old, gz)
    for k in KEYS:                        # the store filled
        report(k, path, store)
    # each command's first run after the new mail on a copy of its own
    for k in KEYS + [("planted", 0)]:
        shutil.copy(store, "%s.%s%d" % (store, *k))
    con = sqlite3.connect("%s.planted0" % store)
    n_old = con.execute("SELECT count(*) FROM messages").fetchone()[0]
    # a subject changed in the store shows whether the record was
    # handed out (a resumed read) or read again
    con.execute("UPDATE messages SET subject = 'planted' WHERE seq = "
                "(SELECT min(seq) FROM messages)")
    con.commit()
    if change_prefix:
        with open(path, "r+b") as f:
            f.seek(100)
            f.write(b"X")
    write(path, new, gz, append=True)
    r = run("mail", "stats", "--db", "%s.planted0" % store, path)
    ok(r.rc == 0, "%s: mail stats after the new mail" % name, r.err)
    planted = con.execute("SELECT count(*) FROM messages WHERE subject = "
                          "'planted'").fetchone()[0]
    n_new = con.execute("SELECT count(*) FROM messages").fetchone()[0]
    con.close()
    eq(planted, 0 if change_prefix else 1,
       "%s: the stored messages %s" % (name, "read again" if change_prefix
                                       else "handed out, not read again"))
    eq(n_new, n_old + 22, "%s: the new messages stored once" % name)
    for k in KEYS:
        eq(report(k, path, "%s.%s%d" % (store, *k)), report(k, path, None),
           "%s: %s %s after the new mail equals a cold run" %
           (name, k[0], "--json" if k[1] else "text"))


case("plain", gz=False)
case("gz", gz=True)
case("edited", gz=False, change_prefix=True)
done()
