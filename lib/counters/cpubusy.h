/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpubusy.h - how busy the other CPUs were during a timed pass, from the
 * per-CPU lines of /proc/stat read before and after it.
 *
 * Why: in the embedded kernel (qemu -accel tcg,thread=single) the vCPUs
 * take turns on one host thread and the TSC runs on while a vCPU waits, so
 * whatever another vCPU runs during a timed phase lengthens that phase,
 * without a context switch on the timed CPU (the "disturbed" count cannot
 * see it). On other machines another CPU's work shares caches, memory
 * bandwidth, an SMT core or the host's CPU with the timed one.
 *
 * A CPU's busy time is the elapsed time (CLOCK_MONOTONIC) less what its
 * "cpuN" line counts as idle and iowait (proc(5)). With NO_HZ those two
 * are measured at each entry to and exit from idle (get_idle_time() in
 * fs/proc/stat.c, get_cpu_idle_time_us()), so the figure holds whatever
 * the ticks saw. The sum of the busy fields (user + nice + system + irq +
 * softirq + steal; guest is in user) is only sampled by the scheduler
 * tick, and a vCPU that waits for its turn misses ticks: a shell loop on
 * CPU 1 of the 6.1 guest read 25% of a pass by those fields. They are
 * kept (@ticked_pct) for comparison. /proc/stat prints USER_HZ ticks
 * (sysconf(_SC_CLK_TCK), 100 on Linux), each reading truncated to a
 * tick: a CPU's figure is good to about one tick over the elapsed time
 * (@resolution_pct).
 */
#ifndef AB_CPUBUSY_H
#define AB_CPUBUSY_H

#include <stdint.h>
#include <stdio.h>

/* CPUs one snapshot holds: CPU_SETSIZE, as sched_setaffinity() has them */
#define AB_CPUBUSY_MAX_CPUS 1024

/*
 * AB_CPUBUSY_WARN_PCT - the other CPUs' busy time, summed and in % of one
 * CPU over the timed pass, above which a run warns, once the readings'
 * resolution is taken off (a pass of 100 ms has 10 ticks: one is 10%).
 * In the serialized embedded kernel, while the figure is small, every 1%
 * of one CPU the other vCPUs run lengthens the timed pass by about 1%
 * (they take turns on one host thread), the size of the differences
 * between strategies the tool resolves (1-3% between kmalloc 4 KiB and
 * get_free_pages, issue 21): more than that can change a comparison. Busy
 * is not idle, so a vCPU waiting for its turn counts too: a busy loop
 * reads 100% whatever share of the host thread it got.
 */
#define AB_CPUBUSY_WARN_PCT 1.0

/**
 * struct ab_cpustat - one reading of /proc/stat
 * @n:     CPUs read (the "cpuN" lines, in order); -1 when not read
 * @cpu:   their numbers
 * @idle:  each one's idle + iowait, in USER_HZ ticks
 * @busy:  each one's user + nice + system + irq + softirq + steal, ticks
 */
struct ab_cpustat {
	int n;
	int cpu[AB_CPUBUSY_MAX_CPUS];
	uint64_t idle[AB_CPUBUSY_MAX_CPUS];
	uint64_t busy[AB_CPUBUSY_MAX_CPUS];
};

/**
 * struct ab_cpubusy - the other CPUs over one timed pass
 * @known:          1 when both readings were made (else all is 0)
 * @elapsed_ns:     CLOCK_MONOTONIC time between the readings
 * @ticks_per_s:    USER_HZ, the unit of /proc/stat
 * @cpus:           other CPUs counted (online at both readings)
 * @busy_pct:       their busy time (elapsed less idle and iowait), each
 *                  CPU's kept within 0-100% (the readings' truncation),
 *                  summed, in % of one CPU over @elapsed_ns (so up to
 *                  100 x @cpus)
 * @busiest_cpu:    the busiest of them, -1 for none
 * @busiest_pct:    its busy time in % of @elapsed_ns
 * @ticked_pct:     the busy fields' growth, summed, in % of one CPU:
 *                  what the ticks saw
 * @resolution_pct: one tick in % of @elapsed_ns: how finely one CPU's
 *                  figure is known (one tick per pass: with several passes
 *                  summed, their ticks over their whole time)
 * @passes:         how many passes were summed (ab_cpubusy_add())
 */
