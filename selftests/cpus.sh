#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Two CPUs feeding one class.  Two TCP flows from NS_A to NS_B, their
# senders pinned to CPU 0 and CPU 1 (taskset): over veth a packet is
# received on the CPU that sent it, so the flows reach vethB's ingress,
# and pacer0, on both CPUs.  RFS on vethA steers each flow's ACKs to its
# sender's CPU, as a NIC's RSS keeps a flow on one CPU both ways.  Without
# it an ACK comes back on the CPU that re-injected the segment it answers,
# and the sender's next segments go out from there: a flow whose segments
# once joined their flow's queue on the other CPU (below) could move to
# that CPU for good, and both flows end up on one.
#
# 1. Class 1 at 20 Mbit/s (a quarter of what the path carries unshaped,
#    if that is less) takes both flows:
#    - together they get within 1 % of rate x 1448/1514 (the receivers'
#      intervals, seconds 2 to SECS - 1, when both flows are on): the
#      class's rate holds across CPUs;
#    - each CPU re-injected the packets it received (pacerctl -s -s dev
#      show), but for those that joined their flow on the other CPU: a
#      sender emits some segments from the other CPU (from softirq, when
#      an ACK arrives there), and a segment whose flow has packets queued
#      on one CPU joins them there so as not to overtake them.  Exactly:
#      tx0 = rx0 - joined0 + joined1, and the same for CPU 1; the two
#      CPUs received every packet of the class, and each a quarter or
#      more;
#    - when no packet joined its flow on the other CPU (each flow's
#      packets arrived on one CPU), no flow was reordered: the receiver
#      queued no segment out of order (TcpExtTCPOFOQueue; DSACKs are only
#      logged: a tail loss probe also causes them).  When some did, the sender sent
#      from both CPUs, and veth hands such segments to pacer through two
#      per-CPU backlogs, in either order, so the count is only logged.
#      The flows are ECN-capable (tcp_ecn=1 on both ends), so the class
#      signals them with CE marks and drops nothing (checked): a drop
#      would put the segments after it out of order at the receiver;
#    - the class's invariant holds once traffic stops.
# 2. The same flows through class 1 at 10 Gbit/s, which never limits: the
#    same per-CPU and order checks.
# Debug kernel: shorter runs, 3 % for the rate.
#
#   +------------ NS_A -------------+          +--------- NS_B -----------+
#   | taskset -c 0 iperf3 -c :5201  |          | vethB 10.0.20.2          |
#   | taskset -c 1 iperf3 -c :5202  |          |  ingress: matchall       |
#   | vethA 10.0.20.1 (RFS) --------+--------->|  mirred --> pacer0:      |
#   +-------------------------------+          |  class 1, CPU 0 and 1    |
#                                              +--------------------------+
#
# run_tests: timeout=240
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc ss nstat taskset

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
veth_pair "$NS_A" vethA 10.0.20.1 "$NS_B" vethB 10.0.20.2
RFS_ENTRIES=$(cat /proc/sys/net/core/rps_sock_flow_entries)
cleanup_test() {
	echo "$RFS_ENTRIES" >/proc/sys/net/core/rps_sock_flow_entries
}
echo 4096 >/proc/sys/net/core/rps_sock_flow_entries
ip netns exec "$NS_A" sh -c 'echo 3 >/sys/class/net/vethA/queues/rx-0/rps_cpus &&
	echo 4096 >/sys/class/net/vethA/queues/rx-0/rps_flow_cnt' ||
	skip "RFS is not available"
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
IPERF_PORT=5201
jserver "$NS_B" 10.0.20.2
IPERF_PORT=5202
jserver "$NS_B" 10.0.20.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn 1
ns_sysctl "$NS_B" net/ipv4/tcp_ecn 1

step "premise: what the path carries unshaped"
IPERF_PORT=5201
path_capacity "$NS_A" 10.0.20.2
fit_mbit MBIT 20
pc "$NS_B" class add dev pacer0 id 1 name both rate "${MBIT}mbit"
pc "$NS_B" rule add dev pacer0 src 10.0.20.1/32 class 1

