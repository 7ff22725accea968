#!/usr/bin/env python3
"""`star lsp` against damaged and hostile input (ctest lsp-robustness): broken framing, wrong
Content-Length, invalid JSON, unknown methods, bad params, requests about documents that are not
open, a message over the size limit, messages nested too deeply (refused unparsed, in bounded
memory), a document of several MB, the end of the input in the middle of a message, and the
front end's fuzz corpus (tests/fuzz/corpus), every prefix of it, byte-level mutations and the
golden test programs, fed through didChange with requests in between. The server must answer
or ignore each, never crash or hang, and exit cleanly.

  robustness_test.py STAR REPO_ROOT
"""
import glob
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient, ServerGone, frame, path_uri  # noqa: E402

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
SERVER_NOT_INITIALIZED = -32002
LIMIT = 16 << 20  # lsp/MessageReader.h
NESTING = 64  # core/JsonNesting.h

failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL: " + what)


def expect_equal(actual, expected, what):
    expect(actual == expected, "%s: expected %r, got %r" % (what, expected, actual))


def body(message):
    return json.dumps(message).encode()


def error_code(message):
    return message.get("error", {}).get("code")


def alive(client, what):
    """The server still answers: an unknown request gets MethodNotFound."""
    rid = client.start_request("star/ping", {})
    m = client.response(rid)
    expect_equal(error_code(m), METHOD_NOT_FOUND, "the server answers after " + what)


