// SPDX-License-Identifier: GPL-2.0-only
/*
 * vm_report.c - the text report of `allocbench vm` (vm.h): the header and
 * each comparison's table (lib/results/vmab.c makes the comparisons); the
 * JSON document is vm_json.c's.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonin.h"
#include "jsonout.h"
#include "textout.h"
#include "vpmu.h"
#include "vm.h"

void vm_fmt_duration(double s, char *buf, size_t len)
{
	if (s >= 120)
		snprintf(buf, len, "%.0f min", s / 60);
	else
		snprintf(buf, len, "%.0f s", s);
}

static double num(json_object *o, const char *key)
{
	return ab_json_double(ab_json_get(o, key));
}

/*
 * The success rates of @c (a memory condition, or failed allocations):
 * each boot's rate, their mean per kernel, B - A in points with its
 * interval, tested with the rows' ns/op in one Holm family.
 */
static void print_success(json_object *c, int wl, const char *family)
{
	json_object *rows = ab_json_array(c, "success");
	size_t i, n = rows ? json_object_array_length(rows) : 0;

	if (!n)
		return;
	printf("\nsuccess rate (the trials in which every allocation succeeded): each boot's rate, their mean per kernel, the boot as unit; p: the exact rank-sum test on the boots' rates (no spread needed within a side); %s; B - A in percentage points with Welch's 95%% interval on the rates, unadjusted (Holm adjusts p, not the interval), clipped to [-100, +100] (marked *); detectable: Welch's normal-theory approximation\n",
	       family);
	printf("%-*s %5s %8s %8s %9s %22s %8s %8s  %-26s %10s\n", wl, "row",
	       "boots", "A %", "B %", "B - A", "unadj. 95% CI of B - A", "p",
	       "p adj", "verdict", "detectable");
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		json_object *ci = ab_json_array(r, "ci95");
		const char *v =
			json_object_get_string(ab_json_get(r, "verdict"));
		double lo = ci ? ab_json_double(
					 json_object_array_get_idx(ci, 0))
			       : NAN,
		       hi = ci ? ab_json_double(
					 json_object_array_get_idx(ci, 1))
			       : NAN,
		       det = num(r, "detectable_pp");
		char verdict[64], boots[16], cis[40], p[16], padj[16];

		snprintf(boots, sizeof(boots), "%zu/%zu",
			 json_object_array_length(ab_json_array(r, "boots_a")),
			 json_object_array_length(ab_json_array(r, "boots_b")));
		if (!strcmp(v, "higher") || !strcmp(v, "lower"))
			snprintf(verdict, sizeof(verdict), "B succeeds %s",
				 !strcmp(v, "higher") ? "more" : "less");
		else
			snprintf(verdict, sizeof(verdict), "%s", v);
		if (isnan(lo) || isnan(hi))
			snprintf(cis, sizeof(cis), "n/a");
		else
			snprintf(cis, sizeof(cis), "[%+.1f, %+.1f]%s", lo, hi,
				 json_object_get_boolean(
					 ab_json_get(r, "ci_clipped"))
					 ? "*"
					 : "");
		printf("%-*s %5s", wl,
		       json_object_get_string(ab_json_get(r, "label")), boots);
		ab_print_cell(num(r, "a_pct"), " %*.1f", 8);
		ab_print_cell(num(r, "b_pct"), " %*.1f", 8);
		ab_print_cell(num(r, "diff_pp"), " %+*.1f", 9);
		printf(" %22s %8s %8s  %-26s", cis,
		       ab_p_text(num(r, "p"), p, sizeof(p)),
		       ab_p_text(num(r, "p_adjusted"), padj, sizeof(padj)),
		       verdict);
		if (isnan(det))
			printf(" %10s\n", "n/a");
		else if (json_object_get_boolean(
				 ab_json_get(r, "detectable_clipped")))
			printf(" %10s\n", ">100pp");
		else
			printf(" %8.1fpp\n", det);
	}
	for (i = 0; i < n; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		double pmin = num(r, "p_min");
		char p[16];

		if (pmin >= AB_VM_ALPHA)
			printf("note: %s: with these boots the exact test's smallest p is %s: no verdict was possible (more rounds)\n",
			       json_object_get_string(ab_json_get(r, "label")),
			       ab_p_text(pmin, p, sizeof(p)));
	}
}