# run_case TAG: the flows, and every check but the rate.
run_case() {
	local ofo0 dsack0 ofo1 dsack1

	class_snap "$NS_B" pacer0 1 C0
	cpu_counts "$NS_B" pacer0 B
	snmp_var ofo0 "$NS_B" TcpExtTCPOFOQueue
	snmp_var dsack0 "$NS_A" TcpExtTCPDSACKRecv
	two_pinned_flows "$1" 10.0.20.2 10.0.20.2
	wait_class_idle "$NS_B" pacer0 1
	cpu_counts "$NS_B" pacer0 A
	class_snap "$NS_B" pacer0 1 C
	show_class "class 1 after the $1 run" C
	rx0=$((A_rx0 - B_rx0)) tx0=$((A_tx0 - B_tx0)) j0=$((A_j0 - B_j0))
	rx1=$((A_rx1 - B_rx1)) tx1=$((A_tx1 - B_tx1)) j1=$((A_j1 - B_j1))
	log "$1: CPU 0 received $rx0 ($j0 joined CPU 1) and re-injected $tx0; CPU 1 received $rx1 ($j1 joined CPU 0) and re-injected $tx1"
	check_eq "$1: CPU 0 re-injected what it received, less what joined CPU 1, plus what joined it" \
		"$tx0" $((rx0 - j0 + j1))
	check_eq "$1: CPU 1 re-injected what it received, less what joined CPU 0, plus what joined it" \
		"$tx1" $((rx1 - j1 + j0))
	check_eq "$1: class 1 dropped nothing (the flows are ECN-capable)" \
		"$C_dropped_packets" 0
	check_cpus_counted "$1" "$rx0" "$rx1" "$(class_delta C C0 rx_packets)"
	check_ge "$1: CPU 0 received a quarter or more of the packets" \
		$((rx0 * 4)) $((rx0 + rx1))
	check_ge "$1: CPU 1 received a quarter or more of the packets" \
		$((rx1 * 4)) $((rx0 + rx1))
	snmp_var ofo1 "$NS_B" TcpExtTCPOFOQueue
	snmp_var dsack1 "$NS_A" TcpExtTCPDSACKRecv
	ofo=$((ofo1 - ofo0))
	dsack=$((dsack1 - dsack0))
	log "$1: $ofo segments queued out of order at the receiver, $dsack DSACKs at the senders"
	if [ $((j0 + j1)) = 0 ]; then
		# DSACKs are logged only: a tail loss probe at RTT ~0 resends
		# a segment that was not lost, and its copy is DSACKed too.
		check_eq "$1: segments the receiver queued out of order (TcpExtTCPOFOQueue delta)" "$ofo" 0
	else
		# Segments one flow sent from both CPUs pass the two CPUs'
		# backlogs before pacer, in either order: what pacer keeps is
		# the order they arrive in, which this bed cannot fix.
		log "$1: $((j0 + j1)) packets joined their flow on the other CPU: the order is not asserted"
	fi
	check_class_invariant "$1: class 1" C
}

step "class 1 at $MBIT Mbit/s, one flow from each CPU, ${SECS}s"
pc "$NS_B" stats reset dev pacer0 id 1
run_case shaped
check_within "shaped: goodput of both flows (s$FROM-$((SECS - 1))) vs $MBIT Mbit/s x 1448/1514" \
	"$BPS" "$(theory $((MBIT * 1000000)))" "$TOL"
check_ge "shaped: class 1 delayed_packets (the class did shape)" "$C_delayed_packets" 1

step "class 1 at 10 Gbit/s (never the bottleneck), the same flows"
pc "$NS_B" class change dev pacer0 id 1 rate 10gbit
pc "$NS_B" stats reset dev pacer0 id 1
run_case unlimited

ksft_exit
