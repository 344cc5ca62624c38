#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# env.sh - run by tests/run-all.sh in a guest booted with
# APPEND='init_on_alloc=0 slab_nomerge': the environment header must show
# the boot parameters in force, and their warnings must be gone.
. "$(dirname "$0")/lib.sh"

out=$(allocbench run --wide --alloc=kmem_cache --trials=5 2>&1)
check() {
	if printf '%s\n' "$out" | grep -q -- "$1"; then ok "$2"; else notok "$2 ($(printf '%s' "$out" | head -c 400))"; fi
}
check_not() {
	if printf '%s\n' "$out" | grep -q -- "$1"; then notok "$2 ($(printf '%s' "$out" | head -c 400))"; else ok "$2"; fi
}
check "init_on_alloc=0" "env: init_on_alloc=0 on the command line is reported"
check "slab merging off" "env: slab_nomerge is reported"
check_not "warning: init_on_alloc" "env: no init_on_alloc warning when it is off"
check_not "warning: slab merging" "env: no slab merging warning with slab_nomerge"
check "cache of its own" "env: with slab_nomerge the private cache is not merged"
exit 0
