#!/usr/bin/env python3
"""maintstat fetch against a real public-inbox-httpd on 127.0.0.1 (the
shared lore-lab): mirror the inbox and compare every message with the
server's, add messages on the server and fetch only those, save a search
and a thread and compare them with what the server holds."""
import gzip
import mailbox
import os
import shutil
import subprocess
import sys
import urllib.parse
import urllib.request
sys.path.insert(0, os.path.dirname(__file__))
from mstest import SCHEMA, run, ok, eq, done, tmpdir, skip_all, SOURCE_ROOT  # noqa: E402

LAB = os.environ.get("MS_LORE_LAB") or os.path.join(
    SOURCE_ROOT, "..", "shared", "lore-lab")
START = os.path.join(LAB, "start-local-lore.sh")
STOP = os.path.join(LAB, "stop-local-lore.sh")
MBOX = os.path.join(LAB, "lab.mbox")
if not os.path.exists(START):
    skip_all(f"no lore-lab at {LAB} (set MS_LORE_LAB)")
if not shutil.which("public-inbox-httpd"):
    skip_all("public-inbox is not installed (scripts/deps.sh)")

T = tmpdir()
WORK = os.path.join(T, "lore")
DEST = os.path.join(T, "mirror")


def mids_of_mbox(path):
    return [m["Message-ID"].strip()[1:-1] for m in mailbox.mbox(path)]


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args],
                          capture_output=True, check=True).stdout


def mirror_messages(repo):
    """Message-ID -> raw bytes of blob 'm', for every commit."""
    out = {}
    for c in git(repo, "rev-list", "refs/heads/master").split():
        c = c.decode()
        try:
            raw = git(repo, "cat-file", "blob", c + ":m")
        except subprocess.CalledProcessError:
            continue  # a deletion commit
        msg = mailbox.mboxMessage(raw)
        out[msg["Message-ID"].strip()[1:-1]] = raw
    return out


def unmboxrd(data):
    """The server's /raw: drop the From_ line, undo mboxrd quoting."""
    lines = data.split(b"\n")[1:]
    out = []
    for line in lines:
        s = line.lstrip(b">")
        if s.startswith(b"From ") and line.startswith(b">"):
            line = line[1:]
        out.append(line)
    return b"\n".join(out)


def http(url, post=False):
    req = urllib.request.Request(url, data=b"" if post else None)
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def import_mbox(path):
    """Add messages to the server's inbox the way start-local-lore does."""
    env = dict(os.environ, PI_CONFIG=os.path.join(WORK, "config"))
    subprocess.run(["perl", "-w", "-MPublicInbox::Config",
                    "-MPublicInbox::InboxWritable", "-e", """
        my ($name, $mbox) = @ARGV;
        my $ibx = PublicInbox::Config->new->lookup_name($name) or die;
        $ibx = PublicInbox::InboxWritable->new($ibx);
        open my $fh, '<', $mbox or die "open $mbox: $!";
        $ibx->import_mbox($fh, 'mboxrd');
    """, "netdev", path], check=True, env=env, capture_output=True)


p = subprocess.run([START, MBOX, "0", WORK], capture_output=True, text=True)
if p.returncode != 0:
    shutil.rmtree(T, ignore_errors=True)
    # the server is the point of this test: failing to start it fails
    print(f"not ok 1 - start-local-lore.sh failed: {p.stderr.strip()}")
    print("1..1")
    sys.exit(1)
