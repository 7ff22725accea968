#!/usr/bin/env python3
"""Regenerates the seed corpora of the module and data fuzzers from the repository's programs and
data files (run it after the module format or the readers change; the outputs are checked in).

  make_seeds.py STAR
"""
import glob
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
star = sys.argv[1]
mod_dir = os.path.join(root, "tests/fuzz/corpus-module")
data_dir = os.path.join(root, "tests/fuzz/corpus-data")
os.makedirs(mod_dir, exist_ok=True)
os.makedirs(data_dir, exist_ok=True)

programs = sorted(glob.glob(os.path.join(root, "tests/lang/*/*.star")))
programs = [p for p in programs if "errors" not in p and "syntax" not in p][:40]
programs += [os.path.join(root, "examples/warshall.star"), os.path.join(root, "examples/dijkstra.star")]
made = 0
with tempfile.TemporaryDirectory() as d:
    for p in programs:
        out = os.path.join(d, "m.starc")
        r = subprocess.run([star, "compile", p, "-o", out, "--stdlib-path=" + os.path.join(root, "stdlib")],
                           capture_output=True)
        if r.returncode != 0:
            continue
        data = open(out, "rb").read()
        payload = data[20:-8]
        name = os.path.splitext(os.path.basename(p))[0]
        open(os.path.join(mod_dir, name + ".sealed"), "wb").write(b"\x00" + payload)
        if made < 5:
            open(os.path.join(mod_dir, name + ".file"), "wb").write(b"\x01" + data)
        made += 1

seeds = {
    0: glob.glob(os.path.join(root, "examples/graphs/*.txt")) + glob.glob(os.path.join(root, "tests/lang/Inputs/*.txt")),
    1: glob.glob(os.path.join(root, "examples/sort/*.txt")),
    2: glob.glob(os.path.join(root, "examples/graphs/*.gr")),
    3: glob.glob(os.path.join(root, "examples/graphs/*.mtx")),
}
count = 0
for selector, files in seeds.items():
    for f in sorted(files)[:12]:
        text = open(f, "rb").read()[:4096]
        name = "%d-%s" % (selector, os.path.basename(f))
        open(os.path.join(data_dir, name), "wb").write(bytes([selector]) + text)
        count += 1
print(f"make_seeds: {made} module seeds, {count} data seeds")
