#!/usr/bin/env python3
"""The baseline for bench-mail: parse an mbox (mboxrd, .gz read
transparently) with Python's standard `email` package the way existing
review-statistics scripts do: full parse of every message, decoding of every
text part (transfer encoding and charset), and a scan of the decoded text
for review trailers.  Prints one JSON line of counts and timing."""
import email
import email.policy
import gzip
import json
import re
import sys
import time

TRAILER = re.compile(rb"^(Reviewed|Acked|Tested|Nacked|Signed-off|Reported|"
                     rb"Suggested|Co-developed)-by:\s*(.+)$", re.I | re.M)
TRAILER_S = re.compile(TRAILER.pattern.decode(), re.I | re.M)
FROM_ESC = re.compile(rb"^>(>*From )")


def messages(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        cur = None
        prev_blank = True
        for line in f:
            if line.startswith(b"From ") and prev_blank:
                if cur is not None:
                    yield b"".join(cur)
                cur = []
            elif cur is not None:
                if line.startswith(b">"):
                    line = FROM_ESC.sub(rb"\1", line)
                cur.append(line)
            prev_blank = line in (b"\n", b"\r\n")
        if cur:
            yield b"".join(cur)


def main():
    path = sys.argv[1]
    t0 = time.monotonic()
    n = nbytes = trailers = reviews = 0
    for raw in messages(path):
        n += 1
        nbytes += len(raw)
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        msg.get("Message-ID"), msg.get("From"), msg.get("Date")
        msg.get("Subject"), msg.get("In-Reply-To"), msg.get("References")
        for part in msg.walk():
            if part.get_content_maintype() != "text":
                continue
            try:
                text = part.get_content()
            except (LookupError, ValueError):
                text = part.get_payload(decode=True) or b""
                text = text.decode("latin-1")
            for line in text.splitlines():
                if line.startswith(">"):
                    continue
                m = TRAILER_S.match(line)
                if m:
                    trailers += 1
                    if m.group(1).lower() in ("reviewed", "acked", "tested"):
                        reviews += 1
    dt = time.monotonic() - t0
    print(json.dumps({"messages": n, "bytes": nbytes, "trailers": trailers,
                      "review_trailers": reviews, "seconds": dt}))


if __name__ == "__main__":
    main()
