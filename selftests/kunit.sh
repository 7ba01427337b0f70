#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pacer's KUnit suite (module/tests/kunit.c): the token bucket, the
# once-per-episode signal, the limit's victim, the sojourn histogram, the
# charge of a GSO packet, ECN marking, pacer's own header parsing
# (against the flow dissector's keys) and classification by rules, at
# their extremes (rates from 1 kbit/s to 10 tbit/s, counters at and
# past 2^32, QinQ, MPLS, PPPoE and truncated frames).  pacer_kunit.ko is
# built only for kernels with CONFIG_KUNIT (the debug kernel); loading it
# runs the suites.  Each suite's results (debugfs) must list every one of
# its cases as "ok" and none as "not ok", and the kernel log must stay
# clean (the VM runner checks it).  Skips on kernels without KUnit.
#
. "$(dirname "$0")/lib.sh"

require modprobe rmmod
# suite:cases, as module/tests/kunit.c declares them.
SUITES="pacer_bucket:4 pacer_signal:6 pacer_queue:1 pacer_hist:2 pacer_charge:1 pacer_ecn:6 pacer_parse:1 pacer_classify:3"

modinfo pacer_kunit >/dev/null 2>&1 ||
	skip "this kernel has no KUnit: pacer_kunit.ko is built only where CONFIG_KUNIT is set (the debug kernel)"
[ -d /sys/kernel/debug/kunit ] || mount -t debugfs none /sys/kernel/debug 2>/dev/null || true

step "modprobe pacer_kunit: the suites run"
modprobe pacer_kunit
[ -d /sys/kernel/debug/kunit ] || die "no /sys/kernel/debug/kunit: is CONFIG_KUNIT_DEBUGFS set?"

for sc in $SUITES; do
	suite=${sc%%:*}
	cases=${sc#*:}
	res=/sys/kernel/debug/kunit/$suite/results
	if [ ! -r "$res" ]; then
		_fail "$suite: no results at $res"
		continue
	fi
	sed 's/^/  /' "$res"
	# Case lines are indented; the suite's own verdict is not.
	check_eq "$suite: cases that passed" \
		"$(grep -cE '^[[:space:]]+ok [0-9]+ ' "$res")" "$cases"
	check_eq "$suite: cases that failed" \
		"$(grep -cE '^[[:space:]]*not ok ' "$res")" 0
done

step "rmmod pacer_kunit pacer"
rmmod pacer_kunit
rmmod pacer 2>/dev/null || true
check_eq "pacer_kunit unloaded" "$(lsmod_has pacer_kunit && echo loaded || echo gone)" gone

ksft_exit
