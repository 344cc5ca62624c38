#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# build-kmod.sh KERNEL_DIR MODULE_DIR AB_ROOT - build allocbench.ko in
# MODULE_DIR (a copy of kmod/) for the kernel that scripts/vm/fetch-kernel.sh
# put in KERNEL_DIR: Debian's split headers (make -C common O=arch) or a
# user's build tree (make -C tree). The whole output is kept in
# MODULE_DIR/build.log; a "warning:" in it is a test failure
# (tests/run-all.sh), so the module must build warning-free everywhere.
set -eu
k=$1
m=$2
root=$3
if [ -e "$k/tree" ]; then
	set -- -C "$k/tree"
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
exit $rc
