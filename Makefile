# SPDX-License-Identifier: GPL-2.0-only
#
# allocbench - see README.md. The first two commands of a fresh clone:
#   make demo    the 2019 experiment from Debian's kernel under qemu
#   make check   every test; ends with "N passed, N failed"

VERSION := $(shell tail -n 1 VERSION)
CC ?= gcc
CFLAGS ?= -O2 -g
CFLAGS += -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Wshadow \
	  -Wstrict-prototypes -Wmissing-prototypes
LIB_DIRS := lib/request lib/counters lib/kernel lib/results
CPPFLAGS += -Iinclude/uapi -Icommon $(addprefix -I,$(LIB_DIRS)) -Ibackends -Ijob -Icmd -I$(B)/gen \
	    -DAB_TOOL_VERSION='"$(VERSION)"'
LDLIBS := -ldl -lpopt -ljson-c -lgsl -lgslcblas -lnuma -lpfm -lcpuset -lbitmask -lz -lm -lpthread

B := build
# the vm schema made at build time (its rule: "schema" below); named here,
# before install and check name it as a prerequisite (make expands a
# rule's prerequisites where it reads the rule)
VM_SCHEMA := $(B)/schema/allocbench-vm.schema.json
LIB_SRCS := $(sort $(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
BACKEND_SRCS := $(sort $(wildcard backends/*.c))
JOB_SRCS := $(sort $(wildcard job/*.c))
# common/*.c: compiled into the module too (kmod/common.c)
COMMON_SRCS := $(sort $(wildcard common/*.c))
CMD_SRCS := $(wildcard cmd/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
CLI_OBJS := $(COMMON_SRCS:%.c=$(B)/%.o) $(LIB_OBJS) $(BACKEND_SRCS:%.c=$(B)/%.o) $(JOB_SRCS:%.c=$(B)/%.o) $(CMD_SRCS:%.c=$(B)/%.o)
# unit tests reach lib/, backends/, job/ and cmd/ (all but main())
TEST_OBJS := $(filter-out $(B)/cmd/main.o,$(CLI_OBJS))
UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))
GUEST_TESTS := $(B)/tests/ioctl_test $(B)/tests/ioctl_test32 $(B)/tests/fuzz $(B)/tests/vpmucat

# The embedded kernel (scripts/vm/): KERNEL names it everywhere (demo,
# vm-run, check, bench): a Debian series (6.1, 6.12, 6.1-rt, 6.12-rt), an
# exact Debian release (6.1.0-57-amd64), or a path to a kernel build tree.
# Each kernel gets its own build/vm/<KERNEL>/ (module, initramfs).
CACHE ?= .cache
KERNEL ?= 6.1
# `make check` runs the in-guest suite on each of these; KERNEL=... on the
# command line narrows it to that one kernel.
CHECK_KERNELS ?= $(if $(filter command line,$(origin KERNEL)),$(KERNEL),6.1 6.12 6.12-rt 7.3)
NODES ?= 1
APPEND ?=
# VM_CPU=MODEL: qemu's -cpu model of the guest (default: qemu's, qemu64)
VM_CPU ?=
# VM_SMP=N: the guest's vCPUs, 1 to 16 (default 2), run in turn (TCG)
VM_SMP ?= 2
# VPMU=exact (or 1) or model: boot with the virtual PMU (vpmu/abvpmu.c):
# vm-run, demo and bench; check boots every guest with it
VPMU ?=
CMD ?= allocbench run --alloc=kmalloc --size=4096
DEMO_CMD := allocbench run --alloc=none,get_free_pages,kmalloc,kmem_cache,vmalloc_node,vmalloc_batch --size=4096 --batch=100 --trials=1000 --warmup=10 --cpu=0
# a shell word for $(1), single-quoted whatever it holds
sq = '$(subst ','\'',$(1))'
vm_id = $(shell printf '%s' $(call sq,$(1)) | tr -c 'A-Za-z0-9._-' '_')
VMB := $(B)/vm/$(call vm_id,$(KERNEL))
KDIR ?= /lib/modules/$(shell uname -r)/build

all: allocbench vpmu schema

# The virtual PMU (vpmu/abvpmu.c): a QEMU TCG plugin, and the calibration
# program its test runs under qemu-x86_64 (tests/vpmu/vpmu.sh)
VPMU_SO := $(B)/vpmu/abvpmu.so
$(VPMU_SO): vpmu/abvpmu.c vpmu/vpmu_insn.c vpmu/vpmu_insn.h vpmu/vpmu_irq.c vpmu/vpmu_irq.h vpmu/vpmu_vcpu.h vpmu/vpmu_model.c vpmu/vpmu_model.h vpmu/vpmu_shm.c vpmu/vpmu_shm.h vpmu/qemu_api.h common/ab_vpmu.h
	@mkdir -p $(dir $@)
	$(CC) -Icommon $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -shared -fPIC -fvisibility=hidden -o $@ vpmu/abvpmu.c vpmu/vpmu_insn.c vpmu/vpmu_irq.c vpmu/vpmu_model.c vpmu/vpmu_shm.c
$(B)/vpmu/calib: tests/vpmu/calib.c common/ab_vpmu.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -static -o $@ $<
$(B)/vpmu/mallockat: tests/vpmu/mallockat.c common/ab_vpmu.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $<
vpmu: $(VPMU_SO) $(B)/vpmu/calib $(B)/vpmu/mallockat $(B)/tests/vpmucat

allocbench: $(CLI_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

# each object depends on the headers it includes, as the compiler lists
# them (-MMD: build/X.d beside build/X.o; -MP: a header removed is no
# error); an object without its .d (built before) is built again
$(B)/%.o: %.c $(B)/%.d
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<
$(B)/%.d: ;
.PRECIOUS: $(B)/%.d
-include $(CLI_OBJS:.o=.d)

# The saved document is described once, in
# schema/allocbench-result.schema.json: the reader's rules
# (lib/results/jsonin.c) are made from it.
$(B)/gen/jsonin_rules.h: schema/allocbench-result.schema.json scripts/schema-rules.py
	@mkdir -p $(dir $@)
	python3 scripts/schema-rules.py $< >$@.tmp && mv $@.tmp $@
$(B)/lib/results/jsonin.o: $(B)/gen/jsonin_rules.h

# `allocbench vm` outside a source checkout finds its scripts and the
# module's sources here (make install puts them there)
LIBDIR ?= $(PREFIX)/lib/allocbench
$(B)/cmd/vm_boot.o: CPPFLAGS += -DAB_LIBDIR='"$(LIBDIR)"'
# vm_boot.o is built again when LIBDIR changes (make install PREFIX=DIR after a
# plain make): the installed binary looks for its scripts in DIR
$(B)/cmd/vm_boot.o: $(B)/libdir
$(B)/libdir: FORCE
	@mkdir -p $(B)
	@printf '%s\n' '$(LIBDIR)' | cmp -s - $@ || printf '%s\n' '$(LIBDIR)' >$@

$(B)/tests/test_%: tests/unit/test_%.c $(TEST_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

# The in-guest programs: each one binary of its tests/kernel/ files (the
# raw-ioctl suite ioctl_*.c, the fuzzer fuzz*.c) and the helpers both
# share (ab_testlib.c), rebuilt when any header of tests/kernel/,
# common/ or the uapi changes.
GUEST_LIB_SRCS := tests/kernel/ab_testlib.c $(COMMON_SRCS)
IOCTL_TEST_SRCS := $(sort $(wildcard tests/kernel/ioctl_*.c)) $(GUEST_LIB_SRCS)
FUZZ_SRCS := $(sort $(wildcard tests/kernel/fuzz*.c)) $(GUEST_LIB_SRCS)
GUEST_HDRS := $(wildcard tests/kernel/*.h include/uapi/linux/*.h common/*.h)

$(B)/tests/ioctl_test: $(IOCTL_TEST_SRCS) $(GUEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(IOCTL_TEST_SRCS) -lcmocka

# The same suite from 32-bit processes (the kernel's compat ioctl path):
# gcc-multilib and libcmocka-dev:i386 (scripts/install-deps.sh).
$(B)/tests/ioctl_test32: $(IOCTL_TEST_SRCS) $(GUEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -m32 $(CPPFLAGS) $(CFLAGS) -o $@ $(IOCTL_TEST_SRCS) -lcmocka

$(B)/tests/fuzz: $(FUZZ_SRCS) $(GUEST_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $(FUZZ_SRCS) -lpthread

# tests/kernel/vpmu.sh's reader of the virtual PMU's stream in the guest
$(B)/tests/vpmucat: tests/kernel/vpmucat.c lib/counters/vpmushm.c lib/counters/vpmushm.h lib/counters/vpmu.h common/ab_vpmu.h
	@mkdir -p $(dir $@)
	$(CC) -Icommon -Ilib/counters $(CPPFLAGS) $(CFLAGS) -o $@ tests/kernel/vpmucat.c lib/counters/vpmushm.c

# Installs the Debian packages the build and the tests need (root).
deps:
	@sh scripts/install-deps.sh

# ---- the module on this machine's own kernel ----
# KDIR=TREE, or Debian's split header packages as KDIR=<the -common
# headers> O=<the arch headers>; both made absolute here, as kbuild reads
# them from kmod/
kmod:
	@test -d $(KDIR) || { echo "allocbench: no kernel build tree at $(KDIR): install linux-headers-$$(uname -r), or pass KDIR=/path/to/build; without either, try the embedded kernel: make demo" >&2; exit 1; }
	@$(if $(O),test -d $(O) || { echo "allocbench: O=$(O): no such directory (with Debian's split headers, KDIR is linux-headers-RELEASE-common and O is linux-headers-RELEASE)" >&2; exit 1; })
	$(MAKE) -C kmod KDIR=$(abspath $(KDIR)) $(if $(O),O=$(abspath $(O)))

load: kmod
	insmod kmod/allocbench.ko

unload:
	rmmod allocbench

reload:
	-rmmod allocbench
	$(MAKE) load

# ---- DKMS: allocbench.ko rebuilt for every installed kernel (root) ----
# Only the module's sources go to /usr/src/allocbench-VERSION (not the
# build tree or .cache): install-dkms (DESTDIR=..., as the allocbench-dkms
# package does; install_dkms_src below); KVER=RELEASE builds for one
# kernel, default: the running one.
DKMS_SRC := /usr/src/allocbench-$(VERSION)
dkms: dkms-remove
	@command -v dkms >/dev/null || { echo "allocbench: dkms is not installed: apt-get install dkms" >&2; exit 1; }
	$(call install_dkms_src,$(DKMS_SRC))
	dkms add allocbench/$(VERSION)
	dkms build allocbench/$(VERSION) -k $(or $(KVER),$(shell uname -r))
	dkms install allocbench/$(VERSION) -k $(or $(KVER),$(shell uname -r))

install-dkms:
	$(call install_dkms_src,$(DESTDIR)$(DKMS_SRC))

# every version DKMS knows, so an older one cannot stay registered
dkms-remove:
	@command -v dkms >/dev/null || exit 0; \
	for v in $$(dkms status allocbench 2>/dev/null | sed -n 's|^allocbench/\([^,:]*\).*|\1|p' | sort -u); do \
		echo "dkms remove allocbench/$$v --all"; dkms remove "allocbench/$$v" --all >/dev/null || exit 1; \
	done
	rm -rf /usr/src/allocbench-*

# ---- the embedded kernel ----
# scripts/vm/vm-image.sh makes build/vm/<KERNEL>/: kernel-dir (the kernel,
# downloaded once into $(CACHE)), the module (kmod/build.log is kept: it
# must hold no warning) and the initramfs, each step only when something
# it depends on changed; `allocbench vm` makes its images with it too.
GUEST_SCRIPTS := tests/lib.sh $(wildcard tests/kernel/*.sh bench/*.sh)
GUEST_FILES := $(foreach t,$(GUEST_TESTS),$(t):/ab/$(notdir $(t))) \
	$(foreach f,$(GUEST_SCRIPTS),$(f):/ab/$(notdir $(f))) \
	tests/cli/shape.sh:/ab/textshape.sh
$(VMB)/initrd.gz: allocbench $(GUEST_TESTS) FORCE
	@sh scripts/vm/vm-image.sh $(call sq,$(KERNEL)) $(CACHE) $(VMB) $(CURDIR) allocbench $(GUEST_FILES)

vm-image: $(VMB)/initrd.gz

# CMD reaches the guest's shell verbatim: make hands it over in the
# environment, never through the host shell's quoting.
vm-run: export AB_VM_CMD = $(value CMD)
vm-run: $(VMB)/initrd.gz $(if $(filter-out 0 off,$(VPMU)),$(VPMU_SO))
	@NODES=$(NODES) APPEND=$(call sq,$(APPEND)) VPMU=$(call sq,$(VPMU)) VM_CPU=$(call sq,$(VM_CPU)) VM_SMP=$(call sq,$(VM_SMP)) sh scripts/vm/vm-run.sh \
		"$$(cat $(VMB)/kernel-dir)" $(VMB)/initrd.gz "$$AB_VM_CMD"

# Every kernel of the check matrix, built (a sub-make each), two at a time:
# unpacking a kernel's packages and making its initramfs keep one core
# busy each (a fresh clone's four images: 132 s one at a time).
vm-images: allocbench $(GUEST_TESTS)
	@printf '%s\n' $(foreach k,$(CHECK_KERNELS),$(call sq,$(k))) | \
		xargs -d '\n' -P 2 -I{} $(MAKE) --no-print-directory vm-image KERNEL={} >&2
	@printf '%s\n' $(foreach k,$(CHECK_KERNELS),$(call sq,$(k) $(CURDIR)/$(B)/vm/$(call vm_id,$(k)))) > $(B)/vm/matrix.tmp && \
		mv $(B)/vm/matrix.tmp $(B)/vm/matrix

# ---- the README's two commands ----
demo: deps
	@$(MAKE) --no-print-directory vm-run CMD='$(DEMO_CMD)' NODES=1

# make check LOAD=1: the whole suite beside two busy loops and a spinning
# TCG guest (it must pass on a busy machine as on an idle one). The closing table times
# each part from make check's start (AB_CHECK_T0, when make read this file).
LOAD ?= 0
check: export AB_CHECK_T0 := $(shell date +%s)
check: deps
	@mkdir -p $(B)/vm
	@date +%s >$(B)/vm/check-t1
	@$(MAKE) --no-print-directory -j$$(nproc) allocbench vpmu schema $(UNIT_TESTS)
	@rm -f $(B)/vm/matrix
	@AB_CHECK_T1=$$(cat $(B)/vm/check-t1) AB_IMAGES_CMD='$(MAKE) --no-print-directory vm-images' \
		LOAD=$(LOAD) VPMU=$(call sq,$(VPMU)) sh tests/run-all.sh $(B)/vm/matrix

# Figures about allocbench itself, from the embedded kernel (never pass/fail);
# then the false-positive rate of `allocbench vm` A/A over VM_AA_RUNS runs,
# then the virtual PMU's slowdown per mode and its A/A (bench/vm-vpmu.sh),
# then the A/A sensitivity of ns/op to each guest setting (bench/vm-noise.sh),
# then what each guest CPU model patches in and costs (bench/vm-cpu-models.sh),
# then allocbench's page_frag beside the kernel's own page_frag test module
# in one 7.3 boot (bench/vm-page-frag.sh; the module is 6.13+, so 7.3 always).
VM_AA_RUNS ?= 8
bench: deps
	@$(MAKE) --no-print-directory vm-run CMD='sh /ab/bench.sh' NODES=1
	@$(MAKE) --no-print-directory allocbench
	@sh bench/vm-aa.sh $(VM_AA_RUNS) $(KERNEL)
	@sh bench/vm-vpmu.sh $(KERNEL)
	@sh bench/vm-noise.sh $(KERNEL)
	@sh bench/vm-cpu-models.sh $(KERNEL)
	@sh bench/vm-page-frag.sh

# ---- install ----
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
# completion directories as the shells' pkg-config files say when that is
# under PREFIX, else the usual place under PREFIX: bash-completion's .pc
# hard-codes datadir=/usr/share, so --define-variable=prefix= does not move
# it, and make install PREFIX=/tmp/x must write nothing outside /tmp/x
pc_compdir = $(or $(filter $(PREFIX)/%,$(shell pkg-config --define-variable=prefix=$(PREFIX) --variable=completionsdir $(1) 2>/dev/null)),$(PREFIX)/$(2))
BASHCOMPDIR ?= $(call pc_compdir,bash-completion,share/bash-completion/completions)
FISHCOMPDIR ?= $(call pc_compdir,fish,share/fish/vendor_completions.d)
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions

# what `allocbench vm` needs outside a checkout: the embedded kernel's
# scripts (the guest's init among them) and ab-out.c, the guest's program
# they build, and the module's sources to build it for each kernel
VM_SCRIPTS := $(addprefix scripts/vm/,vm-image.sh vm-run.sh pvh-image.sh fetch-kernel.sh build-kmod.sh mkinitramfs.sh init)
# the JSON documents' schemas, in SHAREDIR/schema
SHAREDIR ?= $(PREFIX)/share/allocbench

# The module's sources, the one list of them: installed in LIBDIR/src for
# `allocbench vm`, in DKMS_SRC with dkms.conf for DKMS (make dkms,
# install-dkms, the allocbench-dkms package); kmod/Makefile builds them
# there as in the checkout.
KMOD_FILES := $(sort $(wildcard kmod/*.c kmod/*.h)) kmod/Kbuild kmod/Makefile
# install_kmod_src DIR: the module's sources under DIR, as laid out here
define install_kmod_src
install -d $(1)/kmod $(1)/common $(1)/include/uapi/linux
install -m 0644 $(KMOD_FILES) $(1)/kmod/
install -m 0644 $(sort $(wildcard common/*.h common/*.c)) $(1)/common/
install -m 0644 $(sort $(wildcard include/uapi/linux/*.h)) $(1)/include/uapi/linux/
install -m 0644 VERSION $(1)/
endef
# install_dkms_src DIR: the same, and dkms.conf
define install_dkms_src
$(call install_kmod_src,$(1))
install -m 0644 dkms.conf $(1)/
endef

# The one list of installed files: the Debian package (debian/rules), the
# LKP package (contrib/lkp-tests/.../PKGBUILD) and the Fastpath container
# all install with this rule.
install: allocbench $(VPMU_SO) $(VM_SCHEMA)
	install -D -m 0755 allocbench $(DESTDIR)$(BINDIR)/allocbench
	install -d $(DESTDIR)$(MANDIR)
	install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/
	install -D -m 0644 completions/allocbench $(DESTDIR)$(BASHCOMPDIR)/allocbench
	install -D -m 0644 completions/allocbench.fish $(DESTDIR)$(FISHCOMPDIR)/allocbench.fish
	install -D -m 0644 completions/_allocbench $(DESTDIR)$(ZSHCOMPDIR)/_allocbench
	install -d $(DESTDIR)$(SHAREDIR)/schema
	install -m 0644 schema/allocbench-result.schema.json $(VM_SCHEMA) $(DESTDIR)$(SHAREDIR)/schema/
	install -d $(DESTDIR)$(LIBDIR)/vm
	install -m 0755 $(VM_SCRIPTS) $(DESTDIR)$(LIBDIR)/vm/
	install -m 0644 scripts/vm/ab-out.c $(DESTDIR)$(LIBDIR)/vm/
	$(call install_kmod_src,$(DESTDIR)$(LIBDIR)/src)
	install -D -m 0644 $(VPMU_SO) $(DESTDIR)$(LIBDIR)/vpmu/abvpmu.so

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/allocbench $(DESTDIR)$(BASHCOMPDIR)/allocbench \
	      $(DESTDIR)$(FISHCOMPDIR)/allocbench.fish $(DESTDIR)$(ZSHCOMPDIR)/_allocbench
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/,$(notdir $(wildcard man/*.1)))
	rm -rf $(DESTDIR)$(LIBDIR) $(DESTDIR)$(SHAREDIR)

# ---- Debian packages (docs/packages.md) ----
# allocbench and allocbench-dkms, and the source package, in $(B)/deb/,
# built by dpkg-buildpackage from a copy of the tracked files (as in this
# tree, edits included) in $(B)/deb/allocbench-VERSION: debian/rules clean
# would remove this tree's build/, and the source package must not hold it
# or .cache/.
DEB_DIR := $(B)/deb/allocbench-$(VERSION)
deb:
	@command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || { echo "allocbench: make deb needs dpkg-dev and debhelper: make deps" >&2; exit 1; }
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "allocbench: make deb copies the files git tracks: run it in a clone (or dpkg-buildpackage -us -uc -b in an unpacked tree)" >&2; exit 1; }
	rm -rf $(B)/deb
	mkdir -p $(DEB_DIR)
	git ls-files -z | xargs -0 sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' sh | cpio -p0dm --quiet $(DEB_DIR)
	cd $(DEB_DIR) && dpkg-buildpackage -us -uc -J
	@ls $(B)/deb/*.deb $(B)/deb/*.dsc

# The vm schema carries the result schema whole in its $defs (so it
# validates without --base-uri): made here from its source and the result
# schema, which is written once.
$(VM_SCHEMA): schema/allocbench-vm.schema.json.in schema/allocbench-result.schema.json scripts/bundle-schema.py
	@mkdir -p $(dir $@)
	python3 scripts/bundle-schema.py $(wordlist 1,2,$^) $@
schema: $(VM_SCHEMA)

# checkpatch --strict and kernel-doc on the module, clang-format on
# userspace, one-way floors (from the CLI's objects, built first, and the
# module's of the first kernel built), SPDX lines.
# its status is 1 when any check printed "not ok"
lint: allocbench
	@mkdir -p $(B)
	@sh scripts/lint.sh >$(B)/lint.tap 2>&1; st=$$?; cat $(B)/lint.tap; \
		[ $$st = 0 ] && ! grep -q '^not ok' $(B)/lint.tap

clean:
	rm -rf $(B) allocbench
	-$(MAKE) -C kmod KDIR=$(abspath $(KDIR)) $(if $(O),O=$(abspath $(O))) clean 2>/dev/null

.PHONY: all vpmu bench lint schema deps install uninstall install-dkms deb dkms dkms-remove kmod load unload reload vm-image vm-images vm-run demo check clean FORCE
