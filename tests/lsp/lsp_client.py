"""A small language-server client for the tests: starts `star lsp`, frames messages, reads
replies on a thread so that a server that hangs fails the test (a timeout) instead of hanging it.
Python 3 standard library only."""
import json
import os
import queue
import subprocess
import threading

TIMEOUT = 30  # seconds to wait for any one reply


class ServerGone(Exception):
    pass


def frame(message):
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def path_uri(path):
    return "file://" + os.path.abspath(path)


class LspClient:
    def __init__(self, star, args=(), cwd=None):
        self.proc = subprocess.Popen([star, "lsp", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
        self.messages = queue.Queue()
        self.notifications = []  # every notification received so far, in order
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    # ---- the wire
    def _read(self):
        out = self.proc.stdout
        try:
            while True:
                length = None
                while True:
                    line = out.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.lower() == b"content-length":
                        length = int(value)
                body = out.read(length)
                if len(body) < length:
                    return
                self.messages.put(json.loads(body))
        finally:
            self.messages.put(None)

    def send_raw(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        self.send_raw(frame(message))

    def next_message(self, timeout=TIMEOUT):
        try:
            m = self.messages.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no message from the server within %d s" % timeout)
        if m is None:
            raise ServerGone("the server closed its output")
        return m

    # ---- JSON-RPC
    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def start_request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return rid

    def response(self, rid=None):
        """The next response (to `rid`, when given); notifications are kept on the way."""
        while True:
            m = self.next_message()
            if "method" in m and "id" not in m:
                self.notifications.append(m)
                continue
            if rid is None or m.get("id") == rid:
                return m
            raise AssertionError("expected the response to %r, got %r" % (rid, m))

    def request(self, method, params):
        """The result of a request; an AssertionError when the server answers with an error."""
        m = self.response(self.start_request(method, params))
        if "error" in m:
            raise AssertionError("%s failed: %r" % (method, m["error"]))
        return m["result"]

    def request_error(self, method, params):
        """The error a request is answered with; an AssertionError when it succeeds."""
        m = self.response(self.start_request(method, params))
        if "error" not in m:
            raise AssertionError("%s should fail, got %r" % (method, m))
        return m["error"]

    def diagnostics(self, uri, version=None):
        """The next publishDiagnostics for `uri` (of `version`, when given)."""
        while True:
            for i, n in enumerate(self.notifications):
                p = n.get("params", {})
                if (n["method"] == "textDocument/publishDiagnostics" and p.get("uri") == uri
                        and (version is None or p.get("version") == version)):
                    del self.notifications[: i + 1]
                    return p["diagnostics"]
            m = self.next_message()
            if "id" in m:
                raise AssertionError("unexpected response %r" % m)
            self.notifications.append(m)

    # ---- the protocol
    def initialize(self, capabilities=None):
        result = self.request("initialize", {"processId": os.getpid(), "rootUri": None,
                                             "capabilities": capabilities or {}})
        self.notify("initialized", {})
        return result

    def open(self, uri, text, version=1):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "star", "version": version, "text": text}})
        return self.diagnostics(uri, version)

    def change(self, uri, text, version):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})
        return self.diagnostics(uri, version)

    def shutdown_and_exit(self, timeout=TIMEOUT):
        """shutdown, exit; returns the exit status."""
        assert self.request("shutdown", None) is None
        self.notify("exit", None)
        return self.wait(timeout)

    def wait(self, timeout=TIMEOUT):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("the server did not exit within %d s" % timeout)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def position_of(text, needle, occurrence=0, offset=0):
    """The LSP position (UTF-16) of the `occurrence`-th `needle` in `text`, plus `offset`."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    start = text.rfind("\n", 0, at) + 1
    character = len(text[start:at].encode("utf-16-le")) // 2
    return {"line": line, "character": character}