/* The tests of the report (comparison @c's "correction": every comparison
 * of a report shares it), 0 when none (no row had two good boots a side,
 * or every row was identical in every boot: no_test_why()). */
static int report_tests(json_object *c)
{
	return json_object_get_int(
		ab_json_get(ab_json_get(c, "correction"), "tests"));
}

/*
 * Why the report has no test: its rows were each the same in every boot
 * (verdict "identical": no spread to weigh) when any was, else no row had
 * two good boots a side. @lead ends the text's first clause.
 */
static void no_test_why(json_object *cmps, const char *lead)
{
	size_t i, j, same = 0;

	for (i = 0; cmps && i < json_object_array_length(cmps); i++) {
		json_object *rows = ab_json_array(
			json_object_array_get_idx(cmps, i), "rows");

		for (j = 0; rows && j < json_object_array_length(rows); j++)
			same += !strcmp(
				json_object_get_string(ab_json_get(
					json_object_array_get_idx(rows, j),
					"verdict"))
					?: "",
				"identical");
	}
	if (same)
		printf("%s: every row's figure was the same in each boot of a kernel, so nothing was left to test (Welch's t weighs a spread); B / A is exact there\n",
		       lead);
	else
		printf("%s: no row had 2 good boots of each kernel (Welch's t needs 2 a side)\n",
		       lead);
}

/* One line of a differential profile: delta, A, B, the name, where. */
static void print_pd_line(double d, double a, double b, const char *name,
			  const char *found)
{
	printf("  %+10.2f", d);
	if (isnan(a) && isnan(b)) {
		printf(" %10s %10s", "", "");
	} else {
		ab_print_cell(a, " %*.2f", 10);
		ab_print_cell(b, " %*.2f", 10);
	}
	printf("  %s%s%s\n", name, found ? "  " : "", found ? found : "");
}

/*
 * --profile: each row's differential profile (lib/vmab.c, "profile_diff"),
 * the functions whose instructions per op changed, B - A, largest first:
 * AB_VPMU_PROF_SHOW of them, all with -v; then the rest, the functions past
 * the profiles' cuts and the residue, so that the lines add up to the
 * row's B - A.
 */
static void print_profile_diffs(json_object *rows)
{
	size_t i, j, n, nrows = rows ? json_object_array_length(rows) : 0;
	int head = 0;

	for (i = 0; i < nrows; i++) {
		json_object *pd = ab_json_get(
				    json_object_array_get_idx(rows, i),
				    "profile_diff"),
			    *fns = ab_json_array(pd, "functions");
		double rest = 0;

		if (!pd || !fns)
			continue;
		if (!head++)
			printf("\ndifferential profile (--profile): instructions per op by kernel function, mean over each kernel's boots, B - A, largest change first (as perf diff); \"a only\"/\"b only\": named in one kernel's profiles alone (renamed, inlined or new there); \"cut\": a boot's profile cut after its first %d functions (the rest in the other line) does not name it, so that side's mean is a lower bound; the lines add up to the row's B - A of instructions (raw, as the profiles: the harness's phase functions in both), the residue being what the counts hold and the profiles do not:\n",
			       AB_VPMU_PROF_TOP);
		printf("%s: B - A %+.2f instructions per op (%d and %d boots profiled)\n",
		       json_object_get_string(ab_json_get(
			       json_object_array_get_idx(rows, i), "label")),
		       num(pd, "delta"),
		       json_object_get_int(ab_json_get(pd, "boots_a")),
		       json_object_get_int(ab_json_get(pd, "boots_b")));
		printf("  %10s %10s %10s  %s\n", "B - A", "A", "B", "function");
		n = json_object_array_length(fns);
		for (j = 0; j < n; j++) {
			json_object *e = json_object_array_get_idx(fns, j);
			const char *found =
				json_object_get_string(ab_json_get(e, "found"));

			if (j >= AB_VPMU_PROF_SHOW && !ab_out.verbose) {
				rest += num(e, "delta");
				continue;
			}
			print_pd_line(num(e, "delta"), num(e, "a"), num(e, "b"),
				      json_object_get_string(
					      ab_json_get(e, "function")),
				      strcmp(found, "both") ? found : NULL);
		}
		if (n > AB_VPMU_PROF_SHOW && !ab_out.verbose) {
			char what[64];

			snprintf(what, sizeof(what),
				 "(%zu more functions: -v lists them)",
				 n - AB_VPMU_PROF_SHOW);
			print_pd_line(rest, NAN, NAN, what, NULL);
		}
		if (num(pd, "unlisted_delta") != 0)
			print_pd_line(
				num(pd, "unlisted_delta"), NAN, NAN,
				"(functions that changed by under 0.005 each)",
				NULL);
		if (num(pd, "other_delta") != 0)
			print_pd_line(num(pd, "other_delta"), NAN, NAN,
				      "(the functions past the profiles' cuts)",
				      NULL);
		print_pd_line(num(pd, "residue"), NAN, NAN,
			      "(residue: counted, not in the profiles)", NULL);
	}
}

