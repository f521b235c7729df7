#!/usr/bin/env python3
"""maintstat coverage --check-urls: every W:, B:, Q: and T: link of a small
MAINTAINERS file, pointing at tests/cli/faultserver.py on 127.0.0.1 (fresh,
old, missing, redirected, flaky, refused pages; git:// and mailto: left
unchecked), in JSON and text."""
import os
import shutil
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, run_tty, ok, eq, done, tmpdir  # noqa: E402
import faultserver  # noqa: E402

srv, BASE = faultserver.start()
tree = tmpdir()
try:
    maint = f"""Prose before the entries.

Maintainers List
----------------

THE REST
M:	Linus <torvalds@example.org>
S:	Buried alive in reporters
T:	git git://git.example.org/pub/scm/linux.git
F:	*
F:	*/

BAR DRIVER
M:	Bob <bob@example.org>
S:	Odd Fixes
W:	{BASE}/old/bar
B:	mailto:bugs@bar.example.org
T:	git {BASE}/page/bar.git main
F:	drivers/bar/

BAZ DRIVER
M:	Zed <zed@example.org>
S:	Maintained
W:	http://127.0.0.1:1/refused
W:	{BASE}/e500-1.t/flaky
F:	drivers/baz/

FOO DRIVER
M:	Jane <jane@example.org>
S:	Maintained
W:	{BASE}/page/foo
B:	{BASE}/e404.t/bugs
Q:	{BASE}/redirect/x/t.mbox.gz
F:	drivers/foo/
"""
    with open(os.path.join(tree, "MAINTAINERS"), "w") as f:
        f.write(maint)
    for d in ("foo", "bar", "baz"):
        os.makedirs(os.path.join(tree, "drivers", d))
        with open(os.path.join(tree, "drivers", d, d + ".c"), "w") as f:
            f.write("/* */\n")

    r = run("coverage", "--tree", tree, "--check-urls", "--json",
            "--retries", "2", "--timeout", "10", "--rate", "20")
    eq(r.rc, 1, "coverage --check-urls --json exits 1: links are dead")
    ok("2 dead links in MAINTAINERS" in r.err, "...said on stderr", r.err)
    doc = r.json() if r.out else {}
    ok("files_total" in doc, "the coverage report is still there")
    urls = doc.get("urls", [])
    got = {(u["entry"], u["key"], u["url"]): u for u in urls}
    eq(len(urls), 9, "9 links (W:, B:, Q:, T:)")
    want = {
        ("THE REST", "T", "git://git.example.org/pub/scm/linux.git"):
            ("unchecked", None),
        ("BAR DRIVER", "W", f"{BASE}/old/bar"): ("stale", 200),
        ("BAR DRIVER", "B", "mailto:bugs@bar.example.org"):
            ("unchecked", None),
        ("BAR DRIVER", "T", f"{BASE}/page/bar.git"): ("ok", 200),
        ("BAZ DRIVER", "W", "http://127.0.0.1:1/refused"): ("dead", None),
        ("BAZ DRIVER", "W", f"{BASE}/e500-1.t/flaky"): ("ok", 200),
        ("FOO DRIVER", "W", f"{BASE}/page/foo"): ("ok", 200),
        ("FOO DRIVER", "B", f"{BASE}/e404.t/bugs"): ("dead", 404),
        ("FOO DRIVER", "Q", f"{BASE}/redirect/x/t.mbox.gz"): ("ok", 200),
    }
    for k, (verdict, status) in want.items():
        u = got.get(k, {})
        eq((u.get("verdict"), u.get("status")), (verdict, status),
           f"{k[0]} {k[1]}: {verdict}")
    u = got.get(("FOO DRIVER", "Q", f"{BASE}/redirect/x/t.mbox.gz"), {})
    eq(u.get("final_url"), f"{BASE}/ok/x/t.mbox.gz", "final URL after a "
       "redirect")
    u = got.get(("BAR DRIVER", "W", f"{BASE}/old/bar"), {})
    eq(u.get("last_modified"), "2010-01-01T00:00:00Z",
       "Last-Modified as ISO 8601")
    u = got.get(("BAZ DRIVER", "W", "http://127.0.0.1:1/refused"), {})
    ok("cannot connect" in (u.get("error") or ""), "refused: the reason",
       u)
    ok(all(set(x) >= {"entry", "key", "url", "status", "final_url",
                      "last_modified", "verdict"} for x in urls),
       "every link has the documented members")

    # The runs below test other things than the retries: one retry (the
    # flaky page needs it) instead of the default four, whose backoff
    # (1+2+4+8 s on the refused port) cost each run 8-15 s.
    LOCAL = ("--retries", "1", "--rate", "50")

    # A longer --stale-after makes the 2010 page fresh.
    r = run("coverage", "--tree", tree, "--check-urls", *LOCAL,
            "--stale-after", "40y", "--json")
    v = {(u["entry"], u["key"]): u["verdict"] for u in r.json()["urls"]}
    eq(v.get(("BAR DRIVER", "W")), "ok", "--stale-after 40y: not stale")

    # Text: per entry, the problems only.
    r = run("coverage", "--tree", tree, "--check-urls", *LOCAL)
    eq(r.rc, 1, "text report exits 1 (dead links)")
    text = r.out[r.out.find("Web links"):]
    ok(text.startswith("Web links (W:, B:, Q:, T:): 9; 4 ok, 1 stale "
                       "(unchanged for over 5.0 years), 2 dead, 0 failing,"
                       " 2 unchecked"), "summary line", text)
    ok(f"  BAR DRIVER\n    W: {BASE}/old/bar  stale (last modified "
       "2010-01-01)\n" in text, "stale page under its entry", text)
    ok(f"  FOO DRIVER\n    B: {BASE}/e404.t/bugs  dead (404)\n" in text,
       "dead page under its entry", text)
    ok("git 1" in text and "mailto 1" in text, "unchecked by scheme", text)
    ok(f"{BASE}/page/foo" not in text, "good links are not listed", text)
    ok("checking links" not in r.err, "stderr not a terminal: no progress",
       r.err)

    # Progress on a terminal, and not with --quiet.
    rc, err = run_tty("coverage", "--tree", tree, "--check-urls", *LOCAL)
    eq(rc, 1, "on a terminal: the same exit status")
    ok("\rchecking links" in err and "7/7" in err,
       "progress of the checked links on stderr", repr(err))
    rc, err = run_tty("coverage", "--tree", tree, "--check-urls", *LOCAL,
                      "-q")
    ok("checking links" not in err, "--quiet: no progress", repr(err))

    # Usage errors.
    for args, what in ((("--check-urls", "--stale-after", "5x"), "bad age"),
                       (("--stale-after", "5y"), "--stale-after alone"),
                       (("--rate", "2"), "--rate without --check-urls"),
                       (("--check-urls", "--rate", "0"), "--rate 0"),
                       (("--check-urls", "--retries", "101"),
                        "--retries 101"),
                       (("--check-urls", "--timeout", "0"), "--timeout 0")):
        r = run("coverage", "--tree", tree, *args)
        eq(r.rc, 2, f"usage error: {what}")
    # Without --check-urls, no link is requested and no urls list is made.
    r = run("coverage", "--tree", tree, "--json")
    ok("urls" not in r.json(), "no urls without --check-urls")
finally:
    faultserver.stop(srv)
    shutil.rmtree(tree, ignore_errors=True)
done()
