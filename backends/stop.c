// SPDX-License-Identifier: GPL-2.0-only
/*
 * stop.c - the stop request (see backend.h) that the CLI's signal handler
 * sets and the backends working in this process read between trials: a
 * file of its own, below the backend table and the backends it lists.
 */
#include "backend.h"

volatile sig_atomic_t ab_stop_requested;
