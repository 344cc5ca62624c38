#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# loop-length.sh OBJECT FUNCTION - what the virtual PMU must count in the
# one marked region of FUNCTION in OBJECT (the built module), read off
# `objdump -d`: the region between its begin and end marker
# (common/ab_vpmu.h; the markers themselves are not counted) is straight
# code around one loop, the span from a backward jump's target to the
# jump. Prints one line
#	fixed INSNS BRANCHES LOADS STORES per_iteration INSNS BRANCHES LOADS STORES
# so a pass of N iterations counts fixed + N * per_iteration, taking every
# forward branch as not taken (a loop that runs at least once). Branches are
# the jumps, calls and returns (taken or not); a memory operand is a load,
# a store when it is the destination of a mov, both for other instructions
# that write memory (AT&T syntax: the last operand is the destination);
# lea and nop touch no memory. Exit status 1, with one line, when the
# function or a marked region with one loop is not there.
ko=$1
fn=$2
if [ ! -r "$ko" ] || [ -z "$fn" ]; then
	echo "usage: loop-length.sh OBJECT FUNCTION" >&2
	exit 2
fi
objdump -d --no-show-raw-insn "$ko" | awk -v fn="$fn" '
	function hex(s,    i, v) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	$0 ~ "^[0-9a-f]+ <" fn ">:$" { infn = 1; next }
	infn && /^$/ { exit }
	!infn { next }
	{
		addr = $1; sub(":", "", addr)
		line = $0; sub("^[^\t]*\t", "", line)
		split(line, w, " ")
		mn = w[1]; ops = substr(line, length(mn) + 1); gsub(" ", "", ops)
		if (mn == "nopl" && ops ~ /^0x564d50[0-9a-f][0-9a-f]\(/) {
			xx = hex(substr(ops, 9, 2))
			if (xx < 128 && !open) { open = 1; n = 0 }
			else if (xx >= 128 && open) { open = 0; done = 1; exit }
			next
		}
		if (!open)
			next
		n++
		a[n] = hex(addr); m[n] = mn; o[n] = ops
	}
	END {
		if (!done) { print "loop-length: no marked region in " fn > "/dev/stderr"; exit 1 }
		lo = hi = 0
		for (i = 1; i <= n; i++)
			if (m[i] ~ /^j/ && o[i] ~ /^[0-9a-f]+</) {
				t = hex(substr(o[i], 1, index(o[i], "<") - 1))
				if (t <= a[i] && t >= a[1]) {
					if (hi) { print "loop-length: more than one loop in " fn > "/dev/stderr"; exit 1 }
					lo = t; hi = a[i]
				}
			}
		if (!hi) { print "loop-length: no loop in the region of " fn > "/dev/stderr"; exit 1 }
		for (i = 1; i <= n; i++) {
			k = (a[i] >= lo && a[i] <= hi) ? "l" : "f"
			ins[k]++
			if (m[i] ~ /^(j|call|ret)/)
				br[k]++
			if (m[i] ~ /^(lea|nop)/ || o[i] !~ /\(/)
				continue
			if (o[i] ~ /\)$/) {
				st[k]++
				if (m[i] !~ /^mov/)
					ld[k]++
			} else {
				ld[k]++
			}
		}
		printf "fixed %d %d %d %d per_iteration %d %d %d %d\n",
			ins["f"], br["f"], ld["f"], st["f"], ins["l"], br["l"], ld["l"], st["l"]
	}'
