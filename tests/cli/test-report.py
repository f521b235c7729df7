#!/usr/bin/env python3
"""maintstat report on the planted repository and list of
fixtures/gen/gen-review.py, checked in headless Chromium: every page
loads from file:// without a console error, a failed resource or a
request off the disk; every plot is drawn (Chart.js made it and it
painted pixels); the overview's figures equal `review --json`'s, and
data/review.json is `review --json --by month`.  Screenshots of the
overview and of FOO DRIVER's page go to BUILD/report-screens/."""
import glob
import json
import re
import os
import shutil
import socket
import subprocess
import sys
import time
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, duration, FIXTURES  # noqa: E402

tmp = tmpdir()
subprocess.run([sys.executable, os.path.join(FIXTURES, "gen",
                                             "gen-review.py"), tmp],
               check=True, stdout=subprocess.DEVNULL)
repo, mbox = os.path.join(tmp, "repo"), os.path.join(tmp, "list.mbox")
ARGS = ["--repo", repo, "--archive", mbox, "--no-cache",
        "--list-url", "https://lore.example.org/foo"]
site = os.path.join(tmp, "site")

r = run("report", *ARGS, "--output-dir", site)
eq(r.rc, 0, "report exits 0")
eq(r.out.strip(), site + "/index.html", "prints the index's path")
rv = run("review", *ARGS, "--json").json()
names = [e["name"] for e in rv["entries"]]
for f in ["index.html", "assets/chart.min.js", "assets/report.js",
          "assets/report.css", "data/review.json"] + \
        ["entry-%d.html" % i for i in range(len(names))] + \
        ["data/entry-%d.json" % i for i in range(len(names))]:
    ok(os.path.isfile(os.path.join(site, f)), "written: " + f)
with open("/usr/share/javascript/chart.js/chart.min.js", "rb") as a, \
        open(os.path.join(site, "assets/chart.min.js"), "rb") as b:
    ok(a.read() == b.read(), "Chart.js copied from Debian's package")
with open(os.path.join(site, "data/review.json")) as fp:
    data = json.load(fp)
bym = run("review", *ARGS, "--json", "--by", "month").json()
eq(data, bym, "data/review.json is review --json --by month")
with open(os.path.join(site, "data/entry-0.json")) as fp:
    eq(json.load(fp)["review_entry"], bym["entries"][0], "data/entry-0.json is "
       "the first entry")
# a patch's first response on its entry page as every duration is
# written (hours below a day, days above: ms_duration_format), not "N h"
firsts = []
for i, e in enumerate(bym["entries"]):
    with open(os.path.join(site, "entry-%d.html" % i)) as fp:
        page = fp.read()
    for pt in e["patch_list"]:
        if pt["first_response"]:
            d = duration(round(pt["first_response"]["hours"] * 3600))
            firsts.append((pt["message_id"], d, ">%s<" % d in page))
ok(firsts and all(x[2] for x in firsts), "entry pages: each patch's first "
   "response as a duration", [x for x in firsts if not x[2]][:3])
pages = sorted(glob.glob(os.path.join(site, "*.html")))
people = [p for p in pages if "/person-" in p]
ok(len(people) >= 5, "a page per listed person", len(people))
html = open(os.path.join(site, "index.html")).read()
ok("http://" not in html.replace("https://lore.example.org", "") and
   "https://" not in html.replace("https://lore.example.org", ""),
   "the overview refers to nothing off the disk")
foo = names.index("FOO DRIVER")
# the overview: busiest first, --min-patches cuts the tail; listed people
# by name; the definitions link to the installed docs/review.md
order_html = re.findall(r'<tr data-entry="([^"]+)"', html)
counts = {e["name"]: e["patches"] for e in rv["entries"]}
eq(order_html, sorted(counts, key=lambda n: (-counts[n], n)),
   "index.html: busiest first, then by name")
least = min(counts.values())
r = run("report", *ARGS, "--min-patches", str(least + 1),
        "--output-dir", os.path.join(tmp, "cut"))
