"""The shape of each JSON key, for checking that a key has one shape in
every command and every place (issue 34: one name and one shape per
figure).

A value's shape is its type (object, list, string, number, boolean); an
object's shape is also its set of members (null ones too), and a list's
the shapes of its elements.  A null and an empty list say nothing about
a shape and are left out, so that a figure unknown or empty in one
document agrees with any.

Two shapes of a key conflict when their types differ, when lists hold
elements of different types, or when two records differ: a record is an
object whose members are never lists or objects, wherever the key has
that set of members (a person's label, a commit reference, a pair of
quantiles); two records under one name must have the same members, or
one some of the other's.  An object holding lists or objects, or a list
of objects, is a command's view of a domain object (an entry of
`review` against one of `activity`): its members are checked one by
one, each under its own name.
"""


def shape(v):
    """A hashable description of `v`'s shape, or None when `v` says
    nothing (null, [])."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, dict):
        record = all(not isinstance(x, (dict, list)) for x in v.values())
        return ("object", frozenset(v), record)
    elems = frozenset(s for s in (shape(x) for x in v) if s)
    return ("list", elems) if elems else None


def show(s):
    """`s` for people."""
    if isinstance(s, str):
        return s
    if s[0] == "object":
        return "{" + ",".join(sorted(s[1])) + "}"
    return "[" + " | ".join(sorted(show(e) for e in s[1])) + "]"


def kind(s):
    """The type alone: object, list, string, number, boolean."""
    return s if isinstance(s, str) else s[0]


def collect(v, where, acc):
    """acc: key -> {shape: {places}} over every key of document `v`; a
    place is `where` and the path to the key."""
    def walk(v, path):
        if isinstance(v, dict):
            for k, x in v.items():
                s = shape(x)
                if s is not None:
                    acc.setdefault(k, {}).setdefault(s, set()).add(
                        f"{where}: {path}{k}")
                walk(x, f"{path}{k}.")
        elif isinstance(v, list):
            for x in v:
                walk(x, f"{path}[].")
    walk(v, "")
    return acc


def agree(a, b):
    """Whether shapes `a` and `b` are one shape (see the module's
    comment)."""
    if kind(a) != kind(b):
        return False
    if kind(a) == "object":
        if a[2] and b[2]:
            return a[1] <= b[1] or b[1] <= a[1]
        return True
    if kind(a) == "list":
        return {kind(x) for x in a[1]} == {kind(y) for y in b[1]}
    return True


def records(shapes):
    """`shapes` (shape -> places) with each object's record flag true only
    when it is a record in every place it has those members."""
    flag = {}
    for s in shapes:
        if kind(s) == "object":
            flag[s[1]] = flag.get(s[1], True) and s[2]
    out = {}
    for s, p in shapes.items():
        if kind(s) == "object":
            s = ("object", s[1], flag[s[1]])
        out.setdefault(s, set()).update(p)
    return out


def conflicts(acc):
    """Keys with two shapes that do not agree: [(key, [(shape, places),
    (shape, places)])], one pair per key, sorted by key."""
    out = []
    for k in sorted(acc):
        shapes = sorted(records(acc[k]).items(),
                        key=lambda sp: (show(sp[0]),))
        pair = next(((a, b) for i, a in enumerate(shapes)
                     for b in shapes[i + 1:] if not agree(a[0], b[0])),
                    None)
        if pair:
            out.append((k, [(s, sorted(p)) for s, p in pair]))
    return out
