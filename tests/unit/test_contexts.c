// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_contexts.c - `allocbench run --context` and --gfp where the
 * allocation may not sleep: which strategies may run with preemption or
 * IRQs off, the atomic limits, and PREEMPT_RT's refusals (lib/runopts.c;
 * the rest of its validation is test_runopts.c's).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ab_run.h"
#include "runlimits.h"
#include "runopts.h"
#include "runopts_fixture.h"

static void test_atomic_contexts(void **state)
{
	static const struct ab_strategy_info none_si = { .id = 0,
							 .name = "none" };
	struct ab_run_opts o;
	struct ab_run r;

	ab_run_opts_init(&o);
	assert_int_equal(ab_opt_context("irq-off", &o, err, sizeof(err)), 0);
	/* within AB_IRQ_OFF_MAX_OBJS (the default batch is above it) */
	o.batch = 16;
	/* GFP_KERNEL may sleep */
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--context=irq-off: GFP_KERNEL may sleep"));
	/* vmalloc takes no GFP choice at all */
	assert_int_equal(
		ab_run_prepare(&o, &info, &vmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "vmalloc_node may sleep"));
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	/* fine with GFP_ATOMIC; none needs nothing */
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(r.context, AB_CTX_IRQ_OFF);
	assert_int_equal(
		ab_run_prepare(&o, &info, &none_si, &r, err, sizeof(err)), 0);
	assert_int_equal(r.gfp, AB_GFP_KERNEL);
	/* at most AB_ATOMIC_MAX_BYTES per trial, named with the request */
	assert_int_equal(ab_opt_size("1M", &o, err, sizeof(err)), 0);
	o.batch = 65;
	assert_int_equal(ab_opt_context("preempt-off", &o, err, sizeof(err)),
			 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(
		err,
		"--batch=65: kmalloc would hold 68157440 bytes in a trial, above the limit of 67108864"));
	/* with an atomic GFP choice in process context too (part 5b) */
	assert_int_equal(ab_opt_context("normal", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "AB_ATOMIC_MAX_BYTES"));
	assert_int_equal(ab_opt_gfp("kernel", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	/* with IRQs off: AB_IRQ_OFF_MAX_OBJS and _BYTES per phase */
	assert_int_equal(ab_opt_gfp("nowait", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_context("irq-off", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_size("4K", &o, err, sizeof(err)), 0);
	o.batch = 33;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(
		err,
		"--batch=33: kmalloc would take 33 objects, 135168 bytes, with IRQs off in one phase, above the limit of 32 objects and 131072 bytes"));
	o.batch = 32;
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	/* AB_PHASE_MAX_BYTES whatever the budget */
	{
		struct ab_info big = info;

		big.max_bytes = 4ULL << 30;
		assert_int_equal(ab_opt_context("normal", &o, err, sizeof(err)),
				 0);
		assert_int_equal(ab_opt_gfp("kernel", &o, err, sizeof(err)), 0);
		o.batch = 131073;
		assert_int_equal(ab_run_prepare(&o, &big, &kmalloc_si, &r, err,
						sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(
			err,
			"--batch=131073: kmalloc would allocate 536875008 bytes in one phase, above the limit of 536870912 (AB_PHASE_MAX_BYTES"));
		o.batch = 131072;
		assert_int_equal(ab_run_prepare(&o, &big, &kmalloc_si, &r, err,
						sizeof(err)),
				 0);
	}
	assert_non_null(ab_context_warning(AB_CTX_IRQ_OFF));
	assert_null(ab_context_warning(AB_CTX_NORMAL));
}

/*
 * PREEMPT_RT: atomic contexts around allocations are refused up front,
 * whatever the GFP choice, with the value, the reason and what works;
 * "none" still runs; an older module (no flags) is not second-guessed.
 */
static void test_rt_refuses_atomic_contexts(void **state)
{
	static const struct ab_strategy_info none_si = { .id = 0,
							 .name = "none" };
	struct ab_info rt = info_with(AB_KERNEL_PREEMPT_RT);
	struct ab_info plain = info_with(AB_KERNEL_PREEMPT_DYNAMIC);
	struct ab_run_opts o;
	struct ab_run r;

	assert_int_equal(ab_kernel_flag(&rt, AB_KERNEL_PREEMPT_RT), 1);
	assert_int_equal(ab_kernel_flag(&plain, AB_KERNEL_PREEMPT_RT), 0);
	assert_int_equal(ab_kernel_flag(&info, AB_KERNEL_PREEMPT_RT), -1);
	ab_run_opts_init(&o);
	o.batch = 16; /* within AB_IRQ_OFF_MAX_OBJS */
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	assert_int_equal(ab_opt_context("preempt-off", &o, err, sizeof(err)),
			 0);
	assert_int_equal(
		ab_run_prepare(&o, &rt, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--context=preempt-off: "));
	assert_non_null(strstr(err, "PREEMPT_RT"));
	assert_non_null(strstr(err, "--context=normal"));
	assert_null(strchr(err, '\n'));
	assert_int_equal(ab_opt_context("irq-off", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &rt, &pages_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "--context=irq-off: "));
	/* GFP_KERNEL too: the reason is the kernel, not the GFP flags */
	assert_int_equal(ab_opt_gfp("kernel", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &rt, &kmalloc_si, &r, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "PREEMPT_RT"));
	assert_int_equal(
		ab_run_prepare(&o, &rt, &none_si, &r, err, sizeof(err)), 0);
	/* the normal context runs there; atomic contexts elsewhere */
	assert_int_equal(ab_opt_gfp("atomic", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &plain, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(
		ab_run_prepare(&o, &info, &kmalloc_si, &r, err, sizeof(err)),
		0);
	assert_int_equal(ab_opt_context("normal", &o, err, sizeof(err)), 0);
	assert_int_equal(
		ab_run_prepare(&o, &rt, &kmalloc_si, &r, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomic_contexts),
		cmocka_unit_test(test_rt_refuses_atomic_contexts),
	};

	return cmocka_run_group_tests_name("contexts", tests, NULL, NULL);
}
