#!/usr/bin/env python3
"""Checks the editor support in editors/ against the Star language (ctest: editors-grammar).

Usage: check_grammar.py [--root DIR] [-v]      (DIR: the repository root; default: ../.. of this file)

Three checks; any failure prints what and where, and the exit status is 1.

1. The TextMate grammar (editors/vscode/syntaxes/star.tmLanguage.json).
   Every regex must compile with Python's `re` and stay in the subset that Oniguruma (VS Code's
   engine) and `re` agree on: no \\G, \\A, \\z, \\Z, \\h, \\K, \\R, \\X, \\p, \\k, \\g, \\x{..}, no
   possessive quantifiers (a++), no atomic groups (?>...), no named groups (?<name>...), only the
   flags i and x ((?m) means different things), (?i) only at the very start or scoped as (?i:...),
   lookbehind of fixed width. A small tokenizer of our own
   then runs the grammar the way vscode-textmate does: line by line (each line ends in "\\n"),
   at each position the earliest match of the current rule's end pattern and its patterns wins,
   ties going to the end pattern and then to the first pattern listed; it implements match,
   begin/end, name, contentName, captures/beginCaptures/endCaptures (names only), patterns,
   and include of "#rule", "$self" and "$base".

2. The annotated samples, tests/editors/samples/*.star, in the format of vscode-tmgrammar-test.
   The first line is a header:
       // SYNTAX TEST "source.star" "what this sample covers"
   Every other line is either source, or an assertion about the nearest source line above it.
   An assertion line starts in column 0 with `//` (so it is a Star line comment, and inside a
   block comment it is just comment text: a sample stays valid Star), then blanks, then either
       ^^^^  carets under the columns it is about (the caret in column c marks column c), or
       <---  `<` and N dashes: columns 0 .. N-1 (the columns that `//` itself covers),
   then the scopes that each marked column must have, in order (a subsequence of its scope
   stack, outermost first), and optionally `-` followed by scopes it must not have. A scope in
   an assertion matches a token scope equal to it or starting with it and a dot (TextMate's
   selector rule), so `- comment` forbids every comment scope. Examples:
       WHILE SOME(X) do
       // <----- keyword.control.star
       //    ^^^^ support.function.builtin.star
       //         ^ variable.other.star - support.function
   Assertion lines are tokenized too, as the editor would see them.

3. Coverage. The keywords are read from frontend/Star.g4's lexer (rules such as
   `PROC : P R O C | P R O C E D U R E ;`), the builtins from frontend/sema/Builtins.def (the
   name before '(' or ':' in each entry's signature argument).
   - the TextMate grammar: each keyword, in lower, UPPER and Capitalized case, must tokenize as
     one token with a keyword.*, storage.* or constant.language.* scope; each builtin, as
     `NAME(x)` in each case, must get support.function.builtin.star. The word lists in the
     "keywords" and "builtins" repository rules must name exactly these words (plus the keywords
     in PENDING_KEYWORDS, which the editors may know before the lexer does).
   - the Vim syntax file (editors/vim/syntax/star.vim): `syntax case ignore`; every keyword in a
     `syn keyword` group other than starBuiltin, every builtin in starBuiltin, and no other words
     (groups declared `contained`, such as starTodo, are not counted).
   So adding a keyword or a builtin to the language without updating the editors fails this test.
"""

import argparse
import json
import os
import re
import sys

# Keywords the editors highlight before frontend/Star.g4 has them: the parallel loop
# `forall i in ...` (being added). Once the lexer has them they are ordinary keywords here.
PENDING_KEYWORDS = {"forall", "in"}

KEYWORD_SCOPE_PREFIXES = ("keyword.", "storage.", "constant.language.")
BUILTIN_SCOPE = "support.function.builtin.star"
VIM_BUILTIN_GROUP = "starBuiltin"


class CheckError(Exception):
    pass


# ---------------------------------------------------------------------------------- regex subset

_BAD_ESCAPES = set("GAzZhKRXpkg")


