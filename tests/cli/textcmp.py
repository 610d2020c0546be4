#!/usr/bin/env python3
"""Compare jfrtool's text output with the JDK's (tests/cli/*-vs-jdk.sh).

  textcmp.py exact JDK OURS
      Byte for byte, after one documented normalisation of OURS: a character
      outside the BMP (4-byte UTF-8) becomes two U+FFFD, as the JDK shows the
      CESU-8 surrogate pairs HotSpot writes in symbols (doc/print-format.md).
  textcmp.py blocks JDK OURS
      The same events (blocks between blank lines) in any order, where a block
      may differ from its JDK twin only in timestamps exactly 1 ms apart (the
      JDK converts the ticks of later chunks with the first chunk's time base).
  textcmp.py metadata-concat OURS JDK PART...
      For recordings of several JVMs: OURS is JDK (in order) plus the
      declarations the JDK dropped because an earlier chunk used their id,
      and holds exactly the distinct declarations of the PART outputs.

Files ending in .gz are read through gzip. Exit 0 when equal, 1 otherwise,
with the first differences on standard output.
"""
import collections
import gzip
import re
import sys

CESU = re.compile(rb"[\xf0-\xf4][\x80-\xbf]{3}")
TIMES = re.compile(rb"(?m)^(\s*\S+ = )\d\d:\d\d:\d\d\.\d{3}( \(\d{4}-\d\d-\d\d\))$")
TIME = re.compile(rb"^(\s*\S+ = )(\d\d):(\d\d):(\d\d)\.(\d{3})( \(\d{4}-\d\d-\d\d\))$")


def read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def cesu(data):
    return CESU.sub(b"\xef\xbf\xbd\xef\xbf\xbd", data)


def show(line):
    return line.decode("utf-8", "replace")


def exact(jdk_path, ours_path):
    jdk, raw = read(jdk_path), read(ours_path)
    ours = cesu(raw)
    replaced = len(CESU.findall(raw))
    if jdk == ours:
        print(f"identical ({len(jdk.splitlines())} lines; {replaced} non-BMP characters as U+FFFD U+FFFD)")
        return 0
    a, b = jdk.split(b"\n"), ours.split(b"\n")
    shown = 0
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else b"<end>"
        y = b[i] if i < len(b) else b"<end>"
        if x != y:
            print(f"line {i + 1}:\n  jdk:  {show(x)}\n  ours: {show(y)}")
            shown += 1
            if shown == 5:
                break
    print(f"differs ({len(a)} JDK lines, {len(b)} ours)")
    return 1


def millis(line):
    m = TIME.match(line)
    if not m:
        return None
    h, mi, s, ms = (int(g) for g in m.group(2, 3, 4, 5))
    return m.group(1), m.group(6), ((h * 60 + mi) * 60 + s) * 1000 + ms


def drift_twins(x, y):
    """Blocks equal but for timestamps exactly 1 ms apart."""
    a, b = x.split(b"\n"), y.split(b"\n")
    if len(a) != len(b):
        return False
    drifted = 0
    for p, q in zip(a, b):
        if p == q:
            continue
        mp, mq = millis(p), millis(q)
        if not mp or not mq or mp[:2] != mq[:2] or abs(mp[2] - mq[2]) != 1:
            return False
        drifted += 1
    return drifted > 0


def blocks(jdk_path, ours_path):
    jdk = read(jdk_path).split(b"\n\n")
    ours = cesu(read(ours_path)).split(b"\n\n")
    only_jdk = collections.Counter(jdk) - collections.Counter(ours)
    only_ours = collections.Counter(ours) - collections.Counter(jdk)
    # candidates share the block with its times blanked out
    by_shape = collections.defaultdict(list)
    for y in only_ours.elements():
        by_shape[TIMES.sub(rb"\1", y)].append(y)
    unmatched = []
    for x in only_jdk.elements():
        twins = by_shape.get(TIMES.sub(rb"\1", x), [])
        for i, y in enumerate(twins):
            if drift_twins(x, y):
                del twins[i]
                break
        else:
            unmatched.append(x)
    left = [y for twins in by_shape.values() for y in twins]
    pairs = sum(only_jdk.values()) - len(unmatched)
    if not unmatched and not left:
        print(f"same {len(jdk)} events; {pairs} with timestamps 1 ms apart")
        return 0
    for x in unmatched[:3]:
        print("only in JDK output:\n" + show(x))
    for y in left[:3]:
        print("only in ours:\n" + show(y))
    print(f"differs: {len(unmatched)} JDK events and {len(left)} of ours unmatched")
    return 1


def declarations(path):
    # a declaration ends with "}" alone on a line and a blank line
    text = read(path).decode("utf-8")
    return [b + "\n}" for b in text.split("\n}\n\n") if b.strip()]


def metadata_concat(ours_path, jdk_path, parts):
    """OURS = the JDK's output plus the declarations it dropped, and holds
    exactly the declarations of the parts."""
    ours, jdk = declarations(ours_path), declarations(jdk_path)
    want = set()
    for p in parts:
        want.update(declarations(p))
    extra, i = [], 0
    for block in ours:  # the JDK's list must be a subsequence of ours
        if i < len(jdk) and block == jdk[i]:
            i += 1
        else:
            extra.append(block)
    if i < len(jdk):
        print("JDK declaration missing or out of order in ours:\n" + jdk[i])
        return 1
    if set(ours) != want:
        for b in sorted(set(ours) ^ want)[:3]:
            print(("only in ours:\n" if b in set(ours) else "only in the parts:\n") + b)
        print("the declarations differ from those of the parts")
        return 1
    print(f"the JDK's {len(jdk)} declarations in order, plus {len(extra)} it dropped; "
          f"{len(want)} distinct as in the parts")
    return 0


def main(argv):
    if len(argv) >= 4 and argv[1] == "exact":
        return exact(argv[2], argv[3])
    if len(argv) >= 4 and argv[1] == "blocks":
        return blocks(argv[2], argv[3])
    if len(argv) >= 5 and argv[1] == "metadata-concat":
        return metadata_concat(argv[2], argv[3], argv[4:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
