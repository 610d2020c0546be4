"""robustlib.py - shared by the tests in tests/robust: running jfrtool on
damaged input under a time and address-space limit, chunk boundaries, and
parsing `jfrtool summary` counts.

Environment (set by make check): JFRTOOL, JFR_TESTDATA, JFRMAKE; TMPDIR for
the scratch folder. Nothing is written into the source tree."""
import os
import re
import resource
import signal
import struct
import subprocess
import sys
import tempfile

JFRTOOL = os.environ.get("JFRTOOL", "jfrtool/jfrtool")
TESTDATA = os.environ.get("JFR_TESTDATA", "testdata")
JFRMAKE = os.environ.get("JFRMAKE", "tests/robust/jfrmake")
RECORDINGS = os.path.join(TESTDATA, "recordings")
TIMEOUT = 10                 # seconds per command
ADDRESS_SPACE = 4194304 * 1024  # ulimit -v 4194304 (KiB)
SANITIZED = None             # set by limit_memory(): ASan needs no -v limit

failures = []


def scratch():
    """A fresh scratch folder under $TMPDIR, removed at exit."""
    d = tempfile.TemporaryDirectory(prefix="jfr-robust-")
    scratch.keep.append(d)
    return d.name


scratch.keep = []


def _limits():
    # ASan and TSan reserve terabytes of shadow memory: an address-space
    # limit would stop them before main. The sanitizer build keeps its own memory checks.
    if not sanitized():
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def sanitized():
    global SANITIZED
    if SANITIZED is None:
        try:
            out = subprocess.run(["nm", JFRTOOL], capture_output=True, text=True).stdout
            SANITIZED = "__asan_init" in out or "__tsan_init" in out
        except OSError:
            SANITIZED = False
    return SANITIZED


def run(args, path):
    """Run `jfrtool ARGS PATH`; returns (status, stdout bytes, stderr text).
    A signal, a timeout or an exit status other than 0 and 2 is a failure."""
    cmd = [JFRTOOL] + args + [path]
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=TIMEOUT, preexec_fn=_limits)
    except subprocess.TimeoutExpired:
        fail("%s: timed out after %d s" % (" ".join(cmd), TIMEOUT))
        return None, b"", ""
    err = p.stderr.decode("utf-8", "replace")
    if p.returncode < 0:
        fail("%s: killed by signal %s" % (" ".join(cmd), signal.Signals(-p.returncode).name))
    elif p.returncode not in (0, 2):
        fail("%s: exit status %d\n%s" % (" ".join(cmd), p.returncode, err[-2000:]))
    return p.returncode, p.stdout, err


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def finish(what, count):
    for d in scratch.keep:
        d.cleanup()
    print("%s: %d cases, %d failures" % (what, count, len(failures)))
    sys.exit(1 if failures else 0)


def read(name):
    with open(os.path.join(RECORDINGS, name), "rb") as f:
        return f.read()


def write(folder, name, data):
    path = os.path.join(folder, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def chunks(data):
    """(offset, size) of each chunk, from the headers' chunk sizes."""
    out, pos = [], 0
    while pos + 68 <= len(data) and data[pos:pos + 4] == b"FLR\0":
        size = struct.unpack(">Q", data[pos + 8:pos + 16])[0]
        if size < 68 or pos + size > len(data):
            break
        out.append((pos, size))
        pos += size
    return out


def varint(data, pos):
    """The LEB128 value at data[pos] and the offset after it."""
    v = shift = 0
    for i in range(9):
        b = data[pos + i]
        if i == 8:
            return v | (b << 56), pos + 9
        v |= (b & 0x7f) << shift
        shift += 7
        if b < 0x80:
            return v, pos + i + 1


def header_offsets(data, pos=0):
    """(chunk size, constant pool offset, metadata offset) of a header."""
    return struct.unpack(">QQQ", data[pos + 8:pos + 32])


def make(name, folder):
    """A synthetic recording from tests/robust/jfrmake."""
    path = os.path.join(folder, name + ".jfr")
    subprocess.run([JFRMAKE, name, path], check=True)
    return path


_ROW = re.compile(r"^ (\S+)\s+(\d+)\s+(\d+)\s*$")


def summary_counts(stdout):
    """{event type: count} from `jfrtool summary` (JDK layout)."""
    counts = {}
    for line in stdout.decode("utf-8", "replace").splitlines():
        m = _ROW.match(line)
        if m and m.group(1) != "Event":
            counts[m.group(1)] = counts.get(m.group(1), 0) + int(m.group(2))
    return counts
