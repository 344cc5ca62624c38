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
check "run --dry-run" "--dry-run" allocbench run --dry
check "run --wide" "--wide" allocbench run --wi
check "sweep --dry-run" "--dry-run" allocbench sweep --dry
check "compare --dry-run" "--dry-run" allocbench compare --dry
check "run --gfp values" "atomic" allocbench run --gfp at
check "--gfp=VALUE form" "nowait" allocbench run --gfp = now
check "--free values" "shuffle" allocbench run --free sh
check "lookup methods after a comma" "walk,bsr" allocbench lookup --method walk,b
check "sweep options" "--mem-nodes=" allocbench sweep --mem
check "reproduce experiments" "2002-lookup" allocbench reproduce 20
check "help topics" "compare" allocbench help comp
check "list events" "events" allocbench list ev
check "plot --format values" "png" allocbench plot --format p
check "export --format values" "mmtests" allocbench export --format mm
check "export --format values are not plot's" "kcidb" allocbench export --format k

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

# the lists come from the binary's tables: the commands offered are the
# command table (--help prints it), and each enumerated option offers what
# `allocbench list --values=KIND` says, no more and no less
sorted() { tr ' ' '\n' | grep -v '^$' | sort | tr '\n' ' '; }
want=$("$dir/allocbench" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' | sorted)
got=$(complete_line allocbench "" | grep -v '^--' | sorted)
if [ -n "$want" ] && [ "$want" = "$got" ]; then
	echo "ok - completion: the commands are the command table"
else
	echo "not ok - completion: the commands are the command table (table: '$want', offered: '$got')"
fi
for pair in run:--alloc:strategies run:--gfp:gfp run:--memcg:memcg run:--timing:timing run:--free:free \
	run:--context:context run:--lookup:lookup lookup:--method:methods \
	lookup:--table:table run:--backend:backends; do
	c=${pair%%:*} rest=${pair#*:}
	o=${rest%%:*} kind=${rest#*:}
	want=$("$dir/allocbench" list --values="$kind" | sorted)
	got=$(complete_line allocbench "$c" "$o" "" | sorted)
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		echo "ok - completion: $c $o offers list --values=$kind"
	else
		echo "not ok - completion: $c $o offers list --values=$kind (list: '$want', offered: '$got')"
	fi
done
# no shell's file keeps its own copy of a generated list
copies=$(grep -l -E "kernel atomic nowait|fifo lifo shuffle|walk fls bsr|kmod user|topology vm plot list" \
	"$dir/completions/allocbench" "$dir/completions/allocbench.fish" "$dir/completions/_allocbench")
if [ -z "$copies" ]; then
	echo "ok - completion: no shell keeps a copy of a generated list"
else
	echo "not ok - completion: a hand copy of a generated list in $copies"
fi
"$dir/allocbench" list --values=nosuch 2>/dev/null
rc=$?
if [ $rc -eq 2 ]; then
	echo "ok - completion: list --values=nosuch refused (status 2)"
else
	echo "not ok - completion: list --values=nosuch refused (status $rc, wanted 2)"
fi
# the binary completed is the one asked, on PATH or not (before: a build
# tree's ./allocbench got no commands and no values, since the lists were
# asked of an `allocbench` on PATH)
got=$(cd "$dir" && env PATH=/usr/bin:/bin bash -c '
	. /usr/share/bash-completion/bash_completion
	. "$1"
	complete_at() {
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_allocbench "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s " "${COMPREPLY[@]}"
	}
	complete_at ./allocbench ru
	complete_at ./allocbench run --gfp at
	complete_at ./allocbench list --values ki' _ "$comp" 2>/dev/null)
case " $got " in
*" run "*"atomic "*"kinds "*) echo "ok - completion: ./allocbench off PATH completes commands, values and --values kinds ($got)" ;;
*) echo "not ok - completion: ./allocbench off PATH completes commands, values and --values kinds (got '$got')" ;;
esac
if command -v fish >/dev/null 2>&1; then
	got=$(cd "$dir" && env PATH=/usr/bin:/bin fish -c 'source completions/allocbench.fish; complete -C "./allocbench ru"; complete -C "./allocbench run --gfp="' 2>&1 | tr '\n' ' ')
	case " $got" in
	*" run "*"--gfp=atomic"*) echo "ok - completion: fish completes ./allocbench off PATH, quietly ($got)" ;;
	*) echo "not ok - completion: fish completes ./allocbench off PATH, quietly (got '$got')" ;;
	esac
else
	echo "ok - completion: fish completes ./allocbench off PATH # SKIP fish is not installed"
fi
