#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One flow whose packets move between CPUs keeps its order through
# pacer, as when RFS follows its application to another core or a NIC's
# RSS table is rewritten.  One ECN-capable TCP flow from NS_A to NS_B.
# vethA does no TSO, so its segments go one by one into vethB's receive
# ring; vethB does GRO, so a NAPI context takes them from that ring, in
# the order they were sent, and hands GSO packets of several segments to
# its ingress and pacer0.  That NAPI context is a real-time thread
# (threaded NAPI, SCHED_FIFO) moved from CPU 0 to CPU 1 and back every
# quarter of a second: the flow's packets reach pacer0 in order, on both
# CPUs.
#
# Over veth with TSO the sender's packets instead wait in the receive
# backlog of whichever CPU sent them (the one its ACKs arrived on), and a
# packet sent later from the other CPU can reach any ingress shaper
# first: measured at pacer0's entry, 1-2 such packets per 5 s run at
# 100 Mbit/s when pacer0 splits GSO.  That is not what this test looks
# at, so its path has none.
#
# Three cases, SECS seconds each: class 1 at 10 Gbit/s (never the
# bottleneck; the flow as fast as the guest carries it), then at a
# quarter of that (100 Mbit/s at most) with "gso split" and with "gso
# keep".  In each:
#    - premise: CPUs 0 and 1 received every packet of the class, each a
#      quarter or more (pacerctl -s -s dev show); when the class shapes,
#      some of them arrived on the CPU that did not hold their flow and
#      joined it there (joined > 0); nothing was lost before pacer0
#      (vethA's and vethB's drop counters);
#    - the receiver queued no segment out of order (TcpExtTCPOFOQueue);
#    - the sender got no DSACK but those a segment resent on a timer
#      explains (TcpExtTCPDSACKRecv <= TcpExtTCPLossProbes +
#      TcpExtTCPTimeouts + TcpExtTCPSlowStartRetrans);
#    - class 1 dropped nothing (the flow is ECN-capable), so no loss put
#      later segments out of order either; its invariant holds;
#    - shaped: the flow got within TOL % of rate x 1448/1514.
#
#   +------- NS_A -------+          +------------- NS_B ---------------+
#   | iperf3 -c          |          | vethB 10.0.42.2: GRO, NAPI thread |
#   | vethA 10.0.42.1 ---+--------->|   on CPU 0, 1, 0, ... (0.25 s)    |
#   |   no TSO           |          |   ingress --> pacer0: class 1     |
#   +--------------------+          +-----------------------------------+
#
# run_tests: timeout=240
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc nstat taskset ethtool chrt

[ "$(nproc)" -ge 2 ] || skip "one CPU: nothing to move between"
SECS=6
TOL=1
FROM=2
# The flow's socket buffers (iperf3 -w, both ends): its window stays
# below what vethB's ring of 256 frames holds (370 KB of payload).  veth
# (before 6.16) drops what does not fit instead of holding the sender
# back, and at 600-800 Mbit/s an unbounded window lost 20-57 frames per
# run there on 6.12.
WINDOW=200K

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.42.1 "$NS_B" vethB 10.0.42.2
ip netns exec "$NS_A" ethtool -K vethA tso off
ip netns exec "$NS_B" ethtool -K vethB gro on
check_eq "vethA tcp-segmentation-offload" \
	"$(ip netns exec "$NS_A" ethtool -k vethA | awk '$1 == "tcp-segmentation-offload:" { print $2 }')" off
pacer_napi_threads "$NS_B" vethB 1
set -- $NAPI_PIDS
MOVED_PID=$1
# Real-time, so that on the CPU it moves to it runs at once instead of
# after iperf3's time slice.
chrt -f -p 50 "$MOVED_PID"
log "vethB's NAPI thread: pid $MOVED_PID, $(chrt -p "$MOVED_PID" | tr '\n' ' ')"

pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.42.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn 1
ns_sysctl "$NS_B" net/ipv4/tcp_ecn 1
pc "$NS_B" class add dev pacer0 id 1 name moving rate 10gbit
pc "$NS_B" rule add dev pacer0 src 10.0.42.1/32 class 1

# mover: vethB's NAPI thread on CPU 0, then CPU 1, and so on, until killed.
mover() {
	while :; do
		taskset -p 1 "$MOVED_PID" >/dev/null || exit 1
		sleep 0.25
		taskset -p 2 "$MOVED_PID" >/dev/null || exit 1
		sleep 0.25
	done
}

# veth_drops: what vethA failed to hand to vethB's ring, plus what vethB
# dropped on receive.
veth_drops() {
	echo $(($(ip netns exec "$NS_A" cat /sys/class/net/vethA/statistics/tx_dropped) +
		$(ip netns exec "$NS_B" cat /sys/class/net/vethB/statistics/rx_dropped)))
}

# run_case TAG: the flow with its NAPI thread moving, the premise and the
# order checks; sets BPS (goodput, s$FROM-$SECS) and, through
# check_cpu_spread, JOINED.
run_case() {
	local drops0 drops pid

	pc "$NS_B" stats reset dev pacer0 id 1
	class_snap "$NS_B" pacer0 1 C0
	cpu_counts "$NS_B" pacer0 B
	order_snap "$NS_B" "$NS_A" O
	drops0=$(veth_drops)
	bg mover
	pid=$BGPID
	iperf_run "$NS_A" 10.0.42.2 "$SECS" "$TMPD/$1.json" -w "$WINDOW"
	kill "$pid" 2>/dev/null
	wait_class_idle "$NS_B" pacer0 1
	cpu_counts "$NS_B" pacer0 A
	order_snap "$NS_B" "$NS_A" P
	class_snap "$NS_B" pacer0 1 C
	show_class "class 1 after the $1 run" C
	drops=$(($(veth_drops) - drops0))
	BPS=$(iperf_rx_bps "$TMPD/$1.json" "$FROM" "$SECS")
	log "$1: $IPERF_RETRANS retransmits; goodput $BPS bit/s," \
		"Mbit/s by second: $(iperf_rx_mbit_by_second "$TMPD/$1.json")"
	check_cpu_spread "$1" B A "$(class_delta C C0 rx_packets)"
	check_eq "$1: premise: packets lost before pacer0 (veth drops)" "$drops" 0
	check_order "$1" O P
	check_eq "$1: class 1 dropped nothing (the flow is ECN-capable)" \
		"$C_dropped_packets" 0
	check_class_invariant "$1: class 1" C
}

step "class 1 at 10 Gbit/s (never the bottleneck), the flow moving between CPUs, ${SECS}s"
run_case unlimited
CAPACITY_BPS=$BPS
log "premise: the guest carries $((CAPACITY_BPS / 1000000)) Mbit/s of this flow"
fit_mbit MBIT 100

for gso in split keep; do
	step "class 1 at $MBIT Mbit/s, gso $gso, the same flow"
	pc "$NS_B" class change dev pacer0 id 1 rate "${MBIT}mbit" gso "$gso"
	run_case "$gso"
	check_ge "$gso: premise: packets that joined their flow on the other CPU" \
		"$JOINED" 1
	check_ge "$gso: class 1 delayed_packets (the class did shape)" \
		"$C_delayed_packets" 1
	check_within "$gso: goodput (s$FROM-$((SECS - 1))) vs $MBIT Mbit/s x 1448/1514" \
		"$BPS" "$(theory $((MBIT * 1000000)))" "$TOL"
done

ksft_exit
