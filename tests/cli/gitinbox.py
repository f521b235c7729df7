"""gitinbox.py - build public-inbox v2 style epochs (bare repositories whose
commits each add one message as blob 'm') with plain git, for the fetcher's
tests."""
import os
import subprocess

ENV = dict(os.environ, GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@x",
           GIT_COMMITTER_NAME="c", GIT_COMMITTER_EMAIL="c@x",
           GIT_AUTHOR_DATE="1578301200 +0000",
           GIT_COMMITTER_DATE="1578301200 +0000")


def git(repo, *args, stdin=None):
    return subprocess.run(["git", "--git-dir", repo, *args], input=stdin,
                          capture_output=True, check=True,
                          env=ENV).stdout.decode().strip()


def message(msgid):
    return (f"From: Dev <dev@example.com>\nSubject: msg {msgid}\n"
            f"Message-ID: <{msgid}>\n\nbody of {msgid}\n").encode()


def add_messages(repo, msgids):
    """One commit per message, on refs/heads/master."""
    try:
        parent = git(repo, "rev-parse", "--verify", "-q", "refs/heads/master")
    except subprocess.CalledProcessError:
        parent = None
    for mid in msgids:
        blob = git(repo, "hash-object", "-w", "--stdin", stdin=message(mid))
        tree = git(repo, "mktree", stdin=f"100644 blob {blob}\tm\n".encode())
        args = ["commit-tree", tree, "-m", mid]
        if parent:
            args += ["-p", parent]
        parent = git(repo, *args)
    git(repo, "update-ref", "refs/heads/master", parent)


def make_epoch(root, n, msgids):
    repo = os.path.join(root, f"{n}.git")
    subprocess.run(["git", "init", "-q", "--bare", repo], check=True)
    git(repo, "symbolic-ref", "HEAD", "refs/heads/master")
    add_messages(repo, msgids)
    return repo


def tip(repo):
    return git(repo, "rev-parse", "refs/heads/master")
