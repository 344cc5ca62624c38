#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# run-all.sh MATRIX - every test of `make check`: cmocka unit tests, CLI
# tests and style checks on the host, then for each kernel of MATRIX (lines
# "KERNEL BUILD_DIR", written by `make vm-images`) the module's build log
# and the in-kernel tests in the embedded kernel. The first kernel (the
# default, 6.1) gets the full in-guest suites: guest.sh with one NUMA node
# and its node tests with two, the JSON documents, the odd NUMA shapes, the
# boot-option and the debug boots. Each other kernel gets one boot of
# guest.sh's focused suite: what differs by kernel (guest.sh says what).
# Everything speaks TAP; each in-guest line is prefixed with its kernel.
# At the end, the time of each part (a table of "#" lines), then the
# closing line counts it: "N passed, N failed". Exits 1 if anything failed.
#
# Environment: LOAD=1 runs two busy loops and one more TCG guest (the
# first kernel of MATRIX, its vCPUs spinning) beside the whole suite (ended
# with it, and never longer than LOAD_MAX seconds, default 3600): the suite
# must pass on a busy machine as on an idle one, CI's beside other guests. AB_CHECK_T0 and
# AB_CHECK_T1 (`make check` sets them): when make check started and when
# its package step ended, for the table's first rows. AB_IMAGES_CMD (make
# check sets it to `make vm-images`): the command that writes MATRIX, run
# first, beside the host's parts that need no kernel (images, below).
set -u
cd "$(dirname "$0")/.."
# The suite tests what make deps installs, Debian's packages: /usr/bin
# comes first. A python3 found earlier in PATH (pyenv's shim, a
# virtualenv) is another interpreter with other modules: on this project's
# CI machine pyenv's, with pip's jsonschema instead of Debian's
# python3-jsonschema, and its shim cost 0.34 s of CPU a call (perf stat;
# /usr/bin/python3: 0.03 s), 184 calls in the host CLI tests alone.
PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
export PATH
# run-all.sh --guest-lane MATRIX OUTDIR TIMES: the guest lane alone (the
# suite starts it so, below)
lane_only=
if [ "${1:-}" = --guest-lane ]; then
	lane_only=1
	matrix=$2 outdir=$3 times=$4
else
	matrix=${1:-build/vm/matrix}
	log=$(mktemp)
	times=$(mktemp)
	outdir=$(mktemp -d)
	hog=
	# the guest lane leads its own process group: ended whole
	# (dash's kill takes no "--": a group is "-PGID" alone)
	trap 'g=$(cat "$outdir/guest-lane.pid" 2>/dev/null) && kill -TERM "-$g" 2>/dev/null
	g=$(cat "$outdir/images-part.pid" 2>/dev/null) && kill -TERM "$g" 2>/dev/null
	g=$(cat "$outdir/images.pid" 2>/dev/null) && kill -TERM "-$g" 2>/dev/null
	h=$(cat "$outdir/hog.pid" 2>/dev/null) && kill "$h" 2>/dev/null
	rm -rf "$log" "$times" "$outdir"; [ -z "$hog" ] || kill $hog 2>/dev/null' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	t_start=$(date +%s)
fi

