// SPDX-License-Identifier: GPL-2.0-only
/* backend.c - the backend table (see backend.h). */
#include <stdio.h>
#include <string.h>

#include "backend.h"

/* the first is the default */
static const struct ab_backend *const backends[] = {
	&ab_backend_kmod,
	&ab_backend_user,
};

#define NR_BACKENDS (sizeof(backends) / sizeof(backends[0]))

const struct ab_backend *ab_backend_nth(unsigned int i)
{
	return i < NR_BACKENDS ? backends[i] : NULL;
}

const struct ab_backend *ab_backend_find(const char *name)
{
	size_t i;

	if (!name)
		return backends[0];
	for (i = 0; i < NR_BACKENDS; i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

const char *ab_backend_names(void)
{
	static char names[64];
	size_t i, used = 0;

	if (names[0])
		return names;
	for (i = 0; i < NR_BACKENDS && used < sizeof(names); i++)
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", i ? ", " : "",
					 backends[i]->name);
	return names;
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

const struct ab_strategy_info *
ab_strategy_baseline(const struct ab_backend_info *bi)
{
	unsigned int i;

	for (i = 0; i < bi->info.nr_strategies; i++)
		if (bi->strategies[i].flags & AB_STRATEGY_BASELINE)
			return &bi->strategies[i];
	return NULL;
}