def lint_regex(pattern):
    """Returns a list of problems: constructs outside the Oniguruma / Python re common subset."""
    problems = []
    i, n = 0, len(pattern)
    after_quantifier = False  # the previous item was a quantifier (so `+` now makes it possessive)
    while i < n:
        c = pattern[i]
        if c == "\\":
            e = pattern[i + 1] if i + 1 < n else ""
            if e in _BAD_ESCAPES:
                problems.append("\\%s (missing from, or different in, one of the engines)" % e)
            if e == "x" and pattern[i + 2:i + 3] == "{":
                problems.append("\\x{...}")
            i += 2
            after_quantifier = False
            continue
        if c == "[":
            # Skip the class: a ']' right after '[' or '[^' is literal; escapes are skipped.
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                if pattern[j] == "[" or pattern.startswith("&&", j):
                    problems.append("nested class, POSIX bracket or && inside [...]")
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            after_quantifier = False
            continue
        if pattern.startswith("(?", i):
            rest = pattern[i + 2:]
            if rest.startswith(">"):
                problems.append("atomic group (?>...)")
            elif rest.startswith("<") and not rest.startswith(("<=", "<!")):
                problems.append("named group (?<name>...)")
            elif rest.startswith(("P", "'", "#", "~")):
                problems.append("group (?%s...) of only one engine" % rest[:1])
            else:
                flags = re.match(r"([A-Za-z-]+)([):])", rest)
                if flags and set(flags.group(1)) - set("ix-"):
                    # (?m) is Python's multi-line but Oniguruma's dot-all; (?s) only Python's.
                    problems.append("flags other than i and x in (?%s%s" % flags.groups())
                elif flags and flags.group(2) == ")" and i != 0:
                    problems.append("flags group (?%s) not at the start" % flags.group(1))
            i += 2  # the `?` of `(?` is no quantifier
            after_quantifier = False
            continue
        if c in "*+?" or (c == "}" and re.search(r"\{\d+(?:,\d*)?$", pattern[:i])):
            if after_quantifier and c == "+":
                problems.append("possessive quantifier")
            # `a+?` is lazy: what follows it is an atom again.
            after_quantifier = not (after_quantifier and c == "?")
        else:
            after_quantifier = False
        i += 1
    return problems


# ---------------------------------------------------------------------------------- tokenizer

class Rule:
    def __init__(self, raw, where):
        self.raw = raw
        self.where = where
        self.name = raw.get("name")
        self.content_name = raw.get("contentName")
        self.match = self.begin = self.end = None
        if "match" in raw:
            self.match = compile_regex(raw["match"], where + ".match")
            self.captures = captures_of(raw.get("captures"), where)
        elif "begin" in raw:
            if "end" not in raw:
                raise CheckError("%s: begin without end" % where)
            if "while" in raw:
                raise CheckError("%s: begin/while rules are not supported by this checker" % where)
            self.begin = compile_regex(raw["begin"], where + ".begin")
            if re.search(r"\\[1-9]", raw["end"]):
                raise CheckError("%s: back-references to begin in end are not supported" % where)
            self.end = compile_regex(raw["end"], where + ".end")
            self.begin_captures = captures_of(raw.get("beginCaptures", raw.get("captures")), where)
            self.end_captures = captures_of(raw.get("endCaptures", raw.get("captures")), where)
            if raw.get("applyEndPatternLast"):
                raise CheckError("%s: applyEndPatternLast is not supported by this checker" % where)
        self.patterns = None  # resolved lazily: list of Rule (match or begin/end)


def compile_regex(source, where):
    problems = lint_regex(source)
    if problems:
        raise CheckError("%s: regex %r is outside the Oniguruma/Python common subset: %s"
                         % (where, source, "; ".join(problems)))
    try:
        return re.compile(source)
    except re.error as e:
        raise CheckError("%s: regex %r does not compile in Python: %s" % (where, source, e))


def captures_of(raw, where):
    result = {}
    for key, value in (raw or {}).items():
        if "patterns" in value:
            raise CheckError("%s: captures with patterns are not supported by this checker" % where)
        if "name" in value:
            result[int(key)] = value["name"]
    return result


