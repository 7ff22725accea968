#!/usr/bin/env python3
"""Sends a signal (INT or TERM) to `star test` alone while the program it tests runs, for
star_test.test. Prints what `star test` printed, its exit status and whether the program was
left running (it is killed here then).

usage: interrupt_star_test.py STAR DIRECTORY INT|TERM
"""
import os
import signal
import subprocess
import sys
import time

star, directory, name = sys.argv[1], sys.argv[2], sys.argv[3]
sig = getattr(signal, "SIG" + name)


def children(pid):
    """The processes whose parent is `pid`, from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(entry))
    return found


def running(pid):
    """Whether `pid` exists and is not a zombie."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


# The signals at their defaults in `star test`, whatever this script inherited.
p = subprocess.Popen([star, "test", "--backend=cpu", "--timeout=60", directory],
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                     preexec_fn=lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL),
                                         signal.signal(signal.SIGTERM, signal.SIG_DFL)))
deadline = time.monotonic() + 20
program = []
while not program and time.monotonic() < deadline:
    program = children(p.pid)
    time.sleep(0.01)
time.sleep(0.3)  # the program is running now
os.kill(p.pid, sig)
try:
    out, _ = p.communicate(timeout=20)
except subprocess.TimeoutExpired:
    p.kill()
    out, _ = p.communicate()
    print("star test did not stop")
print(out, end="")
print("status", p.returncode)
time.sleep(0.2)
left = [pid for pid in program if running(pid)]
for pid in left:
    os.kill(pid, signal.SIGKILL)
print("program left running" if left else "program stopped" if program else "no program seen")
