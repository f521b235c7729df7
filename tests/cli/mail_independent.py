"""Counts of an mbox derived without maintstat's code (Python's email
package), for tests/cli/test-mail.py: messages, distinct Message-IDs,
patches (not replies, a diff in the decoded text) and replies with a
review tag (Reviewed/Acked/Tested-by in unquoted text, at the start of
a line or indented, as docs/review.md defines a tag).  Prints JSON."""
import email
import email.policy
import gzip
import json
import re
import sys

REVIEW = re.compile(r"^[ \t]*(Reviewed|Acked|Tested)-by:\s*\S", re.I | re.M)
REPLY = re.compile(r"^\s*((re|aw|antw|sv|vs|odp)(\[\d+\])?:\s*)+", re.I)
BOTS = ("lkp@intel.com", "syzbot", "patchwork-bot", "bot@kernelci",
        "pr-tracker-bot", "noreply@", "no-reply@", "kernelci")


def messages(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        cur, prev_blank = None, True
        for line in f:
            if line.startswith(b"From ") and prev_blank:
                if cur is not None:
                    yield b"".join(cur)
                cur = []
            elif cur is not None:
                if re.match(rb"^>+From ", line):
                    line = line[1:]
                cur.append(line)
            prev_blank = line in (b"\n", b"\r\n")
        if cur:
            yield b"".join(cur)


def text_of(msg):
    out = []
    for part in msg.walk():
        if part.is_multipart():
            continue
        ctype = part.get_content_type()
        name = part.get_filename() or ""
        if ctype == "text/html":
            continue
        if not ctype.startswith("text/") and not name.endswith(
                (".patch", ".diff")):
            continue
        data = part.get_payload(decode=True) or b""
        cs = part.get_content_charset() or "utf-8"
        try:
            out.append(data.decode(cs, "replace"))
        except LookupError:
            out.append(data.decode("utf-8", "replace"))
    return "\n".join(out)


def has_diff(text):
    lines = text.splitlines()
    for i, l in enumerate(lines):
        if l.startswith("diff --git "):
            return True
        if l.startswith("--- ") and i + 1 < len(lines) and \
                lines[i + 1].startswith("+++ "):
            return True
    return False


def main():
    n = 0
    ids = set()
    patches = review_replies = 0
    for raw in messages(sys.argv[1]):
        n += 1
        msg = email.message_from_bytes(raw, policy=email.policy.compat32)
        mid = (msg.get("Message-ID") or "").strip()
        m = re.search(r"<([^<>\s]+)>", mid)
        mid = m.group(1) if m else mid
        if mid in ids:
            continue
        ids.add(mid)
        subj = str(email.header.make_header(email.header.decode_header(
            msg.get("Subject") or "")))
        frm = (msg.get("From") or "").lower()
        addr = email.utils.parseaddr(frm)[1]
        name = email.utils.parseaddr(frm)[0]
        if addr.startswith(BOTS) or addr.endswith(
                "@syzkaller.appspotmail.com") or name.startswith(
                ("kernel test robot", "syzbot", "patchwork-bot")):
            continue
        text = text_of(msg)
        unquoted = "\n".join(l for l in text.splitlines()
                             if not l.startswith(">"))
        if REPLY.match(subj):
            if REVIEW.search(unquoted) and not re.search(
                    r"^Nacked-by:", unquoted, re.M | re.I):
                review_replies += 1
            continue
        tags = re.findall(r"\[([^\]]*)\]", subj.split("]")[0] + "]") \
            if subj.lstrip().startswith("[") else []
        words = " ".join(tags).upper().split()
        if "PULL" in words or "GIT" in words:
            continue
        rest = re.sub(r"^(\s*\[[^\]]*\])*\s*", "", subj)
        if re.match(r"(?i)pull[- ]request:", rest):
            continue
        if re.search(r"\b0+/\d+", " ".join(tags)):
            continue
        if has_diff(text):
            patches += 1
    print(json.dumps({"messages": n, "message_ids": len(ids),
                      "patches": patches,
                      "review_replies": review_replies}))


if __name__ == "__main__":
    main()
