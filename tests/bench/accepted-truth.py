#!/usr/bin/env python3
"""How well review's `accepted` state matches the patches b4 ty says were
applied (issue 36's accuracy figure).

Usage: accepted-truth.py REVIEW.json ARCHIVE.mbox[.gz] [--misses]

REVIEW.json is `maintstat review --archive ARCHIVE --tree T --json` (all
entries).  The truth is every `[n/m] subject` item line of the archive's
b4 ty messages (Message-ID containing "b4-ty"), subjects normalised
(Re:/[PATCH ...] prefixes dropped, blanks folded, lower case).  Prints the
number of b4 ty messages and subjects, how many of the subjects are
review's patches (unique by first posting), the accepted recall over
those, how many patches are accepted in all and how many of them the
truth names, and the count of each state.  --misses lists the truth's
patches not accepted.  On the linux-rdma 2023 slice with linux-source-6.1
(Dec 7, with pull requests): recall 352/352 = 1.000, 713 accepted.
"""
import collections
import gzip
import json
import mailbox
import re
import shutil
import sys
import tempfile


def norm(s):
    s = re.sub(r'^\s*((re|fwd?)\s*:\s*)*', '', s, flags=re.I)
    s = re.sub(r'^(\[[^\]]*\]\s*)+', '', s)
    return re.sub(r'\s+', ' ', s).strip().lower()


def body(m):
    while m.is_multipart():
        m = m.get_payload()[0]
    return (m.get_payload(decode=True) or b'').decode('utf-8', 'replace')


def truth_of(path):
    with tempfile.NamedTemporaryFile(suffix='.mbox') as tmp:
        opener = gzip.open if path.endswith('.gz') else open
        with opener(path, 'rb') as f:
            shutil.copyfileobj(f, tmp)
        tmp.flush()
        msgs, subjects = 0, set()
        for m in mailbox.mbox(tmp.name):
            if 'b4-ty' not in (m['Message-ID'] or ''):
                continue
            msgs += 1
            for line in body(m).splitlines():
                item = re.match(r'^\[\d+/\d+\]\s+(.*)$', line)
                if item:
                    subjects.add(norm(item.group(1)))
    return msgs, subjects


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__.split('\n\n')[1])
    with open(sys.argv[1]) as f:
        review = json.load(f)
    msgs, truth = truth_of(sys.argv[2])
    patches = {}
    for e in review['entries']:
        for p in e['patch_list']:
            patches[p['versions'][0]] = p
    by_subject = collections.defaultdict(list)
    for p in patches.values():
        by_subject[norm(p['subject'])].append(p)
    found = sorted(s for s in truth if s in by_subject)
    hit = [s for s in found
           if any(p['state'] == 'accepted' for p in by_subject[s])]
    accepted = [p for p in patches.values() if p['state'] == 'accepted']
    named = sum(1 for p in accepted if norm(p['subject']) in truth)
    print(f"b4 ty messages {msgs}, subjects {len(truth)}, "
          f"found as patches {len(found)}")
    print(f"accepted recall {len(hit)}/{len(found)} = "
          f"{len(hit) / max(len(found), 1):.3f}")
    print(f"patches {len(patches)}, accepted {len(accepted)}, "
          f"of which the truth names {named}")
    print("states", dict(collections.Counter(
        p['state'] for p in patches.values()).most_common()))
    if '--misses' in sys.argv:
        for s in found:
            if s not in hit:
                for p in by_subject[s]:
                    print(p['state'], p['versions'][0], p['subject'])


main()
