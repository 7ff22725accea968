#!/usr/bin/env python3
"""stargen.py: a generator of random, valid, terminating Star programs (in the spirit of Csmith).

usage: stargen.py --seed N [--size S] [--no-stdlib] [--nbody] [--no-errors]

Prints one program on stdout; the same seed and options always give the same program. The program
passes `star check` without errors or warnings, and terminates by construction:

* every integer variable holds a value in [-B, B] (B = 1000000), and every integer expression is
  built with interval arithmetic so that it cannot overflow or divide by zero (values outside
  [-B, B] are folded back with `mod` before they are stored);
* every slice and word variable has a length fixed by the generator ("designated"), sized or not,
  except the "flex" variables, which are only used where any length is allowed; every table
  variable has a designated shape (or is flex, likewise);
* indices, TRIM/REP ranges, BIN/SBIN arguments etc. are built so that they are in range;
* loops are bounded: `for` loops have bounded limits and a control variable that nothing else
  writes, `while` and `repeat` loops count their iterations in a reserved counter, STEP loops
  scan a reserved copy that only shrinks; recursion carries a depth parameter that decreases;
  routines call only routines generated before them (apart from that bounded recursion);
* a cost model (statement executions, weighted by loop trip counts and callee costs) keeps the
  run time of a program small.

A program may deliberately end in a run-time error (an error "ending", about a third of the
programs unless --no-errors): index out of range, size mismatch, integer overflow, division by
zero, BIN/TRIM/REP/... argument errors, ERROR('...'), StrToInt of a bad string, ...; it may also
stop early at a data-dependent `if ... then ERROR(...)`. Either way the behaviour is fully
determined by the program, which is what the differential test (difftest.py) needs.

The first lines of the program are `//@` comments that difftest.py reads:
  //@ARGS <json list>     the program arguments (ParamCount / ParamStr)
  //@FILE <name> ... //@END  a data file that must exist in the current directory (lines '//@ ...')
"""

import argparse
import json
import random
import sys

INT_MIN = -(1 << 63)
INT_MAX = (1 << 63) - 1
B = 1000000            # every integer variable holds a value in [-B, B]
MAXLEN = 4096          # an upper bound of any slice/word length a program builds

P_REL, P_ADD, P_MUL, P_PRE, P_ATOM = 0, 1, 2, 3, 4

KEYWORDS = set('program unit uses const var proc procedure func function begin end if then else '
               'while do for to downto repeat until break continue exit native not and or xor '
               'div mod true false integer boolean string real slice word table'.split())

ARG_POOL = ['7', '-12', 'abc', '2.5', '0', '9223372036854775807', 'x y', '\u00e9t\u00e9', '',
            '1e3', 'inf', '-0', '42', 'nan', '00017', '-9223372036854775808', '3.25e-2']


def is_int_text(s):
    if s.startswith('-'):
        s2 = s[1:]
    else:
        s2 = s
    if not s2 or not s2.isdigit() or not s2.isascii():
        return False
    v = int(s)
    return INT_MIN <= v <= INT_MAX


def is_real_text(s):
    t = s.strip()
    if t != s or not s:
        return False
    low = s.lower().lstrip('+-')
    if low in ('inf', 'infinity', 'nan'):
        return True
    try:
        v = float(s)
    except ValueError:
        return False
    if not all(ch in '0123456789+-.eE' for ch in s):
        return False
    return abs(v) != float('inf')


class Ex:
    """An expression: its text, precedence, and for integers a sure interval [lo, hi]."""
    __slots__ = ('t', 'p', 'lo', 'hi')

    def __init__(self, t, p=P_ATOM, lo=None, hi=None):
        self.t, self.p, self.lo, self.hi = t, p, lo, hi


class Var:
    __slots__ = ('name', 'kind', 'L', 'R', 'C', 'sized', 'const', 'value', 'role', 'byref',
                 'param', 'owner', 'sizeexpr')

    def __init__(self, name, kind, L=None, R=None, C=None, sized=False, const=False, value=None,
                 role='normal', byref=False, param=False, owner=None):
        self.name, self.kind, self.L, self.R, self.C = name, kind, L, R, C
        self.sized, self.const, self.value, self.role = sized, const, value, role
        self.byref, self.param, self.owner = byref, param, owner
        self.sizeexpr = None

    @property
    def flex(self):
        if self.kind in ('slice', 'word'):
            return self.L is None
        if self.kind == 'table':
            return self.R is None
        return False

    def assignable(self):
        return not self.const and self.role in ('normal', 'anchor')


class Routine:
    def __init__(self, name, is_func):
        self.name, self.is_func = name, is_func
        self.params = []
        self.rkind = None          # result kind of a function
        self.rL = None             # designated length of a slice/word result (None: any)
        self.cost = 1
        self.writes = 0
        self.in_unit = False
        self.depth = None          # the depth parameter of a recursive routine
        self.dmax = 0
        self.fanout = 1
        self.text = ''
        self.writes_globals = True
        self.native = None
        self.index = 0


class Ctx:
    """Where a statement or expression is generated."""

    def __init__(self, gen, scope, routine=None):
        self.g = gen
        self.scope = scope           # dict lname -> Var (visible variables, locals hiding globals)
        self.routine = routine
        self.iv = {}                 # lname -> (lo, hi): active intervals (loop control variables)
        self.loops = 0               # loop nesting
        self.cont_ok = False
        self.mult = 1                # product of enclosing trip counts
        self.cost = 0
        self.pure = False            # only local writes, no calls (body of a loop on a var param)
        self.callable = []           # routines that may be called
        self.depthvar = None
        self.writes = 0              # output lines (weighted)
        self.nest = 0
        self.reserved_pool = {}      # role -> list of Var
        self.nocalls = False         # a prologue: no calls (globals may not have their length yet)


def bits_of(v, n):
    return ''.join('1' if (v >> (n - 1 - i)) & 1 else '0' for i in range(n))


