#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# completion.sh DIR - drive the bash completion function _allocbench with
# bash-completion 2.11 loaded, the binary in DIR on PATH; TAP lines.
dir=$(cd "${1:-.}" && pwd)
comp=$dir/completions/allocbench

# complete "WORDS..." -> what COMPREPLY holds after _allocbench
complete_line() {
	PATH=$dir:$PATH bash -c '
		. /usr/share/bash-completion/bash_completion
		. "$1"
		shift
		COMP_LINE=$(printf "%s" "$*" | sed "s/ = /=/g")
		COMP_POINT=${#COMP_LINE}
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_allocbench allocbench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@" 2>/dev/null
}

check() {
	name=$1 want=$2
	shift 2
	got=$(complete_line "$@" | tr '\n' ' ')
	case " $got" in
	*" $want "*) echo "ok - completion: $name" ;;
	*) echo "not ok - completion: $name (wanted '$want', got '$got')" ;;
	esac
}

check "commands" "run" allocbench ru
check "all commands" "topology" allocbench ""
check "run options from --help" "--alloc=" allocbench run --al
check "run --gfp values" "atomic" allocbench run --gfp at
check "--gfp=VALUE form" "nowait" allocbench run --gfp = now
check "--free values" "shuffle" allocbench run --free sh
check "lookup methods after a comma" "walk,bsr" allocbench lookup --method walk,b
check "sweep options" "--mem-nodes=" allocbench sweep --mem
check "reproduce experiments" "2002-lookup" allocbench reproduce 20
check "help topics" "compare" allocbench help comp
check "list events" "events" allocbench list ev
check "plot --format values" "png" allocbench plot --format p

# zsh and bash ask the binary for options; fish lists them: every option
# of every command must be there
missing=""
for c in run sweep compare lookup reproduce topology plot list info; do
	for o in $("$dir/allocbench" $c --help 2>/dev/null | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		case $o in --help | --usage) continue ;; esac
		grep -q -- "-l ${o#--}\b" "$dir/completions/allocbench.fish" || missing="$missing $c:$o"
	done
done
if [ -z "$missing" ]; then
	echo "ok - completion: fish knows every option"
else
	echo "not ok - completion: fish lacks$missing"
fi
