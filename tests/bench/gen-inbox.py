#!/usr/bin/env python3
"""gen-inbox.py - the mailing-list archive of a generated history, as a
public-inbox v2 inbox (epoch 0), through git fast-import.

  gen-inbox.py [--max N] GITDIR INBOX

For every non-merge commit of GITDIR's master (oldest first) it posts the
patch (From: the author, Date: the author date, Subject: [PATCH] and the
summary line, the commit message and a diff of the touched paths), and a
reply to it with a Reviewed-by.  Message-IDs are <N.post@example.org> and
<N.reply@example.org> for the N-th commit.  Run it again after
gen-history.py --append: it posts only the commits it has not posted yet
(INBOX/gen-inbox.count remembers how many), so the archive grows as a
list's does.  --max N stops after the N-th commit (2N messages).  Deterministic: the same history gives the same inbox.

Used by tests/bench/bench-store.sh (1% new commits and 1% new messages).
"""
import argparse
import email.utils
import os
import subprocess
import sys

SEP = "\x1e"
CHUNK = 10000
END = "\x1d"


def git(gitdir, *args):
    return subprocess.run(["git", "--git-dir", gitdir, *args],
                          capture_output=True, check=True).stdout


def commits(gitdir, skip=0):
    """The non-merge commits of master, oldest first, without the first
    `skip`, read from git log as it prints them (a million commits never
    sit in memory at once)."""
    fmt = SEP.join(["%H", "%an", "%ae", "%at", "%ai", "%s", "%B"]) + END
    # `git log --reverse` holds every commit, message and all, before it
    # prints the first (730 MB at 276k commits): list the ids oldest
    # first (41 bytes each) and show them CHUNK at a time instead.
    ids = subprocess.run(["git", "--git-dir", gitdir, "rev-list",
                          "--reverse", "--no-merges", "master"],
                         capture_output=True, check=True).stdout.split()

    def shown():
        for at in range(0, len(ids), CHUNK):
            p = subprocess.Popen(["git", "--git-dir", gitdir, "log",
                                  "--no-walk=unsorted", "--stdin",
                                  "--name-only", f"--format={fmt}"],
                                 stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE)
            p.stdin.write(b"\n".join(ids[at:at + CHUNK]) + b"\n")
            p.stdin.close()
            yield from iter(lambda: p.stdout.read(1 << 20), b"")
            if p.wait() != 0:
                sys.exit("gen-inbox: git log failed")
    # each record: header fields, then (after END) the name list that
    # --name-only prints before the next record
    pending = None   # the last header read, waiting for its paths
    n = 0
    buf = ""
    first = True

    def header(head):
        if SEP not in head:
            return None
        f = head.lstrip("\n").split(SEP)
        return {"id": f[0], "an": f[1], "ae": f[2], "at": int(f[3]),
                "ai": f[4], "s": f[5], "body": f[6], "paths": []}

    def pieces():
        nonlocal buf
        for chunk in shown():
            buf += chunk.decode("utf-8", "replace")
            parts = buf.split(END)
            buf = parts.pop()
            yield from parts
        yield buf

    for rec in pieces():
        if first:
            head = rec
            first = False
        else:
            lines = rec.split("\n")
            # the paths of the pending record come first, then a header
            paths = []
            k = 0
            while k < len(lines) and SEP not in lines[k]:
                if lines[k].strip():
                    paths.append(lines[k].strip())
                k += 1
            if pending is not None:
                pending["paths"] = paths
                if n >= skip:
                    yield pending
                n += 1
                pending = None
            head = "\n".join(lines[k:])
        pending = header(head)
    if pending is not None and n >= skip:
        yield pending


def tz_of(ai):
    # "2005-01-01 01:00:00 +0100" -> seconds east of UTC
    z = ai.split()[-1]
    sign = -1 if z[0] == "-" else 1
    return sign * (int(z[1:3]) * 3600 + int(z[3:5]) * 60)


