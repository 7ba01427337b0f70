# SPDX-License-Identifier: GPL-2.0
#
# pacer: build the module and the tool; run the tests in QEMU.
#
#   make                  module/pacer.ko and tools/pacerctl/pacerctl
#   make install          install both on this host (then: modprobe pacer)
#   make check            every selftest in a VM on Debian's kernel
#   make check-debug      the same on a KASAN/lockdep/kmemleak kernel
#   make demo             pacer at work in a VM, then pacer against a policer
#   make bench            pacer against police, ifb+htb/tbf/cake, plots in
#                         bench/results (QUICK=1: one rate, one RTT;
#                         METHODS="pacer htb": a subset; NAME=: file names)
#   make style            checkpatch --strict on the module and uapi header
#   make sparse           the module under sparse (C=1; C=2 for all files)

KDIR ?= /lib/modules/$(shell uname -r)/build
DESTDIR ?=
PREFIX ?= /usr/local
VM := tools/vm

.PHONY: all module pacerctl install clean check check-debug demo bench style sparse

all: module pacerctl

module:
	@test -d "$(KDIR)" || { echo "make: kernel headers not found at $(KDIR);" \
		"install linux-headers-$$(uname -r) or pass KDIR=/path/to/kernel/build" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

pacerctl:
	$(MAKE) -C tools/pacerctl

install: all
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install
	depmod -a
	$(MAKE) -C tools/pacerctl install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	install -D -m 0644 Documentation/pacerctl.8 $(DESTDIR)$(PREFIX)/share/man/man8/pacerctl.8

sparse:
	$(VM)/deps
	@test -d "$(KDIR)" || { echo "make: kernel headers not found at $(KDIR)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=$(or $(C),2) W=1 modules

style:
	$(VM)/deps
	$(VM)/checkpatch

check:
	$(VM)/deps
	$(MAKE) pacerctl
	$(MAKE) -C selftests
	$(VM)/check --kernel cloud

check-debug:
	$(VM)/deps --debug
	$(MAKE) pacerctl
	$(MAKE) -C selftests
	$(VM)/check --kernel debug

# The device at work, then the seed case: pacer against a policer.
demo:
	$(VM)/deps
	$(MAKE) pacerctl
	$(VM)/run --timeout 900 -- sh -c \
		'sh /pacer/selftests/demo.sh && { sh /pacer/selftests/seed004.sh; true; }'

bench:
	bench/run $(if $(QUICK),--quick) $(if $(METHODS),--methods "$(METHODS)") \
		$(if $(REPS),--reps $(REPS)) $(if $(NAME),--name $(NAME)) \
		$(if $(OUT),--out $(OUT))

clean:
	-test -d "$(KDIR)" && $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	rm -f module/*.o module/*.ko module/*.mod* module/.*.cmd module/modules.order
	rm -f Module.symvers modules.order .*.cmd
	$(MAKE) -C tools/pacerctl clean
	$(MAKE) -C selftests clean
