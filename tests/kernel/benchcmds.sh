#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# benchcmds.sh - (guest; guest.sh runs it, full and focused suites) a bench
# that no longer runs is a test that no longer tests (issue 39.5): every
# `allocbench run|sweep|compare --...` command of the bench scripts in this
# image (/ab/bench.sh, /ab/vm-*.sh: the guest commands after `vm ... --`,
# in variables, after a helper such as vm-vpmu.sh's `aa`) is run here with
# --dry-run, which makes every check the CLI makes (the module's limits
# included) and runs nothing; a refused command fails with its message.
# Shell variables are expanded with their defaults (NAME=VALUE,
# ${N:-DEFAULT}, a for loop's first value); a command left with one is
# skipped and said so. An option's value may be quoted (--size="$s").
# Lines that print (echo, printf) and quoted prose (a
# string holding ", ") are text, not commands. Then bench.sh's fuzzer
# summary (bench/fuzzsum.sh) over this boot's fuzz output, /tmp/fuzz.out
# (guest.sh's storm), must count what its "# fuzz:" lines list.
. "$(dirname "$0")/lib.sh"
cd /ab || exit 1

awk '
function expand(s,   out, tok, body, name, def, i) {
	out = ""
	while (match(s, /\$\{[A-Za-z0-9_]+(:-[^}]*)?\}|\$[A-Za-z_][A-Za-z0-9_]*/)) {
		tok = substr(s, RSTART, RLENGTH)
		out = out substr(s, 1, RSTART - 1)
		s = substr(s, RSTART + RLENGTH)
		def = "\001"
		if (substr(tok, 2, 1) == "{") {
			body = substr(tok, 3, length(tok) - 3)
			i = index(body, ":-")
			name = i ? substr(body, 1, i - 1) : body
			if (i)
				def = substr(body, i + 2)
		} else
			name = substr(tok, 2)
		if (name in v)
			out = out v[name]
		else if (def != "\001")
			out = out def
		else
			out = out tok
	}
	return out s
}
FNR == 1 { cont = ""; n = split(FILENAME, p, "/"); file = p[n] }
{
	line = cont $0
	if (line ~ /\\$/) { cont = substr(line, 1, length(line) - 1) " "; next }
	cont = ""
	if (line ~ /^[ \t]*#/)
		next
	if (match(line, /^[ \t]*for [A-Za-z_][A-Za-z0-9_]* in /)) {
		nm = line; sub(/^[ \t]*for /, "", nm); sub(/ .*/, "", nm)
		split(expand(substr(line, RSTART + RLENGTH)), w, /[ \t;]+/)
		if (w[1] != "" && w[1] !~ /\$/)
			v[nm] = w[1]
	}
	if (match(line, /^[ \t]*[A-Za-z_][A-Za-z0-9_]*=/)) {
		nm = substr(line, RSTART, RLENGTH - 1); sub(/^[ \t]*/, "", nm)
		val = substr(line, RSTART + RLENGTH)
		if (val ~ /^"/) { val = substr(val, 2); sub(/".*/, "", val) }
		else if (val ~ /^\047/) { val = substr(val, 2); sub(/\047.*/, "", val) }
		else sub(/[ \t;].*/, "", val)
		if (val !~ /\$\(|`/)
			v[nm] = expand(val)
	}
	if (line ~ /^[ \t]*(echo|printf)[ \t]/)
		next
	e = expand(line)
	while (match(e, "(^|[ \t\"\047(])(allocbench[ \t]+)?(run|sweep|compare)[ \t]+-")) {
		lead = substr(e, RSTART, 1)
		s = substr(e, RSTART)
		if (lead !~ /[a-z]/)
			s = substr(s, 2)
		e = substr(e, RSTART + RLENGTH)
		gsub(/[ \t][0-9]*>&?[ \t]*[^ \t]*/, "", s)
		# an option value in quotes (--size="$s", expanded): the
		# quotes go, a quote elsewhere ends the command
		while (match(s, "=(\"[^\"]*\"|\047[^\047]*\047)"))
			s = substr(s, 1, RSTART) substr(s, RSTART + 2, RLENGTH - 3) substr(s, RSTART + RLENGTH)
		if (match(s, "[|;&)<\"\047]"))
			s = substr(s, 1, RSTART - 1)
		sub(/^allocbench[ \t]+/, "", s)
		gsub(/[ \t]+/, " ", s)
		sub(/[ \t]+$/, "", s)
		if (lead ~ /["\047]/ && index(s, ", "))
			continue
		if (!((file SUBSEP s) in seen)) {
			seen[file, s] = 1
			print file "\t" s
		}
	}
}' /ab/bench.sh /ab/vm-*.sh >/tmp/benchcmds

set -f
n=0 bad=0 skipped=0
while IFS='	' read -r file cmd; do
	case $cmd in
	*'$'*)
		echo "# bench commands: $file: skipped, a variable without a default: $cmd"
		skipped=$((skipped + 1))
		continue
		;;
	esac
	n=$((n + 1))
	# shellcheck disable=SC2086 # the command's words
	out=$(allocbench $cmd --dry-run 2>&1)
	st=$?
	# the bench boots Debian's 6.1 (vm-run's default): on PREEMPT_RT its
	# IRQs-off rows are refused by design, a refusal that names it
	if [ "$st" = 2 ] && uname -v | grep -q PREEMPT_RT &&
		printf '%s' "$out" | grep -q 'this kernel is PREEMPT_RT'; then
		echo "# bench commands: $file: not for PREEMPT_RT (refused as it should be): $cmd"
		skipped=$((skipped + 1))
	elif [ "$st" != 0 ]; then
		notok "bench: $file: allocbench $cmd: refused (status $st): $(printf '%s' "$out" | head -c 400)"
		bad=$((bad + 1))
	fi
done </tmp/benchcmds
set +f
if [ "$n" -ge 10 ] && [ "$bad" = 0 ]; then
	ok "bench: the $n commands of bench.sh and vm-*.sh pass allocbench's checks (--dry-run)$([ "$skipped" = 0 ] || echo ", $skipped skipped")"
elif [ "$n" -lt 10 ]; then
	notok "bench: only $n commands found in bench.sh and vm-*.sh ($(tr '\t\n' ': ' </tmp/benchcmds | head -c 400))"
fi

# the fuzzer's summary counts what the "# fuzz:" lines list
if [ -s /tmp/fuzz.out ]; then
	sum=$(sh /ab/fuzzsum.sh 0 0 /tmp/fuzz.out)
	want=$(awk '
		/^# fuzz: answers:/ { line = $0; sub(/^# fuzz: answers: */, "", line); sub(/ \([0-9]+ distinct.*$/, "", line)
			n = split(line, item, /[;,] */)
			for (i = 1; i <= n; i++) if (item[i] ~ /[^ ]+ [0-9]+$/) pairs++ }
		/^# fuzz: signals:/ { line = $0; sub(/^# fuzz: signals: */, "", line)
			n = split(line, item, /, */)
			for (i = 1; i <= n; i++) { k = item[i]; sub(/.* /, "", k); sig += k } }
		END { printf "%d distinct (ioctl, errno) pairs, %d signals delivered", pairs, sig }' /tmp/fuzz.out)
	case $sum in
	*"$want"*) ok "bench: the fuzzer's summary counts what the fuzz lines list ($want)" ;;
	*) notok "bench: the fuzzer's summary says '$sum', the fuzz lines list $want" ;;
	esac
else
	ok "bench: the fuzzer's summary # SKIP no /tmp/fuzz.out in this boot"
fi
