#!/usr/bin/env python3
"""The layout of src/ (docs/architecture.md), checked.

    check-layout.py ROOT                 check; exit 1 and say why on failure
    check-layout.py ROOT --functions N   list the functions over N lines
                                         (signature to closing brace)

The check fails when
  - a file in src/ is over MAX_LINES lines;
  - a .c or .h file in src/ sits outside the stage folders;
  - a library folder (a stage, or fetch/) includes a header of a later
    stage, of cli/, or one that no folder has;
  - files of src/ call each other in a circle: a.c uses a function that
    b.c defines, and b.c (or a file b.c uses, and so on) one of a.c's.
    A file's uses are the names of non-static functions it does not
    define itself, each pointing at every file of src/ that defines it: a
    stand-in (cli-nogit.c's, cli-quick.c's) points at the quick program's
    copy and at the library's, so that it cannot hide a circle of either.
Quoted includes are resolved by name, as the include path resolves them
(header names are unique across the folders).  Speaks TAP, one test per
rule, so that meson shows what failed, after a first test that plants one
case of each problem in a small tree and wants exactly those found.
"""
import os
import re
import sys
import tempfile

MAX_LINES = 1500
MAX_FUNCTION = 150
# The functions that were already longer when the limit came in, with
# their length then: none may grow, and none may join them.  Split one and
# remove it here (tests/check-layout.py . --functions 150 lists them).
# Issue 22 split the last of them.
LONG_FUNCTIONS = {
}
# The stages in pipeline order: each may include its own headers and
# those of the stages before it.  cli/ may include everything.
STAGES = ["common", "maintainers", "history", "mail", "store", "link",
          "metrics", "output", "cli"]
# Libraries outside src/ and the stages they may include besides their own
# folder; cli/ may include them, no stage may.
OTHER_LIBS = {"fetch": ["common"]}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# comments, strings and character constants, blanked before looking for
# the names a file uses
NOT_CODE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                      r"'(?:\\.|[^'\\\n])*'", re.S)
WORD = re.compile(r"\b[A-Za-z_]\w*\b")
SIG_NAME = re.compile(r"(\w+)\s*\([^()]*(\([^()]*\)[^()]*)*\)\s*$", re.S)


def sources(root, folder):
    d = os.path.join(root, folder)
    for dirpath, _, names in os.walk(d):
        for n in sorted(names):
            if n.endswith((".c", ".h")):
                yield os.path.join(dirpath, n)


def rel(root, path):
    return os.path.relpath(path, root)


