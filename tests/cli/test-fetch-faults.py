#!/usr/bin/env python3
"""maintstat fetch against a misbehaving server (tests/cli/faultserver.py):
retries, Retry-After, broken bodies, stalls, HTML and anti-bot pages, 404s,
multi-epoch inboxes served by git http-backend, and interrupted runs that
must leave nothing half-written."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
sys.path.insert(0, os.path.dirname(__file__))
from mstest import (MAINTSTAT, run, run_tty, ok, eq, done,  # noqa: E402
                    skip, skip_all, tmpdir)
import faultserver  # noqa: E402

if not shutil.which("git"):
    skip_all("git is not installed")

T = tmpdir()
GITROOT = os.path.join(T, "server")
os.makedirs(GITROOT)
srv, BASE = faultserver.start("--git-root", GITROOT, "--state", T)


def count(mode):
    with urllib.request.urlopen(f"{BASE}/_count/{mode}") as r:
        return int(r.read())


def last(mode):
    with urllib.request.urlopen(f"{BASE}/_last/{mode}") as r:
        return r.read().decode()


def msgids(path):
    with open(path, "rb") as f:
        return [line.split(b"<")[1].split(b">")[0].decode()
                for line in f if line.startswith(b"Message-ID:")]


def leftovers(d):
    return sorted(n for n in os.listdir(d) if ".tmp" in n or
                  n.endswith(".partial"))


PLANTED = ["fault-1@example.com", "fault-2@example.com",
           "fault-3@example.com"]
OUT = os.path.join(T, "out")
os.makedirs(OUT)
QUICK = ("--retries", "2", "--timeout", "2")


def thread(mode, *extra):
    out = os.path.join(OUT, mode + ".mbox")
    return out, run("fetch", *QUICK, *extra, "--thread", "<a/b+c=d@x>",
                    f"{BASE}/{mode}/inbox/", "-o", out)


try:
    # The good case: the thread arrives unpacked, as mboxrd.
    out, r = thread("ok")
    eq(r.rc, 0, "thread from a good server", )
    eq(msgids(out), PLANTED, "thread: the three planted messages")
    with open(out, "rb") as f:
        ok(b"\n>From quoted\n" in f.read(), "mboxrd quoting kept")
    ok("3 messages" in r.out, "says how many messages", r.out)
    eq(last("ok"), "GET /inbox/a%2Fb+c=d@x/t.mbox.gz",
       "Message-ID without <>, '/' as %2F, '+' and '=' literal")

    # 500 once: retried, then fine.
    out, r = thread("e500-1")
    eq(r.rc, 0, "one 500 is retried")
    eq(count("e500-1"), 2, "  two requests")
    eq(msgids(out), PLANTED, "  the whole thread")

    # 500 for ever: fails after the retries, old file untouched.
    out = os.path.join(OUT, "keep.mbox")
    with open(out, "w") as f:
        f.write("OLD\n")
    r = run("fetch", *QUICK, "--thread", "x@y", f"{BASE}/e500-99/inbox/",
            "-o", out)
    eq(r.rc, 1, "persistent 500 fails (exit 1)")
    eq(count("e500-99"), 3, "  first try + --retries 2")
    ok("500" in r.err and r.err.startswith("maintstat: "),
       "  the error names the status", r.err)
    with open(out) as f:
        eq(f.read(), "OLD\n", "  the existing file is untouched")
    eq(leftovers(OUT), [], "  no temporary file left")

    # 429 and 503 with Retry-After: 2 are waited for.
    for mode in ("e429-1-2", "e503-1-2"):
        t0 = time.monotonic()
        out, r = thread(mode)
        took = time.monotonic() - t0
        eq(r.rc, 0, f"{mode[:4]} with Retry-After is retried")
        eq(count(mode), 2, f"  {mode[:4]}: two requests")
        ok(took >= 1.9, f"  {mode[:4]}: waited the Retry-After (2s)",
           f"took {took:.2f}s")
    out, r = thread("e429-1-999")
    eq(r.rc, 1, "Retry-After beyond the limit fails at once")
    eq(count("e429-1-999"), 1, "  without a retry")
    ok("retry after 999s" in r.err, "  and says why", r.err)

    # Broken bodies.
    for mode, what in (("truncgz", "truncated gzip"),
                       ("badgz", "corrupt gzip"),
                       ("reset", "broke off"),
                       ("stall", "timed out")):
        out, r = thread(mode + "-1")
        eq(r.rc, 0, f"{mode} once: retried and complete")
        eq(msgids(out), PLANTED, f"  {mode}: the whole thread")
        extra = ("--retries", "0", "--timeout", "1") if mode == "stall" \
            else ()
        out, r = thread(mode + "-99", *extra)
        eq(r.rc, 1, f"{mode} for ever: exit 1")
        ok(what in r.err, f"  {mode}: error says '{what}'", r.err)
        ok(not os.path.exists(out), f"  {mode}: no output file")
        eq(leftovers(OUT), [], f"  {mode}: no temporary file")

    # Killed in the middle of a download: nothing is left, not even a
    # temporary file, and an existing file keeps its content.
    out = os.path.join(OUT, "killed.mbox")
    with open(out, "w") as f:
        f.write("OLD\n")
    body_sent = os.path.join(T, "stalled-body")
    if os.path.exists(body_sent):
        os.unlink(body_sent)      # an earlier stall's
    p = subprocess.Popen([MAINTSTAT, "fetch", "--thread", "x@y",
                          f"{BASE}/stall-99.k/inbox/", "-o", out],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # the server says when half of the body is sent: a known point, not a
    # sleep raced against the machine
    for _ in range(1200):
        if os.path.exists(body_sent) or p.poll() is not None:
            break
        time.sleep(0.05)
    ok(os.path.exists(body_sent), "  the server sent half of the body")
    p.send_signal(signal.SIGKILL)
    p.wait()
    eq(count("stall-99.k"), 1, "killed while the body was arriving")
    with open(out) as f:
        eq(f.read(), "OLD\n", "  the existing file is untouched")
    eq(leftovers(OUT), [], "  no temporary file left")

    # Wrong kinds of answer.
    out, r = thread("html")
    eq(r.rc, 1, "an HTML page instead of mbox fails")
    ok("HTML page, not an mbox" in r.err, "  named as such", r.err)
    out, r = thread("antibot")
    eq(r.rc, 1, "an anti-bot page fails")
    ok("anti-bot challenge page (Anubis)" in r.err,
       "  named as an anti-bot page", r.err)
    ok("git" in r.err.split("Anubis")[1], "  with the git advice", r.err)
    out, r = thread("e404")
    eq(r.rc, 1, "unknown message: exit 1")
    ok("not found" in r.err and "a/b+c=d@x" in r.err,
       "  names the message", r.err)
    out, r = thread("redirect")
    eq(r.rc, 0, "a redirect is followed")
    eq(msgids(out), PLANTED, "  to the thread")

    # Hostile servers: each ends with a named error within the timeouts,
    # nothing written, memory bounded.
    def hostile(mode, want, what, *extra):
        out = os.path.join(OUT, mode + ".mbox")
        t0 = time.time()
        out, r = thread(mode, *extra)
        took = time.time() - t0
        ok(r.rc == 1 and want in r.err, what, r.err)
        ok(not os.path.exists(out) and leftovers(OUT) == [],
           "  nothing written", os.listdir(OUT))
        ok(took < 60, f"  within the timeouts ({took:.1f} s)")
        return r
    r = hostile("tofile", "another scheme than http or https (refused)",
                "a redirect to file:// is refused")
    ok("root:" not in r.err + r.out, "  and nothing of the file is read")
    hostile("loop", "too many redirects", "a redirect loop ends")
    hostile("huge", "more than", "a body announcing 10 GB is refused at once")
    hostile("endless", "more than 1048576 bytes",
            "an endless body stops at --max-size", "--max-size", "1")
    hostile("gzbomb", "more than 1048576 bytes",
            "a gzip bomb stops at --max-size, counted inflated",
            "--max-size", "1")
    hostile("trickle", "timed out",
            "two bytes a second is no transfer: --timeout applies",
            "--retries", "0")
    for bad in ("..", "<..>", "."):
        out = os.path.join(OUT, "dots.mbox")
        r = run("fetch", *QUICK, "--thread", bad, f"{BASE}/ok.dots/inbox/",
                "-o", out)
        ok(r.rc == 2 and "not a Message-ID" in r.err and
           count("ok.dots") == 0,
           f"--thread '{bad}': refused, no request leaves the inbox", r.err)
    dest = os.path.join(T, "bombdest")
    t0 = time.time()
    r = run("fetch", "--retries", "0", "--timeout", "5", "--dest", dest,
            f"{BASE}/gzbomb/inbox/")
    ok(r.rc == 1 and "manifest.js.gz" in r.err and
       "more than 16777216 bytes" in r.err,
       "a manifest.js.gz bomb is refused at 16 MiB", r.err)

    # Queries: a POST with x=m (t=1 with --threads).
    out = os.path.join(OUT, "q.mbox")
    r = run("fetch", *QUICK, "--query", "s:PATCH fault", "--whole-threads",
            f"{BASE}/ok.q/inbox/", "-o", out)
    eq(r.rc, 0, "query")
    eq(msgids(out), PLANTED, "  the matches")
    eq(last("ok.q"), "POST /inbox/?q=s%3APATCH%20fault&x=m&t=1",
       "  POST with the query encoded, x=m and t=1")
    r = run("fetch", *QUICK, "--query", "nomatch", f"{BASE}/ok.n/inbox/",
            "-o", out, "--json")
    eq(r.rc, 0, "a query without match is not an error")
    eq(r.json()["messages"], 0, "  0 messages (JSON)")
    eq(os.path.getsize(out), 0, "  and an empty mbox")
    r = run("fetch", *QUICK, "--query", "nomatch", f"{BASE}/e404/inbox/",
            "-o", out)
    eq(r.rc, 1, "a query on an unknown inbox fails")
    ok("unknown inbox" in r.err, "  named as such", r.err)

    # Transport failures.
    r = run("fetch", "--retries", "1", "--thread", "x@y",
            "http://127.0.0.1:1/inbox/", "-o", out)
    eq(r.rc, 1, "refused connection: exit 1")
    ok("cannot connect" in r.err, "  named as such", r.err)
    r = run("fetch", "--retries", "1", "--thread", "x@y",
            BASE.replace("http:", "https:") + "/ok/inbox/", "-o", out)
    eq(r.rc, 1, "TLS failure: exit 1")
    ok("tls failure" in r.err, "  named as such", r.err)

    # TLS verification is always on: a self-signed certificate fails.
    if shutil.which("openssl"):
        cert, key = os.path.join(T, "c.pem"), os.path.join(T, "k.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                        "-nodes", "-subj", "/CN=127.0.0.1", "-days", "1",
                        "-keyout", key, "-out", cert], check=True,
                       capture_output=True)
        tls, TLSBASE = faultserver.start("--tls", cert, key)
        try:
            r = run("fetch", "--retries", "1", "--thread", "x@y",
                    TLSBASE.replace("http:", "https:") + "/ok/inbox/",
                    "-o", out)
            eq(r.rc, 1, "self-signed certificate: exit 1")
            ok("tls failure" in r.err and "certificate" in r.err,
               "  named as a TLS certificate failure", r.err)
        finally:
            faultserver.stop(tls)
    else:
        skip("TLS certificate check", "openssl is not installed")

    # libcurl's proxy variables are honoured, for plain requests and for
    # git (no DNS needed: the proxy gets the whole URL).
    prox = {"http_proxy": BASE, "no_proxy": ""}
    r = run("fetch", *QUICK, "--thread", "x@y",
            "http://lore.example.invalid/ok/inbox/", "-o", out, env=prox)
    eq(r.rc, 0, "a thread through http_proxy")
    eq(count("_proxied"), 1, "  the proxy saw the request")

    # Usage errors.
    for args, what in ((("fetch", "ftp://x/y/"), "a non-http URL"),
                       (("fetch", "--query", "x", BASE + "/ok/i/"),
                        "--query without -o"),
                       (("fetch", "--whole-threads", BASE + "/ok/i/"),
                        "--whole-threads without --query"),
                       (("fetch", "--rate", "0", BASE + "/ok/i/"),
                        "--rate 0"),
                       (("fetch",), "no URL")):
        r = run(*args)
        eq(r.rc, 2, f"usage error: {what}")

    # Mirroring something that is not a public-inbox inbox.
    dest = os.path.join(T, "dest")
    r = run("fetch", *QUICK, "--dest", dest, f"{BASE}/html/inbox/")
    eq(r.rc, 1, "a plain web site is not an inbox")
    ok("not a public-inbox inbox" in r.err, "  named as such", r.err)
    r = run("fetch", *QUICK, "--dest", dest, f"{BASE}/e404/inbox/")
    eq(r.rc, 1, "unknown inbox (404)")
    ok("unknown inbox" in r.err, "  named as such", r.err)
    r = run("fetch", *QUICK, "--dest", dest, f"{BASE}/antibot/inbox/")
    eq(r.rc, 1, "an anti-bot wall before everything")
    ok("anti-bot" in r.err, "  named as such", r.err)
    ok(not os.path.exists(dest), "failed mirrors create nothing")
    # ... and an epoch URL of a listed inbox that answers a web page (a
    # login wall, a web UI) instead of git
    r = run("fetch", *QUICK, "--dest", dest, f"{BASE}/githtml/lab/")
    eq(r.rc, 1, "an epoch answering HTML: exit 1")
    ok("git/0.git" in r.err and "not a smart-HTTP git repository" in r.err
       and "text/html" in r.err, "  named, with what it sent", r.err)
    ok(not os.path.exists(dest), "  nothing left behind: no 0.git, no "
       ".partial, no lock, not even the directories it made")
    os.makedirs(os.path.join(dest, "mine"))
    r = run("fetch", *QUICK, "--dest", dest, f"{BASE}/githtml/lab/")
    eq(sorted(os.listdir(dest)), ["mine"], "  a --dest that existed stays, "
       "with what it held")
    shutil.rmtree(dest)

    # A multi-epoch inbox over git http-backend (no manifest: probing).
    # Each mirror takes a dozen requests to one host, which the default
    # rate (2 a second) spaces by 0.5 s: 5-7 s a run, most of this test's
    # time.  The runs below test other things than the rate (the unit
    # test fetch does, and the last full run keeps the default).
    FAST = ("--rate", "100")
    sys.path.insert(0, os.path.dirname(__file__))
    from gitinbox import make_epoch, add_messages, tip  # noqa: E402
    make_epoch(GITROOT, 0, ["e0-%d@x" % i for i in range(5)])
    make_epoch(GITROOT, 1, ["e1-%d@x" % i for i in range(3)])
    url = f"{BASE}/git/lab/"
    r = run("fetch", *QUICK, *FAST, "--dest", dest, url, "--json")
    ok(r.rc == 0, "mirror a two-epoch inbox", r.err)
    j = r.json() if r.rc == 0 else {"inboxes": [{}]}
    ib = j["inboxes"][0]
    eq(ib.get("epochs_from"), "probe", "  epochs found by probing")
    eq([(e["epoch"], e["new"], e["new_messages"]) for e in
        ib.get("epochs", [])], [(0, True, 5), (1, True, 3)],
       "  both epochs new, with their messages")
    mirror = os.path.join(dest, "lab", "git")
    for n in (0, 1):
        eq(tip(os.path.join(mirror, f"{n}.git")),
           tip(os.path.join(GITROOT, f"{n}.git")),
           f"  epoch {n}: same head as the server")

    add_messages(os.path.join(GITROOT, "1.git"), ["e1-new@x"])
    make_epoch(GITROOT, 2, ["e2-%d@x" % i for i in range(2)])
    r = run("fetch", *QUICK, *FAST, "--dest", dest, url)
    eq(r.rc, 0, "fetch again")
    eq(r.out.splitlines()[1:], ["  epoch 0: up to date",
                                "  epoch 1: 1 new message",
                                "  epoch 2: new, 2 messages",
                                "lab: 3 new messages in 3 epochs"],
       "  only the new messages, per epoch")
    eq(tip(os.path.join(mirror, "2.git")),
       tip(os.path.join(GITROOT, "2.git")), "  epoch 2 mirrored")

    n = count("_proxied")
    r = run("fetch", *QUICK, *FAST, "--dest",
            os.path.join(T, "viaproxy"),
            "http://lore.example.invalid/git/lab/", env=prox)
    ok(r.rc == 0, "an inbox mirrored through http_proxy", r.err)
    ok(count("_proxied") - n >= 4, "  probes and git requests went "
       "through the proxy")
    eq(tip(os.path.join(T, "viaproxy", "lab", "git", "1.git")),
       tip(os.path.join(GITROOT, "1.git")), "  epoch 1 mirrored")

    # Progress only on a terminal, and not with --quiet.
    rc, err = run_tty("fetch", *FAST, "--dest", os.path.join(T, "tty"),
                      url)
    eq(rc, 0, "on a terminal")
    ok("\repoch 0 (1 of 3): objects:" in err and
       "\repoch 2 (3 of 3): objects:" in err,
       "  progress of each epoch's objects on stderr, numbered as the "
       "summary and git/N.git number them", repr(err))
    ok("probe" not in err and "manifest" not in err,
       "  small requests are not shown", repr(err))
    rc, err = run_tty("fetch", *FAST, "--quiet", "--dest",
                            os.path.join(T, "tty2"), url)
    eq((rc, err), (0, ""), "  --quiet: no progress")
    r = run("fetch", *FAST, "--dest", os.path.join(T, "tty3"), url)
    eq((r.rc, r.err), (0, ""), "  stderr not a terminal: no progress")

    # Server errors on the git requests are retried like any other.
    make_epoch(GITROOT, 3, ["e3-0@x"])
    r = run("fetch", *QUICK, *FAST, "--dest", dest,
            f"{BASE}/git500-2/lab/")
    ok(r.rc == 0, "git requests answered 500 twice: retried", r.err)
    eq(tip(os.path.join(mirror, "3.git")),
       tip(os.path.join(GITROOT, "3.git")), "  epoch 3 mirrored")

    # A clone that fails (here: stalls) leaves no N.git.partial, and no
    # run leaves its lock file behind.
    fdest = os.path.join(T, "failed-clone")
    r = run("fetch", *FAST, "--retries", "0", "--timeout", "2", "--dest",
            fdest, f"{BASE}/gitstall/lab/")
    eq(r.rc, 1, "a clone that stalls fails")
    fgit = os.path.join(fdest, "lab", "git")
    eq(sorted(n for n in os.listdir(fgit) if n.endswith(".partial"))
       if os.path.isdir(fgit) else [], [],
       "  and leaves no N.git.partial")
    ok(not os.path.exists(os.path.join(fdest, "lab", ".maintstat-lock")),
       "  nor its lock file")
    ok(not os.path.exists(os.path.join(dest, "lab", ".maintstat-lock")),
       "a successful run leaves no lock file")

    # A git transfer that stalls is given up after --timeout; the refs
    # stay where they were.
    add_messages(os.path.join(GITROOT, "2.git"), ["e2-stall@x"])
    old2 = tip(os.path.join(mirror, "2.git"))
    r = run("fetch", *FAST, "--retries", "0", "--timeout", "2", "--dest",
            dest, f"{BASE}/gitstall/lab/")
    eq(r.rc, 1, "a stalled git transfer fails (exit 1)")
    # (a full stop is also below the low-speed limit: either check may
    # name it first)
    ok("timed out" in r.err and ("no data for 2 seconds" in r.err or
                                 "the last 2 seconds" in r.err),
       "  named as a timeout", r.err)
    eq(tip(os.path.join(mirror, "2.git")), old2, "  refs did not move")
    r = run("fetch", *FAST, "--dest", dest, url)
    ok(r.rc == 0 and "  epoch 2: 1 new message" in r.out,
       "  the next run fetches the message", r.out + r.err)

    # Interrupted: a clone killed half-way leaves no epoch behind, and
    # refs of a known epoch stay where they were; the next run carries on.
    add_messages(os.path.join(GITROOT, "2.git"), ["e2-new@x"])
    old2 = tip(os.path.join(mirror, "2.git"))
    stalled = os.path.join(T, "stalled")
    for what in ("known epoch", "new epoch"):
        if os.path.exists(stalled):
            os.unlink(stalled)
        p = subprocess.Popen([MAINTSTAT, "fetch", *FAST, "--dest", dest,
                              f"{BASE}/gitstall/lab/"],
                             stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        for _ in range(300):
            if os.path.exists(stalled):
                break
            time.sleep(0.05)
        ok(os.path.exists(stalled), f"{what}: the transfer stalled")
        p.send_signal(signal.SIGKILL)
        p.wait()
        if what == "known epoch":
            eq(tip(os.path.join(mirror, "2.git")), old2,
               "  killed during a fetch: refs did not move")
            # Let epoch 2 complete so the next kill hits epoch 3's clone.
            r = run("fetch", *FAST, "--dest", dest, url)
            ok(r.rc == 0, "  the next run completes", r.err)
            make_epoch(GITROOT, 4, ["e4-0@x"])
        else:
            ok(not os.path.exists(os.path.join(mirror, "4.git")),
               "  killed during a clone: no epoch 4 directory")
    r = run("fetch", "--dest", dest, url, "--json")
    ok(r.rc == 0, "after the interruptions, a run completes", r.err)
    if r.rc == 0:
        eps = {e["epoch"]: e for e in r.json()["inboxes"][0]["epochs"]}
        eq((eps[4]["new"], eps[4]["new_messages"]), (True, 1),
           "  epoch 4 cloned afresh")
    eq(sorted(os.listdir(mirror)), ["0.git", "1.git", "2.git", "3.git",
                                    "4.git"],
       "  exactly the epochs, no partial left")
    for n in range(5):
        eq(tip(os.path.join(mirror, f"{n}.git")),
           tip(os.path.join(GITROOT, f"{n}.git")),
           f"  epoch {n} matches the server")

    # Two runs at once: the second is refused, not interleaved.
    lockf = os.path.join(dest, "lab", ".maintstat-lock")
    import fcntl
    with open(lockf, "w") as lf:
        fcntl.flock(lf, fcntl.LOCK_EX)
        r = run("fetch", *FAST, "--dest", dest, url)
        eq(r.rc, 1, "a locked mirror is refused")
        ok("another maintstat fetch" in r.err, "  named as such", r.err)
finally:
    faultserver.stop(srv)
    shutil.rmtree(T, ignore_errors=True)
done()
