#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# submit.sh RESULT.json [kcidb-submit options] - one allocbench result as
# a KCIDB v4.4 submission, validated with kcidb-validate and sent with
# kcidb-submit (both from kernelci/kcidb, pip install kcidb) to the
# project and topic KernelCI gave the origin: e.g.
#   submit.sh run.json -p kernelci-production -t kernelci_new
# ORIGIN (default allocbench) and BUILD_ID / CHECKOUT_ID (the submitter's
# own ids of the build the result ran on) pass through to allocbench.
set -eu
result=${1:?usage: submit.sh RESULT.json [kcidb-submit options]}
shift
args=(--format=kcidb --origin="${ORIGIN:-allocbench}")
[ -z "${BUILD_ID:-}" ] || args+=(--build-id="$BUILD_ID")
[ -z "${CHECKOUT_ID:-}" ] || args+=(--checkout-id="$CHECKOUT_ID")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
allocbench export "${args[@]}" "$result" -o "$tmp"
kcidb-validate <"$tmp"
kcidb-submit "$@" <"$tmp"
