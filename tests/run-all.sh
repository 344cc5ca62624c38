#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-all.sh - every test of `make check`: cmocka unit tests, CLI tests
# and style checks on the host, then the in-kernel tests in the embedded
# kernel with one and with two NUMA nodes. Everything speaks TAP; the closing line counts it:
# "N passed, N failed". Exits 1 if anything failed.
set -u
cd "$(dirname "$0")/.."
log=$(mktemp)
trap 'rm -f "$log"' EXIT

vm() {
	nodes=$1
	NODES=$nodes sh scripts/vm/vm-run.sh "$(cat build/vm/kernel-dir)" \
		build/vm/initrd.gz "sh /ab/guest.sh"
	rc=$?
	if [ "$rc" = 0 ]; then
		echo "ok - guest ($nodes node(s)): finished, kernel log clean"
	else
		echo "not ok - guest ($nodes node(s)): vm-run exit $rc (125: WARN/BUG/Oops in the kernel log; 126: no status)"
	fi
}

{
	echo "# unit tests (cmocka)"
	for t in build/tests/test_*; do
		CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
	echo "# command line on the host"
	sh tests/cli/cli.sh ./allocbench
	echo "# style: checkpatch --strict, clang-format, SPDX"
	sh scripts/lint.sh
	echo "# embedded kernel, 1 NUMA node"
	vm 1
	echo "# embedded kernel, 2 NUMA nodes"
	vm 2
} 2>&1 | tee "$log"

passed=$(grep -c '^ok ' "$log")
failed=$(grep -c '^not ok ' "$log")
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
