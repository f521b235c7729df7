#!/usr/bin/env python3
"""bench-link.py - precision and recall of `maintstat link` without
trailers, measured against the Link:/Message-Id: trailers themselves.

  bench-link.py MAINTSTAT --repo GITDIR --archive PATH [--archive ...]
                [--since DATE] [--until DATE]

Runs `maintstat link --json` twice: with trailers (the truth: the commits
linked by "link-trailer" or "message-id-trailer") and with
--ignore-link-trailers.  Over the truth commits:

  precision = commits linked to the trailer's message / commits linked
  recall    = commits linked to the trailer's message / truth commits

A link to an earlier or later posting of the same patch (another message)
counts as wrong.  Three definitions of the truth, printed in turn:

  1. every trailer naming a message of the archive;
  2. only trailers naming a patch posting (kind "patch"): a trailer
     naming a cover letter, a bug report or a review reply names the
     discussion, not the posting link looks for, so it is no truth about
     which posting that is;
  3. of those, only trailers the content does not contradict: a trailer
     is dropped when its message shares nothing with the commit (no
     equal patch-id, no Date equal to the author date, no equal subject:
     the link's `evidence`) while the posting found without trailers has
     the commit's patch-id or author date: the maintainer pasted the
     Link: of another patch of the series.  Missed commits always stay
     in the truth, so this tier cannot raise recall by dropping misses.

Prints the figures, the time of each run and, as the named baseline,
the ~91% accuracy the best published mail-to-commit linker reports.
"""
import argparse
import json
import subprocess
import sys
import time

BASELINE = 0.91


def run(cmd):
    t = time.monotonic()
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out), time.monotonic() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("maintstat")
    ap.add_argument("--repo", required=True)
    ap.add_argument("--archive", action="append", required=True)
    ap.add_argument("--since")
    ap.add_argument("--until")
    ap.add_argument("--show", type=int, default=0,
                    help="print this many mistakes of each kind")
    a = ap.parse_args()
    # --no-cache: time the linking itself, not a read of stored links
    cmd = [a.maintstat, "link", "--json", "--no-cache", "--repo", a.repo]
    for p in a.archive:
        cmd += ["--archive", p]
    if a.since:
        cmd += ["--since", a.since]
    if a.until:
        cmd += ["--until", a.until]
    truth_doc, t1 = run(cmd)
    test_doc, t2 = run(cmd + ["--ignore-link-trailers"])
    truth = {l["commit"]: l["message_id"] for l in truth_doc["links"]
             if l["method"] in ("link-trailer", "message-id-trailer")}
    got = {l["commit"]: l for l in test_doc["links"]}
    print("== against every trailer naming a message of the archive")
    score(a, truth_doc, truth, got, t1, t2)
    # A trailer may name the discussion (a report, a review reply)
    # rather than the posting; only postings are what link looks for.
    postings = {l["commit"]: l["message_id"] for l in truth_doc["links"]
                if l["method"] in ("link-trailer", "message-id-trailer")
                and l.get("kind") == "patch"}
    print("== against trailers naming a patch posting")
    score(a, truth_doc, postings, got, t1, t2)
    content = {"patch-id", "author-date", "subject"}
    strong = {"patch-id", "author-date"}
    ev = {l["commit"]: set(l.get("evidence", [])) for l in truth_doc["links"]}
    kept, dropped = {}, []
    for c, mid in postings.items():
        g = got.get(c)
        if (g and g["message_id"] != mid and not ev[c] & content and
                set(g.get("evidence", [])) & strong):
            dropped.append((c, mid, g["message_id"]))
        else:
            kept[c] = mid
    print("== against trailers naming a patch posting the content does "
          "not contradict")
    print(f"dropped (trailer names another patch): {len(dropped)}")
    for c, mid, gmid in dropped[:a.show]:
        print(f"DROPPED {c[:12]} trailer <{mid}> content says <{gmid}>")
    score(a, truth_doc, kept, got, t1, t2)
    return 0


def score(a, truth_doc, truth, got, t1, t2):
    linked = right = 0
    wrong, missed = [], []
    by_method = {}
    for c, mid in truth.items():
        g = got.get(c)
        if not g:
            missed.append(c)
            continue
        linked += 1
        m = by_method.setdefault(g["method"], [0, 0])
        m[0] += 1
        if g["message_id"] == mid:
            right += 1
            m[1] += 1
        else:
            wrong.append((c, mid, g["message_id"], g["method"]))
    n = len(truth)
    prec = right / linked if linked else 0.0
    rec = right / n if n else 0.0
    print(f"commits in window:     {truth_doc['counts']['commits']}")
    print(f"truth (trailer) links: {n}")
    print(f"linked without them:   {linked}")
    print(f"right:                 {right}")
    for meth, (k, r) in sorted(by_method.items()):
        print(f"  {meth:12} {r}/{k} right")
    print(f"precision:             {prec:.4f}")
    print(f"recall:                {rec:.4f}")
    print(f"run with trailers:     {t1:.1f} s")
    print(f"run without:           {t2:.1f} s")
    print(f"accuracy vs baseline:  {rec:.4f} / {BASELINE:.2f} "
          f"(best published linker) = {rec / BASELINE:.2f}x")
    for c, mid, gmid, meth in wrong[:a.show]:
        print(f"WRONG {c[:12]} trailer <{mid}> got <{gmid}> by {meth}")
    for c in missed[:a.show]:
        print(f"MISSED {c[:12]} trailer <{truth[c]}>")


if __name__ == "__main__":
    sys.exit(main())