static void print_comparison(json_object *c, double threshold)
{
	json_object *rows = ab_json_array(c, "rows");
	size_t i, j, nrows = rows ? json_object_array_length(rows) : 0;
	int counters = 0, wl = 24;
	char thr[32], family[128];

	for (i = 0; i < nrows; i++) {
		int l = (int)strlen(json_object_get_string(ab_json_get(
			json_object_array_get_idx(rows, i), "label")));

		if (l > wl)
			wl = l;
	}
	if (!nrows) {
		printf("\n%s (B) against %s (A): nothing to compare: no good boot of A holds a result\n",
		       json_object_get_string(ab_json_get(c, "b")),
		       json_object_get_string(ab_json_get(c, "a")));
		return;
	}
	ab_holm_text(report_tests(c), "2 good boots of each kernel", family,
		     sizeof(family));
	printf("\n%s (B) against %s (A): each boot's median ns/op, their geometric mean per kernel; Welch's t test on the logs, the boot as unit; %s\n",
	       json_object_get_string(ab_json_get(c, "b")),
	       json_object_get_string(ab_json_get(c, "a")), family);
	snprintf(thr, sizeof(thr), "%g%% seen?", threshold);
	printf("%-*s %-6s %5s %10s %10s %7s %22s %8s %8s  %-26s %10s%s%s\n", wl,
	       "row", "phase", "boots", "A ns/op", "B ns/op", "B / A",
	       "unadj. 95% CI of B / A", "p", "p adj", "verdict", "detectable",
	       threshold > 0 ? "  " : "", threshold > 0 ? thr : "");
	for (i = 0; i < nrows; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		json_object *ci = ab_json_array(r, "ci95");
		const char *v =
			json_object_get_string(ab_json_get(r, "verdict"));
		double det = num(r, "detectable_pct");
		char verdict[64], boots[16], cis[32], p[16], padj[16];

		snprintf(boots, sizeof(boots), "%zu/%zu",
			 json_object_array_length(ab_json_array(r, "boots_a")),
			 json_object_array_length(ab_json_array(r, "boots_b")));
		if (!strcmp(v, "faster") || !strcmp(v, "slower"))
			snprintf(verdict, sizeof(verdict), "B %s", v);
		else
			snprintf(verdict, sizeof(verdict), "%s", v);
		if (ci && !isnan(num(r, "ratio")) &&
		    !isnan(ab_json_double(json_object_array_get_idx(ci, 0))))
			snprintf(cis, sizeof(cis), "[%.3f, %.3f]",
				 ab_json_double(
					 json_object_array_get_idx(ci, 0)),
				 ab_json_double(
					 json_object_array_get_idx(ci, 1)));
		else
			snprintf(cis, sizeof(cis), "n/a");
		printf("%-*s %-6s %5s", wl,
		       json_object_get_string(ab_json_get(r, "label")),
		       json_object_get_string(ab_json_get(r, "phase")), boots);
		ab_print_cell(num(r, "a_ns"), " %*.1f", 10);
		ab_print_cell(num(r, "b_ns"), " %*.1f", 10);
		ab_print_cell(num(r, "ratio"), " %*.3f", 7);
		printf(" %22s", cis);
		printf(" %8s %8s  %-26s", ab_p_text(num(r, "p"), p, sizeof(p)),
		       ab_p_text(num(r, "p_adjusted"), padj, sizeof(padj)),
		       verdict);
		if (isnan(det))
			printf(" %10s", "n/a");
		else
			printf(" %9.1f%%", det);
		if (threshold > 0) {
			json_object *seen =
				ab_json_get(r, "threshold_detectable");
			json_object *need = ab_json_get(r, "rounds_needed");

			if (!seen)
				printf("  n/a");
			else if (json_object_get_boolean(seen))
				printf("  yes");
			else if (need)
				printf("  no: %d rounds",
				       json_object_get_int(need));
			else
				printf("  no: over %d rounds",
				       AB_VM_MAX_ROUNDS);
		}
		printf("\n");
		for (j = 0;
		     j < json_object_array_length(ab_json_array(r, "counters"));
		     j++)
			counters = 1;
	}
	print_success(c, wl, family);
	/* the counters' table only with counters; the profiles' and the
	 * fast paths' after it either way (vm -v --paths has no counters) */
	if (!counters)
		goto diffs;
	printf("\ncounters per op (alloc and free together), mean over each kernel's boots, B - A and B / A with their 95%% intervals over the boots and the change they could detect at level 0.05 (what goes with the difference; correlated, not shown to cause it; no verdict, so nothing to adjust)");
	for (i = 0; i < nrows; i++) {
		json_object *pr = ab_json_get(
			json_object_array_get_idx(rows, i), "pairs");

		if (pr) {
			printf("; boots paired by seed (--deterministic): %d pairs, so %d states of the boot (its slab state among them), each met by both kernels, and the intervals are the paired test's",
			       json_object_get_int(pr),
			       json_object_get_int(pr));
			break;
		}
	}
	printf(":\n");
	for (i = 0; i < nrows; i++) {
		json_object *r = json_object_array_get_idx(rows, i);
		json_object *cs = ab_json_array(r, "counters");
		const char *label =
			json_object_get_string(ab_json_get(r, "label"));

		/* a row's counters are the same in each of its phases */
		if (!cs || !json_object_array_length(cs) ||
		    (i && !strcmp(label, json_object_get_string(ab_json_get(
						 json_object_array_get_idx(
							 rows, i - 1),
						 "label")))))
			continue;
		printf("%s:\n", label);
		for (j = 0; j < json_object_array_length(cs); j++) {
			json_object *e = json_object_array_get_idx(cs, j);

			json_object *ci = ab_json_get(e, "ci95");
			char det[48], r0[32], r1[32], r2[32];
			double lo = ci ? ab_json_double(
						 json_object_array_get_idx(ci,
									   0))
				       : NAN,
			       hi = ci ? ab_json_double(
						 json_object_array_get_idx(ci,
									   1))
				       : NAN;

			if (json_object_get_boolean(
				    ab_json_get(e, "identical")) &&
			    ab_json_get(e, "pairs"))
				snprintf(det, sizeof(det),
					 "one B - A in every pair");
			else if (json_object_get_boolean(
					 ab_json_get(e, "identical")))
				snprintf(det, sizeof(det),
					 "identical in every boot");
			else if (isnan(num(e, "detectable_pct")))
				snprintf(det, sizeof(det), "detectable n/a");
			else
				snprintf(det, sizeof(det), "detectable %.2f%%",
					 num(e, "detectable_pct"));
			printf("  %-28s A",
			       json_object_get_string(ab_json_get(e, "event")));
			ab_print_cell(num(e, "a"), " %*.3f", 12);
			printf("  B");
			ab_print_cell(num(e, "b"), " %*.3f", 12);
			printf("  B - A");
			ab_print_cell(num(e, "delta"), " %+*.3f", 12);
			{
				json_object *dc = ab_json_get(e, "delta_ci95");
				char d0[32], d1[32];

				if (dc)
					printf(" [%s, %s]",
					       ab_num_text(
						       ab_json_double(
							       json_object_array_get_idx(
								       dc, 0)),
						       "%+.3f", d0, sizeof(d0)),
					       ab_num_text(
						       ab_json_double(
							       json_object_array_get_idx(
								       dc, 1)),
						       "%+.3f", d1,
						       sizeof(d1)));
			}
			printf("  B / A %s [%s, %s]  %s\n",
			       ab_num_text(num(e, "ratio"), "%.4f", r0,
					   sizeof(r0)),
			       ab_num_text(lo, "%.4f", r1, sizeof(r1)),
			       ab_num_text(hi, "%.4f", r2, sizeof(r2)), det);
		}
	}
diffs:
	print_profile_diffs(rows);
	vm_print_paths(rows, wl, 'B', 1);
}

