#!/usr/bin/env python3
"""variants.py - the damaged recordings that repair is checked on, made the
same way every time (fixed offsets, fixed seed) so that the JDK's outputs
for them can be committed (tests/writer/regen-jdk-outputs.sh) and checked
without a JDK (tests/writer/repair.sh).

    variants.py TESTDATA OUTDIR     writes OUTDIR/NAME.jfr, prints the names

The set: every file of testdata/corrupt; the unfinished recordings;
multi-jdk25.jfr cut at offsets inside and between its chunks (as
tests/robust/damaged.py cuts it); cpu-jdk25.jfr with bytes after its
metadata record mutated (fixed seed); multi-jdk25.jfr with one chunk header's size, offsets or state
damaged; records of size 0; a broken method descriptor in a cut chunk."""
import os
import random
import struct
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "robust"))
from robustlib import chunks, varint  # noqa: E402  (as tests/robust/damaged.py reads them)


def patched(data, pos, off, fmt, value):
    buf = bytearray(data)
    struct.pack_into(fmt, buf, pos + off, value)
    return bytes(buf)


def variants(testdata):
    rec = os.path.join(testdata, "recordings")
    corrupt = os.path.join(testdata, "corrupt")
    for name in sorted(os.listdir(corrupt)):
        if name.endswith(".jfr"):
            yield "corrupt-" + name[:-4], open(os.path.join(corrupt, name), "rb").read()
    for name in ("unfinished-jdk17", "unfinished-jdk25"):
        yield name, open(os.path.join(rec, name + ".jfr"), "rb").read()
    multi = open(os.path.join(rec, "multi-jdk25.jfr"), "rb").read()
    parts = chunks(multi)
    offs = set()
    for pos, size in parts:
        offs |= {pos + 67, pos + 68, pos + 1000, pos + size // 3, pos + size // 2,
                 pos + size - 500, pos + size - 1, pos + size + 10}
    for off in sorted(o for o in offs if 0 < o < len(multi)):
        yield "cut-%d" % off, multi[:off]
    cpu = open(os.path.join(rec, "cpu-jdk25.jfr"), "rb").read()
    rng = random.Random(20261126)
    # bytes after the metadata record: repair copies a chunk's metadata
    # record as it is, and one that libjfr reads in spite of a changed
    # byte may be one the JDK refuses (doc/writing.md); a metadata record
    # that cannot be read at all is shown by meta-off below
    meta = struct.unpack(">Q", cpu[24:32])[0]
    meta_end = meta + varint(cpu, meta)[0]
    for k in range(16):
        buf = bytearray(cpu)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(meta_end, len(buf))
            buf[i] = rng.choice([0, 0xff, 0x7f, 0x80, rng.randrange(256)])
        yield "mutated-%d" % k, bytes(buf)
    second = parts[1][0]
    yield "size-huge", patched(multi, second, 8, ">Q", 1 << 40)
    yield "size-short", patched(multi, second, 8, ">Q", parts[1][1] - 1000)
    yield "pools-off", patched(multi, second, 16, ">Q", 1 << 40)
    yield "meta-off", patched(multi, second, 24, ">Q", 70)
    yield "state-1", patched(multi, parts[2][0], 64, ">B", 1)
    yield "magic", patched(multi, second, 0, ">I", 0x464c5201)
    starts, pos = [], 68
    while pos < len(cpu) and len(starts) < 600:
        size, _ = varint(cpu, pos)
        starts.append(pos)
        pos += size
    for n in (1, 49, 499):
        buf = bytearray(cpu)
        buf[starts[n]] = 0
        yield "zero-size-%d" % n, bytes(buf)
    # a method descriptor whose parameters no longer split into types (no
    # ';' after an 'L': the JDK's text print runs off its end), in a chunk
    # cut inside its last record, where lost entries are looked for
    at = cpu.index(b"(JJLjava/lang/String;")
    end = cpu.index(b")", at)
    buf = bytearray(cpu[:-1])
    buf[at:end] = cpu[at:end].replace(b";", b"_")
    yield "descriptor-cut", bytes(buf)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: variants.py TESTDATA OUTDIR")
    os.makedirs(sys.argv[2], exist_ok=True)
    for name, data in variants(sys.argv[1]):
        with open(os.path.join(sys.argv[2], name + ".jfr"), "wb") as f:
            f.write(data)
        print(name)


if __name__ == "__main__":
    main()
