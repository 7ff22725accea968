#!/usr/bin/env python3
"""LOAD of a file that shrinks while it is read (it is rewritten, as `>` in a shell does, the moment
star has opened it): the run must give one version of the file (all its rows) or fail with
"changed while it was read", never a table that matches neither version.

usage: changing_file.py STAR DIR      prints one line per run; exit status 1 on a mixture
"""
import os
import subprocess
import sys
import time

STAR, DIR = sys.argv[1], sys.argv[2]
BIG, SMALL = 40_000_000, 1000  # 80 MB of text: its read takes far longer than the rewrite
path = os.path.join(DIR, "changing.txt")
program = os.path.join(DIR, "rows.star")
with open(program, "w") as f:
    f.write("program R;\nvar T: table;\nbegin\n  LOAD(T, ParamStr(1));\n  writeln(ROWS(T))\nend.\n")


def has_open(pid):
    try:
        return any(os.readlink("/proc/%d/fd/%s" % (pid, fd)) == path for fd in os.listdir("/proc/%d/fd" % pid))
    except OSError:
        return False


mixtures = 0
for run in range(3):
    with open(path, "wb") as f:
        f.write(b"1\n" * BIG)
    p = subprocess.Popen([STAR, "run", program, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not has_open(p.pid) and p.poll() is None and time.time() < deadline:
        time.sleep(0.0005)
    with open(path, "wb") as f:  # truncated, then written: the new version
        f.write(b"0\n" * SMALL)
    out, err = p.communicate(timeout=120)
    out = out.strip()
    # The versions: the old file, the new one, and the empty file between the truncation and the
    # write (a reader that opens it then reads a file of no rows, which did exist).
    if p.returncode == 0 and out in (str(BIG), str(SMALL), "0"):
        print("run %d: one version (%s rows)" % (run, out))
    elif p.returncode == 2 and "changed while it was read" in err:
        print("run %d: refused (changed while it was read)" % run)
    else:
        mixtures += 1
        print("run %d: MIXTURE: status %d, rows %r, stderr %r" % (run, p.returncode, out, err[:200]))
os.remove(path)
print("%d mixtures" % mixtures)
sys.exit(1 if mixtures else 0)
