# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - what every test script shares (sourced, not run; the guest's
# scripts find it as /ab/lib.sh, the host's as tests/lib.sh): TAP lines,
# and expect STATUS PATTERN NAME -- CMD...: CMD exits with STATUS and its
# output (stdout and stderr) holds PATTERN.
#
# TAP_PREFIX, when a script sets it, goes before each line's description
# (the script's name for its lines: "plot: "). tap_n counts the lines,
# tap_failed the failures, of this shell (not of a subshell's calls).
tap_n=0
tap_failed=0
ok() {
	tap_n=$((tap_n + 1))
	echo "ok - ${TAP_PREFIX:-}$*"
}
notok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok - ${TAP_PREFIX:-}$*"
}

expect() {
	want=$1 pat=$2 name=$3
	shift 4
	out=$("$@" 2>&1)
	got=$?
	if [ "$got" = "$want" ] && printf '%s\n' "$out" | grep -q -- "$pat"; then
		ok "$name"
	else
		notok "$name (exit $got, wanted $want; output: $(printf '%s' "$out" | head -c 300))"
	fi
}

# part_time NAME: "# time: NAME: S s", the seconds since the last call (or
# since lib.sh was sourced), from /proc/uptime: the guest suites' parts
# (guest.sh), for whoever makes a boot shorter
part_t0=$(cut -d' ' -f1 /proc/uptime 2>/dev/null)
part_time() {
	part_t1=$(cut -d' ' -f1 /proc/uptime 2>/dev/null)
	echo "# time: $1: $(awk -v a="$part_t0" -v b="$part_t1" 'BEGIN { printf "%.1f", b - a }') s"
	part_t0=$part_t1
}

# jarray ARRAY LABEL: from a run's --json on stdin, the inside of the array
# ARRAY ("counters", "explain") of the result labelled LABEL, on one line.
# jfig ARRAY NAME LABEL: its net_per_op for NAME (a counter's event, an
# explained path), empty when there is none. Plain sed, for the guest's
# busybox, which has no JSON reader: the document on one line, cut before
# each label (a result's label comes before its arrays), the array read to
# its bracket and the object to its brace (neither holds another).
jarray() {
	tr '\n' ' ' | sed 's/"label": *"/\n/g' | grep "^$2\"" | head -n 1 |
		sed -n "s/.*\"$1\": *\[\([^]]*\)\].*/\1/p"
}
# jobj OBJECT LABEL: the inside of the object OBJECT ("other_cpus") of
# the result labelled LABEL, on one line (an object that holds no other).
jobj() {
	tr '\n' ' ' | sed 's/"label": *"/\n/g' | grep "^$2\"" | head -n 1 |
		sed -n "s/.*\"$1\": *{\([^}]*\)}.*/\1/p"
}
jfig() {
	case $1 in counters) jf_k=event ;; *) jf_k=path ;; esac
	jarray "$1" "$3" | sed -n "s/.*\"$jf_k\": *\"$2\",[^}]*\"net_per_op\": *\([-0-9.e+]*\).*/\1/p"
}