class Grammar:
    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            try:
                self.raw = json.load(f)
            except json.JSONDecodeError as e:
                raise CheckError("%s: not valid JSON: %s" % (path, e))
        self.path = path
        self.scope_name = self.raw["scopeName"]
        self.repository = self.raw.get("repository", {})
        self._rules = {}
        try:
            self.root = Rule({"patterns": self.raw["patterns"]}, "patterns")
            # Compile every rule up front, so that a bad regex is reported even if no sample uses it.
            self.resolve(self.root)
            for name in self.repository:
                self.resolve(self.rule(self.repository[name], "repository." + name))
        except CheckError as e:
            raise CheckError("%s: %s" % (os.path.relpath(path), e))

    def rule(self, raw, where):
        key = id(raw)
        if key not in self._rules:
            self._rules[key] = Rule(raw, where)
        return self._rules[key]

    def resolve(self, rule):
        if rule.patterns is None:
            rule.patterns = []
            rule.patterns = self._flatten(rule.raw.get("patterns", []), rule.where, set())
            for r in rule.patterns:
                self.resolve(r)
        return rule.patterns

    def _flatten(self, patterns, where, seen):
        out = []
        for k, raw in enumerate(patterns):
            here = "%s.patterns[%d]" % (where, k)
            if "include" in raw:
                inc = raw["include"]
                if inc in ("$self", "$base"):
                    target, twhere = self.raw, "patterns"  # the grammar's top-level patterns
                elif inc.startswith("#"):
                    if inc[1:] not in self.repository:
                        raise CheckError("%s: include %s: no such repository rule" % (here, inc))
                    target, twhere = self.repository[inc[1:]], "repository." + inc[1:]
                else:
                    raise CheckError("%s: include %s: other grammars are not supported" % (here, inc))
                if "match" in target or "begin" in target:
                    out.append(self.rule(target, twhere))
                elif id(target) not in seen:
                    out.extend(self._flatten(target.get("patterns", []), twhere, seen | {id(target)}))
            elif "match" in raw or "begin" in raw:
                out.append(self.rule(raw, here))
            elif "patterns" in raw:
                out.extend(self._flatten(raw["patterns"], here, seen))
            else:
                raise CheckError("%s: a rule with neither match, begin, include nor patterns" % here)
        return out

    def tokenize(self, lines):
        """Returns, for each line, a list with one scope tuple per column."""
        stack = [(self.root, (self.scope_name,), (self.scope_name,))]  # rule, outer scopes, content scopes
        result = []
        for lineno, line in enumerate(lines, 1):
            text = line + "\n"
            n = len(line)
            cols = [None] * n
            pos = 0

            def fill(a, b, scopes):
                for c in range(max(a, 0), min(b, n)):
                    cols[c] = scopes

            def capture(m, caps, base):
                fill(m.start(), m.end(), base)
                for g in sorted(caps):
                    if g <= (m.re.groups) and m.start(g) != -1 and m.end(g) > m.start(g):
                        for c in range(m.start(g), min(m.end(g), n)):
                            cols[c] = cols[c] + (caps[g],)

            while True:
                rule, outer, content = stack[-1]
                best, best_rule, is_end = None, None, False
                if rule.end is not None:
                    best = rule.end.search(text, pos)
                    is_end = best is not None
                for r in self.resolve(rule):
                    m = (r.match or r.begin).search(text, pos)
                    if m and (best is None or m.start() < best.start()):
                        best, best_rule, is_end = m, r, False
                if best is None:
                    fill(pos, n, content)
                    break
                fill(pos, best.start(), content)
                if is_end:
                    capture(best, rule.end_captures, outer)
                    stack.pop()
                elif best.end() == best.start():
                    raise CheckError("line %d column %d: %s matches the empty string, so the "
                                     "tokenizer would not advance" % (lineno, best.start() + 1, best_rule.where))
                elif best_rule.match is not None:
                    scopes = content + ((best_rule.name,) if best_rule.name else ())
                    capture(best, best_rule.captures, scopes)
                else:
                    scopes = content + ((best_rule.name,) if best_rule.name else ())
                    capture(best, best_rule.begin_captures, scopes)
                    inner = scopes + ((best_rule.content_name,) if best_rule.content_name else ())
                    stack.append((best_rule, scopes, inner))
                pos = best.end()
                if pos > n:
                    break
            result.append(cols)
        return result


# ---------------------------------------------------------------------------------- samples

HEADER_RE = re.compile(r'^//\s*SYNTAX TEST\s+"([^"]+)"')
ASSERT_RE = re.compile(r"^//(\s*)(\^+|<-+)(.*)$")


def scope_matches(want, have):
    return have == want or have.startswith(want + ".")