BASE = p.stdout.strip()
URL = BASE + "/netdev/"
try:
    planted = mids_of_mbox(MBOX)
    eq(len(planted), 21, "lab.mbox holds 21 messages")

    # Mirror.
    r = run("fetch", "--dest", DEST, URL, "--json")
    eq(r.rc, 0, "mirror the inbox")
    j = r.json()
    ib = j["inboxes"][0]
    eq(j["schema_version"], SCHEMA, "JSON: schema_version")
    eq((ib["inbox"], ib["epochs_from"], ib["new_messages"]),
       ("netdev", "manifest", 21), "  21 messages, epochs from the manifest")
    eq([(e["epoch"], e["new"]) for e in ib["epochs"]], [(0, True)],
       "  epoch 0, new")
    repo = os.path.join(DEST, "netdev", "git", "0.git")
    server_repo = os.path.join(WORK, "netdev", "git", "0.git")
    eq(git(repo, "rev-parse", "refs/heads/master"),
       git(server_repo, "rev-parse", "refs/heads/master"),
       "  same head as the server's repository")
    eq(ib["epochs"][0]["tip"],
       git(repo, "rev-parse", "HEAD").decode().strip(), "  tip in JSON")
    msgs = mirror_messages(repo)
    eq(sorted(msgs), sorted(planted), "  every planted Message-ID")
    same = 0
    for mid, raw in msgs.items():
        seg = urllib.parse.quote(mid, safe="@+=")
        st, body = http(f"{URL}{seg}/raw")
        same += st == 200 and unmboxrd(body).rstrip(b"\n") == \
            raw.rstrip(b"\n")
    eq(same, 21, "  each message equals the server's /raw")

    r = run("fetch", "--dest", DEST, URL)
    eq(r.rc, 0, "fetch again")
    eq(r.out.splitlines()[1:], ["  epoch 0: up to date",
                                "netdev: 0 new messages in 1 epoch"],
       "  nothing new")

    # New messages on the server: only they arrive.
    new = os.path.join(T, "new.mbox")
    with open(new, "w") as f:
        for i in range(3):
            f.write(f"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
                    f"From: New Dev <new@example.com>\n"
                    f"To: netdev@vger.kernel.org\n"
                    f"Subject: [PATCH {i + 1}/3] late arrival\n"
                    f"Date: Mon, 20 Jan 2020 10:00:0{i} +0000\n"
                    f"Message-ID: <late-{i}@example.com>\n\nbody {i}\n\n")
    import_mbox(new)
    r = run("fetch", "--dest", DEST, URL)
    eq(r.rc, 0, "fetch after adding 3 messages on the server")
    eq(r.out.splitlines()[1:], ["  epoch 0: 3 new messages",
                                "netdev: 3 new messages in 1 epoch"],
       "  3 new messages")
    eq(sorted(set(mirror_messages(repo)) - set(planted)),
       ["late-0@example.com", "late-1@example.com", "late-2@example.com"],
       "  exactly the added ones")
    eq(git(repo, "rev-parse", "refs/heads/master"),
       git(server_repo, "rev-parse", "refs/heads/master"),
       "  same head as the server again")

    # Searches, compared with the server's own answer.
    box = mailbox.mbox(MBOX)
    jane = sorted(m["Message-ID"].strip()[1:-1] for m in box
                  if "jane.dev@example.com" in m["From"])
    for q, threads in (("f:jane.dev@example.com", False),
                       ("dfn:drivers/net/foo.h", True),
                       ("dfn:drivers/net/foo.h", False)):
        out = os.path.join(T, "q.mbox")
        args = ["--whole-threads"] if threads else []
        r = run("fetch", "--query", q, *args, URL, "-o", out)
        eq(r.rc, 0, f"query {q}{' --whole-threads' if threads else ''}")
        st, body = http(f"{URL}?q={urllib.parse.quote(q)}&x=m" +
                        ("&t=1" if threads else ""), post=True)
        with open(out, "rb") as f:
            got = f.read()
        eq(got, gzip.decompress(body), "  the server's mbox, unpacked")
        if q.startswith("f:"):
            eq(sorted(mids_of_mbox(out)), jane,
               "  every message from jane.dev (planted: 7)")
        n = len(mids_of_mbox(out))
        ok(f"wrote {n} messages" in r.out, "  counts them", r.out)
    n_plain = len(mids_of_mbox(out))
    eq(n_plain, 2, "  dfn:drivers/net/foo.h matches 2 messages")

    # Threads, including a Message-ID with '/', '+' and '='.
    for mid, n in (("20200106090000.4711-1-jane.dev@example.com", 11),
                   ("CANn89i+Lx=Q3kZ/abc+def=_XyZ@mail.gmail.example", 2)):
        out = os.path.join(T, "t.mbox")
        r = run("fetch", "--thread", f"<{mid}>", URL, "-o", out)
        eq(r.rc, 0, f"thread of {mid[:20]}...")
        seg = urllib.parse.quote(mid, safe="@+=")
        st, body = http(f"{URL}{seg}/t.mbox.gz")
        with open(out, "rb") as f:
            eq(f.read(), gzip.decompress(body), "  the server's thread")
        eq(len(mids_of_mbox(out)), n, f"  {n} messages")

    # Without --dest: $XDG_DATA_HOME/maintstat/inboxes.
    xdg = os.path.join(T, "xdg")
    r = run("fetch", "--json", URL, env={"XDG_DATA_HOME": xdg})
    eq(r.rc, 0, "mirror without --dest")
    eq(r.json()["inboxes"][0]["path"] if r.rc == 0 else None,
       os.path.join(xdg, "maintstat", "inboxes", "netdev"),
       "  into $XDG_DATA_HOME/maintstat/inboxes/<inbox>")
    ok(os.path.isdir(os.path.join(xdg, "maintstat", "inboxes", "netdev",
                                  "git", "0.git")), "  epoch 0 is there")

    # Unknowns.
    r = run("fetch", "--dest", DEST, BASE + "/nosuch/")
    eq(r.rc, 1, "unknown inbox: exit 1")
    ok("unknown inbox" in r.err and "404" in r.err, "  named as such",
       r.err)
    r = run("fetch", "--thread", "nonexistent@example.com", URL, "-o",
            os.path.join(T, "none.mbox"))
    eq(r.rc, 1, "unknown message: exit 1")
    ok("not found" in r.err, "  named as such", r.err)
    ok(not os.path.exists(os.path.join(T, "none.mbox")), "  no file")
finally:
    subprocess.run([STOP, "--purge", WORK], capture_output=True)
    shutil.rmtree(T, ignore_errors=True)
done()
