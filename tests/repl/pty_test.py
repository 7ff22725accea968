#!/usr/bin/env python3
"""Drives `star repl` on a pseudo-terminal: banner, prompts, continuation prompts, tab
completion, :show at the terminal's width, Ctrl-C (at the prompt and in a running loop), history
recall (in a session and across sessions), Ctrl-D; `star` alone, and the answer to exit, quit
and help typed at its prompt.

usage: pty_test.py STAR [BACKEND [ENGINE]] exit status 0 pass, 1 fail, 77 skipped (no pexpect)
"""
import os
import sys
import tempfile
import termios
import time

try:
    import pexpect
except ImportError:
    print("SKIP: python3-pexpect is not installed")
    sys.exit(77)

PROMPT = "star> "
CONTINUATION = "  ... "
UP = "\x1b[A"


ENGINE = []  # ["--engine=device"] when the third argument names an engine


def spawn(star, backend, home, history=None, args=None):
    env = dict(os.environ)
    env.update({"HOME": home, "TERM": "xterm", "NO_COLOR": "1"})
    env.pop("STAR_HISTORY", None)
    if history:
        env["STAR_HISTORY"] = history
    if args is None:
        args = ["repl", "--backend=" + backend] + ENGINE
    child = pexpect.spawn(star, args, env=env, encoding="utf-8", timeout=20, dimensions=(24, 200))
    child.logfile_read = sys.stdout
    return child


def value(child, text):
    """Expects `text` alone on a line of output, then the prompt."""
    child.expect(r"\r\n" + text + r"\r\n")
    child.expect_exact(PROMPT)


def wait_for_terminal(child, cooked):
    """Waits (at most 20 s) until the REPL's terminal is in cooked mode (a command runs) or in
    libedit's raw mode (it waits for a key)."""
    deadline = time.time() + 20
    while bool(termios.tcgetattr(child.child_fd)[3] & termios.ICANON) != cooked and time.time() < deadline:
        time.sleep(0.001)


def interrupt_input(child, line, running):
    """Sends `line`, waits until `running()` returns, presses Ctrl-C: the input stops with
    "runtime error: interrupted" and the prompt comes back."""
    child.sendline(line)
    running()
    child.sendintr()
    child.expect("runtime error: interrupted")
    child.expect_exact(PROMPT)


def expect_exit(child, after):
    """Expects the REPL to end with status 0."""
    child.expect(pexpect.EOF)
    child.close()
    if child.exitstatus != 0:
        raise AssertionError("exit status %r after %s" % (child.exitstatus, after))


def session_one(star, backend, home, history):
    c = spawn(star, backend, home, history)
    # Banner naming the backend, then the prompt.
    c.expect(r"Star \S+ on the " + backend + r" backend \(.+\)")
    c.expect_exact(":help")
    c.expect_exact(PROMPT)

    # A declaration, then a multi-line compound statement with continuation prompts.
    c.sendline("var counter: integer;")
    c.expect_exact(PROMPT)
    c.sendline("begin")
    c.expect_exact(CONTINUATION)
    c.sendline("counter := 20;")
    c.expect_exact(CONTINUATION)
    c.sendline("counter := counter + 1")
    c.expect_exact(CONTINUATION)
    c.sendline("end")
    c.expect_exact(PROMPT)
    c.sendline("counter")
    value(c, "21")

    # Tab completion: a builtin prefix, a name in scope, a meta-command.
    c.send("NUM\t")
    c.expect_exact("B")
    c.sendline("(%1011)")
    value(c, "3")
    c.send("coun\t")
    c.expect_exact("ter")
    c.sendline(" * 2")
    value(c, "42")
    c.send(":ty\t")
    c.expect_exact("pe")
    c.sendline(" counter")
    value(c, "integer")

    # :show takes the terminal's width (200 columns here): a word of 150 ones fits unshaded,
    # one of 300 is shrunk to two bits a character (full blocks: every bit is a 1).
    c.sendline("var wide: word(150); wider: word(300);")
    c.expect_exact(PROMPT)
    c.sendline(":show not wide")
    c.expect_exact("word, 150 bits\r\n")
    c.expect_exact("1 \u2502" + "\u2580" * 150 + "\r\n")
    c.expect_exact(PROMPT)
    c.sendline(":show not wider")
    c.expect_exact("word, 300 bits (1 character = 2 x 4 bits")
    c.expect_exact("1 \u2502" + "\u2588" * 150 + "\r\n")
    c.expect_exact(PROMPT)

    # An empty line ends an incomplete input early (and its error is reported).
    c.sendline("counter +")
    c.expect_exact(CONTINUATION)
    c.sendline("")
    c.expect("error: unexpected end of file")
    c.expect_exact(PROMPT)

    # Ctrl-C at the prompt discards the line being edited.
    c.send("this is not Star")
    time.sleep(0.2)
    c.sendintr()
    c.expect_exact(PROMPT)
    c.sendline("counter")
    value(c, "21")

    # Ctrl-C interrupts a running loop; the session goes on with its state.
    interrupt_input(c, "while true do counter := counter;", lambda: time.sleep(0.5))
    c.sendline("counter + 1")
    value(c, "22")

    # Ctrl-C stops a loop that writes (on the device engine each write is a hand-over to the
    # host), and a LOAD that waits for a FIFO's writer; the session goes on.
    interrupt_input(c, "while true do writeln(counter);", lambda: c.expect_exact("21\r\n21\r\n"))
    fifo = os.path.join(home, "fifo")
    os.mkfifo(fifo)
    c.sendline("var waiting: table;")
    c.expect_exact(PROMPT)
    interrupt_input(c, "LOAD(waiting, '%s');" % fifo, lambda: time.sleep(0.5))
    c.sendline("counter + 1")
    value(c, "22")

    # Up-arrow recalls the previous input.
    c.send(UP)
    c.expect_exact("counter + 1")
    c.send("\r")
    value(c, "22")

    # The last input, remembered for the next session.
    c.sendline("40 + 2")
    value(c, "42")

    # Ctrl-D leaves with status 0.
    c.sendeof()
    expect_exit(c, "Ctrl-D")