def framing_and_protocol(star):
    client = LspClient(star)
    try:
        # Before initialize: requests fail, notifications are dropped.
        m = client.response(client.start_request("textDocument/hover", {}))
        expect_equal(error_code(m), SERVER_NOT_INITIALIZED, "a request before initialize")
        client.notify("textDocument/didOpen", {"textDocument": {"uri": "file:///x.star",
                                                                "text": "program", "version": 1}})
        client.initialize()
        expect_equal(error_code(client.response(client.start_request("initialize", {}))),
                     INVALID_REQUEST, "a second initialize")

        # A message that arrives in pieces, a byte at a time, and two in one write.
        for byte in frame({"jsonrpc": "2.0", "id": 900, "method": "star/pieces"}):
            client.send_raw(bytes([byte]))
        expect_equal(error_code(client.response(900)), METHOD_NOT_FOUND, "a message in pieces")
        client.send_raw(frame({"jsonrpc": "2.0", "id": 901, "method": "star/one"}) +
                        frame({"jsonrpc": "2.0", "id": 902, "method": "star/two"}))
        expect_equal([client.response(901)["id"], client.response(902)["id"]], [901, 902],
                     "two messages in one write")

        # Framing: a header block without Content-Length.
        client.send_raw(b"garbage without a header\r\n\r\n")
        m = client.next_message()
        expect(m.get("id", 0) is None and error_code(m) == PARSE_ERROR,
               "a block without Content-Length: %r" % m)
        alive(client, "a block without Content-Length")

        # A length that is not a number: the body that follows is skipped as junk.
        client.send_raw(b"Content-Length: twelve\r\n\r\n" + body({"jsonrpc": "2.0"}))
        expect_equal(error_code(client.next_message()), PARSE_ERROR, "a non-numeric length")
        alive(client, "a non-numeric length")

        # A length too short: the cut JSON is an error, the rest is dropped.
        whole = body({"jsonrpc": "2.0", "id": 1000, "method": "star/ping"})
        client.send_raw(b"Content-Length: %d\r\n\r\n" % (len(whole) - 7) + whole)
        expect_equal(error_code(client.next_message()), PARSE_ERROR, "a length too short")
        alive(client, "a length too short")

        # A length too long: it takes the start of the next message; the one after is answered.
        first = body({"jsonrpc": "2.0", "method": "star/unknownNotification"})
        client.send_raw(b"Content-Length: %d\r\n\r\n" % (len(first) + 10) + first +
                        frame({"jsonrpc": "2.0", "id": 1001, "method": "star/lost"}))
        expect_equal(error_code(client.next_message()), PARSE_ERROR, "a length too long")
        expect_equal(error_code(client.next_message()), PARSE_ERROR,
                     "the rest of the message it cut")
        alive(client, "a length too long")

        # Bodies that are not JSON-RPC requests.
        for raw, code, what in [(b"{not json", PARSE_ERROR, "invalid JSON"),
                                (b"", PARSE_ERROR, "an empty body"),
                                (b"\xff\xfe\x00", PARSE_ERROR, "bytes that are not UTF-8"),
                                (b"[1, 2]", INVALID_REQUEST, "a batch"),
                                (b"42", INVALID_REQUEST, "a number"),
                                (body({"jsonrpc": "2.0", "id": 5}), INVALID_REQUEST, "no method"),
                                (body({"jsonrpc": "2.0", "id": {"a": 1}, "method": "x"}),
                                 INVALID_REQUEST, "an object as id"),
                                (body({"jsonrpc": "2.0", "id": 6, "method": 7}),
                                 INVALID_REQUEST, "a number as method"),
                                (b"[" * 100000 + b"]" * 100000, PARSE_ERROR, "deep nesting")]:
            client.send_raw(b"Content-Length: %d\r\n\r\n" % len(raw) + raw)
            m = client.next_message()
            expect_equal(error_code(m), code, what)
        alive(client, "bodies that are not requests")

        # Unknown methods: requests fail, notifications are ignored.
        expect_equal(client.request_error("textDocument/unknownThing", {})["code"],
                     METHOD_NOT_FOUND, "an unknown request")
        client.notify("textDocument/unknownThing", {})
        client.notify("$/cancelRequest", {"id": 1})
        client.notify("$/setTrace", {"value": "off"})
        before = len(client.notifications)
        alive(client, "unknown notifications")
        expect_equal(client.notifications[before:], [], "replies to unknown notifications")

        # Requests about a document that is not open, and bad params.
        nowhere = {"textDocument": {"uri": "file:///not/open.star"},
                   "position": {"line": 0, "character": 0}, "context": {"includeDeclaration": True}}
        for method in ("hover", "definition", "references", "completion", "documentSymbol",
                       "semanticTokens/full"):
            error = client.request_error("textDocument/" + method, nowhere)
            expect_equal(error["code"], INVALID_PARAMS, method + " on a document that is not open")
        uri = "file:///tmp/robust.star"
        client.open(uri, "program p; var x: integer; begin x := 1; writeln(x) end.", 1)
        for params, what in [({}, "no params"), (None, "null params"), ([1], "array params"),
                             ({"textDocument": {"uri": uri}, "position": "here"}, "a bad position"),
                             ({"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}},
                              "a negative line"),
                             ({"textDocument": {"uri": 12}, "position": {"line": 0, "character": 0}},
                              "a number as URI")]:
            m = client.response(client.start_request("textDocument/hover", params))
            expect_equal(error_code(m), INVALID_PARAMS, "hover with " + what)
            # The message names the method, not the JSON library's internals.
            message = m.get("error", {}).get("message", "")
            expect("json.exception" not in message and "[" not in message,
                   "hover with %s: a message for people (%r)" % (what, message))
        far = client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                    "position": {"line": 10 ** 12, "character": 10 ** 12}})
        expect_equal(far, None, "hover far beyond the end of the document")

        # A change to a document that is not open is reported in the log, not fatal.
        client.notify("textDocument/didChange", {"textDocument": {"uri": "file:///nope.star",
                                                                  "version": 2},
                                                 "contentChanges": [{"text": "x"}]})
        m = client.next_message()
        expect(m.get("method") == "window/logMessage", "didChange on a closed document is logged")
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                                 "contentChanges": "not a list"})
        m = client.next_message()
        expect(m.get("method") == "window/logMessage", "a bad didChange is logged")
        alive(client, "bad notifications")

        # A message over the size limit: an error, its body skipped, then business as usual.
        client.send_raw(b"Content-Length: %d\r\n\r\n" % (LIMIT + 1))
        m = client.next_message()
        expect(error_code(m) == PARSE_ERROR and "limit" in m["error"]["message"],
               "a message over the limit: %r" % m)
        chunk = b" " * (1 << 20)
        for _ in range(LIMIT >> 20):
            client.send_raw(chunk)
        client.send_raw(b" ")
        alive(client, "a message over the limit")

        status = client.shutdown_and_exit()
        expect_equal(status, 0, "exit status after shutdown")
    except ServerGone:
        expect(False, "the server ended during the protocol checks (status %r)" % client.proc.poll())
    finally:
        client.close()