const char vm_pvh_words[] =
	"boots through the PVH entry (--pvh): no KASLR, every boot has one layout, so boots vary less than an installed kernel's";

const char *vm_accel_words(const char *accel)
{
	return strcmp(accel, "kvm")
		       ? "TCG: an emulated CPU, so these are not bare-metal figures; compare kernels with each other, not with hardware"
		       : "KVM: the host's CPU, virtualized";
}

static void print_header(const struct vm_run *v, const char *cmd)
{
	int i;

	printf("allocbench vm: %d kernels, %d %s (%d boots: A B, B A, ...), %d NUMA %s, %d %s, %s\n",
	       v->nk, v->conf.rounds,
	       ab_noun((unsigned)v->conf.rounds, "round", "rounds"), v->nboots,
	       v->conf.nodes, ab_noun((unsigned)v->conf.nodes, "node", "nodes"),
	       v->conf.smp, ab_noun((unsigned)v->conf.smp, "vCPU", "vCPUs"),
	       vm_accel_words(v->accel));
	if (v->conf.pvh)
		printf("%s\n", vm_pvh_words);
	printf("guest CPU model: %s (one for every boot: a kernel patches its code for the CPU's features)\n",
	       v->conf.cpu_model ? v->conf.cpu_model
	       : strcmp(v->accel, "kvm")
		       ? "qemu64 (qemu's default under TCG), booted with clearcpuid=rep_good (vm-run.sh: no rep string instructions in clear_page and copy_page)"
		       : "host (KVM)");
	if (v->conf.deterministic)
		printf("deterministic boots (--deterministic): qemu -icount, so guest time is the instruction count (ns/op are that clock's, 1 instruction = 1 ns, not time), a fixed RTC, 1 vCPU with the SMP code kept (noreplace-smp); round R boots every kernel with seed R on its command line, so the %d rounds are %d states of the boot (its slab state among them), each met by every kernel, and the kernels are compared pair by pair (paired t test)\n",
		       v->conf.rounds, v->conf.rounds);
	if (v->conf.vpmu && *v->conf.vpmu)
		printf("virtual PMU (--vpmu=%s): a QEMU TCG plugin counts each boot's instructions, branches, loads and stores exactly%s, where no hardware PMU opens\n",
		       v->conf.vpmu,
		       strcmp(v->conf.vpmu, "model")
			       ? ""
			       : ", and branch and cache misses by its stated model");
	for (i = 0; i < v->nk; i++) {
		const struct vm_kernel *k = &v->ks[i];
		int params = *v->conf.append || *k->append;

		printf("  %c = %s: %s%s%s%s%s, %d good boot%s\n", 'A' + i,
		       k->spec, k->release, params ? ", boot parameters: " : "",
		       v->conf.append, *v->conf.append && *k->append ? " " : "",
		       k->append, k->good, k->good == 1 ? "" : "s");
	}
	printf("command in each boot: %s\n", cmd);
	for (i = 0; i < v->nboots; i++)
		if (v->boots[i].status != AB_VM_OK)
			printf("left out: boot %d (%c = %s, round %d): %s%s%s\n",
			       i + 1, 'A' + v->boots[i].kernel,
			       v->ks[v->boots[i].kernel].spec,
			       v->boots[i].round,
			       ab_vm_status_name(v->boots[i].status),
			       v->boots[i].why ? ": " : "",
			       v->boots[i].why ? v->boots[i].why : "");
}

