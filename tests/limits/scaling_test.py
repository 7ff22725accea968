#!/usr/bin/env python3
"""The front end's limits and scaling (issue: hostile sources must not hang or exhaust memory).

Each case generates a program, runs `star` on it and checks the outcome, the wall time and the
peak memory (the child's maximum resident set, from getrusage):

  * 100,000 nested `if` statements are rejected with the nesting-depth error, quickly;
  * a flat block of 100,000 statements is checked quickly (parsing was cubic in the nesting of
    statements that end in a statement, and REPL-style ambiguity made SLL look to the end);
  * an expression of 400,000 terms compiles quickly (temporaries were searched linearly);
  * a program of 10^6 short statements (12 MB of source) compiles in under 600 MB;
  * a block of N lines pasted into `star repl` is read in time linear in N (the whole input was
    parsed again after every line to see whether it was complete: 2 s at N = 1,000, 100 s at
    8,000).

Usage: scaling_test.py STAR
"""
import os
import subprocess
import sys
import tempfile
import time

STAR = sys.argv[1]
failures = []


def run(args, source, name):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(source)
        out, err = os.path.join(d, "out"), os.path.join(d, "err")
        command = [STAR] + args + [path] + (["-o", path + "c"] if args == ["compile"] else [])
        start = time.monotonic()
        with open(out, "w") as o, open(err, "w") as e:
            child = subprocess.Popen(command, stdout=o, stderr=e)
            _, status, usage = os.wait4(child.pid, 0)  # this child's own peak memory
        seconds = time.monotonic() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        child.stdout, child.stderr = open(out).read(), open(err).read()
        return child, seconds, usage.ru_maxrss


def expect(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


# 1. Deep nesting is an error, found fast.
src = "program P; var x: integer; b: boolean; begin\n" + "if b then " * 100000 + "x := 1\nend.\n"
p, t, _ = run(["check"], src, "deep.star")
expect(p.returncode == 1 and "nested too deeply" in p.stderr,
       f"100,000 nested ifs: nesting error (status {p.returncode})")
expect(t < 2.0, f"100,000 nested ifs rejected in {t:.2f} s (< 2 s)")

# 2. A flat block of 100,000 if statements.
src = ("program P; var x: integer; b: boolean; begin\n" +
       ";\n".join(["if b then x := 1"] * 100000) + "\nend.\n")
p, t, _ = run(["check"], src, "flat.star")
expect(p.returncode == 0, f"flat 100,000 statements check (status {p.returncode})")
expect(t < 5.0, f"flat 100,000 statements checked in {t:.2f} s (< 5 s)")

# 3. An expression of 400,000 terms.
src = ("program P; var x: integer; begin x := 1;\nx := " + " + ".join(["x"] * 400000) +
       ";\nwriteln(x) end.\n")
p, t, _ = run(["run"], src, "long.star")
expect(p.returncode == 0 and p.stdout == "400000\n",
       f"400,000-term expression runs (status {p.returncode})")
expect(t < 15.0, f"400,000-term expression compiled and run in {t:.2f} s (< 15 s)")

# 4. 10^6 short statements, 12 MB of source.
src = ("program P; var x: integer; begin\n" + ";\n".join(["x := x + 1"] * 1000000) +
       ";\nwriteln(x) end.\n")
p, t, peak = run(["compile"], src, "million.star")
expect(p.returncode == 0, f"10^6 statements compile (status {p.returncode}) in {t:.1f} s")
expect(peak is not None and peak < 600 * 1024,
       f"10^6 statements compile in {(peak or 0) / 1024:.0f} MB (< 600 MB)")

# 5. A block of N statements pasted into the REPL (on a pipe: the same reading as on a terminal,
# without libedit), at N = 2,000 and 8,000: linear growth is 4 times, quadratic 16.
def repl_run(text, limit):
    """`star repl` on `text` (a pipe): the process (None after `limit` seconds) and its time."""
    start = time.monotonic()
    try:
        p = subprocess.run([STAR, "repl", "--backend=cpu"], input=text, capture_output=True,
                           text=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return None, limit
    return p, time.monotonic() - start


def repl_paste(n, limit):
    return repl_run("var x: integer;\nbegin\n" + "  x := x + 1;\n" * n + "end\nx\n", limit)


small, t_small = repl_paste(2000, 20)
large, t_large = repl_paste(8000, 20)
expect(small is not None and small.stdout == "2000\n" and large is not None and
       large.stdout == "8000\n", "REPL pastes of 2,000 and 8,000 lines print their counts")
expect(t_large < 5.0, f"REPL paste of 8,000 lines read in {t_large:.2f} s (< 5 s)")
expect(small is not None and large is not None and t_large < 8 * max(t_small, 0.05),
       f"REPL paste: 8,000 lines take {t_large / max(t_small, 0.05):.1f} times as long as 2,000 "
       f"({t_small:.2f} s, {t_large:.2f} s; linear: 4, < 8)")


# 6. Blocks whose lines end in `then`, `else` or `do` (N nested statements) pasted into the REPL:
# linear too (the REPL's grammar rule and its completeness check decide by one token).
def repl_nested(line, n, limit):
    return repl_run("var i: integer;\nbegin\n" + (line + "\n") * n + "i := i + 1; writeln(i) end;\n", limit)

for line, want in [("if i >= 0 then", "1\n"), ("if i < 0 then i := 0 else", "1\n"),
                   ("while i < 0 do", "0\n")]:
    small, t_small = repl_nested(line, 500, 30)
    large, t_large = repl_nested(line, 2000, 30)
    expect(small is not None and large is not None and small.stdout == want and
           large.stdout == want, f"REPL nested '{line}' x500/x2000 print {want!r}")
    expect(t_large < 3.0 and t_large < 8 * max(t_small, 0.05),
           f"REPL nested '{line}': 2,000 lines in {t_large:.2f} s, 500 in {t_small:.2f} s "
           f"(< 3 s, ratio {t_large / max(t_small, 0.05):.1f} < 8)")

print(f"scaling: {17 - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
