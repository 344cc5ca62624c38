/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * runanswer.h - the checks of what the module answers (lib/runanswer.c),
 * for AB_IOC_INFO, AB_IOC_RUN and AB_IOC_LOOKUP. runopts.h includes this
 * header.
 */
#ifndef AB_RUNANSWER_H
#define AB_RUNANSWER_H

#include <stddef.h>
#include <stdint.h>
#include <linux/allocbench.h>

/*
 * Module answers are checked before anything reads them, so no answer can
 * make the CLI read past what it allocated or print what was not measured.
 *
 * ab_info_answer_check - after AB_IOC_INFO into @info and @si (room for
 * @have strategies): NUL-terminates every string, caps nr_strategies at
 * @have; -EPROTO with the reason in @why for a page size that is not a
 * power of two. Returns 0 otherwise.
 *
 * ab_run_answer_check - @ans is what the module wrote back for the request
 * @req, and @err what the ioctl returned (0 or -errno). Puts @req's input
 * fields back into @ans (the module cannot change the request, e.g. where
 * the samples go); without an answer (an error other than -EINTR) clears
 * the output fields and returns @err. Otherwise checks that the counts fit
 * the request (trials_done <= trials, all of them when @err is 0; objects
 * <= trials_done x batch; failed <= trials_done; node_hits <= node_checked
 * <= objects) and returns @err, or -EPROTO with the reason in @why.
 *
 * ab_lookup_answer_check - the same for AB_IOC_LOOKUP (trials_done).
 */
int ab_info_answer_check(struct ab_info *info, struct ab_strategy_info *si,
			 uint32_t have, char *why, size_t len);
int ab_run_answer_check(const struct ab_run *req, struct ab_run *ans, int err,
			char *why, size_t len);
int ab_lookup_answer_check(const struct ab_lookup *req, struct ab_lookup *ans,
			   int err, char *why, size_t len);

#endif
