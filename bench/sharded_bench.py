#!/usr/bin/env python3
"""--devices=N against one GPU and the CPU backend, in one run (issue #28's loop targets).

Runs bench/sharded_loop.star (a loop of row-local primitives, and a loop with a reduction every
iteration) on slices of ROWS rows, each configuration twice (with ITERS iterations and with none)
so that the difference is the loop's own time; `star run --time-report`'s "run" phase is the
measure. Prints one Markdown table.

usage: sharded_bench.py STAR [--rows=100000000] [--iters=200] [--devices=1,2] [--cpu]
                        [--backend=cuda|cpu]"""
import re
import subprocess
import sys
from pathlib import Path

LOOP = Path(__file__).with_name("sharded_loop.star")


def run_ms(star, flags, kind, rows, iters):
    out = subprocess.run([star, "run", "--time-report", *flags, str(LOOP), kind, str(rows), str(iters)],
                         capture_output=True, text=True, check=True)
    m = re.search(r"^\s*([0-9.]+)\s+run$", out.stderr, re.M)
    return float(m.group(1)), out.stdout.strip()


def main():
    star = sys.argv[1]
    opts = dict(a[2:].split("=", 1) for a in sys.argv[2:] if a.startswith("--") and "=" in a)
    rows = int(opts.get("rows", 100_000_000))
    iters = int(opts.get("iters", 200))
    devices = [int(d) for d in opts.get("devices", "1,2").split(",")]
    backend = opts.get("backend", "cuda")
    configs = [(f"{backend}, --devices={d}, host engine", [f"--backend={backend}", f"--devices={d}", "--engine=host"])
               for d in devices]
    if backend == "cuda":
        configs.insert(1, ("cuda, 1 GPU, device engine", ["--backend=cuda", "--engine=device"]))
    if "--cpu" in sys.argv:
        configs.append(("cpu backend", ["--backend=cpu", "--engine=host"]))
    print(f"rows {rows}, {iters} iterations; microseconds per iteration (run phase, minus an empty run)")
    print("| configuration | row-local loop (4 primitives) | reduction loop (xor + SOME) | checksums |")
    print("|---|---|---|---|")
    for name, flags in configs:
        cells, sums = [], []
        for kind in ("local", "reduce"):
            base, _ = run_ms(star, flags, kind, rows, 0)
            runs = [run_ms(star, flags, kind, rows, iters) for _ in range(2)]
            cells.append(f"{(min(ms for ms, _ in runs) - base) * 1000 / iters:.1f}")
            sums.append(runs[0][1])
        print(f"| {name} | {cells[0]} | {cells[1]} | {' / '.join(sums)} |")


if __name__ == "__main__":
    main()