class Gen:
    def __init__(self, seed, size=3, stdlib=True, nbody=False, errors=True, big=False):
        self.seed = seed
        self.r = random.Random(seed * 7919 + 17)
        self.size = max(1, size)
        self.use_stdlib = stdlib
        self.use_nbody = nbody
        self.use_errors = errors
        self.counter = {}
        self.globals = {}            # lname -> Var (in declaration order)
        self.gorder = []             # global declarations in order: ('var', Var) / ('const', Var, text)
        self.routines = []
        self.files = {}
        self.fileno = 0
        self.units = []
        r = self.r
        # lexical style of this program
        self.kwcase = r.choice(['lower'] * 6 + ['upper', 'cap', 'mixed'])
        self.idnoise = r.choice([0.0, 0.0, 0.05, 0.2])
        self.comment_rate = r.choice([0.0, 0.02, 0.08])
        # lengths and shapes used by this program
        pool = [0, 1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200]
        bigpool = [63, 64, 65, 127, 128, 129, 200, 32, 33]
        self.lens = sorted(set(r.sample(pool, r.randint(3, 6)) + r.sample(bigpool, r.randint(1, 3))))
        dims = [0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 200]
        self.shapes = []
        for _ in range(r.randint(1, 4)):
            while True:
                R = r.choice(dims)
                C = r.choice(dims)
                if R * C <= 12000 and not (C > 130 and R > 20):
                    break
            if r.random() < 0.25:
                C = R if R <= 100 else C     # a square one (CLOSURE)
            self.shapes.append((R, C))
        self.big = []
        if big:
            # long slices and tables of many rows: the multi-word and multi-block paths of the
            # backends (CUDA blocks of 256/1024 threads, 32-bit and 64-bit words)
            rows = [255, 256, 257, 511, 512, 513, 1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096, 4097, 5000]
            for _ in range(r.randint(1, 2)):
                R = r.choice(rows)
                C = r.choice([1, 2, 3, 8, 16, 31, 32, 33, 63, 64, 65])
                self.shapes.append((R, C))
                self.big.append(R)
            if r.random() < 0.3:
                n = r.choice(rows)
                self.shapes.append((n, r.choice([2, 9, 33])))
                self.big.append(n)
        self.shapes = sorted(set(self.shapes))
        for (R, C) in self.shapes:
            for n in (R, C):
                if n not in self.lens and r.random() < 0.6:
                    self.lens.append(n)
        self.lens = sorted(set(self.lens))
        n = r.randint(0, 4)
        self.args = [r.choice(ARG_POOL) for _ in range(n)]
        self.budget = 25000 * self.size
        self.out_budget = 400 * self.size
        self.total_cost = 0
        self.errvars = []
        self.uninit = set()          # unsized designated variables not yet given their length
        self.edges = []
        self.graph_loads = []
        self.user_natives = []
        self.native_texts = []
        self.unit_name = None

    # ------------------------------------------------------------------ lexical helpers

    def fresh(self, prefix):
        n = self.counter.get(prefix, 0) + 1
        self.counter[prefix] = n
        return f'{prefix}{n}'

    def kw(self, s):
        c = self.kwcase
        if c == 'lower':
            return s
        if c == 'upper':
            return s.upper()
        if c == 'cap':
            return s.capitalize()
        return ''.join(ch.upper() if self.r.random() < 0.5 else ch for ch in s)

    def bi(self, s):
        """A builtin name, in some case."""
        c = self.r.random()
        if c < 0.6:
            return s
        if c < 0.8:
            return s.lower()
        if c < 0.9:
            return s.capitalize()
        return ''.join(ch.upper() if self.r.random() < 0.5 else ch.lower() for ch in s)

    def nm(self, name):
        if self.idnoise and self.r.random() < self.idnoise:
            return ''.join(ch.upper() if self.r.random() < 0.5 else ch.lower() for ch in name)
        return name

    def comment(self):
        r = self.r
        words = r.choice(['note', 'x := 1', 'begin end', "it's", '{ nested? (* no *)', 'caf\u00e9',
                          'TODO', '%1011', '// inner'])
        form = r.randrange(4)
        if form == 0:
            return '{ ' + words.replace('}', ')') + ' }'
        if form == 1:
            return '(* ' + words.replace('*)', '* )') + ' *)'
        if form == 2:
            return '/* ' + words.replace('*/', '* /') + ' */'
        return '// ' + words

    # ------------------------------------------------------------------ expression helpers

    def paren(self, e):
        return Ex('(' + e.t + ')', P_ATOM, e.lo, e.hi)

    def maybe_paren(self, e):
        if self.r.random() < 0.04:
            return self.paren(e)
        return e

    def binop(self, op, a, b, p, lo=None, hi=None):
        if a.p > p or (a.p == p and p != P_REL):
            lt = a.t
        else:
            lt = '(' + a.t + ')'
        rt = b.t if b.p > p else '(' + b.t + ')'
        o = self.kw(op) if op[0].isalpha() else op
        return self.maybe_paren(Ex(f'{lt} {o} {rt}', p, lo, hi))

    def prefix(self, op, a, lo=None, hi=None):
        t = a.t
        if a.p < P_PRE or t.startswith('-') or t.startswith('+'):
            t = '(' + t + ')'
        if op == 'not':
            return Ex(self.kw('not') + ' ' + t, P_PRE, lo, hi)
        return Ex(op + t, P_PRE, lo, hi)

    def call(self, name, args, lo=None, hi=None):
        return Ex(f"{name}({', '.join(a.t if isinstance(a, Ex) else a for a in args)})",
                  P_ATOM, lo, hi)

    def lit(self, v):
        if v < 0:
            return Ex(f'-{-v}', P_PRE, v, v)
        return Ex(str(v), P_ATOM, v, v)

    def strlit(self, s):
        return "'" + s.replace("'", "''") + "'"

    def wordlit(self, L):
        r = self.r
        k = r.randrange(6)
        if k == 0:
            bits = '0' * L
        elif k == 1:
            bits = '1' * L
        elif k == 2:
            bits = ''.join('1' if r.random() < 0.1 else '0' for _ in range(L))
        else:
            bits = ''.join(r.choice('01') for _ in range(L))
        return '%' + bits

    def real_lit(self):
        r = self.r
        k = r.randrange(12)
        if k == 0:
            return '0.0'
        if k == 1:
            return f'{r.randint(0, 999)}.{r.randint(0, 99)}'
        if k == 2:
            return f'{r.randint(1, 9)}.{r.randint(0, 9)}e{r.choice(["", "+", "-"])}{r.randint(0, 30)}'
        if k == 3:
            return f'{r.randint(1, 99)}e{r.randint(0, 15)}'
        if k == 4:
            return r.choice(['1e999', '1E400', '2.5e-7', '1e-320', '4.9e-324', '1.7976931348623157e308',
                             '0.1', '0.5', '2.5', '3.5', '0.30000000000000004', '123456789.125'])
        if k == 5:
            return f'{r.randint(0, 3)}.{r.randint(0, 9999):04d}E{r.randint(-3, 3)}'
        return f'{r.randint(0, 20)}.{r.choice(["0", "5", "25", "75", "125", "1", "333"])}'

    # ------------------------------------------------------------------ variables

    def visible(self, c, kinds=None):
        vs = c.scope.values()
        un = self.uninit
        if kinds is None:
            return [v for v in vs if v.role != 'err' and id(v) not in un]
        return [v for v in vs if v.kind in kinds and v.role != 'err' and id(v) not in un]

    def readable_int(self, c):
        return [v for v in self.visible(c, ('int',))]

    def int_interval(self, c, v):
        ln = v.name.lower()
        if ln in c.iv:
            return c.iv[ln]
        if v.const:
            return (v.value, v.value)
        if v.role == 'fixed':
            return (v.value, v.value)
        return (-B, B)

    def writable(self, c, kind, L='any', R='any', C='any', byref_ok=True):
        out = []
        for v in self.visible(c, (kind,)):
            if not v.assignable():
                continue
            if c.pure and (v.owner is not c.routine or v.byref):
                continue
            if kind in ('slice', 'word'):
                if L != 'any' and v.L != L:
                    continue
                if L is None and v.sized:
                    continue
            if kind == 'table':
                if R != 'any' and (v.R != R or v.C != C):
                    continue
                if R is None and v.sized:
                    continue
            out.append(v)
        return out

    def tables(self, c, R='any', C='any'):
        out = []
        for v in self.visible(c, ('table',)):
            if v.flex:
                if R is None:
                    out.append(v)
                continue
            if R is None:
                continue
            if (R == 'any' or v.R == R) and (C == 'any' or v.C == C):
                out.append(v)
        return out

    # ------------------------------------------------------------------ integers

    def gen_int(self, c, d):
        """An integer expression with a sure interval inside the 64-bit range."""
        r = self.r
        if d <= 0 or r.random() < 0.25:
            return self.int_leaf(c)
        k = r.randrange(100)
        if k < 30:
            a = self.gen_int(c, d - 1)
            b = self.gen_int(c, d - 1)
            op = r.choice('+-*')
            if op == '+':
                lo, hi = a.lo + b.lo, a.hi + b.hi
            elif op == '-':
                lo, hi = a.lo - b.hi, a.hi - b.lo
            else:
                ps = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi]
                lo, hi = min(ps), max(ps)
            if lo < INT_MIN or hi > INT_MAX:
                return a
            return self.binop(op, a, b, P_ADD if op != '*' else P_MUL, lo, hi)
        if k < 42:
            a = self.gen_int(c, d - 1)
            b = self.divisor(c, d - 1)
            op = r.choice(['div', 'mod'])
            bmin = min(abs(b.lo), abs(b.hi))
            bmax = max(abs(b.lo), abs(b.hi))
            if op == 'div':
                if a.lo == INT_MIN and b.lo <= -1 <= b.hi:
                    return a
                m = max(abs(a.lo), abs(a.hi)) // bmin
                lo, hi = -m, m
                if a.lo >= 0 and b.lo > 0:
                    lo = 0
            else:
                if a.lo >= 0:
                    lo, hi = 0, min(a.hi, bmax - 1)
                elif a.hi <= 0:
                    lo, hi = max(a.lo, -(bmax - 1)), 0
                else:
                    lo, hi = -(bmax - 1), bmax - 1
            return self.binop(op, a, b, P_MUL, lo, hi)
        if k < 47:
            a = self.gen_int(c, d - 1)
            if a.lo == INT_MIN:
                return a
            return self.prefix('-', a, -a.hi, -a.lo)
        if k < 52:
            a = self.gen_int(c, d - 1)
            if a.lo == INT_MIN:
                return a
            if a.lo >= 0:
                lo, hi = a.lo, a.hi
            elif a.hi <= 0:
                lo, hi = -a.hi, -a.lo
            else:
                lo, hi = 0, max(-a.lo, a.hi)
            return self.call(self.bi('ABS'), [a], lo, hi)
        if k < 62:
            return self.bits_int(c, d)
        if k < 67:
            a = self.gen_int(c, d - 1)
            return self.call(self.bi(r.choice(['TRUNC', 'ROUND'])), [a], a.lo, a.hi)
        if k < 72:
            return self.tame_round(c, d)
        if k < 82:
            e = self.call_func(c, 'int', d)
            if e is not None:
                return e
            return self.int_leaf(c)
        if k < 86:
            return self.paren(self.gen_int(c, d - 1))
        return self.int_leaf(c)

    def divisor(self, c, d):
        r = self.r
        k = r.randrange(4)
        if k == 0:
            v = r.choice([1, 2, 3, 7, 10, 64, 1000, -1, -3, 97, 1 << 20])
            return self.lit(v)
        e = self.gen_int(c, d)
        if e.lo > 0 or e.hi < 0:
            return e
        if e.lo == INT_MIN:
            return self.lit(5)
        m = r.choice([2, 5, 9, 17, 64])
        a = self.call(self.bi('ABS'), [e], 0, max(abs(e.lo), abs(e.hi)))
        t = self.binop('mod', a, self.lit(m), P_MUL)
        res = self.binop('+', t, self.lit(1), P_ADD, 1, m)
        if r.random() < 0.3:
            return self.prefix('-', res, -m, -1)
        return res

    def int_leaf(self, c):
        r = self.r
        k = r.randrange(100)
        if k < 22:
            if r.random() < 0.9:
                return self.lit(r.randint(-20, 40))
            return self.lit(r.choice([B, -B, 1 << 31, (1 << 40) + 3, 123456789, 1 << 62, -(1 << 62),
                                      INT_MAX, INT_MIN, 1000000007]))
        if k < 60:
            vs = self.readable_int(c)
            if vs:
                v = r.choice(vs)
                lo, hi = self.int_interval(c, v)
                return Ex(self.nm(v.name), P_ATOM, lo, hi)
        if k < 68 and self.args is not None:
            if r.random() < 0.5:
                n = len(self.args)
                return Ex(self.bi('ParamCount') + r.choice(['', '()']), P_ATOM, n, n)
            ints = [i for i, a in enumerate(self.args) if is_int_text(a)]
            if ints:
                i = r.choice(ints)
                v = int(self.args[i])
                return self.call(self.bi('StrToInt'), [self.call(self.bi('ParamStr'), [str(i + 1)])], v, v)
            s = r.choice(['0', '-17', '9223372036854775807', '-9223372036854775808', '00042', '5'])
            v = int(s)
            return self.call(self.bi('StrToInt'), [self.strlit(s)], v, v)
        if k < 80:
            return self.bits_int(c, 1)
        if k < 88:
            ts = self.tables(c)
            if ts:
                t = r.choice(ts)
                which = r.choice(['ROWS', 'COLS'])
                n = t.R if which == 'ROWS' else t.C
                return self.call(self.bi(which), [self.nm(t.name)], n, n)
        return self.lit(r.randint(0, 9))

    def bits_int(self, c, d):
        """LEN, NUMB, FND, STEP, VAL, SVAL, a component Y(i)."""
        r = self.r
        k = r.randrange(9)
        if k == 0:
            L = self.pick_len()
            e = self.gen_bits(c, r.choice(['slice', 'word']), L, d - 1)
            return self.call(self.bi('LEN'), [e], L, L)
        if k == 1:
            e = self.gen_bits_any(c, r.choice(['slice', 'word']), d - 1)
            return self.call(self.bi(r.choice(['LEN', 'NUMB', 'FND'])), [e], 0, MAXLEN)
        if k == 2:
            L = self.pick_len()
            e = self.gen_bits(c, r.choice(['slice', 'word']), L, d - 1)
            return self.call(self.bi(r.choice(['NUMB', 'FND'])), [e], 0, L)
        if k == 3 and not c.nocalls:
            vs = [v for v in self.visible(c, ('slice', 'word')) if v.assignable()
                  and not (c.pure and (v.owner is not c.routine or v.byref))]
            if vs:
                v = r.choice(vs)
                return self.call(self.bi('STEP'), [self.nm(v.name)], 0, MAXLEN if v.L is None else v.L)
        if k in (4, 5):
            L = r.choice([l for l in self.lens if l <= 63] + [1, 8, 63, 62, 20])
            e = self.gen_bits(c, 'word', L, d - 1)
            return self.call(self.bi('VAL'), [e], 0, (1 << L) - 1)
        if k == 6:
            L = r.choice([l for l in self.lens if 1 <= l <= 64] + [1, 8, 64, 63])
            e = self.gen_bits(c, 'word', L, d - 1)
            return self.call(self.bi('SVAL'), [e], -(1 << (L - 1)), (1 << (L - 1)) - 1)
        # a component
        vs = [v for v in self.visible(c, ('slice', 'word')) if v.L and v.L >= 1]
        if vs:
            v = r.choice(vs)
            i = self.gen_int_in(c, 1, v.L, d - 1)
            return Ex(f'{self.nm(v.name)}({i.t})', P_ATOM, 0, 1)
        return self.lit(r.randint(0, 1))

    def gen_int_in(self, c, lo, hi, d):
        """An integer expression whose value is surely in [lo, hi] (lo <= hi)."""
        r = self.r
        if r.random() < 0.3:
            return self.lit(r.randint(lo, hi))
        e = self.gen_int(c, d)
        if lo <= e.lo and e.hi <= hi:
            return e
        m = hi - lo + 1
        if e.lo == INT_MIN or m > (1 << 63) - 1:  # no ABS of INT_MIN; no literal for 2^63
            return self.lit(r.randint(lo, hi))
        a = self.call(self.bi('ABS'), [e], 0, max(abs(e.lo), abs(e.hi)))
        t = self.binop('mod', a, self.lit(m), P_MUL, 0, m - 1)
        if lo == 0:
            return Ex(t.t, t.p, lo, hi)
        return self.binop('+', self.lit(lo), t, P_ADD, lo, hi)

    def pure_int_in(self, c, lo, hi):
        """An integer expression in [lo, hi] without side effects (it may be evaluated twice)."""
        r = self.r
        k = r.randrange(4)
        if k == 0:
            act = [(n, iv) for n, iv in c.iv.items() if lo <= iv[0] and iv[1] <= hi and n in c.scope]
            if act:
                n, iv = r.choice(act)
                return Ex(self.nm(c.scope[n].name), P_ATOM, iv[0], iv[1])
        if k == 1:
            vs = self.readable_int(c)
            if vs:
                v = r.choice(vs)
                vlo, vhi = self.int_interval(c, v)
                if lo <= vlo and vhi <= hi:
                    return Ex(self.nm(v.name), P_ATOM, vlo, vhi)
                if vlo > INT_MIN:
                    m = hi - lo + 1
                    a = self.call(self.bi('ABS'), [Ex(self.nm(v.name))], 0, max(abs(vlo), abs(vhi)))
                    t = self.binop('mod', a, self.lit(m), P_MUL, 0, m - 1)
                    if lo == 0:
                        return Ex(t.t, t.p, lo, hi)
                    return self.binop('+', self.lit(lo), t, P_ADD, lo, hi)
        return self.lit(r.randint(lo, hi))

    def gen_int_store(self, c, d):
        """An integer expression in [-B, B], for storing in a variable."""
        e = self.gen_int(c, d)
        if -B <= e.lo and e.hi <= B:
            return e
        m = self.r.choice([B, 1000, 97, 65536, 999983])
        if e.lo >= 0:
            lo, hi = 0, m - 1
        else:
            lo, hi = -(m - 1), m - 1
        return self.binop('mod', e, self.lit(m), P_MUL, lo, hi)

    def tame_round(self, c, d):
        """TRUNC or ROUND of a real computed from a bounded integer: a sure interval."""
        r = self.r
        a = self.gen_int(c, d - 1)
        if a.lo < -(1 << 50) or a.hi > (1 << 50):
            a = self.gen_int_store(c, 0)
        f = r.randrange(4)
        if f == 0:
            k = r.choice([2, 3, 4, 7, -2, 10])
            e = self.binop('/', a, self.lit(k), P_MUL)
            bound = max(abs(a.lo), abs(a.hi)) // abs(k) + 1
        elif f == 1:
            e = self.binop('*', a, Ex('0.5'), P_MUL)
            bound = max(abs(a.lo), abs(a.hi)) // 2 + 1
        elif f == 2:
            e = self.binop(r.choice('+-'), a, Ex(r.choice(['0.5', '2.5', '0.25', '1.5'])), P_ADD)
            bound = max(abs(a.lo), abs(a.hi)) + 3
        else:
            e = self.binop('/', a, Ex('4.0'), P_MUL)
            bound = max(abs(a.lo), abs(a.hi)) // 4 + 1
        return self.call(self.bi(r.choice(['TRUNC', 'ROUND'])), [e], -bound, bound)

    # ------------------------------------------------------------------ booleans

    def gen_bool(self, c, d):
        r = self.r
        if d <= 0 or r.random() < 0.2:
            return self.bool_leaf(c)
        k = r.randrange(100)
        if k < 25:
            a = self.gen_int(c, d - 1)
            b = self.gen_int(c, d - 1)
            return self.binop(r.choice(['=', '<>', '<', '<=', '>', '>=']), a, b, P_REL)
        if k < 33:
            a = self.gen_real(c, d - 1)
            b = self.gen_real(c, d - 1) if r.random() < 0.6 else self.gen_int(c, d - 1)
            if r.random() < 0.5:
                a, b = b, a
            return self.binop(r.choice(['=', '<>', '<', '<=', '>', '>=']), a, b, P_REL)
        if k < 43:
            a = self.gen_bool(c, d - 1)
            b = self.gen_bool(c, d - 1)
            return self.bool_binop(a, b)
        if k < 50:
            return self.prefix('not', self.gen_bool(c, d - 1))
        if k < 58:
            kind = r.choice(['slice', 'word'])
            L = self.pick_len()
            a = self.gen_bits(c, kind, L, d - 1)
            b = self.gen_bits(c, kind, L, d - 1)
            return self.binop(r.choice(['=', '<>']), a, b, P_REL)
        if k < 66:
            e = self.gen_bits_any(c, r.choice(['slice', 'word']), d - 1)
            return self.call(self.bi(r.choice(['SOME', 'ZERO'])), [e])
        if k < 74:
            L = self.pick_len()
            a = self.gen_bits(c, 'word', L, d - 1)
            b = self.gen_bits(c, 'word', L, d - 1)
            return self.call(self.bi(r.choice(['EQ', 'NOTEQ', 'LESS', 'LESSEQ', 'GREAT', 'GREATEQ'])),
                             [a, b])
        if k < 78:
            ts = self.tables(c) + self.tables(c, None)
            if ts:
                a, b = r.choice(ts), r.choice(ts)
                return self.binop(r.choice(['=', '<>']), Ex(self.nm(a.name)), Ex(self.nm(b.name)), P_REL)
        if k < 82:
            a = self.gen_str(c, d - 1)
            b = self.gen_str(c, d - 1)
            return self.binop(r.choice(['=', '<>']), a, b, P_REL)
        if k < 86:
            a = self.gen_bool(c, d - 1)
            b = self.gen_bool(c, d - 1)
            return self.binop(r.choice(['=', '<>']), a, b, P_REL)
        if k < 94:
            e = self.call_func(c, 'bool', d)
            if e is not None:
                return e
        return self.bool_leaf(c)

    def bool_binop(self, a, b):
        op = self.r.choice(['and', 'or', 'xor'])
        return self.binop(op, a, b, P_MUL if op == 'and' else P_ADD)

    def bool_leaf(self, c):
        r = self.r
        vs = self.visible(c, ('bool',))
        if vs and r.random() < 0.6:
            return Ex(self.nm(r.choice(vs).name))
        if r.random() < 0.5:
            return Ex(self.kw(r.choice(['true', 'false'])))
        a = self.int_leaf(c)
        b = self.int_leaf(c)
        return self.binop(r.choice(['=', '<>', '<', '<=', '>', '>=']), a, b, P_REL)

    # ------------------------------------------------------------------ reals

    def gen_real(self, c, d):
        r = self.r
        if d <= 0 or r.random() < 0.25:
            return self.real_leaf(c)
        k = r.randrange(100)
        if k < 35:
            a = self.gen_real(c, d - 1)
            b = self.gen_real(c, d - 1) if r.random() < 0.7 else self.gen_int(c, d - 1)
            if r.random() < 0.5:
                a, b = b, a
            op = r.choice('+-*/')
            return self.binop(op, a, b, P_ADD if op in '+-' else P_MUL)
        if k < 40:
            a = self.gen_int(c, d - 1)
            b = self.gen_int(c, d - 1)
            return self.binop('/', a, b, P_MUL)
        if k < 45:
            return self.prefix('-', self.gen_real(c, d - 1))
        if k < 65:
            f = r.choice(['SQRT', 'EXP', 'LN', 'SIN', 'COS', 'ARCTAN', 'ABS'])
            a = self.gen_real(c, d - 1) if r.random() < 0.8 else self.gen_int(c, d - 1)
            if f == 'ABS' and not a.t[0].isdigit():
                a = self.gen_real(c, d - 1)
            if f == 'ABS':
                # ABS of an integer is an integer: make sure the argument is real
                a = self.binop('*', a, Ex('1.0'), P_MUL)
            return self.call(self.bi(f), [a])
        if k < 70:
            a = self.gen_real(c, d - 1)
            b = self.gen_real(c, d - 1) if r.random() < 0.6 else self.gen_int(c, d - 1)
            return self.call(self.bi('POWER'), [a, b])
        if k < 78:
            L = r.choice([32, 64])
            return self.call(self.bi('FVAL'), [self.gen_bits(c, 'word', L, d - 1)])
        if k < 90:
            e = self.call_func(c, 'real', d)
            if e is not None:
                return e
        return self.real_leaf(c)

    def real_leaf(self, c):
        r = self.r
        vs = self.visible(c, ('real',))
        k = r.randrange(10)
        if vs and k < 5:
            return Ex(self.nm(r.choice(vs).name))
        if k < 8:
            t = self.real_lit()
            return Ex(t)
        reals = [i for i, a in enumerate(self.args) if is_real_text(a)]
        if reals and r.random() < 0.5:
            i = r.choice(reals)
            return self.call(self.bi('StrToReal'), [self.call(self.bi('ParamStr'), [str(i + 1)])])
        s = r.choice(['2.5', '-0', '.5', '1.', '1E5', '-Infinity', 'nan', 'INF', '1e-320', '+3.75',
                      '6.02214076e23', '-2.5e-3', '0.1'])
        return self.call(self.bi('StrToReal'), [self.strlit(s)])

    def gen_realish(self, c, d):
        if self.r.random() < 0.25:
            return self.gen_int(c, d)
        return self.gen_real(c, d)

    # ------------------------------------------------------------------ strings

    def gen_str(self, c, d):
        r = self.r
        k = r.randrange(10)
        vs = self.visible(c, ('str',))
        if vs and k < 4:
            return Ex(self.nm(r.choice(vs).name))
        if k < 6 and d > 0:
            e = self.call_func(c, 'str', d)
            if e is not None:
                return e
        if k < 8:
            n = len(self.args)
            i = self.gen_int_in(c, 0, n, max(0, d - 1))
            return self.call(self.bi('ParamStr'), [i])
        return Ex(self.strlit(self.rand_string()))

    def rand_string(self):
        r = self.r
        return r.choice(['', 'a', 'star', "it's", 'x y', '\u00fcber', '\u2713 ok', '{not a comment}',
                         '(* no *)', '//', '%101', 'line', 'A', 'Hello, World', "''", 'tab\tin',
                         '12', '-0', ' '])

    # ------------------------------------------------------------------ slices and words

    def pick_len(self):
        r = self.r
        if r.random() < 0.85:
            return r.choice(self.lens)
        return r.choice([0, 1, 2, 63, 64, 65, 128, 129])

    def gen_bits(self, c, kind, L, d):
        """A slice or word expression of exactly L components."""
        r = self.r
        other = 'word' if kind == 'slice' else 'slice'
        if d <= 0 or r.random() < 0.2:
            return self.bits_leaf(c, kind, L)
        k = r.randrange(100)
        if k < 12:
            return self.prefix('not', self.gen_bits(c, kind, L, d - 1))
        if k < 30:
            a = self.gen_bits(c, kind, L, d - 1)
            b = self.gen_bits(c, kind, L, d - 1)
            op = r.choice(['and', 'or', 'xor'])
            return self.binop(op, a, b, P_MUL if op == 'and' else P_ADD)
        if k < 36:
            return self.call(self.bi('FRST'), [self.gen_bits(c, kind, L, d - 1)])
        if k < 44:
            return self.call(self.bi('CONVERT'), [self.gen_bits(c, other, L, d - 1)])
        if k < 54:
            if kind == 'slice':
                ts = [t for t in self.tables(c) if t.R == L and t.C >= 1]
                if ts:
                    t = r.choice(ts)
                    j = self.gen_int_in(c, 1, t.C, d - 1)
                    return self.call(self.bi('COL'), [j, self.nm(t.name)])
            else:
                ts = [t for t in self.tables(c) if t.C == L and t.R >= 1]
                if ts:
                    t = r.choice(ts)
                    i = self.gen_int_in(c, 1, t.R, d - 1)
                    return self.call(self.bi('ROW'), [i, self.nm(t.name)])
        if kind == 'word' and L >= 1 and k < 80:
            w = r.randrange(6)
            if w == 0:
                M = r.choice([m for m in self.lens + [L, L + 1, L + 7, 64, 129] if m >= L])
                src = self.gen_bits(c, 'word', M, d - 1)
                s = self.pure_int_in(c, 1, M - L + 1)
                if s.lo == s.hi:
                    e = self.lit(s.lo + L - 1)
                else:
                    e = self.binop('+', s, self.lit(L - 1), P_ADD)
                return self.call(self.bi('TRIM'), [s, e, src])
            if w == 1:
                a = self.gen_bits(c, 'word', L, d - 1)
                b = self.gen_bits(c, 'word', L, d - 1)
                return self.call(self.bi(r.choice(['ADD', 'SUBT'])), [a, b])
            if w == 2:
                hi = (1 << L) - 1 if L < 63 else INT_MAX
                n = self.gen_int(c, d - 1)
                if not (0 <= n.lo and n.hi <= hi):
                    if L >= 63:
                        if n.lo == INT_MIN:
                            n = self.lit(7)
                        else:
                            n = self.call(self.bi('ABS'), [n], 0, INT_MAX)
                    else:
                        n = self.gen_int_in(c, 0, hi, d - 1)
                return self.call(self.bi('BIN'), [n, str(L)])
            if w == 3 and L <= 64:
                lo, hi = -(1 << (L - 1)), (1 << (L - 1)) - 1
                n = self.gen_int(c, d - 1)
                if not (lo <= n.lo and n.hi <= hi):
                    n = self.gen_int_in(c, lo, hi, d - 1)
                return self.call(self.bi('SBIN'), [n, self.lit(L)])
            if w == 4 and L in (32, 64):
                return self.call(self.bi('FBIN'), [self.gen_realish(c, d - 1), str(L)])
            e = self.call_func(c, kind, d, L)
            if e is not None:
                return e
        if k < 90:
            e = self.call_func(c, kind, d, L)
            if e is not None:
                return e
        return self.bits_leaf(c, kind, L)

    def bits_leaf(self, c, kind, L):
        r = self.r
        vs = [v for v in self.visible(c, (kind,)) if v.L == L]
        if vs and (r.random() < 0.7 or L == 0 or L > 300):
            return Ex(self.nm(r.choice(vs).name))
        if L > 300:
            # no literal of thousands of digits: a column of a table, or a converted variable
            if kind == 'slice':
                ts = [t for t in self.tables(c) if t.R == L and t.C >= 1]
                if ts:
                    t = r.choice(ts)
                    return self.call(self.bi('COL'), [str(r.randint(1, t.C)), self.nm(t.name)])
            vo = [v for v in self.visible(c, ('slice', 'word')) if v.L == L]
            if vo:
                v = r.choice(vo)
                if v.kind == kind:
                    return Ex(self.nm(v.name))
                return self.call(self.bi('CONVERT'), [self.nm(v.name)])
        if L == 0:
            vs = [v for v in self.visible(c, ('slice', 'word')) if v.L == 0]
            if vs:
                v = r.choice(vs)
                if v.kind == kind:
                    return Ex(self.nm(v.name))
                return self.call(self.bi('CONVERT'), [self.nm(v.name)])
            raise RuntimeError('no empty slice or word')
        if kind == 'word':
            return Ex(self.wordlit(L))
        return self.call(self.bi('CONVERT'), [self.wordlit(L)])

    def gen_bits_any(self, c, kind, d):
        """A slice or word expression of any length."""
        r = self.r
        k = r.randrange(100)
        if k < 55:
            return self.gen_bits(c, kind, self.pick_len(), d)
        flex = [v for v in self.visible(c, (kind,)) if v.L is None]
        if k < 75 and flex:
            v = Ex(self.nm(r.choice(flex).name))
            f = r.randrange(5)
            if f == 0:
                return self.prefix('not', v)
            if f == 1:
                return self.call(self.bi('FRST'), [v])
            if f == 2:
                op = r.choice(['and', 'or', 'xor'])
                return self.binop(op, v, self.prefix('not', v) if r.random() < 0.5 else v,
                                  P_MUL if op == 'and' else P_ADD)
            return v
        if k < 82:
            other = 'word' if kind == 'slice' else 'slice'
            oflex = [v for v in self.visible(c, (other,)) if v.L is None]
            if oflex:
                return self.call(self.bi('CONVERT'), [self.nm(r.choice(oflex).name)])
        if k < 90 and kind == 'word':
            M = r.choice([m for m in self.lens if m >= 1] or [5])
            src = self.gen_bits(c, 'word', M, d - 1)
            s = self.pure_int_in(c, 1, M)
            # the end: s .. M, computed at run time
            t = self.binop('mod', self.call(self.bi('ABS'), [self.gen_int_store(c, 0)]),
                           self.lit(M - s.hi + 1), P_MUL)
            e = self.binop('+', s, t, P_ADD)
            return self.call(self.bi('TRIM'), [s, e, src])
        e = self.call_func(c, kind, d, None)
        if e is not None:
            return e
        return self.gen_bits(c, kind, self.pick_len(), d)

    # ------------------------------------------------------------------ calls of user functions

    def call_func(self, c, kind, d, L='none'):
        """A call of a user function with result type kind (length L for slices and words)."""
        r = self.r
        fs = [f for f in c.callable if f.is_func and f.rkind == kind]
        if kind in ('slice', 'word'):
            fs = [f for f in fs if f.rL == L]
        if not fs or c.pure or c.nocalls or d <= 0:
            return None
        f = r.choice(fs)
        if not self.afford(c, f.cost) or not self.afford_writes(c, f):
            return None
        args = self.gen_args(c, f, d - 1)
        if args is None:
            return None
        if f.depth is not None:
            args[0] = str(r.randint(0, f.dmax))
        self.charge(c, f.cost)
        c.writes += f.writes * c.mult
        if kind == 'int':
            lo, hi = -B, B
        else:
            lo = hi = None
        if not f.params and r.random() < 0.5:
            return Ex(self.nm(f.name), P_ATOM, lo, hi)
        return self.call(self.nm(f.name), args, lo, hi)

    def gen_args(self, c, f, d):
        args = []
        for p in f.params:
            if p.byref:
                vs = self.ref_candidates(c, p)
                if not vs:
                    return None
                args.append(self.nm(self.r.choice(vs).name))
            else:
                args.append(self.gen_value(c, p, d).t)
        return args

    def ref_candidates(self, c, p):
        if p.kind in ('slice', 'word'):
            return self.writable(c, p.kind, p.L)
        if p.kind == 'table':
            if p.R is None:
                return self.writable(c, 'table', R=None)
            return self.writable(c, 'table', R=p.R, C=p.C)
        return self.writable(c, p.kind)

    def gen_value(self, c, p, d):
        r = self.r
        if p.kind == 'int':
            if p.role == 'fixed':
                return self.size_expr(c, p.value, local=True)
            return self.gen_int_store(c, d)
        if p.kind == 'real':
            return self.gen_realish(c, d)
        if p.kind == 'bool':
            return self.gen_bool(c, d)
        if p.kind == 'str':
            return self.gen_str(c, d)
        if p.kind in ('slice', 'word'):
            if p.L is None:
                return self.gen_bits_any(c, p.kind, d)
            return self.gen_bits(c, p.kind, p.L, d)
        # table
        ts = self.tables(c, p.R, p.C) if p.R is not None else self.tables(c) + self.tables(c, None)
        return Ex(self.nm(r.choice(ts).name))

    def size_expr(self, c, n, local=False):
        """An integer expression equal to n that the compiler or a size declaration accepts."""
        r = self.r
        k = r.randrange(6)
        consts = [v for v in self.visible(c, ('int',)) if v.const and v.value == n]
        if k == 0 and consts:
            return Ex(self.nm(r.choice(consts).name), P_ATOM, n, n)
        if k == 1:
            cs = [v for v in self.visible(c, ('int',)) if v.const and abs(v.value) < 1000]
            if cs:
                v = r.choice(cs)
                rest = n - v.value
                return self.binop('+', Ex(self.nm(v.name)), self.lit(rest), P_ADD, n, n)
        if k == 2 and local:
            fx = [v for v in self.visible(c, ('int',)) if v.role == 'fixed' and v.value == n]
            if fx:
                return Ex(self.nm(r.choice(fx).name), P_ATOM, n, n)
        if k == 3 and n >= 1:
            a = r.randint(0, n)
            return self.binop('+', self.lit(a), self.lit(n - a), P_ADD, n, n)
        return self.lit(n)

    # ------------------------------------------------------------------ cost

    def afford(self, c, cost):
        return self.total_cost + c.cost + cost * c.mult <= self.budget

    def afford_writes(self, c, f):
        return c.writes + f.writes * c.mult <= self.out_budget

    def charge(self, c, cost):
        c.cost += cost * c.mult

    # ------------------------------------------------------------------ statements

    def block(self, c, n, ind):
        """n statements, as lines (without the separators)."""
        out = []
        for _ in range(n):
            if self.total_cost + c.cost > self.budget:
                break
            s = self.gen_stmt(c, ind)
            if s:
                out.append(s)
        return out

    def join(self, stmts, ind):
        """begin ... end around statements (each a list of lines)."""
        pad = '  ' * ind
        lines = [pad + self.kw('begin')]
        for i, s in enumerate(stmts):
            s = list(s)
            if i < len(stmts) - 1 or self.r.random() < 0.1:
                s[-1] = s[-1] + ';'
            if self.comment_rate and self.r.random() < self.comment_rate:
                lines.append(pad + '  ' + self.comment())
            lines.extend(s)
        if self.r.random() < 0.03:
            lines.append(pad + '  ;')
        lines.append(pad + self.kw('end'))
        return lines

    def gen_stmt(self, c, ind):
        r = self.r
        self.charge(c, 1)
        pad = '  ' * ind
        deep = c.nest >= 4
        k = r.randrange(100)
        if (self.units or self.user_natives) and r.random() < 0.06 and not c.pure:
            st = self.stdlib_stmt(c, ind)
            if st:
                return st
        if k < 22:
            return self.assign_stmt(c, ind)
        if k < 30:
            return self.write_stmt(c, ind)
        if k < 38:
            return self.bits_stmt(c, ind)
        if k < 44:
            return self.table_stmt(c, ind)
        if k < 52 and not deep:
            return self.if_stmt(c, ind)
        if k < 66 and not deep:
            return self.loop_stmt(c, ind)
        if k < 72 and c.loops > 0:
            return self.jump_stmt(c, ind)
        if k < 82:
            s = self.call_stmt(c, ind)
            if s:
                return s
        if k < 86 and not deep:
            c.nest += 1
            body = self.block(c, r.randint(0, 3), ind + 1)
            c.nest -= 1
            return self.join(body, ind)
        if k < 89 and self.use_stdlib and not c.pure:
            s = self.stdlib_stmt(c, ind)
            if s:
                return s
        if k < 91 and not c.pure:
            s = self.file_stmt(c, ind)
            if s:
                return s
        if k < 93:
            s = self.guarded_round(c, ind)
            if s:
                return s
        if r.random() < 0.5:
            s = self.oracle_stmt(c, ind)
            if s:
                return s
        if k < 94 and self.use_errors and not c.pure and r.random() < 0.3:
            cond = self.binop('and', self.gen_bool(c, 2), self.gen_bool(c, 1), P_MUL)
            msg = self.strlit(r.choice(['data-dependent stop', "stop: it's here", 'x=1 \u2717']))
            return [f"{pad}{self.kw('if')} {cond.t} {self.kw('then')} {self.bi('ERROR')}({msg})"]
        if k < 96 and c.routine is not None and not c.pure:
            cond = self.gen_bool(c, 1)
            return [f"{pad}{self.kw('if')} {cond.t} {self.kw('then')} {self.kw('exit')}"]
        return self.assign_stmt(c, ind)

    def assign_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        k = r.randrange(10)
        if c.routine is not None and c.routine.is_func and r.random() < 0.15:
            f = c.routine
            e = self.result_expr(c, f, 3)
            return [f'{pad}{self.nm(f.name)} := {e.t}']
        if k < 4:
            vs = self.writable(c, 'int')
            if vs:
                v = r.choice(vs)
                return [f'{pad}{self.nm(v.name)} := {self.gen_int_store(c, 3).t}']
        if k < 6:
            vs = self.writable(c, 'bool')
            if vs:
                v = r.choice(vs)
                return [f'{pad}{self.nm(v.name)} := {self.gen_bool(c, 3).t}']
        if k < 8:
            vs = self.writable(c, 'real')
            if vs:
                v = r.choice(vs)
                return [f'{pad}{self.nm(v.name)} := {self.gen_realish(c, 3).t}']
        if k < 9:
            vs = self.writable(c, 'str')
            if vs:
                v = r.choice(vs)
                return [f'{pad}{self.nm(v.name)} := {self.gen_str(c, 2).t}']
        return self.bits_assign(c, ind)

    def result_expr(self, c, f, d):
        if f.rkind == 'int':
            return self.gen_int_store(c, d)
        if f.rkind == 'bool':
            return self.gen_bool(c, d)
        if f.rkind == 'real':
            return self.gen_realish(c, d)
        if f.rkind == 'str':
            return self.gen_str(c, d)
        if f.rL is None:
            return self.gen_bits_any(c, f.rkind, d)
        return self.gen_bits(c, f.rkind, f.rL, d)

    def bits_assign(self, c, ind):
        r = self.r
        pad = '  ' * ind
        vs = self.writable(c, 'slice') + self.writable(c, 'word')
        if not vs:
            return self.write_stmt(c, ind)
        v = r.choice(vs)
        if v.L is None:
            e = self.gen_bits_any(c, v.kind, 3)
        else:
            e = self.gen_bits(c, v.kind, v.L, 3)
        self.charge(c, 1 + (v.L or 64) // 64)
        return [f'{pad}{self.nm(v.name)} := {e.t}']

    def write_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        if not self.can_write(c):
            return self.bits_assign_quiet(c, ind)
        items = []
        for _ in range(r.randint(0, 4)):
            if items and r.random() < 0.5:
                items.append(Ex(self.strlit(r.choice([' ', ', ', ' | ', ':', '']))))
            items.append(self.write_item(c))
        fn = self.bi(r.choice(['writeln', 'writeln', 'writeln', 'write']))
        if fn.lower() == 'write' and not items:
            items.append(self.write_item(c))
        if fn.lower() == 'write':
            items.append(Ex(self.strlit(';')))
        if not items:
            return [pad + fn + r.choice(['', '()'])]
        return [f"{pad}{fn}({', '.join(e.t for e in items)})"]

    def bits_assign_quiet(self, c, ind):
        vs = self.writable(c, 'int')
        if vs:
            v = self.r.choice(vs)
            return ['  ' * ind + f'{self.nm(v.name)} := {self.gen_int_store(c, 2).t}']
        return ['  ' * ind + self.kw('begin') + ' ' + self.kw('end')]

    def can_write(self, c):
        cost = c.mult
        if c.writes + cost > self.out_budget:
            return False
        c.writes += cost
        return True

    def write_item(self, c):
        r = self.r
        k = r.randrange(100)
        if k < 28:
            return self.gen_int(c, 3)
        if k < 40:
            return self.gen_bool(c, 2)
        if k < 52:
            return self.gen_real(c, 2)
        if k < 58:
            return self.gen_str(c, 1)
        if k < 85:
            return self.gen_bits_any(c, r.choice(['slice', 'word']), 3)
        if k < 90:
            ts = [t for t in self.tables(c) if t.R * t.C <= 300] + self.tables(c, None)
            if ts and c.mult <= 4:
                return Ex(self.nm(r.choice(ts).name))
        return self.gen_int(c, 2)

    def bits_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        vs = self.writable(c, 'slice') + self.writable(c, 'word')
        k = r.randrange(10)
        if not vs:
            return self.write_stmt(c, ind)
        v = r.choice(vs)
        name = self.nm(v.name)
        if k < 3 and v.L:
            i = self.gen_int_in(c, 1, v.L, 2)
            if r.random() < 0.6:
                val = self.gen_int_in(c, 0, 1, 2)
            else:
                val = self.gen_bool(c, 2)
            return [f'{pad}{name}({i.t}) := {val.t}']
        if k < 5:
            return [f"{pad}{self.bi(r.choice(['SET', 'CLR']))}({name})"]
        if k < 6:
            return [f"{pad}{self.bi('STEP')}({name})"]
        if k < 8:
            ws = [w for w in vs if w.kind == 'word' and w.L and w.L >= 1]
            if ws:
                w = r.choice(ws)
                n = r.randint(1, w.L)
                if r.random() < 0.5:
                    s = self.lit(r.randint(1, w.L - n + 1))
                    e = self.lit(s.lo + n - 1)
                else:
                    s = self.pure_int_in(c, 1, w.L - n + 1)
                    e = self.binop('+', s, self.lit(n - 1), P_ADD)
                val = self.gen_bits(c, 'word', n, 2)
                return [f"{pad}{self.bi('REP')}({s.t}, {e.t}, {val.t}, {self.nm(w.name)})"]
        return self.bits_assign(c, ind)

    def table_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        ts = self.writable(c, 'table', R='any', C='any')
        des = [t for t in ts if not t.flex]
        k = r.randrange(10)
        if k < 4 and des:
            t = r.choice(des)
            if r.random() < 0.5 and t.C >= 1:
                j = self.gen_int_in(c, 1, t.C, 2)
                self.charge(c, 1 + t.R // 64)
                return [f"{pad}{self.bi('COL')}({j.t}, {self.nm(t.name)}) := {self.gen_bits(c, 'slice', t.R, 2).t}"]
            if t.R >= 1:
                i = self.gen_int_in(c, 1, t.R, 2)
                self.charge(c, 1 + t.C // 64)
                return [f"{pad}{self.bi('ROW')}({i.t}, {self.nm(t.name)}) := {self.gen_bits(c, 'word', t.C, 2).t}"]
        if k < 6 and des:
            t = r.choice(des)
            srcs = self.tables(c, t.R, t.C)
            self.charge(c, 1 + t.R * t.C // 512)
            return [f'{pad}{self.nm(t.name)} := {self.nm(r.choice(srcs).name)}']
        if k < 7:
            fl = [t for t in ts if t.flex]
            if fl:
                t = r.choice(fl)
                srcs = self.tables(c) + self.tables(c, None)
                return [f'{pad}{self.nm(t.name)} := {self.nm(r.choice(srcs).name)}']
        if k < 9 and des:
            return self.fill_table(c, r.choice(des), ind)
        if des:
            st = self.update_loop(c, r.choice(des), ind)
            if st:
                return st
        return self.bits_stmt(c, ind)

    def update_loop(self, c, t, ind):
        """The papers' column (or row) update over the 1s of a selector, in one of the parallel
        forms (forall, STEP-while, SOME-STEP, for-if): `v := COL(i, T); v := v op x; COL(i, T) := v`
        with x a variable, as WARSHALL_C writes it (parallel on every engine)."""
        r = self.r
        pad = '  ' * ind
        cols = r.random() < 0.5
        L, n = (t.C, t.R) if cols else (t.R, t.C)  # the selector's length, v's length
        if L == 0 or n == 0:
            return None
        cost = L * (2 + n // 64)
        if not self.afford(c, cost):
            return None
        self.charge(c, cost)
        sk, vk = ('scanw', 'scans') if cols else ('scans', 'scanw')
        sel, x, v = self.reserve(c, sk), self.reserve(c, vk), self.reserve(c, vk)
        i = self.reserve(c, 'control')
        sn, xn, vn, iname, tn = (self.nm(u.name) for u in (sel, x, v, i, t))
        sel_kind, v_kind = ('word', 'slice') if cols else ('slice', 'word')
        at = f"{self.bi('COL' if cols else 'ROW')}({iname}, {tn})"
        op = self.kw(r.choice(['and', 'or', 'xor']))
        upd = f'{vn} {op} {xn}' if r.random() < 0.5 else f'{xn} {op} {vn}'
        body = [f'{vn} := {at};', f'{vn} := {upd};', f'{at} := {vn}']
        lines = [f'{sn} := {self.gen_bits(c, sel_kind, L, 2).t};',
                 f'{xn} := {self.gen_bits(c, v_kind, n, 2).t};',
                 f'{vn} := {xn};']
        c.iv[i.name.lower()] = (1, L)
        form = r.randrange(4)
        step, kw = self.bi('STEP'), self.kw
        if form == 0:
            lines += [f"{kw('forall')} {iname} {kw('in')} {sn} {kw('do')}", kw('begin')]
            lines += ['  ' + b for b in body]
        elif form == 1:
            lines += [f'{iname} := {step}({sn});', f"{kw('while')} {iname} > 0 {kw('do')}", kw('begin')]
            lines += ['  ' + b for b in body[:2]] + [f'  {body[2]};', f'  {iname} := {step}({sn})']
        elif form == 2:
            lines += [f"{kw('while')} {self.bi('SOME')}({sn}) {kw('do')}", kw('begin'),
                      f'  {iname} := {step}({sn});'] + ['  ' + b for b in body]
        else:
            a = r.randint(1, L)
            b = r.randint(a, L)
            lines += [f"{kw('for')} {iname} := {a} {kw('to')} {b} {kw('do')}",
                      f"  {kw('if')} {sn}({iname}) = 1 {kw('then')}", '  ' + kw('begin')]
            lines += ['    ' + b_ for b_ in body]
            lines.append('  ' + kw('end') + ';')
        if form != 3:
            lines.append(kw('end') + ';')
        shown = [iname, sn] + ([vn] if r.random() < 0.5 else [])
        lines.append(f"{self.bi('writeln')}({', '.join(shown)})")
        for u in (sel, x, v, i):
            self.release(c, u)
        return self.seq([pad + l for l in lines], ind)

    def fill_table(self, c, t, ind):
        """Fill table t with pseudo-random rows (a loop with a running word)."""
        r = self.r
        pad = '  ' * ind
        if t.R == 0 or t.C == 0:
            return [f'{pad}{self.bi("writeln")}({self.bi("ROWS")}({self.nm(t.name)}), {self.strlit("x")}, {self.bi("COLS")}({self.nm(t.name)}))']
        cost = t.R * 3
        if not self.afford(c, cost):
            return [pad + self.kw('begin') + ' ' + self.kw('end')]
        self.charge(c, cost)
        lc = self.reserve(c, 'control')
        fw = self.reserve(c, 'scanw')
        C = t.C
        inc = self.wordlit(C)
        if '1' not in inc:
            inc = '%' + '0' * (C - 1) + '1'
        mask = self.wordlit(C)
        sparse = r.random() < 0.3
        ln, fn_, tn = self.nm(lc.name), self.nm(fw.name), self.nm(t.name)
        lines = [f'{pad}{fn_} := {self.wordlit(C)};',
                 f"{pad}{self.kw('for')} {ln} := 1 {self.kw('to')} {t.R} {self.kw('do')}",
                 f"{pad}{self.kw('begin')}",
                 f"{pad}  {fn_} := {self.bi('ADD')}({fn_}, {inc});"]
        if sparse:
            lines.append(f"{pad}  {self.bi('ROW')}({ln}, {tn}) := {self.bi('FRST')}({fn_} {self.kw('xor')} {mask})")
        else:
            lines.append(f"{pad}  {self.bi('ROW')}({ln}, {tn}) := {fn_} {self.kw('xor')} {mask}")
        lines.append(f"{pad}{self.kw('end')}")
        self.release(c, lc)
        self.release(c, fw)
        return self.seq(lines, ind)

    # -------------------------------------------------- reserved variables (loop machinery)

    def reserve(self, c, role):
        """A reserved variable (counter, control, scan copy) of the current scope."""
        pool = c.reserved_pool.setdefault(role, [])
        for v in pool:
            if not getattr(v, 'value', None):
                v.value = True
                return v
        kind = {'counter': 'int', 'control': 'int', 'scans': 'slice', 'scanw': 'word'}[role]
        if c.routine is None:
            name = self.fresh({'counter': 'zk', 'control': 'zi', 'scans': 'zs', 'scanw': 'zw'}[role])
            v = Var(name, kind, role=role)
            self.add_global(v)
        else:
            name = self.fresh({'counter': 'qk', 'control': 'qi', 'scans': 'qs', 'scanw': 'qw'}[role])
            v = Var(name, kind, role=role, owner=c.routine)
            c.routine.locals.append(v)
            c.scope[name.lower()] = v
        v.value = True
        pool.append(v)
        return v

    def release(self, c, v):
        v.value = None
        c.iv.pop(v.name.lower(), None)

    # -------------------------------------------------- control flow

    def if_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        cond = self.gen_bool(c, 3)
        c.nest += 1
        then = self.sub_stmt(c, ind + 1)
        lines = [f"{pad}{self.kw('if')} {cond.t} {self.kw('then')}"] + then
        if r.random() < 0.45:
            els = self.sub_stmt(c, ind + 1)
            lines.append(pad + self.kw('else'))
            lines += els
        c.nest -= 1
        return lines

    def sub_stmt(self, c, ind):
        """One statement or a block (possibly empty)."""
        r = self.r
        k = r.random()
        if k < 0.05:
            return ['  ' * ind]           # an empty statement
        if k < 0.55:
            return self.join(self.block(c, r.randint(1, 3 if c.nest < 3 else 1), ind + 1), ind)
        s = self.gen_stmt(c, ind)
        return s if s else ['  ' * ind]

    def loop_body(self, c, ind, trips, cont_ok, pre=None, post=None):
        """The body of a loop with at most `trips` iterations."""
        r = self.r
        old = (c.mult, c.loops, c.cont_ok)
        c.mult *= max(1, trips)
        c.loops += 1
        c.cont_ok = cont_ok
        c.nest += 1
        n = r.randint(1, 4 if c.mult < 50 else 2)
        stmts = self.block(c, n, ind + 1)
        c.nest -= 1
        c.mult, c.loops, c.cont_ok = old
        pad = '  ' * (ind + 1)
        body = []
        if pre:
            body.append([pad + p for p in pre])
        body += stmts
        if post:
            body.append([pad + p for p in post])
        return self.join(body, ind)

    def trip_limit(self, c):
        room = max(1, 3000 // c.mult)
        return self.r.choice([1, 2, 3, 4, 5, 8, 10, 16, 40, 70, 130, 200][:6 if room < 100 else 12])

    def loop_stmt(self, c, ind):
        r = self.r
        if c.mult > 2000 or not self.afford(c, 10):
            return self.assign_stmt(c, ind)
        k = r.randrange(100)
        if k < 40:
            return self.for_stmt(c, ind)
        if k < 60:
            return self.while_stmt(c, ind)
        if k < 75:
            return self.repeat_stmt(c, ind)
        return self.scan_stmt(c, ind)

    def for_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        v = self.reserve(c, 'control')
        n = min(self.trip_limit(c), 200)
        down = r.random() < 0.35
        # the limits: a from [lo, lo+n], b likewise; trip count <= hi - lo + 1
        base = r.choice([1, 1, 1, 0, -3, 5, 100])
        a = self.limit_expr(c, base, base + n // 3)
        b = self.limit_expr(c, base + n // 3, base + n)
        if r.random() < 0.1:
            a, b = b, a          # maybe an empty loop
        if down:
            a, b = b, a
        lo = min(a.lo, b.lo)
        hi = max(a.hi, b.hi)
        trips = hi - lo + 1
        name = self.nm(v.name)
        c.iv[v.name.lower()] = (lo, hi)
        post = None
        if r.random() < 0.1:
            post = [f"{name} := {name} {'-' if down else '+'} 1"]
        body = self.loop_body(c, ind, trips, True, post=post)
        self.release(c, v)
        d = self.kw('downto') if down else self.kw('to')
        return [f"{pad}{self.kw('for')} {name} := {a.t} {d} {b.t} {self.kw('do')}"] + body

    def limit_expr(self, c, lo, hi):
        r = self.r
        k = r.randrange(6)
        if k == 0:
            vs = [v for v in self.visible(c, ('int',)) if (v.const or v.role == 'fixed') and lo <= v.value <= hi]
            if vs:
                v = r.choice(vs)
                return Ex(self.nm(v.name), P_ATOM, v.value, v.value)
        if k == 1 and lo <= 0:
            cands = [v for v in self.visible(c, ('slice', 'word')) if v.L is not None and v.L <= hi]
            if cands:
                v = r.choice(cands)
                f = r.choice(['LEN', 'NUMB', 'FND'])
                return self.call(self.bi(f), [self.nm(v.name)], 0 if f != 'LEN' else v.L, v.L)
        if k == 2 and lo <= 0:
            ts = [t for t in self.tables(c) if t.R <= hi and t.C <= hi]
            if ts:
                t = r.choice(ts)
                f = r.choice(['ROWS', 'COLS'])
                n = t.R if f == 'ROWS' else t.C
                return self.call(self.bi(f), [self.nm(t.name)], n, n)
        if k == 3:
            return self.gen_int_in(c, lo, hi, 2)
        return self.lit(r.randint(lo, hi))

    def while_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        k = self.reserve(c, 'counter')
        n = self.trip_limit(c)
        kn = self.nm(k.name)
        cond = self.gen_bool(c, 2)
        guard = self.binop('<', Ex(kn), self.lit(n), P_REL)
        if r.random() < 0.5:
            full = self.binop('and', guard, cond, P_MUL)
        else:
            full = self.binop('and', cond, guard, P_MUL)
        if r.random() < 0.15:
            full = guard
        body = self.loop_body(c, ind, n, True, pre=[f'{kn} := {kn} + 1'])
        self.release(c, k)
        return self.seq([f'{pad}{kn} := 0;', f"{pad}{self.kw('while')} {full.t} {self.kw('do')}"] + body, ind)

    def repeat_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        k = self.reserve(c, 'counter')
        n = self.trip_limit(c)
        kn = self.nm(k.name)
        old = (c.mult, c.loops, c.cont_ok)
        c.mult *= n
        c.loops += 1
        c.cont_ok = True
        c.nest += 1
        stmts = self.block(c, r.randint(1, 3), ind + 1)
        c.nest -= 1
        c.mult, c.loops, c.cont_ok = old
        cond = self.gen_bool(c, 2)
        guard = self.binop('>=', Ex(kn), self.lit(n), P_REL)
        full = self.binop('or', guard, cond, P_ADD) if r.random() < 0.8 else guard
        self.release(c, k)
        lines = [f'{pad}{kn} := 0;', pad + self.kw('repeat'), f'{pad}  {kn} := {kn} + 1']
        for s in stmts:
            lines[-1] += ';'
            lines += s
        lines.append(f"{pad}{self.kw('until')} {full.t}")
        return self.seq(lines, ind)

    def scan_stmt(self, c, ind):
        """A loop over the 1s of a copy of a slice or word, with STEP (the copy only shrinks)."""
        r = self.r
        pad = '  ' * ind
        kind = r.choice(['slice', 'word'])
        L = self.pick_len()
        if L == 0:
            L = 1
        src = self.gen_bits(c, kind, L, 2)
        s = self.reserve(c, 'scans' if kind == 'slice' else 'scanw')
        i = self.reserve(c, 'control')
        sn, iname = self.nm(s.name), self.nm(i.name)
        trips = min(L, self.trip_limit(c) * 4)
        if trips < L:
            # thin the copy out so that it has few 1s: FRST or an AND with a sparse literal
            src = self.call(self.bi('FRST'), [src]) if r.random() < 0.5 else \
                self.binop('and', src, self.sparse_bits(kind, L, trips), P_MUL)
        form = r.randrange(3)
        step = self.bi('STEP')
        if form == 0:
            c.iv[i.name.lower()] = (1, L)
            body = self.loop_body(c, ind, trips, True, pre=[f'{iname} := {step}({sn})'])
            lines = [f'{pad}{sn} := {src.t};',
                     f"{pad}{self.kw('while')} {self.bi('SOME')}({sn}) {self.kw('do')}"] + body
        elif form == 1:
            c.iv[i.name.lower()] = (1, L)
            body = self.loop_body(c, ind, trips, False, post=[f'{iname} := {step}({sn})'])
            lines = [f'{pad}{sn} := {src.t};', f'{pad}{iname} := {step}({sn});',
                     f"{pad}{self.kw('while')} {iname} > 0 {self.kw('do')}"] + body
        else:
            c.iv[i.name.lower()] = (0, L)
            old = (c.mult, c.loops, c.cont_ok)
            c.mult *= trips + 1
            c.loops += 1
            c.cont_ok = True
            c.nest += 1
            stmts = self.block(c, r.randint(1, 2), ind + 1)
            c.nest -= 1
            c.mult, c.loops, c.cont_ok = old
            lines = [f'{pad}{sn} := {src.t};', pad + self.kw('repeat'), f'{pad}  {iname} := {step}({sn})']
            for st in stmts:
                lines[-1] += ';'
                lines += st
            lines.append(f"{pad}{self.kw('until')} {iname} = 0")
        self.release(c, s)
        self.release(c, i)
        return self.seq(lines, ind)

    def sparse_bits(self, kind, L, n):
        r = self.r
        bits = ['0'] * L
        for _ in range(max(1, n)):
            bits[r.randrange(L)] = '1'
        w = '%' + ''.join(bits)
        if kind == 'word':
            return Ex(w)
        return self.call(self.bi('CONVERT'), [w])

    def seq(self, lines, ind):
        """Several statements (lines ending in ';' between them) as one compound statement."""
        pad = '  ' * ind
        return [pad + self.kw('begin')] + ['  ' + l for l in lines] + [pad + self.kw('end')]

    def jump_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        cond = self.gen_bool(c, 2)
        what = 'break' if (not c.cont_ok or r.random() < 0.5) else 'continue'
        if r.random() < 0.1:
            return [f"{pad}{self.kw('if')} {cond.t} {self.kw('then')} {self.kw(what)} {self.kw('else')}"]
        return [f"{pad}{self.kw('if')} {cond.t} {self.kw('then')} {self.kw(what)}"]

    # -------------------------------------------------- oracles: relations that must hold

    def oracle_stmt(self, c, ind):
        """`if not (relation) then ERROR('oracle failed: NAME')`: a property of the builtins that
        holds in every configuration; difftest.py reports the message as a failure. The operands
        are built without calls and STEP, so that evaluating them twice gives the same value."""
        r = self.r
        pad = '  ' * ind
        old = c.nocalls
        c.nocalls = True
        try:
            name, rel = self.oracle_relation(c)
        finally:
            c.nocalls = old
        if rel is None:
            return None
        msg = self.strlit('oracle failed: ' + name)
        return [f"{pad}{self.kw('if')} {self.kw('not')} ({rel}) {self.kw('then')} {self.bi('ERROR')}({msg})"]

    def oracle_relation(self, c):
        r = self.r
        bi, kw = self.bi, self.kw
        k = r.randrange(20)
        kind = r.choice(['slice', 'word'])
        L = self.pick_len()
        if k == 0:
            n = r.randint(1, 62)
            x = self.gen_int_in(c, 0, (1 << n) - 1, 2)
            return 'val_bin', f"{bi('VAL')}({bi('BIN')}({x.t}, {n})) = {self.paren(x).t}"
        if k == 1:
            n = r.randint(1, 64)
            x = self.gen_int_in(c, -(1 << (n - 1)), (1 << (n - 1)) - 1, 2) if n < 64 else self.gen_int(c, 2)
            return 'sval_sbin', f"{bi('SVAL')}({bi('SBIN')}({x.t}, {n})) = {self.paren(x).t}"
        a = self.gen_bits(c, kind, L, 2)
        if k == 2:
            return 'convert_convert', f"{bi('CONVERT')}({bi('CONVERT')}({a.t})) = {self.paren(a).t}"
        if k == 3:
            return 'numb_not', f"{bi('NUMB')}({a.t}) + {bi('NUMB')}({kw('not')} ({a.t})) = {bi('LEN')}({a.t})"
        if k == 4:
            return 'frst', (f"(({bi('FRST')}({a.t}) {kw('and')} ({a.t})) = {bi('FRST')}({a.t})) {kw('and')} "
                            f"({bi('NUMB')}({bi('FRST')}({a.t})) <= 1) {kw('and')} "
                            f"({bi('SOME')}({a.t}) = {bi('SOME')}({bi('FRST')}({a.t})))")
        b = self.gen_bits(c, kind, L, 2)
        if k == 5:
            return 'xor_xor', f"(({a.t}) {kw('xor')} ({b.t}) {kw('xor')} ({b.t})) = {self.paren(a).t}"
        if k == 6:
            return 'de_morgan', (f"({kw('not')} (({a.t}) {kw('and')} ({b.t}))) = "
                                 f"({kw('not')} ({a.t}) {kw('or')} {kw('not')} ({b.t}))")
        if k == 7:
            return 'zero_fnd', (f"({bi('ZERO')}({a.t}) = ({bi('FND')}({a.t}) = 0)) {kw('and')} "
                                f"({bi('SOME')}({a.t}) <> {bi('ZERO')}({a.t})) {kw('and')} "
                                f"({bi('FND')}({a.t}) = {bi('FND')}({bi('FRST')}({a.t})))")
        # words
        a = self.gen_bits(c, 'word', L, 2)
        b = self.gen_bits(c, 'word', L, 2)
        if k == 8:
            return 'add_subt', (f"({bi('ADD')}({bi('SUBT')}({a.t}, {b.t}), {b.t}) = {self.paren(a).t}) {kw('and')} "
                                f"({bi('ADD')}({a.t}, {b.t}) = {bi('ADD')}({b.t}, {a.t}))")
        if k == 9:
            return 'compare', (f"({bi('EQ')}({a.t}, {b.t}) = (({a.t}) = ({b.t}))) {kw('and')} "
                               f"({bi('LESS')}({a.t}, {b.t}) = {kw('not')} {bi('GREATEQ')}({a.t}, {b.t})) {kw('and')} "
                               f"({bi('GREAT')}({a.t}, {b.t}) = {bi('LESS')}({b.t}, {a.t})) {kw('and')} "
                               f"({bi('LESSEQ')}({a.t}, {b.t}) <> {bi('GREAT')}({a.t}, {b.t})) {kw('and')} "
                               f"({bi('NOTEQ')}({a.t}, {b.t}) = (({a.t}) <> ({b.t})))")
        if k == 10:
            L = r.choice([l for l in self.lens if l <= 63] + [1, 5, 62, 63])
            a = self.gen_bits(c, 'word', L, 2)
            b = self.gen_bits(c, 'word', L, 2)
            return 'less_val', (f"({bi('LESS')}({a.t}, {b.t}) = ({bi('VAL')}({a.t}) < {bi('VAL')}({b.t}))) {kw('and')} "
                                f"({bi('VAL')}({bi('ADD')}({a.t}, {b.t})) = ({bi('VAL')}({a.t}) + {bi('VAL')}({b.t})) {kw('mod')} {1 << L})"
                                if L <= 61 else
                                f"{bi('LESS')}({a.t}, {b.t}) = ({bi('VAL')}({a.t}) < {bi('VAL')}({b.t}))")
        if k == 11 and L >= 1:
            i = r.randint(1, L)
            j = r.randint(i, L)
            return 'trim_rep', (f"({bi('TRIM')}(1, {L}, {a.t}) = {self.paren(a).t}) {kw('and')} "
                                f"({bi('LEN')}({bi('TRIM')}({i}, {j}, {a.t})) = {j - i + 1}) {kw('and')} "
                                f"({bi('CONVERT')}({bi('TRIM')}({i}, {j}, {a.t})) = "
                                f"{bi('CONVERT')}({bi('TRIM')}({i}, {j}, {bi('CONVERT')}({bi('CONVERT')}({a.t})))))")
        if k == 12:
            x = self.gen_real(c, 2)
            return 'fval_fbin', (f"({bi('FVAL')}({bi('FBIN')}({x.t}, 64)) = ({x.t})) {kw('or')} (({x.t}) <> ({x.t}))")
        if k == 13:
            w = self.gen_bits(c, 'word', 64, 2)
            return 'fbin_fval', f"{bi('FBIN')}({bi('FVAL')}({w.t}), 64) = {self.paren(w).t}"
        if k == 14:
            x = self.gen_int_in(c, -B, B, 2)
            d = r.choice([1, 2, 3, 7, -1, -5, 64, 1000])
            return 'div_mod', (f"(({x.t}) {kw('div')} {d}) * {d} + (({x.t}) {kw('mod')} {d}) = {self.paren(x).t}")
        if k == 15:
            ts = [t for t in self.tables(c) if t.R >= 1 and t.C >= 1]
            if ts:
                t = r.choice(ts)
                i = self.pure_int_in(c, 1, t.R)
                j = self.pure_int_in(c, 1, t.C)
                tn = self.nm(t.name)
                return 'row_col', (f"{bi('TRIM')}({j.t}, {j.t}, {bi('ROW')}({i.t}, {tn})) = "
                                   f"{bi('TRIM')}({i.t}, {i.t}, {bi('CONVERT')}({bi('COL')}({j.t}, {tn})))")
        if k == 16:
            vs = [v for v in self.visible(c, ('slice', 'word')) if v.L and v.L >= 1]
            if vs:
                v = r.choice(vs)
                i = self.pure_int_in(c, 1, v.L)
                conv = f"{bi('CONVERT')}({self.nm(v.name)})" if v.kind == 'slice' else self.nm(v.name)
                return 'component', f"{bi('VAL')}({bi('TRIM')}({i.t}, {i.t}, {conv})) = {self.nm(v.name)}({i.t})"
        if k == 17:
            x = self.gen_int(c, 2)
            if x.lo > INT_MIN:
                return 'abs', f"({bi('ABS')}({x.t}) >= 0) {kw('and')} ({bi('ABS')}({x.t}) = {bi('ABS')}(-({x.t})))"
        if k == 18 and L >= 1:
            n = min(L, 62)
            return 'bin_val', f"{bi('BIN')}({bi('VAL')}({bi('TRIM')}(1, {n}, {a.t})), {n}) = {bi('TRIM')}(1, {n}, {a.t})"
        if k == 19:
            return 'sbin_sval', (f"{bi('SBIN')}({bi('SVAL')}({bi('TRIM')}(1, {max(1, min(L, 64))}, {a.t})), "
                                 f"{max(1, min(L, 64))}) = {bi('TRIM')}(1, {max(1, min(L, 64))}, {a.t})") if L >= 1 else None
        return 'len', f"{bi('LEN')}({a.t}) = {L}"

    def guarded_round(self, c, ind):
        r = self.r
        pad = '  ' * ind
        vs = self.writable(c, 'int')
        if not vs:
            return None
        v = r.choice(vs)
        x = self.gen_real(c, 2)
        f = self.bi(r.choice(['TRUNC', 'ROUND']))
        m = r.choice([1000, 97, B])
        return [f"{pad}{self.kw('if')} {self.bi('ABS')}({x.t}) < 1.0e15 {self.kw('then')} "
                f"{self.nm(v.name)} := {f}({x.t}) {self.kw('mod')} {m} {self.kw('else')} {self.nm(v.name)} := -1"]

    # -------------------------------------------------- calls

    def call_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        if c.pure:
            return None
        rs = [f for f in c.callable if f.depth is None or True]
        if not rs:
            return None
        f = r.choice(rs)
        cost = f.cost
        if not self.afford(c, cost) or not self.afford_writes(c, f):
            return None
        c.writes += f.writes * c.mult
        if f.depth is not None:
            args = self.gen_args(c, f, 2)
            if args is None:
                return None
            dv = r.randint(0, f.dmax)
            args[0] = str(dv)
        else:
            args = self.gen_args(c, f, 2)
            if args is None:
                return None
        self.charge(c, cost)
        if not args and r.random() < 0.5:
            return [pad + self.nm(f.name)]
        return [f"{pad}{self.nm(f.name)}({', '.join(args)})"]

    # -------------------------------------------------- files

    def newfile(self, ext='txt'):
        self.fileno += 1
        return f'f{self.fileno}.{ext}'

    def file_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        des = [t for t in self.tables(c) if t.R * t.C <= 20000]
        if not des or c.mult > 4:
            return None
        t = r.choice(des)
        if r.random() < 0.5:
            fname = self.strlit(self.newfile())
            targets = [u for u in self.writable(c, 'table', R=None)]
            if t.R >= 1 and t.C >= 1:
                targets += self.writable(c, 'table', R=t.R, C=t.C)
            if not targets:
                return None
            u = r.choice(targets)
            if not self.afford(c, 1000):
                return None
            self.charge(c, 1000)
            return self.seq([f"{pad}{self.bi('SAVE')}({self.nm(t.name)}, {fname});",
                             f"{pad}{self.bi('LOAD')}({self.nm(u.name)}, {fname})"], ind)
        if t.C < 1:
            return None
        layout = self.layout(t.C)
        fname = self.strlit(self.newfile('num'))
        targets = [u for u in self.writable(c, 'table', R=None)] + self.writable(c, 'table', R=t.R, C=t.C)
        if not targets:
            return None
        u = r.choice(targets)
        if not self.afford(c, 4000):
            return None
        self.charge(c, 4000)
        lay = self.strlit(layout)
        if r.random() < 0.3:
            lay = self.strlit(layout.upper())
        return self.seq([f"{pad}{self.bi('SAVENUM')}({self.nm(t.name)}, {fname}, {lay});",
                         f"{pad}{self.bi('LOADNUM')}({self.nm(u.name)}, {fname}, {lay})"], ind)

    def layout(self, C):
        r = self.r
        fields = []
        left = C
        while left > 0:
            opts = []
            if left >= 64 and r.random() < 0.3:
                opts.append('f64')
            if left >= 32 and r.random() < 0.3:
                opts.append('f32')
            w = r.randint(1, min(64, left))
            opts.append(r.choice(['u', 'i']) + str(w))
            f = r.choice(opts)
            fields.append(f)
            left -= 64 if f == 'f64' else 32 if f == 'f32' else int(f[1:])
        return r.choice([' ', '  ', ' ']).join(fields)

    # -------------------------------------------------- the standard library

    def stdlib_stmt(self, c, ind):
        r = self.r
        pad = '  ' * ind
        if not self.units and not self.user_natives:
            return None
        des = [t for t in self.tables(c)]
        if not des:
            return None
        choices = []
        if 'assoc' in self.units:
            choices += ['match', 'cmp', 'ext', 'cmpt', 'addw', 'addt', 'hit']
        if 'sort' in self.units:
            choices += ['sort', 'segsort', 'groupheads']
        if 'graphs' in self.units:
            choices += ['closure', 'warshall']
            if self.edges:
                choices += ['graphalg'] * 3
        if self.user_natives:
            choices += ['unative']
        if not choices:
            return None
        what = r.choice(choices)
        t = r.choice(des)
        R, C = t.R, t.C
        tn = self.nm(t.name)
        vt = [v for v in self.writable(c, 'table', R=R, C=C)]

        def xslice():
            return self.gen_bits(c, 'slice', R, 2).t

        def zvar():
            vs = self.writable(c, 'slice', None) + self.writable(c, 'slice', R)
            return self.nm(r.choice(vs).name) if vs else None

        def field(allow_empty=False):
            if C == 0:
                return 1, 0
            n = r.randint(0 if allow_empty else 1, C)
            first = r.randint(1, C - n + 1)
            return first, n
        cost = (R + 8) * (C + 8) // 4 + 20
        if what in ('sort', 'segsort'):
            cost = (R + 8) * 70
        if not self.afford(c, cost):
            return None
        self.charge(c, cost)
        if what == 'match':
            z = zvar()
            if z is None:
                return None
            f = r.choice(['MATCH', 'MATCHF', 'LESSP', 'GREATP', 'EQUALP', 'LESSPF', 'GREATPF', 'EQUALPF'])
            if f.endswith('F'):
                first, n = field(True)
                if n == 0 and r.random() < 0.5:
                    first = r.randint(0, C + 2)
                return [f"{pad}{f}({tn}, {xslice()}, {first}, {self.gen_bits(c, 'word', n, 2).t}, {z})"]
            return [f"{pad}{f}({tn}, {xslice()}, {self.gen_bits(c, 'word', C, 2).t}, {z})"]
        if what == 'ext':
            z = zvar()
            if z is None:
                return None
            f = r.choice(['MINROW', 'MAXROW', 'MINROWF', 'MAXROWF'])
            if f.endswith('F'):
                first, n = field(True)
                if n == 0 and r.random() < 0.5:
                    first = r.randint(0, C + 2)
                return [f'{pad}{f}({tn}, {xslice()}, {first}, {n}, {z})']
            return [f'{pad}{f}({tn}, {xslice()}, {z})']
        if what == 'cmpt':
            z = zvar()
            if z is None:
                return None
            u = r.choice(self.tables(c, R, C))
            f = r.choice(['LESST', 'EQUALT', 'GREATT'])
            return [f'{pad}{f}({tn}, {self.nm(u.name)}, {xslice()}, {z})']
        if what == 'addw':
            if not vt:
                return None
            v = self.nm(r.choice(vt).name)
            f = r.choice(['ADDW', 'SUBW', 'ADDWF', 'SUBWF'])
            if f.endswith('F'):
                first, n = field(True)
                if n == 0 and r.random() < 0.5:
                    first = r.randint(0, C + 2)
                return [f"{pad}{f}({v}, {xslice()}, {first}, {self.gen_bits(c, 'word', n, 2).t})"]
            return [f"{pad}{f}({v}, {xslice()}, {self.gen_bits(c, 'word', C, 2).t})"]
        if what == 'addt':
            targets = self.writable(c, 'table', R=None) + vt
            if not targets:
                return None
            u = r.choice(self.tables(c, R, C))
            f = r.choice(['ADDT', 'SUBT2'])
            return [f'{pad}{f}({tn}, {self.nm(u.name)}, {xslice()}, {self.nm(r.choice(targets).name)})']
        if what == 'hit':
            z = zvar()
            if z is None:
                return None
            us = [u for u in self.tables(c) if u.C == C]
            u = r.choice(us)
            return [f"{pad}HIT({tn}, {self.nm(u.name)}, {xslice()}, {self.gen_bits(c, 'slice', u.R, 2).t}, {z})"]
        if what in ('sort', 'segsort'):
            if not vt or C == 0:
                return None
            v = self.nm(r.choice(vt).name)
            kind = r.choice([0, 1, 2])
            if kind == 2 and C < 32:
                kind = r.choice([0, 1])
            if kind == 2:
                n = r.choice([m for m in (32, 64) if m <= C])
            else:
                n = r.randint(1, min(64, C))
            first = r.randint(1, C - n + 1)
            desc = self.gen_bool(c, 1).t
            firstt = self.gen_int_in(c, first, first, 0).t if r.random() < 0.3 else str(first)
            if what == 'sort':
                return [f'{pad}SORT({v}, {xslice()}, {firstt}, {n}, {kind}, {desc})']
            return [f"{pad}SEGSORT({v}, {xslice()}, {xslice()}, {firstt}, {n}, {kind}, {desc})"]
        if what == 'groupheads':
            if not vt:
                return None
            z = zvar()
            if z is None:
                return None
            first, n = field(True)
            return [f'{pad}GROUPHEADS({self.nm(r.choice(vt).name)}, {first}, {n}, {z})']
        if what == 'closure':
            if not vt or R > C:
                return None
            v = self.nm(r.choice(vt).name)
            return [f'{pad}CLOSURE({v})']
        if what == 'warshall':
            if not vt:
                return None
            v = self.nm(r.choice(vt).name)
            n = r.randint(0, min(R, C))
            return [f"{pad}{r.choice(['WARSHALL', 'WARSHALL_C'])}({n}, {v})"]
        if what == 'graphalg':
            return self.graph_alg(c, ind)
        if what == 'unative':
            if not vt:
                return None
            v = self.nm(r.choice(vt).name)
            which = r.choice(self.user_natives)
            if which == 'uclosure':
                if R > C:
                    return None
                return [f'{pad}{which}({v})']
            if which == 'uext':
                z = zvar()
                if z is None:
                    return None
                first, n = field(True)
                if n == 0 and r.random() < 0.5:
                    first = r.randint(0, C + 2)
                return [f'{pad}uext({v}, {xslice()}, {first}, {n}, {self.gen_bool(c, 1).t}, {z})']
            first, n = field(True)
            if n == 0 and r.random() < 0.5:
                first = r.randint(0, C + 2)
            return [f"{pad}{which}({v}, {xslice()}, {first}, {self.gen_bits(c, 'word', n, 2).t})"]
        return None

    # ------------------------------------------------------------------ declarations

    def add_global(self, v, sizeexpr=None):
        v.sizeexpr = sizeexpr
        self.globals[v.name.lower()] = v
        self.gorder.append(('var', v))

    def type_text(self, v):
        k = v.kind
        base = {'int': 'integer', 'bool': 'boolean', 'real': 'real', 'str': 'string',
                'slice': 'slice', 'word': 'word', 'table': 'table'}[k]
        base = self.kw(base)
        if v.sized and not v.param:
            return f'{base}({v.sizeexpr})'
        return base

    def make_globals(self):
        r = self.r
        # constants
        nconst = r.randint(1, 3 + self.size)
        self.consts = []
        for _ in range(nconst):
            kind = r.choice(['int', 'int', 'int', 'bool', 'real', 'str', 'word'])
            name = self.fresh('c')
            ints = [v for v in self.consts if v.kind == 'int']
            if kind == 'int':
                k = r.randrange(4)
                if k == 0 and ints:
                    a = r.choice(ints)
                    b = r.randint(1, 9)
                    op = r.choice(['+', '-', '*', 'div', 'mod'])
                    val = {'+': a.value + b, '-': a.value - b, '*': a.value * b,
                           'div': int(a.value / b), 'mod': a.value - b * int(a.value / b)}[op]
                    text = f'{a.name} {self.kw(op) if op[0].isalpha() else op} {b}'
                elif k == 1:
                    val = r.choice(self.lens)
                    text = str(val)
                elif k == 2 and ints:
                    a = r.choice(ints)
                    val = -a.value
                    text = f'-{a.name}'
                else:
                    val = r.randint(-5, 300)
                    text = str(val) if val >= 0 else f'-{-val}'
                v = Var(name, 'int', const=True, value=val)
            elif kind == 'bool':
                bs = [v for v in self.consts if v.kind == 'bool']
                if bs and r.random() < 0.5:
                    a = r.choice(bs)
                    val = not a.value
                    text = f"{self.kw('not')} {a.name}"
                else:
                    val = r.random() < 0.5
                    text = self.kw('true' if val else 'false')
                v = Var(name, 'bool', const=True, value=val)
            elif kind == 'real':
                rs = [v for v in self.consts if v.kind == 'real']
                if rs and r.random() < 0.4:
                    text = '-' + r.choice(rs).name
                else:
                    text = self.real_lit()
                    if r.random() < 0.3:
                        text = '-' + text
                v = Var(name, 'real', const=True)
            elif kind == 'str':
                text = self.strlit(self.rand_string())
                v = Var(name, 'str', const=True)
            else:
                L = r.choice([l for l in self.lens if l >= 1] or [4])
                text = self.wordlit(L)
                v = Var(name, 'word', L=L, const=True)
            self.consts.append(v)
            self.globals[name.lower()] = v
            self.gorder.append(('const', v, text))
        # anchors: an empty slice and word, and a sized table of every shape
        self.add_global(Var(self.fresh('xe'), 'slice', L=0, role='anchor'))
        self.add_global(Var(self.fresh('xe'), 'word', L=0, role='anchor'))
        for (R, C) in self.shapes:
            v = Var(self.fresh('xa'), 'table', R=R, C=C, sized=True, role='anchor')
            self.add_global(v, self.table_size_text(R, C))
        # long slices and words (--big): sized variables of every long length
        for L in sorted(set(self.big)):
            for kind in ('slice', 'word'):
                v = Var(self.fresh('gs' if kind == 'slice' else 'gw'), kind, L=L, sized=True)
                self.add_global(v, self.size_expr(Ctx(self, self.globals), L).t)
        # ordinary globals
        n = r.randint(6, 10 + 4 * self.size)
        for _ in range(n):
            self.new_global()

    def table_size_text(self, R, C):
        g = Ctx(self, self.globals)
        return f'{self.size_expr(g, R).t}, {self.size_expr(g, C).t}'

    def new_global(self, unit=False):
        r = self.r
        kind = r.choice(['int', 'int', 'int', 'bool', 'real', 'str', 'slice', 'slice', 'word', 'word',
                         'word', 'table'])
        prefix = {'int': 'gi', 'bool': 'gb', 'real': 'gr', 'str': 'gt', 'slice': 'gs', 'word': 'gw',
                  'table': 'gm'}[kind]
        v = Var(self.fresh(prefix), kind)
        g = Ctx(self, self.globals)
        size = None
        if kind in ('slice', 'word'):
            k = r.randrange(10)
            if k < 5:
                v.L = r.choice(self.lens)
                v.sized = True
                size = self.size_expr(g, v.L).t
                if r.random() < 0.2:
                    # sized from an earlier sized table: slice(T) / word(T)
                    ts = [t for t in self.globals.values() if t.kind == 'table' and t.sized
                          and (t.R if kind == 'slice' else t.C) in self.lens]
                    if ts:
                        t = r.choice(ts)
                        v.L = t.R if kind == 'slice' else t.C
                        size = t.name
                elif r.random() < 0.1:
                    # sized from an earlier integer variable: 0 at program start
                    ints = [i for i in self.globals.values() if i.kind == 'int' and not i.const
                            and i.role == 'normal']
                    if ints:
                        v.L = 0
                        size = r.choice(ints).name
            elif k < 8:
                v.L = r.choice(self.lens)
                if unit and v.L:
                    # a unit has no body to give an unsized variable its length: size it
                    v.sized = True
                    size = self.size_expr(g, v.L).t
            else:
                v.L = None
        elif kind == 'table':
            R, C = r.choice(self.shapes)
            v.R, v.C = R, C
            k = r.randrange(10)
            if k < 6 or (unit and k < 8):
                v.sized = True
                size = self.table_size_text(R, C)
            elif k < 8:
                pass
            else:
                v.R = v.C = None
        self.add_global(v, size)
        return v

    def make_unit(self):
        """A unit of the program's own (a data file beside it), with globals and routines."""
        r = self.r
        name = f'ulib{self.seed % 1000}'
        self.globals, self.gorder = {}, []
        saved_units = self.units
        self.units = []                  # the unit does not use the library
        self.add_global(Var(self.fresh('ue'), 'slice', L=0, role='anchor'))
        self.add_global(Var(self.fresh('ue'), 'word', L=0, role='anchor'))
        for (R, C) in self.shapes:
            self.add_global(Var(self.fresh('ua'), 'table', R=R, C=C, sized=True, role='anchor'),
                            self.table_size_text(R, C))
        for _ in range(r.randint(2, 6)):
            self.new_global(unit=True)
        for _ in range(r.randint(1, 3)):
            self.make_routine(recursive=r.random() < 0.2)
        for rt in self.routines:
            rt.in_unit = True
        lines = [f"{self.kw('unit')} {name};"] + self.decl_chunks()
        lines += [rt.text for rt in self.routines]
        # a procedure that fails in several ways, inside the unit, under a recursion
        ue = self.fresh('uerr')
        kw = self.kw
        lines.append(f"""{kw('procedure')} {ue}(d, k: {kw('integer')});
{kw('var')} w: {kw('word')}(3); T: {kw('table')}(2, 2);
{kw('begin')}
  {kw('if')} d > 0 {kw('then')} {ue}(d - 1, k)
  {kw('else')} {kw('if')} k = 0 {kw('then')} ERROR('unit ' + 'failed')
  {kw('else')} {kw('if')} k = 1 {kw('then')} writeln(7 {kw('div')} (k - 1))
  {kw('else')} {kw('if')} k = 2 {kw('then')} writeln(w(k + 2))
  {kw('else')} {kw('if')} k = 3 {kw('then')} ROW(k, T) := %11
  {kw('else')} writeln(BIN(-k, 8), w, T)
{kw('end')};""".replace("ERROR('unit ' + 'failed')", "ERROR('unit failed')"))
        self.unit_err = ue
        lines.append(self.kw('end') + '.')
        self.files[name + '.star'] = '\n'.join(lines) + '\n'
        self.unit_name = name
        self.units = saved_units
        self.gorder = []                 # the program's declarations start here

    # ------------------------------------------------------------------ routines

    def make_routines(self):
        r = self.r
        n = r.randint(1, 2 + 2 * self.size)
        for i in range(n):
            k = r.random()
            if k < 0.2:
                self.make_routine(recursive=True)
            else:
                self.make_routine()
        if r.random() < 0.3:
            self.make_forvar_routine()

    def new_param(self, rt, c):
        r = self.r
        kind = r.choice(['int', 'int', 'bool', 'real', 'str', 'slice', 'word', 'word', 'table'])
        prefix = {'int': 'ai', 'bool': 'ab', 'real': 'ar', 'str': 'aq', 'slice': 'as', 'word': 'aw',
                  'table': 'am'}[kind]
        name = self.fresh(prefix)
        if r.random() < 0.08:
            # hide a global of the same name
            gs = [g for g in self.globals.values() if g.role == 'normal']
            if gs:
                name = r.choice(gs).name
        p = Var(name, kind, param=True, owner=rt)
        p.byref = r.random() < 0.35
        if kind in ('slice', 'word'):
            p.L = None if r.random() < 0.25 else r.choice(self.lens)
        elif kind == 'table':
            if r.random() < 0.2:
                p.R = p.C = None
            else:
                p.R, p.C = r.choice(self.shapes)
        elif kind == 'int' and not p.byref and r.random() < 0.25:
            p.role = 'fixed'
            p.value = r.choice(self.lens)
        return p

    def routine_scope(self, rt):
        sc = dict(self.globals)
        for p in rt.params:
            sc[p.name.lower()] = p
        return sc

    def make_routine(self, recursive=False):
        r = self.r
        is_func = r.random() < 0.45
        rt = Routine(self.fresh('fn' if is_func else 'pr'), is_func)
        rt.locals = []
        rt.lconsts = []
        rt.index = len(self.routines)
        if recursive:
            d = Var(self.fresh('ad'), 'int', param=True, role='depth', owner=rt)
            rt.params.append(d)
            rt.depth = d
            rt.fanout = 2 if r.random() < 0.25 else 1
            rt.dmax = r.randint(1, 4) if rt.fanout == 2 else r.choice([3, 6, 10, 30, 200])
        for _ in range(r.randint(0, 4)):
            rt.params.append(self.new_param(rt, None))
        # no duplicate parameter names
        seen = set()
        ps = []
        for p in rt.params:
            if p.name.lower() in seen:
                continue
            seen.add(p.name.lower())
            ps.append(p)
        rt.params = ps
        if is_func:
            rt.rkind = r.choice(['int', 'int', 'bool', 'real', 'str', 'slice', 'word', 'word'])
            if rt.rkind in ('slice', 'word'):
                rt.rL = None if r.random() < 0.25 else r.choice(self.lens)
        sc = self.routine_scope(rt)
        c = Ctx(self, sc, rt)
        c.callable = list(self.routines)
        # local constants and variables
        for _ in range(r.randint(0, 2)):
            if r.random() < 0.5:
                v = Var(self.fresh('lc'), 'int', const=True, value=r.randint(-3, 70), owner=rt)
                rt.lconsts.append((v, str(v.value) if v.value >= 0 else f'-{-v.value}'))
                sc[v.name.lower()] = v
        for _ in range(r.randint(0, 5)):
            self.new_local(c, rt)
        rt.cost = 1
        body = []
        # prologue: give unsized designated locals their length, and the result a value
        pend = [v for v in rt.locals if not v.sized and
                ((v.kind in ('slice', 'word') and v.L) or (v.kind == 'table' and v.R is not None))]
        for v in pend:
            self.uninit.add(id(v))
        c.nocalls = True
        for v in pend:
            if v.kind in ('slice', 'word'):
                body.append([f'  {self.nm(v.name)} := {self.gen_bits(c, v.kind, v.L, 1).t}'])
            else:
                src = self.tables(c, v.R, v.C)
                body.append([f'  {self.nm(v.name)} := {self.nm(r.choice(src).name)}'])
            self.uninit.discard(id(v))
        c.nocalls = False
        if is_func:
            e = self.result_expr(c, rt, 2)
            body.append([f'  {self.nm(rt.name)} := {e.t}'])
        saved_budget = self.budget
        self.budget = self.total_cost + 3000 * self.size
        nst = r.randint(1, 3 + 2 * self.size)
        c.nest = 0
        stmts = self.block(c, nst, 1)
        # the recursive step
        if recursive:
            rec = self.rec_step(c, rt)
            pos = r.randint(0, len(stmts))
            stmts[pos:pos] = rec
        body += stmts
        # read every local once (no "never used" warnings)
        body.append(self.local_dump(c, rt))
        self.budget = saved_budget
        rt.cost = max(1, c.cost)
        if recursive:
            if rt.fanout == 2:
                rt.cost = rt.cost * (2 ** (rt.dmax + 1))
            else:
                rt.cost = rt.cost * (rt.dmax + 1)
        rt.writes = c.writes * (rt.dmax + 1 if rt.fanout == 1 else 2 ** (rt.dmax + 1))
        rt.text = self.routine_text(rt, body)
        self.routines.append(rt)
        return rt

    def rec_step(self, c, rt):
        r = self.r
        d = self.nm(rt.depth.name)
        out = []
        for _ in range(rt.fanout):
            args = self.gen_args(c, rt, 1)
            if args is None:
                # no variable for a var parameter: pass the routine's own parameters
                args = [self.nm(p.name) if p.byref else self.gen_value(c, p, 1).t for p in rt.params]
            args[0] = f'{d} - 1'
            call = f"{self.nm(rt.name)}({', '.join(args)})"
            if rt.is_func:
                if rt.rkind == 'int':
                    stmt = f'{self.nm(rt.name)} := ({call} + {self.gen_int_in(c, -100, 100, 1).t}) {self.kw("mod")} {B}'
                elif rt.rkind == 'bool':
                    stmt = f"{self.nm(rt.name)} := {self.kw('not')} {call}"
                elif rt.rkind == 'real':
                    stmt = f'{self.nm(rt.name)} := {call} * 0.5 + 1.0'
                elif rt.rkind in ('slice', 'word'):
                    vs = [v for v in rt.locals if v.kind == rt.rkind and v.L is None and v.assignable()]
                    if rt.rL is not None:
                        stmt = f"{self.nm(rt.name)} := {self.kw('not')} {call}"
                    elif vs:
                        stmt = f'{self.nm(r.choice(vs).name)} := {call}'
                    else:
                        stmt = f"{self.bi('writeln')}({self.bi('LEN')}({call}))"
                else:
                    stmt = f"{self.bi('writeln')}({call})"
            else:
                stmt = call
            out.append(f"  {self.kw('if')} {d} > 0 {self.kw('then')} {stmt}")
        return [[s] for s in out]

    def new_local(self, c, rt):
        r = self.r
        kind = r.choice(['int', 'int', 'bool', 'real', 'str', 'slice', 'word', 'word', 'table'])
        prefix = {'int': 'li', 'bool': 'lb', 'real': 'lr', 'str': 'lt', 'slice': 'ls', 'word': 'lw',
                  'table': 'lm'}[kind]
        name = self.fresh(prefix)
        if r.random() < 0.1:
            gs = [g for g in self.globals.values() if g.role == 'normal' and g.name.lower() not in
                  [p.name.lower() for p in rt.params]]
            if gs:
                name = r.choice(gs).name
        if name.lower() in [p.name.lower() for p in rt.params] or \
                name.lower() in [v.name.lower() for v in rt.locals]:
            name = self.fresh(prefix)
        v = Var(name, kind, owner=rt)
        size = None
        if kind in ('slice', 'word'):
            k = r.randrange(10)
            if k < 5:
                v.sized = True
                opts = []
                for p in rt.params:
                    if p.kind == 'table' and p.R is not None:
                        opts.append((p.R if kind == 'slice' else p.C, p.name))
                    if p.kind == 'int' and p.role == 'fixed':
                        opts.append((p.value, p.name))
                    if p.kind in ('slice', 'word') and p.L is not None:
                        opts.append((p.L, f"{self.bi('LEN')}({p.name})"))
                if opts and r.random() < 0.6:
                    v.L, size = r.choice(opts)
                else:
                    v.L = r.choice(self.lens)
                    size = self.size_expr(c, v.L, local=True).t
            elif k < 8:
                v.L = r.choice(self.lens)
            else:
                v.L = None
        elif kind == 'table':
            R, C = r.choice(self.shapes)
            v.R, v.C = R, C
            if r.random() < 0.5:
                v.sized = True
                size = f'{self.size_expr(c, R, True).t}, {self.size_expr(c, C, True).t}'
            elif r.random() < 0.3:
                v.R = v.C = None
        v.sizeexpr = size
        rt.locals.append(v)
        c.scope[name.lower()] = v
        return v

    def local_dump(self, c, rt):
        items = [self.nm(v.name) for v in rt.locals if v.kind != 'table']
        items += [f"{self.bi('ROWS')}({self.nm(v.name)})" for v in rt.locals if v.kind == 'table']
        if not items:
            return ['  ' + self.kw('begin') + ' ' + self.kw('end')]
        cond = self.r.choice(['', 'p', 'p'])
        text = f"{self.bi('writeln')}({', '.join(items)})"
        if cond:
            guard = self.gen_bool(c, 1).t if self.r.random() < 0.5 else f"{self.bi('ParamCount')} > 99"
            return [f"  {self.kw('if')} {guard} {self.kw('then')} {text}"]
        return ['  ' + text]

    def routine_text(self, rt, body):
        r = self.r
        lines = []
        kwd = self.kw(r.choice(['function', 'func'])) if rt.is_func else self.kw(r.choice(['procedure', 'proc']))
        groups = []
        for p in rt.params:
            t = self.type_text(p)
            if groups and groups[-1][0] == p.byref and groups[-1][1] == t and r.random() < 0.6:
                groups[-1][2].append(self.nm(p.name))
            else:
                groups.append([p.byref, t, [self.nm(p.name)]])
        ptxt = '; '.join((self.kw('var') + ' ' if g[0] else '') + ', '.join(g[2]) + ': ' + g[1]
                         for g in groups)
        head = f'{kwd} {self.nm(rt.name)}'
        if rt.params:
            head += f'({ptxt})'
        elif r.random() < 0.3:
            head += '()'
        if rt.is_func:
            rk = {'int': 'integer', 'bool': 'boolean', 'real': 'real', 'str': 'string',
                  'slice': 'slice', 'word': 'word'}[rt.rkind]
            head += ': ' + self.kw(rk)
        lines.append(head + ';')
        if rt.native:
            lines.append(f"{self.kw('native')} '{rt.native}';")
        if rt.lconsts:
            lines.append(self.kw('const') + ' ' + ' '.join(f'{self.nm(v.name)} = {t};' for v, t in rt.lconsts))
        if rt.locals:
            lines.append(self.kw('var'))
            for v in rt.locals:
                lines.append(f'  {self.nm(v.name)}: {self.type_text(v)};')
        lines += self.join(body, 0)
        lines[-1] += ';'
        return '\n'.join(lines)

    def make_forvar_routine(self):
        """A procedure whose `for` loop runs on a var parameter (LANGUAGE.md section 4)."""
        r = self.r
        rt = Routine(self.fresh('pv'), False)
        rt.locals = []
        rt.lconsts = []
        cv = Var(self.fresh('ac'), 'int', param=True, byref=True, role='control', owner=rt)
        rt.params.append(cv)
        n = Var(self.fresh('ai'), 'int', param=True, role='fixed', owner=rt)
        n.value = r.randint(0, 9)
        rt.params.append(n)
        sc = self.routine_scope(rt)
        c = Ctx(self, sc, rt)
        li = Var(self.fresh('li'), 'int', owner=rt)
        rt.locals.append(li)
        sc[li.name.lower()] = li
        c.iv[cv.name.lower()] = (1, max(1, n.value))
        c.pure = True
        saved = self.budget
        self.budget = self.total_cost + 2000
        body = self.loop_body(c, 1, max(1, n.value), True)
        self.budget = saved
        stmts = [[f"  {self.kw('for')} {self.nm(cv.name)} := 1 {self.kw('to')} {self.nm(n.name)} {self.kw('do')}"] + body,
                 [f"  {self.bi('writeln')}({self.strlit('after: ')}, {self.nm(cv.name)}, {self.strlit(' ')}, {self.nm(li.name)})"],
                 self.local_dump(c, rt)]
        rt.cost = max(1, c.cost) + 2
        rt.writes = c.writes + 1
        rt.text = self.routine_text(rt, stmts)
        # callers pass a normal integer variable: fine, the loop writes only through cv
        cv.role = 'normal'
        self.routines.append(rt)

    # ------------------------------------------------------------------ user native procedures

    def make_user_natives(self):
        """Copies of library bodies declared `native` by the program itself."""
        r = self.r
        self.user_natives = []
        self.native_texts = []
        if not self.use_stdlib or r.random() < 0.6:
            return
        kw = self.kw
        picks = r.sample(['uclosure', 'uext', 'uaddf', 'usubf'], r.randint(1, 2))
        for p in picks:
            if p == 'uclosure':
                self.native_texts.append(f"""{kw('procedure')} uclosure({kw('var')} P: {kw('table')});
{kw('native')} 'transitive_closure';
{kw('var')} x: {kw('word')}; V, W: {kw('slice')}(P); i, k: {kw('integer')};
{kw('begin')}
  {kw('for')} k := 1 {kw('to')} ROWS(P) {kw('do')}
  {kw('begin')}
    x := ROW(k, P);
    W := COL(k, P);
    i := STEP(x);
    {kw('while')} i > 0 {kw('do')}
    {kw('begin')}
      V := COL(i, P);
      V := V {kw('or')} W;
      COL(i, P) := V;
      i := STEP(x)
    {kw('end')}
  {kw('end')}
{kw('end')};""")
            elif p == 'uext':
                self.native_texts.append(f"""{kw('proc')} uext({kw('var')} T: {kw('table')}; X: {kw('slice')}; first, len: {kw('integer')}; wantMax: {kw('boolean')}; {kw('var')} Z: {kw('slice')});
{kw('native')} 'extreme_rows';
{kw('var')} Cand, D: {kw('slice')}(T); j: {kw('integer')};
{kw('begin')}
  Cand := X;
  {kw('for')} j := first {kw('to')} first + len - 1 {kw('do')}
  {kw('begin')}
    {kw('if')} wantMax {kw('then')} D := Cand {kw('and')} COL(j, T)
    {kw('else')} D := Cand {kw('and')} {kw('not')} COL(j, T);
    {kw('if')} SOME(D) {kw('then')} Cand := D
  {kw('end')};
  Z := Cand
{kw('end')};""")
            else:
                sub = p == 'usubf'
                upd1 = 'Br := Br or not A' if sub else 'Cy := A or Cy'
                upd0 = 'Br := Br and not A' if sub else 'Cy := A and Cy'
                cy = 'Br' if sub else 'Cy'
                self.native_texts.append(f"""{kw('proc')} {p}({kw('var')} T: {kw('table')}; X: {kw('slice')}; first: {kw('integer')}; v: {kw('word')});
{kw('native')} '{'sub_field' if sub else 'add_field'}';
{kw('var')} M, A, {cy}: {kw('slice')}(T); j, c: {kw('integer')};
{kw('begin')}
  M := X;
  {kw('for')} j := LEN(v) {kw('downto')} 1 {kw('do')}
  {kw('begin')}
    c := first + j - 1;
    A := COL(c, T);
    {kw('if')} v(j) = 1 {kw('then')}
    {kw('begin')}
      COL(c, T) := A xor (M and not {cy});
      {upd1}
    {kw('end')}
    {kw('else')}
    {kw('begin')}
      COL(c, T) := A xor (M and {cy});
      {upd0}
    {kw('end')}
  {kw('end')}
{kw('end')};""")
            self.user_natives.append(p)

    # ------------------------------------------------------------------ graph files

    def make_graphs(self):
        """Data files for LOADGRAPH and LOADEDGES (DIMACS or Matrix Market), and their tables."""
        r = self.r
        self.edges = []          # (Var E, n, vb, wb, m)
        self.graph_loads = []    # prologue statements
        if r.random() < 0.65:
            return
        for _ in range(r.randint(1, 2)):
            n = r.randint(1, 12)
            m = r.randint(0, 3 * n)
            arcs = []
            for _ in range(m):
                u, v = r.randint(1, n), r.randint(1, n)
                if u == v and r.random() < 0.7:
                    v = u % n + 1
                arcs.append((u, v, r.choice([0, 1, 2, 3, 5, 7, 10, 20, 100])))
            mtx = r.random() < 0.4
            name = self.newfile('mtx' if mtx else 'gr')
            if mtx:
                field = r.choice(['integer', 'pattern', 'real'])
                sym = r.choice(['general', 'general', 'symmetric'])
                lines = [f'%%MatrixMarket matrix coordinate {field} {sym}', '% generated']
                ents = arcs
                if sym == 'symmetric':
                    ents = [(max(u, v), min(u, v), w) for (u, v, w) in arcs]
                lines.append(f'{n} {n} {len(ents)}')
                for (u, v, w) in ents:
                    if field == 'pattern':
                        lines.append(f'{u} {v}')
                    elif field == 'real':
                        lines.append(f'{u} {v} {w}.0')
                    else:
                        lines.append(f'{u} {v} {w}')
                rows = []
                for (u, v, w) in ents:
                    w = 1 if field == 'pattern' else w
                    rows.append(w)
                    if sym == 'symmetric' and u != v:
                        rows.append(w)
                maxw = max(rows) if rows else 0
                nrows = len(rows)
            else:
                lines = ['c generated by stargen', f'p sp {n} {len(arcs)}']
                for (u, v, w) in arcs:
                    if r.random() < 0.1:
                        lines.append('')
                    lines.append(f'a {u} {v} {w}')
                maxw = max((w for (_, _, w) in arcs), default=0)
                nrows = len(arcs)
            self.files[name] = '\n'.join(lines) + '\n'
            vb = max(1, n.bit_length())
            wb = max(1, maxw.bit_length())
            # the adjacency table: an unsized table of designated shape n x n, loaded in the prologue
            if (n, n) not in self.shapes:
                self.shapes.append((n, n))
            if n not in self.lens:
                self.lens.append(n)
            self.graph_loads.append((name, n, vb, wb, nrows))

    def graph_globals(self):
        for (name, n, vb, wb, nrows) in self.graph_loads:
            a = Var(self.fresh('gg'), 'table', R=n, C=n)
            self.add_global(a)
            e = Var(self.fresh('ge'), 'table', R=nrows, C=2 * vb + wb, role='graph')
            self.add_global(e)
            vbv = Var(self.fresh('gv'), 'int', role='err')
            wbv = Var(self.fresh('gv'), 'int', role='err')
            self.add_global(vbv)
            self.add_global(wbv)
            self.edges.append((e, n, vb, wb, nrows, name, a, vbv, wbv))

    def graph_prologue(self):
        out = []
        for (e, n, vb, wb, nrows, name, a, vbv, wbv) in self.edges:
            f = self.strlit(name)
            out.append([f"  {self.bi('LOADGRAPH')}({self.nm(a.name)}, {f})"])
            out.append([f"  {self.bi('LOADEDGES')}({self.nm(e.name)}, {f}, {vbv.name}, {wbv.name})"])
            out.append([f"  {self.bi('writeln')}({vbv.name}, ' ', {wbv.name}, ' ', {self.bi('ROWS')}({e.name}), ' ', {self.bi('COLS')}({e.name}))"])
        return out

    def graph_alg(self, c, ind):
        r = self.r
        pad = '  ' * ind
        e, n, vb, wb, nrows, name, a, vbv, wbv = r.choice(self.edges)
        if e.name.lower() not in c.scope or c.scope[e.name.lower()] is not e:
            return None
        cost = 40 * (n + 2) * (2 * vb + wb + 4) + 10 * nrows * (vb + wb)
        if not self.afford(c, cost) or not self.can_write(c):
            return None
        self.charge(c, cost)
        en = self.nm(e.name)
        outs = self.writable(c, 'table', R=None)
        sl = self.writable(c, 'slice', None) + self.writable(c, 'slice', nrows)
        empty = [v for v in self.visible(c, ('slice',)) if v.L == 0]
        alg = r.choice(['dijkstra', 'bellman', 'prim', 'kruskal', 'floyd'])
        s = r.randint(1, n)
        wl = self.bi('writeln')
        if alg in ('dijkstra', 'bellman') and len(outs) >= 2:
            D, P = r.sample(outs, 2)
            dn, pn = self.nm(D.name), self.nm(P.name)
            if alg == 'dijkstra':
                call = f'DIJKSTRA({en}, {vb}, {wb}, {n}, {s}, {dn}, {pn})'
                lines = [f'{call};']
            else:
                neg = self.nm(r.choice(empty).name)
                call = f'BELLMANFORD({en}, {vb}, {wb}, {neg}, {n}, {s}, {dn}, {pn})'
                lines = [f"{wl}({self.strlit('bf ')}, {call});"]
            v = r.randint(1, n)
            lines.append(f"{wl}(GR_REACHED({dn}, {v}), ' ', GR_PRED({pn}, {v}), ' ', {dn});")
            lines.append(f"{self.kw('if')} GR_REACHED({dn}, {v}) {self.kw('then')} "
                         f"{self.kw('begin')} {wl}(GR_DIST({dn}, {v})); GR_WRITEPATH({pn}, {v}); {wl} {self.kw('end')}")
            return self.seq([pad + l for l in lines], ind)
        if alg in ('prim', 'kruskal') and sl:
            T = self.nm(r.choice(sl).name)
            if alg == 'prim':
                call = f'PRIM({en}, {vb}, {wb}, {s}, {T})'
            else:
                call = f'KRUSKAL({en}, {vb}, {wb}, {T})'
            return self.seq([f"{pad}{wl}({self.strlit(alg + ' ')}, {call});", f'{pad}{wl}({T})'], ind)
        if alg == 'floyd' and outs:
            D = self.nm(r.choice(outs).name)
            neg = self.nm(r.choice(empty).name)
            i, j = r.randint(1, n), r.randint(1, n)
            return self.seq([f'{pad}GR_DISTTABLE({en}, {vb}, {wb}, {neg}, {n}, {D});',
                             f"{pad}{wl}({self.strlit('floyd ')}, FLOYD({n}, {D}), ' ', GR_WIDTH2({D}));",
                             f"{pad}{self.kw('if')} GR_REACHED2({D}, {i}, {j}) {self.kw('then')} {wl}(GR_DIST2({D}, {i}, {j}))"], ind)
        return None

    # ------------------------------------------------------------------ error endings

    def error_ending(self, c):
        """Statements that end the program with a run-time error, and where to put them."""
        r = self.r
        ez = Var(self.fresh('ez'), 'int', role='err')
        ezs = Var(self.fresh('eu'), 'slice', role='err')
        ezw = Var(self.fresh('ev'), 'word', role='err')
        ezr = Var(self.fresh('er'), 'real', role='err')
        ezt = Var(self.fresh('et'), 'table', role='err')
        ezq = Var(self.fresh('eq'), 'str', role='err')
        for v in (ez, ezs, ezw, ezr, ezt, ezq):
            self.add_global(v)
        self.errstr = ezq.name
        z, s, w, x = ez.name, ezs.name, ezw.name, ezr.name
        self.ezt = ezt.name
        kw, bi = self.kw, self.bi
        anyw = lambda L: self.gen_bits(c, 'word', L, 1).t
        anys = lambda L: self.gen_bits(c, 'slice', L, 1).t
        lens1 = [l for l in self.lens if l >= 1] or [3]
        L = r.choice(lens1)
        kinds = ['div0', 'mod0', 'ovf_add', 'ovf_sub', 'ovf_mul', 'ovf_div', 'ovf_neg', 'abs_min',
                 'index_read', 'index_write', 'index_empty', 'component', 'col_read', 'row_read',
                 'col_write', 'row_write', 'size_store', 'size_func', 'size_and', 'size_cmp',
                 'size_eq', 'size_add', 'size_colw', 'size_roww', 'size_table', 'trim_start',
                 'trim_end', 'trim_after', 'rep_size', 'rep_range', 'bin_len', 'bin_neg', 'bin_fit',
                 'val_long', 'sval_len', 'sbin_len', 'sbin_fit', 'fval_len', 'fbin_len',
                 'trunc_nan', 'trunc_big', 'round_inf', 'strtoreal_bad', 'strtoreal_range',
                 'strtoint_bad', 'neg_len', 'neg_table', 'paramstr', 'error', 'stack', 'load_missing',
                 'load_shape', 'loadnum_bad', 'size_varparam']
        if 'sort' in self.units:
            kinds += ['sort_kind', 'sort_len', 'sort_size', 'sort_first', 'sort_xsize']
        if 'assoc' in self.units:
            kinds += ['assoc_size', 'assoc_col', 'ext_field', 'ext_xsize', 'ext_zsize', 'addw_vsize']
        if self.user_natives:
            kinds += ['unative_bad'] * 2
        if self.unit_name:
            kinds += ['unit_error'] * 3
        if 'graphs' in self.units:
            kinds += ['closure_tall']
        if 'nbody' in self.units:
            kinds += ['nbody_cols']
        kind = r.choice(kinds)
        extra = []         # routines needed by the error
        st = []
        if kind == 'div0':
            st = [f'{z} := 0', f"{bi('writeln')}({self.gen_int(c, 2).t} {kw('div')} {z})"]
        elif kind == 'mod0':
            st = [f'{z} := 0', f"{bi('writeln')}({self.gen_int(c, 2).t} {kw('mod')} {z})"]
        elif kind == 'ovf_add':
            st = [f'{z} := 9223372036854775800', f'{z} := {z} + {r.randint(8, 100)}']
        elif kind == 'ovf_sub':
            st = [f'{z} := -9223372036854775800', f'{z} := {z} - {r.randint(9, 100)}']
        elif kind == 'ovf_mul':
            st = [f'{z} := 3037000500', f"{bi('writeln')}({z} * {z})"]
        elif kind == 'ovf_div':
            st = [f'{z} := -9223372036854775807 - 1', f"{bi('writeln')}({z} {kw('div')} -1)"]
        elif kind == 'ovf_neg':
            st = [f'{z} := -9223372036854775808', f'{z} := -{z}']
        elif kind == 'abs_min':
            st = [f'{z} := -9223372036854775808', f"{bi('writeln')}({bi('ABS')}({z}))"]
        elif kind in ('index_read', 'index_write', 'component'):
            vs = [v for v in self.globals.values() if v.kind in ('slice', 'word') and v.L and
                  v.assignable()]
            if not vs:
                kind = 'error'
            else:
                v = r.choice(vs)
                idx = r.choice([0, v.L + 1, -1, v.L + 64])
                if kind == 'index_read':
                    st = [f'{z} := {idx}', f"{bi('writeln')}({v.name}({z}))"]
                elif kind == 'index_write':
                    st = [f'{z} := {idx}', f'{v.name}({z}) := 1']
                else:
                    st = [f'{z} := {r.choice([2, -1, 7])}', f'{v.name}(1) := {z}']
        elif kind == 'index_empty':
            st = [f'{z} := 1', f"{bi('writeln')}({s}({z}))"]
        elif kind in ('col_read', 'row_read', 'col_write', 'row_write'):
            ts = [t for t in self.globals.values() if t.kind == 'table' and not t.flex and t.assignable()]
            t = r.choice(ts)
            bad = r.choice([0, (t.C if kind.startswith('col') else t.R) + 1, -2])
            if kind == 'col_read':
                st = [f'{z} := {bad}', f"{s} := {bi('COL')}({z}, {t.name})"]
            elif kind == 'row_read':
                st = [f'{z} := {bad}', f"{bi('writeln')}({bi('ROW')}({z}, {t.name}))"]
            elif kind == 'col_write':
                st = [f'{z} := {bad}', f"{bi('COL')}({z}, {t.name}) := {anys(t.R)}"]
            else:
                st = [f'{z} := {bad}', f"{bi('ROW')}({z}, {t.name}) := {anyw(t.C)}"]
        elif kind == 'size_store':
            vs = [v for v in self.globals.values() if v.kind in ('slice', 'word') and v.sized and v.assignable()]
            if vs:
                v = r.choice(vs)
                other = v.L + r.choice([1, 2, 64]) if v.L < 5 or r.random() < 0.5 else v.L - 1
                src = w if v.kind == 'word' else s
                st = [f"{src} := {self.gen_bits(c, v.kind, other, 1).t}", f'{v.name} := {src}']
            else:
                st = [f"{s} := {anys(3)}", f"{w} := {anyw(4)}",
                      f"{bi('writeln')}({s} {kw('and')} {bi('CONVERT')}({w}))"]
        elif kind == 'size_func':
            fname = self.fresh('fe')
            M = r.choice(lens1)
            N = M + r.choice([1, 3, 64])
            extra.append(f"{kw('function')} {fname}: {kw('word')};\n{kw('begin')} {fname} := {self.wordlit(N)} {kw('end')};")
            pe = self.fresh('pe')
            extra.append(f"{kw('procedure')} {pe};\n{kw('var')} lw: {kw('word')}({M});\n{kw('begin')}\n  lw := {fname};\n  {bi('writeln')}(lw)\n{kw('end')};")
            st = [pe]
        elif kind == 'size_and':
            op = r.choice(['and', 'or', 'xor'])
            st = [f"{w} := {anyw(L)}", f"{bi('writeln')}({w} {kw(op)} {anyw(L + 1)})"]
        elif kind == 'size_cmp':
            f = r.choice(['EQ', 'NOTEQ', 'LESS', 'LESSEQ', 'GREAT', 'GREATEQ'])
            st = [f"{w} := {anyw(L)}", f"{bi('writeln')}({bi(f)}({anyw(L + 2)}, {w}))"]
        elif kind == 'size_eq':
            st = [f"{s} := {anys(L)}", f"{bi('writeln')}({s} {r.choice(['=', '<>'])} {anys(L + 1)})"]
        elif kind == 'size_add':
            st = [f"{w} := {anyw(L)}", f"{bi('writeln')}({bi(r.choice(['ADD', 'SUBT']))}({w}, {anyw(L + 1)}))"]
        elif kind in ('size_colw', 'size_roww', 'size_table'):
            ts = [t for t in self.globals.values() if t.kind == 'table' and not t.flex and t.assignable()
                  and t.R >= 1 and t.C >= 1]
            if not ts:
                st = [f"{bi('ERROR')}({self.strlit('no table')})"]
            else:
                t = r.choice(ts)
                if kind == 'size_colw':
                    st = [f"{s} := {anys(t.R + 1)}", f"{bi('COL')}(1, {t.name}) := {s}"]
                elif kind == 'size_roww':
                    st = [f"{w} := {anyw(t.C + 1)}", f"{bi('ROW')}({t.R}, {t.name}) := {w}"]
                else:
                    others = [u for u in self.globals.values() if u.kind == 'table' and not u.flex
                              and (u.R, u.C) != (t.R, t.C)]
                    fl = [u for u in self.globals.values() if u.kind == 'table' and u.flex and u.assignable()]
                    if others and fl and t.sized:
                        u, f = r.choice(others), r.choice(fl)
                        st = [f'{f.name} := {u.name}', f'{t.name} := {f.name}']
                    else:
                        st = [f"{s} := {anys(t.R + 2)}", f"{bi('COL')}({t.C}, {t.name}) := {s}"]
        elif kind == 'trim_start':
            st = [f"{w} := {anyw(L)}", f'{z} := {r.choice([0, -1, L + 1])}',
                  f"{bi('writeln')}({bi('TRIM')}({z}, {L}, {w}))"]
        elif kind == 'trim_end':
            st = [f"{w} := {anyw(L)}", f'{z} := {L + r.choice([1, 5])}',
                  f"{bi('writeln')}({bi('TRIM')}(1, {z}, {w}))"]
        elif kind == 'trim_after':
            LL = max(L, 2)
            st = [f"{w} := {anyw(LL)}", f'{z} := 1', f"{bi('writeln')}({bi('TRIM')}({LL}, {z}, {w}))"]
        elif kind == 'rep_size':
            LL = max(L, 3)
            st = [f"{w} := {anyw(LL)}", f'{z} := 2', f"{bi('REP')}(1, {z}, {anyw(r.choice([1, 3]))}, {w})"]
        elif kind == 'rep_range':
            st = [f"{w} := {anyw(L)}", f'{z} := {L + 1}', f"{bi('REP')}({z}, {z}, %1, {w})"]
        elif kind == 'bin_len':
            st = [f'{z} := {r.choice([0, -3])}', f"{bi('writeln')}({bi('BIN')}(5, {z}))"]
        elif kind == 'bin_neg':
            st = [f'{z} := {r.choice([-1, -1000])}', f"{bi('writeln')}({bi('BIN')}({z}, 8))"]
        elif kind == 'bin_fit':
            k = r.randint(1, 20)
            st = [f'{z} := {1 << k}', f"{bi('writeln')}({bi('BIN')}({z}, {k}))"]
        elif kind == 'val_long':
            st = [f"{w} := {anyw(r.choice([64, 65, 129]))}", f"{bi('writeln')}({bi('VAL')}({w}))"]
        elif kind == 'sval_len':
            st = [f"{w} := {anyw(r.choice([65, 100])) if r.random() < 0.5 else ae_word(self)}",
                  f"{bi('writeln')}({bi('SVAL')}({w}))"]
        elif kind == 'sbin_len':
            st = [f'{z} := {r.choice([0, 65, -1])}', f"{bi('writeln')}({bi('SBIN')}(1, {z}))"]
        elif kind == 'sbin_fit':
            k = r.randint(1, 63)
            st = [f'{z} := {r.choice([1 << (k - 1), -(1 << (k - 1)) - 1])}', f"{bi('writeln')}({bi('SBIN')}({z}, {k}))"]
        elif kind == 'fval_len':
            st = [f"{w} := {anyw(r.choice([1, 31, 33, 63, 65]))}", f"{bi('writeln')}({bi('FVAL')}({w}))"]
        elif kind == 'fbin_len':
            st = [f'{z} := {r.choice([0, 16, 33, 63, 65, 128])}', f"{bi('writeln')}({bi('FBIN')}(1.5, {z}))"]
        elif kind == 'trunc_nan':
            st = [f'{x} := -1.0', f"{bi('writeln')}({bi(r.choice(['TRUNC', 'ROUND']))}({bi('SQRT')}({x})))"]
        elif kind == 'trunc_big':
            st = [f"{x} := {r.choice(['1e20', '-1e19', '9.3e18', '1.5e300'])}",
                  f"{bi('writeln')}({bi(r.choice(['TRUNC', 'ROUND']))}({x}))"]
        elif kind == 'round_inf':
            st = [f'{x} := 0.0', f"{bi('writeln')}({bi(r.choice(['TRUNC', 'ROUND']))}(1.0 / {x}))"]
        elif kind == 'strtoreal_bad':
            bad = r.choice(['', ' 1', 'abc', '1.5x', '--1', '1e', '0x10', 'in f',
                            'a very long string that goes on and on and on past forty characters'])
            st = [f"{bi('writeln')}({bi('StrToReal')}({self.strlit(bad)}))"]
        elif kind == 'strtoreal_range':
            st = [f"{bi('writeln')}({bi('StrToReal')}({self.strlit(r.choice(['1e400', '-2e308', '1e99999']))}))"]
        elif kind == 'strtoint_bad':
            bad = r.choice(['', ' 5', '+5', '5 ', 'abc', '1.0', '9223372036854775808', '-9223372036854775809',
                            '99999999999999999999999999999999999999999999999'])
            nonint = [i for i, a in enumerate(self.args) if not is_int_text(a)]
            if nonint and r.random() < 0.4:
                st = [f"{bi('writeln')}({bi('StrToInt')}({bi('ParamStr')}({nonint[0] + 1})))"]
            else:
                st = [f"{bi('writeln')}({bi('StrToInt')}({self.strlit(bad)}))"]
        elif kind in ('neg_len', 'neg_table'):
            pn = self.fresh('pn')
            if kind == 'neg_len':
                extra.append(f"{kw('procedure')} {pn}(n: {kw('integer')});\n{kw('var')} X: {kw('slice')}(n);\n"
                             f"{kw('begin')} {bi('writeln')}({bi('LEN')}(X)) {kw('end')};")
            else:
                extra.append(f"{kw('procedure')} {pn}(n: {kw('integer')});\n{kw('var')} T: {kw('table')}(2, n);\n"
                             f"{kw('begin')} {bi('writeln')}({bi('ROWS')}(T)) {kw('end')};")
            st = [f'{z} := {r.choice([-1, -5, -100])}', f'{pn}({z})']
        elif kind == 'paramstr':
            st = [f'{z} := {r.choice([len(self.args) + 1, -1, len(self.args) + 10])}',
                  f"{bi('writeln')}({bi('ParamStr')}({z}))"]
        elif kind == 'stack':
            ps = self.fresh('ps')
            extra.append(f"{kw('procedure')} {ps}(d: {kw('integer')});\n{kw('begin')} {ps}(d + 1) {kw('end')};")
            st = [f'{ps}(0)']
        elif kind == 'load_missing':
            st = [f"{bi('LOAD')}({self.err_table()}, {self.strlit('no_such_file.txt')})"]
        elif kind == 'load_shape':
            ts = [t for t in self.globals.values() if t.kind == 'table' and t.sized and t.R >= 1 and t.C >= 1]
            us = [u for u in self.globals.values() if u.kind == 'table' and not u.flex and u.R >= 1 and u.C >= 1]
            pairs = [(t, u) for t in ts for u in us if (t.R, t.C) != (u.R, u.C)]
            if pairs:
                t, u = r.choice(pairs)
                f = self.strlit(self.newfile())
                st = [f"{bi('SAVE')}({u.name}, {f})", f"{bi('LOAD')}({t.name}, {f})"]
            else:
                st = [f"{self.errstr} := {self.strlit(r.choice(['u8 x3', '', 'f16', 'u65', 'i0 u8']))}",
                      f"{bi('LOADNUM')}({self.err_table()}, {self.strlit('missing.num')}, {self.errstr})"]
        elif kind == 'loadnum_bad':
            f = self.strlit(self.newfile())
            tab = [t for t in self.globals.values() if t.kind == 'table' and not t.flex and t.R >= 1 and t.C >= 2]
            if tab:
                t = r.choice(tab)
                st = [f"{bi('SAVE')}({t.name}, {f})",
                      f"{bi('LOADNUM')}({self.err_table()}, {f}, {self.strlit(r.choice(['u1 u1', 'i2 i1', 'u8 u8 u8', 'f32 f64']))})"]
            else:
                st = [f"{bi('LOADNUM')}({self.err_table()}, {self.strlit('nothere.num')}, {self.strlit('u8')})"]
        elif kind == 'size_varparam':
            pw = self.fresh('pw')
            vs = [v for v in self.globals.values() if v.kind == 'word' and v.sized and v.assignable()]
            if vs:
                v = r.choice(vs)
                extra.append(f"{kw('procedure')} {pw}({kw('var')} q: {kw('word')});\n{kw('begin')} q := {self.wordlit(v.L + 1)} {kw('end')};")
                st = [f'{pw}({v.name})']
            else:
                st = [f"{bi('ERROR')}({self.strlit('')})"]
        elif kind == 'sort_kind':
            t = self.err_table(designated=True)
            st = [f"{z} := 3", f"SORT({t.name}, {anys(t.R)}, 1, 1, {z}, {kw('false')})"]
        elif kind == 'sort_len':
            t = self.err_table(designated=True)
            st = [f"SORT({t.name}, {anys(t.R)}, 1, {r.choice([0, 65, 33])}, {r.choice([0, 2])}, {kw('true')})"]
        elif kind == 'sort_size':
            t = self.err_table(designated=True)
            st = [f"SEGSORT({t.name}, {anys(t.R)}, {anys(t.R + 1)}, 1, 1, 0, {kw('false')})"]
        elif kind == 'assoc_size':
            t = self.err_table(designated=True)
            st = [f"MATCH({t.name}, {anys(t.R)}, {anyw(t.C + 1)}, {s})"]
        elif kind == 'assoc_col':
            t = self.err_table(designated=True)
            st = [f"ADDWF({t.name}, {anys(t.R)}, {t.C}, %11)"]
        elif kind == 'closure_tall':
            ts = [t for t in self.globals.values() if t.kind == 'table' and not t.flex and t.R > t.C and t.assignable()]
            if ts:
                st = [f'CLOSURE({r.choice(ts).name})']
            else:
                st = [f"CLOSURE({self.err_table(designated=True).name})", f"{bi('ERROR')}('after closure')"]
        elif kind in ('sort_first', 'sort_xsize'):
            t = self.err_table(designated=True)
            if kind == 'sort_first':
                st = [f'{z} := 0', f"SORT({t.name}, {anys(t.R)}, {z}, 1, 0, {kw('false')})"]
            else:
                st = [f"{s} := {anys(t.R + 1)}", f"SORT({t.name}, {s}, 1, 1, 1, {kw('true')})"]
        elif kind in ('ext_field', 'ext_xsize', 'ext_zsize', 'addw_vsize'):
            t = self.err_table(designated=True)
            f = r.choice(['MINROWF', 'MAXROWF'])
            if kind == 'ext_field':
                st = [f'{z} := {t.C}', f"{f}({t.name}, {anys(t.R)}, {z}, 2, {s})"]
            elif kind == 'ext_xsize':
                st = [f"{s} := {anys(t.R + r.choice([1, 64]))}", f"{r.choice(['MINROW', 'MAXROW'])}({t.name}, {s}, {s})"]
            elif kind == 'ext_zsize':
                zs = [v for v in self.globals.values() if v.kind == 'slice' and v.sized and v.assignable()
                      and v.L != t.R]
                if zs:
                    st = [f"{r.choice(['MINROW', 'MAXROW'])}({t.name}, {anys(t.R)}, {r.choice(zs).name})"]
                else:
                    st = [f"{f}({t.name}, {anys(t.R)}, 1, {t.C + 1}, {s})"]
            else:
                g = r.choice(['ADDW', 'SUBW'])
                st = [f"{w} := {anyw(t.C + 1)}", f"{g}({t.name}, {anys(t.R)}, {w})"]
        elif kind == 'unative_bad':
            t = self.err_table(designated=True)
            which = r.choice(self.user_natives)
            if which == 'uclosure':
                tall = [u for u in self.globals.values() if u.kind == 'table' and not u.flex
                        and u.assignable() and u.R > u.C]
                st = [f'uclosure({(r.choice(tall) if tall else t).name})']
            elif which == 'uext':
                st = [f'{z} := {t.C}', f"uext({t.name}, {anys(t.R)}, {z}, 3, {kw('true')}, {s})"]
            else:
                st = [f'{z} := {t.C + 1}', f"{which}({t.name}, {anys(t.R)}, {z}, %1)"]
        elif kind == 'unit_error':
            st = [f'{self.unit_err}({r.choice([0, 1, 5, 12])}, {r.randint(0, 4)})']
        elif kind == 'nbody_cols':
            t = self.err_table(designated=True)
            st = [f"NB_FORCES({t.name}, {t.name}, {self.err_table()})"]
        if kind == 'error' or not st:
            msg = r.choice(['boom', "it's over", 'error: \u00e9\u00e8 \u2717', '',
                            'a long message ' * 5, 'line 1 of 1', '50% done'])
            st = [f"{bi('ERROR')}({self.strlit(msg)})"]
        return kind, st, extra

    def err_table(self, designated=False):
        if not designated:
            return self.ezt            # an unsized table: no compile-time shape checks
        ts = [t for t in self.globals.values() if t.kind == 'table' and t.assignable() and not t.flex]
        ts = [t for t in ts if t.R >= 1 and t.C >= 2] or ts
        return self.r.choice(ts)

    # ------------------------------------------------------------------ the program

    def generate(self):
        r = self.r
        units = []
        if self.use_stdlib and r.random() < 0.55:
            units = r.choice([['assoc'], ['sort'], ['graphs'], ['assoc', 'graphs'], ['sort', 'graphs'],
                              ['graphs', 'sort']])
            if 'sort' in units:
                units = units + ['assoc']         # sort uses assoc: its names are there
        if self.use_nbody:
            units = units + ['nbody']
        self.units = units
        self.make_graphs()
        if r.random() < 0.2:
            self.make_unit()
        self.make_globals()
        self.graph_globals()
        self.make_user_natives()
        self.make_routines()
        # main
        c = Ctx(self, self.globals, None)
        c.callable = list(self.routines)
        pro = []
        pend = [v for v in self.globals.values() if v.assignable() and not v.sized and
                ((v.kind in ('slice', 'word') and v.L) or (v.kind == 'table' and v.R is not None))]
        for v in pend:
            self.uninit.add(id(v))
        for ed in self.edges:
            self.uninit.add(id(ed[0]))
        c.nocalls = True
        for v in pend:
            if v.kind in ('slice', 'word'):
                pro.append([f'  {self.nm(v.name)} := {self.gen_bits(c, v.kind, v.L, 1).t}'])
            else:
                src = [t for t in self.tables(c, v.R, v.C) if t.sized]
                pro.append([f'  {self.nm(v.name)} := {self.nm(r.choice(src).name)}'])
            self.uninit.discard(id(v))
        c.nocalls = False
        pro += self.graph_prologue()
        for ed in self.edges:
            self.uninit.discard(id(ed[0]))
        for t in [t for t in self.globals.values() if t.kind == 'table' and t.sized and not t.flex]:
            if r.random() < 0.8:
                pro.append(self.fill_table(c, t, 1))
        for v in list(self.globals.values()):
            if v.assignable() and v.kind in ('slice', 'word') and v.L and r.random() < 0.5:
                pro.append([f'  {self.nm(v.name)} := {self.gen_bits(c, v.kind, v.L, 2).t}'])
        c.nest = 0
        nmain = r.randint(5, 8 + 6 * self.size)
        stmts = self.block(c, nmain, 1)
        if self.use_nbody and r.random() < 0.7:
            stmts.append(self.nbody_block(c))
        if r.random() < 0.04:
            stmts.append([f"  {self.kw('if')} {self.gen_bool(c, 1).t} {self.kw('then')} {self.kw('exit')}"])
        self.total_cost += c.cost
        extra = []
        ending = None
        if self.use_errors and r.random() < 0.35:
            kind, st, extra = self.error_ending(c)
            ending = kind
            where = r.random()
            if where < 0.5:
                stmts += [['  ' + s] for s in st]
            else:
                # inside a routine, maybe at the bottom of a recursion or a chain of calls
                pe = self.fresh('perr')
                depth = r.choice([0, 1, 3, 12, 40])
                body = ';\n    '.join(st)
                extra.append(f"{self.kw('procedure')} {pe}(d: {self.kw('integer')});\n{self.kw('begin')}\n"
                             f"  {self.kw('if')} d > 0 {self.kw('then')} {pe}(d - 1)\n  {self.kw('else')}\n"
                             f"  {self.kw('begin')}\n    {body}\n  {self.kw('end')}\n{self.kw('end')};")
                if r.random() < 0.5:
                    prevcall = f'{pe}({depth})'
                    for i in range(r.choice([1, 2, 9, 11])):
                        q = self.fresh('pchain')
                        extra.append(f"{self.kw('procedure')} {q};\n{self.kw('begin')} {prevcall} {self.kw('end')};")
                        prevcall = q
                    stmts.append(['  ' + prevcall])
                else:
                    stmts.append([f'  {pe}({depth})'])
        # final dump of every global (also: no "never used" warnings)
        stmts.append(self.final_dump(c))
        lines = []
        lines.append(f'//@ARGS {json.dumps(self.args, ensure_ascii=False)}')
        lines.append(f'// stargen seed={self.seed} size={self.size} ending={ending}')
        for name, text in self.files.items():
            lines.append(f'//@FILE {name}')
            lines += ['//@ ' + l for l in text.splitlines()]
            lines.append('//@END')
        lines.append(f"{self.kw('program')} G{self.seed % 100000};")
        us = list(dict.fromkeys(u for u in units if u != 'assoc' or 'sort' not in units or r.random() < 0.5))
        if self.unit_name:
            us.insert(r.randint(0, len(us)), self.unit_name)
        if us:
            lines.append(f"{self.kw('uses')} {', '.join(us)};")
        decls = self.decl_chunks()
        routines = [rt.text for rt in self.routines if not rt.in_unit] + self.native_texts + extra
        # interleave routines among the declarations (forward references are allowed)
        out = []
        for d in decls:
            out.append(d)
            while routines and r.random() < 0.3:
                out.append(routines.pop(r.randrange(len(routines))))
        while routines:
            out.insert(r.randint(0, len(out)) if r.random() < 0.3 else len(out),
                       routines.pop(r.randrange(len(routines))))
        lines += out
        body = self.join(pro + stmts, 0)
        body[-1] += '.'
        lines += body
        return '\n'.join(lines) + '\n'

    def decl_chunks(self):
        r = self.r
        chunks = []
        cur = None
        for item in self.gorder:
            if item[0] == 'const':
                v, text = item[1], item[2]
                piece = f'{self.nm(v.name)} = {text};'
                if cur and cur[0] == 'const' and r.random() < 0.7:
                    cur[1].append(piece)
                else:
                    cur = ['const', [piece]]
                    chunks.append(cur)
            else:
                v = item[1]
                piece = (v.name, self.type_text(v))
                if cur and cur[0] == 'var' and r.random() < 0.85:
                    if cur[1][-1][1] == piece[1] and r.random() < 0.5:
                        cur[1][-1][0].append(v.name)
                    else:
                        cur[1].append(([v.name], piece[1]))
                else:
                    cur = ['var', [([v.name], piece[1])]]
                    chunks.append(cur)
        out = []
        for ch in chunks:
            if ch[0] == 'const':
                out.append(self.kw('const') + ' ' + ' '.join(ch[1]))
            else:
                parts = [f"{', '.join(self.nm(n) for n in names)}: {t};" for names, t in ch[1]]
                out.append(self.kw('var') + '\n' + '\n'.join('  ' + p for p in parts))
        return out

    def final_dump(self, c):
        items = []
        for v in self.globals.values():
            if v.const:
                continue
            if v.kind == 'table':
                if v.flex or v.R * v.C > 2000:
                    items.append(f"{self.bi('ROWS')}({self.nm(v.name)})")
                    items.append(self.strlit('x'))
                    items.append(f"{self.bi('COLS')}({self.nm(v.name)})")
                else:
                    items.append(self.nm(v.name))
            else:
                items.append(self.nm(v.name))
        lines = []
        for i in range(0, len(items), 6):
            lines.append(f"  {self.bi('writeln')}({self.strlit('dump ')}, {', '.join(items[i:i + 6])})")
        if not lines:
            return ['  ' + self.bi('writeln')]
        return [l + ';' for l in lines[:-1]] + [lines[-1]]

    def nbody_block(self, c):
        r = self.r
        P = self.fresh('nbp')
        C = self.fresh('nbc')
        E = self.fresh('nbe')
        for n, sized in ((P, None), (E, None)):
            self.add_global(Var(n, 'table', role='err'))
        self.add_global(Var(C, 'table', R=4, C=192, role='err', sized=True), '4, 192')
        steps = r.randint(0, 3)
        return [f'  NB_CRYSTAL(1, {r.choice(["5.5", "4.0", "6.25"])}, {P});',
                f'  NB_COEF({C}, 0, 0, 4.0, 1.75, 12.0);',
                f'  NB_COEF({C}, 0, 1, -2.0, 1.75, 12.0);',
                f'  NB_COEF({C}, 1, 1, 1.0, 1.75, {r.choice(["12.0", "9.0", "2.0"])});',
                f'  NB_VERLET({P}, {C}, 0.01, {steps});',
                f'  NB_ENERGY({P}, {C}, {E});',
                f"  {self.bi('writeln')}(ROUND(1000.0 * NB_RVAL({E}, 1, 2)), ' ', ROUND(1000.0 * NB_PVAL({P}, 1, 1)))"]


def ae_word(g):
    return [v.name for v in g.globals.values() if v.kind == 'word' and v.L == 0][0]


def main():
    ap = argparse.ArgumentParser(description='Generate a random valid, terminating Star program.')
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--size', type=int, default=3, help='program size, 1 (small) .. 10 (large); default 3')
    ap.add_argument('--no-stdlib', action='store_true', help='no `uses` of the standard library units')
    ap.add_argument('--nbody', action='store_true',
                    help='also use unit nbody (natives agree with the bodies only to a few ulps)')
    ap.add_argument('--no-errors', action='store_true', help='no deliberate run-time errors')
    ap.add_argument('--big', action='store_true',
                    help='also tables of 255..5000 rows and slices of those lengths')
    a = ap.parse_args()
    g = Gen(a.seed, a.size, stdlib=not a.no_stdlib, nbody=a.nbody, errors=not a.no_errors, big=a.big)
    sys.stdout.write(g.generate())


if __name__ == '__main__':
    main()
