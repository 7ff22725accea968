#!/usr/bin/env python3
"""Runs a command with its standard output and error on a pseudo-terminal, for the tests of
`star test`'s colour (--color=auto colours a terminal only). Prints what the command wrote, with
the escape character shown as <ESC> (FileCheck reads "[[" as a variable) and CR LF as LF, then its
exit status.

usage: in_pty.py [NAME=VALUE...] COMMAND [ARGS...]

The command runs with TERM=xterm and without NO_COLOR, unless NAME=VALUE words set them (an empty
VALUE sets the variable to the empty string).
"""
import os
import pty
import sys

args = sys.argv[1:]
env = dict(os.environ)
env["TERM"] = "xterm"
env.pop("NO_COLOR", None)
while args and "=" in args[0] and not args[0].startswith(("/", ".")):
    name, value = args.pop(0).split("=", 1)
    env[name] = value
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(args[0], args, env)
out = b""
while True:
    try:
        chunk = os.read(fd, 65536)
    except OSError:  # EIO: the other side closed
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
text = out.decode("utf-8", "replace").replace("\r\n", "\n").replace("\x1b", "<ESC>")
sys.stdout.write(text)
print("status", os.waitstatus_to_exitcode(status))
