#!/usr/bin/env python3
"""jdk_printable.py - reads `jfrtool print --json` of a written recording on
standard input and names what JDK 25's text `jfr print` would stop at (a
NullPointerException or an index out of bounds ends it): a stack frame
without its method; a method without its class's name, its name, or a
descriptor "(...)..." whose parameters split into types; a class without
a name, or an array class whose name does not split into types; a class
whose loader has neither a name nor a named class. A
null reference elsewhere (an event's method or class field) is printed as
null and is fine. Exit 0 when there is none, else 1 with the first few.

repair.sh runs it on repairs of chunks that lost pool entries: the
writer leaves out such entries there (doc/writing.md), so none may be
left, whatever the C code thinks."""
import json
import sys


def is_class(v):
    """java.lang.Class as jfrtool's JSON shows it."""
    return isinstance(v, dict) and "name" in v and "modifiers" in v and \
        "descriptor" not in v and "type" not in v


def splits(types):
    """Whether the JDK's decodeDescriptors reads `types` without running
    off its end: each '[' run followed by a type, each 'L' by a ';'."""
    i = 0
    while i < len(types):
        while i < len(types) and types[i] == "[":
            i += 1
        if i == len(types):
            return False
        if types[i] == "L":
            i = types.find(";", i)
            if i < 0:
                return False
        i += 1
    return True


def name_prints(name):
    return isinstance(name, str) and (not name.startswith("[") or splits(name))


def named_class(c):
    return is_class(c) and isinstance(c.get("name"), str)


def check_method(m, where, bad):
    d = m.get("descriptor")
    t = m.get("type")
    if not is_class(t) or not name_prints(t.get("name")) or \
            not isinstance(m.get("name"), str) or not isinstance(d, str) or \
            not d.startswith("(") or ")" not in d or not splits(d[1:d.rindex(")")]):
        bad.append("%s: method %s" % (where, json.dumps(m)[:160]))


def check_class(c, where, bad):
    loader = c.get("classLoader")
    if not name_prints(c.get("name")):
        bad.append("%s: class %s" % (where, json.dumps(c)[:160]))
    elif isinstance(loader, dict) and not isinstance(loader.get("name"), str) and \
            not named_class(loader.get("type")):
        bad.append("%s: class loader %s" % (where, json.dumps(loader)[:160]))


def walk(v, where, bad):
    if isinstance(v, list):
        for x in v:
            walk(x, where, bad)
        return
    if not isinstance(v, dict):
        return
    if isinstance(v.get("frames"), list):
        for f in v["frames"]:
            if isinstance(f, dict) and f.get("method") is None:
                bad.append("%s: a frame without its method" % where)
    if "descriptor" in v and "type" in v:
        check_method(v, where, bad)
    if is_class(v):
        check_class(v, where, bad)
    for x in v.values():
        walk(x, where, bad)


def main():
    data = json.load(sys.stdin)
    bad = []
    for e in data.get("recording", {}).get("events", []):
        walk(e.get("values"), e.get("type"), bad)
    for line in bad[:5]:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
