#!/usr/bin/env python3
"""A conversation with `star lsp` (ctest lsp-conversation): initialize, open a program that uses
the standard unit graphs, change it, and check the replies to hover, definition, references,
completion, documentSymbol and semanticTokens, then shutdown and exit.

  conversation_test.py STAR REPO_ROOT
"""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient, path_uri, position_of  # noqa: E402

PROGRAM = """program Demo;
uses graphs;
const Size = 4;
var A: table(Size, Size);
    X: slice(A);
    n, spare: integer;

{ Marks every row of Y and remembers k. }
procedure fill(var Y: slice; k: integer);
var t: word(Size);
begin
  SET(Y);
  t := ROW(1, A);
  n := k + LEN(t)
end;

begin
  n := GR_BITS(12);
  fill(X, n);
  writeln('\U0001D11E\u00e9', n, NUMB(X))
end.
"""

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL: " + what)


def expect_equal(actual, expected, what):
    expect(actual == expected, "%s: expected %r, got %r" % (what, expected, actual))


def rng(start, end):
    return {"start": start, "end": end}


def pos(line, character):
    return {"line": line, "character": character}


def span(text, needle, occurrence=0, offset=0, length=None):
    """The range of `needle` (its first `length` characters) in `text`."""
    start = position_of(text, needle, occurrence, offset)
    n = len(needle) - offset if length is None else length
    return rng(start, pos(start["line"], start["character"] + n))


def decode_tokens(data, legend):
    """Semantic tokens as {(line, character): (length, type, [modifiers])}."""
    tokens, line, char = {}, 0, 0
    for i in range(0, len(data), 5):
        dl, dc, length, kind, mods = data[i:i + 5]
        line += dl
        char = char + dc if dl == 0 else dc
        names = [m for b, m in enumerate(legend["tokenModifiers"]) if mods & (1 << b)]
        tokens[(line, char)] = (length, legend["tokenTypes"][kind], names)
    return tokens


def main(star, root):
    graphs_path = os.path.join(root, "stdlib", "graphs.star")
    graphs_text = open(graphs_path, encoding="utf-8").read()
    graphs_uri = path_uri(graphs_path)
    work = tempfile.mkdtemp(prefix="star-lsp-")
    try:
        program_path = os.path.join(work, "demo.star")
        with open(program_path, "w", encoding="utf-8") as f:
            f.write(PROGRAM)
        uri = path_uri(program_path)
        client = LspClient(star, cwd=work)
        try:
            converse(client, uri, graphs_uri, graphs_text)
            status = client.shutdown_and_exit()
            expect_equal(status, 0, "exit status after shutdown and exit")
        finally:
            client.close()
    finally:
        shutil.rmtree(work)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("lsp conversation: all checks passed")
    return 0