def fuzz_inputs(root):
    """(name, text) pairs: the fuzz corpus, its prefixes and mutations, hostile texts, and the
    golden test programs."""
    corpus = sorted(glob.glob(os.path.join(root, "tests", "fuzz", "corpus", "*")))
    expect(len(corpus) > 0, "the fuzz corpus is found")
    seeds = [(os.path.basename(p), open(p, "rb").read().decode("utf-8", "replace")) for p in corpus]
    inputs = list(seeds)
    for name, text in seeds:
        for cut in range(0, len(text), 3):
            inputs.append(("%s[:%d]" % (name, cut), text[:cut]))
    rand = random.Random(16)
    alphabet = "();:=,.'{}%*/ \n\tbeginendprocvarslice\u00e9\U0001D11E\x00"
    for name, text in seeds:
        for i in range(150):
            chars = list(text)
            for _ in range(rand.randint(1, 8)):
                at = rand.randrange(len(chars) + 1)
                action = rand.randrange(3)
                if action == 0 and chars:
                    del chars[min(at, len(chars) - 1)]
                elif action == 1:
                    chars.insert(at, rand.choice(alphabet))
                else:
                    chars[at:at] = chars[rand.randrange(len(chars)):][:20]
            inputs.append(("%s~%d" % (name, i), "".join(chars)))
    inputs += [
        ("empty", ""),
        ("nul bytes", "program p;\x00 begin end."),
        ("deep parentheses", "program p; var x: integer; begin x := " + "(" * 50000 + "1" +
         ")" * 50000 + " end."),
        ("deep blocks", "program p; begin " + "begin " * 20000 + "end " * 20000 + "end."),
        ("deep but allowed", "program p; var x: integer; begin x := " + "(" * 5000 + "x" +
         ")" * 5000 + "; " + "begin " * 3000 + "x := -x" + " end" * 3000 + " end."),
        ("long line", "program p; var " + ", ".join("v%d" % i for i in range(20000)) +
         ": integer; begin end."),
        ("unterminated comment", "program p; { begin end."),
        ("missing unit", "program p; uses nosuchunit; begin end."),
        ("unit cycle", "unit u; uses u; end."),
        ("crlf", "program p;\r\nvar x: slice(4);\r\nbegin\r\n  SET(x)\r\nend.\r\n"),
    ]
    for p in sorted(glob.glob(os.path.join(root, "tests", "lang", "*", "*.star"))):
        inputs.append((os.path.relpath(p, root), open(p, "rb").read().decode("utf-8", "replace")))
    return inputs


def fuzz_through_did_change(star, root):
    client = LspClient(star)
    try:
        client.initialize()
        uri = path_uri(os.path.join(root, "tests", "lang", "fuzzed.star"))
        client.open(uri, "", 1)
        inputs = fuzz_inputs(root)
        rand = random.Random(7)
        for version, (name, text) in enumerate(inputs, start=2):
            try:
                client.change(uri, text, version)
                if version % 10 == 0:  # requests on the odd text, at a random place in it
                    lines = text.split("\n")
                    line = rand.randrange(len(lines))
                    position = {"line": line, "character": rand.randrange(len(lines[line]) + 2)}
                    where = {"textDocument": {"uri": uri}, "position": position,
                             "context": {"includeDeclaration": True}}
                    for method in ("hover", "definition", "references", "completion"):
                        client.request("textDocument/" + method, where)
                    client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})
                    client.request("textDocument/semanticTokens/full",
                                   {"textDocument": {"uri": uri}})
            except ServerGone:
                expect(False, "the server ended on input %r (status %r)" % (name, client.wait()))
                return
        print("fed %d inputs through didChange" % len(inputs))
        diagnostics = client.change(uri, "program p; begin x := 1 end.", len(inputs) + 2)
        expect_equal([d["message"] for d in diagnostics], ["unknown name 'x'"],
                     "diagnostics after the fuzz inputs")
        status = client.shutdown_and_exit()
        expect_equal(status, 0, "exit status after the fuzz inputs")
    finally:
        client.close()


