#!/bin/sh
# Redaction, on testdata/writer/secret-jdk25.jfr (one secret value in an
# environment variable, a -D system property given as a JVM argument, and
# two program arguments; tests/writer/make-secret-recording.sh): after
# `jfrtool scrub --redact`, from the plain and from a gzip-compressed copy
# of it,
# - the secret is in none of the output's bytes, whatever the encoding
#   (UTF-8 and Latin-1 bytes, UTF-16 in either order), and in none of the
#   strings decoded from its events and pool entries (tests/writer/poolcheck);
# - our print shows [redacted] where it was, and standard error counts, per
#   field, exactly the values print --json shows redacted;
# - the output is the one whose `jfr print` (JDK 25) holds no secret and
#   the [redacted] lines of testdata/writer/jdk/redact.tsv;
# - --redact-field: a whole field, a regex inside a field, a pool type's
#   field (java.lang.Thread.javaName), and nothing else changes.
#
# Environment (set by make check): JFRTOOL, POOLCHECK, JFR_TESTDATA.
set -u
: "${JFRTOOL:?}" "${POOLCHECK:?}" "${JFR_TESTDATA:?}"
. "$(dirname "$0")/writerlib.sh"
make_scratch
in=$JFR_TESTDATA/writer/secret-jdk25.jfr
want=$JFR_TESTDATA/writer/jdk/redact.tsv

# `grep -c` of a string in a file's bytes, in the encodings strings take
has_secret() {
    LC_ALL=C grep -c -F -a "$SECRET" "$1" >/dev/null && return 0
    for enc in UTF-16BE UTF-16LE; do
        printf '%s' "$SECRET" | iconv -t "$enc" >"$tmp/needle"
        LC_ALL=C grep -q -F -a -f "$tmp/needle" "$1" 2>/dev/null && return 0
    done
    return 1
}

has_secret "$in" || fail "the test recording holds no secret"
gzip -9 -n -c "$in" >"$tmp/secret.jfr.gz"
for src in "$in" "$tmp/secret.jfr.gz"; do
    name=$(basename "$src")
    if ! "$JFRTOOL" scrub --redact "$src" "$tmp/red.jfr" 2>"$tmp/err"; then
        fail "$name: scrub --redact failed: $(cat "$tmp/err")"
        continue
    fi
    has_secret "$tmp/red.jfr" && fail "$name: the secret is in the output's bytes"
    "$POOLCHECK" strings "$tmp/red.jfr" >"$tmp/strings" || fail "$name: poolcheck strings"
    grep -c . "$tmp/strings" >/dev/null || fail "$name: no strings decoded"
    grep -q -F "$SECRET" "$tmp/strings" && fail "$name: the secret is in a decoded string"
    "$JFRTOOL" print --json "$tmp/red.jfr" >"$tmp/red.json"
    grep -q -F "$SECRET" "$tmp/red.json" && fail "$name: the secret is in print --json"
    [ "$(sha_of "$tmp/red.jfr")" = "$(head -1 "$want")" ] ||
        fail "$name: the output changed since JDK 25 printed it (tests/writer/regen-jdk-outputs.sh)"
    # the counts on standard error, against the values print --json shows
    # redacted: "redacted N values of TYPE.FIELD"
    sed -n 's/^jfrtool: scrub: redacted \([0-9]*\) values* of \(.*\)$/\2 \1/p' "$tmp/err" |
        LC_ALL=C sort >"$tmp/said"
    python3 - "$tmp/red.json" >"$tmp/seen" <<'PY' || fail "$name: print --json"
import json, sys
counts = {}
for ev in json.load(open(sys.argv[1]))["recording"]["events"]:
    for k, v in ev["values"].items():
        if isinstance(v, str) and "[redacted]" in v:
            key = ev["type"] + "." + k
            counts[key] = counts.get(key, 0) + 1
for k in sorted(counts):
    print(k, counts[k])