def read_lines(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read().split("\n")


def functions(path):
    """(name, first line, length) of each function defined in `path`: the
    house style puts a definition's "{" and "}" alone in column 0, its
    signature on the lines just above the "{"."""
    lines = read_lines(path)
    out = []
    i = 0
    while i < len(lines):
        if lines[i] != "{":
            i += 1
            continue
        start = i
        while start > 0:
            prev = lines[start - 1]
            if (not prev.strip() or prev.startswith(("#", "}", "/", " *"))
                    or prev.rstrip().endswith((";", "*/", "{"))):
                break
            start -= 1
        end = i + 1
        while end < len(lines) and lines[end] != "}":
            end += 1
        sig = " ".join(lines[start:i])
        m = SIG_NAME.search(sig)
        if m and end < len(lines):
            out.append((m.group(1), start + 1, end - start + 1))
        i = end + 1
    return out


def find_problems(root):
    """{"size"|"place"|"include": [message, ...]} of the tree at `root`."""
    src = os.path.join(root, "src")
    folders = {s: os.path.join(src, s) for s in STAGES}
    folders.update({o: os.path.join(root, o) for o in OTHER_LIBS})
    owner = {}                          # header name -> folder
    for name, d in folders.items():
        for p in sources(root, rel(root, d)):
            if p.endswith(".h"):
                owner[os.path.basename(p)] = name

    problems = {"size": [], "place": [], "include": []}
    for p in sources(root, "src"):
        r = rel(root, p)
        n = len(read_lines(p)) - 1
        if n > MAX_LINES:
            problems["size"].append(
                f"{r}: {n} lines, more than {MAX_LINES}: split it by what "
                "it does (docs/architecture.md)")
        parts = r.split(os.sep)
        if len(parts) != 3 or parts[1] not in STAGES:
            problems["place"].append(
                f"{r}: not in a stage folder (src/<stage>/, "
                "docs/architecture.md)")

    order = list(OTHER_LIBS) + STAGES
    for name, d in folders.items():
        if name == "cli":
            continue
        if name in OTHER_LIBS:
            allowed = {name, *OTHER_LIBS[name]}
        else:
            allowed = set(STAGES[:STAGES.index(name) + 1])
        for p in sources(root, rel(root, d)):
            for no, line in enumerate(read_lines(p), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                h = os.path.basename(m.group(1))
                where = owner.get(h)
                if where is None:
                    problems["include"].append(
                        f"{rel(root, p)}:{no}: includes \"{h}\", which no "
                        "library folder has")
                elif where not in allowed:
                    problems["include"].append(
                        f"{rel(root, p)}:{no}: includes \"{h}\" of "
                        f"{where}/, but {name}/ may use only "
                        f"{', '.join(o + '/' for o in order if o in allowed)}")

    problems["circle"] = circles(root)
    return problems


def uses(root):
    """{file: {file it uses: [names]}} of the .c files of src/."""
    files = [p for p in sources(root, "src") if p.endswith(".c")]
    defined = {}
    for p in files:
        lines = read_lines(p)
        for name, line, _ in functions(p):
            if name != "main" and not lines[line - 1].startswith("static"):
                defined.setdefault(name, set()).add(p)
    edges = {p: {} for p in files}
    for p in files:
        with open(p, encoding="utf-8", errors="replace") as f:
            text = NOT_CODE.sub(" ", f.read())
        for w in set(WORD.findall(text)):
            where = defined.get(w, ())
            if p in where:
                continue
            for q in where:
                edges[p].setdefault(q, []).append(w)
    return edges


def circles(root):
    """A message per circle of files (Tarjan's strongly connected
    components of more than one file)."""
    edges = uses(root)
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comp.sort()
                why = "; ".join(
                    f"{rel(root, a)} uses {', '.join(sorted(edges[a][b]))} "
                    f"of {rel(root, b)}"
                    for a in comp for b in comp if b in edges[a])
                out.append(f"{', '.join(rel(root, c) for c in comp)}: a "
                           f"circle of files ({why}): move what they share "
                           "down into one of them, or a file of its own")

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def planted_tree(d):
    """A small tree with one planted case of each problem: the messages
    the check must give for it, and the functions over 150 lines."""
    def put(path, text):
        path = os.path.join(d, path)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    put("src/common/error.h", "int x;\n")
    put("src/store/store.h", '#include "error.h"\n')
    put("src/metrics/review.h", '#include "store.h"\n')
    put("src/cli/cli.h", '#include "review.h"\n')
    put("fetch/fetch.h", '#include "error.h"\n')
    put("src/store/store.c", '#include "store.h"\n\n#include "review.h"\n')
    put("src/output/output.c", '#include "cli.h"\n#include "fetch.h"\n')
    put("src/common/big.c", "int f(void)\n{\n" + "\tg();\n" * 150 +
        "}\n" + "\n" * 1400)
    put("src/stray.c", '#include "nosuch.h"\n')
    # a circle of three files, and one that a stand-in (e() defined twice)
    # must not hide
    put("src/mail/a.c", "int a(void)\n{\n\treturn b();\n}\n")
    put("src/mail/b.c", "int b(void)\n{\n\treturn c();\n}\n")
    put("src/mail/c.c", "/* a() */\nint c(void)\n{\n\treturn a();\n}\n")
    put("src/mail/d.c", "int d(void)\n{\n\treturn e();\n}\n")
    put("src/mail/e.c", "int e(void)\n{\n\treturn d();\n}\n")
    put("src/cli/e2.c", "int e(void)\n{\n\treturn 0;\n}\n")
    return ({
        "size": ["src/common/big.c: 1553 lines, more than 1500"],
        "place": ["src/stray.c: not in a stage folder"],
        "include": [
            'src/output/output.c:1: includes "cli.h" of cli/',
            'src/output/output.c:2: includes "fetch.h" of fetch/',
            'src/store/store.c:3: includes "review.h" of metrics/',
        ],
        "circle": ["src/mail/a.c, src/mail/b.c, src/mail/c.c: a circle",
                   "src/mail/d.c, src/mail/e.c: a circle"],
    }, [(153, "src/common/big.c:1", "f")])


def self_test():
    """Whether the check finds exactly what planted_tree() plants."""
    with tempfile.TemporaryDirectory() as d:
        want, want_long = planted_tree(d)
        got = find_problems(d)
        long = long_functions(d, MAX_FUNCTION)
    ok = True
    for k, msgs in want.items():
        have = sorted(got[k])
        if len(have) != len(msgs) or not all(
                h.startswith(m) for h, m in zip(have, sorted(msgs))):
            print(f"# planted {k}: want {msgs}, got {have}")
            ok = False
    if long != want_long:
        print(f"# planted long function: want {want_long}, got {long}")
        ok = False
    return ok


def check(root):
    problems = find_problems(root)
    titles = {"size": f"no file in src/ over {MAX_LINES} lines",
              "place": "every file in src/ is in a stage folder",
              "include": "libraries include only their own and earlier "
                         "stages' headers",
              "circle": "no circle of files calling each other in src/"}
    print(f"1..{len(titles) + 2}")
    failed = 0
    if self_test():
        print("ok 1 - the check finds each problem planted in a small tree")
    else:
        failed += 1
        print("not ok 1 - the check finds each problem planted in a small "
              "tree")
    for i, (k, title) in enumerate(titles.items(), 2):
        for msg in problems[k]:
            print(f"# {msg}")
            print(msg, file=sys.stderr)
        if problems[k]:
            failed += 1
            print(f"not ok {i} - {title}")
        else:
            print(f"ok {i} - {title}")
    # Functions: the ones known to be long may not grow, no other may
    # pass the limit; all of them are listed in every test log.
    grown = []
    for n, where, fn in long_functions(root, MAX_FUNCTION):
        print(f"# {fn} ({where}): {n} lines, more than {MAX_FUNCTION}")
        if n > LONG_FUNCTIONS.get(fn, MAX_FUNCTION):
            grown.append(f"{where}: {fn} has {n} lines, more than "
                         f"{LONG_FUNCTIONS.get(fn, MAX_FUNCTION)}: split "
                         "it (STYLE.md: a screenful or two)")
    i = len(titles) + 2
    for msg in grown:
        print(f"# {msg}")
        print(msg, file=sys.stderr)
    if grown:
        failed += 1
        print(f"not ok {i} - no function over {MAX_FUNCTION} lines but "
              "the known ones, and those no longer")
    else:
        print(f"ok {i} - no function over {MAX_FUNCTION} lines but the "
              "known ones, and those no longer")
    return 1 if failed else 0


def long_functions(root, limit):
    rows = []
    for p in sources(root, "src"):
        if p.endswith(".c"):
            for name, line, n in functions(p):
                if n > limit:
                    rows.append((n, f"{rel(root, p)}:{line}", name))
    return sorted(rows, key=lambda r: (-r[0], r[1]))


def list_long(root, limit):
    rows = long_functions(root, limit)
    for n, where, name in rows:
        print(f"{n:5d}  {name:32s} {where}")
    print(f"{len(rows)} functions over {limit} lines")
    return 0


def main(argv):
    if len(argv) == 2:
        return check(argv[1])
    if len(argv) == 4 and argv[2] == "--functions":
        return list_long(argv[1], int(argv[3]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
