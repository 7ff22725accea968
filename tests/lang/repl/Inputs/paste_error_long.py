#!/usr/bin/env python3
"""Prints REPL inputs for paste_error.test: a block longer than 1 KiB (read on without being
parsed after every line) with a bad character in its middle, on line 62; then a correct input."""

print("var x, y: integer;")
print("begin")
for k in range(60):
    print(f"  x := x + 1; // line {k + 2} of a long block, well over 1 KiB in all")
print('  writeln("half way");')
for k in range(60):
    print(f"  y := y + 1; writeln('ran {k}');")
print("end")
print("x + y")
print("begin x := 40; y := 2 end")
print("x + y")
