"""Asks `star lsp` about a program that uses the string builtins: hover on each shows its signature
and description, completion offers them with their signatures, and a function that never assigns
its result is a warning diagnostic (off with -Wno-result). Prints what it found, one fact a line.

  lsp_strings.py STAR REPO_ROOT DIR
"""
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[2], "tests", "lsp"))
from lsp_client import LspClient, path_uri, position_of  # noqa: E402

TEXT = """program Strs;
var s: string; w: word;
func Never: integer; begin end;
begin
  s := ParamStr(1);
  w := StrToWord(s);
  writeln(Length(s), CharAt(s, 1), WordToStr(w), Never)
end.
"""


def main():
    star, _, work = sys.argv[1:4]
    path = os.path.join(work, "strs.star")
    with open(path, "w") as f:
        f.write(TEXT)
    uri = path_uri(path)
    for args in ((), ("-Wno-result",)):
        client = LspClient(star, args)
        try:
            client.initialize()
            for d in client.open(uri, TEXT):
                print("diagnostic %s: %s" % (" ".join(args) or "default", d["message"]))
            if args:
                continue
            for name in ("Length", "CharAt", "StrToWord", "WordToStr"):
                r = client.request("textDocument/hover", {
                    "textDocument": {"uri": uri}, "position": position_of(TEXT, name + "(")})
                print("hover %s: %s" % (name, r["contents"]["value"].replace("\n", " | ") if r else None))
            r = client.request("textDocument/completion", {
                "textDocument": {"uri": uri}, "position": position_of(TEXT, "Length(")})
            items = {i["label"]: i.get("detail") for i in r["items"]}
            for name in ("Length", "CharAt", "StrToWord", "WordToStr"):
                print("completion %s: %s" % (name, items.get(name)))
        finally:
            client.close()


main()