cut = open(os.path.join(tmp, "cut", "index.html")).read() \
    if r.rc == 0 else ""
eq(re.findall(r'<tr data-entry="([^"]+)"', cut),
   [n for n in order_html if counts[n] > least],
   f"--min-patches {least + 1}: the entries with fewer are left out")
ok(os.path.isfile(os.path.join(tmp, "cut", "entry-0.html")),
   "... each still has its page")
listed = {(p["name"], p["email"]) for e in rv["entries"]
          for p in e["people"] if p["name"]}
for name, email in sorted(listed):
    ok(f"{name} &lt;{email}&gt;</a></li>" in html,
       f"index.html lists {email} with the name {name}")
m = re.search(r'Definitions: <a href="file://([^"]+)">', html)
ok(m and m.group(1).endswith("/doc/maintstat/review.md"),
   "index.html: the definitions link to the installed docs/review.md",
   m.group(1) if m else html[:600])
ent = open(os.path.join(site, "entry-%d.html" % foo)).read()
ok("https://lore.example.org/foo/" in ent, "patches link to the list")
ok("<th scope=\"col\">" in ent and "<th scope=\"row\">" in ent,
   "table headers with scopes")

# person pages: the addresses joined as one person (planted: case and
# plus-folding, .mailmap), and the ledger's table
import re  # noqa: E402


def text(path):
    import html as h
    return h.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ",
                                                open(path).read())))


by_person = {}
for p in people:
    t = text(p)
    m = re.search(r"Addresses joined as this person (.*?)$", t)
    by_person[re.search(r"<h1>([^&]*)", open(p).read()).group(1).strip()] = \
        (m.group(1) if m else "", t)
ok("fay+lists@example.org" in by_person["Fay Foo"][0],
   "Fay: her plus-address joined", by_person["Fay Foo"][0])
ok("rob.review@home.example.net" in by_person["Rob Review"][0],
   "Rob: his .mailmap address joined")
ok("quinn.qux@qux.example.com" in by_person["Quinn Qux"][0],
   "Quinn: his .mailmap address joined")
eq(by_person["Old Ghost"][0].split(), ["ghost@example.org", "(as", "listed)"],
   "Old Ghost: nothing joined")
ok("Tag ledger" in by_person["Fay Foo"][1], "Fay: the tag ledger")
# a person's reply share is one figure: over the patches they did not
# write, on their page as in review's text ("replied/patches (NN%)") and
# replied_share
for e in bym["entries"]:
    for p in e["people"]:
        if not p["name"] or p["name"] not in by_person:
            continue
        den = e["patches"] - p["own_patches"]
        if den:
            want = "%s %s %d/%d (%d%%)" % (
                e["name"], p["role"], p["replied"], den,
                int(p["replied_share"] * 100 + 0.5))
            ok(want in by_person[p["name"]][1],
               "%s's page: %s" % (p["name"], want))
# (test-count.py plants a listed person's own patch)
# the git timeline: Fay commits FOO's changes in March 2024; Old Ghost
# (BAZ LEGACY) never appears and is called inactive
ft = text(os.path.join(site, "entry-%d.html" % foo))
m = re.search(r"fay@example.org((?: \d+)+)", ft.split("Git activity of the "
              "listed people, per month")[1])
ok(m and sum(int(x) for x in m.group(1).split()) > 0,
   "FOO: Fay's git activity on the timeline")
# per quarter (planted): Rob answered A after 2 h, B v3 after 10 h, H at
# once (clamped): 3, median 2 h; Fay A after 5 h, B v1 after 30 h: 17.5 h
q = ft.split("Listed people per quarter")[1]
ok("Person 2023-Q3 2023-Q4 2024-Q1 2024-Q2 " in q, "FOO: quarters as "
   "columns", q[:300])
ok("Fay Foo <fay@example.org> – – 2 / 17.5h – " in q,
   "FOO: Fay 2 patches, median 17.5h in 2024-Q1 (as the text writes a "
   "duration)", q[:400])