def converse(client, uri, graphs_uri, graphs_text):
    text = PROGRAM
    doc = {"uri": uri}

    # ---- initialize
    result = client.initialize({"textDocument": {"documentSymbol": {
        "hierarchicalDocumentSymbolSupport": True}}})
    caps = result["capabilities"]
    for provider in ("hoverProvider", "definitionProvider", "referencesProvider",
                     "documentSymbolProvider"):
        expect(caps.get(provider) is True, "capability " + provider)
    expect("completionProvider" in caps, "capability completionProvider")
    expect_equal(caps["textDocumentSync"]["change"], 1, "full text synchronisation")
    expect_equal(caps["positionEncoding"], "utf-16", "default position encoding")
    legend = caps["semanticTokensProvider"]["legend"]
    for modifier in ("slice", "word", "table"):
        expect(modifier in legend["tokenModifiers"], "semantic token modifier " + modifier)

    # ---- didOpen: the one warning, with its range
    diagnostics = client.open(uri, text, 1)
    expect_equal(len(diagnostics), 1, "diagnostics of the valid program")
    if diagnostics:
        d = diagnostics[0]
        expect_equal(d["message"], "variable 'spare' is declared but never used", "warning text")
        expect_equal(d["severity"], 2, "warning severity")
        expect_equal(d["range"], span(text, "spare"), "warning range")

    # ---- didChange: a type error, then a syntax error, then an error after a non-BMP character
    broken = text.replace("n := GR_BITS(12)", "n := true")
    diagnostics = client.change(uri, broken, 2)
    expect_equal([d["message"] for d in diagnostics],
                 ["cannot assign a boolean to 'n' of type integer"], "type error message")
    if diagnostics:
        expect_equal(diagnostics[0]["range"], span(broken, "true"), "type error range")
        expect_equal(diagnostics[0]["severity"], 1, "error severity")

    broken = text.replace("fill(X, n);", "fill(X n);")
    diagnostics = client.change(uri, broken, 3)
    expect_equal([d["message"] for d in diagnostics], ["unexpected 'n'"], "syntax error message")
    if diagnostics:
        expect_equal(diagnostics[0]["range"], span(broken, "n);", 0, 0, 1), "syntax error range")

    broken = text.replace("\u00e9', n,", "\u00e9', n + true,")
    diagnostics = client.change(uri, broken, 4)
    expect_equal([d["message"] for d in diagnostics],
                 ["operator '+' cannot combine integer and boolean"], "operator error message")
    if diagnostics:
        # The string before it holds a character outside the BMP: two UTF-16 units.
        expect_equal(diagnostics[0]["range"], span(broken, "+ true", 0, 0, 1),
                     "operator error range (UTF-16 columns)")

    # Completion still offers the declarations while the text does not parse.
    broken = text.replace("  fill(X, n);", "  fill(X, n) +;")
    client.change(uri, broken, 5)
    items = client.request("textDocument/completion", {
        "textDocument": doc, "position": position_of(broken, "fill(X")})
    labels = {i["label"] for i in items["items"]}
    expect({"fill", "spare", "GR_BITS"} <= labels, "completion from the last text that parsed")

    diagnostics = client.change(uri, text, 6)
    expect_equal(len(diagnostics), 1, "diagnostics after the fix")

    # ---- hover
    def hover(needle, occurrence=0, offset=0):
        r = client.request("textDocument/hover", {
            "textDocument": doc, "position": position_of(text, needle, occurrence, offset)})
        return r["contents"]["value"] if r else None

    h = hover("A:")
    expect(h is not None and "var A: table(4, 4)" in h and "global variable" in h,
           "hover on a table variable: %r" % h)
    h = hover("NUMB(X)", 0, 5)
    expect(h is not None and "var X: slice(4)" in h, "hover on a slice variable: %r" % h)
    h = hover("Size", 1)
    expect(h is not None and "const Size: integer = 4" in h, "hover on a constant: %r" % h)
    h = hover("Y)")
    expect(h is not None and "var Y: slice" in h and "var parameter" in h,
           "hover on a var parameter: %r" % h)
    h = hover("fill(X")
    expect(h is not None and "procedure fill(var Y: slice; k: integer)" in h
           and "Marks every row of Y and remembers k." in h,
           "hover on a procedure, with its comment: %r" % h)
    h = hover("NUMB")
    expect(h is not None and "NUMB(Y: slice or word): integer" in h and "number of 1s in Y" in h,
           "hover on a builtin: %r" % h)
    h = hover("GR_BITS")
    expect(h is not None and "function GR_BITS(x: integer): integer" in h
           and "declared in unit `graphs`" in h and "The number of bits of x" in h,
           "hover on a function of unit graphs: %r" % h)
    h = hover("graphs")
    expect(h is not None and "unit graphs" in h, "hover on the unit name: %r" % h)
    expect(hover("begin", 1) is None, "hover on a keyword is empty")

    # ---- definition: into stdlib/graphs.star, and inside the document
    loc = client.request("textDocument/definition", {
        "textDocument": doc, "position": position_of(text, "GR_BITS")})
    expect(loc is not None, "definition of GR_BITS")
    if loc:
        expect_equal(loc["uri"], graphs_uri, "definition file of GR_BITS")
        expect_equal(loc["range"], span(graphs_text, "GR_BITS(x: integer)", 0, 0, 7),
                     "definition range of GR_BITS in graphs.star")
    loc = client.request("textDocument/definition", {
        "textDocument": doc, "position": position_of(text, "n := k")})
    expect_equal(loc, {"uri": uri, "range": span(text, "n,", 0, 0, 1)}, "definition of n")
    loc = client.request("textDocument/definition", {
        "textDocument": doc, "position": position_of(text, "graphs")})
    expect(loc is not None and loc["uri"] == graphs_uri, "definition of the unit name: %r" % loc)
    loc = client.request("textDocument/definition", {
        "textDocument": doc, "position": position_of(text, "SET")})
    expect_equal(loc, None, "a builtin has no definition")

    # ---- references
    def references(needle, include, occurrence=0):
        return client.request("textDocument/references", {
            "textDocument": doc, "position": position_of(text, needle, occurrence),
            "context": {"includeDeclaration": include}})

    n_uses = [span(text, "n := k", 0, 0, 1), span(text, "n := GR", 0, 0, 1),
              span(text, "n);", 0, 0, 1), span(text, "n, NUMB", 0, 0, 1)]
    refs = references("n := k", True)
    expect_equal(sorted((r["range"]["start"]["line"], r["range"]["start"]["character"])
                        for r in refs),
                 sorted((r["start"]["line"], r["start"]["character"])
                        for r in [span(text, "n,", 0, 0, 1)] + n_uses),
                 "references of n with its declaration")
    refs = references("n := k", False)
    expect_equal(len(refs), 4, "references of n without its declaration")
    expect(all(r["uri"] == uri for r in refs), "references of n are in the document")
    refs = references("GR_BITS", True)
    in_graphs = [r for r in refs if r["uri"] == graphs_uri]
    expect(any(r["range"] == span(graphs_text, "GR_BITS(x: integer)", 0, 0, 7) for r in in_graphs),
           "references of GR_BITS include its declaration in graphs.star")
    expect(len(in_graphs) >= 2, "references of GR_BITS include its uses inside graphs.star")
    expect(any(r["uri"] == uri for r in refs), "references of GR_BITS include the program's call")

    # ---- completion
    def completion(needle, occurrence=0, offset=0, in_text=None):
        t = in_text or text
        r = client.request("textDocument/completion", {
            "textDocument": doc, "position": position_of(t, needle, occurrence, offset)})
        return {i["label"]: i for i in r["items"]}

    items = completion("SET(Y)")
    for name in ("Y", "k", "t", "A", "Size", "fill", "GR_BITS", "NUMB", "writeln", "begin", "while"):
        expect(name in items, "completion inside fill offers " + name)
    expect(items.get("NUMB", {}).get("detail") == "NUMB(Y: slice or word): integer",
           "completion detail of a builtin")
    expect(items.get("A", {}).get("detail") == "var A: table(4, 4)",
           "completion detail of a variable")
    items = completion("n := GR")
    expect("t" not in items and "k" not in items, "fill's locals are not in scope in the main body")
    expect("n" in items and "X" in items, "globals are in scope in the main body")
    with_uses = text.replace("uses graphs;", "uses graphs, ")
    client.change(uri, with_uses, 7)
    items = completion("graphs, ", 0, 8, with_uses)
    expect({"graphs", "sort", "assoc"} <= set(items), "unit names after uses: %r" % sorted(items))
    expect("begin" not in items, "no keywords after uses")
    client.change(uri, text, 8)

    # ---- documentSymbol
    symbols = client.request("textDocument/documentSymbol", {"textDocument": doc})
    by_name = {s["name"]: s for s in symbols}
    expect_equal(sorted(by_name), ["A", "Size", "X", "fill", "n", "spare"], "document symbols")
    expect_equal(by_name.get("Size", {}).get("kind"), 14, "a constant's symbol kind")
    expect_equal(by_name.get("A", {}).get("kind"), 13, "a variable's symbol kind")
    fill = by_name.get("fill", {})
    expect_equal(fill.get("kind"), 12, "a procedure's symbol kind")
    expect_equal(fill.get("detail"), "procedure fill(var Y: slice; k: integer)", "procedure detail")
    expect_equal(fill.get("selectionRange"), span(text, "fill(", 0, 0, 4), "procedure selection range")
    expect_equal(fill.get("range"), rng(position_of(text, "procedure fill"),
                                        position_of(text, "end;", 0, 4)), "procedure range")
    expect_equal([c["name"] for c in fill.get("children", [])], ["Y", "k", "t"],
                 "procedure children")

    # ---- semantic tokens
    data = client.request("textDocument/semanticTokens/full", {"textDocument": doc})["data"]
    tokens = decode_tokens(data, legend)

    def token(needle, occurrence=0, offset=0):
        p = position_of(text, needle, occurrence, offset)
        return tokens.get((p["line"], p["character"]))

    expect_equal(token("A:"), (1, "variable", ["declaration", "table"]), "token of A's declaration")
    expect_equal(token("X:"), (1, "variable", ["declaration", "slice"]), "token of X's declaration")
    expect_equal(token("t :="), (1, "variable", ["word"]), "token of the word t")
    expect_equal(token("Y)"), (1, "parameter", ["slice"]), "token of the slice parameter Y")
    expect_equal(token("Size", 1), (4, "variable", ["readonly"]), "token of a constant")
    expect_equal(token("GR_BITS"), (7, "function", []), "token of a unit's function")
    expect_equal(token("NUMB"), (4, "function", ["defaultLibrary"]), "token of a builtin")
    expect_equal(token("graphs"), (6, "namespace", []), "token of a unit name")
    expect_equal(token("n, NUMB"), (1, "variable", []), "token after a non-BMP character")

    # ---- a missing ';': the syntax error is reported, and the rest of the file keeps its hover and
    # definitions (the parser's repaired tree is checked, its messages dropped)
    broken = text.replace("SET(Y);", "SET(Y)")
    diagnostics = client.change(uri, broken, 9)
    expect(any("error" in d["message"] or d.get("severity") == 1 for d in diagnostics),
           "a syntax error is reported: %r" % diagnostics)
    r = client.request("textDocument/hover", {"textDocument": doc, "position": position_of(broken, "A:")})
    h = r and r["contents"]["value"]
    expect(h is not None and "var A: table(4, 4)" in h, "hover after a syntax error: %r" % h)
    loc = client.request("textDocument/definition", {
        "textDocument": doc, "position": position_of(broken, "n := GR")})
    expect_equal(loc, {"uri": uri, "range": span(broken, "n,", 0, 0, 1)}, "definition after a syntax error")
    # A unit name cut short: 'did you mean' names the unit.
    cut = text.replace("uses graphs;", "uses gra;")
    diagnostics = client.change(uri, cut, 10)
    expect(any("unit 'gra' not found" in d["message"] and "did you mean 'graphs'?" in d["message"]
               for d in diagnostics), "a unit not found, with a suggestion: %r" % diagnostics)
    client.change(uri, text, 11)

    # ---- the unit itself, opened: checked as a unit, no messages
    diagnostics = client.open(graphs_uri, graphs_text, 1)
    expect_equal(diagnostics, [], "diagnostics of stdlib/graphs.star")
    symbols = client.request("textDocument/documentSymbol", {"textDocument": {"uri": graphs_uri}})
    expect("GR_BITS" in {s["name"] for s in symbols}, "graphs.star's symbols")
    refs = references("GR_BITS", True)
    keys = [(r["uri"], r["range"]["start"]["line"], r["range"]["start"]["character"]) for r in refs]
    expect_equal(len(keys), len(set(keys)), "references are not repeated when the unit is open")

    # ---- didClose
    client.notify("textDocument/didClose", {"textDocument": {"uri": graphs_uri}})
    expect_equal(client.diagnostics(graphs_uri), [], "didClose clears the diagnostics")
    error = client.request_error("textDocument/hover", {
        "textDocument": {"uri": graphs_uri}, "position": pos(0, 0)})
    expect_equal(error["code"], -32602, "hover on a closed document")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
