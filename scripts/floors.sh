#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# floors.sh [OBJ...] - one-way floors, as TAP lines: no two files call each
# other (file A uses a symbol file B defines while B uses one A defines),
# read from the objects' symbol tables (nm). Without arguments: the CLI's
# objects (build/lib, build/backends, build/job, build/cmd) and the module's of the
# first kernel built (build/vm/*/kmod), each set checked on its own.
# Then the commands (build/cmd): no command's object uses a symbol that
# another command's object defines. A file belongs to the command its name
# starts with (plot_bars.o is plot's, vm_boot.o vm's); main.o, the command
# table, is above them all. What two commands share lives in job/.
set -u
cd "$(dirname "$0")/.." || exit 1
# exit status 1 when a line is "not ok"
failed=0

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
		failed=1
	fi
}

# commands OBJ...: one TAP line: no object uses another command's symbol
commands() {
	[ $# -ge 2 ] || { echo "ok - floors: commands # SKIP not built"; return 0; }
	tmp=$(mktemp -d)
	nm -A --defined-only "$@" 2>/dev/null |
		awk '$2 ~ /^[TDBRV]$/ { o = $1; sub(/:[^:]*$/, "", o); print $3, o }' |
		sort -u >"$tmp/defs"
	nm -A -u "$@" 2>/dev/null |
		awk '{ o = $1; sub(/:.*$/, "", o); print $NF, o }' | sort -u >"$tmp/undef"
	# "USER DEFINER SYMBOL" where the two files are two commands'
	cross=$(join "$tmp/undef" "$tmp/defs" | awk '
		function owner(o) { sub(/.*\//, "", o); sub(/\.o$/, "", o); sub(/_.*$/, "", o); return o }
		$2 != $3 && owner($2) != "main" && owner($2) != owner($3) {
			printf "%s uses %s of %s; ", $2, $1, $3 }')
	rm -rf "$tmp"
	if [ -z "$cross" ]; then
		echo "ok - floors: commands: no command uses another command's file ($# objects)"
	else
		echo "not ok - floors: commands: a command uses another's file (move what they share to job/): $cross"
		failed=1
	fi
}

if [ $# -gt 0 ]; then
	check "given objects" "$@"
	exit $failed
fi
# each source's object, so an object a removed source left is not read
cli=""
for c in common/*.c lib/*/*.c backends/*.c job/*.c cmd/*.c; do
	[ -f "build/${c%.c}.o" ] && cli="$cli build/${c%.c}.o"
done
# shellcheck disable=SC2086
check "the CLI (common/, lib/, backends/, job/, cmd/)" $cli
cmds=""
for c in cmd/*.c; do
	[ -f "build/${c%.c}.o" ] && cmds="$cmds build/${c%.c}.o"
done
# shellcheck disable=SC2086
commands $cmds
kdir=$(ls -d build/vm/*/kmod 2>/dev/null | head -n 1)
ko=""
for c in kmod/*.c; do
	[ -n "$kdir" ] && [ -f "$kdir/$(basename "${c%.c}").o" ] && ko="$ko $kdir/$(basename "${c%.c}").o"
done
# shellcheck disable=SC2086
check "allocbench.ko (kmod/)" $ko
exit $failed