# vm KERNEL_DIR INITRD NODES SCRIPT [APPEND]: SCRIPT's TAP lines, then one
# for the kernel log. The suites boot the kernel's ELF image through its
# PVH entry when there is one (VM_IMAGE, scripts/vm/pvh-image.sh: ~8 s
# less per boot of Debian 6.1 under TCG; the tests check what the module
# and the CLI do, not how the kernel was loaded); vm.sh's direct boots and
# vmab.sh (allocbench vm --pvh) do too, and both boot the bzImage as well,
# as users do.
# pvh_of BUILD_DIR: its ELF image for VM_IMAGE, or nothing
pvh_of() { [ -e "$1/vmlinux.pvh" ] && echo "$1/vmlinux.pvh"; }
# (a boot "with" VPMU=MODE boots with the virtual PMU, vm-run.sh's VPMU;
# make check VPMU=MODE boots every guest with it)
vm() {
	case ${5:-} in
	VPMU=*) vm_vpmu=${5#VPMU=} vm_append= ;;
	*) vm_vpmu=${VPMU:-} vm_append=${5:-} ;;
	esac
	VM_IMAGE=$(pvh_of "$(dirname "$2")") NODES=$3 APPEND=$vm_append VPMU=$vm_vpmu \
		sh scripts/vm/vm-run.sh "$1" "$2" "sh /ab/$4"
	rc=$?
	if [ "$rc" = 0 ]; then
		echo "ok - guest $4 ($3 node(s) ${5:-}): finished, kernel log clean"
	else
		echo "not ok - guest $4 ($3 node(s) ${5:-}): vm-run exit $rc (125: a kernel problem in the log; 126: no status)"
	fi
}

unit() {
	for t in build/tests/test_*; do
		CMOCKA_MESSAGE_OUTPUT=TAP "$t"
	done
}

# host_cli: every tests/cli/*.sh, found by its name as the Makefile finds
# the unit tests, each run from the top of the tree without arguments (it
# tests ./allocbench); vm.sh and vmab.sh boot guests, and install.sh
# rebuilds ./allocbench: parts of their own (host_lane)
host_cli() {
	for t in tests/cli/*.sh; do
		case ${t##*/} in
		vm.sh | vmab.sh | install.sh) continue ;;
		esac
		sh "$t"
	done
	sh tests/vpmu/vpmu.sh build
}

# ---- the parts, in two lanes ----
# Most of the suite's time is spent in guests, and one guest (TCG, one
# thread: vm-run.sh) keeps one host core busy. So with two cores or more
# the suite runs in two lanes at once: the host lane (everything that runs
# make, the host's allocbench or its in-tree builds, one part after another
# as before) in the foreground, and the guest lane (boots of images made
# before, through vm-run.sh alone) beside it, in its own session so that
# Ctrl-C or a kill can end it whole. Each part writes its TAP lines to a
# file of its own, printed whole when it ends (one part's lines never mix
# with another's). JOBS=1 runs every boot in the host lane, after its own parts.
# tag_tap TAG: stdin's TAP lines with "[TAG]" after their "ok -"
tag_tap() { sed "s|^\(\(not \)\{0,1\}ok\( [0-9]*\)\{0,1\}\) - |\1 - [$1] |"; }
# kernel_tag KERNEL: the tag of a kernel's lines
kernel_tag() { basename "$1" | tr -d '|'; }

# cpu_cs FILE: the CPU time, user and system, of a shell's children that
# had ended when its `times` wrote FILE, in hundredths of a second (times
# must run in that shell itself, not in a pipeline or $(...))
cpu_cs() {
	tail -n 1 "$1" | awk '{
		s = 0
		for (i = 1; i <= NF; i++) { split($i, p, "m"); s += p[1] * 60 + p[2] }
		printf "%d\n", s * 100 }'
}

# run_part LANE NAME TAG CMD...: runs CMD, each TAP line tagged "[TAG]"
# when TAG is not empty; its wall-clock seconds and CPU seconds (those of
# every process it ran, qemu's included) go to the table. CMD runs in a
# subshell that times its own children: the lane's shell may reap another
# of its children (the images, the guest lane) while CMD runs.
run_part() {
	r_lane=$1 r_name=$2 r_tag=$3
	shift 3
	r_out=$(mktemp "$outdir/part.XXXXXX")
	r_t0=$(date +%s)
	(
		times >"$r_out.c0"
		if [ -n "$r_tag" ]; then
			"$@" 2>&1 | tag_tap "$r_tag" >"$r_out"
		else
			"$@" >"$r_out" 2>&1
		fi
		times >"$r_out.c1"
	)
	echo "$(($(date +%s) - r_t0)) $((($(cpu_cs "$r_out.c1") - $(cpu_cs "$r_out.c0") + 50) / 100)) $r_lane $r_name" >>"$times"
	flock "$outdir/lock" cat "$r_out"
	rm -f "$r_out" "$r_out.c0" "$r_out.c1"
}

