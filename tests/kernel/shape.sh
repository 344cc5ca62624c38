#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# shape.sh KO - the "none" baseline's timed loops have the machine code
# shape of an allocator's (issue 13, item 21): in the built module, none's
# alloc and free phases make as many calls as kmalloc's (kmalloc() with a
# run-time size calls __kmalloc(), kfree() is a call; none's per-object
# functions are noinline calls for that reason, kmod/strategies.c). Calls
# are counted in objdump's disassembly, cold parts included. TAP lines.
set -u
ko=$1
calls() {
	objdump -d --no-show-raw-insn "$ko" | awk -v f="$1" '
		/^[0-9a-f]+ <.*>:$/ { name = $2; sub(/^</, "", name); sub(/>:$/, "", name); sub(/\..*/, "", name); p = (name == f) }
		/^$/ { p = 0 }
		p && /\tcall/ { n++ }
		END { print n + 0 }'
}
for phase in alloc free; do
	none=$(calls none_${phase}_phase)
	km=$(calls kmalloc_${phase}_phase)
	if [ "$none" -gt 1 ] && [ "$none" = "$km" ]; then
		echo "ok - kmod shape: none_${phase}_phase makes as many calls as kmalloc_${phase}_phase ($none)"
	else
		echo "not ok - kmod shape: none_${phase}_phase makes as many calls as kmalloc_${phase}_phase (none $none, kmalloc $km)"
	fi
done
