#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# known-length.sh MODULE - what the virtual PMU must count per op, net of
# the none baseline, for the vpmu_known strategy (kmod/strategies.c), read
# off `objdump -d` of the built module: the instructions of ab_known_call
# and ab_known_free_call up to their return (a `ret`, or the `jmp` to the
# return thunk that the kernel patches into one), and of those the
# branches (each function's return). Prints one line
#	INSNS BRANCHES
# Exit status 1, with one line, when either function is not there.
ko=$1
if [ ! -r "$ko" ]; then
	echo "usage: known-length.sh MODULE" >&2
	exit 2
fi
objdump -d --no-show-raw-insn "$ko" | awk '
	/^[0-9a-f]+ <ab_known_(free_)?call>:$/ { infn = 1; found++; next }
	infn && /^$/ { infn = 0; next }
	!infn { next }
	{
		line = $0; sub("^[^\t]*\t", "", line)
		split(line, w, " ")
		n++
		if (w[1] ~ /^(ret|jmp)/) { br++; infn = 0 }
	}
	END {
		if (found != 2) { print "known-length: ab_known_call or ab_known_free_call is not in the module" > "/dev/stderr"; exit 1 }
		print n, br
	}'
