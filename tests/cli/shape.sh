#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# shape.sh < TEXT - the default text's shape (issue 42; allocbench-run(1),
# NOTES): a header of at most 4 lines (up to the first empty line), no line
# over 120 columns, no note ("note:", "why:", "left out:") over 100, no
# line that ends in a space (a table's last column is not padded).
# Prints what breaks it, one line each; nothing when it holds.
awk '
	!blank && $0 == "" { blank = 1; if (NR - 1 > 4) printf "header of %d lines\n", NR - 1 }
	/ $/ { printf "line %d ends in a space: %s\n", NR, substr($0, 1, 80) }
	length($0) > 120 { printf "line %d: %d columns: %s\n", NR, length($0), substr($0, 1, 80) }
	/^(note|why|left out):/ && length($0) > 100 {
		printf "line %d: a note of %d columns: %s\n", NR, length($0), substr($0, 1, 80)
	}
	END { if (!blank && NR > 4) printf "header of %d lines, no table after it\n", NR }
'