def check_sample(grammar, path, verbose):
    rel = os.path.relpath(path)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    errors = []
    if not lines or not HEADER_RE.match(lines[0]):
        return ['%s:1: the first line must be // SYNTAX TEST "%s" "description"' % (rel, grammar.scope_name)]
    if HEADER_RE.match(lines[0]).group(1) != grammar.scope_name:
        errors.append('%s:1: the header names scope %s, the grammar is %s'
                      % (rel, HEADER_RE.match(lines[0]).group(1), grammar.scope_name))
    try:
        tokens = grammar.tokenize(lines)
    except CheckError as e:
        return errors + ["%s: %s" % (rel, e)]
    source_line = None  # index of the line the assertions are about
    count = 0
    for i, line in enumerate(lines[1:], 1):
        m = ASSERT_RE.match(line)
        if not m:
            source_line = i
            continue
        where = "%s:%d" % (rel, i + 1)
        if source_line is None:
            errors.append("%s: an assertion before any source line" % where)
            continue
        marker = m.group(2)
        if marker.startswith("<"):
            first, last = 0, len(marker) - 1
        else:
            first = 2 + len(m.group(1))
            last = first + len(marker)
        spec = m.group(3).split()
        if "-" in spec:
            k = spec.index("-")
            want, forbid = spec[:k], spec[k + 1:]
        else:
            want, forbid = spec, []
        if not want and not forbid:
            errors.append("%s: the assertion names no scope" % where)
            continue
        src = lines[source_line]
        if last > len(src):
            errors.append("%s: the marks reach column %d, but line %d has %d characters"
                          % (where, last, source_line + 1, len(src)))
            continue
        count += 1
        for c in range(first, last):
            have = tokens[source_line][c]
            problem = None
            k = 0
            for s in have:  # `want` must be a subsequence of the scope stack
                if k < len(want) and scope_matches(want[k], s):
                    k += 1
            if k < len(want):
                problem = "expected %s" % " ".join(want[k:]) if k == 0 else \
                    "expected %s (after %s)" % (" ".join(want[k:]), " ".join(want[:k]))
            else:
                bad = [s for s in have for f in forbid if scope_matches(f, s)]
                if bad:
                    problem = "did not expect %s" % " ".join(bad)
            if problem:
                pad = " " * len("  source: ")
                errors.append("%s: line %d column %d (%r): %s\n  source: %s\n%s%s\n  scopes: %s"
                              % (where, source_line + 1, c + 1, src[c], problem, src,
                                 pad, " " * c + "^", " ".join(have)))
                break  # one message per assertion line
    if count == 0:
        errors.append("%s: no assertions" % rel)
    if verbose:
        print("  %s: %d assertions" % (rel, count), flush=True)
    return errors


# ---------------------------------------------------------------------------------- coverage

def lexer_keywords(g4_path):
    """The keywords of the lexer: rules whose alternatives are letter fragments, `IF : I F ;`."""
    with open(g4_path, encoding="utf-8") as f:
        text = f.read()
    words = set()
    letters = r"[A-Z](?:\s+[A-Z])*"
    for m in re.finditer(r"^([A-Z][A-Z0-9_]*)\s*:\s*([^;]*);", text, re.M):
        body = m.group(2).strip()
        if re.fullmatch(r"%s(?:\s*\|\s*%s)*" % (letters, letters), body):
            for alt in body.split("|"):
                words.add("".join(alt.split()).lower())
    if "begin" not in words or len(words) < 20:
        raise CheckError("%s: found only %d keyword rules (%s); has the lexer's style changed?"
                         % (g4_path, len(words), " ".join(sorted(words))))
    return words


def macro_calls(text, macro):
    """The argument lists of the calls `MACRO(...)` that start a line, split at top-level commas
    (commas inside string literals and parentheses do not split)."""
    calls = []
    for m in re.finditer(r"^[ \t]*%s\(" % macro, text, re.M):
        args, cur, depth, i, quote = [], "", 0, m.end(), None
        while i < len(text):
            c = text[i]
            if quote:
                cur += c
                if c == "\\":
                    cur += text[i + 1:i + 2]
                    i += 1
                elif c == quote:
                    quote = None
            elif c in "\"'":
                quote = c
                cur += c
            elif c == "(":
                depth += 1
                cur += c
            elif c == ")" and depth:
                depth -= 1
                cur += c
            elif c == ")" or (c == "," and not depth):
                args.append(cur.strip())
                cur = ""
                if c == ")":
                    break
            else:
                cur += c
            i += 1
        calls.append(args)
    return calls


