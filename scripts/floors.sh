#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# floors.sh [OBJ...] - one-way floors, as TAP lines: no two files call each
# other (file A uses a symbol file B defines while B uses one A defines),
# read from the objects' symbol tables (nm). Without arguments: the CLI's
# objects (build/lib, build/backends, build/job, build/cmd) and the module's of the
# first kernel built (build/vm/*/kmod), each set checked on its own.
set -u
cd "$(dirname "$0")/.." || exit 1

# check NAME OBJ...: one TAP line for the set
check() {
	name=$1
	shift
	[ $# -ge 2 ] || { echo "ok - floors: $name # SKIP not built"; return 0; }
	tmp=$(mktemp -d)
	# one nm over all the objects, each line "OBJECT:ADDR TYPE SYMBOL"
	nm -A --defined-only "$@" 2>/dev/null |
		awk '$2 ~ /^[TDBRV]$/ { o = $1; sub(/:[^:]*$/, "", o); print $3, o }' |
		sort -u >"$tmp/defs"
	nm -A -u "$@" 2>/dev/null |
		awk '{ o = $1; sub(/:.*$/, "", o); print $NF, o }' | sort -u >"$tmp/undef"
	# "USER DEFINER SYMBOL" for each symbol one object uses from another
	join "$tmp/undef" "$tmp/defs" | awk '$2 != $3 { print $2, $3, $1 }' |
		sort -u >"$tmp/uses"
	circles=$(awk '{ e[$1 " " $2] = e[$1 " " $2] " " $3 }
		END { for (k in e) { split(k, p, " ");
			if (p[1] < p[2] && ((p[2] " " p[1]) in e))
				printf "%s <-> %s (%s /%s);", p[1], p[2], substr(e[k], 2), e[p[2] " " p[1]] } }' "$tmp/uses")
	rm -rf "$tmp"
	if [ -z "$circles" ]; then
		echo "ok - floors: $name: no two files call each other ($# objects)"
	else
		echo "not ok - floors: $name: files that call each other: $circles"
	fi
}

if [ $# -gt 0 ]; then
	check "given objects" "$@"
	exit 0
fi
# each source's object, so an object a removed source left is not read
cli=""
for c in lib/*/*.c backends/*.c job/*.c cmd/*.c; do
	[ -f "build/${c%.c}.o" ] && cli="$cli build/${c%.c}.o"
done
# shellcheck disable=SC2086
check "the CLI (lib/, backends/, job/, cmd/)" $cli
kdir=$(ls -d build/vm/*/kmod 2>/dev/null | head -n 1)
ko=""
for c in kmod/*.c; do
	[ -n "$kdir" ] && [ -f "$kdir/$(basename "${c%.c}").o" ] && ko="$ko $kdir/$(basename "${c%.c}").o"
done
# shellcheck disable=SC2086
check "allocbench.ko (kmod/)" $ko
