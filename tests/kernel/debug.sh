#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# debug.sh - run by tests/run-all.sh once per `make check`, in the first
# kernel booted with APPEND='slub_debug=FZPU page_poison=1 init_on_free=1'
# (issue 16, part 2): SLUB's sanity checks, red zones, poisoning and owner
# tracking on every cache, and freed pages poisoned and checked when
# handed out again. What the debugging finds goes to the kernel log, which
# vm-run.sh turns into a failed run (status 125). The TAP lines say which
# options are in force, then the module is driven under them: the raw
# ioctl suite (every strategy and every validation path), the fuzzer and
# the life-cycle tests.
#
# Not guest.sh's CLI tests: under SLUB debugging they took ~4 min of the
# guest (6.1, TCG), the module paths they reach are the ioctl suite's and
# the fuzzer's, and their expectations about merged caches and SLUB's fast
# path do not hold with debugging on (SLAB_NEVER_MERGE holds the debug
# flags, mm/slab_common.c; a debug cache allocates only in ___slab_alloc).
cd /ab || exit 1
. /ab/lib.sh

# SLUB's per-cache debug flags (mm/slub.c, sysfs attributes of each cache)
f=
for a in sanity_checks red_zone poison store_user; do
	[ "$(cat /sys/kernel/slab/kmalloc-64/$a 2>/dev/null)" = 1 ] || f="$f $a"
done
if [ -z "$f" ]; then
	ok "slub_debug: sanity_checks, red_zone, poison and store_user read 1 for kmalloc-64"
else
	notok "slub_debug: not in force for kmalloc-64 (0 or missing:$f)"
fi
# mm/page_alloc.c says at boot what initialises freed memory: page
# poisoning (and SLUB's poisoning for slabs) take precedence over
# init_on_free, which is then off ("heap free:off", measured on 6.1)
mem=$(dmesg | grep 'mem auto-init:' | sed 's/^\[[ 0-9.]*\] //' | tr '\n' ' ')
if printf '%s\n' "$mem" | grep -q 'PAGE_POISONING is on'; then
	ok "page_poison=1: freed pages are poisoned and checked ($mem)"
else
	notok "page_poison=1: page poisoning not in force ($mem)"
fi
if printf '%s\n' "$mem" | grep -q 'heap free:on\|take precedence over init_on_alloc and init_on_free'; then
	ok "init_on_free=1: in force, or overridden by poisoning as the kernel says"
else
	notok "init_on_free=1: neither in force nor overridden ($mem)"
fi

grep -q '^allocbench ' /proc/modules || insmod /lib/modules/allocbench.ko
# but test_atomic_gfp_capped: the module's bookkeeping of atomic bytes with
# 1 MiB objects (page allocator, not slab), the longest test of the suite;
# and test_cache_merged_during_run: whether a cache merges into another
# run's, which SLUB debugging forbids (SLAB_NEVER_MERGE), 30000 trials of
# 64 objects that took 93 of the suite's 172 s here (6.1, TCG, idle host);
# guest.sh's full suite runs both
echo "# ioctl suite without test_atomic_gfp_capped and test_cache_merged_during_run (guest.sh's full suite runs them)"
AB_IOCTL_SKIP=test_atomic_gfp_capped,test_cache_merged_during_run CMOCKA_MESSAGE_OUTPUT=TAP ./ioctl_test
# fuzz.c lowers --max-batch under slub_debug itself: a phase of 2^20
# objects outlasts the soft-lockup detector's 20 s here
./fuzz --calls=5000 --rmmod --deadline=600
sh /ab/lifecycle.sh
exit 0
