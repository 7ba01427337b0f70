#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No reordering with flows arriving on two CPUs, as a NIC's RSS spreads
# them.  Two ECN-capable TCP flows, each over its own veth pair into NS_B,
# both redirected to pacer0's class 1.  RPS (rps_cpus) on the four veths
# steers flow 1's data and ACKs to CPU 0 and flow 2's to CPU 1, and each
# sender is pinned to its flow's CPU (taskset): every segment of a flow
# reaches pacer0 on one CPU, in the order it was sent.  That premise is
# checked in the same run: CPUs 0 and 1 received every packet of the
# class (pacerctl -s -s dev show), each a quarter or more, and no packet
# joined its flow on the other CPU.
#
# 1. Class 1 at 10 Gbit/s (never the bottleneck), both flows as fast as
#    the guest carries them; 2. class 1 at a quarter of that (20 Mbit/s
#    at most), which shapes.  In each, for SECS seconds:
#    - the receiver queued no segment out of order (TcpExtTCPOFOQueue
#      delta = 0): pacer0 let each flow's segments go in the order they
#      arrived;
#    - the senders got no DSACK but those a segment resent on a timer
#      explains (TcpExtTCPDSACKRecv <= TcpExtTCPLossProbes +
#      TcpExtTCPTimeouts + TcpExtTCPSlowStartRetrans): no segment was
#      resent for reordering;
#    - class 1 dropped nothing (the flows are ECN-capable), so no loss
#      put later segments out of order either; its invariant holds;
#    - shaped: together the flows get within TOL % of rate x 1448/1514.
# Debug kernel: shorter runs, 3 % for the rate.
#
#   +----------- NS_A ------------+            +--------- NS_B ----------+
#   | taskset -c 0 iperf3 -c :5201|            | vethB1 10.0.40.2 RPS 0  |
#   | vethA1 10.0.40.1 RPS CPU 0 -+----------->|  ingress: mirred        |
#   | taskset -c 1 iperf3 -c :5202|            | vethB2 10.0.41.2 RPS 1  |
#   | vethA2 10.0.41.1 RPS CPU 1 -+----------->|  ingress: mirred        |
#   +-----------------------------+            |  --> pacer0: class 1    |
#                                              +-------------------------+
#
# run_tests: timeout=240
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc nstat taskset

[ "$(nproc)" -ge 2 ] || skip "one CPU: nothing to spread"
if [ "$IS_DEBUG" = 1 ]; then
	SECS=6
	TOL=3
else
	SECS=8
	TOL=1
fi
FROM=2

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA1 10.0.40.1 "$NS_B" vethB1 10.0.40.2
veth_pair "$NS_A" vethA2 10.0.41.1 "$NS_B" vethB2 10.0.41.2
rps "$NS_A" vethA1 1
rps "$NS_B" vethB1 1
rps "$NS_A" vethA2 2
rps "$NS_B" vethB2 2
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB1 pacer0
redirect_ingress "$NS_B" vethB2 pacer0
IPERF_PORT=5201
jserver "$NS_B" 10.0.40.2
IPERF_PORT=5202
jserver "$NS_B" 10.0.41.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn 1
ns_sysctl "$NS_B" net/ipv4/tcp_ecn 1
pc "$NS_B" class add dev pacer0 id 1 name rss rate 10gbit
pc "$NS_B" rule add dev pacer0 src 10.0.40.1/32 class 1
pc "$NS_B" rule add dev pacer0 src 10.0.41.1/32 class 1

# run_case TAG: the flows, the premise and the order checks.
run_case() {
	pc "$NS_B" stats reset dev pacer0 id 1
	class_snap "$NS_B" pacer0 1 C0
	cpu_counts "$NS_B" pacer0 B
	order_snap "$NS_B" "$NS_A" O
	two_pinned_flows "$1" 10.0.40.2 10.0.41.2
	wait_class_idle "$NS_B" pacer0 1
	cpu_counts "$NS_B" pacer0 A
	order_snap "$NS_B" "$NS_A" P
	class_snap "$NS_B" pacer0 1 C
	show_class "class 1 after the $1 run" C
	check_cpu_spread "$1" B A "$(class_delta C C0 rx_packets)"
	check_eq "$1: premise: packets that joined their flow on the other CPU" "$JOINED" 0
	check_order "$1" O P
	check_eq "$1: class 1 dropped nothing (the flows are ECN-capable)" \
		"$C_dropped_packets" 0
	check_class_invariant "$1: class 1" C
}

step "class 1 at 10 Gbit/s (never the bottleneck), flow 1 on CPU 0, flow 2 on CPU 1, ${SECS}s"
run_case unlimited
CAPACITY_BPS=$BPS
log "premise: the guest carries $((CAPACITY_BPS / 1000000)) Mbit/s with both flows"
fit_mbit MBIT 20

step "class 1 at $MBIT Mbit/s, the same flows"
pc "$NS_B" class change dev pacer0 id 1 rate "${MBIT}mbit"
run_case shaped
check_within "shaped: goodput of both flows (s$FROM-$((SECS - 1))) vs $MBIT Mbit/s x 1448/1514" \
	"$BPS" "$(theory $((MBIT * 1000000)))" "$TOL"
check_ge "shaped: class 1 delayed_packets (the class did shape)" "$C_delayed_packets" 1

ksft_exit
