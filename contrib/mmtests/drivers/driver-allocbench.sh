# SPDX-License-Identifier: GPL-2.0-only
# driver-allocbench.sh - mmtests' driver for allocbench (sourced by
# run-mmtests.sh): ALLOCBENCH_COMMAND and ALLOCBENCH_ITERATIONS from the
# config
# shellcheck shell=bash disable=SC2154 # the config sets ALLOCBENCH_*
run_bench() {
	$SCRIPTDIR/shellpacks/shellpack-bench-allocbench \
		--command "$ALLOCBENCH_COMMAND" \
		--iterations "$ALLOCBENCH_ITERATIONS"
	return $?
}
