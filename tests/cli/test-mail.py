"""maintstat mail stats / mail show on fixtures, generated bad input,
gzip, directories, public-inbox v1/v2 inboxes built here with git, and the
real linux-rdma slice (counts derived by mail_independent.py, patch-ids
compared with git's own)."""
import datetime
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from mstest import SCHEMA, FIXTURES, MAINTSTAT, SOURCE_ROOT, done, eq, ok, run, skip, tmpdir  # noqa: E402

MAIL = os.path.join(FIXTURES, "mail")
RDMA = os.path.join(SOURCE_ROOT, "..", "shared", "data",
                    "linux-rdma-2023.mbox.gz")
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tmpdir()
SEP = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"

RULES = {"messages": 20, "message_ids": 19, "patches": 7,
         "cover_letters": 4, "series": 3, "series_postings": 5,
         "replies": 4, "review_replies": 2, "nacks": 1,
         "reviewed_patches": 3, "pull_requests": 1, "bots": 2,
         "applied_notices": 1, "threads": 8, "senders": 11,
         "first_date": "2023-01-02T10:00:00+00:00",
         "last_date": "2023-01-13T10:00:00+00:00", "problems": {}}


def stats(*args):
    r = run("mail", "stats", "--json", *args)
    if r.rc != 0:
        return r, {}
    return r, r.json()


def check_counts(got, want, what):
    sub = {k: got.get(k) for k in want}
    eq(sub, want, what)


def split_mbox(path):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(b"\n" + SEP)
    out = []
    for i, p in enumerate(parts):
        if i == 0:
            p = p[len(SEP):]
        out.append(p if p.endswith(b"\n") else p + b"\n")
    return out


# ---- plain mbox fixtures ----
r, d = stats(os.path.join(MAIL, "rules.mbox"))
eq(r.rc, 0, "stats rules.mbox exits 0")
check_counts(d, RULES, "rules.mbox: planted counts")
eq(d.get("schema_version"), SCHEMA, "schema_version")
eq(d.get("archives", [{}])[0].get("format"), "mboxrd", "mboxrd detected")

r = run("mail", "stats", os.path.join(MAIL, "rules.mbox"))
ok(r.rc == 0 and re.search(r"^messages: 20$", r.out, re.M) and
   re.search(r"^review_replies: 2$", r.out, re.M), "text output readable",
   r.out)

r, d = stats(os.path.join(MAIL, "lab.mbox"))
check_counts(d, {"messages": 21, "message_ids": 21, "patches": 6,
                 "cover_letters": 2, "series_postings": 4, "series": 3,
                 "pull_requests": 1, "bots": 2, "applied_notices": 1,
                 "problems": {}}, "lab.mbox: planted counts")

# ---- broken inputs: counted under problems, the rest survives ----
BROKEN = {"nul-bytes": "nul_bytes", "bad-base64": "bad_base64",
          "unknown-charset": "unknown_charset", "no-headers": "no_headers",
          "year-0": "bad_date", "year-9999": "bad_date",
          "truncated": "truncated"}
for name, problem in sorted(BROKEN.items()):
    path = os.path.join(MAIL, "broken", name + ".mbox")
    r, d = stats(path)
    eq(r.rc, 0, f"broken/{name}: exits 0")
    eq(d.get("messages"), 3, f"broken/{name}: no message lost")
    eq(d.get("problems", {}).get(problem), 1,
       f"broken/{name}: counted as {problem}")
    ok(re.search(re.escape(path) + r":\d+: .*" + problem, r.err),
       f"broken/{name}: reported with file:line", r.err)
    r = run("mail", "show", "--json", path, "good-2@example.com")
    eq(r.rc, 0, f"broken/{name}: the next message still readable")

