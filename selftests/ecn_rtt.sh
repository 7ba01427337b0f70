#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ECN at a real round trip: one ECN-capable CUBIC flow (tcp_ecn=1 on both
# ends) over a 40 ms RTT (netem, 20 ms on each veth's egress, so the ACKs
# are delayed too) through a class at 20 Mbit/s with "rtt 40ms".  CUBIC
# needs 0.43 of its RTT as standing queue to keep the rate busy after it
# cuts its window; the class lets a flow keep target + rtt/2 (25 ms) and
# signals it once per episode.  With CoDel's quickening marks (the
# previous design) the flow got 52-72 % of the rate here.
# - premise: the class was the flow's bottleneck and the flow kept a
#   standing queue: the class marked it (ecn_marked >= 1) and the sender
#   saw the marks (TcpExtTCPDeliveredCE);
# - goodput from second FROM on (slow start and its first cut left out)
#   >= 97 % of rate x 1448/1514;
# - nothing dropped from second FROM on: the marks held the queue below
#   the limit;
# - one signal per episode: at most one mark per RTT over that time (a
#   mark holds the next back for the RTT and the queue's delay).
# The RTT: ping through the same class (a sparse flow) is logged, as is
# the class's sojourn p99.  Not on the debug kernel (timing).
#
#   +------- NS_A ----------+          +------------- NS_B ---------------+
#   | iperf3 -c, tcp_ecn=1  |          | vethB 10.0.41.2  iperf3 -s       |
#   | vethA 10.0.41.1 ------+----------+-> ingress: mirred --> pacer0     |
#   |  netem 20 ms (egress) |          |   class 1: 20 Mbit/s, rtt 40ms   |
#   +-----------------------+          | netem 20 ms on vethB's egress    |
#                                      +----------------------------------+
#
# run_tests: timeout=180
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"
require iperf3 jq pacerctl tc nstat ping

SECS=16
FROM=4
RTT_MS=40

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.41.1 "$NS_B" vethB 10.0.41.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn 1
ns_sysctl "$NS_B" net/ipv4/tcp_ecn 1
ip netns exec "$NS_A" sh -c 'echo cubic >/proc/sys/net/ipv4/tcp_congestion_control'
tc -n "$NS_A" qdisc add dev vethA root netem delay $((RTT_MS / 2))ms limit 10000
tc -n "$NS_B" qdisc add dev vethB root netem delay $((RTT_MS / 2))ms limit 10000
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.41.2

step "premise: what the path carries unshaped at RTT $RTT_MS ms"
path_capacity "$NS_A" 10.0.41.2
fit_mbit MBIT 20

step "class 1: $MBIT Mbit/s, rtt ${RTT_MS}ms"
pc "$NS_B" class add dev pacer0 id 1 name rtt rate "${MBIT}mbit" rtt "${RTT_MS}ms"
pc "$NS_B" rule add dev pacer0 src 10.0.41.1/32 class 1
class_snap "$NS_B" pacer0 1 C0
check_eq "rtt_us" "$C0_rtt_us" $((RTT_MS * 1000))

ce0=$(delivered_ce "$NS_A")
rto0=$(snmp_counter "$NS_A" TcpExtTCPTimeouts)
tlp0=$(snmp_counter "$NS_A" TcpExtTCPLossProbes)

step "${SECS}s of one ECN-capable CUBIC flow, pinged from second $FROM"
# The loopback ticker logs how long the guest stood still at most.  A
# packet waited 260-450 ms in the class now and then, and the run missed
# its rate; every such stall measured with a heartbeat on each vCPU was
# the whole guest standing still under TCG while a process started
# (tools/vm/README.md), not the class.
ip -n "$NS_A" link set lo up
bg ip netns exec "$NS_A" ping -D -n -i 0.01 -w $((SECS + 1)) 127.0.0.1 \
	>"$TMPD/ticks"
ticker=$BGPID
t0=$(now_ms)
bg iperf_run "$NS_A" 10.0.41.2 "$SECS" "$TMPD/rtt.json"
client=$BGPID
wait_until_ms $((t0 + FROM * 1000))
class_snap "$NS_B" pacer0 1 C1
bg timeout $((SECS + 10)) ip netns exec "$NS_A" \
	ping -n -i 0.1 -c $(((SECS - FROM) * 10 - 10)) 10.0.41.2 >"$TMPD/ping" 2>&1
pinger=$BGPID
iperf_join "$client" $((SECS + 30)) "$TMPD/rtt.json" "the ECN flow"
t1=$(now_ms)
class_snap "$NS_B" pacer0 1 C2
wait_exit "$pinger" 20 || true
wait_exit "$ticker" 10 || log "the loopback ping did not end"
got=$(iperf_rx_bps "$TMPD/rtt.json" "$FROM" "$SECS")
ce=$(($(delivered_ce "$NS_A") - ce0))
rto=$(($(snmp_counter "$NS_A" TcpExtTCPTimeouts) - rto0))
tlp=$(($(snmp_counter "$NS_A" TcpExtTCPLossProbes) - tlp0))
wait_class_idle "$NS_B" pacer0 1
class_snap "$NS_B" pacer0 1 C
show_class "class 1 after the run" C
marks=$(class_delta C2 C1 ecn_marked)
ping_p50_p99=$(sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p' "$TMPD/ping" | sort -n | awk '
	{ v[NR] = $1 }
	END { if (NR) print v[int(NR * 0.5 + 0.999)] "/" v[int(NR * 0.99 + 0.999)]; else print "-/-" }')
log "ping through the class (a sparse flow): p50/p99 $ping_p50_p99 ms"
log "receiver, Mbit/s per interval: $(iperf_rx_intervals "$TMPD/rtt.json" |
	awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $3 / 1e6 }')"
log "iperf3: receiver $got bit/s over s$FROM-$SECS, $IPERF_RETRANS retransmits;" \
	"sender TcpExtTCPDeliveredCE +$ce, timeouts +$rto, loss probes +$tlp;" \
	"marks after s$FROM: $marks;" \
	"class sojourn p99 <= $C_delay_p99_us us, max $((C_delay_ns_max / 1000)) us"
log "the guest stood still for at most $(longest_tick_gap "$TMPD/ticks") ms" \
	"(loopback pings every 10 ms in NS_A)"

check_ge "premise: ecn_marked over the run (the flow kept a standing queue)" \
	"$C_ecn_marked" 1
check_ge "premise: the sender's TcpExtTCPDeliveredCE delta (marks echoed)" "$ce" 1
check_pct_ge "goodput s$FROM-$SECS vs $MBIT Mbit/s x 1448/1514 (bit/s)" "$got" \
	"$(theory $((MBIT * 1000000)))" 97
check_eq "dropped_packets after s$FROM" "$(class_delta C2 C1 dropped_packets)" 0
check_le "marks after s$FROM vs one per ${RTT_MS} ms" "$marks" \
	$(((t1 - t0 - FROM * 1000) / RTT_MS))
check_class_invariant "class 1" C
ksft_exit
