#!/usr/bin/env python3
"""cut-chain.py - samples whose stack traces are lost are counted aloud
(issue 16 item 7): the newest checkpoint of cpu-jdk25.jfr gets a delta of
0, so the chain of checkpoints seems to end there and the older ones, with
every stack trace, are never indexed. Before, folded printed every sample
on [no_stack_trace] without a word; now it says how many of how many.
The sound file must give no such warning."""
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from robustlib import JFRTOOL, fail, finish, read, scratch  # noqa: E402


def varint_end(d, p):
    for i in range(9):
        if i == 8 or not d[p + i] & 0x80:
            return p + i + 1
    return p + 9


def cut_chain(d):
    d = bytearray(d)
    p = struct.unpack(">q", d[16:24])[0]  # the header's constant-pool offset
    for _ in range(4):                     # size, type id, start, duration
        p = varint_end(d, p)
    end = varint_end(d, p)
    for i in range(p, end):                # delta: 0, padded to its length
        d[i] = 0x80 if i < end - 1 else 0
    return bytes(d)


def folded(path):
    p = subprocess.run([JFRTOOL, "folded", "--event", "exec", path], capture_output=True,
                       text=True, timeout=60)
    samples = sum(int(line.rsplit(" ", 1)[1]) for line in p.stdout.splitlines())
    return p.returncode, samples, p.stdout, p.stderr


def main():
    d = scratch()
    sound = os.path.join(d, "sound.jfr")
    cut = os.path.join(d, "cut.jfr")
    data = read("cpu-jdk25.jfr")
    with open(sound, "wb") as f:
        f.write(data)
    with open(cut, "wb") as f:
        f.write(cut_chain(data))
    status, total, _, err = folded(sound)
    if status != 0 or "does not define" in err:
        fail("sound file: exit %d, %r" % (status, err))
    status, lost_total, out, err = folded(cut)
    want = "%d of %d samples refer to stack traces the recording does not define" % (
        total, total)
    if status != 0 or want not in err:
        fail("cut chain: exit %d, want %r in %r" % (status, want, err))
    if lost_total != total or "[no_stack_trace]" not in out:
        fail("cut chain: %d samples, not %d on [no_stack_trace]" % (lost_total, total))
    finish("cut-chain", 2)


if __name__ == "__main__":
    main()
