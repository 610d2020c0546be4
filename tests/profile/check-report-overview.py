#!/usr/bin/env python3
"""check-report-overview.py - every field of the report's overview is the
recording's own value (issue 26): on each test recording and, when
../shared is there, each corpus file, `jfrtool report` is run and each
overview field compared with `jfrtool print --json` of the events it comes
from (jdk.JVMInformation, OSInformation, CPUInformation, GCConfiguration,
GCHeapConfiguration) and with `jfrtool summary` (chunks, start):

  JVM, JVM version, Java and JVM arguments, process id, collectors: the
  field's text as it is; OS: the os-release PRETTY_NAME and the whole
  uname line after "uname:" (or the text as it is); CPU: the brand the
  description names, else the cpu field without the JVM's "(null)";
  Processors: sockets, cores and hardware threads; Max heap: maxSize in
  MiB; Chunks and Start as summary prints them.

Exit 0 when all agree, 1 otherwise."""
import datetime
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
DATA = os.environ.get("JFR_TESTDATA", "testdata")
SHARED = os.environ.get("JFR_SHARED", os.path.join(DATA, "..", "..", "shared"))
CORPUS = os.path.join(SHARED, "corpus", "public")
TYPES = ["jdk.JVMInformation", "jdk.OSInformation", "jdk.CPUInformation",
         "jdk.GCConfiguration", "jdk.GCHeapConfiguration"]
CHECKS = Checks()
failures = CHECKS.failures
fail = CHECKS.fail
checked = 0


def first_values(rec):
    """The values of the first event of each overview type, by type (JDK
    9's com.oracle.jdk.* names as jdk.*)."""
    text = subprocess.run([JFRTOOL, "summary", rec], capture_output=True, text=True,
                          timeout=120).stdout
    names = [n for n in re.findall(r"^ (\S+)\s+\d+\s+\d+\s*$", text, re.M)
             if n.replace("com.oracle.jdk.", "jdk.") in TYPES]
    if not names:
        return {}
    out = subprocess.run([JFRTOOL, "print", "--json", "--events", ",".join(names), rec],
                         capture_output=True, text=True, timeout=120)
    try:
        events = json.loads(out.stdout)["recording"]["events"]
    except (ValueError, KeyError):
        return {}
    first = {}
    for e in events:
        first.setdefault(e["type"].replace("com.oracle.jdk.", "jdk."), e["values"])
    return first


def os_line(text):
    parts = []
    m = re.search(r'PRETTY_NAME="([^"\n]*)', text)
    if m:
        parts.append(m.group(1))
    m = re.search(r"uname: *([^\n]*)", text)
    if m:
        parts.append(m.group(1))
    return "; ".join(parts) if parts else text


def cpu_line(values):
    m = re.search(r"Brand: ([^,\n]+)", values.get("description") or "")
    if m:
        return m.group(1)
    return (values.get("cpu") or "").replace(" (null)", "")


def processors(values):
    names = (("sockets", "socket", "sockets"), ("cores", "core", "cores"),
             ("hwThreads", "hardware thread", "hardware threads"))
    return ", ".join("%d %s" % (values[f], one if values[f] == 1 else many)
                     for f, one, many in names if isinstance(values.get(f), int))


def expected(first):
    """The overview rows the recording's events call for."""
    want = {}
    jvm = first.get("jdk.JVMInformation", {})
    for field, key in (("jvmName", "JVM"), ("jvmVersion", "JVM version"),
                       ("javaArguments", "Java arguments"), ("jvmArguments", "JVM arguments"),
                       ("pid", "Process id")):
        if jvm.get(field) not in (None, ""):
            want[key] = str(jvm[field])
    if "osVersion" in first.get("jdk.OSInformation", {}):
        want["OS"] = os_line(first["jdk.OSInformation"]["osVersion"] or "")
    cpu = first.get("jdk.CPUInformation")
    if cpu:
        if cpu_line(cpu):
            want["CPU"] = cpu_line(cpu)
        if processors(cpu):
            want["Processors"] = processors(cpu)
    gc = first.get("jdk.GCConfiguration", {})
    for field, key in (("youngCollector", "Young collector"), ("oldCollector", "Old collector")):
        if gc.get(field):
            want[key] = gc[field]
    heap = first.get("jdk.GCHeapConfiguration", {})
    if isinstance(heap.get("maxSize"), int):
        want["Max heap"] = "%.0f MiB" % (heap["maxSize"] / 1048576)
    return want


def summary(rec):
    text = subprocess.run([JFRTOOL, "summary", rec], capture_output=True, text=True,
                          timeout=120).stdout
    chunks = re.search(r"Chunks: (\d+)", text)
    start = re.search(r"Start: (\S+ \S+) \(UTC\)", text)
    return (int(chunks.group(1)) if chunks else None, start.group(1) if start else None)


def check(rec, tmp):
    global checked
    name = os.path.basename(rec)
    page = os.path.join(tmp, "page.html")
    res = subprocess.run([JFRTOOL, "report", "-o", page, rec], capture_output=True, text=True,
                         timeout=300)
    if res.returncode != 0:
        if res.returncode == 2 and ("not supported" in res.stderr or "is cut" in res.stderr):
            return  # JFR 0.9 (JDK 7/8, JRockit) or nothing readable: no page
        if not os.path.isfile(page):
            fail("%s: report exit %d: %s" % (name, res.returncode, res.stderr.strip()[-200:]))
            return
    with open(page, encoding="utf-8") as f:
        m = re.search(r"^const REPORT = (\{.*\});$", f.read(), re.M)
    os.unlink(page)
    if not m:
        fail("%s: no REPORT data in the page" % name)
        return
    report = json.loads(m.group(1))
    shown = dict(report["info"])
    want = expected(first_values(rec))
    for key in sorted(set(shown) | set(want)):
        checked += 1
        if shown.get(key) != want.get(key):
            fail("%s: %s is %r, the recording says %r" % (name, key, shown.get(key), want.get(key)))
    chunks, start = summary(rec)
    shown_start = datetime.datetime.fromtimestamp(report["origin"] // 1000, datetime.timezone.utc)
    checked += 2
    if report["chunks"] != chunks:
        fail("%s: %d chunks, summary says %s" % (name, report["chunks"], chunks))
    if shown_start.strftime("%Y-%m-%d %H:%M:%S") != start:
        fail("%s: start %s, summary says %s" % (name, shown_start, start))


def main():
    recs = sorted(glob.glob(os.path.join(DATA, "recordings", "*.jfr*")) +
                  glob.glob(os.path.join(DATA, "report", "*.jfr")))
    recs = [r for r in recs if not r.endswith((".jfc",))]
    if os.path.isfile(os.path.join(CORPUS, "MANIFEST.tsv")):
        recs += sorted(glob.glob(os.path.join(CORPUS, "*.jfr*")))
    else:
        print("SKIP: the corpus: %s not found (set JFR_SHARED)" % CORPUS)
    with tempfile.TemporaryDirectory() as tmp:
        for rec in recs:
            check(rec, tmp)
    print("%d recordings, %d fields checked, %d wrong" % (len(recs), checked, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
