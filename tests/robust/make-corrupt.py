#!/usr/bin/env python3
"""make-corrupt.py - writes testdata/corrupt/NAME.jfr: tiny recordings with
one defect each, made from jfrmake's "mini" recording (1.7 KB). Their
expected first error lines (NAME.err) come from corrupt-goldens.py:

    JFRMAKE=tests/robust/jfrmake python3 tests/robust/make-corrupt.py
    UPDATE_GOLDEN=1 JFRTOOL=jfrtool/jfrtool python3 tests/robust/corrupt-goldens.py

Review the new .err files before committing them."""
import gzip
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "testdata", "corrupt")
JFRMAKE = os.environ.get("JFRMAKE", os.path.join(HERE, "jfrmake"))


def varint(data, pos):
    v = 0
    for i in range(9):
        b = data[pos + i]
        if i == 8:
            return v | (b << 56), pos + 9
        v |= (b & 0x7f) << (7 * i)
        if b < 0x80:
            return v, pos + i + 1


def records(data):
    """(offset, size, type id) of each record of a one-chunk file."""
    out, pos = [], 68
    while pos < len(data):
        size, p = varint(data, pos)
        tid, _ = varint(data, p)
        out.append((pos, size, tid))
        pos += size
    return out


def put(data, off, raw):
    return data[:off] + raw + data[off + len(raw):]


def be64(v):
    return struct.pack(">Q", v)


def main():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "mini.jfr")
        subprocess.run([JFRMAKE, "mini", path], check=True)
        mini = open(path, "rb").read()
    recs = records(mini)
    meta = next(r for r in recs if r[2] == 0)
    events = [r for r in recs if r[2] > 1]
    size_len = varint(mini, meta[0])[1] - meta[0]
    cases = {
        "empty": b"",
        "bad-magic": b"FLX\0" + mini[4:],
        "truncated-header": mini[:40],
        "version-0-9": put(mini, 4, struct.pack(">HH", 0, 9)),
        "version-3-0": put(mini, 4, struct.pack(">HH", 3, 0)),
        "chunk-size-below-header": put(mini, 8, be64(20)),
        "metadata-offset-past-end": put(mini, 24, be64(1 << 40)),
        "pool-offset-past-end": put(mini, 16, be64(len(mini) + 5)),
        "metadata-offset-at-event": put(mini, 24, be64(events[0][0])),
        # nine bytes with every continuation bit set: the longest varint there is
        "varint-nine-bytes-of-ff": mini[:meta[0]] + b"\xff" * 9 + mini[meta[0] + 9:],
        "metadata-size-zero": mini[:meta[0]] + b"\x00" * size_len + mini[meta[0] + size_len:],
        "metadata-string-count-2e31": None,
        "event-size-zero": put(mini, events[1][0], b"\x00"),
        "event-size-past-end": put(mini, events[-1][0], b"\x7f"),
        "cut-inside-event": mini[:events[2][0] + 3],
        "unfinished-state": put(mini, 64, b"\x01"),
        "placeholder-without-metadata": put(put(put(mini, 8, be64(1 << 30)), 16, be64(0)),
                                            24, be64(0))[:68] + b"\x05\x01\x00\x00\x00",
        "gzip-cut": gzip.compress(mini, 9, mtime=0)[:300],
        "lz4-bad-block": b"\x04\x22\x4d\x18\x64\x40\xa7" + b"\xff\xff\x00\x00" + b"junk" * 4,
    }
    # the metadata's string table count, the first varint after its four
    # header fields (size, type 0, start, duration, id)
    p = meta[0]
    for _ in range(5):
        _, p = varint(mini, p)
    cases["metadata-string-count-2e31"] = mini[:p] + b"\x80\x80\x80\x80\x08" + mini[p + 1:]
    os.makedirs(OUT, exist_ok=True)
    for name, data in sorted(cases.items()):
        with open(os.path.join(OUT, name + ".jfr"), "wb") as f:
            f.write(data)
    print("wrote %d files to %s" % (len(cases), os.path.normpath(OUT)))


if __name__ == "__main__":
    sys.exit(main())
