#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# build-kmod.sh KERNEL_DIR MODULE_DIR AB_ROOT - build allocbench.ko in
# MODULE_DIR (a copy of kmod/) for the kernel that scripts/vm/fetch-kernel.sh
# put in KERNEL_DIR: Debian's split headers (make -C common O=arch) or a
# user's build tree (make -C tree). The whole output is kept in
# MODULE_DIR/build.log; a "warning:" in it is a test failure
# (tests/run-all.sh), so the module must build warning-free everywhere.
# Exit status: make's (2 when the build fails), 1 for a tree not prepared
# for external modules (what modules_prepare makes is missing).
set -eu
k=$1
m=$2
root=$3
note=
if [ -e "$k/tree" ]; then
	# a tree never prepared for external modules has no rule for them
	# ("No rule to make target 'modules'"): say what it lacks, and how
	t=$(readlink -f "$k/tree")
	for f in Makefile include/config/auto.conf include/generated/autoconf.h scripts/mod/modpost; do
		if [ ! -e "$t/$f" ]; then
			echo "build-kmod: KERNEL=$t is not prepared for external modules ($t/$f is missing): run \`make -C $t modules_prepare\` (after \`make bzImage\`), or a full \`make\`, first" |
				tee "$m/build.log" >&2
			exit 1
		fi
	done
	set -- -C "$t"
else
	set -- -C "$k/headers-common" O="$k/headers"
	# The compiler Debian built the kernel with (.kernelvariables: CC =
	# ... $(CROSS_COMPILE)gcc-14 for 7.x) when this machine has it, else
	# the host's gcc: Debian 12 has gcc-12 and no gcc-14. Then the
	# module's own code and the kernel's inline helpers it includes are
	# gcc-12's, while the allocator it calls is the kernel's (gcc-14's);
	# kernel options that state a compiler feature gcc-12 lacks are
	# turned off for the module alone (-fmin-function-alignment, new in
	# gcc 14, becomes -falign-functions; both align functions as
	# CONFIG_FUNCTION_ALIGNMENT says), and the module gets no BTF when the
	# host's pahole is older than the kernel's (its BTF flags are newer).
	kv=$k/headers/.kernelvariables
	want=$(sed -n 's/^CC = .*)\(gcc-[0-9]*\)$/\1/p' "$kv" 2>/dev/null)
	if [ -n "$want" ] && ! command -v "x86_64-linux-gnu-$want" >/dev/null && ! command -v "$want" >/dev/null; then
		set -- "$@" CC=gcc HOSTCC=gcc
		note="built by $(gcc -dumpfullversion 2>/dev/null || echo gcc), the kernel by $(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"/\1/p' "$k/config")"
		if grep -q '^CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT=y' "$k/config" &&
		   ! gcc -fmin-function-alignment=16 -x c -c -o /dev/null /dev/null 2>/dev/null; then
			set -- "$@" CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT=
			note="$note; -falign-functions for -fmin-function-alignment"
		fi
		# gcc 15's __counted_by__ (CONFIG_CC_HAS_COUNTED_BY, a C-level
		# define kbuild includes before any module flag): gcc-12 warns
		# and ignores it, so the module's own fortify bounds checks are
		# coarser; nothing else in its code changes
		if grep -q '^CONFIG_CC_HAS_COUNTED_BY=y' "$k/config" &&
		   ! echo 'struct s { int n; int a[] __attribute__((__counted_by__(n))); };' |
			gcc -Werror -x c -c -o /dev/null - 2>/dev/null; then
			set -- "$@" KCFLAGS=-Wno-attributes
			note="$note; the kernel's __counted_by annotations ignored (-Wno-attributes)"
		fi
	fi
	kp=$(sed -n 's/^CONFIG_PAHOLE_VERSION=//p' "$k/config")
	hp=$(sh "$k/headers-common/scripts/pahole-version.sh" pahole 2>/dev/null || echo 0)
	if [ -n "$kp" ] && [ "$kp" != 0 ] && [ "$hp" -lt "$kp" ] 2>/dev/null; then
		set -- "$@" CONFIG_DEBUG_INFO_BTF_MODULES= CONFIG_PAHOLE_VERSION="$hp"
		note="${note:+$note; }no BTF (pahole $hp here, the kernel's $kp)"
	fi
fi
# Debian 6.12's headers carry BTF: kbuild runs pahole (package pahole).
if grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$k/config" && ! command -v pahole >/dev/null; then
	echo "build-kmod: $(cat "$k/release") builds modules with BTF and needs pahole: apt-get install pahole" >&2
	exit 1
fi
rc=0
{
	[ -z "${note:-}" ] || echo "build-kmod: note: $(cat "$k/release"): the module is $note"
	# as many jobs as CPUs: the module is a dozen files
	make -j"$(nproc)" "$@" M="$m" AB_ROOT="$root" modules 2>&1
} >"$m/build.log" || rc=$?
cat "$m/build.log"
if [ "$rc" != 0 ] && [ -e "$k/tree" ] && grep -q "No rule to make target 'modules'" "$m/build.log"; then
	echo "build-kmod: $(readlink -f "$k/tree") has no rule for external modules: run \`make modules_prepare\` in it first" >&2
fi
exit $rc
