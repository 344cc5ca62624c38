#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# exec.sh - the container's entry for Fastpath: reads the command from the
# benchmark object Fastpath writes (/fastpath-share/benchmark.yaml, its
# "command:" parameter), builds and loads the module for the SUT's kernel
# when it is not loaded, runs allocbench, and writes
# /fastpath-share/results.csv (allocbench export --format=fastpath); the
# saved result stays beside it as allocbench.json.
set -eu
share=${FASTPATH_SHARE:-/fastpath-share}
cmd=$(sed -n 's/^[[:space:]]*command:[[:space:]]*//p' "$share/benchmark.yaml" | head -n 1)
[ -n "$cmd" ] || cmd="reproduce 2019-scatterlist"
if ! grep -qw allocbench /proc/modules; then
	make -C /src/allocbench kmod KDIR="/lib/modules/$(uname -r)/build"
	insmod /src/allocbench/kmod/allocbench.ko
fi
# shellcheck disable=SC2086 # the command's words, split on purpose
allocbench $cmd --json -q -o "$share/allocbench.json"
allocbench export --format=fastpath "$share/allocbench.json" -o "$share/results.csv"