# a list of 25 messages without a Message-ID: 20 warnings, one line for
# the other 5, and all 25 counted
many = os.path.join(TMP, "no-ids.mbox")
with open(many, "wb") as f:
    for i in range(25):
        f.write(SEP + b"From: A <a@example.com>\nSubject: n%d\n"
                b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n\nbody\n\n" % i)
r, d = stats(many)
eq((r.rc, d.get("messages"), d.get("problems", {}).get("no_message_id")),
   (0, 25, 25), "25 messages without a Message-ID: all counted")
eq(len(re.findall(r"no_message_id", r.err)), 20, "20 listed")
ok("5 more messages with problems are not listed (only the first 20 "
   "are); the report's 'problems' counts every one" in r.err,
   "the other 5 are summed up in one line", r.err)

r = run("mail", "show", "--json", os.path.join(MAIL, "broken",
                                               "year-9999.mbox"),
        "y9999@example.com")
eq((r.json()["date"], r.json()["problems"]), (None, ["bad_date"]),
   "year 9999: date null, not guessed")

# Receipt time (issue 35): the topmost Received: field's date stands in
# for a Date over 30 days away from it, and for a missing Date; a
# moderation hold of ten days keeps its Date.
def received_mail(mid, date, received):
    h = [b"From: A <a@example.com>", b"Subject: hello",
         ("Message-ID: <%s>" % mid).encode()]
    if date:
        h.append(("Date: " + date).encode())
    h.append(("Received: from relay.example.org by mx.example.org "
              "with ESMTP id 1x;\n\t" + received).encode())
    h.append(b"Received: from old.example.org; Mon, 1 Jan 2001 00:00:00 +0000")
    return SEP + b"\n".join(h) + b"\n\nbody\n\n"


rcv = os.path.join(TMP, "received.mbox")
with open(rcv, "wb") as f:
    f.write(received_mail("clock@example.com", "Sun, 31 Dec 2000 12:00:00 +0000",
                          "Mon, 3 Jun 2024 10:00:00 +0200"))
    f.write(received_mail("held@example.com", "Sat, 1 Jun 2024 10:00:00 +0000",
                          "Tue, 11 Jun 2024 10:00:00 +0000"))
    f.write(received_mail("nodate@example.com", None,
                          "Wed, 12 Jun 2024 10:00:00 +0000"))


def shown(mid):
    d = run("mail", "show", "--json", rcv, mid).json()
    t = datetime.datetime.fromisoformat(d["date"])
    return t.astimezone(datetime.timezone.utc).isoformat()[:19], d["problems"]


eq(shown("clock@example.com"), ("2024-06-03T08:00:00", ["misdated"]),
   "a Date 23 years before its receipt: the receipt time is used, and the "
   "message is misdated")
eq(shown("held@example.com"), ("2024-06-01T10:00:00", []),
   "a ten-day moderation hold keeps its Date")
eq(shown("nodate@example.com"), ("2024-06-12T10:00:00", ["bad_date"]),
   "no Date: the receipt time (still a bad_date problem)")
r, d = stats(rcv)
eq((d.get("misdated"), d.get("first_date", "")[:10],
    d.get("problems", {}).get("misdated")), (1, "2024-06-01", 1),
   "mail stats: one misdated message, dated by receipt, inside the span")

# generated: a 10 MB line and a 1 MB header block
good = split_mbox(os.path.join(MAIL, "broken", "nul-bytes.mbox"))
long_line = (b"From: A <a@example.com>\nSubject: long\n"
             b"Message-ID: <long@example.com>\n"
             b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n\n" +
             b"x" * (10 * 1024 * 1024) + b"\nend\n")
huge_header = (b"From: A <a@example.com>\nSubject: huge\n"
               b"Message-ID: <huge@example.com>\n"
               b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n" +
               b"X-Filler: " + b"y" * 70 + b"\n" * 1 +
               b"".join(b"X-Filler: " + b"y" * 70 + b"\n"
                        for _ in range(15000)) + b"\nbody\n")
for name, bad, problem in (("long-line", long_line, "long_line"),
                           ("huge-header", huge_header, "huge_header")):
    path = os.path.join(TMP, name + ".mbox")
    with open(path, "wb") as f:
        f.write(SEP + good[0] + b"\n" + SEP + bad + b"\n" + SEP + good[2] +
                b"\n")
    r, d = stats(path)
    eq((r.rc, d.get("messages")), (0, 3), f"{name}: 3 messages")
    eq(d.get("problems", {}).get(problem), 1, f"{name}: counted")
r = run("mail", "show", "--json", os.path.join(TMP, "huge-header.mbox"),
        "huge@example.com")
eq(r.json().get("subject") if r.rc == 0 else None, "huge",
   "1 MB header block still parsed")

# the Message-ID after 3 MB of header: mail show searched only 2 MiB
late_id = (b"From: A <a@example.com>\nSubject: late\n" +
           b"".join(b"X-Filler: " + b"z" * 70 + b"\n"
                    for _ in range(40000)) +
           b"Message-ID: <late@example.com>\n"
           b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n\nbody\n")
late = os.path.join(TMP, "late-id.mbox")
with open(late, "wb") as f:
    f.write(SEP + good[0] + b"\n" + SEP + late_id)
r = run("mail", "show", "--json", late, "late@example.com")
eq(r.json().get("subject") if r.rc == 0 else (r.rc, r.err), "late",
   "mail show: a Message-ID after 3 MB of header is found")

# ---- gzip, mboxo, directories ----
rules_gz = os.path.join(TMP, "rules.mbox.gz")
with open(os.path.join(MAIL, "rules.mbox"), "rb") as f:
    rules_data = f.read()
with gzip.open(rules_gz, "wb") as f:
    f.write(rules_data)
r, d = stats(rules_gz)
check_counts(d, RULES, ".gz read transparently")
# a pipe (/dev/stdin), plain or gzip: it cannot seek back after the look
# for gzip's magic, and with the store it must not be read for a checksum
# first (it read as an empty list), nor kept under its name
db = os.path.join(TMP, "pipe.db")
with open(rules_gz, "rb") as f:
    rules_gz_data = f.read()
for data, kind in ((rules_data, "plain"), (rules_gz_data, "gzip")):
    for args, how in ((["--no-cache"], "--no-cache"),
                      (["--db", db], "with a store"),
                      (["--db", db], "again with it")):
        r = run("mail", "stats", "--json", *args, "/dev/stdin", stdin=data)
        check_counts(r.json() if r.rc == 0 else {"rc": r.rc, "err": r.err},
                     RULES, f"a {kind} mbox on a pipe, {how}")
half = [run("mail", "stats", "--json", *args, "/dev/stdin",
            stdin=rules_data[:len(rules_data) // 2])
        for args in (["--no-cache"], ["--db", db])]
eq([r.json()["messages"] if r.rc == 0 else r.err for r in half],
   [half[0].json()["messages"]] * 2 if half[0].rc == 0 else None,
   "half of it on the same pipe path: read as it is, nothing kept served")
ok(0 < half[0].json()["messages"] < RULES["messages"],
   "  (fewer messages, not none)")

# a .gz of 12 MB is inflated into several blocks: messages that straddle
# them, and one of 6 MB that outgrows one, read as from the plain file
many = os.path.join(TMP, "many.mbox")
with open(many, "wb") as f:
    for i in range(6000):
        f.write(SEP + b"From: P%d <p%d@example.com>\nSubject: m %d\n"
                b"Message-ID: <m%d@example.com>\n"
                b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n\n" % (i, i, i, i)
                + b"line\n" * (i % 400) + b"\n")
        if i == 3000:
            f.write(SEP + b"From: Big <big@example.com>\nSubject: big\n"
                    b"Message-ID: <big@example.com>\n"
                    b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n\n" +
                    b"y" * 79 + b"\n" + b"z" * 80 * 80000 + b"\n\n")
with open(many, "rb") as f, gzip.open(many + ".gz", "wb", 1) as g:
    g.write(f.read())
r, d = stats("--no-cache", many)
r2, d2 = stats("--no-cache", many + ".gz")
eq((d.get("messages"), d.get("senders")), (6001, 6001),
   "6,001 messages of a 12 MB mbox")
for x in (d, d2):
    x.pop("archives", None)   # their paths differ
eq(d2, d, "its .gz reads the same, across blocks")

cut = os.path.join(TMP, "cut.mbox.gz")
with open(rules_gz, "rb") as f:
    gz = f.read()
with open(cut, "wb") as f:
    f.write(gz[:len(gz) // 2])
# --max-message-size: a larger message is read only as far as its head,
# counted as "oversized", and memory stays near the bound (a gzip bomb of
# one 256 MiB message, 260 KiB compressed)
import resource  # noqa: E402
bomb = os.path.join(TMP, "bomb.mbox.gz")
with gzip.open(bomb, "wb", 9) as f:
    f.write(SEP + good[0] + b"\n")
    f.write(SEP + b"From: B <b@example.com>\nSubject: bomb\n"
            b"Message-ID: <bomb@example.com>\n"
            b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n\n")
    for _ in range(256):
        f.write(b"x" * (1 << 20))
    f.write(b"\n\n" + SEP + good[2] + b"\n")
before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
# under ASan, freed buffers wait in its quarantine (256 MiB by default):
# keep it small so the peak measures what maintstat holds
asan = os.environ.get("ASAN_OPTIONS", "")
r = run("mail", "stats", "--json", "--no-cache", bomb,
        env={"ASAN_OPTIONS": asan + (":" if asan else "") +
             "quarantine_size_mb=8"})
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
d = r.json() if r.rc == 0 else {}
eq((r.rc, d.get("messages"), d.get("problems", {}).get("oversized")),
   (0, 3, 1), "a 256 MiB message: 3 messages, one counted oversized")
ok(rss < 200 * 1024 or rss == before, f"  in bounded memory ({rss // 1024}"
   " MiB peak; the message alone is 256 MiB)")
r = run("mail", "show", "--json", bomb, "bomb@example.com")
eq(r.json().get("subject") if r.rc == 0 else r.err, "bomb",
   "  its head is still read")
big = os.path.join(TMP, "big.mbox")
with open(big, "wb") as f:
    f.write(SEP + good[0] + b"\n" + SEP + b"Subject: big\n"
            b"Message-ID: <big@example.com>\n\n" + b"y" * (3 << 20) +
            b"\n\n" + SEP + good[2] + b"\n")
for store in ("--no-cache", None):
    r, d = stats("--max-message-size", "1", big,
                 *([store] if store else []))
    eq((r.rc, d.get("messages"), d.get("problems", {}).get("oversized")),
       (0, 3, 1),
       f"--max-message-size 1: a 3 MiB message is oversized "
       f"({store or 'store'})")
r, d = stats(big, "--no-cache")
eq(d.get("problems", {}).get("oversized"), None,
   "... and not under the default 64 MiB")
r = run("mail", "stats", "--max-message-size", "0", big)
eq(r.rc, 2, "--max-message-size 0: usage error")

# A plain mbox is read through a mapping (src/common/mapped.c): the pages
# behind the reader are handed back, so resident memory does not grow
# with the file.  Peak RSS of one child (wait4), against the same binary
# on a one-message file: 128 MiB of mail may add well under half of it.
def peak_rss_kib(*args):
    p = subprocess.Popen([MAINTSTAT, *args], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    return p.returncode, ru.ru_maxrss


mapped = os.path.join(TMP, "mapped.mbox")
one = os.path.join(TMP, "mapped-one.mbox")
line = b"x" * 63 + b"\n"
with open(mapped, "wb") as f:
    for i in range(8192):
        f.write(SEP + b"From: M <m@example.com>\nSubject: m %d\n"
                b"Message-ID: <m%d@example.com>\n"
                b"Date: Mon, 2 Jan 2023 10:30:00 +0000\n\n" % (i, i) +
                line * 256 + b"\n")
with open(one, "wb") as f:
    f.write(SEP + good[0] + b"\n")
rc0, base = peak_rss_kib("mail", "stats", "--no-cache", one)
rc1, peak = peak_rss_kib("mail", "stats", "--no-cache", mapped)
r, d = stats("--no-cache", mapped)
eq((rc0, rc1, d.get("messages")), (0, 0, 8192),
   "a 128 MiB plain mbox: 8,192 messages")
ok(peak - base < 48 * 1024,
   f"  read in place without keeping it resident ({(peak - base) // 1024}"
   f" MiB over a one-message run's {base // 1024} MiB)")
os.unlink(mapped)

# --max-index-size: an archive of many tiny messages (a few bytes each, but
# ~200 bytes each in the index) ends with an error naming the archive and
# the limit, not with an allocation failure; a run stopped so leaves the
# store sound for the next one
tiny = os.path.join(TMP, "tiny.mbox")
with open(tiny, "wb") as f:
    for i in range(60000):
        f.write(SEP + b"Message-ID: <%d@tiny>\n\nb\n\n" % i)
for store in ("--no-cache", None):
    r = run("mail", "stats", "--max-index-size", "4", tiny,
            *([store] if store else []))
    m = re.search(r"^maintstat: (\S+): the messages read need more memory "
                  r"than the limit of 4 MiB, after (\d+) messages", r.err,
                  re.M)
    eq((r.rc, r.out, m and m.group(1)), (1, "", tiny),
       f"--max-index-size 4: 60,000 tiny messages stop with exit 1 and "
       f"an error naming the archive ({store or 'store'})")
    ok(m and 5000 < int(m.group(2)) < 60000,
       f"  after part of them ({m and m.group(2)}), at about 200 bytes "
       f"a message")
r, d = stats(tiny)
eq((r.rc, d.get("messages"), d.get("message_ids")), (0, 60000, 60000),
   "without the limit the same store reads all 60,000")
r, d = stats(tiny, "--no-cache")
eq(d.get("messages"), 60000, "  as --no-cache does")
for bad in ("0", "-1", "99999999999"):
    r = run("mail", "stats", "--max-index-size", bad, tiny)
    eq((r.rc, "--max-index-size" in r.err), (2, True),
       f"--max-index-size {bad}: usage error")

# a plain mbox is read through a mapping: another program cutting it
# short while it is read (a mail client rewriting its spool) made the
# process die of SIGBUS; now the pages it lost read as zeros and the run
# stops with an error naming the file.  The run stops itself at its first
# message (MS_TEST_STOP_AT_MESSAGE=1: SIGSTOP), the file is cut there,
# and the run goes on: a known point, not a sleep raced against the
# machine (the reader works at most 8 MiB ahead of the messages counted).
import signal  # noqa: E402
from mstest import MAINTSTAT  # noqa: E402
cutf = os.path.join(TMP, "cut-while-read.mbox")
with open(cutf, "wb") as f:
    body = b"a body line of some sixty letters, as mail has them.....\n" * 16
    for i in range(16 * 1024):
        f.write(SEP + b"From: A <a@example.com>\nMessage-ID: <%d@cut>\n"
                b"Subject: m %d\n\n" % (i, i) + body + b"\n")
p = subprocess.Popen([MAINTSTAT, "mail", "stats", "--no-cache", cutf],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     env=dict(os.environ, MS_TEST_STOP_AT_MESSAGE="1"))
_, status = os.waitpid(p.pid, os.WUNTRACED)
stopped = os.WIFSTOPPED(status)
if stopped:
    os.truncate(cutf, 4096)
    p.send_signal(signal.SIGCONT)
else:
    p.returncode = os.waitstatus_to_exitcode(status)
out, err = p.communicate(timeout=600)
ok(stopped, "the run stopped at its first message (then the mbox was cut "
   "to 4 KiB)")
eq((p.returncode, out, "was cut short while it was read" in err.decode()),
   (1, b"", True),
   "cut short while read: exit 1 and an error naming it, not SIGBUS "
   f"({err.decode().strip()[:160]})")

# an interrupted download must not read as a quiet list: a corrupt or
# truncated .gz is an error, wherever it is cut
for what, data in (("cut in the middle", gz[:len(gz) // 2]),
                   ("cut before its first byte of output", gz[:12]),
                   ("a corrupt deflate stream",
                    gz[:10] + b"\xff" * 64 + gz[74:])):
    with open(cut, "wb") as f:
        f.write(data)
    r = run("mail", "stats", "--no-cache", cut)
    ok(r.rc == 1 and "truncated or corrupt" in r.err and "cut.mbox.gz"
       in r.err, f"a .gz {what}: exit 1 naming the file", r.err + r.out)
r = run("mail", "stats", cut)
eq(r.rc, 1, "... through the store too")

mboxo = os.path.join(TMP, "o.mbox")
with open(mboxo, "wb") as f:
    f.write(b"From alice@example.com Mon Jan  2 10:00:00 2023\n"
            b"From: A <a@example.com>\nMessage-ID: <o@x>\n"
            b"Date: Mon, 2 Jan 2023 10:00:00 +0000\nSubject: o\n\n"
            b">From the start\n> From quoted\n\n"
            b"From bob@example.com Mon Jan  2 11:00:00 2023\n"
            b"From: B <b@example.com>\nMessage-ID: <o2@x>\n"
            b"Date: Mon, 2 Jan 2023 11:00:00 +0000\nSubject: o2\n\nx\n")
r = run("mail", "show", "--json", mboxo, "o@x")
eq((r.json()["location"]["format"], r.json()["body"]),
   ("mboxo", "From the start\n> From quoted\n"), "mboxo: >From unquoted")
# an unescaped "From " line inside a message (not after a blank line) is
# text, not a message boundary (this once made the splitter loop forever)
loose = os.path.join(TMP, "loose.mbox")
with open(loose, "wb") as f:
    f.write(SEP + b"From: A <a@example.com>\nMessage-ID: <l@x>\n"
            b"Date: Mon, 2 Jan 2023 10:00:00 +0000\nSubject: l\n\n"
            b"text\nFrom me to you\n\n" + SEP +
            b"From: B <b@example.com>\nMessage-ID: <l2@x>\n"
            b"Date: Mon, 2 Jan 2023 10:00:00 +0000\nSubject: l2\n\nx\n")
r = run("mail", "show", "--json", loose, "l@x", timeout=60)
eq((r.rc, r.json()["body"] if r.rc == 0 else None, r.json()["location"]
    ["copies"] if r.rc == 0 else None), (0, "text\nFrom me to you\n", 1),
   "unescaped From line inside a message kept as text")
rd = os.path.join(TMP, "rd.mbox")
with open(rd, "wb") as f:
    f.write(SEP + b"From: A <a@example.com>\nMessage-ID: <rd@x>\n"
            b"Date: Mon, 2 Jan 2023 10:00:00 +0000\nSubject: rd\n\n"
            b">From one\n>>From two\n>x\n\n")
r = run("mail", "show", "--json", rd, "rd@x")
eq(r.json()["body"], "From one\n>From two\n>x\n", "mboxrd: one > removed")


# mboxo or mboxrd: a ">>From " line (mboxo never writes one) in the first
# 2 MiB decides for the whole file; one further on, from its message on.
# A plain file and its .gz read alike.
def quoting_mbox(path, filler):
    def msg(mid, body):
        return (b"From x@example.com Mon Jan  2 10:00:00 2023\n"
                b"From: A <a@example.com>\nMessage-ID: <" + mid + b">\n"
                b"Date: Mon, 2 Jan 2023 10:00:00 +0000\nSubject: q\n\n" +
                body + b"\n")
    data = msg(b"qa@x", b">From a\n>>>From deep\n")
    for i in range(filler):
        data += msg(b"f%d@x" % i, b"filler line of text\n" * 500)
    data += msg(b"qb@x", b">>From b\n")
    with open(path, "wb") as f:
        f.write(data)
    with gzip.open(path + ".gz", "wb") as f:
        f.write(data)
    return len(data)


for filler, late in ((2, False), (260, True)):
    q = os.path.join(TMP, "quoting-%d.mbox" % filler)
    size = quoting_mbox(q, filler)
    ok((size > 2 << 20) == late, "quoting mbox of %d bytes" % size)
    for path in (q, q + ".gz"):
        what = "%s ('>>From ' %s)" % (os.path.basename(path),
                                      "late" if late else "early")
        a = run("mail", "show", "--json", path, "qa@x").json()
        b = run("mail", "show", "--json", path, "qb@x").json()
        # source.format is the file's; the body was read as it stood
        eq((a["location"]["format"], a["body"]),
           ("mboxrd", "From a\n>>>From deep\n") if late else
           ("mboxrd", "From a\n>>From deep\n"), what + ": before it")
        eq((b["location"]["format"], b["body"]), ("mboxrd", ">From b\n"),
           what + ": its own message")
        r, d = stats("--no-cache", path)
        eq((r.rc, d.get("archives", [{}])[0].get("format"),
            d.get("messages")), (0, "mboxrd", filler + 2),
           what + ": the file's format")

d1 = os.path.join(TMP, "dir")
os.makedirs(os.path.join(d1, "sub"))
shutil.copy(os.path.join(MAIL, "rules.mbox"), os.path.join(d1, "a.mbox"))
shutil.copy(os.path.join(MAIL, "lab.mbox"),
            os.path.join(d1, "sub", "b.mbox"))
with open(os.path.join(d1, "notes.txt"), "w") as f:
    f.write("not an mbox\n")
r, d = stats(d1)
eq((r.rc, d.get("messages"), d.get("message_ids")), (0, 41, 40),
   "directory of mboxes (recursive)")
ok("not an mbox" in r.err, "non-mbox file in a directory: warned", r.err)

# the directory walker: links, loops, special files and nothing to read
walk = os.path.join(TMP, "walk")
os.makedirs(walk)
shutil.copy(os.path.join(MAIL, "rules.mbox"), os.path.join(walk, "a.mbox"))
for i in range(3):
    os.symlink(".", os.path.join(walk, f"loop{i}"))
os.symlink("a.mbox", os.path.join(walk, "same.mbox"))
os.mkfifo(os.path.join(walk, "fifo.mbox"))
os.symlink("/dev/zero", os.path.join(walk, "zero.mbox"))
os.symlink(os.path.join(MAIL, "lab.mbox"), os.path.join(walk, "out.mbox"))
os.symlink("no-such-file", os.path.join(walk, "dangling.mbox"))
for store in ("--no-cache", None):
    args = [walk] + ([store] if store else [])
    try:
        r = run("mail", "stats", "--json", *args, timeout=60)
        d = r.json() if r.rc == 0 else {}
    except subprocess.TimeoutExpired:
        r, d = None, {}
    ok(r is not None and r.rc == 0 and d.get("messages") == 20,
       f"links looping three times, a FIFO, /dev/zero, a link out, a "
       f"dangling link ({store or 'store'}): one mbox read once",
       r and r.err + r.out)
    if r:
        for name, why in (("fifo.mbox", "not a regular file"),
                          ("zero.mbox", "outside"),
                          ("out.mbox", "outside"),
                          ("dangling.mbox", "leads nowhere")):
            ok(f"{name}: " in r.err and why in r.err,
               f"... {name} warned about ({why})", r.err)

for what, make in (("an empty folder", lambda p: None),
                   ("an inbox left as git/0.git.partial",
                    lambda p: subprocess.run(
                        ["git", "init", "-q", "--bare",
                         os.path.join(p, "git", "0.git.partial")],
                        check=True)),
                   ("only files that are no mbox",
                    lambda p: open(os.path.join(p, "x.txt"), "w").write(
                        "hello\n"))):
    p = os.path.join(TMP, "none-" + str(abs(hash(what))))
    os.makedirs(p)
    make(p)
    for store in ("--no-cache", None):
        r = run("mail", "stats", p, *([store] if store else []))
        ok(r.rc == 1 and "holds no mail archive" in r.err,
           f"{what} ({store or 'store'}): an error naming what was "
           "expected", r.err + r.out)


# ---- public-inbox v2 and v1, built with git ----
def git(*args, cwd=None, input=None):
    env = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@x",
               GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@x",
               GIT_AUTHOR_DATE="1700000000 +0000",
               GIT_COMMITTER_DATE="1700000000 +0000")
    p = subprocess.run(["git", *args], cwd=cwd, input=input,
                       capture_output=True, env=env, check=True)
    return p.stdout.decode().strip()


def commit_message(repo, path, raw, parent):
    blob = git("hash-object", "-w", "--stdin", cwd=repo, input=raw)
    tree_in = f"100644 blob {blob}\t{path}\n".encode()
    if "/" in path:
        d, name = path.split("/")
        sub = git("mktree", cwd=repo,
                  input=f"100644 blob {blob}\t{name}\n".encode())
        tree_in = f"040000 tree {sub}\t{d}\n".encode()
    tree = git("mktree", cwd=repo, input=tree_in)
    args = ["commit-tree", tree, "-m", "msg"]
    if parent:
        args += ["-p", parent]
    c = git(*args, cwd=repo)
    git("update-ref", "refs/heads/master", c, cwd=repo)
    return c


raws = split_mbox(os.path.join(MAIL, "rules.mbox"))
eq(len(raws), 20, "rules.mbox split into 20 raw messages")
inbox = os.path.join(TMP, "inbox-v2")
commits = {0: [], 1: []}
for epoch, chunk in ((0, raws[:12]), (1, raws[12:])):
    repo = os.path.join(inbox, "git", f"{epoch}.git")
    git("init", "-q", "--bare", repo)
    git("symbolic-ref", "HEAD", "refs/heads/master", cwd=repo)
    parent = None
    for raw in chunk:
        parent = commit_message(repo, "m", raw, parent)
        commits[epoch].append(parent)
r, d = stats(inbox)
check_counts(d, RULES, "public-inbox v2: same model as the mbox")
eq(d.get("archives", [{}])[0].get("format"), "public-inbox-v2",
   "v2 detected")
eq(d.get("archives", [{}])[0].get("heads"),
   [f"0:{commits[0][-1]}", f"1:{commits[1][-1]}"], "v2 heads per epoch")
r, d = stats("--after", f"0:{commits[0][-1]}", "--after",
             f"1:{commits[1][4]}", inbox)
eq(d.get("messages"), 3, "--after per epoch: only newer mail read")
r, d = stats("--after", commits[1][4], inbox)
eq(d.get("messages"), 12 + 3, "--after COMMIT found in its epoch")
# only canonical N.git names are epochs: "00.git", "+0.git", " 0.git" are
# not epoch 0 again (each re-read 0.git: messages counted four times)
alias = os.path.join(TMP, "inbox-alias")
shutil.copytree(inbox, alias, symlinks=True)
for name in ("00.git", "+0.git", " 0.git"):
    os.symlink("0.git", os.path.join(alias, "git", name))
for store in ("--no-cache", None):
    r, d = stats(alias, *([store] if store else []))
    eq(d.get("messages"), 20, "v2 epochs 00.git, +0.git, ' 0.git' beside "
       f"0.git: each message counted once ({store or 'store'})")
r = run("mail", "stats", "--after", "0:" + "f" * 40, inbox)
eq(r.rc, 1, "--after unknown commit: runtime error")
r = run("mail", "stats", "--after", "x:y", inbox)
eq(r.rc, 2, "--after malformed: usage error")
r = run("mail", "show", "--json", inbox, "c-1@kernel.org")
eq((r.rc, r.json()["location"].get("commit") if r.rc == 0 else None,
    r.json()["location"].get("copies") if r.rc == 0 else None),
   (0, commits[1][2], 2), "show from public-inbox names the commit")

v1 = os.path.join(TMP, "inbox-v1")
git("init", "-q", "--bare", v1)
git("symbolic-ref", "HEAD", "refs/heads/master", cwd=v1)
parent = None
for i, raw in enumerate(raws):
    parent = commit_message(v1, f"{i:02x}/{i:038x}", raw, parent)
r, d = stats(v1)
check_counts(d, RULES, "public-inbox v1: same model as the mbox")
eq(d.get("archives", [{}])[0].get("format"), "public-inbox-v1",
   "v1 detected")

# ---- mail show ----
r = run("mail", "show", "--json", os.path.join(MAIL, "rules.mbox"),
        "<c-1@kernel.org>")
j = r.json() if r.rc == 0 else {}
eq((j.get("kind"), j.get("sender", {}).get("email"),
    j.get("diff", {}).get("file_list"),
    j.get("location", {}).get("copies")),
   ("patch", "carol@example.com", ["net/qux.c"], 2),
   "show: kind, real sender, files, duplicate copies")
r = run("mail", "show", os.path.join(MAIL, "rules.mbox"), "nope@x")
eq(r.rc, 1, "show: unknown Message-ID is a runtime error")
ok("nope@x" in r.err, "show: the error names the id", r.err)
eq(run("mail", "show", os.path.join(MAIL, "rules.mbox")).rc, 2,
   "show: missing MSGID is a usage error")
eq(run("mail", "frobnicate").rc, 2, "unknown subcommand: usage error")
eq(run("mail", "stats").rc, 2, "stats without ARCHIVE: usage error")
r = run("mail", "stats", os.path.join(TMP, "missing.mbox"))
ok(r.rc == 1 and "cannot open" in r.err, "missing archive: exit 1", r.err)
eq(run("mail", "stats", "--help").rc, 0, "stats --help")


# ---- patch-id against git's own ----
def check_patch_ids(raws, limit, what):
    good = bad = 0
    for raw in raws:
        head = raw.split(b"\n\n", 1)[0]
        low = head.lower()
        if b"diff --git" not in raw or b"base64" in low or \
                b"quoted-printable" in low or b"multipart" in low or \
                re.search(rb"^subject:\s*re:", low, re.M):
            continue
        m = re.search(rb"^message-id:\s*<([^>]+)>", head, re.M | re.I)
        if not m:
            continue
        want = subprocess.run(["git", "patch-id", "--stable"], input=raw,
                              capture_output=True).stdout.split()
        want = want[0].decode() if want else None
        one = os.path.join(TMP, "one.mbox")
        with open(one, "wb") as f:
            f.write(SEP + raw)
        r = run("mail", "show", "--json", one, m.group(1).decode())
        got = (r.json().get("diff") or {}).get("patch_id") \
            if r.rc == 0 else None
        if got == want:
            good += 1
        else:
            bad += 1
            print(f"# patch-id mismatch {m.group(1)}: {got} != {want}")
        if good + bad >= limit:
            break
    ok(good > 0 and bad == 0, f"{what}: {good} patch-ids equal git's")


check_patch_ids(raws + split_mbox(os.path.join(MAIL, "lab.mbox")), 50,
                "fixtures")

# ---- the real linux-rdma slice ----
if os.path.exists(RDMA):
    r, d = stats(RDMA)
    eq(r.rc, 0, "rdma: stats exits 0")
    cache = os.environ.get("MS_CACHE")
    want = None
    # Keyed by the independent parser's own text, so that a change to
    # its definitions is never hidden by an answer cached before it.
    with open(os.path.join(HERE, "mail_independent.py"), "rb") as f:
        key = hashlib.sha256(f.read()).hexdigest()[:16]
    cached = os.path.join(cache, "mail-rdma-independent-%s.json" % key) \
        if cache else None
    if cached and os.path.exists(cached):
        with open(cached) as f:
            want = json.load(f)
    else:
        p = subprocess.run([sys.executable,
                            os.path.join(HERE, "mail_independent.py"),
                            RDMA], capture_output=True, check=True)
        want = json.loads(p.stdout)
        if cached:
            os.makedirs(cache, exist_ok=True)
            with open(cached, "w") as f:
                json.dump(want, f)
    eq((d.get("messages"), d.get("message_ids")), (6878, 6825),
       "rdma: messages and distinct ids (README)")
    check_counts(d, want, "rdma: counts equal an independent parser's")
    eq(d.get("problems"), {"misdated": 1},
       "rdma: every message parses cleanly; one spam message "
       "(<1285629455-13472@mail.dom-cr.it>) is dated a month after its "
       "receipt, and dated by its receipt")
    with gzip.open(RDMA, "rb") as f:
        data = f.read()
    rd_raws = [p for p in data.split(b"\n" + SEP)]
    rd_raws[0] = rd_raws[0][len(SEP):]
    rd_raws = [re.sub(rb"(?m)^>(>*From )", rb"\1", p) for p in rd_raws]
    check_patch_ids(rd_raws[::7], 40, "rdma")
else:
    skip("rdma slice", f"{RDMA} not present")

shutil.rmtree(TMP, ignore_errors=True)
done()
