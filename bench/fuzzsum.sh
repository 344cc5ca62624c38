#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# fuzzsum.sh CENTISECONDS STATUS FILE - (guest) bench.sh's one line about
# the ioctl fuzzer from its output FILE (tests/kernel/fuzz.c's "# fuzz:"
# lines, figures()), the storm's guest time and exit status: the calls,
# the pairs the answers line counts, the signals the signals line lists
# (summed, and the kinds that came), the objects outstanding after it; a
# figure that cannot be read is "?", never 0. tests/kernel/benchcmds.sh
# checks it against a boot's own fuzz lines.
awk -v t="$1" -v st="$2" -v k="$(uname -r)" -v b="$(cat /proc/cmdline)" '
	/^# fuzz: [0-9]+ calls/ { calls = $3 }
	/^# fuzz: answers:/ && match($0, /\([0-9]+ distinct ioctl and errno pairs\)$/) {
		pairs = substr($0, RSTART + 1, RLENGTH - 1); sub(/ .*/, "", pairs) }
	/^# fuzz: signals:/ { line = $0; sub(/^# fuzz: signals: */, "", line)
		n = split(line, s, ", *"); sig = 0; kinds = 0
		for (i = 1; i <= n; i++) if (match(s[i], /[0-9]+$/)) {
			v = substr(s[i], RSTART) + 0; sig += v; if (v) kinds++ }
		sigs = sig " signals delivered (" kinds " of " n " kinds: " line ")" }
	/outstanding after the storm/ { match($0, /outstanding [0-9]+\)/); left = substr($0, RSTART + 12, RLENGTH - 13) }
	END { printf "fuzzer: %s calls, %s distinct (ioctl, errno) pairs, %s, objects outstanding after it %s, %.1f s guest time (status %d), kernel %s, boot options: %s\n",
		calls == "" ? "?" : calls, pairs == "" ? "?" : pairs, sigs == "" ? "? signals delivered" : sigs,
		left == "" ? "?" : left, t / 100, st, k, b }' "$3"