ok("Rob Review <rob@example.org> – – 3 / 2.0h – " in q,
   "FOO: Rob 3 patches, median 2.0h in 2024-Q1", q[:400])
# where the patches stand: each patch once, in its newest version's
# state; superseded counts the older versions, as the note says
for i, e in enumerate(bym["entries"]):
    page = open(os.path.join(site, "entry-%d.html" % i)).read()
    sec = page.split('id="states"')[1].split("</table>")[0]
    rows = dict((k, int(n)) for k, n in re.findall(
        r'<th scope="row">(\w+)</th><td class="n">(\d+)</td>', sec))
    eq((sum(n for k, n in rows.items() if k != "superseded"),
        rows.get("superseded")), (e["patches"], e["states"]["superseded"]),
       e["name"] + ": the states add up to the patches, superseded apart")
    ok("superseded counts the older versions" in text(
        os.path.join(site, "entry-%d.html" % i)),
       e["name"] + ": the page says what superseded counts")
baz = text(os.path.join(site, "entry-%d.html" % names.index(
    "BAZ LEGACY DRIVER")))
ok(re.search(r"^ ghost@example.org \(inactive\)( 0)+ ", baz.split(
    "Git activity of the listed people, per month Person")[1].split(
    "2024-04", 1)[1]),
   "BAZ: Old Ghost's timeline is all zeros, marked inactive")
ok('<tr class="faded"><th scope="row">ghost@example.org (inactive)' in
   open(os.path.join(site, "entry-%d.html" % names.index(
       "BAZ LEGACY DRIVER"))).read(), "BAZ: Old Ghost's row faded")


# the timeline's numbers from git itself: Fay's commits in FOO's files
# (drivers/foo/) per month, by commit date, once per role (author,
# committer, named in a *-by: trailer)
def git_counts(who, path):
    out = subprocess.run(
        ["git", "-C", repo, "log", "--format=%x00%cd%x01%aE%x01%cE%x01%B",
         "--date=format:%Y-%m", "--", path], capture_output=True,
        text=True, check=True).stdout
    counts = {}
    for rec in out.split("\0")[1:]:
        month, a, c, body = rec.split("\x01", 3)
        n = (a == who) + (c == who) + any(
            re.match(r"^[\w-]+-by:.*<" + re.escape(who) + ">", line)
            for line in body.splitlines())
        counts[month] = counts.get(month, 0) + n
    return counts


with open(os.path.join(site, "data/entry-%d.json" % foo)) as fp:
    foo_json = json.load(fp)
tl = foo_json["git_timeline"]
eq(len(tl["month_labels"]), len(bym["entries"][foo]["intervals"]),
   "FOO: the timeline has review --by month's months")
fay_git = git_counts("fay@example.org", "drivers/foo/")
ok(sum(fay_git.values()) >= 3, "the planted history: Fay commits FOO's "
   "changes", fay_git)
fay = [p for p in tl["people"] if p["email"] == "fay@example.org"][0]
eq([a + c + t for a, c, t in zip(fay["authored_per_month"],
                                 fay["committed_per_month"],
                                 fay["tagged_per_month"])],
   [fay_git.get(m, 0) for m in tl["month_labels"]],
   "FOO: Fay's timeline in data/entry-N.json is git's count per month")
ok(not fay["inactive"], "FOO: Fay not inactive")
with open(os.path.join(site, "data/entry-%d.json" % names.index(
        "BAZ LEGACY DRIVER"))) as fp:
    ghost = json.load(fp)["git_timeline"]["people"]
eq([(p["email"], p["inactive"]) for p in ghost],
   [("ghost@example.org", True)], "BAZ: Old Ghost inactive in the JSON")
INACTIVE_CELL = re.compile(r"inactive( since \d{4}-\d\d|: nothing in "
                           r"the entry)")
ok(INACTIVE_CELL.search(baz), "BAZ: Old Ghost called inactive, with the "
   "evidence beside it (the verdict engine's phrase)")

# without the history (--tree), a list alone judges nobody inactive
site2 = os.path.join(tmp, "site-tree")
r = run("report", "--tree", repo, "--archive", mbox, "--no-cache",
        "--output-dir", site2)