/* @text on one line of at most AB_TABLE_COLS columns ("..." when cut) */
static void line_cut(const char *text)
{
	if (strlen(text) <= AB_TABLE_COLS)
		printf("%s\n", text);
	else
		printf("%.*s...\n", AB_TABLE_COLS - 3, text);
}

/*
 * The default text's header: the tool and the kernels; the guest's CPU;
 * the rounds and the command; the caveats, a word or two each (the full
 * header: -v, --wide; every field in the JSON).
 */
static void print_header_short(const struct vm_run *v, const char *cmd)
{
	char buf[1024], took[32];
	size_t at;
	int i, left = 0, cut = 0;

	at = (size_t)snprintf(buf, sizeof(buf),
			      "allocbench %s vm:", AB_TOOL_VERSION);
	for (i = 0; i < v->nk && at < sizeof(buf); i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at,
				       "%s %c = %s (%s)", i ? "," : "", 'A' + i,
				       v->ks[i].spec, v->ks[i].release);
	line_cut(buf);
	snprintf(buf, sizeof(buf), "cpu: %s guest, %s, %d %s, %d NUMA %s%s%s%s",
		 v->conf.cpu_model	   ? v->conf.cpu_model
		 : strcmp(v->accel, "kvm") ? "qemu64"
					   : "host",
		 strcmp(v->accel, "kvm") ? "emulated (TCG)"
					 : "virtualized (KVM)",
		 v->conf.smp, ab_noun((unsigned)v->conf.smp, "vCPU", "vCPUs"),
		 v->conf.nodes,
		 ab_noun((unsigned)v->conf.nodes, "node", "nodes"),
		 v->conf.vpmu && *v->conf.vpmu ? ", virtual PMU " : "",
		 v->conf.vpmu && *v->conf.vpmu ? v->conf.vpmu : "",
		 v->conf.pvh ? ", PVH entry" : "");
	line_cut(buf);
	vm_fmt_duration(v->seconds, took, sizeof(took));
	for (i = 0; i < v->nboots; i++) {
		left += v->boots[i].status != AB_VM_OK;
		cut |= v->boots[i].status == AB_VM_INTERRUPTED;
	}
	snprintf(buf, sizeof(buf),
		 "%d %s, %d of %d boots ran in %s; each runs: %s",
		 v->conf.rounds,
		 ab_noun((unsigned)v->conf.rounds, "round", "rounds"), v->ran,
		 v->nboots, took, cmd);
	line_cut(buf);
	at = (size_t)snprintf(buf, sizeof(buf), "caveats: %s",
			      strcmp(v->accel, "kvm") ? "emulated CPU"
						      : "virtualized");
	if (v->conf.pvh)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at,
				       ", no KASLR (PVH)");
	if (left && at < sizeof(buf))
		at += (size_t)snprintf(
			buf + at, sizeof(buf) - at, ", %d %s left out", left,
			ab_noun((unsigned)left, "boot", "boots"));
	if (cut && at < sizeof(buf))
		snprintf(buf + at, sizeof(buf) - at, ", interrupted");
	printf("%s (-v says why)\n\n", buf);
}

