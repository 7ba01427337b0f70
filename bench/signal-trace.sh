#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A trace, not a test: one ECN CUBIC flow at 40 ms RTT through a 20 Mbit/s
# class (rtt 40ms; BURST=SIZE sets its burst), sampled every ~0.25 s: class
# rx, marks, backlog, peak, drops and the sender's cwnd/ssthresh/rtt (ss),
# then goodput per second.  In the VM:
#   tools/vm/run -- sh -c "SECS=12 BURST=25k sh /pacer/bench/signal-trace.sh"
. "$(dirname "$0")/../selftests/lib.sh"
. "$(dirname "$0")/../selftests/classlib.inc"
SECS=${SECS:-16}
setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.41.1 "$NS_B" vethB 10.0.41.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn ${ECN:-1}
ns_sysctl "$NS_B" net/ipv4/tcp_ecn ${ECN:-1}
tc -n "$NS_A" qdisc add dev vethA root netem delay 20ms limit 10000
tc -n "$NS_B" qdisc add dev vethB root netem delay 20ms limit 10000
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.41.2
pc "$NS_B" class add dev pacer0 id 1 name rtt rate 20mbit rtt 40ms ${BURST:+burst $BURST}
pc "$NS_B" rule add dev pacer0 src 10.0.41.1/32 class 1
bg iperf_run "$NS_A" 10.0.41.2 "$SECS" "$TMPD/rtt.json"
client=$BGPID
i=0
while [ $i -lt $((SECS * 4)) ]; do
	sleep 0.25
	class_snap "$NS_B" pacer0 1 C
	tcp=$(ip netns exec "$NS_A" ss -tin dst 10.0.41.2 | grep -o 'cwnd:[0-9]*\|ssthresh:[0-9]*\|rtt:[0-9.]*\|ecn\|ecnseen' | tr '\n' ' ')
	log "t=$i rx=$C_rx_packets marked=$C_ecn_marked backlog=$C_backlog_bytes peak=$C_backlog_peak_bytes drops=$C_dropped_packets | $tcp"
	i=$((i + 1))
done
iperf_join "$client" 40 "$TMPD/rtt.json" flow
class_snap "$NS_B" pacer0 1 C
log "summary: burst ${BURST:-default} goodput s2-$SECS $(iperf_rx_bps "$TMPD/rtt.json" 2 "$SECS") drops $C_dropped_packets marked $C_ecn_marked peak $C_backlog_peak_bytes"
log "receiver: $(iperf_rx_intervals "$TMPD/rtt.json" | awk '{ printf "%.1f ", $3 / 1e6 }')"

ksft_exit
