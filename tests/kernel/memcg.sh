#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# memcg.sh - memory cgroup accounting (issue 43, item 1): --gfp=
# kernel_account and kmem_cache_account charge the memory cgroup that
# --memcg puts the run in, and nothing else does.
#  - refusals: --memcg=self from the root cgroup (status 2), and a charged
#    run without a cgroup v2 (status 3), each before anything ran;
#  - --explain counts one charge and one uncharge per op for a charged row
#    (kmalloc with GFP_KERNEL_ACCOUNT, kmem_cache_account with GFP_KERNEL)
#    and none for kmalloc with GFP_KERNEL beside it in the same cgroup;
#  - a charged batch raises the cgroup's charge by about its footprint:
#    memory.peak less memory.current before the row, in a fresh cgroup, is
#    at least 0.9 x the batch's bytes (1000 x 4 KiB) and at most that plus
#    2 MiB, while the same batch uncharged raises it by under 2 MiB;
#  - nothing is outstanding after the run: memory.stat's slab after the
#    row is within 1 MiB of before it (the bound: the per-CPU stocks hold
#    under a page of bytes each, and memory.stat is flushed only once
#    MEMCG_CHARGE_BATCH x CPUs pages of updates wait, 512 KiB here, plus
#    allocbench's own kernel objects charged meanwhile, under 100 KiB seen),
#    against the 4 MiB a batch left behind would show;
#  - the cgroup made for the run is gone after it, on exit and after
#    SIGINT, and the root's cgroup.subtree_control is as it was; one that a
#    killed run left is removed by the next run;
#  - compare --gfp=kernel,kernel_account runs both in one command.
# Sourced by guest.sh (focused: the memcg functions differ by kernel), or
# run alone: make vm-run CMD='sh /ab/memcg.sh'.
. "$(dirname "$0")/lib.sh"

cg=/sys/fs/cgroup

# col CSV ROW NAMEPATTERN: the field of data row ROW (1 = first, after the
# header line "strategy,...") whose header matches the awk regex
# NAMEPATTERN (the first such column)
col() {
	printf '%s\n' "$1" | awk -F, -v row="$2" -v pat="$3" '
		!h && /^strategy,/ { h = NR; for (i = 1; i <= NF; i++) if (!c && $i ~ pat) c = i; next }
		h && NR == h + row { print c ? $c : ""; exit }'
}

# leftover: the memory cgroups allocbench made that still exist
leftover() {
	ls -d $cg/allocbench-memcg-* 2>/dev/null | tr '\n' ' ' | sed 's/ $//'
}

if ! grep -q memory $cg/cgroup.controllers 2>/dev/null; then
	echo "ok - memcg: skipped, no cgroup v2 memory controller here # SKIP"
