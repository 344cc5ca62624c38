#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# lint.sh - style checks as TAP lines:
#  - kernel code (kmod/, common/ and the uapi header): scripts/checkpatch.pl --strict --no-tree from Debian's
#    linux-source-6.1 tarball (fetched once into .cache/checkpatch): no
#    errors and no warnings; CHECK lines are shown, not counted;
#  - the same files' kernel-doc comments: scripts/kernel-doc from the same
#    tarball (into the same directory) warns of nothing. Its 6.1 version
#    has no -Wall: -v turns on the checks that -Wall later grouped (Return
#    sections, short descriptions, contents before sections), and the
#    "info:" lines and warning counts -v adds are not warnings;
#  - userspace C: clang-format (the repository's .clang-format) changes
#    nothing;
#  - manual pages: mandoc -Tlint without warnings;
#  - one-way floors: no two files call each other (scripts/floors.sh, from
#    the objects built: the CLI's and the first kernel's module);
#  - every tracked file but the licence texts carries an SPDX line (and
#    but the three Debian files whose format has no room for one:
#    debian/copyright says every file's licence in DEP-5,
#    debian/changelog and debian/source/format are dpkg's);
#  - every shell script parses (sh -n), and no two guest scripts share
#    a name under /ab.
set -u
cd "$(dirname "$0")/.."
cp_dir=.cache/checkpatch
# what lint takes from linux-source-6.1's scripts/ into $cp_dir
cp_files="checkpatch.pl spelling.txt const_structs.checkpatch kernel-doc"
kernel_files="kmod/*.c kmod/*.h common/*.c common/*.h include/uapi/linux/*.h"

# fetch_scripts - the files of $cp_files that $cp_dir lacks (a cache made
# before kernel-doc was added has the others), from one download
fetch_scripts() {
	want=
	for f in $cp_files; do
		[ -f "$cp_dir/$f" ] || want="$want linux-source-6.1/scripts/$f"
	done
	[ -n "$want" ] || return 0
	tmp=$(mktemp -d)
	(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root linux-source-6.1 >/dev/null 2>&1) || {
		apt-get update -q >/dev/null 2>&1
		(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root linux-source-6.1 >/dev/null 2>&1)
	} || { rm -rf "$tmp"; return 1; }
	# --occurrence: tar stops reading once it has every file, so xz does
	# not decompress the rest of the source (12.5 s of CPU against 3 s,
	# measured on 2026-12-08); the pipe closed early is no error
	# shellcheck disable=SC2086
	dpkg-deb --fsys-tarfile "$tmp"/linux-source-6.1_*.deb 2>/dev/null |
		tar -xO ./usr/src/linux-source-6.1.tar.xz 2>/dev/null |
		tar -xJ --occurrence -C "$tmp" $want || { rm -rf "$tmp"; return 1; }
	mkdir -p "$cp_dir"
	mv "$tmp"/linux-source-6.1/scripts/* "$cp_dir/"
	rm -rf "$tmp"
}

fetch_scripts
# each checker runs once over all its files (one perl or clang-format
# start, not one per file), and its lines are told apart by file name
if [ -f "$cp_dir/checkpatch.pl" ]; then
	# shellcheck disable=SC2086
	all=$(perl "$cp_dir/checkpatch.pl" --strict --no-tree --terse --show-types -f $kernel_files 2>&1)
	for f in $kernel_files; do
		out=$(printf '%s\n' "$all" | grep -F "$f:")
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

if [ -f "$cp_dir/kernel-doc" ]; then
	# shellcheck disable=SC2086
	all=$(perl "$cp_dir/kernel-doc" -v -none $kernel_files 2>&1 |
		grep -v -E '^[^ ]+: info: |^[0-9]+ (warnings|errors)$')
	for f in $kernel_files; do
		out=$(printf '%s\n' "$all" | grep -F "$f:")
		if [ -z "$out" ]; then
			echo "ok - kernel-doc: $f"
		else
			echo "not ok - kernel-doc: $f"
			printf '%s\n' "$out" | sed 's/^/# /'
		fi
	done
else
	echo "not ok - kernel-doc: could not fetch linux-source-6.1"
fi

user_files=$(git ls-files 'cmd/*.[ch]' 'job/*.[ch]' 'lib/*.[ch]' 'backends/*.[ch]' 'tests/*.c' 'vpmu/*.[ch]')
# shellcheck disable=SC2086
bad=$(clang-format --dry-run --Werror $user_files 2>&1 |
	sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u)
for f in $user_files; do
	if ! printf '%s\n' "$bad" | grep -qxF "$f"; then
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

# one-way floors: no two files call each other (scripts/floors.sh reads
# the objects make built: the CLI's, and the module's of the first kernel)
sh scripts/floors.sh

missing=""
for f in $(git ls-files | grep -v -e '^LICENSES/' -e '^debian/copyright$' -e '^debian/changelog$' -e '^debian/source/format$'); do
	head -n 3 "$f" | grep -q 'SPDX-License-Identifier:' || missing="$missing $f"
done
if [ -z "$missing" ]; then
	echo "ok - SPDX line on every file"
else
	echo "not ok - SPDX line missing:$missing"
fi

# every shell script parses (sh -n, bash -n for a bash script): a syntax
# error in tests/run-all.sh once ended make check before its first test;
# contrib/'s and debian/tests/'s scripts are named as their engines name
# them, without .sh
bad=""
for f in $(git ls-files '*.sh') scripts/vm/init $(git grep -l '^#!/bin/.*sh' -- contrib debian/tests); do
	case $(head -n 1 "$f") in
	*bash*) bash -n "$f" 2>/dev/null || bad="$bad $f" ;;
	*) sh -n "$f" 2>/dev/null || bad="$bad $f" ;;
	esac
done
if [ -z "$bad" ]; then
	echo "ok - sh -n: every shell script parses"
else
	echo "not ok - sh -n: syntax errors in$bad"
fi

# the guest's files go to /ab/NAME (the Makefile's GUEST_SCRIPTS, and
# tests/cli/shape.sh as textshape.sh): two scripts of one name would have
# one hide the other there
dup=$( (for f in tests/lib.sh tests/kernel/*.sh bench/*.sh; do basename "$f"; done; echo textshape.sh) | sort | uniq -d | tr '\n' ' ')
if [ -z "$dup" ]; then
	echo "ok - guest scripts: every name under /ab is one file's"
else
	echo "not ok - guest scripts: $dup come from two files each (tests/kernel/ and bench/)"
fi
