#!/usr/bin/env python3
"""The layering check: no folder includes a header of a folder it may not.

The rule is the table of docs/ARCHITECTURE.md §2 ("The folders"): its first column names the
folders (`core/`, `vm/engine/`, ...), its "may include" column what each may include:

  * backticked folders (`core/`, `vm/bytecode/`): any header under them;
  * a backticked file (`vm/backend/DeviceEngine.h`): that one header, an explicit exception;
  * other backticked words (`EngineRun`) are prose;
  * "everything": any folder of the table;
  * anything else ("the standard library only", "—"): nothing but the folder itself.
The rows are in layer order: a row may name only folders above it (exit status 2 otherwise).

A folder may always include its own headers. A source file belongs to the longest folder of the
table that holds it; a file in no folder of the table is itself a violation (the table must
name every folder with code). Every `#include "..."` of every .h, .cpp, .cu and .cuh file (and of
the .inc and .def files that sources include) is checked, except under build*/ and hidden
folders; an include is resolved as the compiler does, beside the including file first, then from
the root (the one include directory of the project).
An include that resolves to no file and names no folder of the table is generated code (ANTLR's
StarParser.h) or a library's header, and is not checked.

Usage: check_layers.py [--root DIR] [--expect FILE]
  --root DIR     the tree to check (default: the repository holding this script)
  --expect FILE  pass only if the violations found are exactly FILE's lines (the self-test)
Exit status: 0 no violation (or, with --expect, exactly the expected ones), 1 violations,
2 the table cannot be read.
"""

import argparse
import os
import re
import sys

SOURCE_SUFFIXES = (".h", ".cpp", ".cu", ".cuh", ".inc", ".def")  # .inc, .def: included code
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
BACKTICKED = re.compile(r"`([^`]+)`")


class TableError(Exception):
    pass


def read_rules(doc_path):
    """{folder: (may-include folders, allowed single headers, everything?)} from §2's table."""
    try:
        with open(doc_path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise TableError(f"{doc_path}: {e.strerror}")
    start = next((i for i, l in enumerate(lines) if re.match(r"^##\s+2\.\s", l)), None)
    if start is None:
        raise TableError(f"{doc_path}: no section '## 2. ...'")
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"^##\s", lines[i])), len(lines))
    rows = [l for l in lines[start + 1:end] if l.strip().startswith("|")]
    if len(rows) < 3:
        raise TableError(f"{doc_path}: §2 has no table")

    def cells(row):
        return [c.strip() for c in row.strip().strip("|").split("|")]

    header = [c.lower() for c in cells(rows[0])]
    if "folder" not in header or "may include" not in header:
        raise TableError(f"{doc_path}: §2's table needs the columns 'folder' and 'may include'")
    folder_col, may_col = header.index("folder"), header.index("may include")
    rules = {}
    for row in rows[2:]:  # rows[1] is the |---| line
        c = cells(row)
        if len(c) != len(header):
            raise TableError(f"{doc_path}: a row of §2's table has {len(c)} cells, not {len(header)}: {row}")
        folders = [t.rstrip("/") for t in BACKTICKED.findall(c[folder_col]) if t.endswith("/")]
        if not folders:
            raise TableError(f"{doc_path}: a row of §2's table names no folder: {row}")
        may = c[may_col]
        tokens = [t for t in BACKTICKED.findall(may) if "/" in t]  # paths, not `EngineRun`
        may_folders = {t.rstrip("/") for t in tokens if t.endswith("/")}
        may_files = {t for t in tokens if not t.endswith("/")}
        everything = "everything" in may.lower()
        for f in folders:
            rules[f] = (may_folders, may_files, everything)
    # The rows are in layer order: a row names folders above it only (a single header is how
    # an exception is written), so that the table can hold no circle.
    order = list(rules)
    for f, (may_folders, may_files, _) in rules.items():
        for m in may_folders:
            if m not in rules:
                raise TableError(f"{doc_path}: §2 lets {f}/ include {m}/, which the table does not list")
            if order.index(m) > order.index(f):
                raise TableError(f"{doc_path}: §2 lets {f}/ include {m}/, a folder below its row")
    return rules


def folder_of(path, folders):
    """The longest folder of the table holding path (relative, '/'-separated), or None."""
    best = None
    for f in folders:
        if (path == f or path.startswith(f + "/")) and (best is None or len(f) > len(best)):
            best = f
    return best


def sources(root):
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and not (rel == "." and d.startswith("build")))
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.normpath(os.path.join(rel, name)).replace(os.sep, "/")


def resolve(root, src, target, folders):
    """The included file's path relative to root, or None for generated and library headers."""
    beside = os.path.normpath(os.path.join(os.path.dirname(src), target)).replace(os.sep, "/")
    if not beside.startswith("../") and os.path.isfile(os.path.join(root, beside)):
        return beside
    from_root = os.path.normpath(target).replace(os.sep, "/")
    if not from_root.startswith("../") and (os.path.isfile(os.path.join(root, from_root))
                                            or folder_of(from_root, folders)):
        return from_root
    return None


def check(root, rules):
    violations = []
    folders = list(rules)
    for src in sources(root):
        mine = folder_of(src, folders)
        if mine is None:
            violations.append(f"{src}:1: {src} is in no folder of §2's table")
            continue
        may_folders, may_files, everything = rules[mine]
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, src, m.group(1), folders)
                if target is None:
                    continue
                theirs = folder_of(target, folders)
                if theirs == mine or target in may_files:
                    continue
                if theirs is not None and (everything or theirs in may_folders):
                    continue
                shown = f"{theirs}/" if theirs else f"{target} (in no folder of the table)"
                violations.append(f"{src}:{number}: folder {mine}/ includes {shown}, "
                                  "which §2 does not allow")
    return violations


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", default=os.path.normpath(os.path.join(here, "..", "..")))
    parser.add_argument("--expect", help="pass only if exactly these violations are found")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    try:
        rules = read_rules(os.path.join(root, "docs", "ARCHITECTURE.md"))
    except TableError as e:
        print(f"check_layers: {e}", file=sys.stderr)
        return 2
    violations = check(root, rules)
    for v in violations:
        print(v)
    if args.expect is not None:
        with open(args.expect, encoding="utf-8") as f:
            expected = [l for l in f.read().splitlines() if l.strip()]
        if not expected:
            print(f"check_layers: {args.expect} expects no violation; a self-test needs one",
                  file=sys.stderr)
            return 1
        if violations != expected:
            print(f"check_layers: expected exactly the violations of {args.expect}:", file=sys.stderr)
            for e in expected:
                print(f"  {e}", file=sys.stderr)
            return 1
        print(f"check_layers: the {len(expected)} planted violation(s) of {root} found, nothing else")
        return 0
    if violations:
        print(f"check_layers: {len(violations)} violation(s) of docs/ARCHITECTURE.md §2",
              file=sys.stderr)
        return 1
    print(f"check_layers: every include of {root} keeps the layers of docs/ARCHITECTURE.md §2")
    return 0


if __name__ == "__main__":
    sys.exit(main())
