#!/usr/bin/env python3
"""The first Ctrl-C stops a `star run` wherever it is: in a loop that writes output (the device
engine comes back to the host at every write), in an open or a read that waits (a FIFO with no
writer or no reader), inside a long primitive (listing a huge table, CLOSURE of a large table).
Each run must end within a few seconds of the SIGINT with status 2 and "runtime error:
interrupted" located at the statement.

usage: interrupt_test.py STAR BACKEND ENGINE [FLAGS...]   exit status 0 pass, 1 fail
(FLAGS: more options for every run, such as --devices=3)
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback

STAR, BACKEND, ENGINE = sys.argv[1], sys.argv[2], sys.argv[3]
FLAGS = sys.argv[4:]
GRACE = 30.0  # seconds a run may take to stop after the SIGINT (the sanitizers slow the long primitives)
# Seconds before the SIGINT for a run that prints nothing first: with compiled code the program is
# compiled before it starts (a second or more on a cold cache), and a Ctrl-C during that is
# reported at the statement the run is at, not at the blocking one under test.
START = 8.0 if ENGINE == "compiled" else 1.0


def program(directory, name, text):
    path = os.path.join(directory, name + ".star")
    with open(path, "w") as f:
        f.write(text)
    return path


def interrupt(name, source, expected_loc, args=(), started=None, delay=START):
    """One case, as run_case; an exception in the test's own code is that case's failure (with its
    traceback), not the end of the other cases."""
    try:
        return run_case(name, source, expected_loc, args, started, delay)
    except Exception:
        return "%s: the test raised %s" % (name, traceback.format_exc())


def run_case(name, source, expected_loc, args, started, delay):
    """Runs the program, sends one SIGINT once `started` (a function of the process) says it is
    running (or after `delay` seconds), and checks how it ended."""
    with tempfile.TemporaryDirectory() as d:
        path = program(d, name, source)
        err = open(os.path.join(d, "stderr"), "w+", errors="replace")
        p = subprocess.Popen([STAR, "run", "--backend=" + BACKEND, "--engine=" + ENGINE, *FLAGS, path] + list(args),
                             stdout=subprocess.PIPE if started else subprocess.DEVNULL, stderr=err)
        try:
            if started:
                started(p)
            else:
                time.sleep(delay)
            if p.poll() is not None:
                return "%s: ended before the interrupt (status %s)" % (name, p.returncode)
            sent = time.time()
            p.send_signal(signal.SIGINT)
            try:
                if p.stdout:  # keep draining, as a terminal would
                    while p.stdout.read(65536):
                        if time.time() - sent > GRACE:
                            raise subprocess.TimeoutExpired(p.args, GRACE)
                p.wait(timeout=max(0.1, GRACE - (time.time() - sent)))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
                return "%s: still running %.0f s after the first Ctrl-C" % (name, GRACE)
            took = time.time() - sent
            err.seek(0)
            text = err.read()
            want = r"%s\.star:%s: runtime error: interrupted" % (name, expected_loc)
            if p.returncode != 2 or not re.search(want, text):
                return "%s: status %s, stderr %r (wanted status 2 and %r)" % (name, p.returncode, text[:300], want)
            print("ok %s: stopped %.2f s after the first Ctrl-C" % (name, took))
            return None
        finally:
            if p.poll() is None:  # never left running, whatever happened here
                p.kill()
                p.wait()


def first_output(p):
    p.stdout.read(1)  # the output buffer's first flush


def main():
    failures = []
    # A loop that writes: on the device engine each write is a hand-over to the host.
    failures.append(interrupt("writing_loop",
                              "program P;\nvar i: integer;\nbegin\n  i := 0;\n  while true do\n"
                              "  begin\n    i := i + 1;\n    writeln(i)\n  end\nend.\n",
                              r"[5-8]:\d+", started=first_output))
    # A loop that only computes: the device engine and compiled code see the Ctrl-C at a poll of
    # a backward jump (every 4,096), with no hand-over to the host.
    failures.append(interrupt("compute_loop",
                              "program P;\nvar i: integer; s: slice(64);\nbegin\n  i := 0;\n  while true do\n"
                              "  begin\n    i := (i + 1) mod 1000;\n    s(i mod 64 + 1) := 1\n  end\nend.\n",
                              r"[5-8]:\d+"))
    # An owned loop (a `for` loop: its test at the top): compiled code runs it on words kept in
    # registers, and its poll stops it too.
    failures.append(interrupt("owned_loop",
                              "program P;\nvar i: integer; s, t: slice(64);\nbegin\n  SET(t);\n"
                              "  for i := 1 to 2000000000 do\n    s := s xor t;\n  writeln(NUMB(s))\nend.\n",
                              r"[5-6]:\d+"))
    with tempfile.TemporaryDirectory() as d:
        fifo = os.path.join(d, "fifo")
        os.mkfifo(fifo)
        # LOAD of a FIFO that no one writes: blocked in open.
        failures.append(interrupt("load_fifo", "program P;\nvar T: table;\nbegin\n  LOAD(T, ParamStr(1));\n"
                                  "  writeln(T)\nend.\n", "4:3", args=[fifo]))
        # SAVE to a FIFO that no one reads: blocked in open.
        failures.append(interrupt("save_fifo", "program P;\nvar T: table(2, 2);\nbegin\n"
                                  "  SAVE(T, ParamStr(1))\nend.\n", "4:3", args=[fifo]))
        # A FIFO whose writer never writes: blocked in read.
        writer = os.open(fifo, os.O_RDWR)  # holds the FIFO open for writing, never writes
        try:
            failures.append(interrupt("read_fifo", "program P;\nvar T: table;\nbegin\n  LOAD(T, ParamStr(1));\n"
                                      "  writeln(T)\nend.\n", "4:3", args=[fifo]))
        finally:
            os.close(writer)
        # A FIFO whose reader never reads: SAVE blocked in write (the pipe full), and SAVEPNG
        # blocked in open (no reader).
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # holds the FIFO open, never reads
        try:
            failures.append(interrupt("save_fifo_full", "program P;\nvar T: table(3000, 3000);\nbegin\n"
                                      "  SAVE(T, ParamStr(1))\nend.\n", "4:3", args=[fifo]))
        finally:
            os.close(reader)
        failures.append(interrupt("savepng_fifo", "program P;\nvar T: table(20, 20);\nbegin\n"
                                  "  SAVEPNG(T, ParamStr(1))\nend.\n", "4:3", args=[fifo]))
    # A long primitive that is the program's last statement: no back-edge or call comes after it,
    # and the interrupt must not be lost (status 0). 10 KB of output first, as below.
    failures.append(interrupt("last_statement", "program P;\nuses sort;\nvar T: table(%d, 32); X: slice(T);\n"
                              "begin\n  X := not X;\n  write('%s');\n  SORT(T, X, 1, 32, 0, false)\nend.\n"
                              % (8000000 if BACKEND == "cpu" else 400000000, "." * 10000),
                              r"\d+:\d+", started=first_output))
    # One primitive that runs long: the listing of a table of 2^30 rows.
    failures.append(interrupt("long_listing", "program P;\nvar T: table(1073741824, 1);\nbegin\n"
                              "  writeln(T)\nend.\n", r"4:\d+", started=first_output))
    # CLOSURE of a large table: n^3/64 word operations, minutes on one core, and long enough on a
    # GPU (its launches stop). 10 KB of output first: the first flush comes just before CLOSURE.
    n = 40000 if BACKEND == "cpu" else 200000
    failures.append(interrupt("long_closure", "program P;\nuses graphs;\nvar T: table(%d, %d);\n"
                              "  X: slice(T); j: integer;\nbegin\n  X := not X;\n"
                              "  for j := 1 to %d do COL(j, T) := X;\n"
                              "  write('%s');\n"
                              "  CLOSURE(T);\n  writeln(NUMB(COL(1, T)))\nend.\n" % (n, n, n, "." * 10000),
                              "9:3", started=first_output))
    failures = [f for f in failures if f]
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
