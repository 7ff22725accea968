#!/usr/bin/env python3
"""Prints REPL inputs longer than the REPL parses after every line (1 KiB), for long_input.test:
past that size `star repl` reads on until the input may be complete, tracking comments, strings,
parentheses, blocks and `if`s line by line instead of parsing the whole input again."""

PAD = 120  # statements or lines in each long input: well over 1 KiB

print("var x, i, total: integer; s: string;")

# 1. A block whose comments and strings hold `begin`, `end`, `repeat` and `{`, with a nested
#    repeat loop, a comment over lines and an expression whose parentheses span lines.
print("begin")
print("  x := 0; s := 'it''s the end'; { begin")
print("  still a comment: end repeat }")
for k in range(PAD):
    print(f"  x := x + 1; // begin {k}")
print("  (* end")
print("     end *) i := 0;")
print("  repeat /* until")
print("  */ i := i + 1")
print("  until i = 3;")
print("  total := (x +")
print("    (i *")
print("     2));")
print("  writeln('end { ', total)")
print("end")

# 2. A procedure whose heading and locals span many lines before its `begin`.
print("procedure addAll(a: integer;")
print("                 b: integer);")
for k in range(PAD):
    print(f"var v{k}: integer;")
print("begin")
print("  total := a + b")
print("end;")
print("addAll(40, 2);")
print("total")

# 3. An if / else-if chain over many lines, without a ';': one input, complete at its last `else`.
print("if x = 0 then")
print("  writeln('zero')")
for k in range(1, PAD):
    print(f"else if x = {k} then")
    print(f"  writeln('not {k}')")
print("else")
print("  writeln('x is ', x)")

# 4. An `if` over many lines without `else` yet: its `else` comes on the next line.
print("if x < 0 then")
print("begin")
for k in range(PAD):
    print("  x := x - 1;")
print("end")
print("else")
print("  writeln('not negative');")

# 5. An expression continued by its operators.
print("x +")
for k in range(PAD):
    print("  1 +")
print("  0")

# 6. A syntax error in a long block: reported once the block ends; the session goes on unchanged.
print("begin")
for k in range(PAD):
    print("  x := x + 1;")
print("  x := := 1;")
print("  x := x + 1")
print("end")
print("x")
