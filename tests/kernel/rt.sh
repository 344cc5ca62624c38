# SPDX-License-Identifier: GPL-2.0-only
#
# rt.sh - sourced by guest.sh: what a PREEMPT_RT kernel must refuse or do
# differently, and the same commands on other kernels.