struct ab_cpubusy {
	int known;
	double elapsed_ns;
	double ticks_per_s;
	int cpus;
	double busy_pct;
	int busiest_cpu;
	double busiest_pct;
	double ticked_pct;
	double resolution_pct;
	int passes;
};

/*
 * ab_cpustat_parse - fill @s from a /proc/stat text at @f: each "cpuN"
 * line (not the "cpu" total); lines past AB_CPUBUSY_MAX_CPUS CPUs are
 * left out. Returns the CPUs read, or -1 (and @s->n -1) when a cpuN line
 * has fewer than the 8 fields up to steal (a kernel older than 2.6.11).
 */
int ab_cpustat_parse(FILE *f, struct ab_cpustat *s);

/*
 * ab_cpustat_read - ab_cpustat_parse() of /proc/stat, and CLOCK_MONOTONIC
 * in ns at @t_ns when it was read. Returns what the parse does, -1 when
 * /proc/stat cannot be opened.
 */
int ab_cpustat_read(struct ab_cpustat *s, double *t_ns);

/*
 * ab_cpubusy_between - the other CPUs' busy time from @a (at @t0_ns) to
 * @b (at @t1_ns), in USER_HZ @hz ticks: every CPU in both readings but
 * the @nmine CPUs at @mine (the run's own: its timed CPUs and the CPU of
 * its remote frees). A CPU absent from either reading (offline) is not
 * counted. @out->known is 0 when either reading failed (n < 0) or no time
 * passed.
 */
void ab_cpubusy_between(const struct ab_cpustat *a, double t0_ns,
			const struct ab_cpustat *b, double t1_ns, double hz,
			const int *mine, int nmine, struct ab_cpubusy *out);

/*
 * ab_cpubusy_add - @part's pass into @sum (zeroed or known): the figures
 * weighted by elapsed time, so the busy time of all the passes over their
 * whole time. The busiest CPU stays named only while every pass's busiest
 * is that CPU (else -1); @cpus is the most any pass counted. An unknown
 * @part adds nothing.
 */
void ab_cpubusy_add(struct ab_cpubusy *sum, const struct ab_cpubusy *part);

/*
 * ab_cpubusy_warns - the figure less its resolution (one tick for each
 * CPU counted) is above AB_CPUBUSY_WARN_PCT.
 */
int ab_cpubusy_warns(const struct ab_cpubusy *c);

/*
 * ab_cpubusy_resolved - whether the readings resolve a figure at all: the
 * time between them is at least one /proc/stat tick (@resolution_pct <=
 * 100). Shorter, a CPU's busy share is anywhere in 0-100% whatever the
 * truncated readings say (over 0.07 ms a tick is 14821%), so the figures
 * are n/a (text) and null (JSON); such a pass never warns.
 */
int ab_cpubusy_resolved(const struct ab_cpubusy *c);

/*
 * ab_cpubusy_note - "other CPUs busy 97.2% of the timed pass (cpu1 97.2%;
 * summed over 1 other CPU, in % of one CPU over 310 ms; one /proc/stat
 * tick is 3.2%)" (with a word on it when a tick is more than 10%), "other
 * CPUs busy n/a ..." when the pass was shorter than a tick
 * (ab_cpubusy_resolved()), or "no CPU but the run's own ..." when none was
 * counted, into @buf; "" when unknown. Returns @buf.
 */
char *ab_cpubusy_note(const struct ab_cpubusy *c, char *buf, size_t len);

#endif