def peak_memory_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
    return 0


def nesting_and_size(star):
    """Nesting past the bound is refused before parsing (a parsed `[` costs about 75 bytes), so
    memory stays bounded; a message at the bound and a document of several MB are served."""
    client = LspClient(star)
    try:
        client.initialize()
        # The message object is one level: params may add NESTING - 1.
        for levels, code in [(NESTING - 1, METHOD_NOT_FOUND), (NESTING, PARSE_ERROR)]:
            params = "[" * levels + "]" * levels
            raw = ('{"jsonrpc": "2.0", "id": %d, "method": "star/deep", "params": %s}'
                   % (7000 + levels, params)).encode()
            client.send_raw(b"Content-Length: %d\r\n\r\n" % len(raw) + raw)
            m = client.next_message()
            expect_equal(error_code(m), code, "a message nested %d levels" % (levels + 1))
        # 12 MB of '[': parsed, some 900 MB; refused, little more than the 12 MB read.
        raw = b"[" * (12 << 20)
        client.send_raw(b"Content-Length: %d\r\n\r\n" % len(raw) + raw)
        m = client.next_message()
        expect(error_code(m) == PARSE_ERROR and m.get("id", 0) is None
               and "nested deeper than %d levels" % NESTING in m["error"]["message"],
               "12 MB of '[': %r" % m)
        alive(client, "12 MB of '['")
        peak = peak_memory_mb(client.proc.pid)
        expect(peak < 200, "the server's peak memory after 12 MB of '[': %d MB" % peak)
        # A document of 6 MB is well under the limit.
        uri = "file:///tmp/big.star"
        text = ("program big;\nvar x: integer;\nbegin\n" + "  x := 1; { padding }\n" * 250000 +
                "  writeln(x)\nend.\n")
        expect_equal(client.open(uri, text, 1), [], "the diagnostics of a 6 MB document")
        status = client.shutdown_and_exit()
        expect_equal(status, 0, "exit status after the nesting checks")
    except ServerGone:
        expect(False, "the server ended during the nesting checks (status %r)" % client.proc.poll())
    finally:
        client.close()


def end_of_input(star):
    # The input ends in the middle of a message.
    client = LspClient(star)
    try:
        client.initialize()
        client.send_raw(b"Content-Length: 100\r\n\r\n{\"jsonrpc\": ")
        client.proc.stdin.close()
        status = client.wait()
        expect(status == 1, "the end of the input inside a message: status %r" % status)
    finally:
        client.close()
    # ... inside the body of a message over the limit, after its error.
    client = LspClient(star)
    try:
        client.initialize()
        client.send_raw(b"Content-Length: 99999999999999\r\n\r\nabc")
        m = client.next_message()
        expect_equal(error_code(m), PARSE_ERROR, "a huge length at the end of the input")
        client.proc.stdin.close()
        status = client.wait()
        expect(status == 1, "the end of the input inside a message over the limit: %r" % status)
    finally:
        client.close()
    # exit without shutdown: status 1; requests after shutdown fail.
    client = LspClient(star)
    try:
        client.initialize()
        client.notify("exit", None)
        expect_equal(client.wait(), 1, "exit without shutdown")
    finally:
        client.close()
    client = LspClient(star)
    try:
        client.initialize()
        assert client.request("shutdown", None) is None
        error = client.request_error("textDocument/hover", {})
        expect_equal(error["code"], INVALID_REQUEST, "a request after shutdown")
        client.proc.stdin.close()
        expect_equal(client.wait(), 0, "the end of the input after shutdown")
    finally:
        client.close()


def main(star, root):
    framing_and_protocol(star)
    fuzz_through_did_change(star, root)
    nesting_and_size(star)
    end_of_input(star)
    if failures:
        print("%d check(s) failed" % len(failures))
        return 1
    print("lsp robustness: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
