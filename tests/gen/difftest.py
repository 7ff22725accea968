#!/usr/bin/env python3
"""difftest.py: differential testing of `star` configurations on random programs (stargen.py).

Each generated program is run through every configuration; stdout, stderr and the exit status must
be identical in all of them, and none may time out or crash. See tests/gen/README.md.

  difftest.py [--star PATH] [--count N] [--seed-start S] [--jobs J] [--size K]
              [--config NAME=COMMAND]... [--timeout SEC] [--failures DIR] [--program FILE]...

A configuration is a shell command (run with bash) with these placeholders:
  {star}  the star binary (--star)
  {prog}  the program file, always `prog.star`, relative to the current directory
  {tmp}   a file name prefix for the configuration's own files (`prog` -- e.g. {tmp}.starc)
  {args}  the program arguments, shell-quoted; appended at the end when the command lacks it
Every configuration runs in a fresh directory of its own that holds `prog.star` and the program's
data files, so that a file name in a message (prog.star:LINE:COL) and the files the program writes
are the same in every configuration: nothing is normalised.

The first configuration is the reference; each other one is compared with it. A failure is: a
difference in stdout, stderr or exit status; a timeout; a crash (a signal, an exit status >= 128,
or a sanitizer report on stderr); or an exit status other than 0 and 2 (a generated program is
valid, so status 1 means that the generator or the compiler is wrong); an `oracle failed: NAME`
message (a generated self-check of a property of the builtins, such as VAL(BIN(n, k)) = n, that
does not hold). Each failure is saved under
the failures directory (the program, every configuration's output, a repro.sh) and summarised on
one line. The last line is `difftest: N passed, M failed`; the exit status is 1 when M > 0.
"""

import argparse
import concurrent.futures
import json
import os
import queue
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import stargen  # noqa: E402

DEFAULT_CONFIGS = [
    ('ref', '{star} run {prog} {args}'),
    ('module', '{star} compile {prog} -o {tmp}.starc && {star} run {tmp}.starc {args}'),
    ('nonative', '{star} run --no-native {prog} {args}'),
]

ORACLE = re.compile(r'oracle failed')
SANITIZER = re.compile(r'AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|ThreadSanitizer|'
                       r'MemorySanitizer|\.(?:c|cc|cpp|cu|h|hpp):\d+:\d+: runtime error:')


def parse_header(text):
    """The //@ARGS list and the //@FILE data files of a generated program."""
    args, files, cur = [], {}, None
    for line in text.splitlines():
        if not line.startswith('//@'):
            if cur is None and not line.startswith('//'):
                break
            continue
        if line.startswith('//@ARGS '):
            args = json.loads(line[len('//@ARGS '):])
        elif line.startswith('//@FILE '):
            cur = line[len('//@FILE '):].strip()
            files[cur] = []
        elif line.startswith('//@END'):
            cur = None
        elif cur is not None:
            files[cur].append(line[4:] if line.startswith('//@ ') else line[3:])
    return args, {k: '\n'.join(v) + '\n' for k, v in files.items()}


def expand(template, star, args):
    if template.startswith('@'):  # a server configuration: the same as `star run OPTIONS`
        template = '{star} run ' + template[1:] + ' {prog} {args}'
    qargs = ' '.join(shlex.quote(a) for a in args)
    if '{args}' not in template:
        template = template + ' {args}'
    return (template.replace('{star}', shlex.quote(star)).replace('{prog}', 'prog.star')
            .replace('{tmp}', 'prog').replace('{args}', qargs))


