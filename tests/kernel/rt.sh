# SPDX-License-Identifier: GPL-2.0-only
#
# rt.sh - sourced by guest.sh: what a PREEMPT_RT kernel must refuse or do
# differently, and the same commands on other kernels. What the kernel is
# comes from the kernel itself: uname -v, /boot/config-$(uname -r), debugfs.

if uname -v | grep -qw PREEMPT_RT; then rt=1; else rt=0; fi
release=$(uname -r)
config=/boot/config-$release
# Debian's releases: UPSTREAM-ABI-FLAVOUR or UPSTREAM+debN-FLAVOUR
flavour=$(printf '%s\n' "$release" | sed -E 's/^[0-9.]+[-+][^-]*-//')
# y or n for CONFIG_$1 in the kernel's config
cfg() { grep -q "^CONFIG_$1=y$" "$config" && echo y || echo n; }
echo "# rt.sh: $release, PREEMPT_RT=$rt, flavour $flavour"

# --- what info, the header and the JSON say about the kernel ---
info=$(allocbench info 2>&1)
has() {
	if printf '%s\n' "$2" | grep -q -- "$1"; then ok "$3"; else notok "$3 (no '$1' in: $(printf '%s' "$2" | head -c 600))"; fi
}
has "kernel:            $release $(uname -m) (Debian, flavour $flavour)" "$info" "info: the kernel's release and flavour ($flavour)"
has "PREEMPT_RT=$([ $rt = 1 ] && echo y || echo n) " "$info" "info: kernel flags say PREEMPT_RT as uname -v does"
has "RANDOM_KMALLOC_CACHES=$(cfg RANDOM_KMALLOC_CACHES)" "$info" \
	"info: RANDOM_KMALLOC_CACHES as in $config"
has "SLAB_BUCKETS=$(cfg SLAB_BUCKETS)" "$info" "info: SLAB_BUCKETS as in $config"
mode=$(sed -n 's/.*(\(.*\)).*/\1/p' /sys/kernel/debug/sched/preempt 2>/dev/null)
if [ $rt = 1 ]; then
	want="preempt rt (PREEMPT_RT${mode:+; mode $mode})"
	has "preemption:        rt (PREEMPT_RT${mode:+; mode $mode})" "$info" "info: preemption rt on PREEMPT_RT"
else
	want="preempt $mode (PREEMPT_DYNAMIC; mode from debugfs)"
	has "preemption:        $mode (PREEMPT_DYNAMIC; mode from debugfs)" "$info" \
		"info: preemption is the dynamic kernel's current mode ($mode)"
fi
hdr=$(allocbench run --wide --alloc=kmalloc --trials=5 2>&1)
has "^kernel $release (Debian, flavour $flavour): $want, " "$hdr" "run header: release, flavour and preemption ($want)"
json=$(allocbench info --json 2>&1)
has "\"preempt_rt\":$([ $rt = 1 ] && echo true || echo false)" "$json" "info --json: kernel_flags.preempt_rt"
has "\"flavour\":\"$flavour\"" "$json" "info --json: flavour"
json=$(allocbench run --alloc=kmalloc --trials=5 --json 2>&1)
has "\"preempt_model\":\"$([ $rt = 1 ] && echo rt || echo "$mode")\"" "$json" "run --json: environment.preempt_model"

# --- atomic contexts around allocations: refused on PREEMPT_RT ---
# (there spinlocks sleep: kfree() in a preempt-off section logged "BUG:
# scheduling while atomic", and the CLI then died of SIGSEGV)
if [ $rt = 1 ]; then
	expect 2 "^allocbench: --context=preempt-off: this kernel is PREEMPT_RT" \
		"rt: --context=preempt-off --gfp=atomic --concurrent refused up front" -- \
		allocbench run --wide --context=preempt-off --gfp=atomic --concurrent --cpu=0-1 --batch=1000
	expect 2 "--context=irq-off: this kernel is PREEMPT_RT.*--context=normal" \
		"rt: --context=irq-off refused, naming what works" -- \
		allocbench run --wide --alloc=kmalloc,get_free_pages --gfp=nowait --context=irq-off --trials=20
	expect 2 "--context=preempt-off: this kernel is PREEMPT_RT" "rt: compare refuses it too" -- \
		allocbench compare --wide --alloc=kmalloc,kmem_cache --gfp=atomic --context=preempt-off
	expect 0 "context irq-off" "rt: none (no allocation) still runs with IRQs off" -- \
		allocbench run --wide --alloc=none --context=irq-off --trials=20
	expect 0 "aggregate: kmalloc on 2 CPUs" "rt: the same run in process context works" -- \
		allocbench run --wide --gfp=atomic --concurrent --cpu=0-1 --batch=1000 --trials=50
else
	expect 0 "warning: IRQs are disabled" "cli: --context=irq-off --gfp=atomic warns" -- \
		allocbench run --wide --alloc=kmalloc,kmem_cache --gfp=atomic --context=irq-off --trials=20 --batch=16
	expect 0 "warning: preemption is disabled" "cli: --context=preempt-off --gfp=nowait warns" -- \
		allocbench run --wide --alloc=get_free_pages --gfp=nowait --context=preempt-off --trials=20
	expect 0 "aggregate: kmalloc on 2 CPUs" "cli: --context=preempt-off --gfp=atomic --concurrent runs" -- \
		allocbench run --wide --context=preempt-off --gfp=atomic --concurrent --cpu=0-1 --batch=1000 --trials=50
fi