eq(r.rc, 0, "report --tree exits 0")
alltext = "".join(open(p).read() for p in glob.glob(os.path.join(site2,
                                                                 "*.html")))
ok("INACTIVE" not in alltext and not INACTIVE_CELL.search(alltext),
   "--tree: no inactive verdict on anyone")
ok("not judged" in open(os.path.join(site2, "index.html")).read(),
   "--tree: the overview says the verdict is not judged")
with open(os.path.join(site2, "data/entry-0.json")) as fp:
    d2 = json.load(fp)
eq((d2["urgent"], d2["git_timeline"]), (None, None),
   "--tree: no urgent category, no git timeline in the JSON")
ok("applied n/a" in alltext and not re.search(r"applied \d", alltext),
   "--tree: a de-facto maintainer's applied is n/a, not 0")
people2 = "".join(open(p).read() for p in
                  glob.glob(os.path.join(site2, "person-*.html")))
ok('<td class="n">n/a</td>' in people2,
   "--tree: a person page's commits cell is n/a, not 0")

# bad uses
r = run("report", *ARGS)
eq(r.rc, 2, "without -o: usage error")
r = run("report", *ARGS, "--by", "year", "--output-dir", site)
eq(r.rc, 2, "--by is not report's")
r = run("report", *ARGS, "--output-dir", "/proc/nonexistent/site")
eq(r.rc, 1, "an unwritable DIR: runtime failure")
ok("/proc/nonexistent/site" in r.err, "naming it", r.err)
r = run("report", *ARGS, "--output-dir", os.path.join(tmp, "x"),
        env={"MS_CHARTJS": "/nonexistent/chart.js"})
eq(r.rc, 1, "no charting library: runtime failure")
ok("libjs-chart.js" in r.err, "saying which package", r.err)

# a report whose patch has a Message-ID and a subject of 300 characters
# without a space: its pages must still fit a 1400 px window
wt = os.path.join(tmp, "wide")
os.makedirs(os.path.join(wt, "drivers"))
open(os.path.join(wt, "drivers", "w.c"), "w").close()
with open(os.path.join(wt, "MAINTAINERS"), "w") as f:
    f.write("WIDE\nM:\tWi De <wi@example.com>\nF:\tdrivers/\n")
with open(os.path.join(wt, "w.mbox"), "w") as f:
    f.write("From x@y Mon Jan  1 10:00:00 2024\n"
            "From: Po Ster <po@example.com>\n"
            "Subject: [PATCH] drivers: " + "w" * 300 + "\n"
            "Message-ID: <" + "m" * 300 + "@example.com>\n"
            "Date: Mon, 1 Jan 2024 10:00:00 +0000\n\nx\n\n"
            "Signed-off-by: Po Ster <po@example.com>\n---\n"
            "diff --git a/drivers/w.c b/drivers/w.c\n"
            "--- a/drivers/w.c\n+++ b/drivers/w.c\n@@ -0,0 +1 @@\n"
            "+int w;\n\n")
wide = os.path.join(wt, "site")
r = run("report", "--tree", wt, "--archive", os.path.join(wt, "w.mbox"),
        "--no-cache", "--until", "2024-06-01", "-o", wide)
eq(r.rc, 0, "report of the long Message-ID exits 0")
pages.append(os.path.join(wide, "entry-0.html"))

