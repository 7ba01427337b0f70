#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No reordering with flows arriving on two CPUs, as a NIC's RSS spreads
# them.  Two ECN-capable TCP flows, each over its own veth pair into NS_B,
# both redirected to pacer0's class 1.  RPS (rps_cpus) on the four veths
# steers flow 1's data and ACKs to CPU 0 and flow 2's to CPU 1, and each
# sender is pinned to its flow's CPU (taskset): every segment of a flow
# reaches pacer0 on one CPU, in the order it was sent.  That premise is
# checked in the same run: no packet joined its flow on the other CPU
# (pacerctl -s -s dev show), each CPU received a quarter or more.
#
# 1. Class 1 at 10 Gbit/s (never the bottleneck), both flows as fast as
#    the guest carries them; 2. class 1 at a quarter of that (20 Mbit/s
#    at most), which shapes.  In each, for SECS seconds:
#    - the receiver queued no segment out of order (TcpExtTCPOFOQueue
#      delta = 0): pacer0 let each flow's segments go in the order they
#      arrived;
#    - the senders got no DSACK but those a tail loss probe or a timeout
#      explains (TcpExtTCPDSACKRecv <= TcpExtTCPLossProbes +
#      TcpExtTCPTimeouts): no segment was resent for reordering;
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
# rps NS DEV MASK: DEV's receive processing on the CPUs of MASK.
rps() {
	ip netns exec "$1" sh -c "echo $3 >/sys/class/net/$2/queues/rx-0/rps_cpus" ||
		skip "RPS is not available"
	check_eq "$2 rps_cpus" \
		"$(ip netns exec "$1" cat "/sys/class/net/$2/queues/rx-0/rps_cpus" | sed 's/^0*//')" "$3"
}
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
	local ofo0 dsack0 tlp0 rto0 ofo dsack tlp rto rx0 rx1 j

	pc "$NS_B" stats reset dev pacer0 id 1
	cpu_counts "$NS_B" pacer0 B
	ofo0=$(snmp_counter "$NS_B" TcpExtTCPOFOQueue)
	dsack0=$(snmp_counter "$NS_A" TcpExtTCPDSACKRecv)
	tlp0=$(snmp_counter "$NS_A" TcpExtTCPLossProbes)
	rto0=$(snmp_counter "$NS_A" TcpExtTCPTimeouts)
	two_pinned_flows "$1" 10.0.40.2 10.0.41.2
	wait_class_idle "$NS_B" pacer0 1
	cpu_counts "$NS_B" pacer0 A
	class_snap "$NS_B" pacer0 1 C
	show_class "class 1 after the $1 run" C
	rx0=$((A_rx0 - B_rx0)) rx1=$((A_rx1 - B_rx1))
	j=$((A_j0 - B_j0 + A_j1 - B_j1))
	ofo=$(($(snmp_counter "$NS_B" TcpExtTCPOFOQueue) - ofo0))
	dsack=$(($(snmp_counter "$NS_A" TcpExtTCPDSACKRecv) - dsack0))
	tlp=$(($(snmp_counter "$NS_A" TcpExtTCPLossProbes) - tlp0))
	rto=$(($(snmp_counter "$NS_A" TcpExtTCPTimeouts) - rto0))
	log "$1: CPU 0 received $rx0, CPU 1 $rx1, $j joined the other CPU;" \
		"receiver OFO $ofo; senders: $dsack DSACKs, $tlp loss probes, $rto timeouts"
	check_eq "$1: premise: packets that joined their flow on the other CPU" "$j" 0
	check_ge "$1: premise: CPU 0 received a quarter or more of the packets" \
		$((rx0 * 4)) $((rx0 + rx1))
	check_ge "$1: premise: CPU 1 received a quarter or more of the packets" \
		$((rx1 * 4)) $((rx0 + rx1))
	check_eq "$1: segments the receiver queued out of order (TcpExtTCPOFOQueue delta)" "$ofo" 0
	check_le "$1: DSACKs at the senders vs loss probes + timeouts ($tlp + $rto)" \
		"$dsack" $((tlp + rto))
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