# --- kmalloc_class and RANDOM_KMALLOC_CACHES ---
out=$(allocbench run --wide --alloc=kmalloc_class --size=64 --trials=5 2>&1)
json=$(allocbench run --alloc=kmalloc_class --size=64 --trials=5 --json 2>&1)
if [ "$(cfg RANDOM_KMALLOC_CACHES)" = y ]; then
	has "note: kmalloc_class: this kernel has RANDOM_KMALLOC_CACHES" "$out" "kmalloc_class: the RANDOM_KMALLOC_CACHES note"
	has "\"notes\":\[.*RANDOM_KMALLOC_CACHES" "$(printf '%s' "$json" | tr -d '\n ')" "kmalloc_class: the note in the JSON"
else
	if printf '%s\n' "$out$json" | grep -q RANDOM_KMALLOC_CACHES; then
		notok "kmalloc_class: no RANDOM_KMALLOC_CACHES note without it ($(printf '%s' "$out" | tail -c 300))"
	else
		ok "kmalloc_class: no RANDOM_KMALLOC_CACHES note on a kernel without it"
	fi
	# (a notes array: others may be in it, the net figures' on 5 trials)
	has '"notes":\[' "$(printf '%s' "$json" | tr -d '\n ')" "kmalloc_class: a notes array in the JSON, without that note"
fi

# --- --fifo: priority 1, below IRQ threads (SCHED_FIFO 50 on RT); on RT
# SCHED_RR, so that ktimers and rcuc (SCHED_FIFO 1 there) get the CPU ---
if [ $rt = 1 ]; then pol=2 polname=SCHED_RR; else pol=1 polname=SCHED_FIFO; fi
allocbench run --wide --alloc=vmalloc_node --size=64K --fifo --cpu=0 --trials=10000000 -q >/tmp/fifo.out 2>&1 &
pid=$!
# a timer on the run's CPU fires while the run goes on (a soft hrtimer on
# RT: the ktimers thread expires it): a sleep 1 there ends before a sleep 3
# on the other CPU. With SCHED_FIFO 1 on RT it waited for the whole run,
# and RCU reported stalls. (An order of two sleeps 2 s apart, not a
# measured difference: starved, the sleep 1 took 578 s.)
taskset -c 0 sleep 1 &
spid=$!
taskset -c 1 sleep 3
if kill -0 $spid 2>/dev/null; then
	notok "fifo: a sleep 1 on the --fifo run's CPU ends before a sleep 3 on another (still asleep)"
else
	ok "fifo: a sleep 1 on the --fifo run's CPU ends before a sleep 3 on another"
fi
# /proc/PID/stat fields 40 and 41: rt_priority and policy (1 = SCHED_FIFO,
# 2 = SCHED_RR)
prio=$(awk '{ print $40 "/" $41 }' /proc/$pid/stat 2>/dev/null)
kill -INT $pid 2>/dev/null
wait $pid
wait $spid
if [ "$prio" = "1/$pol" ]; then ok "fifo: --fifo runs as $polname priority 1"; else notok "fifo: --fifo runs as $polname priority 1 (rt_priority/policy $prio)"; fi
expect 0 "CPU 0 (node 0), $polname 1;" "fifo: the header names $polname 1" -- \
	allocbench run --wide --alloc=kmalloc --fifo --cpu=0 --trials=200
has "\"fifo_policy\":\"$polname\"" "$(allocbench run --alloc=kmalloc --fifo --trials=20 --json 2>&1 | tr -d ' \n')" \
	"fifo: --json parameters.fifo_policy $polname"
expect 0 "at priority 1 instead of the seed's 99" "fifo: reproduce 2019-scatterlist at priority 1, says so" -- \
	allocbench reproduce --wide 2019-scatterlist
if dmesg | grep -q -e "nobody cared" -e "Disabling IRQ"; then
	notok "fifo: no IRQ starved by the runs ($(dmesg | grep -e 'nobody cared' -e 'Disabling IRQ' | head -c 300))"
else
	ok "fifo: no IRQ starved by the runs (no 'nobody cared' in the kernel log)"
fi

# --- --explain: what the counting pass counts ---
# issue 39.3: the counting pass counts this thread inside its AB_IOC_RUN
# only, not the CLI's reading of /sys/kernel/slab after it, whose slab
# allocations on PREEMPT_RT each enter ___slab_alloc (6.12-rt, batch 50,
# 10 trials: kmalloc 64 read 1.84 per op, kmem_cache 64 1.10; the private
# cache's creation in the call leaves kmem_cache about 0.03 above 1)
if uname -v | grep -qw PREEMPT_RT && [ "$(cat /sys/kernel/slab/kmalloc-64/sheaf_capacity 2>/dev/null || echo 0)" -eq 0 ]; then
	e50=$(allocbench run --alloc=kmalloc,kmem_cache --size=64 --batch=50 --trials=10 --explain 2>&1)
	k=$(printf '%s\n' "$e50" | sed -n 's/^kmalloc: \([0-9.-]*\) slab slow path.*/\1/p')
	c=$(printf '%s\n' "$e50" | sed -n 's/^kmem_cache: \([0-9.-]*\) slab slow path.*/\1/p')
	if awk -v k="$k" -v c="$c" 'BEGIN { exit !(k != "" && c != "" && k >= 0.99 && k <= 1.02 && c >= 0.99 && c <= 1.06) }'; then
		ok "cli: --explain on PREEMPT_RT: one slab slow path per op, the CLI's own calls not counted (kmalloc 64 $k, kmem_cache 64 $c at batch 50)"
	else
		notok "cli: --explain on PREEMPT_RT: slab slow path per op kmalloc 64 '$k', kmem_cache 64 '$c', wanted 1 ($(printf '%s' "$e50" | grep -A3 '^explain'))"
	fi
fi
