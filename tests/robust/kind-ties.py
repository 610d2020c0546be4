#!/usr/bin/env python3
"""kind-ties.py - a flame box that merges a method's frames of several
kinds takes the kind of most weight, and on a tie the kind the call tree
meets first (jfrtool/flame_stacks.c, break_tie).

jfrmake's "kind-ties": 4,096 stacks of 12 frames, all app.Main.work at
one line, frame i interpreted or JIT-compiled by bit i of the stack's
number, one execution sample each. At every depth one box holds all of
them, half of each kind: a tie. The call tree orders a method's frames
by kind, interpreted before JIT-compiled, so every subtree of an
interpreted frame comes before its JIT-compiled sibling's, and at each
depth the interpreted frames' last node with weight comes first: each of
the 12 boxes is interpreted (the page's kind 2).

The ties are worked out pair by pair until they have passed as many
places as there are stacks, then from a sort of every stack: the
deepest box (closed first) takes the first way, the others the second.
Both are checked, forwards, from the leaves and by thread. From the
leaves the first box is no tie: mini's own stack main -> work ends in a
JIT-compiled work, one sample more of that kind; 11 boxes are."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from robustlib import fail, finish, make, run, scratch  # noqa: E402

LEVELS = 12
INTERPRETED = 2  # the page's kinds: JIT 0, inlined 1, interpreted 2


def load_flame(page):
    for line in page.decode().splitlines():
        if line.startswith("const FLAME = "):
            return json.loads(line[len("const FLAME = "):].rstrip().rstrip(";"))
    return None


def check(path, args, tied):
    what = "flame " + " ".join(args)
    rc, out, err = run(["flame", "--event", "exec"] + args, path)
    flame = load_flame(out) if rc == 0 else None
    if not flame:
        fail("%s: no page (exit %s): %s" % (what, rc, err[-300:]))
        return
    names, x = flame["names"], flame["x"]
    mixes = {x[i]: x[i + 1:i + 4] for i in range(0, len(x), 4)}
    half = 1 << (LEVELS - 1)
    boxes = 0
    for i, depth in enumerate(flame["d"]):
        if names[flame["n"][i]] != "app.Main.work" or mixes.get(i) != [half, 0, half]:
            continue
        boxes += 1
        if flame["k"][i] != INTERPRETED:
            fail("%s: box %d at depth %d: kind %d, expected %d (interpreted)" %
                 (what, i, depth, flame["k"][i], INTERPRETED))
    if boxes != tied:
        fail("%s: %d tied boxes of %d frames each kind, expected %d" %
             (what, boxes, half, tied))
    print("ok: %s (%d tied boxes)" % (what, boxes))


def main():
    path = make("kind-ties", scratch())
    cases = [([], LEVELS), (["--reverse"], LEVELS - 1), (["--threads"], LEVELS)]
    for args, tied in cases:
        check(path, args, tied)
    finish("kind ties", len(cases))


if __name__ == "__main__":
    main()
