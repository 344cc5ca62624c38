#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# validate.sh KERNEL_DIR INITRD - run tests/kernel/json.sh in the embedded
# kernel (two nodes) and check each JSON document it prints against
# schema/allocbench-result.schema.json with Debian's jsonschema validator
# (python3-jsonschema); also that no document holds a bare NaN. TAP lines.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
schema=$here/schema/allocbench-result.schema.json
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

NODES=2 sh "$here/scripts/vm/vm-run.sh" "$1" "$2" "sh /ab/json.sh" >"$dir/all" 2>"$dir/err"
rc=$?
if [ "$rc" != 0 ]; then
	echo "not ok - json: the guest run failed (vm-run exit $rc: $(tail -c 300 "$dir/err"))"
	exit 0
fi
awk -v dir="$dir" '/^@@JSON .*@@$/ { name = $2; sub(/@@$/, "", name); f = dir "/" name ".json"; next }
	f { print > f }' "$dir/all"
for f in "$dir"/*.json; do
	name=$(basename "$f" .json)
	[ "$name" = end ] && continue
	if [ ! -s "$f" ]; then
		echo "not ok - json: $name printed nothing"
	elif grep -q -w -e NaN -e Infinity "$f"; then
		echo "not ok - json: $name holds NaN or Infinity"
	elif out=$(/usr/bin/jsonschema -i "$f" "$schema" 2>&1); then
		echo "ok - json: $name is valid against the schema"
	else
		echo "not ok - json: $name: $(printf '%s' "$out" | head -c 400)"
	fi
done

# every kind of picture, from the documents just checked
for name in run run-single sweep compare lookup reproduce-2019; do
	f=$dir/$name.json
	if "$here/allocbench" plot "$f" -o "$dir/$name.png" 2>"$dir/plot.err" &&
		[ "$(head -c 4 "$dir/$name.png" | tail -c 3)" = PNG ] &&
		"$here/allocbench" plot "$f" -o "$dir/$name.svg" 2>>"$dir/plot.err" &&
		grep -q "<svg" "$dir/$name.svg"; then
		echo "ok - plot: $name as PNG and SVG"
	else
		echo "not ok - plot: $name ($(head -c 300 "$dir/plot.err"))"
	fi
done