PY
    LC_ALL=C sort -o "$tmp/seen" "$tmp/seen"
    cmp -s "$tmp/said" "$tmp/seen" ||
        fail "$name: redaction counts: said $(tr '\n' ';' <"$tmp/said") seen $(tr '\n' ';' <"$tmp/seen")"
    grep -q 'jdk.JVMInformation.javaArguments 1' "$tmp/said" ||
        fail "$name: the program arguments were not redacted"
done
tail -n +2 "$want" | grep -q -F "$SECRET" && fail "redact.tsv holds the secret"
[ "$(tail -n +2 "$want" | grep -c -F '[redacted]')" -ge 6 ] ||
    fail "JDK 25's print of the output shows fewer than 6 redacted values"

# --redact-field: the whole of one field, only what a regex matches, a
# field of a pool type; every other value stays
"$JFRTOOL" print --json "$in" >"$tmp/in.json"
"$JFRTOOL" scrub --redact-field jdk.InitialEnvironmentVariable.value \
    --redact-field 'jdk.SystemProcess.commandLine=hunter2-[A-Za-z0-9-]*' \
    --redact-field 'java.lang.Thread.javaName=^main$' "$in" "$tmp/f.jfr" 2>"$tmp/err" ||
    fail "--redact-field failed: $(cat "$tmp/err")"
"$JFRTOOL" print --json "$tmp/f.jfr" >"$tmp/f.json"
python3 - "$tmp/in.json" "$tmp/f.json" <<'PY' || fail "--redact-field changed what it should not"
import json, re, sys
a = json.load(open(sys.argv[1]))["recording"]["events"]
b = json.load(open(sys.argv[2]))["recording"]["events"]
assert len(a) == len(b), "events lost"
def walk(x, y, path, diffs):
    if isinstance(x, dict):
        for k in x:
            walk(x[k], y[k], path + "." + k, diffs)
    elif isinstance(x, list):
        for i, (p, q) in enumerate(zip(x, y)):
            walk(p, q, path, diffs)
    elif x != y:
        diffs.append((path, x, y))
diffs = []
for ev, ew in zip(a, b):
    walk(ev["values"], ew["values"], ev["type"], diffs)
kinds = {}
for path, x, y in diffs:
    if path == "jdk.InitialEnvironmentVariable.value":
        assert y == "[redacted]", (path, y)
    elif path == "jdk.SystemProcess.commandLine":
        assert y == re.sub("hunter2-[A-Za-z0-9-]*", "[redacted]", x) != x, (path, x, y)
    elif path.endswith(".javaName"):
        assert x == "main" and y == "[redacted]", (path, x, y)
    else:
        raise AssertionError("changed: %s %r -> %r" % (path, x, y))
    kinds[path.rsplit(".", 1)[-1] if path.endswith(".javaName") else path] = 1
assert len(kinds) == 3, kinds
PY
grep -q "redacted [0-9]* values* of java.lang.Thread.javaName" "$tmp/err" ||
    fail "--redact-field: no count for java.lang.Thread.javaName"

# --redact-field naming no string field of the input: a usage error (exit
# 1) that says which, with no output; a typo must not let a secret out
# with exit status 0.
for spec in jdk.InitialEnvironmentVariable.vaule:'no such field' \
    jdk.InitialEnviromentVariable.value:'has no type' \
    jdk.ThreadSleep.time:'not a string field' \
    'jdk.InitialEnvironmentVariable.vaule=x.*':'no such field'; do
    field=${spec%%:*}
    says=${spec#*:}
    rm -f "$tmp/bad.jfr"
    "$JFRTOOL" scrub --redact-field "$field" "$in" "$tmp/bad.jfr" 2>"$tmp/err"
    rc=$?
    [ "$rc" -eq 1 ] || fail "--redact-field $field: exit $rc, not 1"
    grep -q -F -- "$says" "$tmp/err" || fail "--redact-field $field: '$says' not said: $(cat "$tmp/err")"
    [ ! -e "$tmp/bad.jfr" ] || fail "--redact-field $field: an output was left"
done
grep -q -F 'string fields of jdk.InitialEnvironmentVariable: key, value' "$tmp/err" ||
    fail "a misspelt field does not list the type's string fields: $(cat "$tmp/err")"
finish redact