def date_hdr(t, tz):
    import datetime as dt
    d = dt.datetime.fromtimestamp(t, dt.timezone(dt.timedelta(seconds=tz)))
    return email.utils.format_datetime(d)


def posting(n, c):
    paths = c["paths"] or ["README"]
    diff = []
    for p in paths:
        diff += [f"diff --git a/{p} b/{p}", f"--- a/{p}", f"+++ b/{p}",
                 "@@ -1 +1 @@", f"-/* {p} before change {n} */",
                 f"+/* {p} at change {n} */"]
    body = c["body"].rstrip("\n")
    text = (f"From: {c['an']} <{c['ae']}>\n"
            f"To: list@lists.example.org\n"
            f"Subject: [PATCH] {c['s']}\n"
            f"Date: {date_hdr(c['at'], tz_of(c['ai']))}\n"
            f"Message-ID: <{n}.post@example.org>\n"
            f"List-Id: <list.lists.example.org>\n"
            f"MIME-Version: 1.0\n"
            f"Content-Type: text/plain; charset=utf-8\n\n"
            f"{body}\n---\n" + "\n".join(diff) + "\n-- \n2.40.0\n")
    return text.encode("utf-8")


def reply(n, c):
    who = f"Rev {n % 50} <rev{n % 50}@example.org>"
    text = (f"From: {who}\n"
            f"To: {c['an']} <{c['ae']}>\n"
            f"Cc: list@lists.example.org\n"
            f"Subject: Re: [PATCH] {c['s']}\n"
            f"Date: {date_hdr(c['at'] + 3600, 0)}\n"
            f"Message-ID: <{n}.reply@example.org>\n"
            f"In-Reply-To: <{n}.post@example.org>\n"
            f"References: <{n}.post@example.org>\n"
            f"List-Id: <list.lists.example.org>\n\n"
            f"On change {n}:\n> {c['s']}\n\nLooks good.\n\n"
            f"Reviewed-by: {who}\n")
    return text.encode("utf-8")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--max", type=int, default=0)
    ap.add_argument("gitdir")
    ap.add_argument("inbox")
    a = ap.parse_args()

    epoch = os.path.join(a.inbox, "git", "0.git")
    state = os.path.join(a.inbox, "gen-inbox.count")
    done = 0
    if os.path.isdir(epoch):
        with open(state) as f:
            done = int(f.read().strip() or 0)
    else:
        os.makedirs(os.path.dirname(epoch), exist_ok=True)
        subprocess.run(["git", "init", "-q", "--bare", epoch], check=True)
        subprocess.run(["git", "--git-dir", epoch, "symbolic-ref", "HEAD",
                        "refs/heads/master"], check=True)
    todo = commits(a.gitdir, done)
    p = subprocess.Popen(["git", "--git-dir", epoch, "fast-import",
                          "--quiet", "--done"], stdin=subprocess.PIPE)
    out = p.stdin
    # on top of the existing branch: name its tip once, then marks follow
    resume = done > 0
    n = done - 1
    for c in todo:
        if a.max and n + 1 >= a.max:
            break
        n += 1
        for raw in (posting(n, c), reply(n, c)):
            out.write(b"commit refs/heads/master\n")
            out.write(b"author a <a@x> %d +0000\n" % c["at"])
            out.write(b"committer a <a@x> %d +0000\n" % c["at"])
            out.write(b"data 1\nm\n")
            if resume:
                out.write(b"from refs/heads/master^0\n")
                resume = False
            out.write(b"M 100644 inline m\n")
            out.write(b"data %d\n" % len(raw) + raw + b"\n\n")
    out.write(b"done\n")
    out.close()
    if p.wait() != 0:
        sys.exit("gen-inbox: git fast-import failed")
    with open(state, "w") as f:
        f.write(f"{n + 1}\n")


if __name__ == "__main__":
    main()