/* A verdict in a word or two: its reason (after ':') is -v's. */
static const char *verdict_short(const char *v, char *buf, size_t len)
{
	if (!strcmp(v, "faster") || !strcmp(v, "slower"))
		snprintf(buf, len, "B %s", v);
	else if (!strcmp(v, "higher") || !strcmp(v, "lower"))
		snprintf(buf, len, "B succeeds %s",
			 !strcmp(v, "higher") ? "more" : "less");
	else
		snprintf(buf, len, "%.*s", (int)strcspn(v, ":"), v);
	return buf;
}

/*
 * The default text (allocbench-vm(1), NOTES): the short header, one table
 * of every comparison's rows and phases, the notes about this report, one
 * line each; vm_print_report() with -v or --wide, the JSON always.
 */
static void vm_print_short(const struct vm_run *v, const char *cmd0,
			   json_object *cmps)
{
	size_t nc = cmps ? json_object_array_length(cmps) : 0, c, i;
	int wl = 6, tests = 0, counters = 0, profiles = 0, b;
	char verdict[64], cis[40], p[16], padj[16], t[512];

	print_header_short(v, cmd0);
	for (c = 0; c < nc; c++) {
		json_object *rows = ab_json_array(
			json_object_array_get_idx(cmps, c), "rows");

		tests = report_tests(json_object_array_get_idx(cmps, c));
		for (i = 0; rows && i < json_object_array_length(rows); i++) {
			const char *l = json_object_get_string(ab_json_get(
				json_object_array_get_idx(rows, i), "label"));

			if (l && (int)strlen(l) > wl)
				wl = (int)strlen(l);
		}
	}
	printf("%s%-*s %-5s %5s %9s %9s %6s  %-16s %7s %7s  %s\n",
	       nc > 1 ? "B " : "", wl, "row", "phase", "boots", "A ns/op",
	       "B ns/op", "B / A", "[95% CI, unadj.]", "p", "p adj", "verdict");
	for (c = 0; c < nc; c++) {
		json_object *cmp = json_object_array_get_idx(cmps, c);
		json_object *rows = ab_json_array(cmp, "rows");

		for (i = 0; rows && i < json_object_array_length(rows); i++) {
			json_object *r = json_object_array_get_idx(rows, i);
			json_object *ci = ab_json_array(r, "ci95");
			char boots[16];

			snprintf(boots, sizeof(boots), "%zu/%zu",
				 json_object_array_length(
					 ab_json_array(r, "boots_a")),
				 json_object_array_length(
					 ab_json_array(r, "boots_b")));
			if (ci && !isnan(num(r, "ratio")) &&
			    !isnan(ab_json_double(
				    json_object_array_get_idx(ci, 0))))
				snprintf(cis, sizeof(cis), "[%.3f, %.3f]",
					 ab_json_double(
						 json_object_array_get_idx(ci,
									   0)),
					 ab_json_double(
						 json_object_array_get_idx(ci,
									   1)));
			else
				snprintf(cis, sizeof(cis), "n/a");
			if (nc > 1)
				printf("%c ", 'B' + (int)c);
			printf("%-*s %-5s %5s", wl,
			       json_object_get_string(ab_json_get(r, "label")),
			       json_object_get_string(ab_json_get(r, "phase")),
			       boots);
			ab_print_cell(num(r, "a_ns"), " %*.1f", 9);
			ab_print_cell(num(r, "b_ns"), " %*.1f", 9);
			ab_print_cell(num(r, "ratio"), " %*.3f", 6);
			printf("  %-16s %7s %7s  %s\n", cis,
			       ab_p_text(num(r, "p"), p, sizeof(p)),
			       ab_p_text(num(r, "p_adjusted"), padj,
					 sizeof(padj)),
			       verdict_short(json_object_get_string(
						     ab_json_get(r, "verdict")),
					     verdict, sizeof(verdict)));
			counters |= ab_json_array(r, "counters") &&
				    json_object_array_length(
					    ab_json_array(r, "counters"));
			profiles |= ab_json_get(r, "profile_diff") != NULL;
		}
	}
	for (c = 0; c < nc; c++)
		vm_print_paths(ab_json_array(json_object_array_get_idx(cmps, c),
					     "rows"),
			       wl, 'B' + (char)c, 0);
	printf("\n");
	if (!nc)
		printf("note: nothing to compare: no good boot of A holds a result\n");
	for (c = 0; c < nc; c++) {
		json_object *cmp = json_object_array_get_idx(cmps, c);
		json_object *rows = ab_json_array(cmp, "rows");
		json_object *succ = ab_json_array(cmp, "success");

		b = 'B' + (int)c;
		if (!rows || !json_object_array_length(rows)) {
			snprintf(
				t, sizeof(t),
				"%c = %s: nothing to compare: no good boot of A holds a result",
				b,
				json_object_get_string(ab_json_get(cmp, "b")));
			ab_print_note("note", t);
		}
		for (i = 0; succ && i < json_object_array_length(succ); i++) {
			json_object *r = json_object_array_get_idx(succ, i);

			snprintf(
				t, sizeof(t),
				"%s: success A %.1f%%, %c %.1f%%, p adj %s: %s",
				json_object_get_string(ab_json_get(r, "label")),
				num(r, "a_pct"), b, num(r, "b_pct"),
				ab_p_text(num(r, "p_adjusted"), padj,
					  sizeof(padj)),
				verdict_short(
					json_object_get_string(
						ab_json_get(r, "verdict")),
					verdict, sizeof(verdict)));
			ab_print_note("note", t);
		}
	}
	for (i = 0; i < (size_t)v->nboots; i++)
		if (v->boots[i].status != AB_VM_OK) {
			snprintf(t, sizeof(t),
				 "boot %zu (%c = %s, round %d): %s%s%s", i + 1,
				 'A' + v->boots[i].kernel,
				 v->ks[v->boots[i].kernel].spec,
				 v->boots[i].round,
				 ab_vm_status_name(v->boots[i].status),
				 v->boots[i].why ? ": " : "",
				 v->boots[i].why ? v->boots[i].why : "");
			ab_print_note("left out", t);
		}
	if (counters)
		printf("note: counters per op over the boots, B against A: -v lists them\n");
	if (profiles)
		printf("note: --profile: each row's functions whose instructions per op changed, B - A: -v shows them\n");
	if (tests)
		printf("note: verdicts on Holm's adjusted p < %.2f over %d %s; CIs unadjusted; -v: detectable\n",
		       AB_VM_ALPHA, tests,
		       ab_noun((unsigned)tests, "test", "tests"));
	else
		no_test_why(cmps, "note: no verdict");
}

