"""livejvm.py - a small JVM to follow, for tests/follow: finds java and
javac (JAVA, else java on PATH; JDK 14 or later streams its recordings),
compiles FollowWorkload.java into the build tree, and starts it with a
recording whose repository is in a temporary directory. Exits 77 (skip),
saying why, when there is no such JDK."""
import glob
import os
import re
import shutil
import subprocess
import sys
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from checks import Checks  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
BUILD = os.environ.get("JFR_TOP_BUILDDIR", os.getcwd())


def skip(why):
    print("SKIP: " + why)
    sys.exit(77)


def find_jdk():
    """(java, javac, major version) of the JDK to use."""
    java = os.environ.get("JAVA") or shutil.which("java")
    if not java or not os.access(java, os.X_OK):
        skip("no java found (set JAVA, or install a JDK: tools/deps-debian.sh --tests)")
    # the real binary, not a launcher script: its pid is the JVM's
    java = os.path.realpath(java)
    javac = os.path.join(os.path.dirname(java), "javac")
    if not os.access(javac, os.X_OK):
        javac = shutil.which("javac")
    if not javac:
        skip("no javac beside %s (a JRE, not a JDK?)" % java)
    out = subprocess.run([java, "-version"], capture_output=True, text=True).stderr
    m = re.search(r'version "(\d+)(?:\.(\d+))?', out)
    major = int(m.group(1)) if m else 0
    if major == 1 and m.group(2):
        major = int(m.group(2))
    if major < 14:
        skip("%s is Java %d: following a recording needs JDK 14 or later" % (java, major))
    return java, javac, major


def compile_workload(javac):
    """The class directory, in the build tree (never the source tree)."""
    classes = os.path.join(BUILD, "tests", "follow", "classes")
    os.makedirs(classes, exist_ok=True)
    src = os.path.join(HERE, "FollowWorkload.java")
    cls = os.path.join(classes, "FollowWorkload.class")
    if not os.path.exists(cls) or os.path.getmtime(cls) < os.path.getmtime(src):
        subprocess.run([javac, "--release", "11", "-d", classes, src], check=True)
    return classes


def start_jvm(java, classes, tmp, seconds, settings="profile", extra=(), options=""):
    """The workload with a recording in TMP/repo, dumped to TMP/final.jfr
    when the JVM exits; `extra` JVM options; `options` more
    -XX:FlightRecorderOptions (",maxchunksize=1m"). Returns the Popen (its
    pid is the JVM's)."""
    repo = os.path.join(tmp, "repo")
    os.makedirs(repo, exist_ok=True)
    args = [java, "-Xmx256m",
            "-XX:StartFlightRecording=settings=%s,filename=%s" % (
                settings, os.path.join(tmp, "final.jfr")),
            "-XX:FlightRecorderOptions:repository=" + repo + options]
    args += list(extra) + ["-cp", classes, "FollowWorkload", str(seconds)]
    env = dict(os.environ, TZ="UTC", LC_ALL="C")
    return subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env)


def wait_for_chunk(tmp, jvm, min_bytes=68, timeout=60):
    """The JVM's first chunk file, once it has `min_bytes` flushed (its
    header's size); None if the JVM ended first."""
    deadline = time.time() + timeout
    while time.time() < deadline and jvm.poll() is None:
        for path in glob.glob(os.path.join(tmp, "repo", "*", "*.jfr")):
            try:
                with open(path, "rb") as f:
                    head = f.read(68)
            except OSError:
                continue
            if len(head) == 68 and int.from_bytes(head[8:16], "big") >= min_bytes:
                return path
        time.sleep(0.05)
    return None


# ---- checks and the recording's flushes, for the scripts that follow it ----

CHECKS = Checks(verbose=True)
failures = CHECKS.failures
check = CHECKS.check


def finish(what):
    """The exit status after the checks: 1 if any failed."""
    if failures:
        print("FAIL: %d checks" % len(failures))
        return 1
    print("PASS: " + what)
    return 0


def varint(b, i):
    """The LEB128 value at b[i] and the offset after it (jfr-format.md)."""
    v = 0
    for k in range(8):
        x = b[i + k]
        v |= (x & 0x7F) << (7 * k)
        if x < 0x80:
            return v, i + k + 1
    return v | (b[i + 8] << 56), i + 9


def chunks(data):
    """A file's chunks, each as its bytes, by the sizes in their headers."""
    out, pos = [], 0
    while pos + 68 <= len(data):
        size = int.from_bytes(data[pos + 8:pos + 16], "big")
        out.append(data[pos:pos + size])
        pos += size
    return out


def flush_ends(chunk):
    """The chunk-relative ends of a chunk's flushes (its checkpoints whose
    type has the FLUSH bit), read independently of libjfr."""
    ends, i = [], 68
    while i < len(chunk):
        rsize, j = varint(chunk, i)
        rtype, j = varint(chunk, j)
        if rtype == 1:
            for _ in range(3):
                _, j = varint(chunk, j)
            flags, j = varint(chunk, j)
            if flags & 1:
                ends.append(i + rsize)
        i += rsize
    return ends