# kbuild KERNEL BUILD_DIR: the module's build log and its shape
kbuild() {
	echo "# kernel $1: $(cat "$(cat "$2/kernel-dir")/release")"
	if grep -i 'warning:' "$2/kmod/build.log"; then
		echo "not ok - kmod: allocbench.ko builds with warnings"
	else
		echo "ok - kmod: allocbench.ko builds warning-free"
	fi
	sh tests/kernel/shape.sh "$2/kmod/allocbench.ko"
}

# guest_boot NODES SCRIPT [APPEND] (KDIR and INITRD set): one boot
guest_boot() {
	echo "# embedded kernel, $1 NUMA node(s)${3:+, booted with $3}: $2"
	vm "$kdir" "$initrd" "$@"
}

# The first kernel (the default) gets the full in-guest suites: guest.sh's
# full suite with one node and its NUMA tests with two, the odd NUMA
# shapes, the boot options, and SLUB debugging with page poisoning
# (debug.sh; the module's use of memory is the same code on every kernel,
# and SLUB's and the page allocator's checks the same in 6.1 and 6.12).
# The JSON documents (validate.sh runs the host's allocbench plot) are in
# the host lane. Each other kernel gets guest.sh's focused suite in one
# boot: the tests whose outcome depends on the kernel (guest.sh lists
# them); what does not depend on it ran on the first.
#
# The boots are one queue that both lanes take from: the guest lane from
# the start, the host lane once its own parts are done, each taking the
# next boot when it is free, so the lanes end about together whatever the
# machine's load: the longest first over every kernel (tests/guest-boots'
# SECS), so that the last boots taken are the short ones (with the lanes
# fixed in advance a fresh-clone CI had them end 85 s apart, 736 s and
# 821 s; with the queue longest first within each kernel, 841 s and 777 s).
# queue_boots: the queue, one boot a line,
# NAME|KDIR|INITRD|NODES|SCRIPT|APPEND: WHAT, from the boots that
# tests/guest-boots lists (its own comment says how)
boots=tests/guest-boots
# boots_of WHICH...: the list's lines for these kernels, "SECS|NODES|SCRIPT|APPEND|WHAT"
boots_of() {
	grep -v -e '^#' -e '^$' "$boots" | while IFS='|' read -r secs which rest; do
		for w; do
			[ "$which" = "$w" ] && echo "$secs|$rest"
		done
	done
}
queue_boots() {
	n=0
	while read -r name dir; do
		n=$((n + 1))
		b="$name|$(cat "$dir/kernel-dir")|$dir/initrd.gz"
		if [ $n = 1 ]; then
			boots_of first each once
		else
			boots_of others each
		fi | while IFS='|' read -r secs nodes script append what; do
			echo "$secs|$n|$b|$nodes|$script|$append: $what"
		done
	done <"$matrix" | sort -t'|' -k1,1nr -k2,2nr | cut -d'|' -f3-
}

