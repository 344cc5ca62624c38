# SPDX-License-Identifier: GPL-2.0-only
# fish completion for allocbench: commands, their options and the values of
# the enumerated ones; the commands, strategy names and enumerated values
# from `allocbench list --values=KIND`, made from the tables that define them,
# each asked of the binary being completed (./allocbench in a build tree as
# well as the one on PATH), when it is completed.

# __allocbench_values KIND: the words of KIND, from the command line's binary
function __allocbench_values
    set -l ab (commandline -opc)[1]
    command -q -- $ab; or return
    command $ab list --values=$argv[1] 2>/dev/null
end
complete -c allocbench -f
complete -c allocbench -n 'not __fish_seen_subcommand_from (__allocbench_values commands)' -a '(__allocbench_values commands)'
complete -c allocbench -n 'not __fish_seen_subcommand_from (__allocbench_values commands)' -l version -d 'print the version'
complete -c allocbench -n "__fish_seen_subcommand_from reproduce" -a '2019-scatterlist 2002-lookup'
complete -c allocbench -n "__fish_seen_subcommand_from list" -a 'events'
complete -c allocbench -n "__fish_seen_subcommand_from list" -l names -d 'strategy names only'
complete -c allocbench -n "__fish_seen_subcommand_from list" -l values -x -a '(__allocbench_values kinds)' -d 'the words of a kind, for completions'
complete -c allocbench -n "__fish_seen_subcommand_from help" -a '(__allocbench_values commands)'
complete -c allocbench -n "__fish_seen_subcommand_from plot compare export" -F

complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -s a -l alloc -x -a '(__allocbench_values strategies)' -d strategies
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -s s -l size -x -d 'bytes per object'
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l order -x -d 'page order'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -s b -l batch -x -d 'objects per trial'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare lookup" -s t -l trials -x -d 'measured trials'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare lookup" -s w -l warmup -x -d 'warm-up trials'
complete -c allocbench -n "__fish_seen_subcommand_from run compare lookup reproduce" -s c -l cpu -x -d 'CPU list'
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l concurrent -d 'all CPUs at once'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l dry-run -d 'check, run nothing'
complete -c allocbench -n "__fish_seen_subcommand_from compare" -l rounds -x -d 'interleaved rounds of A and B (the unit of the test)'
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -s n -l node -x -d 'NUMA node'
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l free-cpu -x -d 'free on this CPU'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -s g -l gfp -x -a '(__allocbench_values gfp)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -s T -l timing -x -a '(__allocbench_values timing)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -s f -l free -x -a '(__allocbench_values free)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare lookup" -l seed -x -d seed
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l context -x -a '(__allocbench_values context)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l lookup -x -a '(__allocbench_values lookup)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare lookup" -l table -x -a '(__allocbench_values table)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l align -x -d 'posix_memalign and percpu alignment'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l pool-min -x -d 'mempool reserve elements (min_nr)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l write -d 'write each object'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l nomerge -d 'unmerged kmem_cache'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l sheaves -x -a 'default off' -d 'per-CPU sheaves of the private kmem_cache'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l condition -x -a 'quiet fragmented pressure vmap-fragmented fragmented+pressure' -d 'memory state the trials meet'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l frag-order -x -d 'fragmented: no free block above this order'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l background -x -d 'shell command run during the trials'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l explain -d 'count the allocators internal paths per op'
complete -c allocbench -n "__fish_seen_subcommand_from run" -l profile -d 'instructions per op by function (virtual PMU model)'
complete -c allocbench -n "__fish_seen_subcommand_from run" -l paths -d 'path lengths of one op, fast path first (virtual PMU)'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare" -l drop-disturbed -d 'leave out phases with a context switch or CPU change'
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l fifo -d "real-time priority 1: SCHED_FIFO, SCHED_RR on PREEMPT_RT"
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l raw -d 'no overhead subtracted'
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l histogram -d 'log2 histograms'
complete -c allocbench -n "__fish_seen_subcommand_from run compare sweep reproduce lookup" -l wide -d 'the full text report'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare lookup" -l csv -d CSV
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l isolate -d 'exclusive cpuset or cgroup v2 cpuset partition'
complete -c allocbench -n "__fish_seen_subcommand_from run compare" -l memcg -x -a '(__allocbench_values memcg)' -d 'memory cgroup charged rows are charged to'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare lookup" -s e -l events -x -a 'cycles instructions branch-misses cache-misses dTLB-load-misses task-clock page-faults context-switches cpu-migrations'
complete -c allocbench -n "__fish_seen_subcommand_from run sweep compare lookup reproduce info" -l backend -x -a '(__allocbench_values backends)'
complete -c allocbench -n "__fish_seen_subcommand_from sweep" -s s -l sizes -x -d 'sizes: list or A-B:xF'
complete -c allocbench -n "__fish_seen_subcommand_from sweep" -l orders -x -d 'page orders: list or A-B'
complete -c allocbench -n "__fish_seen_subcommand_from sweep" -l cpu-nodes -x -d 'CPU nodes'
complete -c allocbench -n "__fish_seen_subcommand_from sweep" -l mem-nodes -x -d 'memory nodes'
complete -c allocbench -n "__fish_seen_subcommand_from plot" -l script -r -F -d 'the gnuplot script too'
complete -c allocbench -n "__fish_seen_subcommand_from lookup" -s m -l method -x -a '(__allocbench_values methods)'
complete -c allocbench -n "__fish_seen_subcommand_from lookup" -s s -l size -x -d 'constant sizes'
complete -c allocbench -n "__fish_seen_subcommand_from lookup" -s d -l dist -x -a 'const: uniform: loguniform:'
complete -c allocbench -n "__fish_seen_subcommand_from lookup" -s F -l sizes-from -r -F -d 'sizes file'
complete -c allocbench -n "__fish_seen_subcommand_from lookup" -s n -l count -x -d 'lookups per pass'
complete -c allocbench -n '__fish_seen_subcommand_from (__allocbench_values commands)' -s j -l json -d JSON
complete -c allocbench -n '__fish_seen_subcommand_from (__allocbench_values commands)' -s o -l output -r -F -d 'output file'
complete -c allocbench -n '__fish_seen_subcommand_from (__allocbench_values commands)' -s q -l quiet -d 'no progress'
complete -c allocbench -n '__fish_seen_subcommand_from (__allocbench_values commands)' -s v -l verbose -d 'print requests'
complete -c allocbench -n "__fish_seen_subcommand_from plot" -l format -x -a 'svg png' -d 'picture format (-o -: svg)'
complete -c allocbench -n "__fish_seen_subcommand_from export" -l format -x -a '(__allocbench_values export-formats)' -d "the engine's format"
complete -c allocbench -n "__fish_seen_subcommand_from export" -s k -l kernel -x -d "a vm document's kernel"
complete -c allocbench -n "__fish_seen_subcommand_from export" -l origin -x -d 'KCIDB origin'
complete -c allocbench -n "__fish_seen_subcommand_from export" -l build-id -x -d 'KCIDB build id'
complete -c allocbench -n "__fish_seen_subcommand_from export" -l checkout-id -x -d 'KCIDB checkout id'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -s k -l kernel -x -a '6.1 6.12 6.1-rt 6.12-rt (__fish_complete_directories)' -d 'kernel[:boot parameters]'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -s r -l rounds -x -d 'boots of each kernel'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l threshold -x -d 'a change worth detecting, P%'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l nodes -x -a '1 2 3' -d 'NUMA nodes of the guest'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l append -x -d 'boot parameters for every kernel'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l wide -d 'the full text report (as -v)'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l accel -x -a 'auto kvm tcg' -d 'KVM or TCG'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l vpmu -x -a 'exact model' -d 'boot with the virtual PMU'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l cpu-model -x -d 'qemu CPU model of every boot'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l profile -d 'differential profile per row (B - A per function)'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l paths -d 'fast path per row and phase, B - A in instructions'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l deterministic -d 'icount boots seeded by round, compared in pairs'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l mem -x -d 'guest memory, MiB'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l smp -x -d 'guest vCPUs, 1 to 16'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l timeout -x -d 'seconds per boot'
complete -c allocbench -n "__fish_seen_subcommand_from vm" -l cache -x -a '(__fish_complete_directories)' -d 'kernels and images'
