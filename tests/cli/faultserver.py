#!/usr/bin/env python3
"""faultserver.py - a misbehaving HTTP server on 127.0.0.1 for the fetcher's
tests (Python standard library only).

    python3 faultserver.py [--upstream URL] [--git-root DIR] [--tls CERT KEY]

prints the port it listens on as its first line of stdout, then serves
until killed.  The first path segment picks a behaviour ("mode"); the rest
is the request as an inbox would see it, so a test points maintstat at
http://127.0.0.1:PORT/MODE/inbox/ .  A mode may end in "-N" (or "-N-S"):
the fault happens on the first N requests of that mode only, then the
request is served normally; a test that wants its own counter adds a tag
after a dot ("e500-2.a").

  ok            a 3-message mbox: t.mbox.gz and POST ?x=m as application/gzip
  e500-N        500 Internal Server Error
  e503-N-S      503 with Retry-After: S
  e429-N-S      429 Too Many Requests with Retry-After: S
  truncgz-N     a gzip body cut in the middle (Content-Length matches)
  badgz-N       a body that is not gzip at all, typed application/gzip
  reset-N       half the body, then a TCP reset
  stall-N       half the body, then nothing for 60 s
  html          200 text/html: an ordinary web page
  antibot       200 text/html: an Anubis "not a bot" interstitial
  e404          404 Not Found for everything
  redirect      302 to the same request under "ok"
  page          200 text/html with Last-Modified now (URL checker)
  old           200 text/html with Last-Modified in 2010
  loop          a redirect to itself, forever
  tofile        a redirect to file:///etc/passwd
  huge          200 application/octet-stream announcing a 10 GB body
  endless       200 application/octet-stream without a length, zeros
                forever
  trickle       the same, two bytes a second
  gzbomb        t.mbox.gz and manifest.js.gz: 32 KiB of gzip that
                inflates to 32 MiB of one message
  proxy         forward to --upstream (GET and POST, bodies included)
  proxy-nomanifest  as proxy, but manifest.js.gz is 404 (forces probing)
  stallpack     as proxy, but a git-upload-pack answer stalls half-way
  git           smart HTTP for the bare repositories under --git-root
                (git http-backend); no manifest.js.gz
  gitstall      as git, but a git-upload-pack answer stalls half-way
                (and writes STATE/stalled when it does; "stall" writes
                STATE/stalled-body once half its body is sent)
  git500-N      as git, but the first N requests are answered 500
  githtml       a manifest.js.gz listing git/0.git, but every request
                under N.git/ is answered by a web page (200 text/html), as
                a login wall or a web UI would

GET /_times/MODE answers the times (monotonic seconds) of MODE's requests,
one a line.
GET /_last/MODE answers the method and path of MODE's last request.

As an HTTP proxy (a request line with an absolute http:// URL), it serves
the URL's path the same way and counts the request under "_proxied".

GET /_count/MODE answers how many requests MODE received.
"""
import argparse
import gzip
import http.client
import os
import re
import socket
import struct
import subprocess
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MBOX = b"".join(
    b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
    b"From: Dev %d <dev%d@example.com>\n"
    b"Subject: [PATCH %d/3] fault test\n"
    b"Date: Mon, 6 Jan 2020 09:00:0%d +0000\n"
    b"Message-ID: <fault-%d@example.com>\n\n"
    b"body %d\n>From quoted\n\n" % (i, i, i, i, i, i) for i in (1, 2, 3))

ANTIBOT = (b"<!doctype html><html><head><title>Making sure you&#39;re not a "
           b"bot!</title><script src=\"/.within.website/x/cmd/anubis/static/"
           b"js/main.mjs\"></script></head><body>Loading...</body></html>")
HTML = b"<!DOCTYPE html><html><body><h1>Hello</h1></body></html>"

_bomb = []


def bomb():
    """32 MiB of one message (a From line, headers, then zeros), gzipped
    to a few dozen KiB: made once."""
    if not _bomb:
        _bomb.append(gzip.compress(
            b"From mboxrd@z Thu Jan  1 00:00:00 1970\nSubject: bomb\n\n" +
            b"0" * (32 << 20), 9))
    return _bomb[0]


counts = {}
last = {}
times = {}
lock = threading.Lock()
args = None


def bump(mode, what):
    with lock:
        last[mode] = what
        times.setdefault(mode, []).append(time.monotonic())
        counts[mode] = counts.get(mode, 0) + 1
        return counts[mode]


