#!/usr/bin/env python3
"""ml-stat (linux-netdev/ml-stat) and `maintstat people` side by side on
one mbox (issue 38; the findings on the 2023 linux-rdma slice are in
docs/review.md, "Side by side with ml-stat").

    mlstat-side.py MLSTAT_GITDIR MBOX WORKDIR MAINTSTAT [people args...]

WORKDIR gets ml-stat.py of MLSTAT_GITDIR's HEAD and the mbox split into
ml-stat's msg-files layout (msg-files/N, 0 the newest), which is what
its prep_files() leaves from a lore clone (one `git checkout` per
message), so that step is skipped.  Both run under /usr/bin/time -v:
`MAINTSTAT people --archive MBOX --json [people args]`, then ml-stat's
own loading and calc_ppl_stat() for people and for companies (its
corpmap: maintstat's company of each address, so that company rows
differ only by what each counts; its mailmap empty, as on a list it has
no hand-made mailmap for).  Prints the top 20 people and top 10
companies of both, each maintstat person with the ml-stat identities of
its addresses, the score's parts, the threads ml-stat counts as their
review though one of their own identities wrote it, and the messages it
dropped.  Nothing it writes is committed."""
import email
import gzip
import json
import os
import re
import subprocess
import sys
from email.policy import default


def split(mbox, out):
    raw = gzip.open(mbox, "rb").read() if mbox.endswith(".gz") else \
        open(mbox, "rb").read()
    msgs, cur = [], None
    for line in raw.split(b"\n"):
        if line.startswith(b"From ") and (cur is None or cur and
                                          cur[-1] == b""):
            if cur is not None:
                msgs.append(cur)
            cur = []
            continue
        if cur is None:
            continue
        if re.match(rb">+From ", line):
            line = line[1:]
        cur.append(line)
    if cur is not None:
        msgs.append(cur)
    os.makedirs(out, exist_ok=True)
    for k, m in enumerate(msgs):
        with open(os.path.join(out, str(len(msgs) - 1 - k)), "wb") as f:
            f.write(b"\n".join(m))
    return len(msgs)


def ml_dump(work):
    """In WORKDIR: ml-stat's loading and scores, dumped to ml.json (its
    printing of the ranked lists is left out, as --json-out does)."""
    import importlib.util
    os.chdir(work)
    spec = importlib.util.spec_from_file_location("ml", "ml_stat.py")
    ml = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ml)
    n = len(os.listdir("msg-files"))
    ml.prep_files = lambda *a, **k: n

    class A:
        since = until = repo = "x"
        json_out = "x"
        proc = interact = check = name_dump = False
        name = []
        top_extra = 0
    ml.args = A()
    with open("db.json") as f:
        db = json.load(f)
    _, ps = ml.load_threads(False)
    ppl = ml.calc_ppl_stat(ml.args, ps, db, corp=False)
    corp = ml.calc_ppl_stat(ml.args, ps, db, corp=True)
    use = ml.get_mail_map({"mailmap": [], "corpmap": []}, False)
    threads = [{"root": mid, "authors": thr.authors(use),
                "parti": thr.participants(use),
                "mids": [x.msg.rid for x in thr.msgs]}
               for mid, thr in ps.threads.items()]
    with open("ml.json", "w") as f:
        json.dump({"people": ppl, "corps": corp, "threads": threads}, f)


def timed(cmd, out):
    r = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=out,
                       stderr=subprocess.PIPE, text=True)
    t = dict(line.strip().rsplit(": ", 1) for line in
             r.stderr.splitlines() if line.startswith("\t"))
    if r.returncode:
        sys.exit(r.stderr[-2000:])
    return (t.get("Elapsed (wall clock) time (h:mm:ss or m:ss)"),
            t.get("User time (seconds)"), t.get("System time (seconds)"),
            t.get("Maximum resident set size (kbytes)"))


def addr(ident):
    m = re.search(r"<([^>]*)>", ident)
    return (m.group(1) if m else ident).strip().lower()


def parts(s):
    r, a = s["reviewer"], s["author"]
    return f"r {r['cs']}/{r['thr']}/{r['msg']} a {a['msg']}"