def run_one(cmd, cwd, timeout):
    """(status, stdout, stderr, timed_out)."""
    p = subprocess.Popen(['bash', '-c', cmd], cwd=cwd, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, False
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return p.returncode, out, err, True


_servers = threading.local()


class Slots:
    """At most K runs at once in a group of configurations (--slots NAME[,NAME...]=K), each slot
    with one server that serves every configuration of the group. On one GPU, processes do not
    run at once: the GPU switches between their contexts, and a run that waits on the GPU for
    every primitive (the CUDA host engine) or launches an engine per program pays for each switch.
    Few processes, each running the group's configurations one after another in one context, are
    faster than a process per configuration and job."""

    def __init__(self, key, k):
        self.key = key          # the group's names as given: the key of the slot's server
        self.free = queue.Queue()
        for _ in range(k):
            self.free.put({})

    def take(self, deadline):
        """A free slot (its servers), or None when the deadline (a time.time(); None: no limit)
        passes first; a slot that comes after the deadline goes back."""
        left = None if deadline is None else deadline - time.time()
        if left is not None and left <= 0:
            return None
        try:
            slot = self.free.get(timeout=left)
        except queue.Empty:
            return None
        if deadline is not None and time.time() > deadline:
            self.free.put(slot)
            return None
        return slot


def run_on_server(cname, options, star, args, cwd, timeout, servers=None, key=None):
    """A configuration `NAME=@OPTIONS`: the program runs in a `star run-server` kept by this thread
    (one per configuration; or by the slot `servers` it holds), as `star run OPTIONS prog.star
    ARGS` would, without a new process (on a GPU, 0.35 s of CUDA start-up per program saved).
    The server is kept under `key` (the configuration's name by default). (status, stdout,
    stderr, timed_out); a crash ends the server, which the next program starts again."""
    cname = key or cname
    if servers is None:
        servers = getattr(_servers, 'procs', None)
        if servers is None:
            servers = _servers.procs = {}
    p = servers.get(cname)
    if p is None or p.poll() is not None:
        p = servers[cname] = subprocess.Popen([star, 'run-server'], stdin=subprocess.PIPE,
                                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                              start_new_session=True)
    out_file, err_file = cwd + '.out', cwd + '.err'
    request = {'dir': cwd, 'out': out_file, 'err': err_file,
               'args': shlex.split(options) + ['prog.star'] + list(args)}
    timed_out, status = False, None
    try:
        p.stdin.write((json.dumps(request) + '\n').encode())
        p.stdin.flush()
        ready, _, _ = select.select([p.stdout], [], [], timeout)
        if not ready:
            timed_out = True
        else:
            line = p.stdout.readline()
            if line:
                reply = json.loads(line)
                status = reply.get('status', 125)
    except (BrokenPipeError, OSError, ValueError, AttributeError):
        pass  # a server that stopped or wrote something else: ended below, as after a crash
    if timed_out or status is None:
        if timed_out or p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
        rc = p.wait()
        status = rc if not timed_out else None
        servers.pop(cname, None)
    def read(path):
        try:
            with open(path, 'rb') as f:
                return f.read()
        except OSError:
            return b''
    return status, read(out_file), read(err_file), timed_out


def wait_for(path, limit=600):
    """Other people may be rebuilding star: wait for the binary to come back."""
    t0 = time.time()
    while not os.path.exists(path):
        if time.time() - t0 > limit:
            return False
        time.sleep(5)
    return True


class Result:
    def __init__(self, name, program):
        self.name, self.program = name, program
        self.runs = {}         # config -> (status, out, err, timed_out)
        self.seconds = {}      # config -> seconds its run took
        self.problems = []


def check_program(name, text, configs, star, timeout, workroot, slots, deadline=None):
    """The program through every configuration: a Result, or None when the deadline (--time-limit)
    passed while it waited for a slot (it then counts as not run: a run under a time budget ends
    at most one slot's program after the limit, not after every waiting job's)."""
    args, files = parse_header(text)
    res = Result(name, text)
    for attempt in range(3):
        base = tempfile.mkdtemp(prefix=f'{name}-', dir=workroot)
        try:
            for cname, template in configs:
                d = os.path.join(base, cname)
                os.makedirs(d)
                with open(os.path.join(d, 'prog.star'), 'w', encoding='utf-8') as f:
                    f.write(text)
                for fn, content in files.items():
                    with open(os.path.join(d, fn), 'w', encoding='utf-8') as f:
                        f.write(content)
                pool = slots.get(cname)
                slot = pool.take(deadline) if pool else None
                if pool and slot is None:
                    return None
                started = time.time()
                try:
                    if template.startswith('@'):
                        res.runs[cname] = run_on_server(cname, template[1:], star, args, d, timeout, slot,
                                                        pool.key if pool else None)
                    else:
                        res.runs[cname] = run_one(expand(template, star, args), d, timeout)
                finally:
                    res.seconds[cname] = time.time() - started
                    if pool:
                        pool.free.put(slot)
        finally:
            shutil.rmtree(base, ignore_errors=True)
        if any(r[0] == 127 for r in res.runs.values()) and not os.path.exists(star):
            wait_for(star)          # the binary vanished during a rebuild: run the program again
            continue
        break
    ref = configs[0][0]
    r0 = res.runs[ref]
    for cname, _ in configs:
        st, out, err, to = res.runs[cname]
        if to:
            res.problems.append(f'{cname}: timeout after {timeout}s')
            continue
        if st < 0 or st >= 128:
            res.problems.append(f'{cname}: crash (status {st})')
        elif SANITIZER.search(err.decode('utf-8', 'replace')):
            res.problems.append(f'{cname}: sanitizer report')
        elif ORACLE.search(err.decode('utf-8', 'replace')):
            m = re.search(r'oracle failed: \w+', err.decode('utf-8', 'replace'))
            res.problems.append(f'{cname}: {m.group(0) if m else "oracle failed"}')
        elif st not in (0, 2):
            first = err.decode('utf-8', 'replace').strip().splitlines()[:1]
            res.problems.append(f'{cname}: status {st} ({first[0] if first else "no message"})')
        if cname == ref:
            continue
        diffs = []
        if st != r0[0]:
            diffs.append(f'status {r0[0]} vs {st}')
        if out != r0[1]:
            diffs.append('stdout')
        if err != r0[2]:
            diffs.append('stderr')
        if diffs and not r0[3]:
            res.problems.append(f'{cname} differs from {ref}: ' + ', '.join(diffs))
    return res


def first_diff_line(a, b):
    al, bl = a.decode('utf-8', 'replace').splitlines(), b.decode('utf-8', 'replace').splitlines()
    for i in range(max(len(al), len(bl))):
        x = al[i] if i < len(al) else '<end>'
        y = bl[i] if i < len(bl) else '<end>'
        if x != y:
            return i + 1, x[:160], y[:160]
    return None


def save_failure(res, configs, star, faildir):
    d = os.path.join(faildir, res.name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    with open(os.path.join(d, 'prog.star'), 'w', encoding='utf-8') as f:
        f.write(res.program)
    args, files = parse_header(res.program)
    for fn, content in files.items():
        with open(os.path.join(d, fn), 'w', encoding='utf-8') as f:
            f.write(content)
    summary = [f'program {res.name}', *res.problems, '']
    ref = configs[0][0]
    for cname, template in configs:
        st, out, err, to = res.runs[cname]
        with open(os.path.join(d, f'{cname}.stdout'), 'wb') as f:
            f.write(out)
        with open(os.path.join(d, f'{cname}.stderr'), 'wb') as f:
            f.write(err)
        with open(os.path.join(d, f'{cname}.status'), 'w') as f:
            f.write(f"{'timeout' if to else st}\n")
        summary.append(f'{cname}: status {"timeout" if to else st}: {expand(template, star, args)}')
        if cname != ref:
            for what, i in (('stdout', 1), ('stderr', 2)):
                fd = first_diff_line(res.runs[ref][i], res.runs[cname][i])
                if fd:
                    summary.append(f'  first {what} difference at line {fd[0]}:')
                    summary.append(f'    {ref}: {fd[1]}')
                    summary.append(f'    {cname}: {fd[2]}')
    with open(os.path.join(d, 'summary.txt'), 'w', encoding='utf-8') as f:
        f.write('\n'.join(summary) + '\n')
    with open(os.path.join(d, 'repro.sh'), 'w') as f:
        f.write('#!/bin/bash\n# Runs every configuration on this program, in a directory of its own.\n')
        f.write('cd "$(dirname "$0")"\n')
        for cname, template in configs:
            f.write(f'rm -rf run-{cname} && mkdir run-{cname} && cp prog.star run-{cname}/ && '
                    + ''.join(f'cp {shlex.quote(fn)} run-{cname}/ && ' for fn in files)
                    + f'(cd run-{cname} && {expand(template, star, args)}); echo "{cname}: status $?"\n')
    os.chmod(os.path.join(d, 'repro.sh'), 0o755)
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--star', default=os.path.join(HERE, '..', '..', 'build', 'bin', 'star'),
                    help='the star binary (default: build/bin/star of this tree)')
    ap.add_argument('--count', type=int, default=100, help='number of programs (default 100)')
    ap.add_argument('--seed-start', type=int, default=1, help='first seed (default 1)')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 1, help='programs run in parallel')
    ap.add_argument('--size', type=int, default=3, help='stargen --size (default 3)')
    ap.add_argument('--config', action='append', metavar='NAME=COMMAND',
                    help='a configuration (repeatable; the first is the reference); default: '
                         + '; '.join(f'{n}="{c}"' for n, c in DEFAULT_CONFIGS))
    ap.add_argument('--add-config', action='append', metavar='NAME=COMMAND', default=[],
                    help='a configuration added to the default ones (repeatable)')
    ap.add_argument('--timeout', type=float, default=60, help='seconds per run (default 60)')
    ap.add_argument('--failures', default='difftest-failures', help='where failures are saved')
    ap.add_argument('--program', action='append', default=[],
                    help='run this program file instead of generated ones (repeatable)')
    ap.add_argument('--no-stdlib', action='store_true', help='stargen --no-stdlib')
    ap.add_argument('--nbody', action='store_true', help='stargen --nbody')
    ap.add_argument('--no-errors', action='store_true', help='stargen --no-errors')
    ap.add_argument('--big', action='store_true', help='stargen --big')
    ap.add_argument('--time-limit', type=float, default=0,
                    help='start no new program after this many seconds (0: no limit)')
    ap.add_argument('--quiet', action='store_true', help='no progress lines')
    ap.add_argument('--slots', action='append', metavar='NAME[,NAME...]=K', default=[],
                    help='at most K runs at once in these configurations, one server per slot '
                         'for all of them (repeatable)')
    a = ap.parse_args()

    star = os.path.abspath(a.star)
    configs = []
    for spec in (a.config or [f'{n}={c}' for n, c in DEFAULT_CONFIGS]) + a.add_config:
        if '=' not in spec:
            ap.error(f'--config needs NAME=COMMAND, not {spec!r}')
        n, c = spec.split('=', 1)
        if not re.fullmatch(r'[A-Za-z0-9_.-]+', n) or n in [x[0] for x in configs]:
            ap.error(f'bad or duplicate configuration name {n!r}')
        configs.append((n, c))
    slots = {}
    for spec in a.slots:
        names, _, k = spec.partition('=')
        group = names.split(',')
        if (not all(n in [x[0] for x in configs] and n not in slots for n in group)
                or not k.isdigit() or int(k) < 1):
            ap.error(f'--slots needs NAME[,NAME...]=K with configuration names not in another '
                     f'--slots and K >= 1, not {spec!r}')
        pool = Slots(names, int(k))
        for n in group:
            slots[n] = pool
    if not wait_for(star, 120):
        print(f'difftest: no star binary at {star}', file=sys.stderr)
        return 2

    jobs = []
    for p in a.program:
        with open(p, encoding='utf-8') as f:
            jobs.append((os.path.splitext(os.path.basename(p))[0], lambda t=f.read(): t))
    if not a.program:
        for seed in range(a.seed_start, a.seed_start + a.count):
            def gen(seed=seed):
                g = stargen.Gen(seed, a.size, stdlib=not a.no_stdlib, nbody=a.nbody,
                                errors=not a.no_errors, big=a.big)
                return g.generate()
            jobs.append((f'seed{seed}', gen))

    workroot = tempfile.mkdtemp(prefix='difftest-')
    lock = threading.Lock()
    passed = failed = 0
    statuses = {}
    seconds = {c: 0.0 for c, _ in configs}
    t0 = time.time()

    skipped = [0]

    def work(job):
        name, gen = job
        if a.time_limit and time.time() - t0 > a.time_limit:
            with lock:
                skipped[0] += 1
            return None
        try:
            text = gen()
        except Exception as e:          # a generator bug: report it as a failure
            r = Result(name, f'// generator exception: {e!r}\n')
            r.problems.append(f'generator exception: {e!r}')
            return r
        res = check_program(name, text, configs, star, a.timeout, workroot, slots,
                            t0 + a.time_limit if a.time_limit else None)
        if res is None:
            with lock:
                skipped[0] += 1
        return res

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            futures = [ex.submit(work, j) for j in jobs]
            for fut in concurrent.futures.as_completed(futures):
                res = fut.result()
                if res is None:
                    continue
                with lock:
                    for c, sec in res.seconds.items():
                        seconds[c] += sec
                    if res.runs:
                        st = res.runs[configs[0][0]][0]
                        statuses[st] = statuses.get(st, 0) + 1
                    if res.problems:
                        failed += 1
                        d = save_failure(res, configs, star, a.failures) if res.runs else None
                        print(f'FAIL {res.name}: {"; ".join(res.problems)}' + (f' [{d}]' if d else ''),
                              flush=True)
                    else:
                        passed += 1
                    n = passed + failed
                    if not a.quiet and n % 100 == 0:
                        print(f'difftest: {n}/{len(jobs)} done, {failed} failed, '
                              f'{time.time() - t0:.0f}s', flush=True)
    finally:
        shutil.rmtree(workroot, ignore_errors=True)
    st = ', '.join(f'{k}: {v}' for k, v in sorted(statuses.items()))
    print(f'difftest: reference exit statuses: {st}; {time.time() - t0:.1f}s')
    print('difftest: seconds in each configuration: '
          + ', '.join(f'{c} {sec:.1f}' for c, sec in seconds.items()))
    if skipped[0]:
        print(f'difftest: {skipped[0]} programs not run (--time-limit {a.time_limit:g}s)')
    print(f'difftest: {passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
