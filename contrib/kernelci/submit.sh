#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# submit.sh RESULT.json [kcidb-submit options] - one allocbench result as
# a KCIDB v4.4 submission, validated with kcidb-validate and sent with
# kcidb-submit (both from kernelci/kcidb, pip install kcidb) to the
# project and topic KernelCI gave the origin: e.g.
#   submit.sh run.json -p kernelci-production -t kernelci_new
# ORIGIN (default allocbench) and BUILD_ID with CHECKOUT_ID (the
# submitter's own ids of the build the result ran on and its checkout, of
# ORIGIN; one without the other is refused) pass through to allocbench.
# Prints kcidb-validate's verdict and errors, never the document.
set -eu
result=${1:?usage: submit.sh RESULT.json [kcidb-submit options]}
shift
args=(--format=kcidb --origin="${ORIGIN:-allocbench}")
[ -z "${BUILD_ID:-}" ] || args+=(--build-id="$BUILD_ID")
[ -z "${CHECKOUT_ID:-}" ] || args+=(--checkout-id="$CHECKOUT_ID")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
allocbench export "${args[@]}" "$result" -o "$tmp"
# kcidb-validate writes the document it read back to stdout, its errors
# to stderr: only the verdict is shown
if ! kcidb-validate <"$tmp" >/dev/null; then
	echo "submit.sh: kcidb-validate refused the submission made of $result (its errors above): nothing sent" >&2
	exit 1
fi
echo "submit.sh: kcidb-validate: the submission made of $result is valid"
kcidb-submit "$@" <"$tmp"
