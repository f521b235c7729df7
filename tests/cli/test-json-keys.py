#!/usr/bin/env python3
"""Every key of every command's --json output is snake_case and documented
in docs/json.md (or docs/review.md, which json.md points to for review),
has one shape (object, list, string, number or boolean) wherever it is
(issue 34: `tags` was an object in activity and a number in
maintainers --activity and the intervals), and every date in them is ISO
8601 with its offset (docs/json.md's convention): the documents are compared with real output, on the planted repository
and list archive of fixtures/gen/gen-review.py."""
import json
import os
import re
import sys
sys.path.insert(0, os.path.dirname(__file__))
from mstest import run, ok, eq, done, tmpdir, gen_review, SOURCE_ROOT  # noqa
import jsonshape  # noqa: E402

tmp = tmpdir()
repo, mbox = gen_review(tmp)
db = os.path.join(tmp, "store.sqlite")
msgid = None
with open(mbox, encoding="utf-8", errors="replace") as f:
    for line in f:
        m = re.match(r"(?i)message-id:\s*<([^>]+)>", line)
        if m:
            msgid = m.group(1)
            break

COMMANDS = [
    ("sections", "--repo", repo, "--full", "MAINTAINERS"),
    ("maintainers", "--repo", repo, "drivers/foo/"),
    ("entries", "--repo", repo),
    ("coverage", "--repo", repo),
    ("mail", "stats", mbox),
    ("mail", "show", mbox, msgid),
    ("activity", "--repo", repo, "--db", db),
    ("activity", "--repo", repo, "--db", db, "--archive", mbox),
    ("activity", "--repo", repo, "--db", db, "--by", "year"),
    ("maintainers", "--repo", repo, "--db", db, "--activity", "--archive",
     mbox, "drivers/foo/"),
    ("areas", "--repo", repo, "--db", db, "--split-commits", "0"),
    ("areas", "--repo", repo, "--db", db, "--by", "year"),
    ("urgent", "--repo", repo, "--db", db, "--min-commits", "0"),
    ("urgent", "--repo", repo, "--db", db, "--min-commits", "0",
     "--archive", mbox),
    ("retire", "--repo", repo, "--db", db, "--min-commits", "0",
     "--output-dir", tmp, "--from", "T <t@example.org>", "--no-credits"),
    ("identities", "--repo", repo, "--db", db),
    ("link", "--repo", repo, "--db", db, "--archive", mbox),
    ("review", "--repo", repo, "--db", db, "--archive", mbox),
    ("review", "--repo", repo, "--db", db, "--archive", mbox, "--by",
     "year"),
    ("pending", "--repo", repo, "--db", db, "--archive", mbox),
    ("people", "--repo", repo, "--db", db, "--archive", mbox),
    ("people", "--repo", repo, "--db", db, "--archive", mbox, "--by",
     "year"),
    ("areas", "--repo", repo, "--db", db, "--split-commits", "0", "--by",
     "year"),
    ("urgent", "--repo", repo, "--db", db, "--min-commits", "0", "--by",
     "year"),
    ("people", "--repo", repo, "--db", db, "--archive", mbox, "--check"),
    ("recruit", "--repo", repo, "--db", db, "--split-commits", "0",
     "--output-dir", os.path.join(tmp, "recruit"), "--from",
     "T <t@example.org>"),
    ("store", "info", "--repo", repo, "--db", db),
    ("store", "log", "--repo", repo, "--db", db),
    ("store", "list"),
]
# a store in the cache directory, for store list to list
run("activity", "--repo", repo)

docs = ""
for name in ("json.md", "review.md"):
    with open(os.path.join(SOURCE_ROOT, "docs", name)) as f:
        docs += f.read()
SCHEMA = int(re.search(r'"schema_version"` \(now (\d+)\)', docs).group(1))
# a key is documented when the docs name it as `key`, "key", {key, or ,key
documented = set(re.findall(r"[`\"{,]\s*([a-z][a-z0-9_]*)\s*(?=[`\",}:])",
                            docs))


def keys(v, acc):
    if isinstance(v, dict):
        for k, x in v.items():
            acc.add(k)
            keys(x, acc)
    elif isinstance(v, list):
        for x in v:
            keys(x, acc)
    return acc


seen_shapes = {}


def dates(v, acc):
    """Every string value that begins as a date does."""
    if isinstance(v, dict):
        for x in v.values():
            dates(x, acc)
    elif isinstance(v, list):
        for x in v:
            dates(x, acc)
    elif isinstance(v, str) and re.match(r"\d{4}-\d\d-\d\d", v):
        acc.append(v)
    return acc


ISO = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)"
for cmd in COMMANDS:
    what = " ".join(c for c in cmd if not c.startswith(tmp))
    r = run(*cmd, "--json")
    if not ok(r.rc == 0, f"{cmd[0]} --json exits 0", r.err):
        continue
    doc = json.loads(r.out)
    eq(doc.get("schema_version"), SCHEMA, f"{cmd[0]}: schema_version "
       f"{SCHEMA}, as docs/json.md says")
    found = keys(doc, set())
    bad = sorted(k for k in found if not re.fullmatch(r"[a-z][a-z0-9_]*", k))
    eq(bad, [], f"{what}: every key is snake_case")
    missing = sorted(k for k in found - documented
                     if re.fullmatch(r"[a-z][a-z0-9_]*", k))
    eq(missing, [], f"{what}: every key is documented in docs/")
    jsonshape.collect(doc, what, seen_shapes)
    if os.environ.get("MS_JSON_DUMP"):
        with open(os.path.join(os.environ["MS_JSON_DUMP"],
                               what.replace(" ", "_").replace("/", "_")
                               + ".json"), "w") as f:
            f.write(r.out)
    found = dates(doc, [])
    eq([d for d in found if not re.fullmatch(ISO, d)], [],
       f"{what}: every date is ISO 8601 with its offset")
    if cmd[0] in ("activity", "urgent") or cmd[1] == "list":
        ok(found, f"{what}: has dates to check")

# the report's data files are documents too
site = os.path.join(tmp, "site")
r = run("report", "--repo", repo, "--db", db, "--archive", mbox,
        "--output-dir", site)
ok(r.rc == 0, "report exits 0", r.err)
datadir = os.path.join(site, "data")
for name in sorted(os.listdir(datadir)) if os.path.isdir(datadir) else []:
    if name.endswith(".json"):
        with open(os.path.join(datadir, name)) as f:
            jsonshape.collect(json.load(f), "report data/" + name,
                              seen_shapes)

# every key has one shape in every command and place: its type, an
# object's members (one object may leave out members another has), a
# list's elements
bad = jsonshape.conflicts(seen_shapes)
for k, places in bad:
    print(f"# {k}:")
    for s, ps in places:
        print(f"#     {jsonshape.show(s)[:200]}")
        print(f"#         {'; '.join(ps[:2])}")
eq([k for k, _ in bad], [], "every key has one shape in every command")
done()
