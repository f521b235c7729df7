#!/usr/bin/env python3
"""run-fuzz.py FUZZER SECONDS SEED... - run a libFuzzer target for a
bounded time, seeded with every message of the mbox fixtures found in the
seed directories (each message becomes one corpus file) and with each seed
that is a file (the whole file is one corpus file).  Exit status is
the fuzzer's: non-zero when it found a crash, a leak or a timeout."""
import os
import subprocess
import sys
import tempfile

SEP = b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"


def main():
    fuzzer, seconds, seeds = sys.argv[1], sys.argv[2], sys.argv[3:]
    work = tempfile.mkdtemp(prefix="maintstat-fuzz-")
    corpus = os.path.join(work, "corpus")
    os.makedirs(corpus)
    n = 0
    for d in seeds:
        if os.path.isfile(d):
            n += 1
            with open(d, "rb") as f, \
                    open(os.path.join(corpus, f"seed-{n}"), "wb") as g:
                g.write(f.read())
            continue
        for root, _, files in os.walk(d):
            for name in sorted(files):
                if not name.endswith(".mbox"):
                    continue
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                for msg in data.split(SEP):
                    if msg.strip():
                        n += 1
                        with open(os.path.join(corpus, f"seed-{n}"),
                                  "wb") as f:
                            f.write(msg)
    print(f"# {n} seed messages; fuzzing for {seconds} s", flush=True)
    # a finding exits 1: libFuzzer's own 77 is meson's "skipped"
    rc = subprocess.call([fuzzer, f"-max_total_time={seconds}",
                          "-error_exitcode=1",
                          "-timeout=20", "-rss_limit_mb=2048",
                          "-max_len=262144", "-print_final_stats=1",
                          f"-artifact_prefix={work}/", corpus])
    if rc == 0:
        subprocess.call(["rm", "-rf", work])
    else:
        print(f"# crash artifacts kept in {work}")
    sys.exit(rc)


if __name__ == "__main__":
    main()