# the browser
chromium = shutil.which("chromium")
node = shutil.which("node")
ok(chromium and node, "chromium and node installed (scripts/deps.sh)")
s = socket.socket()
s.bind(("127.0.0.1", 0))
port = s.getsockname()[1]
s.close()
profile = os.path.join(tmp, "profile")
browser = subprocess.Popen(
    [chromium, "--headless", "--no-sandbox", "--disable-gpu",
     "--disable-quic", "--no-first-run", "--disable-background-networking",
     "--disable-component-update", "--disable-sync",
     "--disable-dev-shm-usage", "--user-data-dir=" + profile,
     "--remote-debugging-address=127.0.0.1",
     "--remote-debugging-port=%d" % port, "about:blank"],
    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(150):
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            time.sleep(0.2)
    shots = os.path.join(os.environ.get("MS_BUILD_ROOT", tmp),
                         "report-screens")
    os.makedirs(shots, exist_ok=True)
    order = [os.path.join(site, "index.html"),
             os.path.join(site, "entry-%d.html" % foo)]
    order += [p for p in pages if p not in order]
    cdp = subprocess.run(
        [node, "--experimental-websocket", "--no-warnings",
         os.path.join(os.path.dirname(__file__), "cdp-pages.mjs"),
         str(port), shots] + ["file://" + p for p in order],
        capture_output=True, text=True, timeout=300)
    ok(cdp.returncode == 0, "the browser script ran", cdp.stderr)
    res = json.loads(cdp.stdout) if cdp.returncode == 0 else {}
finally:
    browser.terminate()
    browser.wait(timeout=30)

eq(len(res), len(pages), "every page loaded")
nplots = 0
for url, page in res.items():
    name = os.path.basename(url)
    ok(page["scroll_width"] <= page["window_width"], name + ": as wide as "
       "a 1400 px window at most",
       (url, page["scroll_width"], page["window_width"]))
    eq(page["errors"], [], name + ": no console error, failed or remote "
       "resource")
    eq(page["broken"], [], name + ": no word of a table broken across "
       "lines")
    for p in page["plots"]:
        nplots += 1
        # a spark of one month paints one marker (some 20 pixels)
        ok(p["chart"] and p["points"] > 0 and p["drawn"] > 0 and
           p["painted"] >= 10, "%s: plot '%s' drawn" % (name, p["label"]),
           p)
    for x, y in page["axes"]:
        ok(x and y, name + ": both axes titled")
narrow = res.get("file://" + order[0], {}).get("narrow", {})
eq(narrow.get("broken"), [], "overview in an 800 px window: no word of "
   "its table broken across lines")
ok(narrow.get("scroll_width", 1e9) <= narrow.get("window_width", 0),
   "overview in an 800 px window: the table scrolls, not the page", narrow)
ok(nplots > len(names), "plots on the pages", nplots)
entry_plots = res.get("file://" + order[1], {}).get("plots", [])
ok(any(p["label"].startswith("Time to first response: median")
       for p in entry_plots), "FOO: the TTFR histogram, median and p90 "
   "in its title")

rows = res.get("file://" + order[0], {}).get("rows", [])
busy = sorted(rv["entries"], key=lambda e: (-e["patches"], e["name"]))
ok(len({e["patches"] for e in busy}) > 1, "entries of different sizes")
eq([x["entry"] for x in rows], [e["name"] for e in busy],
   "overview: the entries of review, busiest first, then by name")
for row, e in zip(rows, busy):
    c = row["cells"]
    eq(int(c[1]), e["patches"], e["name"] + ": patches as review says")
    t = e["time_to_first_response"]
    eq(c[2], duration(round(t["median_hours"] * 3600)) if t else "–",
       e["name"] + ": median time to first response as review says")
    eq(c[3].split()[1], "(%.0f%%)" % (100.0 * e["ignored"] / e["patches"]),
       e["name"] + ": ignored share as review says")
    ar = e["acceptance_rate"]
    eq(c[4], "%d (%s)" % (e["open"], "-" if ar is None else
                          "%.0f%%" % (100 * ar)),
       e["name"] + ": open patches and acceptance as review says")
    eq(c[5], "%.0f%%" % (100 * e["responsiveness"]),
       e["name"] + ": responsiveness as review says")
    eq(int(c[6]), e["commits"], e["name"] + ": commits as review says")
    inact = sum(1 for p in e["people"] if p["inactive"])
    eq(c[8], "%d of %d" % (inact, len(e["people"])),
       e["name"] + ": inactive listed people as review says")
# the urgent column: the category `urgent --archive` gives each entry it
# selects (the planted ones: BAR a corporate alias, BAZ a de-facto
# maintainer, WIDGET overlapping FOO), "not urgent" for the others
ur = run("urgent", "--repo", repo, "--archive", mbox, "--no-cache",
         "--min-commits", "0", "--json").json()
cat = {e["name"]: e["category"] for e in ur["entries"]}
eq({k: cat.get(k) for k in ("BAR CHIP DRIVER", "BAZ LEGACY DRIVER",
                            "WIDGET CORNER")},
   {"BAR CHIP DRIVER": "corporate_alias",
    "BAZ LEGACY DRIVER": "defacto_maintainer",
    "WIDGET CORNER": "overlap"}, "urgent: the planted categories")
for row in rows:
    eq(row["cells"][9], cat.get(row["entry"], "not urgent"),
       row["entry"] + ": the urgent category as urgent says")
    with open(os.path.join(site, "data/entry-%d.json" % names.index(
            row["entry"]))) as fp:
        eq(json.load(fp)["urgent"]["category"], row["cells"][9],
           row["entry"] + ": the urgent category in data/entry-N.json")
# ... with the window and cutoff urgent takes: the newest commit is four
# weeks before the newest message, so a cutoff of 10 days before the
# review's window end (the newest message) would call FOO's maintainer
# inactive, where urgent's (10 days before the newest commit) does not
cut = os.path.join(tmp, "cut10d")
run("report", *ARGS, "--inactive-after", "10d", "--output-dir", cut)
ur = run("urgent", "--repo", repo, "--archive", mbox, "--no-cache",
         "--min-commits", "0", "--inactive-after", "10d", "--json").json()
cat = {e["name"]: e["category"] for e in ur["entries"]}
got = {}
for i, name in enumerate(names):
    with open(os.path.join(cut, "data/entry-%d.json" % i)) as fp:
        got[name] = json.load(fp)["urgent"]["category"]
eq(got, {n: cat.get(n, "not urgent") for n in names},
   "--inactive-after 10d: the urgent categories as urgent says")
srt = res.get("file://" + order[0], {}).get("urgent_sorted")
ok(srt and len(srt) == 2, "overview: the urgent column sorts", srt)
if srt:
    keys = [[k for _, k, _ in srt[0]], [k for _, k, _ in srt[1]]]
    eq(keys[0], sorted(keys[0]), "urgent column: ascending on one click")
    eq(keys[1], sorted(keys[1], reverse=True),
       "urgent column: descending on the next")
    eq([t for _, _, t in srt[0]][:3], ["overlap", "corporate_alias",
                                      "defacto_maintainer"],
       "urgent column: in urgent's order of categories")
    eq(sorted(e for e, _, _ in srt[0]), sorted(names),
       "urgent column: every entry still there")
# the timeline's plot: Fay's line has a point per month; Old Ghost's is
# faded
foo_plots = res.get("file://" + order[1], {}).get("plots", [])
tlp = [p for p in foo_plots if p["label"].startswith("Git activity")]
ok(len(tlp) == 1, "FOO: the timeline plot", foo_plots)
if tlp:
    fd = [d for d in tlp[0]["datasets"] if d["label"] == "fay@example.org"]
    eq([(d["points"], d["drawn"], d["faded"]) for d in fd],
       [(len(tl["month_labels"]), len(tl["month_labels"]), False)],
       "FOO: Fay's line drawn with a point per month, not faded")
baz_url = "file://" + os.path.join(site, "entry-%d.html" % names.index(
    "BAZ LEGACY DRIVER"))
bazp = [p for p in res.get(baz_url, {}).get("plots", [])
        if p["label"].startswith("Git activity")]
eq([[(d["label"], d["faded"]) for d in p["datasets"]] for p in bazp],
   [[("ghost@example.org (inactive)", True)]],
   "BAZ: Old Ghost's line faded and labelled inactive")
for f in ("overview.png", "entry.png"):
    ok(os.path.getsize(os.path.join(shots, f)) > 10000,
       "screenshot " + f + " saved under the build directory")
done()
