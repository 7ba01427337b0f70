#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Flows of two classes share the device's flow table and keep their order.
# A packet whose slot another class holds goes to its class's overflow
# flow, and its flow's later packets follow it there while the overflow
# holds some of theirs.  They must keep doing so when a flow of their own
# class claims the slot meanwhile: joining it there would let them
# overtake the packets waiting in the overflow.
#
# pacer0 is made with 64 flow slots (the module's "flows" parameter, the
# least it takes).  Class 1 (2 Mbit/s) gets a UDP flood to 64
# addresses, one flow each, that its socket's send buffer holds to some
# 200 packets queued: for 3 s its flows keep most slots.  Class 2 (a
# quarter of what the path carries, 20 Mbit/s at most) gets 8
# ECN-capable TCP flows started 0.5 s into the flood: those that find
# their slot held go to the overflow, and stay there while it holds some
# of theirs.  Once the flood is over, their slots come free, and 8 more
# TCP flows start and claim some: a first flow must not move to its slot,
# free or its own class's, while packets of it wait in the overflow.
#
# Checks, over the whole run: the receiver queued no segment out of order
# (TcpExtTCPOFOQueue), the senders got no DSACK but those a segment resent
# on a timer explains (a loss probe, a timeout, or what a timeout resent
# in slow start), class 2 dropped nothing, and both classes' counters
# add up.  Premises, in the same run: class 1 held slots (64 packets or
# more queued as the first flows started), class 2 released packets from
# its overflow flow after the flood ended (tracepoint pacer:pacer_release,
# flow=-1), and class 2 was the bottleneck (it delayed packets).  With
# pacer_class_lock_flow() letting a flow claim its free slot whatever the
# overflow holds, this test failed: OFO 32.
#
#   +--------- NS_A ----------+            +----------- NS_B -----------+
#   | udp_flood -> 10.0.45.x  |            | vethB 10.0.44.2            |
#   | iperf3 -P 8 (x2)        |            |  ingress: mirred --> pacer0|
#   | vethA 10.0.44.1 --------+----------->|  class 1: udp, 2 Mbit/s    |
#   +-------------------------+            |  class 2: tcp, shaped      |
#                                          +----------------------------+
#
# run_tests: timeout=180
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc nstat awk

TRACEFS=$(tracefs_dir)
[ -n "$TRACEFS" ] || skip "no tracefs (CONFIG_EVENT_TRACING) in this kernel"
FLOOD=$(dirname "$0")/udp_flood
[ -x "$FLOOD" ] || die "$FLOOD is not built (make -C selftests)"
if [ "$IS_DEBUG" = 1 ]; then
	SECS=8
else
	SECS=10
fi

setup_ns NS_A NS_B
load_pacer

veth_pair "$NS_A" vethA 10.0.44.1 "$NS_B" vethB 10.0.44.2
# The flood's addresses are behind vethB: no neighbour to resolve.
ip -n "$NS_A" route add 10.0.45.0/24 via 10.0.44.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn 1
ns_sysctl "$NS_B" net/ipv4/tcp_ecn 1
IPERF_PORT=5201
jserver "$NS_B" 10.0.44.2
IPERF_PORT=5202
jserver "$NS_B" 10.0.44.2

step "premise: what the path carries unshaped"
path_capacity "$NS_A" 10.0.44.2
fit_mbit MBIT 20

step "pacer0 with 64 flow slots; class 1 (udp) 2 Mbit/s, class 2 (tcp) $MBIT Mbit/s"
module_param flows 64 || die "the flows parameter refused 64"
pacer_add "$NS_B" pacer0
module_param_restore flows
redirect_ingress "$NS_B" vethB pacer0
ifindex=$(ip -n "$NS_B" -j link show dev pacer0 | json_get 0.ifindex)
pc "$NS_B" class add dev pacer0 id 1 name flood rate 2mbit
pc "$NS_B" class add dev pacer0 id 2 name tcp rate "${MBIT}mbit" limit 1s
pc "$NS_B" rule add dev pacer0 proto udp class 1
pc "$NS_B" rule add dev pacer0 proto tcp class 2

# Only the overflow flows' releases: a few thousand records.
trace_release "$TRACEFS" "ifindex == $ifindex && flow == -1"

step "the flood for 3s, 8 TCP flows from 0.5s, 8 more once class 1 drained"
class_snap "$NS_B" pacer0 1 F0
class_snap "$NS_B" pacer0 2 T0
order_snap "$NS_B" "$NS_A" O
bg ip netns exec "$NS_A" "$FLOOD" 0 9 10.0.45.1-10.0.45.64 9 3
flood_pid=$BGPID
sleep 0.5
class_snap "$NS_B" pacer0 1 F1
IPERF_PORT=5201
bg iperf_run "$NS_A" 10.0.44.2 "$SECS" "$TMPD/first.json" -P 8
first_pid=$BGPID
wait_exit "$flood_pid" 20 || die "udp_flood did not end"
[ "$EXIT_STATUS" = 0 ] || die "udp_flood failed ($EXIT_STATUS)"
flood_end=$(awk '{ print $1 }' /proc/uptime)
wait_class_idle "$NS_B" pacer0 1
class_snap "$NS_B" pacer0 1 F
check_eq "premise: class 1 drained before the second flows" "$F_backlog_packets" 0
IPERF_PORT=5202
bg iperf_run "$NS_A" 10.0.44.2 $((SECS - 4)) "$TMPD/second.json" -P 8
second_pid=$BGPID
iperf_join "$first_pid" $((SECS + 40)) "$TMPD/first.json" "the first flows"
iperf_join "$second_pid" $((SECS + 40)) "$TMPD/second.json" "the second flows"
wait_class_idle "$NS_B" pacer0 2
echo 0 >"$TRACEFS/tracing_on"
cat "$TRACEFS/trace" >"$TMPD/trace"
order_snap "$NS_B" "$NS_A" P
class_snap "$NS_B" pacer0 2 T
show_class "class 1 after the flood" F
show_class "class 2 after the flows" T

overflow_after=$(awk -v from="$flood_end" '
	/ pacer_release: / && / class=2 / {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) {
				t = $i; sub(/:$/, "", t)
				if (t + 0 >= from + 0) n++
			}
	}
	END { print n + 0 }' "$TMPD/trace")
log "class 2 released $overflow_after packets from its overflow flow after the flood"
log "$(awk '/ pacer_release: / && / class=2 / {
		for (i = 1; i <= NF; i++)
			if (sub(/^sojourn_ns=/, "", $i)) {
				v = $i + 0
				n++; sum += v
				if (v > max) max = v
			}
	}
	END { printf "its overflow: %d packets, sojourn avg %d us, max %d us", n, n ? sum / n / 1000 : 0, max / 1000 }' "$TMPD/trace");" \
	"the class: avg $(val T delay_avg_us) us, max $(($(val T delay_ns_max) / 1000)) us"
check_eq "trace records lost (overrun)" "$(trace_overruns "$TRACEFS")" 0
check_ge "premise: packets class 1 held as the first flows started (one a slot)" \
	"$(val F1 backlog_packets)" 64
check_ge "premise: class 2 released from its overflow after the flood (its slots free)" \
	"$overflow_after" 1
check_ge "premise: class 2 delayed packets (the bottleneck)" \
	"$(class_delta T T0 delayed_packets)" 1000
check_order "both classes" O P
check_eq "class 2 dropped nothing (the flows are ECN-capable)" \
	"$(class_delta T T0 dropped_packets)" 0
check_class_invariant "class 1" F
check_class_invariant "class 2" T

ksft_exit
