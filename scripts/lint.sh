#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lint.sh - style checks as TAP lines:
#  - kernel code (kmod/, common/ and the uapi header): scripts/checkpatch.pl --strict --no-tree from Debian's
#    linux-source-6.1 tarball (fetched once into .cache/checkpatch): no
#    errors and no warnings; CHECK lines are shown, not counted;
#  - userspace C: clang-format (the repository's .clang-format) changes
#    nothing;
#  - manual pages: mandoc -Tlint without warnings;
#  - every tracked file but the licence texts carries an SPDX line.
set -u
cd "$(dirname "$0")/.."
cp_dir=.cache/checkpatch

fetch_checkpatch() {
	[ -f "$cp_dir/checkpatch.pl" ] && return 0
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root linux-source-6.1 >/dev/null 2>&1) || {
		apt-get update -q >/dev/null 2>&1
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root linux-source-6.1 >/dev/null 2>&1)
	} || { rm -rf "$tmp"; return 1; }
	dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.1_*.deb |
		tar -xO ./usr/src/linux-source-6.1.tar.xz |
		tar -xJ -C "$tmp" linux-source-6.1/scripts/checkpatch.pl \
			linux-source-6.1/scripts/spelling.txt \
			linux-source-6.1/scripts/const_structs.checkpatch || { rm -rf "$tmp"; return 1; }
	mkdir -p "$cp_dir"
	mv "$tmp"/linux-source-6.1/scripts/* "$cp_dir/"
	rm -rf "$tmp"
}

if fetch_checkpatch; then
	for f in kmod/*.c kmod/*.h common/*.h include/uapi/linux/*.h; do
		out=$(perl "$cp_dir/checkpatch.pl" --strict --no-tree --terse --show-types -f "$f" 2>&1)
		printf '%s\n' "$out" | grep ': CHECK:' | sed 's/^/# /'
		if printf '%s\n' "$out" | grep -q -E ': (ERROR|WARNING):'; then
			echo "not ok - checkpatch --strict: $f"
			printf '%s\n' "$out" | grep -E ': (ERROR|WARNING):' | sed 's/^/# /'
		else
			echo "ok - checkpatch --strict: $f"
		fi
	done
else
	echo "not ok - checkpatch: could not fetch linux-source-6.1"
fi

for f in $(git ls-files 'cmd/*.[ch]' 'lib/*.[ch]' 'backends/*.[ch]' 'tests/*.c'); do
	if clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
		echo "ok - clang-format: $f"
	else
		echo "not ok - clang-format: $f (clang-format -i $f)"
	fi
done

for f in man/*.1; do
	if out=$(mandoc -Tlint -W warning "$f" 2>&1) && [ -z "$out" ]; then
		echo "ok - mandoc -Tlint: $f"
	else
		echo "not ok - mandoc -Tlint: $f: $(printf '%s' "$out" | head -c 300)"
	fi
done

missing=""
for f in $(git ls-files | grep -v '^LICENSES/'); do
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier:' || missing="$missing $f"
done
if [ -z "$missing" ]; then
	echo "ok - SPDX line on every file"
else
	echo "not ok - SPDX line missing:$missing"
fi
