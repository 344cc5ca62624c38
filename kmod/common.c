// SPDX-License-Identifier: GPL-2.0
/*
 * common.c - the code of common/ that the CLI shares, compiled into the
 * module: kbuild builds only files of the module's own directory, and
 * common/ is found on the include path (Kbuild), in the checkout, the
 * installed sources (LIBDIR/src, DKMS) and vm-image.sh's copy alike.
 */
#include "ab_run.c"