def builtin_names(def_path):
    """The names of Builtins.def: the text before '(' or ':' of each entry's signature argument.
    Which argument that is comes from the file's own description of the macro, a comment line
    such as `// BUILTIN(Id, params, result, opcode, signature, doc)`."""
    with open(def_path, encoding="utf-8") as f:
        text = f.read()
    sig_index = None
    for m in re.finditer(r"^\s*//\s*BUILTIN\(([^)]*)\)", text, re.M):
        params = [p.strip() for p in m.group(1).split(",")]
        for k, p in enumerate(params):
            if p.startswith("signature"):
                sig_index = k
        if sig_index is not None:
            break
    if sig_index is None:
        raise CheckError("%s: no comment `// BUILTIN(..., signature, ...)` says which argument "
                         "is the signature" % def_path)
    names = set()
    for args in macro_calls(text, "BUILTIN"):
        sig = args[sig_index] if len(args) > sig_index else ""
        m = re.match(r'"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:[(:]|")', sig)
        if not m:
            raise CheckError("%s: BUILTIN(%s): argument %d is not a signature \"NAME(...)\""
                             % (def_path, ", ".join(args), sig_index + 1))
        names.add(m.group(1).lower())
    if len(names) < 10:
        raise CheckError("%s: found only %d BUILTIN(...) entries" % (def_path, len(names)))
    return names


def regex_words(source):
    """The words of a rule written as (?i)\\b(?:w1|w2|...)\\b, or None."""
    m = re.fullmatch(r"(?:\(\?i\))?\\b\(\?:([A-Za-z_][A-Za-z0-9_|]*)\)\\b", source)
    return {w.lower() for w in m.group(1).split("|")} if m else None


def rule_words(grammar, repo_name):
    entry = grammar.raw["repository"].get(repo_name)
    if entry is None:
        raise CheckError("%s: no repository rule %r" % (grammar.path, repo_name))
    words = set()
    for k, raw in enumerate(entry.get("patterns", [entry])):
        w = regex_words(raw.get("match", ""))
        if w is None:
            raise CheckError("%s: repository.%s.patterns[%d]: the check expects a word list "
                             "written as (?i)\\\\b(?:a|b|c)\\\\b, found %r"
                             % (grammar.path, repo_name, k, raw.get("match")))
        words |= w
    return words


def describe(text, cols):
    """`'ab' source.star x | 'c' source.star y`: the runs of equal scopes of a tokenized line."""
    runs, start = [], 0
    for c in range(1, len(cols) + 1):
        if c == len(cols) or cols[c] != cols[start]:
            runs.append("%r %s" % (text[start:c], " ".join(cols[start])))
            start = c
    return " | ".join(runs)


def variants(word):
    return [word.lower(), word.upper(), word.capitalize()]


def check_textmate_coverage(grammar, keywords, builtins):
    errors = []
    rel = os.path.relpath(grammar.path)
    listed_kw = rule_words(grammar, "keywords")
    listed_bi = rule_words(grammar, "builtins")
    for w in sorted(keywords - listed_kw):
        errors.append("%s: keyword %r of the lexer is missing from repository.keywords" % (rel, w))
    for w in sorted(listed_kw - keywords - PENDING_KEYWORDS):
        errors.append("%s: repository.keywords lists %r, which is not a keyword of the lexer" % (rel, w))
    for w in sorted(builtins - listed_bi):
        errors.append("%s: builtin %r of Builtins.def is missing from repository.builtins" % (rel, w))
    for w in sorted(listed_bi - builtins):
        errors.append("%s: repository.builtins lists %r, which is not in Builtins.def" % (rel, w))
    # And that the grammar as a whole gives them the right scopes (order of rules matters).
    for w in sorted(keywords | PENDING_KEYWORDS):
        for v in variants(w):
            cols = grammar.tokenize([v])[0]
            if len(set(cols)) != 1 or not any(s.startswith(KEYWORD_SCOPE_PREFIXES) for s in cols[0]):
                errors.append("%s: keyword %r does not tokenize as one keyword token: %s"
                              % (rel, v, describe(v, cols)))
                break
    for w in sorted(builtins):
        for v in variants(w):
            cols = grammar.tokenize([v + "(x)"])[0][:len(v)]
            if not all(BUILTIN_SCOPE in c for c in cols):
                errors.append("%s: builtin %r does not get %s: %s"
                              % (rel, v, BUILTIN_SCOPE, describe(v, cols)))
                break
    return errors


