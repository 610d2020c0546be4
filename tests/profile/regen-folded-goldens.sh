#!/bin/sh
# Remake testdata/expected/R.jfr.folded-EVENT[-VARIANT].txt from the JDK's
# `jfr print --json` outputs in testdata/jdk/ (no JDK needed; python3 only).
# Run from the top of the source tree: tests/profile/regen-folded-goldens.sh
set -eu
jdk=testdata/jdk
out=testdata/expected
conv=tests/profile/folded-from-jdk.py
mkdir -p "$out"
for json in "$jdk"/*.jfr.print.json.gz; do
    rec=$(basename "$json" .print.json.gz)
    for event in exec cpu native alloc; do
        tmp="$out/$rec.folded-$event.txt.tmp"
        python3 "$conv" "$event" "$json" > "$tmp"
        if [ -s "$tmp" ]; then mv "$tmp" "$out/$rec.folded-$event.txt"; else rm -f "$tmp"; fi
    done
done
# the variants, for a few recordings
for rec in cpu-jdk17.jfr cpu-jdk25.jfr io-jdk25.jfr; do
    for event in exec cpu; do
        for variant in threads lines; do
            tmp="$out/$rec.folded-$event-$variant.txt.tmp"
            python3 "$conv" --"$variant" "$event" "$jdk/$rec.print.json.gz" > "$tmp"
            if [ -s "$tmp" ]; then mv "$tmp" "$out/$rec.folded-$event-$variant.txt"; else rm -f "$tmp"; fi
        done
    done
done
