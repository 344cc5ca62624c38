# SPDX-License-Identifier: GPL-2.0-only
#
# lib.sh - what the in-guest test scripts share (sourced, not run): TAP
# lines and expect STATUS PATTERN NAME -- CMD...: CMD exits with STATUS and
# its output (stdout and stderr) holds PATTERN.
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; }

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
