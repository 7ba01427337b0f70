#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Egress traffic redirected from a root qdisc's filter, as the classic ifb
# recipe does it ("tc filter add dev X parent 1: ... mirred egress
# redirect dev ifb0"): there mirred runs inside the qdisc's enqueue, with
# its lock held, and pacer0 must not send the packet back into that same
# qdisc from its xmit (the kernel drops such a packet as a loop, or an
# older one deadlocks); it sends it from its shaper's poll.
# - 20 pings through class 0 (unlimited: every packet could leave at
#   once) and 20 through class 1 (rate 1mbit) are all answered;
# - pacer0 re-injected every packet it took (tx = rx, nothing dropped),
#   and vethA sent them (its tx grew by at least pacer0's tx).
#
#   +------------------ NS_A -------------------+       +---- NS_B ----+
#   | ping 10.0.41.2                            |       |              |
#   |  --> vethA root prio 1: matchall mirred   |       |              |
#   |      redirect --> pacer0                  |       |              |
#   |  <-- re-injected: dev_queue_xmit(vethA) --+-------+-> vethB      |
#   |      10.0.41.1                            |       |   10.0.41.2  |
#   +-------------------------------------------+       +--------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl tc jq ping

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.41.1 "$NS_B" vethB 10.0.41.2
pacer_add "$NS_A" pacer0
tc -n "$NS_A" qdisc add dev vethA root handle 1: prio
tc -n "$NS_A" filter add dev vethA parent 1: matchall \
	action mirred egress redirect dev pacer0

# pings_through NAME: 20 pings from NS_A, and what pacer0 and vethA
# counted meanwhile.
pings_through() {
	wait_pacer_idle "$NS_A" pacer0
	pacer_snap "$NS_A" pacer0 P0
	link_snap "$NS_A" vethA V0
	ip netns exec "$NS_A" ping -n -q -c 20 -i 0.05 -W 2 10.0.41.2 \
		>"$TMPD/ping" 2>&1 || true
	wait_pacer_idle "$NS_A" pacer0
	pacer_snap "$NS_A" pacer0 P1
	link_snap "$NS_A" vethA V1
	log "$(tail -n 2 "$TMPD/ping" | words)"
	check_eq "$1: pings answered" \
		"$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$TMPD/ping")" 20
	RX=$(pacer_delta P1 P0 rx_packets)
	TX=$(pacer_delta P1 P0 tx_packets)
	check_ge "$1: packets pacer0 took" "$RX" 20
	check_eq "$1: packets pacer0 re-injected" "$TX" "$RX"
	check_eq "$1: packets pacer0 dropped" \
		$(($(pacer_drops P1) - $(pacer_drops P0))) 0
	check_ge "$1: packets vethA sent" \
		$((V1_tx_packets - V0_tx_packets)) "$TX"
}

step "class 0: unlimited"
pings_through "class 0"

step "class 1: 1mbit"
pc "$NS_A" class add dev pacer0 id 1 rate 1mbit
pc "$NS_A" rule add dev pacer0 dst 10.0.41.2/32 class 1
pings_through "class 1"
class_snap "$NS_A" pacer0 1 C1
check_ge "class 1: packets it took" "$C1_rx_packets" 20

check_invariant "$NS_A" pacer0
ksft_exit