def session_two(star, backend, home, history):
    c = spawn(star, backend, home, history)
    c.expect_exact(PROMPT)
    # History from the first session: the last input comes back with up-arrow.
    c.send(UP)
    c.expect_exact("40 + 2")
    c.send("\r")
    value(c, "42")
    c.sendline(":quit")
    expect_exit(c, ":quit")


def default_history_file(star, backend, home):
    # Without STAR_HISTORY the history goes to ~/.star_history.
    c = spawn(star, backend, home)
    c.expect_exact(PROMPT)
    c.sendline("1 + 1")
    value(c, "2")
    c.sendeof()
    expect_exit(c, "Ctrl-D")
    path = os.path.join(home, ".star_history")
    if not os.path.exists(path) or "1" not in open(path).read():
        raise AssertionError("no history in " + path)


def typeahead_eof(star, backend, home, history):
    # A Ctrl-D typed while a command still runs ends the session once the command is done (the
    # terminal is in cooked mode then: the key arrives as an end-of-line mark, not as a byte).
    c = spawn(star, backend, home, history)
    c.expect_exact(PROMPT)
    c.sendline("var i: integer; begin writeln('running'); i := 0; "
               "while i < 1000000 do i := i + 1; writeln(i) end")
    wait_for_terminal(c, cooked=True)  # the command runs
    c.sendeof()
    c.expect(r"\r\nrunning\r\n1000000\r\n", timeout=120)
    expect_exit(c, "a typed-ahead Ctrl-D")


def ctrl_space_at_prompt(star, backend, home, history):
    # A NUL typed at an idle prompt (Ctrl-Space: libedit's set-mark) is not the end of input,
    # unlike a Ctrl-D typed ahead (typeahead_eof).
    c = spawn(star, backend, home, history)
    c.expect_exact(PROMPT)
    wait_for_terminal(c, cooked=False)  # libedit waits for the line's first key
    time.sleep(0.2)
    c.send("\x00")
    c.sendline("1 + 1")
    value(c, "2")
    c.sendline(":quit")
    expect_exit(c, ":quit")


def newcomer_words(star, backend, home, history):
    # `star` alone on a terminal is the REPL. There `exit`, `quit`, `exit()` and `help` typed
    # alone say where :quit and :help are, and the session goes on.
    c = spawn(star, backend, home, history, args=[])
    c.expect_exact(":help")
    c.expect_exact(PROMPT)
    for word in ("exit", "quit", "quit()"):
        c.sendline(word)
        value(c, "Use :quit or Ctrl-D to exit")
    c.sendline("help")
    value(c, "Type :help for help, or :help NAME for a builtin")
    c.sendline("6 * 7")
    value(c, "42")
    c.sendline(":quit")
    expect_exit(c, ":quit")


def run_tests(doc, tests, engine=False):
    """The main program of a pty test: `STAR [BACKEND]` from the command line (with `engine`, also
    an ENGINE for every REPL spawned), then each (name, test) of `tests` as test(star, backend,
    home), all in one temporary home directory. Exits 0 when all pass (PASS), 1 at the first
    expectation not met (FAIL), 2 without STAR (the usage, `doc`)."""

    def main():
        if len(sys.argv) < 2:
            print(doc)
            return 2
        star = sys.argv[1]
        backend = sys.argv[2] if len(sys.argv) > 2 else "cpu"
        if engine and len(sys.argv) > 3:
            ENGINE.append("--engine=" + sys.argv[3])
        with tempfile.TemporaryDirectory() as home:
            for name, test in tests:
                print("\n=== " + name)
                test(star, backend, home)
        print("\nPASS")
        return 0

    try:
        sys.exit(main())
    except (AssertionError, pexpect.TIMEOUT, pexpect.EOF) as e:
        print("\nFAIL: %s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
        sys.exit(1)


def with_history(test):
    """`test` as run_tests calls it, with the history file `history` in the home directory."""
    return lambda star, backend, home: test(star, backend, home, os.path.join(home, "history"))


if __name__ == "__main__":
    run_tests(__doc__,
              [(test.__name__, with_history(test))
               for test in (session_one, session_two, typeahead_eof, ctrl_space_at_prompt,
                            newcomer_words)]
              + [("default_history_file", default_history_file)],
              engine=True)