void vm_print_report(const struct vm_run *v, const char *cmd0,
		     json_object *cmps)
{
	if (!ab_out.wide && !ab_out.verbose) {
		vm_print_short(v, cmd0, cmps);
		return;
	}
	char took[32];
	json_object *c0 = cmps && json_object_array_length(cmps)
				  ? json_object_array_get_idx(cmps, 0)
				  : NULL;
	int i, tests = report_tests(c0), cut = -1;

	print_header(v, cmd0);
	vm_fmt_duration(v->seconds, took, sizeof(took));
	for (i = 0; i < v->nboots; i++)
		if (v->boots[i].status == AB_VM_INTERRUPTED)
			cut = i;
	/* an interrupted boot did not run: named, not counted */
	printf("%d of %d %s ran", v->ran, v->nboots,
	       ab_noun((unsigned)v->nboots, "boot", "boots"));
	if (cut >= 0)
		printf(" (boot %d was interrupted %s, and is not counted)",
		       cut + 1, vm_signal_words(vm_stop_signal));
	printf(", in %s\n", took);
	for (i = 0; cmps && i < (int)json_object_array_length(cmps); i++)
		print_comparison(json_object_array_get_idx(cmps, i),
				 v->threshold);
	if (!tests) {
		printf("\n");
		no_test_why(cmps, "verdict: none");
		return;
	}
	printf("\nverdict: faster or slower (a success rate: B succeeds more or less) when Holm's adjusted p < %.2f, over every row, phase and kernel of this report (so the chance of any false verdict in it stays under that; p is each test's own); \"no significant difference\" is not \"no difference\": the detectable column is the change these boots would have found 8 times in 10 (from the boot-to-boot spread seen) at Holm's first level, %.2g / %d %s, and --threshold=P%% says how many rounds a P%% change needs there. The intervals (unadj.) are each row's own 95%%, not adjusted for the report's tests: Holm adjusts p, not intervals, so an interval can leave out 1 (B / A) or 0 (B - A) where the adjusted verdict is \"no significant difference\".\n",
	       AB_VM_ALPHA, AB_VM_ALPHA, tests,
	       ab_noun((unsigned)tests, "test", "tests"));
}