def vim_keyword_groups(vim_path):
    """{group: set of words} of the `syn keyword` lines that are not `contained`, and the file."""
    with open(vim_path, encoding="utf-8") as f:
        raw_lines = f.read().split("\n")
    lines = []
    for line in raw_lines:  # Vim line continuation: a line starting with `\` continues the last
        if re.match(r"\s*\\", line) and lines:
            lines[-1] += " " + line.strip()[1:]
        else:
            lines.append(line)
    groups = {}
    for line in lines:
        m = re.match(r"\s*sy(?:n|nt|nta|ntax)?\s+keyword\s+(\w+)\s+(.*)$", line)
        if not m:
            continue
        items = m.group(2).split('"')[0].split()  # a `"` starts a comment
        if "contained" in items:
            continue
        words = {w.lower() for w in items if "=" not in w and w not in
                 ("skipwhite", "skipnl", "skipempty", "transparent", "oneline", "fold",
                  "display", "extend", "conceal", "concealends")}
        groups.setdefault(m.group(1), set()).update(words)
    return groups, "\n".join(lines)


def check_vim_coverage(vim_path, keywords, builtins):
    rel = os.path.relpath(vim_path)
    errors = []
    groups, text = vim_keyword_groups(vim_path)
    if not re.search(r"^\s*sy(?:n|ntax)?\s+case\s+ignore\b", text, re.M):
        errors.append("%s: no `syntax case ignore` (Star's keywords and builtins are case-insensitive)" % rel)
    vim_bi = groups.pop(VIM_BUILTIN_GROUP, set())
    vim_kw = set().union(*groups.values()) if groups else set()
    for w in sorted(keywords - vim_kw):
        errors.append("%s: keyword %r of the lexer is in no `syn keyword` group" % (rel, w))
    for w in sorted(vim_kw - keywords - PENDING_KEYWORDS):
        errors.append("%s: `syn keyword` lists %r, which is not a keyword of the lexer" % (rel, w))
    for w in sorted(builtins - vim_bi):
        errors.append("%s: builtin %r of Builtins.def is missing from `syn keyword %s`"
                      % (rel, w, VIM_BUILTIN_GROUP))
    for w in sorted(vim_bi - builtins):
        errors.append("%s: `syn keyword %s` lists %r, which is not in Builtins.def"
                      % (rel, VIM_BUILTIN_GROUP, w))
    for w in sorted(vim_bi & vim_kw):
        errors.append("%s: %r is both a keyword and a builtin" % (rel, w))
    return errors


# ---------------------------------------------------------------------------------- main

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..")))
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()
    root = args.root
    os.chdir(root)
    paths = {
        "grammar": os.path.join("editors", "vscode", "syntaxes", "star.tmLanguage.json"),
        "vim": os.path.join("editors", "vim", "syntax", "star.vim"),
        "g4": os.path.join("frontend", "Star.g4"),
        "builtins": os.path.join("frontend", "sema", "Builtins.def"),
        "samples": os.path.join("tests", "editors", "samples"),
    }
    errors = []
    try:
        grammar = Grammar(paths["grammar"])
        keywords = lexer_keywords(paths["g4"])
        builtins = builtin_names(paths["builtins"])
        samples = sorted(os.path.join(paths["samples"], f)
                         for f in os.listdir(paths["samples"]) if f.endswith(".star"))
        if not samples:
            errors.append("%s: no *.star samples" % paths["samples"])
        for s in samples:
            errors += check_sample(grammar, s, args.verbose)
        errors += check_textmate_coverage(grammar, keywords, builtins)
        errors += check_vim_coverage(paths["vim"], keywords, builtins)
    except (CheckError, OSError) as e:
        errors.append(str(e))
    for e in errors:
        print("error: " + e, file=sys.stderr)
    if any(" of the lexer " in e or " of Builtins.def " in e for e in errors):
        print("note: a keyword or builtin of the language must be added to both editors: the "
              "word lists of editors/vscode/syntaxes/star.tmLanguage.json (repository.keywords, "
              "repository.builtins) and the `syn keyword` lines of editors/vim/syntax/star.vim",
              file=sys.stderr)
    if errors:
        print("check_grammar: %d problem(s)" % len(errors), file=sys.stderr)
        return 1
    print("check_grammar: ok: %d samples; %d keywords (%s pending) and %d builtins in the TextMate "
          "grammar and the Vim syntax" % (len(samples), len(keywords), len(PENDING_KEYWORDS - keywords),
                                         len(builtins)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
