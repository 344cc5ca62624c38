// SPDX-License-Identifier: GPL-2.0-only
/* backend.c - the backend table (see backend.h). */
#include <string.h>

#include "backend.h"

volatile sig_atomic_t ab_stop_requested;

static const struct ab_backend *const backends[] = {
	&ab_backend_kmod,
	&ab_backend_user,
};

const struct ab_backend *ab_backend_nth(unsigned int i)
{
	return i < sizeof(backends) / sizeof(backends[0]) ? backends[i] : NULL;
}

const struct ab_backend *ab_backend_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

const char *ab_backend_names(void)
{
	return "kmod, user";
}

const struct ab_strategy_info *
ab_strategy_find(const struct ab_backend_info *bi, const char *name)
{
	unsigned int i;

	for (i = 0; i < bi->info.nr_strategies; i++)
		if (!strcmp(bi->strategies[i].name, name))
			return &bi->strategies[i];
	return NULL;
}