def parse_mode(mode):
    """'e503-2-1.tag' -> ('e503', [2, 1])"""
    base = mode.split(".", 1)[0]
    parts = base.split("-")
    nums = []
    while parts and parts[-1].isdigit():
        nums.insert(0, int(parts.pop()))
    return "-".join(parts), nums


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *a):
        if os.environ.get("FAULTSERVER_LOG"):
            sys.stderr.write("faultserver: " + (fmt % a) + "\n")

    def body_in(self):
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().split(b";")[0], 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    return data
                data += self.rfile.read(size)
                self.rfile.readline()
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def send(self, status, body, ctype="text/plain", headers=()):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
            self.wfile.flush()

    def do_HEAD(self):
        self.do_GET()

    def do_POST(self):
        self.do_GET(self.body_in())

    def do_GET(self, body=None):
        path = self.path
        if path.startswith("http://"):
            bump("_proxied", path)
            path = "/" + path.split("/", 3)[3]
        if path.startswith("/_count/"):
            mode = path[len("/_count/"):]
            return self.send(200, str(counts.get(mode, 0)).encode())
        if path.startswith("/_times/"):
            mode = path[len("/_times/"):]
            return self.send(200, "".join(
                f"{t:.6f}\n" for t in times.get(mode, [])).encode())
        if path.startswith("/_last/"):
            mode = path[len("/_last/"):]
            return self.send(200, last.get(mode, "").encode())
        segs = path.split("/", 2)
        mode = segs[1] if len(segs) > 1 else ""
        rest = "/" + (segs[2] if len(segs) > 2 else "")
        n = bump(mode, f"{self.command} {rest}")
        name, nums = parse_mode(mode)
        limit = nums[0] if nums else 10**9
        faulty = n <= limit
        if name in ("proxy", "proxy-nomanifest", "stallpack"):
            return self.proxy(name, rest, body)
        if name == "git500" and faulty:
            return self.send(500, b"Internal Server Error")
        if name == "githtml" and rest.endswith("/manifest.js.gz"):
            inbox = rest.split("/")[1]
            return self.send(200, gzip.compress(
                f'{{"/{inbox}/git/0.git": {{"modified": 1}}}}'.encode()),
                "application/gzip")
        if name == "githtml" and re.search(r"\.git(/|$)", rest):
            return self.send(200, HTML, "text/html; charset=UTF-8")
        if name in ("git", "gitstall", "git500"):
            return self.git_backend(name, rest, body)
        if name == "e404":
            return self.send(404, b"Not Found")
        if name == "html":
            return self.send(200, HTML, "text/html; charset=UTF-8")
        if name == "antibot":
            return self.send(200, ANTIBOT, "text/html; charset=utf-8")
        if name == "page":
            return self.send(200, HTML, "text/html", [
                ("Last-Modified", self.date_time_string(time.time()))])
        if name == "old":
            return self.send(200, HTML, "text/html", [
                ("Last-Modified", "Fri, 01 Jan 2010 00:00:00 GMT")])
        if name == "tofile":
            return self.send(302, b"", headers=[
                ("Location", "file:///etc/passwd")])
        if name in ("huge", "endless", "trickle"):
            return self.endless(name)
        if name == "gzbomb" and (rest.endswith("/t.mbox.gz") or
                                 rest.endswith("/manifest.js.gz")):
            return self.send(200, bomb(), "application/gzip")
        if name == "loop":
            return self.send(302, b"", headers=[("Location", path)])
        if name == "redirect":
            return self.send(302, b"", headers=[
                ("Location", "/ok" + rest)])
        if faulty and name == "e500":
            return self.send(500, b"Internal Server Error")
        if faulty and name in ("e503", "e429"):
            after = str(nums[1] if len(nums) > 1 else 1)
            return self.send(int(name[1:]), b"slow down", headers=[
                ("Retry-After", after)])
        return self.mbox(name if faulty else "ok", rest)

    def mbox(self, name, rest):
        """An inbox's mbox answers, possibly broken."""
        ok_path = rest.endswith("/t.mbox.gz") or "x=m" in rest
        if not ok_path:
            if rest.rstrip("/").count("/") <= 1:  # the inbox itself
                return self.send(200, HTML, "text/html; charset=UTF-8")
            return self.send(404, b"Not Found")
        if "q=nomatch" in rest:
            return self.send(404, b"No results found\n")
        data = gzip.compress(MBOX)
        if name == "truncgz":
            return self.send(200, data[:len(data) // 2], "application/gzip")
        if name == "badgz":
            return self.send(200, b"this is not gzip" * 20,
                             "application/gzip")
        if name in ("reset", "stall"):
            self.send_response(200)
            self.send_header("Content-Type", "application/gzip")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data[:len(data) // 2])
            self.wfile.flush()
            if name == "stall":
                with open(os.path.join(args.state, "stalled-body"),
                          "w") as f:
                    f.write("stalled\n")
                time.sleep(60)
            self.reset()
            return
        return self.send(200, data, "application/gzip")

    def endless(self, name):
        """A body that never ends (or claims 10 GB): the client must cut
        it off.  Stops when the client goes away."""
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        if name == "huge":
            self.send_header("Content-Length", str(10 * 10**9))
        self.send_header("Connection", "close")
        self.end_headers()
        chunk = b"\0" * (2 if name == "trickle" else 65536)
        try:
            while True:
                self.wfile.write(chunk)
                self.wfile.flush()
                if name == "trickle":
                    time.sleep(1)
        except OSError:
            pass
        self.close_connection = True

    def reset(self):
        """Close the connection with a TCP RST."""
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                   struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def proxy(self, name, rest, body):
        if name == "proxy-nomanifest" and rest.endswith("manifest.js.gz"):
            return self.send(404, b"Not Found")
        up = urllib.parse.urlsplit(args.upstream)
        conn = http.client.HTTPConnection(up.hostname, up.port, timeout=60)
        headers = {k: v for k, v in self.headers.items()
                   if k.lower() not in ("host", "transfer-encoding",
                                        "content-length", "connection")}
        conn.request(self.command, rest, body=body, headers=headers)
        r = conn.getresponse()
        data = r.read()
        conn.close()
        self.send_response(r.status)
        for k, v in r.getheaders():
            if k.lower() not in ("transfer-encoding", "content-length",
                                 "connection"):
                self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if name == "stallpack" and rest.endswith("/git-upload-pack"):
            return self.stall(data)
        self.wfile.write(data)

    def stall(self, data):
        self.wfile.write(data[:len(data) // 2])
        self.wfile.flush()
        with open(os.path.join(args.state, "stalled"), "w") as f:
            f.write("stalled\n")
        time.sleep(60)
        self.reset()

    def git_backend(self, name, rest, body):
        path, _, query = rest.partition("?")
        if not re.search(r"\.git(/|$)", path):
            # The inbox page itself, or manifest.js.gz (absent).
            if path.rstrip("/").count("/") <= 1:
                return self.send(200, HTML, "text/html; charset=UTF-8")
            return self.send(404, b"Not Found")
        # /INBOX/git/N.git/... -> GIT_PROJECT_ROOT/N.git/...
        m = re.match(r"^/[^/]+/git(/.*)$", path)
        if not m:
            return self.send(404, b"Not Found")
        env = dict(os.environ, GIT_PROJECT_ROOT=args.git_root,
                   GIT_HTTP_EXPORT_ALL="1", PATH_INFO=m.group(1),
                   REQUEST_METHOD=self.command, QUERY_STRING=query,
                   CONTENT_TYPE=self.headers.get("Content-Type", ""),
                   CONTENT_LENGTH=str(len(body or b"")),
                   REMOTE_ADDR="127.0.0.1")
        if self.headers.get("Git-Protocol"):
            env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
        p = subprocess.run(["git", "http-backend"], input=body or b"",
                           capture_output=True, env=env)
        head, _, data = p.stdout.partition(b"\r\n\r\n")
        status, headers = 200, []
        for line in head.split(b"\r\n"):
            k, _, v = line.decode().partition(":")
            if k.lower() == "status":
                status = int(v.split()[0])
            elif k:
                headers.append((k, v.strip()))
        self.send_response(status)
        for k, v in headers:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if name == "gitstall" and path.endswith("/git-upload-pack"):
            return self.stall(data)
        self.wfile.write(data)


def start(*extra):
    """Start a fault server (for the tests); returns (process, base URL)."""
    p = subprocess.Popen([sys.executable, os.path.abspath(__file__), *extra],
                         stdout=subprocess.PIPE)
    port = int(p.stdout.readline())
    return p, f"http://127.0.0.1:{port}"


def stop(p):
    p.kill()
    p.wait()
    p.stdout.close()


def main():
    global args
    ap = argparse.ArgumentParser()
    ap.add_argument("--upstream", default="http://127.0.0.1:9")
    ap.add_argument("--git-root", default=".")
    ap.add_argument("--state", default=".")
    ap.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"),
                    help="speak HTTPS with this certificate")
    args = ap.parse_args()
    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    if args.tls:
        import ssl
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(*args.tls)
        srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    bomb()      # made before the first request, not during it
    print(srv.server_address[1], flush=True)
    srv.serve_forever()


if __name__ == "__main__":
    main()
