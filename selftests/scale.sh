#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Many classes and rules: 10,000 classes, each with one /32 rule (1,000 on
# the debug kernel), made with one "pacerctl -b" batch.
# - The device says it has them (classes, rules), and the kernel memory
#   they took (Slab and Percpu in /proc/meminfo, before and after) is at
#   most 2 KiB a class and its rule (on Debian's kernel: the debug one's
#   KASAN pads objects and quarantines freed ones).
# - Traffic to the address of the last rule is classified there: that
#   class receives every ping, that rule counts every one, and the other
#   classes receive nothing.  The rules are one shape (dst /32): the
#   packet costs one hash lookup, not 10,000 comparisons.
# - Deleting them all (another batch) leaves the device as it was, and
#   gives back what they took (within 1 MiB).
#
#   +---- NS_A ----+          +------------------- NS_B -------------------+
#   | ping         |          | vethB 10.0.22.2: ingress --> pacer0:        |
#   | vethA -------+--------->|   rules dst 10.100.x.y/32 --> classes 1..N-1 |
#   +--------------+          |   rule  dst 10.0.22.2/32  --> class N       |
#                             +--------------------------------------------+
#
# run_tests: timeout=600
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl tc ping jq

if [ "$IS_DEBUG" = 1 ]; then
	N=1000
else
	N=10000
fi
PINGS=20

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.22.1 "$NS_B" vethB 10.0.22.2
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0

# kmem: kernel memory in slabs and per-CPU areas, kB.
kmem() {
	awk '/^(Slab|Percpu):/ { s += $2 } END { print s }' /proc/meminfo
}

step "$N classes with a /32 rule each, one batch"
awk -v n="$N" 'BEGIN {
	for (i = 1; i < n; i++) {
		printf "class add dev pacer0 id %d rate 10mbit\n", i
		printf "rule add dev pacer0 pref %d dst 10.100.%d.%d/32 class %d\n",
			i, int(i / 256), i % 256, i
	}
	printf "class add dev pacer0 id %d rate 10mbit name last\n", n
	printf "rule add dev pacer0 pref %d dst 10.0.22.2/32 class %d\n", n, n
}' >"$TMPD/add"
sync
m0=$(kmem)
t0=$(now_ms)
ip netns exec "$NS_B" pacerctl -b "$TMPD/add" >/dev/null ||
	die "the batch failed"
t1=$(now_ms)
m1=$(kmem)
log "$((2 * N)) commands in $((t1 - t0)) ms; kernel memory (Slab + Percpu) $m0 kB -> $m1 kB"
dev=$(ip netns exec "$NS_B" pacerctl -j dev show dev pacer0)
check_eq "classes the device has (class 0 too)" "$(echo "$dev" | json_get 0.classes)" $((N + 1))
check_eq "rules the device has" "$(echo "$dev" | json_get 0.rules)" "$N"
# The debug kernel's KASAN pads every object and holds freed memory in
# quarantine: its figures say nothing of pacer's, and are only logged.
if [ "$IS_DEBUG" = 1 ]; then
	log "kernel memory a class and its rule: $(((m1 - m0) * 1024 / N)) bytes (KASAN's; not checked)"
else
	check_le "kernel memory a class and its rule (bytes)" \
		$(((m1 - m0) * 1024 / N)) 2048
fi

step "$PINGS pings to the address of the last rule"
ping_out=$(ip netns exec "$NS_A" ping -n -c "$PINGS" -i 0.05 -W 2 10.0.22.2 2>&1 || true)
log "$(echo "$ping_out" | tail -n 2)"
check_eq "pings answered" \
	"$(echo "$ping_out" | sed -n 's/.* \([0-9]*\) received.*/\1/p')" "$PINGS"
class_snap "$NS_B" pacer0 "$N" L
check_eq "class $N (the last rule's) rx_packets" "$L_rx_packets" "$PINGS"
# jq, not json_flat: busybox awk takes minutes over 10,000 classes' JSON;
# and the array's elements only, not a recursive descent (".."), which
# takes jq a minute over their 12 MB.
check_eq "rule $N matches" \
	"$(ip netns exec "$NS_B" pacerctl -j rule show dev pacer0 |
		jq --argjson n "$N" '[.[] | select(.pref == $n) | .matches] | first')" \
	"$PINGS"
others=$(ip netns exec "$NS_B" pacerctl -j -s class show dev pacer0 |
	jq --argjson n "$N" '[.[] | select(.id != $n and .id != 0)
		| .stats.rx_packets] | add // 0')
check_eq "rx_packets of the other $((N - 1)) classes" "$others" 0

step "delete them all, one batch"
awk -v n="$N" 'BEGIN {
	for (i = n; i >= 1; i--) {
		printf "rule del dev pacer0 pref %d\n", i
		printf "class del dev pacer0 id %d\n", i
	}
}' >"$TMPD/del"
ip netns exec "$NS_B" pacerctl -b "$TMPD/del" >/dev/null || die "the batch failed"
dev=$(ip netns exec "$NS_B" pacerctl -j dev show dev pacer0)
check_eq "classes left" "$(echo "$dev" | json_get 0.classes)" 1
check_eq "rules left" "$(echo "$dev" | json_get 0.rules)" 0
# Classes and rules are freed after RCU grace periods, which take as long
# as the host lets the guest run: poll for the memory to come back (the
# bound below), up to 20 s, rather than sleep a fixed time.
kmem_back() {
	[ $(($(kmem) - m0)) -le 1024 ]
}
if [ "$IS_DEBUG" = 1 ]; then
	sleep 2
else
	wait_for 20 kmem_back || log "kernel memory still $(($(kmem) - m0)) kB above the start after 20 s"
fi
m2=$(kmem)
log "kernel memory (Slab + Percpu) after the deletions: $m2 kB"
if [ "$IS_DEBUG" = 1 ]; then
	log "kernel memory kept after the deletions: $((m2 > m0 ? m2 - m0 : 0)) kB (KASAN's quarantine; not checked)"
else
	check_le "kernel memory kept after the deletions (kB)" $((m2 > m0 ? m2 - m0 : 0)) 1024
fi
check_invariant "$NS_B" pacer0

ksft_exit