def main():
    if sys.argv[1] == "--ml-dump":
        return ml_dump(sys.argv[2])
    gitdir, mbox, work, maintstat = sys.argv[1:5]
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "ml_stat.py"), "wb") as f:
        f.write(subprocess.run(["git", "-C", gitdir, "show",
                                "HEAD:ml-stat.py"], check=True,
                               stdout=subprocess.PIPE).stdout)
    if not os.path.isdir(os.path.join(work, "msg-files")):
        split(mbox, os.path.join(work, "msg-files"))
    ms_json = os.path.join(work, "maintstat.json")
    # REUSE=1: compare the last run's outputs again, running neither
    reuse = os.environ.get("REUSE") and os.path.exists(ms_json)
    tm = tl = "(REUSE: not run)"
    if not reuse:
        with open(ms_json, "w") as f:
            tm = timed([maintstat, "people", "--archive", mbox, "--json",
                        "--no-cache"] + sys.argv[5:], f)
    ms = json.load(open(ms_json))
    # a domain all of whose people maintstat gives one company is that
    # company (ml-stat's needles are case-sensitive: "@domain>" catches
    # BMT@zurich.ibm.com too); else each address of a known company
    dom = {}
    for p in ms["people"]:
        for a in p["addresses"]:
            dom.setdefault(a.rpartition("@")[2], set()).add(p["company"])
    corpmap = [[f"@{d}>", next(iter(c))] for d, c in sorted(dom.items())
               if len(c) == 1 and "(Unknown)" not in c]
    corpmap += [[f"<{a}>", p["company"]] for p in ms["people"]
                if p["company"] != "(Unknown)" for a in p["addresses"]
                if len(dom[a.rpartition("@")[2]]) > 1]
    with open(os.path.join(work, "db.json"), "w") as f:
        json.dump({"mailmap": [], "corpmap": corpmap}, f)
    if not reuse:
        with open(os.path.join(work, "ml.out"), "w") as f:
            tl = timed([sys.executable, os.path.abspath(__file__),
                        "--ml-dump", work], f)
    ml = json.load(open(os.path.join(work, "ml.json")))
    print("time (wall, user s, sys s, max RSS KB):")
    print(f"  maintstat people: {tm}\n  ml-stat:          {tl}")

    person = {a.lower(): p for p in ms["people"] for a in p["addresses"]}
    ms_rank = {p["email"]: i + 1 for i, p in enumerate(ms["people"])}
    ml_sorted = sorted(ml["people"].items(),
                       key=lambda kv: -kv[1]["score"]["positive"])
    ml_rank = {k: i + 1 for i, (k, _) in enumerate(ml_sorted)}
    idents = {}
    for k in ml["people"]:
        p = person.get(addr(k))
        idents.setdefault(p["email"] if p else None, []).append(k)
    # every message file's sender and id, and those in ml-stat's threads
    kept = {m for t in ml["threads"] for m in t["mids"]}
    copies = {}
    for t in ml["threads"]:
        for m in t["mids"]:
            copies[m] = copies.get(m, 0) + 1
    msgs = {}
    mdir = os.path.join(work, "msg-files")
    for name in os.listdir(mdir):
        with open(os.path.join(mdir, name), "rb") as f:
            msg = email.message_from_binary_file(f, policy=default)
        mid = (msg.get("message-id") or "").strip()[1:-1]
        msgs[mid] = msg

    def refs(msg):
        return re.findall(r"<([^>]*)>", str(msg.get("in-reply-to") or "") +
                          str(msg.get("references") or ""))

    def off_list(mid, seen=()):
        """Whether a message it answers (or one those answer) is not in
        the archive: its thread began elsewhere."""
        return any(r not in msgs or (r not in seen and
                                     off_list(r, seen + (mid,)))
                   for r in refs(msgs[mid]))
    dropped = {}
    twice = {}
    for mid, msg in msgs.items():
        if copies.get(mid, 0) > 1:
            p = person.get(addr(str(msg.get("from") or "")))
            twice.setdefault(p["email"] if p else None, []).append(mid)
        if mid not in kept:
            a = addr(str(msg.get("from") or ""))
            p = person.get(a)
            why = ("stable review" if "AUTOSEL" in str(msg.get("subject"))
                   or msg.get("x-stable") == "review" else
                   "its thread began off this archive" if off_list(mid)
                   else "other")
            dropped.setdefault(p["email"] if p else a, []).append(
                (why, mid))

    def no_patch(p):
        """Threads p answered whose root ml-stat takes for a patch
        (a subject beginning with '[', not "pull req") though it has no
        PATCH or RFC: bug reports, proposals, bots' build reports, "[GIT
        PULL]" (maintstat: a pull request), its change sets."""
        mine = set(idents.get(p["email"], []))
        out = []
        for t in ml["threads"]:
            s = str(msgs[t["root"][1:-1]].get("subject") or "") \
                if t["root"][1:-1] in msgs else ""
            if (mine & (set(t["parti"]) - set(t["authors"])) and
                    s.startswith("[") and "pull req" not in s and
                    not re.search(r"PATCH|RFC", s.upper())):
                out.append(t["root"])
        return out

    def own_review(p):
        """Threads one of p's identities wrote, another counted as its
        reviewer by ml-stat."""
        mine = set(idents.get(p["email"], []))
        return [t["root"] for t in ml["threads"]
                if mine & set(t["authors"]) and
                mine & (set(t["parti"]) - set(t["authors"]))]

    show = [p["email"] for p in ms["people"][:20]]
    for k, _ in ml_sorted[:20]:
        p = person.get(addr(k))
        if p and p["email"] not in show:
            show.append(p["email"])
        elif not p:
            show.append(k)
    print("\nPeople: maintstat rank score [reviewer cs/thr/msg, author "
          "msg]; ml-stat's identities of their addresses")
    for e in show:
        p = next((x for x in ms["people"] if x["email"] == e), None)
        if not p:
            s = ml["people"][e]
            print(f"  {e}: not a person in maintstat; ml-stat "
                  f"#{ml_rank[e]} {s['score']['positive']} {parts(s)}")
            continue
        m = p["ml_stat"]
        print(f"  #{ms_rank[e]} {p['reviewer_score']} {p['name']} <{e}> "
              f"[r {m['reviewer_cs']}/{m['reviewer_threads']}/"
              f"{m['reviewer_messages']} a {m['author_messages']}] "
              f"messages {p['messages']}")
        for k in sorted(idents.get(e, []),
                        key=lambda k: ml_rank[k]):
            s = ml["people"][k]
            print(f"      ml-stat #{ml_rank[k]} {s['score']['positive']} "
                  f"{k} [{parts(s)}]")
        own = own_review(p)
        if own:
            print(f"      own threads ml-stat counts as review: {len(own)}"
                  f", e.g. {' '.join(own[:3])}")
        nop = no_patch(p)
        if nop:
            print(f"      threads they answered whose root ml-stat takes "
                  f"for a patch (a change set) though it is none: "
                  f"{len(nop)}, e.g. {' '.join(nop[:3])}")
        if twice.get(e):
            print(f"      messages the list delivered twice, ml-stat "
                  f"counting both: {len(twice[e])}, e.g. "
                  f"{' '.join(sorted(twice[e])[:2])}")
        for why in sorted({w for w, _ in dropped.get(e, [])}):
            d = sorted(m for w, m in dropped[e] if w == why)
            print(f"      messages ml-stat left out ({why}): {len(d)}, "
                  f"e.g. {' '.join(d[:2])}")
    print("\nCompanies: maintstat's (the sum of its people); ml-stat's "
          "row (its corpmap: maintstat's company of each address) and "
          "the sum of ml-stat's people rows of those addresses; ml-stat's "
          "own ranking (unmapped people are rows of their own)")
    cs = sorted(ml["corps"].items(), key=lambda kv: -kv[1]["score"]
                ["positive"])
    mc = [c for c in ms["companies"] if c["name"] != "(Unknown)"]
    for i in range(10):
        c = mc[i]
        s = ml["corps"].get(c["name"])
        own = sum(v["score"]["positive"] for k, v in ml["people"].items()
                  if person.get(addr(k), {}).get("company") == c["name"])
        print(f"  {i + 1:2}. {c['reviewer_score']:5} {c['name']} "
              f"({len(c['people'])} people) | ml-stat "
              f"{s['score']['positive'] if s else '-'}, its people "
              f"{own} | ml-stat #{i + 1} {cs[i][1]['score']['positive']} "
              f"{cs[i][0]}")
        mine = {p["email"] for p in c["people"]}
        left = sum(len(dropped.get(e, [])) for e in mine)
        two = sum(len(twice.get(e, [])) for e in mine)

        def of(ks):
            return {person[addr(k)]["email"] for k in ks
                    if addr(k) in person} & mine
        inside = [t["root"] for t in ml["threads"]
                  if of(t["authors"]) and
                  of(set(t["parti"]) - set(t["authors"])) -
                  of(t["authors"])]
        print(f"      its people's messages ml-stat left out: {left}, "
              f"counted twice: {two}; its threads its other people "
              f"answered (ml-stat: the company's own, no review): "
              f"{len(inside)}{', e.g. ' + inside[0] if inside else ''}")

main()
