#!/usr/bin/env python3
"""How review's `accepted` state agrees with the repository's Link:
trailers (issue 36's accuracy figure for a list whose project links
its commits to the postings, such as LTP).

Usage: accepted-links.py REVIEW.json REPO [--list]

REVIEW.json is `maintstat review --repo REPO --archive LIST --json` (all
entries).  A commit's `Link: https://.../<message-id>` trailer names the
posting it was applied from; the patches of REVIEW.json (unique by first
posting, all their versions) that some Link: names are the truth.

Prints:
- recall: of the patches a Link: names, how many review calls accepted.
  review links commits to postings through the same trailers among its
  methods, so this checks the patch model (versions, states), not the
  linker (tests/bench/bench-link.py measures that with the trailers
  ignored);
- precision where it can be checked: of the patches accepted by a commit
  that has Link: trailers, how many have a version that commit names.
  --list prints the others: a Link: to a bug report rather than the
  patch, or to a later posting the archive does not hold, is no error.

On LTP with LTP's list (epoch 0, to 2026-03-09) and the corpus's
MAINTAINERS (tests/bench/corpus.sh), closing note of 2026-12-07: recall
711/711, precision 706/711, the 5 others explained.
"""
import collections
import json
import re
import subprocess
import sys
from urllib.parse import unquote

LINK = re.compile(r'^Link:\s*<?https?://\S*?/([^/\s>]+@[^/\s>]+?)/?>?\s*$',
                  re.M | re.I)


def commit_links(repo):
    """{commit id: {message ids its Link: trailers name}}"""
    out = subprocess.run(["git", "-C", repo, "log", "--format=%H%x00%B%x01"],
                         check=True, capture_output=True).stdout
    links = {}
    for c in out.decode("utf-8", "replace").split("\x01"):
        if "\x00" not in c:
            continue
        h, b = c.strip("\n").split("\x00", 1)
        for m in LINK.finditer(b):
            links.setdefault(h, set()).add(unquote(m.group(1)).lower())
    return links


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    doc = json.load(open(sys.argv[1]))
    patches = {p["message_id"]: p for e in doc["entries"]
               for p in e["patch_list"]}
    by_version = {v.lower(): p for p in patches.values()
                  for v in p["versions"]}
    links = commit_links(sys.argv[2])
    named = {by_version[m]["message_id"] for ms in links.values()
             for m in ms if m in by_version}
    states = collections.Counter(patches[k]["state"] for k in named)
    print("patches: %d; named by a Link: %d" % (len(patches), len(named)))
    print("recall: %d/%d accepted; states of the named: %s" % (
        states["accepted"], len(named), dict(states)))
    checked, others = 0, []
    for p in patches.values():
        ev = p["state_evidence"] or {}
        if p["state"] != "accepted" or ev.get("commit") not in links:
            continue
        checked += 1
        if not any(v.lower() in links[ev["commit"]] for v in p["versions"]):
            others.append(p)
    print("precision: %d/%d accepted by a commit with Link: trailers "
          "name one of the patch's versions" % (checked - len(others),
                                                checked))
    print("states: %s" % dict(collections.Counter(
        p["state"] for p in patches.values())))
    for p in others if "--list" in sys.argv else []:
        print("  %s %s %s -> %s %s" % (
            p["date"][:10], p["message_id"], p["subject"][:50],
            p["state_evidence"]["commit"][:12],
            " ".join(sorted(links[p["state_evidence"]["commit"]]))))


main()
