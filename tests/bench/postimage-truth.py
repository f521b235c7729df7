#!/usr/bin/env python3
"""How review's `accepted` state compares with a check that knows nothing
of notices: a patch whose every hunk's post-image (its context and added
lines, in order) stands in the tree's file, with at least one added line
per file, has been applied to that tree (or its change was).

Usage: postimage-truth.py REVIEW.json EPOCH.git TREE [--list STATE]

REVIEW.json is `maintstat review --archive EPOCH.git --tree TREE --json`
(any entries); EPOCH.git a public-inbox epoch (a commit per message, blob
`m`).  Each patch's newest version is read from the epoch.  Prints the
count of each state, how many patches of each state pass the check, and
the share of the passing ones review accepts.  --list STATE lists the
passing patches left in STATE.  A revert's post-image is the old code, so
a revert of a change the tree never had passes: read the list.  On
linux-watchdog's epoch with linux-source-6.1 (Dec 7, with pull requests):
318 pass, 291 accepted.
"""
import collections
import json
import os
import re
import subprocess
import sys


def hunks_present(body, tree, cache):
    """True when every file's hunks have their post-image in the tree."""
    seen = False
    for fm in re.finditer(rb'^diff --git a/\S+ b/(\S+)\n(.*?)(?=^diff --git |\Z)',
                          body, re.M | re.S):
        path = fm.group(1).decode(errors='replace')
        chunk = fm.group(2)
        if b'\n+++ /dev/null' in chunk or b'\ndeleted file' in chunk:
            continue
        if path not in cache:
            f = os.path.join(tree, path)
            cache[path] = (open(f, 'rb').read().split(b'\n')
                           if os.path.isfile(f) else None)
        lines = cache[path]
        added = False
        for hm in re.finditer(rb'^@@[^\n]*\n((?:[ +\-\\][^\n]*\n|\n)*)',
                              chunk, re.M):
            img = [ln[1:] for ln in hm.group(1).split(b'\n')[:-1]
                   if not ln.startswith((b'-', b'\\'))]
            added |= any(ln.startswith(b'+')
                         for ln in hm.group(1).split(b'\n'))
            if not img:
                continue
            if lines is None or not any(
                    lines[i:i + len(img)] == img
                    for i in range(len(lines) - len(img) + 1)
                    if lines[i] == img[0]):
                return False
        if not added:
            return False
        seen = True
    return seen


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    review, epoch, tree = sys.argv[1:4]
    show = sys.argv[5] if sys.argv[4:5] == ['--list'] else None
    want = {}
    for e in json.load(open(review))['entries']:
        for p in e['patch_list']:
            want[p['versions'][-1]] = p
    revs = subprocess.run(['git', '--git-dir', epoch, 'rev-list', 'HEAD'],
                          capture_output=True, text=True,
                          check=True).stdout.split()
    cat = subprocess.Popen(['git', '--git-dir', epoch, 'cat-file', '--batch'],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    states, passing, cache = collections.Counter(), collections.Counter(), {}
    for r in revs:
        cat.stdin.write((r + ':m\n').encode())
        cat.stdin.flush()
        hdr = cat.stdout.readline().split()
        if len(hdr) < 3:
            continue
        data = cat.stdout.read(int(hdr[2]))
        cat.stdout.read(1)
        m = re.search(rb'^Message-I[Dd]:\s*<([^>]+)>', data, re.M)
        p = m and want.pop(m.group(1).decode(errors='replace'), None)
        if not p:
            continue
        states[p['state']] += 1
        if hunks_present(data.replace(b'\r\n', b'\n'), tree, cache):
            passing[p['state']] += 1
            if p['state'] == show:
                print(p['date'][:10], p['message_id'], p['subject'])
    cat.stdin.close()
    total = sum(passing.values())
    print('states', dict(states))
    print('post-image in the tree, by state', dict(passing))
    print('accepted of those %d/%d = %.3f' % (
        passing['accepted'], total,
        passing['accepted'] / total if total else 0))


main()
