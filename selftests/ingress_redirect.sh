#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Ingress redirect: everything arriving on vethB goes through pacer0 and
# back into vethB's receive path.  A TCP flow keeps >= 90 % of the goodput
# it has without the redirect (at a fixed offered rate, 200 Mbit/s or a quarter of what the path
# through pacer0 carries if that is less: see lib.sh), pacer0 receives exactly the packets vethB
# received, re-injects them all, drops none, and its three views
# (ip -s link, ethtool -S, pacerctl) agree.
#
#   +------- NS_A -------+            +------------- NS_B --------------+
#   | iperf3 -c          |            |                       iperf3 -s |
#   | vethA 10.0.1.1 ----+------------+-> vethB 10.0.1.2                |
#   |                    |            |    ingress: matchall            |
#   |                    |            |    mirred redirect --> pacer0   |
#   |                    |            |    <-- re-injected --'          |
#   +--------------------+            +---------------------------------+
#
# run_tests: timeout=150
. "$(dirname "$0")/lib.sh"

require iperf3 jq ethtool pacerctl tc ss

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.1.1 "$NS_B" vethB 10.0.1.2
iperf_server "$NS_B" 10.0.1.2

step "premise: what the path through pacer0 carries"
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
path_capacity "$NS_A" 10.0.1.2
fit_mbit MBIT "${IPERF_RATE%M}"
RATE=${MBIT}M
tc -n "$NS_B" qdisc del dev vethB ingress

step "baseline: ${IPERF_TIME}s of TCP at $RATE without the redirect"
iperf_tcp "$NS_A" 10.0.1.2 "$IPERF_TIME" "$TMPD/base.json" -b "$RATE"
base=$IPERF_BPS

step "redirect vethB's ingress to pacer0"
redirect_ingress "$NS_B" vethB pacer0
wait_pacer_idle "$NS_B" pacer0
link_snap "$NS_B" vethB V0
pacer_snap "$NS_B" pacer0 P0

step "${IPERF_TIME}s of TCP at $RATE through pacer0"
iperf_tcp "$NS_A" 10.0.1.2 "$IPERF_TIME" "$TMPD/redir.json" -b "$RATE"
got=$IPERF_BPS
wait_pacer_idle "$NS_B" pacer0
link_snap "$NS_B" vethB V1
pacer_snap "$NS_B" pacer0 P1
log "pacer0 before: $P0"
log "pacer0 after:  $P1"

rx=$(pacer_delta P1 P0 rx_packets)
check_ge "packets through pacer0 during the run" "$rx" 100
check_eq "pacer0 rx_packets delta = vethB rx.packets delta" "$rx" \
	$((V1_rx_packets - V0_rx_packets))
check_eq "pacer0 rx_bytes delta = vethB rx.bytes delta" \
	"$(pacer_delta P1 P0 rx_bytes)" $((V1_rx_bytes - V0_rx_bytes))
check_eq "pacer0 tx_packets delta = rx_packets delta" "$(pacer_delta P1 P0 tx_packets)" "$rx"
check_eq "pacer0 tx_bytes = rx_bytes" "$P1_tx_bytes" "$P1_rx_bytes"
check_eq "pacer0 drops (all reasons)" "$(pacer_drops P1)" 0
check_eq "pacer0 backlog_packets" "$P1_backlog_packets" 0
check_eq "pacer0 backlog_bytes" "$P1_backlog_bytes" 0

check_pct_ge "goodput through pacer0 vs without (bit/s)" "$got" "$base" 90
check_invariant "$NS_B" pacer0
check_views "$NS_B" pacer0

ksft_exit
