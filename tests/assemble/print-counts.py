#!/usr/bin/env python3
"""print-counts.py - the events of a `print --json` document on standard
input (the JDK's `jfr print --json` or `jfrtool print --json`), counted per
event type: "TYPE COUNT" lines in byte order of the type names."""
import json
import sys

counts = {}
for event in json.load(sys.stdin)["recording"]["events"]:
    counts[event["type"]] = counts.get(event["type"], 0) + 1
for name in sorted(counts, key=lambda n: n.encode()):
    print(name, counts[name])
