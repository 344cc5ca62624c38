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
CPPFLAGS += -Iinclude/uapi -Icommon -Ilib -Ibackends -Icmd \
	    -DAB_TOOL_VERSION='"$(VERSION)"'
LDLIBS := -ldl -lpopt -ljson-c -lnuma -lpfm -lcpuset -lbitmask -lz -lm -lpthread

B := build
LIB_SRCS := lib/parse.c lib/stats.c lib/runopts.c lib/measure.c lib/env.c lib/sizes.c lib/counters.c lib/compare.c lib/placement.c lib/isolate.c lib/jsonout.c
BACKEND_SRCS := backends/backend.c backends/kmod.c backends/user.c backends/user_alloc.c
CMD_SRCS := $(wildcard cmd/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
CLI_OBJS := $(LIB_OBJS) $(BACKEND_SRCS:%.c=$(B)/%.o) $(CMD_SRCS:%.c=$(B)/%.o)
UNIT_TESTS := $(patsubst tests/unit/%.c,$(B)/tests/%,$(wildcard tests/unit/test_*.c))
GUEST_TESTS := $(B)/tests/ioctl_test

# The embedded kernel: Debian's own kernel under qemu (scripts/vm/).
CACHE ?= .cache
KFLAVOUR ?= amd64
NODES ?= 1
APPEND ?=
CMD ?= allocbench run --alloc=kmalloc --size=4096
DEMO_CMD := allocbench run --alloc=none,get_free_pages,kmalloc,kmem_cache,vmalloc_node,vmalloc_batch --size=4096 --batch=100 --trials=1000 --warmup=10 --cpu=0
KDIR ?= /lib/modules/$(shell uname -r)/build

all: allocbench

allocbench: $(CLI_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(B)/%.o: %.c $(wildcard include/uapi/linux/*.h common/*.h lib/*.h backends/*.h cmd/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/tests/test_%: tests/unit/test_%.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $^ -lcmocka $(LDLIBS)

$(B)/tests/ioctl_test: tests/kernel/ioctl_test.c include/uapi/linux/allocbench.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< -lcmocka

# Installs the Debian packages the build and the tests need (root).
deps:
	@sh scripts/install-deps.sh

# ---- the module on this machine's own kernel ----
kmod:
	@test -d $(KDIR) || { echo "allocbench: no kernel build tree at $(KDIR): install linux-headers-$$(uname -r), or pass KDIR=/path/to/build; without either, try the embedded kernel: make demo" >&2; exit 1; }
	$(MAKE) -C kmod KDIR=$(KDIR)

load: kmod
	insmod kmod/allocbench.ko

unload:
	rmmod allocbench

reload:
	-rmmod allocbench
	$(MAKE) load

# ---- the embedded kernel ----
$(B)/vm/kernel-dir: FORCE
	@mkdir -p $(dir $@)
	@sh scripts/vm/fetch-kernel.sh $(CACHE)/kernel $(KFLAVOUR) > $@.tmp
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@

$(B)/vm/kmod/allocbench.ko: $(B)/vm/kernel-dir $(wildcard kmod/*.c kmod/*.h kmod/Kbuild common/*.h) include/uapi/linux/allocbench.h VERSION
	@mkdir -p $(B)/vm/kmod
	cp kmod/*.c kmod/*.h kmod/Kbuild $(B)/vm/kmod/
	$(MAKE) -C $$(cat $(B)/vm/kernel-dir)/headers-common \
		O=$$(cat $(B)/vm/kernel-dir)/headers \
		M=$(CURDIR)/$(B)/vm/kmod AB_ROOT=$(CURDIR) modules

GUEST_SCRIPTS := $(wildcard tests/kernel/*.sh bench/*.sh)
$(B)/vm/initrd.gz: $(B)/vm/kmod/allocbench.ko allocbench $(GUEST_TESTS) $(GUEST_SCRIPTS) scripts/vm/init scripts/vm/mkinitramfs.sh
	cfg=$$(ls $$(cat $(B)/vm/kernel-dir)/boot/config-*) && \
	sh scripts/vm/mkinitramfs.sh $@ $(B)/vm/kmod/allocbench.ko \
		"$$cfg:/boot/$$(basename $$cfg)" \
		allocbench:/usr/bin/allocbench \
		$(B)/tests/ioctl_test:/ab/ioctl_test \
		$(foreach f,$(GUEST_SCRIPTS),$(f):/ab/$(notdir $(f)))

vm-image: $(B)/vm/initrd.gz

vm-run: $(B)/vm/initrd.gz
	@NODES=$(NODES) APPEND='$(APPEND)' sh scripts/vm/vm-run.sh \
		"$$(cat $(B)/vm/kernel-dir)" $(B)/vm/initrd.gz "$(CMD)"

# ---- the README's two commands ----
demo: deps
	@$(MAKE) --no-print-directory vm-run CMD='$(DEMO_CMD)' NODES=1

check: deps
	@$(MAKE) --no-print-directory allocbench $(UNIT_TESTS) vm-image
	@sh tests/run-all.sh

# Figures about allocbench itself, from the embedded kernel (never pass/fail).
bench: deps
	@$(MAKE) --no-print-directory vm-run CMD='sh /ab/bench.sh' NODES=1

# ---- install ----
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man/man1
# completion directories as the shells' pkg-config files say, with fallbacks
BASHCOMPDIR ?= $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) --variable=completionsdir bash-completion 2>/dev/null),$(PREFIX)/share/bash-completion/completions)
FISHCOMPDIR ?= $(or $(shell pkg-config --define-variable=prefix=$(PREFIX) --variable=completionsdir fish 2>/dev/null),$(PREFIX)/share/fish/vendor_completions.d)
ZSHCOMPDIR ?= $(PREFIX)/share/zsh/vendor-completions

install: allocbench
	install -D -m 0755 allocbench $(DESTDIR)$(BINDIR)/allocbench
	install -d $(DESTDIR)$(MANDIR)
	install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/
	install -D -m 0644 completions/allocbench $(DESTDIR)$(BASHCOMPDIR)/allocbench
	install -D -m 0644 completions/allocbench.fish $(DESTDIR)$(FISHCOMPDIR)/allocbench.fish
	install -D -m 0644 completions/_allocbench $(DESTDIR)$(ZSHCOMPDIR)/_allocbench

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/allocbench $(DESTDIR)$(BASHCOMPDIR)/allocbench \
	      $(DESTDIR)$(FISHCOMPDIR)/allocbench.fish $(DESTDIR)$(ZSHCOMPDIR)/_allocbench
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/,$(notdir $(wildcard man/*.1)))

# checkpatch --strict on the module, clang-format on userspace, SPDX lines.
lint:
	@sh scripts/lint.sh

clean:
	rm -rf $(B) allocbench
	-$(MAKE) -C kmod KDIR=$(KDIR) clean 2>/dev/null

.PHONY: all bench lint deps install uninstall kmod load unload reload vm-image vm-run demo check clean FORCE
