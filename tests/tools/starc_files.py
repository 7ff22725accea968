#!/usr/bin/env python3
"""Rewrites the source-file table of a .starc module and reseals it (the FNV-1a checksum), to
craft modules that name hostile source files (docs/BYTECODE.md section 4 is the format).

  starc_files.py IN OUT PATH...   the module's files become PATH... (as many as it had);
                                  \\xNN in a PATH stands for that byte (control characters)
"""
import struct
import sys

MAGIC = b"STARC\x00\r\n"


def fnv1a(data):
    h = 14695981039346656037
    for b in data:
        h ^= b
        h = (h * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    src, dst = sys.argv[1], sys.argv[2]
    paths = [p.encode("latin-1").decode("unicode_escape") for p in sys.argv[3:]]
    data = open(src, "rb").read()
    assert data[:8] == MAGIC, "not a module"
    version, size = struct.unpack_from("<IQ", data, 8)
    payload = data[20:20 + size]
    count = struct.unpack_from("<I", payload, 0)[0]
    pos = 4
    for _ in range(count):
        n = struct.unpack_from("<I", payload, pos)[0]
        pos += 4 + n
    rest = payload[pos:]
    if len(paths) != count:
        sys.exit(f"the module names {count} files, {len(paths)} given")
    files = b"".join(struct.pack("<I", len(p.encode())) + p.encode() for p in paths)
    new = struct.pack("<I", count) + files + rest
    out = MAGIC + struct.pack("<IQ", version, len(new)) + new + struct.pack("<Q", fnv1a(new))
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