# take_boots LANE: the queue's boots, the next one each time, until none
# is left
take_boots() {
	while :; do
		line=$(flock "$outdir/queue.lock" sh -c 'head -n 1 "$1"; sed -i 1d "$1"' sh "$outdir/queue")
		[ -n "$line" ] || return 0
		name=${line%%|*} line=${line#*|}
		kdir=${line%%|*} line=${line#*|}
		initrd=${line%%|*} line=${line#*|}
		nodes=${line%%|*} line=${line#*|}
		script=${line%%|*} line=${line#*|}
		run_part "$1" "$name: ${line#*: }" "$(kernel_tag "$name")" guest_boot "$nodes" "$script" "${line%%: *}"
	done
}

# host_first: the host lane's parts that need no kernel image, run while
# make check's images are made (AB_IMAGES_CMD); once
host_first() {
	[ ! -e "$outdir/first.done" ] || return 0
	: >"$outdir/first.done"
	run_part host "unit tests (cmocka)" "" unit
	run_part host "host CLI: cli.sh, conventions.sh, completion.sh, plot.sh, export.sh, vpmu.sh" "" host_cli
}

# host_lane: the rest (lint reads the first kernel's module objects;
# install.sh's make install rebuilds ./allocbench with its LIBDIR, which
# the images' make links and packs: never beside it)
host_lane() {
	run_part host "install.sh (make install, uninstall)" "" sh tests/cli/install.sh
	run_part host "lint (make lint)" "" sh scripts/lint.sh
	run_part host "vm.sh (the embedded kernel's knobs)" "" sh tests/cli/vm.sh "$(head -n 1 "$matrix" | cut -d' ' -f2)"
	run_part host "vmab.sh (allocbench vm)" "" sh tests/cli/vmab.sh
	d=$(head -n 1 "$matrix" | cut -d' ' -f2)
	run_part host "$(head -n 1 "$matrix" | cut -d' ' -f1): json.sh, 2 nodes (validate.sh)" \
		"$(kernel_tag "$(head -n 1 "$matrix" | cut -d' ' -f1)")" \
		env VM_IMAGE="$(pvh_of "$d")" \
		sh tests/json/validate.sh "$(cat "$d/kernel-dir")" "$d/initrd.gz"
	# the Debian packages: built and linted; with DKMS=1 (root) also
	# installed with DKMS, booted, autopkgtested and purged, and make dkms
	# run (tests/deb.sh). Before the boots, so that the queue evens out
	# the lanes.
	run_part host "deb: packages, lintian$([ "${DKMS:-0}" = 1 ] && echo ', installed, autopkgtest, purge, make dkms (DKMS=1)')" "" \
		sh tests/deb.sh "$matrix"
	take_boots host
}

if [ -n "$lane_only" ]; then
	take_boots guest
	exit 0
fi

jobs=${JOBS:-$(nproc)}
# first: make check's images (AB_IMAGES_CMD, make vm-images, which writes
# MATRIX). Their downloads leave a CPU idle at times (one 6.1 fetch: 50 s,
# 23 s of CPU), so with two CPUs or more the host's parts that need no
# image run beside it (host_first). Measured on a fresh clone, the two
# together kept both CPUs busy (CI36: images 172 s, 253 s of CPU, beside
# 103 s of host tests): what is left to save there is CPU.
images() {
	[ -n "${AB_IMAGES_CMD:-}" ] || return 0
	# in a session of its own, its leader's pid in images.pid: the EXIT
	# trap ends it whole (a background job here ignores Ctrl-C's SIGINT)
	set -- sh -c 'echo "$$" >"$1/images.pid"; sh -c "$2"; echo "$?" >"$1/images.rc"' sh "$outdir" "$AB_IMAGES_CMD"
	if [ "$jobs" -lt 2 ]; then
		run_part build "kernels downloaded, images" "" setsid "$@"
	else
		run_part build "kernels downloaded, images (beside the first host parts)" "" setsid "$@" &
		i_pid=$!
		echo "$i_pid" >"$outdir/images-part.pid"
		host_first
		wait "$i_pid"
	fi
	rm -f "$outdir/images.pid" "$outdir/images-part.pid"
	[ "$(cat "$outdir/images.rc" 2>/dev/null)" = 0 ]
}

if [ "${LOAD:-0}" = 1 ]; then
	# GNU timeout leads its own process group and passes the kill on
	# (to qemu too); $hog is a list of pids
	for i in 1 2; do
		timeout "${LOAD_MAX:-3600}" sh -c 'while :; do :; done' &
		hog="$hog $!"
	done
fi

{
	if ! images; then
		echo "not ok - make vm-images failed: no kernel to boot"
		host_first
	elif [ ! -s "$matrix" ]; then
		echo "not ok - no kernel to boot: $matrix is empty or missing (make vm-images writes it)"
		host_first
	else
		if [ "${LOAD:-0}" = 1 ]; then
			read -r lname ldir <"$matrix"
			VM_IMAGE=$(pvh_of "$ldir") VM_TIMEOUT=${LOAD_MAX:-3600} timeout "${LOAD_MAX:-3600}" \
				sh scripts/vm/vm-run.sh "$(cat "$ldir/kernel-dir")" "$ldir/initrd.gz" \
				"while :; do :; done & while :; do :; done" >/dev/null 2>&1 &
			echo "$!" >"$outdir/hog.pid"
			echo "# LOAD=1: two busy loops and a $lname guest spinning on its vCPUs beside the suite (for at most ${LOAD_MAX:-3600} s)"
		fi
		while read -r name dir; do
			sh scripts/vm/pvh-image.sh "$(cat "$dir/kernel-dir")" "$dir/vmlinux.pvh" ||
				echo "# kernel $name: no ELF image with a PVH entry; its suites boot the bzImage"
			kbuild "$name" "$dir" 2>&1 | tag_tap "$(kernel_tag "$name")"
		done <"$matrix"
		queue_boots >"$outdir/queue"
		glane=
		if [ "$jobs" -ge 2 ]; then
			echo "# two lanes at once ($jobs CPUs; JOBS=1 for one): the host's tests, and the guests' boots"
			# its own session (setsid: not a group leader, so the same pid)
			setsid sh tests/run-all.sh --guest-lane "$matrix" "$outdir" "$times" &
			glane=$!
			echo "$glane" >"$outdir/guest-lane.pid"
		fi
		host_first # (once: it may have run beside the images)
		host_lane
		if [ -n "$glane" ]; then
			wait "$glane"
			rm -f "$outdir/guest-lane.pid"
		fi
	fi
} 2>&1 | tee "$log"

# the time of each part, then the total (make check's, from its start)
t_end=$(date +%s)
echo "# time of each part (seconds: wall clock, and CPU, user and system, of its processes; the two lanes ran at once)"
if [ -n "${AB_CHECK_T0:-}" ] && [ -n "${AB_CHECK_T1:-}" ]; then
	printf '#   %-5s %-62s %5d\n' "" "packages (make deps)" $((AB_CHECK_T1 - AB_CHECK_T0)) \
		"" "build: CLI, tests$([ -n "${AB_IMAGES_CMD:-}" ] || echo ', kernels downloaded, images')" $((t_start - AB_CHECK_T1))
fi
for l in build host guest; do
	sum=0 csum=0
	while read -r secs cpu lane name; do
		[ "$lane" = "$l" ] || continue
		printf '#   %-5s %-62s %5d %5d CPU\n' "$lane" "$name" "$secs" "$cpu"
		sum=$((sum + secs)) csum=$((csum + cpu))
	done <"$times"
	[ "$l" = build ] ||
		printf '#   %-5s %-62s %5d %5d CPU\n' "$l" "(the $l lane in all)" "$sum" "$csum"
done
total=$((t_end - ${AB_CHECK_T0:-$t_start}))
printf '#   %-5s %-62s %5d (%dm%02ds)%s\n' "" "total" "$total" $((total / 60)) $((total % 60)) \
	"$([ "${LOAD:-0}" = 1 ] && echo ", LOAD=1")"

# TAP: "# SKIP" marks a test not run here (cmocka writes "not ok N # SKIP")
skipped=$(grep -E -c '^(not )?ok .*# SKIP' "$log")
passed=$(grep '^ok ' "$log" | grep -c -v '# SKIP')
failed=$(grep '^not ok ' "$log" | grep -c -v '# SKIP')
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
