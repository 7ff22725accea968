#!/usr/bin/env python3
"""A client of `star run-server` that works as test drivers do: it sends one request line, waits
for its answer, and only then sends the next. A server that reads its own standard input for a
program takes the requests that follow and never answers: this client then fails after a
timeout instead of hanging. Prints each answer, then `exit N`; with --max-rss-mb, fails when the
server's peak resident memory (VmHWM) went above that.

  run_server_client.py [--max-rss-mb=N] [--timeout=SECONDS] REQUESTS STAR [ARGS...]
"""
import os
import select
import subprocess
import sys


def peak_rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return 0


def read_answer(proc, timeout):
    """One line from the server, or None when none comes within `timeout` seconds."""
    line = b""
    fd = proc.stdout.fileno()
    while not line.endswith(b"\n"):
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return None
        chunk = os.read(fd, 1)
        if not chunk:
            return line or None
        line += chunk
    return line


def main():
    args = sys.argv[1:]
    max_rss, timeout = None, 60.0
    while args and args[0].startswith("--"):
        name, _, value = args.pop(0).partition("=")
        if name == "--max-rss-mb":
            max_rss = int(value)
        elif name == "--timeout":
            timeout = float(value)
    requests, command = args[0], args[1:]
    with open(requests, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    for number, line in enumerate(lines, 1):
        proc.stdin.write(line + b"\n")
        proc.stdin.flush()
        answer = read_answer(proc, timeout)
        if answer is None:
            proc.kill()
            sys.exit("no answer to request %d within %g s" % (number, timeout))
        sys.stdout.write(answer.decode("utf-8", "replace"))
        sys.stdout.flush()
    peak = peak_rss_mb(proc.pid)
    proc.stdin.close()
    status = proc.wait()
    print("exit %d" % status)
    if max_rss is not None and peak > max_rss:
        sys.exit("the server's peak memory was %d MB, above %d MB" % (peak, max_rss))


if __name__ == "__main__":
    main()
