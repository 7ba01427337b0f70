#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Changing a class under traffic: a TCP flow shaped at 10 Mbit/s has its
# class changed to 30 Mbit/s mid-flow.  Goodput follows within a second:
# every 0.5 s receiver interval that starts 1 s or more after the change
# is within 5 % of 30 Mbit/s x 1448/1514, and before the change the flow
# ran at 10 Mbit/s (average within 3 %).  The change drops nothing: the
# class's dropped_packets is the same just before the change and 1 s
# after it.  The flow is ECN-capable so that marks, not the limit, hold
# its queue: without ECN a drop in the window would not be the change's.
# The class has "rtt 10ms", as the path (under 1 ms): with the default
# 100 ms the flow keeps 55 ms standing, three times the window at 30
# Mbit/s, and the first intervals after the change fell 7-11 % short
# in 2 of 6 runs.
# Intervals are the receiver's, timed from iperf3's start, which
# comes after the moment the script starts the client: "1 s after the
# change" is therefore at least 1 s.  The same lag (0.2-0.4 s under TCG)
# puts the change earlier on the receiver's clock than on the script's, so
# "before the change" ends 0.6 s before the script issued it.  Debug kernel: 10 -> 20 Mbit/s, a 7 s
# flow, 8 % per interval.  Premise: the flow can fill the higher rate.
# The path is measured first; if the higher rate is more than a quarter
# of what it carries unshaped, both rates shrink in proportion.
#
#   +------- NS_A ---------+          +------------- NS_B ---------------+
#   | iperf3 -c            |          | vethB 10.0.13.2  iperf3 -s -i 0.5|
#   | vethA 10.0.13.1 -----+----------+-> ingress: matchall mirred       |
#   |                      |          |   --> pacer0, rule src 10.0.13.1 |
#   |                      |          |       --> class 1: 10 Mbit/s,    |
#   |                      |          |       at ~3 s: "class change ... |
#   |                      |          |       rate 30mbit"               |
#   +----------------------+          +----------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc ss

if [ "$IS_DEBUG" = 1 ]; then
	HIGH=20
	SECS=7
	TOL=8
else
	HIGH=30
	SECS=8
	TOL=5
fi
LOW=10
CHANGE_MS=2800	# after starting the client

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.13.1 "$NS_B" vethB 10.0.13.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn 1
ns_sysctl "$NS_B" net/ipv4/tcp_ecn 1
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.13.2 -i 0.5

step "premise: what the path carries unshaped"
path_capacity "$NS_A" 10.0.13.2
want_high=$HIGH
fit_mbit HIGH "$HIGH"
LOW=$((LOW * HIGH / want_high))
[ "$LOW" -ge 1 ] || LOW=1
[ "$LOW" -lt "$HIGH" ] || die "premise: no two rates fit below $HIGH Mbit/s"
pc "$NS_B" class add dev pacer0 id 1 name flex rate "${LOW}mbit" rtt 10ms
pc "$NS_B" rule add dev pacer0 src 10.0.13.1/32 class 1

step "${SECS}s of TCP at $LOW Mbit/s; at ${CHANGE_MS} ms: rate ${HIGH}mbit"
t0=$(now_ms)
bg iperf_run "$NS_A" 10.0.13.2 "$SECS" "$TMPD/flow.json"
pid=$BGPID
wait_until_ms $((t0 + CHANGE_MS))
class_snap "$NS_B" pacer0 1 B
tc_ms=$(($(now_ms) - t0))
pc "$NS_B" class change dev pacer0 id 1 rate "${HIGH}mbit"
ta_ms=$(($(now_ms) - t0))
wait_until_ms $((t0 + ta_ms + 1000))
class_snap "$NS_B" pacer0 1 A
wait_exit "$pid" $((SECS + 30)) || die "iperf3 did not end"
[ "$EXIT_STATUS" = 0 ] || die "iperf3 failed ($EXIT_STATUS)"
log "change issued at $tc_ms ms, done at $ta_ms ms after the client started"
show_class "class 1 just before the change" B
show_class "class 1 1 s after the change" A
log "receiver intervals (start end bit/s):"
iperf_rx_intervals "$TMPD/flow.json" | while read -r s e b; do
	log "  $s-$e $b"
done

check_eq "rate_bps before the change" "$B_rate_bps" $((LOW * 1000000))
check_eq "rate_bps after the change" "$A_rate_bps" $((HIGH * 1000000))
check_eq "dropped_packets from just before the change to 1 s after" \
	"$(class_delta A B dropped_packets)" 0
check_ge "delayed_packets grew across the change (the class was shaping)" \
	"$(class_delta A B delayed_packets)" 1

lo_want=$(theory $((LOW * 1000000)))
hi_want=$(theory $((HIGH * 1000000)))
before=$(iperf_rx_bps "$TMPD/flow.json" 1.5 "$(awk -v t="$tc_ms" 'BEGIN { print t / 1000 - 0.6 }')")
check_within "goodput before the change (s1.5 to 0.6 s before it) vs $LOW Mbit/s x 1448/1514" \
	"$before" "$lo_want" 3
from=$(awk -v t="$ta_ms" 'BEGIN { print t / 1000 + 1 }')
n=0
for x in $(jq -r --argjson from "$from" '.server_output_json.intervals[].sum
		| select(.start >= $from and .seconds > 0.4)
		| "\(.start * 100 | floor / 100):\(.bits_per_second | floor)"' "$TMPD/flow.json"); do
	n=$((n + 1))
	check_within "interval from ${x%%:*} s (>= $from s) vs $HIGH Mbit/s x 1448/1514" \
		"${x##*:}" "$hi_want" "$TOL"
done
check_ge "intervals checked after the change" "$n" 4

wait_class_idle "$NS_B" pacer0 1
class_snap "$NS_B" pacer0 1 C
show_class "class 1 at the end" C
check_class_invariant "class 1" C

ksft_exit
