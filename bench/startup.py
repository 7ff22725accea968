#!/usr/bin/env python3
"""Start-up of `star run`, as a user sees it: the wall time of whole processes.

Programs: a scalar program (no slice: it should start as fast with a GPU as without) and a
program that touches a slice (it must start the backend). Each configuration runs --runs times;
the table gives the median and the fastest. One run per configuration with --time-report splits
the time inside star into phases; 'outside star' is the rest (loading the executable and its
libraries, and the process's exit, where the CUDA driver tears down its context).

    bench/startup.py --star build/bin/star [--before OLD_STAR] [--runs 20]

Output: markdown on stdout. --before adds the same rows for another star (an older build), for
figures before and after a change in the same run.

    bench/startup.py --probe build/bin/cuda_startup_bench [--runs 10]

times a bare CUDA program (no star) ending each way it can (--exit=return|quick|detach): the part
of a process's wall time that the driver's teardown takes, and whether a helper process that
shares the driver's files and mappings takes it off the caller's clock. The runs follow each other
at once unless --gap gives a pause before each: without one, a process may start while the one
before is still being released, which changes its own start (on the GPUs measured, both ways).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

SCALAR = "program hello;\nvar i: integer;\nbegin\n  i := 6;\n  writeln(i * 7)\nend.\n"
SLICE = "program touch;\nvar s: slice(1000);\nbegin\n  SET(s);\n  writeln(SOME(s))\nend.\n"


GAP = 0.0


def timed(cmd):
    time.sleep(GAP)
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()}")
    return elapsed * 1000


def probe_exits(probe, runs):
    """Each ending's wall time, and the part of it after main (the wall time less the probe's own
    'total in main'): loading before main is a few milliseconds, so that is the ending's cost."""
    print("| ending | median ms | fastest ms | after main, median ms |")
    print("|---|---|---|---|")
    for mode in ("return", "quick", "detach"):
        walls, after = [], []
        for run in range(runs + 1):
            time.sleep(GAP)
            start = time.perf_counter()
            done = subprocess.run([probe, "--exit=" + mode], capture_output=True, text=True)
            wall = (time.perf_counter() - start) * 1000
            if done.returncode != 0:
                raise SystemExit(f"{probe} --exit={mode} failed ({done.returncode}): {done.stderr.strip()}")
            inside = re.search(r"^\| total in main [^|]*\| ([0-9.]+) \|", done.stdout, re.M)
            if run == 0 or not inside:  # the first warms the file cache
                continue
            walls.append(wall)
            after.append(wall - float(inside.group(1)))
        print(f"| {mode} | {statistics.median(walls):.1f} | {min(walls):.1f} | {statistics.median(after):.1f} |")
    sys.stdout.flush()


def phases(cmd):
    done = subprocess.run(cmd + [], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    rows = re.findall(r"^\s+([0-9.]+)\s+(.*)$", done.stderr, re.M)
    return [(name, float(ms)) for ms, name in rows]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--star")
    ap.add_argument("--probe", help="cuda_startup_bench: time its endings instead of star")
    ap.add_argument("--before", help="another star to measure in the same run")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--backends", default="cpu,auto", help="comma-separated --backend values")
    ap.add_argument("--gap", type=float, default=0.0,
                    help="seconds to wait before each run, so that no run meets the end of the one before")
    args = ap.parse_args()
    global GAP
    GAP = args.gap
    if args.probe:
        return probe_exits(args.probe, args.runs)
    if not args.star:
        ap.error("--star or --probe is required")
    tmp = tempfile.mkdtemp(prefix="star-startup-")
    progs = {}
    for name, text in (("scalar", SCALAR), ("slice", SLICE)):
        progs[name] = os.path.join(tmp, name + ".star")
        with open(progs[name], "w") as f:
            f.write(text)
    stars = [("after", args.star)] + ([("before", args.before)] if args.before else [])
    print("| star | program | --backend | median ms | fastest ms | inside star (--time-report) |")
    print("|---|---|---|---|---|---|")
    for label, star in stars:
        for prog in ("scalar", "slice"):
            for backend in args.backends.split(","):
                cmd = [star, "run", "--backend=" + backend, progs[prog]]
                timed(cmd)  # warm the file cache
                ms = [timed(cmd) for _ in range(args.runs)]
                inside = ""
                if label == "after":
                    parts = phases([star, "run", "--time-report", "--backend=" + backend, progs[prog]])
                    inside = "; ".join(f"{n.split(' (')[0]} {v:.1f}" for n, v in parts
                                       if not n.startswith("total")
                                       and (v >= 0.5 or n.startswith("backend")))
                    inside += "".join(f" ({n[len('backend start ('):-1]})" for n, _ in parts
                                      if n.startswith("backend start"))
                print(f"| {label} | {prog} | {backend} | {statistics.median(ms):.1f} | {min(ms):.1f} | {inside} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
