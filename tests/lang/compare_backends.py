#!/usr/bin/env python3
"""Runs every golden test's `%run` command on two backends and requires identical behaviour:
the same stdout, the same stderr and the same exit status (the CPU backend is the reference).

usage: compare_backends.py STAR TESTS_DIR [--backends cpu,cuda]
Prints one line per differing test and a closing 'N passed, N failed' line."""
import os
import re
import subprocess
import sys
import tempfile


def run_lines(path):
    lines, pending = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            m = re.search(r"RUN:\s?(.*)$", raw)
            if not m:
                continue
            text = m.group(1).rstrip()
            if text.endswith("\\"):
                pending += text[:-1] + " "
                continue
            lines.append(pending + text)
            pending = ""
    return lines


def command_for(line, star, backend, path, tmp, any_command=False):
    first = line.split("|")[0].strip() if not any_command else line.strip()
    if not any_command and ("%run" not in first or "--stats" in first):
        return None
    if first.startswith("not "):
        first = first[4:]
    tests_dir = os.path.dirname(os.path.abspath(path))
    root = os.path.abspath(sys.argv[2])
    subs = [("%run", f"{star} run --backend={backend}"), ("%star", star),
            ("%inputs", os.path.join(root, "Inputs")), ("%S", tests_dir),
            ("%s", os.path.abspath(path)), ("%t", os.path.join(tmp, "t"))]
    for k, v in subs:
        first = first.replace(k, v)
    return first


def main():
    star = os.path.abspath(sys.argv[1])
    root = sys.argv[2]
    backends = ["cpu", "cuda"]
    if "--backends" in sys.argv:
        backends = sys.argv[sys.argv.index("--backends") + 1].split(",")
    passed = failed = 0
    for dirpath, _, files in sorted(os.walk(root)):
        if "Inputs" in dirpath.split(os.sep):
            continue
        for name in sorted(files):
            if not (name.endswith(".star") or name.endswith(".test")):
                continue
            path = os.path.join(dirpath, name)
            lines = run_lines(path)
            # Every RUN line runs in order per backend (earlier lines make files later ones use);
            # the `%run` commands' behaviour is what must agree.
            per_backend = []
            for b in backends:
                results = []
                with tempfile.TemporaryDirectory() as tmp:
                    for line in lines:
                        cmd = command_for(line, star, b, path, tmp)
                        if cmd is None:
                            setup = line.split("|")[0].strip()
                            if "%run" not in setup and "FileCheck" not in setup:
                                subprocess.run(command_for(line.replace("%star", "%star"), star, b, path, tmp, any_command=True),
                                               shell=True, capture_output=True, timeout=600)
                            continue
                        p = subprocess.run(cmd, shell=True, capture_output=True, timeout=600)
                        results.append((line, p.returncode, p.stdout.replace(tmp.encode(), b"TMP"),
                                        p.stderr.replace(tmp.encode(), b"TMP")))
                per_backend.append(results)
            for i in range(len(per_backend[0])):
                got = [r[i][1:] for r in per_backend]
                if all(g == got[0] for g in got[1:]):
                    passed += 1
                else:
                    failed += 1
                    print(f"DIFFERS: {path}: {per_backend[0][i][0]}")
                    for b, r in zip(backends, got):
                        print(f"  [{b}] exit {r[0]}\n    stdout: {r[1][:400]!r}\n    stderr: {r[2][:400]!r}")
    print(f"compare-backends: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
