// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpubusy.c - the other CPUs' busy time around a timed pass, from
 * /proc/stat (see cpubusy.h; fields as proc(5) and fs/proc/stat.c give
 * them: user nice system idle iowait irq softirq steal guest guest_nice).
 * Busy: the elapsed time less idle and iowait.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cpubusy.h"
#include "kfile.h"

int ab_cpustat_parse(FILE *f, struct ab_cpustat *s)
{
	char line[512];

	s->n = 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[8];
		int cpu;

		if (strncmp(line, "cpu", 3) || line[3] < '0' || line[3] > '9')
			continue;
		if (sscanf(line + 3,
			   "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) != 9) {
			s->n = -1;
			return -1;
		}
		if (s->n >= AB_CPUBUSY_MAX_CPUS)
			continue;
		s->cpu[s->n] = cpu;
		s->idle[s->n] = v[3] + v[4];
		/* user + nice + system + irq + softirq + steal */
		s->busy[s->n] = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
		s->n++;
	}
	return s->n;
}

int ab_cpustat_read(struct ab_cpustat *s, double *t_ns)
{
	struct timespec ts;
	FILE *f = ab_kfile_open("/proc/stat");
	int n;

	s->n = -1;
	/* the kernel writes the text at the first read, just after this */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	*t_ns = (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
	if (!f)
		return -1;
	n = ab_cpustat_parse(f, s);
	fclose(f);
	return n;
}

static int is_mine(int cpu, const int *mine, int nmine)
{
	int i;

	for (i = 0; i < nmine; i++)
		if (mine[i] == cpu)
			return 1;
	return 0;
}

void ab_cpubusy_between(const struct ab_cpustat *a, double t0_ns,
			const struct ab_cpustat *b, double t1_ns, double hz,
			const int *mine, int nmine, struct ab_cpubusy *out)
{
	double s = (t1_ns - t0_ns) / 1e9, ticks = s * hz;
	int i, j;

	memset(out, 0, sizeof(*out));
	out->busiest_cpu = -1;
	if (a->n < 0 || b->n < 0 || s <= 0 || hz <= 0)
		return;
	out->known = 1;
	out->passes = 1;
	out->elapsed_ns = t1_ns - t0_ns;
	out->ticks_per_s = hz;
	out->resolution_pct = 100.0 / ticks;
	for (j = 0; j < b->n; j++) {
		double idle, pct;

		if (is_mine(b->cpu[j], mine, nmine))
			continue;
		/* the same CPU in the first reading: CPUs only ever come and go
		 */
		for (i = 0; i < a->n && a->cpu[i] != b->cpu[j]; i++)
			;
		if (i == a->n || b->idle[j] < a->idle[i] ||
		    b->busy[j] < a->busy[i])
			continue;
		idle = (double)(b->idle[j] - a->idle[i]);
		pct = 100.0 * (ticks - idle) / ticks;
		/* each reading truncated to a tick: within 0-100% */
		pct = pct < 0 ? 0 : pct > 100 ? 100 : pct;
		out->cpus++;
		out->busy_pct += pct;
		out->ticked_pct +=
			100.0 * (double)(b->busy[j] - a->busy[i]) / ticks;
		if (out->busiest_cpu < 0 || pct > out->busiest_pct) {
			out->busiest_cpu = b->cpu[j];
			out->busiest_pct = pct;
		}
	}
}

void ab_cpubusy_add(struct ab_cpubusy *sum, const struct ab_cpubusy *part)
{
	double t, w0, w1;

	if (!part->known)
		return;
	if (!sum->known) {
		*sum = *part;
		return;
	}
	t = sum->elapsed_ns + part->elapsed_ns;
	w0 = sum->elapsed_ns / t;
	w1 = part->elapsed_ns / t;
	sum->busy_pct = w0 * sum->busy_pct + w1 * part->busy_pct;
	sum->ticked_pct = w0 * sum->ticked_pct + w1 * part->ticked_pct;
	sum->resolution_pct =
		w0 * sum->resolution_pct + w1 * part->resolution_pct;
	if (sum->busiest_cpu >= 0 && sum->busiest_cpu == part->busiest_cpu) {
		sum->busiest_pct =
			w0 * sum->busiest_pct + w1 * part->busiest_pct;
	} else {
		sum->busiest_cpu = -1;
		sum->busiest_pct = 0;
	}
	if (part->cpus > sum->cpus)
		sum->cpus = part->cpus;
	sum->elapsed_ns = t;
	sum->passes += part->passes;
}

int ab_cpubusy_warns(const struct ab_cpubusy *c)
{
	return c->known &&
	       c->busy_pct - c->cpus * c->resolution_pct > AB_CPUBUSY_WARN_PCT;
}

int ab_cpubusy_resolved(const struct ab_cpubusy *c)
{
	return c->known && c->resolution_pct <= 100;
}

char *ab_cpubusy_note(const struct ab_cpubusy *c, char *buf, size_t len)
{
	char pass[48], top[48];

	if (c->passes > 1)
		snprintf(pass, sizeof(pass), "its %d timed passes", c->passes);
	else
		snprintf(pass, sizeof(pass), "the timed pass");
	if (c->busiest_cpu >= 0)
		snprintf(top, sizeof(top), "cpu%d %.1f%%; ", c->busiest_cpu,
			 c->busiest_pct);
	else
		snprintf(top, sizeof(top),
			 "the busiest CPU not the same in each; ");
	if (!c->known)
		snprintf(buf, len, "%s", "");
	else if (!c->cpus)
		snprintf(buf, len,
			 "no CPU but the run's own during %s (%.0f ms)", pass,
			 c->elapsed_ns / 1e6);
	else if (!ab_cpubusy_resolved(c))
		snprintf(
			buf, len,
			"other CPUs busy n/a during %s (%d other CPU%s; %.3g ms, shorter than one /proc/stat tick of %.0f ms: no figure)",
			pass, c->cpus, c->cpus == 1 ? "" : "s",
			c->elapsed_ns / 1e6, 1e3 / c->ticks_per_s);
	else
		snprintf(
			buf, len,
			"other CPUs busy %.1f%% of %s (%ssummed over %d other CPU%s in %% of one CPU over %.0f ms; one /proc/stat tick is %.1f%%%s)",
			c->busy_pct, pass, top, c->cpus,
			c->cpus == 1 ? "," : "s,", c->elapsed_ns / 1e6,
			c->resolution_pct,
			c->resolution_pct > 10
				? ": a pass lasts fewer than 10 ticks"
				: "");
	return buf;
}
