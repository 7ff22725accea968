#!/usr/bin/env python3
"""Drives `star repl` on a pseudo-terminal: Ctrl-R's incremental history search (its prompt,
Ctrl-R again for an older match, Enter, Ctrl-G and Esc, editing keys, Backspace, Ctrl-C), and a
block with a lexer error in its middle, pasted or typed line by line: one error for the whole
block, none of its lines run, the session goes on.

usage: pty_search_paste_test.py STAR [BACKEND]   exit status 0 pass, 1 fail, 77 skipped (no pexpect)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pty_test import (  # noqa: E402
    CONTINUATION, PROMPT, expect_exit, run_tests, spawn, value, wait_for_terminal)

CTRL_A, CTRL_G, CTRL_R, ESC, BACKSPACE, LEFT = "\x01", "\x07", "\x12", "\x1b", "\x7f", "\x1b[D"


class Recorder:
    """The REPL's output as it comes (echoed to stdout for the log)."""

    def __init__(self):
        self.text = ""

    def write(self, s):
        self.text += s
        sys.stdout.write(s)

    def flush(self):
        sys.stdout.flush()


def search_prompt(pattern, line, failed=False):
    return "(%sreverse-i-search)'%s': %s" % ("failed " if failed else "", pattern, line)


def search(c, keys, pattern, line, failed=False):
    """Sends `keys`; expects the search prompt for `pattern` with the line found (or, failed,
    the line kept)."""
    c.send(keys)
    c.expect_exact(search_prompt(pattern, line, failed))


def leave_search(c, key, line, typed, result):
    """Leaves the search with the editing `key`, the line found in the prompt; sends `typed`
    there (with its line end): `result`."""
    c.send(key)
    c.expect_exact(PROMPT + line)
    c.send(typed)
    value(c, result)


def reverse_search(star, backend, home):
    c = spawn(star, backend, home, os.path.join(home, "search_history"))
    c.expect_exact(PROMPT)
    c.sendline("var apples: integer;")
    c.expect_exact(PROMPT)
    c.sendline("apples := apples + 10;")
    c.expect_exact(PROMPT)
    c.sendline("apples * 2")
    value(c, "20")
    c.sendline("6 * 7")
    value(c, "42")

    # Ctrl-R: a search prompt (not libedit's `bck:`); the newest input holding the text typed,
    # Ctrl-R again for an older one; Enter runs the line found.
    search(c, CTRL_R, "", "")
    search(c, "app", "app", "apples * 2")
    search(c, CTRL_R, "app", "apples := apples + 10;")
    c.send("\r")
    c.expect_exact(PROMPT + "apples := apples + 10;")
    c.expect_exact(PROMPT)
    c.sendline("apples")
    value(c, "20")

    # No match: "failed", and the line being edited stays; Ctrl-G gives it back as it was.
    c.send("1 +")
    c.expect_exact("1 +")
    search(c, CTRL_R + "zzz", "zzz", "1 +", failed=True)
    leave_search(c, CTRL_G, "1 +", " 1\n", "2")  # as sendline(" 1") sends it

    # Esc cancels too: the line found is not kept.
    search(c, CTRL_R + "6 *", "6 *", "6 * 7")
    c.send(ESC)
    c.expect_exact(PROMPT)
    c.sendline("3")
    value(c, "3")

    # An editing key leaves the search with the line found and does its work there: Ctrl-A goes
    # to its start, Left one character back from its end.
    search(c, CTRL_R + "* 7", "* 7", "6 * 7")
    leave_search(c, CTRL_A, "6 * 7", "1\r", "112")
    search(c, CTRL_R + "16", "16", "16 * 7")
    leave_search(c, LEFT, "16 * 7", "1\r", "272")

    # Backspace takes back a character of the text; Ctrl-R with no text repeats the last search.
    search(c, CTRL_R + "apz", "apz", "apples", failed=True)
    search(c, BACKSPACE, "ap", "apples")
    c.send(CTRL_G)
    c.expect_exact(PROMPT)
    search(c, CTRL_R + CTRL_R, "ap", "apples")
    c.send("\r")
    value(c, "20")

    # Ctrl-C in a search discards the line, as at the prompt.
    search(c, CTRL_R + "6", "6", "16 * 17")
    c.sendintr()
    c.expect_exact(PROMPT)
    c.sendline("1 + 1")
    value(c, "2")
    c.sendline(":quit")
    expect_exit(c, ":quit")


def block_with_lexer_error(star, backend, home, pasted):
    c = spawn(star, backend, home, os.path.join(home, "paste_history"))
    c.expect_exact(PROMPT)
    c.sendline("var x, y: integer;")
    c.expect_exact(PROMPT)
    wait_for_terminal(c, cooked=False)  # libedit waits for a key
    recorder = Recorder()
    c.logfile_read = recorder
    lines = ["begin", "  x := 1;", '  writeln("x is ", x);', "  y := 2;", "  writeln(6 * 111)", "end"]
    if pasted:
        c.send("\r".join(lines) + "\r")  # all at once, as a terminal sends a paste
    else:
        for line in lines[:-1]:  # typed: each line after the continuation prompt
            c.sendline(line)
            c.expect_exact(CONTINUATION)
        c.sendline(lines[-1])
    c.expect("error: invalid character '\"'")
    c.expect_exact(PROMPT)
    c.sendline("x + y")
    value(c, "0")  # nothing of the block ran
    if recorder.text.count("error:") != 1:
        raise AssertionError("%d errors for one block" % recorder.text.count("error:"))
    if "666" in recorder.text:
        raise AssertionError("a line after the error ran")
    c.sendline("x := 20; y := 22;")
    c.expect_exact(PROMPT)
    c.sendline("x + y")
    value(c, "42")
    c.sendline(":quit")
    expect_exit(c, ":quit")


if __name__ == "__main__":
    run_tests(__doc__, [
        ("reverse_search", reverse_search),
        ("pasted_block_with_lexer_error",
         lambda star, backend, home: block_with_lexer_error(star, backend, home, pasted=True)),
        ("typed_block_with_lexer_error",
         lambda star, backend, home: block_with_lexer_error(star, backend, home, pasted=False)),
    ])
