#!/usr/bin/env python3
"""Checks difftest.py's --slots and --time-limit with a stand-in `star`: a run-server that logs
when each request starts and ends. With `--slots host,device=1` both configurations go through one
server process and no two of its runs overlap; with a time
limit, jobs that would wait for the slot after it are not run, so the run ends soon after it; a
server that answers with something else than a reply is a failure of that program, not a hang.
Exit status 0 when every check holds."""

import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

FAKE_STAR = r'''#!/usr/bin/env python3
import json, os, sys, time
log = os.environ["FAKE_STAR_LOG"]
delay = float(os.environ.get("FAKE_STAR_DELAY", "0.02"))
if sys.argv[1:] != ["run-server"]:
    sys.exit(3)
for line in sys.stdin:
    req = json.loads(line)
    with open(log, "a") as f:
        f.write(f"start {os.getpid()} {time.time()} {' '.join(req['args'])}\n")
    time.sleep(delay)
    if os.environ.get("FAKE_STAR_GARBAGE") and os.path.exists(os.path.join(req["dir"], "prog.star")) \
            and "P3;" in open(os.path.join(req["dir"], "prog.star")).read():
        print("not json", flush=True)
        continue
    open(req["out"], "w").write("same\n")
    open(req["err"], "w").write("")
    with open(log, "a") as f:
        f.write(f"end {os.getpid()} {time.time()}\n")
    print(json.dumps({"status": 0}), flush=True)
'''


def run_difftest(star, programs, extra, env, jobs=4):
    failures = os.path.join(os.path.dirname(star), 'failures')
    cmd = [sys.executable, os.path.join(HERE, 'difftest.py'), '--star', star, '--jobs', str(jobs), '--quiet',
           '--failures', failures,
           '--config', 'host=@--engine=host', '--config', 'device=@--engine=device', *extra]
    for p in programs:
        cmd += ['--program', p]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)


def main():
    failures = []
    with tempfile.TemporaryDirectory() as d:
        star = os.path.join(d, 'star')
        with open(star, 'w') as f:
            f.write(FAKE_STAR)
        os.chmod(star, 0o755)
        programs = []
        for i in range(24):
            p = os.path.join(d, f'p{i}.star')
            with open(p, 'w') as f:
                f.write(f'program P{i}; begin writeln({i}) end.\n')
            programs.append(p)
        log = os.path.join(d, 'log')
        env = dict(os.environ, FAKE_STAR_LOG=log)

        r = run_difftest(star, programs, ['--slots', 'host,device=1'], env)
        if r.returncode != 0 or 'difftest: 24 passed, 0 failed' not in r.stdout:
            failures.append(f'slots run: status {r.returncode}: {r.stdout}{r.stderr}')
        if 'difftest: seconds in each configuration: host ' not in r.stdout:
            failures.append(f'no seconds line: {r.stdout}')
        events = [line.split() for line in open(log)]
        pids = {e[1] for e in events}
        if len(pids) != 1:
            failures.append(f'{len(pids)} server processes for one slot, not 1')
        engines = {e[3] for e in events if e[0] == 'start'}
        if engines != {'--engine=host', '--engine=device'}:
            failures.append(f'the slot served {engines}, not both configurations')
        busy = 0
        for e in events:
            busy += 1 if e[0] == 'start' else -1
            if busy > 1:
                failures.append('two runs of one slot overlapped')
                break

        # Without slots: a server per configuration and job, runs at once.
        os.remove(log)
        r = run_difftest(star, programs, [], env)
        pids = {line.split()[1] for line in open(log)}
        if r.returncode != 0 or len(pids) < 3:
            failures.append(f'without slots: status {r.returncode}, {len(pids)} servers (expected several)')

        # A time limit: 24 jobs at once, each 2 x 0.5 s through one slot, would take 24 s; with a
        # 2 s limit the jobs still waiting for the slot are dropped and the run ends soon after.
        os.remove(log)
        env['FAKE_STAR_DELAY'] = '0.5'
        t0 = time.time()
        r = run_difftest(star, programs, ['--slots', 'host,device=1', '--time-limit', '2'], env, jobs=24)
        took = time.time() - t0
        runs = sum(1 for line in open(log) if line.startswith('start'))
        if r.returncode != 0 or 'programs not run (--time-limit 2s)' not in r.stdout or took > 6 or runs > 7:
            failures.append(f'time limit: status {r.returncode} after {took:.1f}s, {runs} runs: {r.stdout}{r.stderr}')

        # A server that answers with something else than its reply line: a failure of that
        # program (as a crash), and the run goes on with a new server.
        os.remove(log)
        env['FAKE_STAR_DELAY'] = '0.01'
        env['FAKE_STAR_GARBAGE'] = 'p3.star'
        r = run_difftest(star, programs[:6], ['--slots', 'host,device=1', '--timeout', '20'], env)
        del env['FAKE_STAR_GARBAGE']
        if r.returncode != 1 or 'difftest: 5 passed, 1 failed' not in r.stdout or 'FAIL p3' not in r.stdout:
            failures.append(f'garbage reply: status {r.returncode}: {r.stdout}{r.stderr}')

        r = run_difftest(star, programs[:1], ['--slots', 'host=1', '--slots', 'host,device=1'], env)
        if r.returncode != 2 or 'configuration names not in another --slots' not in r.stderr:
            failures.append(f'a configuration in two --slots was accepted: {r.returncode} {r.stderr}')

    for f in failures:
        print('FAIL:', f)
    print('difftest slots:', 'PASS' if not failures else f'{len(failures)} failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
