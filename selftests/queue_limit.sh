#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The queue bound: a class holds at most its limit; a packet that finds
# the queue full is dropped and counted as dropped_queue_limit.
# A burst of 200 ICMP echo requests is bunched up by netem's slots on
# vethA, so it arrives at vethB (and pacer0) in one softirq run.  The
# default class is set to 100 kbit/s with a 1k bucket: the first ten
# requests leave at once (a class with tokens and nothing queued does not
# queue), the rest queue; with the class's limit at 1k (ten 98-byte
# requests) some are dropped, with 1m (and 10 Mbit/s) none.  At one
# request per 7.8 ms the burst outruns the class even on the debug
# kernel, which takes a few hundred microseconds a request (at 10 Mbit/s
# it did not there); the run checks that the class delayed some.  Every
# figure is exact:
# pacer0 receives the 200, re-injects what it does not drop, and NS_B's
# IP stack receives exactly the re-injected requests.  Replies are not
# counted: ping's receive buffer overflows with a 200-reply burst (with or
# without pacer0), and with pacer0 NS_B's ICMP socket also runs out of send
# buffer for ~10 % of the replies (IpOutDiscards; the requests come back
# from pacer0 in NAPI batches and more replies are in flight at once).
#
#   +-------------- NS_A --------------+        +---------- NS_B -----------+
#   | ping -l 200 (one burst)          |        |                           |
#   | vethA 10.0.3.1                   |        | vethB 10.0.3.2            |
#   |   root netem slot 300ms: holds --+------->|   ingress: matchall       |
#   |   the burst, releases it at once |        |   mirred --> pacer0       |
#   |                                  |        |   (class 0 100kbit, burst |
#   |                                  |        |    1k, limit 1k: drops)   |
#   |                     <--- replies-+--------+-- re-injected requests    |
#   +----------------------------------+        +---------------------------+
#
. "$(dirname "$0")/lib.sh"

require ping ethtool pacerctl tc nstat

BURST=200

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.3.1 "$NS_B" vethB 10.0.3.2
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
tc -n "$NS_A" qdisc add dev vethA root netem slot 300ms 300ms packets 1000 ||
	skip "netem slot is not available"

# burst K [SIZE]: K echo requests (of SIZE bytes of data) sent at once (-l
# K; -S: a send buffer for all of them, ping's own holds a handful); sets
# SENT and RECEIVED, the replies.
burst() {
	timeout 20 ip netns exec "$NS_A" \
		ping -q -n -c "$1" -l "$1" ${2:+-s "$2"} -S 400000 -W 2 10.0.3.2 >"$TMPD/ping" 2>&1 || true
	grep 'packets transmitted' "$TMPD/ping" || cat "$TMPD/ping"
	RECEIVED=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$TMPD/ping")
	SENT=$(sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' "$TMPD/ping")
}

# echos_in: the echo requests NS_B's IP stack received (its SNMP counter).
echos_in() {
	snmp_counter "$NS_B" IcmpInEchos
}

# run_burst K [SIZE]: send the burst, wait until pacer0 is idle; snapshots
# of pacer0 (P0, P1), vethB (V0, V1) and IcmpInEchos (E0, E1) before and
# after.
run_burst() {
	pacer_snap "$NS_B" pacer0 P0
	link_snap "$NS_B" vethB V0
	E0=$(echos_in)
	burst "$@"
	wait_pacer_idle "$NS_B" pacer0
	pacer_snap "$NS_B" pacer0 P1
	link_snap "$NS_B" vethB V1
	E1=$(echos_in)
	log "pacer0 before: $P0"
	log "pacer0 after:  $P1"
}

step "class 0 at 100 kbit/s, burst 1k, limit 1k: a burst of $BURST"
ip netns exec "$NS_B" pacerctl class change dev pacer0 id 0 rate 100kbit burst 1k limit 1k
run_burst "$BURST"
rx=$(pacer_delta P1 P0 rx_packets)
tx=$(pacer_delta P1 P0 tx_packets)
dropped=$(pacer_delta P1 P0 dropped_queue_limit)
check_eq "ping sent" "$SENT" "$BURST"
check_eq "pacer0 rx_packets delta" "$rx" "$BURST"
check_eq "vethB rx.packets delta" $((V1_rx_packets - V0_rx_packets)) "$BURST"
check_ge "premise: the burst outran the class (delayed_packets delta)" \
	"$(pacer_delta P1 P0 delayed_packets)" 1
check_ge "pacer0 dropped_queue_limit delta" "$dropped" 1
check_eq "pacer0 tx delta + queue_limit drops = rx delta" $((tx + dropped)) "$rx"
check_eq "requests NS_B received (IcmpInEchos delta) = requests re-injected" \
	$((E1 - E0)) "$tx"
check_eq "other drops" $((P1_dropped_not_redirected + P1_dropped_reinject + P1_dropped_flush)) 0
check_eq "backlog_packets" "$P1_backlog_packets" 0
check_invariant "$NS_B" pacer0

# Frames larger than the limit: a class holding nothing else takes one,
# whatever its limit, and each later arrival displaces it (the head of the
# largest flow goes).  Of 10 requests of 1442-byte frames, the first leaves
# on the full bucket (1k, a frame needs a full one), the second waits,
# eight are dropped: tx 2.  Before the class took one, tx 1: every frame
# that had to wait was dropped.
step "the same class, a burst of 10 frames larger than its 1k limit"
wait_pacer_idle "$NS_B" pacer0
sleep 0.5	# the bucket full again: 1k at 100 kbit/s in 80 ms
run_burst 10 1400
check_eq "pacer0 rx_packets delta" "$(pacer_delta P1 P0 rx_packets)" 10
check_eq "pacer0 tx_packets delta" "$(pacer_delta P1 P0 tx_packets)" 2
check_eq "pacer0 dropped_queue_limit delta" "$(pacer_delta P1 P0 dropped_queue_limit)" 8
check_eq "requests NS_B received (IcmpInEchos delta)" $((E1 - E0)) 2

# Faster, too: held 1.6 s at 100 kbit/s, the last requests would be
# dropped for their sojourn (pings are not ECN-capable).
step "class 0 at 10 Mbit/s, limit 1m, the same burst"
ip netns exec "$NS_B" pacerctl class change dev pacer0 id 0 rate 10mbit limit 1m
run_burst "$BURST"
check_eq "pacer0 rx_packets delta" "$(pacer_delta P1 P0 rx_packets)" "$BURST"
check_eq "pacer0 dropped_queue_limit delta" "$(pacer_delta P1 P0 dropped_queue_limit)" 0
check_eq "pacer0 tx_packets delta" "$(pacer_delta P1 P0 tx_packets)" "$BURST"
check_eq "requests NS_B received (IcmpInEchos delta)" $((E1 - E0)) "$BURST"

step "the totals"
check_invariant "$NS_B" pacer0
check_views "$NS_B" pacer0
check_eq "ip -s link tx.dropped = queue_limit drops" \
	"$(link_stat "$NS_B" pacer0 tx_dropped)" "$(pacer_stat "$NS_B" pacer0 dropped_queue_limit)"

ksft_exit
