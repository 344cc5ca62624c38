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
fi
# Debian 6.12's headers carry BTF: kbuild runs pahole (package pahole).
if grep -q '^CONFIG_DEBUG_INFO_BTF_MODULES=y' "$k/config" && ! command -v pahole >/dev/null; then
	echo "build-kmod: $(cat "$k/release") builds modules with BTF and needs pahole: apt-get install pahole" >&2
	exit 1
fi
rc=0
make "$@" M="$m" AB_ROOT="$root" modules >"$m/build.log" 2>&1 || rc=$?
cat "$m/build.log"
if [ "$rc" != 0 ] && [ -e "$k/tree" ] && grep -q "No rule to make target 'modules'" "$m/build.log"; then
	echo "build-kmod: $(readlink -f "$k/tree") has no rule for external modules: run \`make modules_prepare\` in it first" >&2
fi
exit $rc
