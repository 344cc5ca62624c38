#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# install.sh - `make install` into a DESTDIR puts the binary, every manual
# page, the three shells' completions, the schemas and the vm scripts where
# they belong; uninstall removes them. TAP lines.
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
if make -s install DESTDIR="$dest" PREFIX=/usr >/dev/null 2>&1 &&
	[ -x "$dest/usr/bin/allocbench" ] &&
	[ -f "$dest/usr/share/man/man1/allocbench-run.1" ] &&
	[ "$(ls "$dest/usr/share/man/man1" | wc -l)" = "$(ls man/*.1 | wc -l)" ] &&
	[ -f "$dest/usr/share/bash-completion/completions/allocbench" ] &&
	[ -f "$dest/usr/share/zsh/vendor-completions/_allocbench" ] &&
	[ -f "$dest/usr/share/allocbench/schema/allocbench-result.schema.json" ] &&
	[ -f "$dest/usr/share/allocbench/schema/allocbench-vm.schema.json" ] &&
	[ -x "$dest/usr/lib/allocbench/vm/vm-image.sh" ] &&
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
# PREFIX alone (no DESTDIR): everything under PREFIX, the completions too
# (bash-completion's pkg-config file names /usr/share whatever the prefix).
# The dry run is checked first, so a broken Makefile writes nothing outside.
pre=$dest/prefix
outside=$(make -s -n install PREFIX="$pre" 2>/dev/null | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' |
	awk '$1 == "install" { for (i = 2; i <= NF; i++) if ($i ~ /^\//) print $i }' | grep -v "^$pre/")
if [ -n "$outside" ]; then
	echo "not ok - make install PREFIX=DIR writes outside DIR: $(printf '%s' "$outside" | tr '\n' ' ')"
elif make -s install PREFIX="$pre" >/dev/null 2>&1 &&
	[ -x "$pre/bin/allocbench" ] &&
	[ -f "$pre/share/bash-completion/completions/allocbench" ] &&
	[ -f "$pre/share/fish/vendor_completions.d/allocbench.fish" ] &&
	[ -f "$pre/share/zsh/vendor-completions/_allocbench" ] &&
	[ -f "$pre/lib/allocbench/vm/vm-image.sh" ]; then
	echo "ok - make install PREFIX=DIR puts everything under DIR, the bash completion included"
else
	echo "not ok - make install PREFIX=DIR ($(cd "$pre" 2>/dev/null && find . -type f | head -20 | tr '\n' ' '))"
fi
# the installed binary finds its scripts under PREFIX (vm_boot.o is built
# again for that LIBDIR): a name that is no kernel reaches fetch-kernel.sh
out=$(ALLOCBENCH_CACHE="$dest/cache" "$pre/bin/allocbench" vm --accel=tcg -k 5.x -- run 2>&1)
st=$?
case $st:$out in
2:*"KERNEL=5.x: not a kernel"*) echo "ok - make install PREFIX=DIR: the installed allocbench vm finds its scripts in DIR/lib/allocbench" ;;
*) echo "not ok - make install PREFIX=DIR: the installed allocbench vm (exit $st: $(printf '%s' "$out" | tail -n 1))" ;;
esac
make -s uninstall PREFIX="$pre" >/dev/null 2>&1
if [ -z "$(find "$pre" -type f 2>/dev/null)" ]; then
	echo "ok - make uninstall PREFIX=DIR removes what install put"
else
	echo "not ok - make uninstall PREFIX=DIR left $(cd "$pre" && find . -type f | tr '\n' ' ')"
fi
grep -q '^PACKAGE_VERSION="'"$(tail -n 1 VERSION)"'"$' dkms.conf &&
	echo "ok - dkms.conf names this version" ||
	echo "not ok - dkms.conf PACKAGE_VERSION differs from VERSION"
# debian/changelog's version is VERSION's (debian/rules refuses to build
# the packages otherwise)
v=$(sed -n '1s/^allocbench (\([^)]*\)).*/\1/p' debian/changelog)
[ "$v" = "$(tail -n 1 VERSION)" ] &&
	echo "ok - debian/changelog names this version" ||
	echo "not ok - debian/changelog's version ($v) differs from VERSION ($(tail -n 1 VERSION))"
