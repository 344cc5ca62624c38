#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# install.sh - `make install` into a DESTDIR puts the binary, every manual
# page and the three shells' completions where they belong; uninstall
# removes them. TAP lines.
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
if make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1 &&
	[ -x "$dest/usr/bin/allocbench" ] &&
	[ -f "$dest/usr/share/man/man1/allocbench-run.1" ] &&
	[ "$(ls "$dest/usr/share/man/man1" | wc -l)" = "$(ls man/*.1 | wc -l)" ] &&
	[ -f "$dest/usr/share/bash-completion/completions/allocbench" ] &&
	[ -f "$dest/usr/share/zsh/vendor-completions/_allocbench" ] &&
	find "$dest" -name allocbench.fish | grep -q .; then
	echo "ok - make install DESTDIR PREFIX=/usr"
else
	echo "not ok - make install DESTDIR PREFIX=/usr ($(cd "$dest" && find . -type f | head -20 | tr '\n' ' '))"
fi
make -s uninstall DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1
if [ -z "$(find "$dest" -type f)" ]; then
	echo "ok - make uninstall removes what install put"
else
	echo "not ok - make uninstall left $(cd "$dest" && find . -type f | tr '\n' ' ')"
fi
grep -q '^PACKAGE_VERSION="'"$(tail -n 1 VERSION)"'"$' dkms.conf &&
	echo "ok - dkms.conf names this version" ||
	echo "not ok - dkms.conf PACKAGE_VERSION differs from VERSION"
