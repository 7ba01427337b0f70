#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Egress redirect: everything leaving through vethA goes through pacer0 and
# back out through vethA.  A TCP flow keeps >= 90 % of the goodput it has
# without the redirect (at a fixed offered rate, 200 Mbit/s or a quarter of what the path
# through pacer0 carries if that is less: see lib.sh), pacer0
# receives exactly the packets vethA then transmits, re-injects them all,
# drops none, and its three views (ip -s link, ethtool -S, pacerctl) agree.
#
#   +---------------- NS_A -----------------+          +----- NS_B -----+
#   | iperf3 -c                             |          |     iperf3 -s  |
#   |  --> vethA egress (clsact): matchall  |          |                |
#   |      mirred redirect --> pacer0       |          |                |
#   |  <-- re-injected: dev_queue_xmit -----+--vethA---+-> vethB        |
#   |      10.0.2.1                         |          |   10.0.2.2     |
#   +---------------------------------------+          +----------------+
#
# run_tests: timeout=150
. "$(dirname "$0")/lib.sh"

require iperf3 jq ethtool pacerctl tc ss

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.2.1 "$NS_B" vethB 10.0.2.2
iperf_server "$NS_B" 10.0.2.2

step "premise: what the path through pacer0 carries"
pacer_add "$NS_A" pacer0
redirect_egress "$NS_A" vethA pacer0
path_capacity "$NS_A" 10.0.2.2
fit_mbit MBIT "${IPERF_RATE%M}"
RATE=${MBIT}M
tc -n "$NS_A" qdisc del dev vethA clsact

step "baseline: ${IPERF_TIME}s of TCP at $RATE without the redirect"
iperf_tcp "$NS_A" 10.0.2.2 "$IPERF_TIME" "$TMPD/base.json" -b "$RATE"
base=$IPERF_BPS

step "redirect vethA's egress to pacer0"
redirect_egress "$NS_A" vethA pacer0
wait_pacer_idle "$NS_A" pacer0
link_snap "$NS_A" vethA V0
pacer_snap "$NS_A" pacer0 P0

step "${IPERF_TIME}s of TCP at $RATE through pacer0"
iperf_tcp "$NS_A" 10.0.2.2 "$IPERF_TIME" "$TMPD/redir.json" -b "$RATE"
got=$IPERF_BPS
wait_pacer_idle "$NS_A" pacer0
link_snap "$NS_A" vethA V1
pacer_snap "$NS_A" pacer0 P1
log "pacer0 before: $P0"
log "pacer0 after:  $P1"

rx=$(pacer_delta P1 P0 rx_packets)
check_ge "packets through pacer0 during the run" "$rx" 100
check_eq "pacer0 rx_packets delta = vethA tx.packets delta" "$rx" \
	$((V1_tx_packets - V0_tx_packets))
check_eq "pacer0 rx_bytes delta = vethA tx.bytes delta" \
	"$(pacer_delta P1 P0 rx_bytes)" $((V1_tx_bytes - V0_tx_bytes))
check_eq "pacer0 tx_packets delta = rx_packets delta" "$(pacer_delta P1 P0 tx_packets)" "$rx"
check_eq "pacer0 tx_bytes = rx_bytes" "$P1_tx_bytes" "$P1_rx_bytes"
check_eq "pacer0 drops (all reasons)" "$(pacer_drops P1)" 0
check_eq "vethA tx.dropped delta" $((V1_tx_dropped - V0_tx_dropped)) 0
check_eq "pacer0 backlog_packets" "$P1_backlog_packets" 0
check_eq "pacer0 backlog_bytes" "$P1_backlog_bytes" 0

check_pct_ge "goodput through pacer0 vs without (bit/s)" "$got" "$base" 90
check_invariant "$NS_A" pacer0
check_views "$NS_A" pacer0

ksft_exit