else
	subtree0=$(cat $cg/cgroup.subtree_control)

	# the guest's shell is in the root cgroup
	expect 2 "root cgroup.*nothing is charged" \
		"memcg: --memcg=self in the root cgroup is refused (status 2)" -- \
		allocbench run --alloc=kmalloc --gfp=kernel_account --memcg=self --trials=2
	expect 2 "unknown memory cgroup choice (allowed: new" \
		"memcg: --memcg=nosuch is refused (status 2)" -- \
		allocbench run --alloc=kmalloc --memcg=nosuch --trials=2
	expect 2 "use --memcg=self" \
		"memcg: --memcg=new with --isolate is refused (status 2)" -- \
		allocbench run --alloc=kmalloc --memcg=new --isolate --trials=2
	if umount $cg 2>/dev/null; then
		expect 3 "no cgroup v2 is mounted" \
			"memcg: a charged run without a cgroup v2 is refused (status 3)" -- \
			allocbench run --alloc=kmalloc --gfp=kernel_account --trials=2
		mount -t cgroup2 cgroup2 $cg
	else
		echo "ok - memcg: a charged run without a cgroup v2 # SKIP $cg busy"
	fi

	# charges per op, by the kernel's own functions
	out=$(allocbench run --alloc=kmalloc,kmem_cache_account --size=64 --batch=1000 \
		--trials=5 --gfp=kernel,kernel_account --explain --csv 2>/tmp/memcg.err)
	rc=$?
	pat='(memcg_slab_post_alloc_hook|obj_cgroup_charge)_per_op$'
	upat='(memcg_slab_free_hook|obj_cgroup_uncharge)_per_op$'
	k=$(col "$out" 1 "$pat") ka=$(col "$out" 2 "$pat") ca=$(col "$out" 3 "$pat")
	uk=$(col "$out" 1 "$upat") uka=$(col "$out" 2 "$upat")
	ch=$(col "$out" 1 '^charged$')$(col "$out" 2 '^charged$')$(col "$out" 3 '^charged$')
	if [ $rc = 0 ] && [ "$ch" = 011 ] &&
		awk -v k="$k" -v ka="$ka" -v ca="$ca" -v uk="$uk" -v uka="$uka" 'BEGIN {
			exit !(k != "" && ka != "" && ca != "" && uk != "" && uka != "" &&
				k < 0.05 && uk < 0.05 && ka > 0.95 && ka < 1.05 &&
				ca > 0.95 && ca < 1.05 && uka > 0.95 && uka < 1.05) }'; then
		ok "memcg: --explain: one charge and one uncharge per op where charged, none where not (kmalloc GFP_KERNEL $k/$uk, GFP_KERNEL_ACCOUNT $ka/$uka, kmem_cache_account $ca)"
	else
		notok "memcg: --explain: one charge and one uncharge per op where charged, none where not (exit $rc; charged $ch; charge $k $ka $ca, uncharge $uk $uka; the memcg columns: $(printf '%s\n' "$out" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /memcg|cgroup|charge|^strategy$|^gfp$|trials_done/) c[++n] = i } { s = ""; for (j = 1; j <= n; j++) s = s $c[j] ","; printf "%s; ", s }' | head -c 900); stderr: $(head -c 600 /tmp/memcg.err))"
	fi

	# the charge during the batch, and nothing left after it
	bytes=$((1000 * 4096))
	for g in kernel_account kernel; do
		out=$(allocbench run --alloc=kmalloc --size=4096 --batch=1000 --trials=3 \
			--gfp=$g --memcg=new --json 2>&1)
		rc=$?
		flat=$(printf '%s' "$out" | tr -d ' \n')
		before=$(printf '%s' "$flat" | sed -n 's/.*"memcg":{"before":{"current_bytes":\([0-9]*\),"slab_bytes":\([0-9]*\).*"after":{"current_bytes":[0-9]*,"slab_bytes":\([0-9]*\),"kernel_bytes":[0-9a-z]*,"peak_bytes":\([0-9a-z]*\)}.*/\1 \2 \3 \4/p')
		set -- $before
		if [ $rc = 0 ] && [ $# = 4 ] && [ "$4" != null ] &&
			awk -v g=$g -v c0="$1" -v s0="$2" -v s1="$3" -v pk="$4" -v b=$bytes 'BEGIN {
				rise = pk - c0; left = s1 - s0; if (left < 0) left = -left
				if (g == "kernel_account")
					ok = rise >= 0.9 * b && rise <= b + 2 * 1048576
				else
					ok = rise < 2 * 1048576
				exit !(ok && left < 1048576) }'; then
			ok "memcg: gfp=$g: memory.peak rose $(($4 - $1)) B over a $bytes B batch, slab $2 -> $3 B after the run"
		else
			notok "memcg: gfp=$g: the charge during the batch and nothing left after (exit $rc; current/slab before, slab after, peak: $before; $(printf '%s' "$out" | grep -i -e error -e allocbench: | head -c 400))"
		fi
	done

	left=$(leftover)
	subtree1=$(cat $cg/cgroup.subtree_control)
	if [ -z "$left" ] && [ "$subtree1" = "$subtree0" ]; then
		ok "memcg: the cgroups made for the runs are gone, subtree_control as it was ('$subtree0')"
	else
		notok "memcg: the cgroups made for the runs are gone (left: '$left'), subtree_control as it was ('$subtree0', now '$subtree1')"
	fi

	# a cgroup a killed run left (its PID gone, no task) goes at the next run
	mkdir $cg/allocbench-memcg-99999
	expect 0 "removed the memory cgroup $cg/allocbench-memcg-99999 left by a run that was killed" \
		"memcg: the next run removes a cgroup a killed run left" -- \
		allocbench run --alloc=kmalloc --gfp=kernel_account --trials=2
	if [ -d $cg/allocbench-memcg-99999 ]; then
		notok "memcg: the killed run's cgroup is gone"
		rmdir $cg/allocbench-memcg-99999
	fi
	# a killed run that had turned the memory controller on (its cgroup
	# named -on): the next run turns it off after, as that run would have
	case " $subtree0 " in
	*" memory "*) ok "memcg: a killed run's memory controller turned off after # SKIP memory was on before the tests" ;;
	*)
		echo +memory >$cg/cgroup.subtree_control
		mkdir $cg/allocbench-memcg-99998-on
		allocbench run --alloc=kmalloc --gfp=kernel_account --trials=2 >/dev/null 2>/tmp/memcg-on.err
		rc=$?
		subtree1=$(cat $cg/cgroup.subtree_control)
		if [ $rc = 0 ] && [ ! -d $cg/allocbench-memcg-99998-on ] && [ "$subtree1" = "$subtree0" ]; then
			ok "memcg: after a killed run that turned the memory controller on, the next run turns it off (subtree_control '$subtree1')"
		else
			notok "memcg: after a killed run that turned memory on: exit $rc, subtree_control '$subtree1' (was '$subtree0') ($(head -c 300 /tmp/memcg-on.err))"
			rmdir $cg/allocbench-memcg-99998-on 2>/dev/null
		fi
		;;
	esac

	# SIGINT in the middle of a run: the cgroup goes too
	allocbench run --alloc=kmalloc --gfp=kernel_account --trials=100000 >/dev/null 2>&1 &
	pid=$!
	n=0
	while [ -z "$(leftover)" ] && [ $n -lt 50 ]; do
		sleep 0.2
		n=$((n + 1))
	done
	made=$(leftover)
	kill -INT $pid
	wait $pid
	rc=$?
	left=$(leftover)
	if [ -n "$made" ] && [ $rc = 130 ] && [ -z "$left" ] &&
		[ "$(cat $cg/cgroup.subtree_control)" = "$subtree0" ]; then
		ok "memcg: after SIGINT (status 130) the cgroup $made is gone"
	else
		notok "memcg: after SIGINT the cgroup is gone (made '$made', status $rc, left '$left')"
	fi

	# the accounting's cost in one command
	out=$(allocbench compare --wide --alloc=kmalloc --gfp=kernel,kernel_account --size=64 \
		--rounds=7 --trials=70 2>&1)
	rc=$?
	if [ $rc = 0 ] && printf '%s\n' "$out" | grep -q "kmalloc gfp=kernel_account" &&
		printf '%s\n' "$out" | grep -q "^memory cgroup: $cg/allocbench-memcg-"; then
		ok "memcg: compare --alloc=kmalloc --gfp=kernel,kernel_account runs both in one cgroup"
	else
		notok "memcg: compare --gfp=kernel,kernel_account (exit $rc; $(printf '%s' "$out" | head -c 500))"
	fi
fi
