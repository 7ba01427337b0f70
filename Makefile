# SPDX-License-Identifier: GPL-2.0
#
# pacer: build the module and the tool; run the tests in QEMU.
#
#   make                  module/pacer.ko and tools/pacerctl/pacerctl
#   make install          install both on this host (then: modprobe pacer);
#                         DESTDIR, PREFIX, INSTALL_MOD_PATH and KDIR as usual
#   make install-pacerctl the same without the module (what the pacerctl
#                         package holds)
#   make deb              deb/pacer-dkms_*.deb and deb/pacerctl_*.deb
#   make deb-test         build, install, check and purge both on this host
#   make check            the host's checks (checkpatch, pacerctl's unit
#                         tests, tools/host-checks, make bench QUICK=1), then
#                         every selftest in a VM on Debian's kernel
#   make check-6.12       every selftest in a VM on Debian 12's 6.12 kernel
#   make check-trixie-bpo every selftest in a VM on the newest kernel of
#                         Debian 13's backports (7.3), built in a Debian 13
#                         root (debootstrap); not part of CI
#   make check-debug      the selftests that drive the module's code paths
#                         on a KASAN/lockdep/kmemleak kernel (the list and
#                         why: tools/vm/check)
#   make demo             pacer at work in a VM, then pacer against a policer
#   make bench            pacer against police, ifb+htb/tbf/cake, plots in
#                         bench/results (REPS=N rounds, default 3; QUICK=1:
#                         one rate, one RTT, one round; METHODS="pacer
#                         htb": a subset; NAME=: file names)
#   make bench-rtt        2 vCPUs, 20 Mbit/s at RTT 10/40/80 ms (RTTS="40":
#                         fewer), 1 and 4 flows, with and without ECN: the
#                         loss/latency frontier (REPS=N rounds, default 3)
#   make bench-scale      2 vCPUs, nothing limiting: TCP (also at 40 ms RTT
#                         and forwarded), pktgen from 1 and 2 CPUs, 1 to
#                         100,000 rules, memory per class
#                         (REPS=N rounds, default 3; QUICK=1: fewer rules;
#                         WORKLOADS=pps,sock: only those)
#                         Each bench: KERNEL=cloud-6.12|trixie-bpo for
#                         another kernel than 6.1.
#   make style            checkpatch --strict on the module and uapi header
#   make sparse           the module under sparse (C=1; C=2 for all files)

KDIR ?= /lib/modules/$(shell uname -r)/build
# The kernel KDIR builds for, which may not be the running one.
KVER ?= $(or $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null),$(shell uname -r))
DESTDIR ?=
PREFIX ?= /usr/local
INSTALL_MOD_PATH ?= $(DESTDIR)
SYSTEMD_UNIT_DIR ?= /lib/systemd/system
VERSION := $(shell tools/version)
VM := tools/vm
# The module is built from module/, so that modules_install puts it in
# extra/ (not extra/module/).
KBUILD := $(MAKE) -C $(KDIR) M=$(CURDIR)/module PACER_VERSION=$(VERSION)

.PHONY: all module pacerctl install install-pacerctl deb deb-test clean check \
	check-6.12 check-trixie-bpo check-debug demo bench bench-rtt bench-scale style sparse

all: module pacerctl

module:
	@test -d "$(KDIR)" || { echo "make: kernel headers not found at $(KDIR);" \
		"install linux-headers-$$(uname -r) or pass KDIR=/path/to/kernel/build" >&2; exit 1; }
	$(KBUILD) modules

pacerctl:
	$(MAKE) -C tools/pacerctl PACER_VERSION=$(VERSION)

install: all
	$(KBUILD) INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) INSTALL_MOD_DIR=extra \
		CONFIG_MODULE_SIG_ALL= modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(KVER)
	$(MAKE) install-pacerctl

# Everything but the module: the tool, its helpers, unit, man page,
# completion, the uapi header, the family's spec and the documentation.
install-pacerctl: pacerctl
	$(MAKE) -C tools/pacerctl install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) \
		PACER_VERSION=$(VERSION)
	install -D -m 0755 tools/pacer-quick/pacer-quick \
		$(DESTDIR)$(PREFIX)/sbin/pacer-quick
	install -D -m 0644 tools/systemd/pacer@.service \
		$(DESTDIR)$(SYSTEMD_UNIT_DIR)/pacer@.service
	sed -i 's|/usr/sbin/pacer-quick|$(PREFIX)/sbin/pacer-quick|' \
		$(DESTDIR)$(SYSTEMD_UNIT_DIR)/pacer@.service
	install -D -m 0644 Documentation/pacerctl.8 \
		$(DESTDIR)$(PREFIX)/share/man/man8/pacerctl.8
	install -D -m 0644 include/uapi/linux/pacer.h \
		$(DESTDIR)$(PREFIX)/include/linux/pacer.h
	install -D -m 0644 Documentation/netlink/specs/pacer.yaml \
		$(DESTDIR)$(PREFIX)/share/pacer/pacer.yaml
	install -D -m 0644 Documentation/pacer.rst \
		$(DESTDIR)$(PREFIX)/share/doc/pacer/pacer.rst
	install -D -m 0644 tools/completion/pacerctl \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/pacerctl

# Debian packages in deb/ (tools/mkdeb says how); deb-test installs,
# checks and purges them on this host.
deb:
	$(VM)/deps --deb
	tools/mkdeb

deb-test:
	tools/deb-test

sparse:
	$(VM)/deps
	@test -d "$(KDIR)" || { echo "make: kernel headers not found at $(KDIR)" >&2; exit 1; }
	$(KBUILD) C=$(or $(C),2) W=1 modules

style:
	$(VM)/deps
	$(VM)/checkpatch

check:
	$(VM)/deps
	$(MAKE) pacerctl
	$(MAKE) -C selftests
	$(VM)/check --kernel cloud

check-6.12:
	$(VM)/deps --612
	$(MAKE) pacerctl
	$(MAKE) -C selftests
	$(VM)/check --kernel cloud-6.12

check-trixie-bpo:
	$(VM)/deps --trixie
	$(MAKE) pacerctl
	$(MAKE) -C selftests
	$(VM)/check --kernel trixie-bpo

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
		$(if $(OUT),--out $(OUT)) $(if $(KERNEL),--kernel $(KERNEL))

bench-rtt:
	bench/run --rtt $(if $(RTTS),--rtts "$(RTTS)") $(if $(METHODS),--methods "$(METHODS)") \
		$(if $(REPS),--reps $(REPS)) $(if $(NAME),--name $(NAME)) $(if $(OUT),--out $(OUT)) \
		$(if $(KERNEL),--kernel $(KERNEL))

bench-scale:
	bench/run --scale $(if $(QUICK),--quick) $(if $(REPS),--reps $(REPS)) \
		$(if $(WORKLOADS),--workloads "$(WORKLOADS)") \
		$(if $(NAME),--name $(NAME)) $(if $(OUT),--out $(OUT)) \
		$(if $(KERNEL),--kernel $(KERNEL))

clean:
	-test -d "$(KDIR)" && $(KBUILD) clean
	rm -f module/*.o module/*.ko module/*.mod* module/.*.cmd module/modules.order
	rm -f Module.symvers modules.order .*.cmd
	$(MAKE) -C tools/pacerctl clean
	$(MAKE) -C selftests clean
