#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Packets sent to pacer0 directly (routed out of it, not redirected to it by
# tc mirred) have nowhere to be re-injected: each one is dropped and counted
# as dropped_not_redirected (rx_dropped in "ip -s link"), as ifb does.
#
#   +------------------------ NS ------------------------+
#   |  ping 10.99.0.2 --route--> pacer0 10.99.0.1/24     |
#   |                            xmit: not redirected,   |
#   |                            dropped and counted     |
#   +----------------------------------------------------+
#
# pacer0 is NOARP, so the kernel sends without resolving anything; IPv6 is
# off and the device is not multicast, so the pings are the only packets.
. "$(dirname "$0")/lib.sh"

require ping ethtool pacerctl

setup_ns NS
load_pacer
pacer_add "$NS" pacer0
ip -n "$NS" addr add 10.99.0.1/24 dev pacer0

# ping_sent K [ARGS]: K echo requests out of pacer0, no reply expected.
ping_sent() {
	local k=$1 rc=0

	shift
	ip netns exec "$NS" ping -q -n -c "$k" -i 0.05 -W 1 "$@" >"$TMPD/ping" 2>&1 || rc=$?
	grep 'packets transmitted' "$TMPD/ping" >&2
	sed -n 's/^\([0-9]*\) packets transmitted.*/\1/p' "$TMPD/ping"
}

step "no traffic yet"
check_eq "rx_packets before (the device sent nothing by itself)" \
	"$(pacer_stat "$NS" pacer0 rx_packets)" 0

step "ping through pacer0: 5 packets"
sent=$(ping_sent 5 10.99.0.2)
check_eq "ping sent" "$sent" 5
wait_pacer_idle "$NS" pacer0
pacer_snap "$NS" pacer0 P
log "$P"
check_eq "dropped_not_redirected" "$P_dropped_not_redirected" 5
check_eq "rx_packets" "$P_rx_packets" 5
# 56 bytes of payload + 8 ICMP + 20 IP + 14 Ethernet.
check_eq "rx_bytes (5 x 98)" "$P_rx_bytes" 490
check_eq "tx_packets" "$P_tx_packets" 0
check_eq "tx_bytes" "$P_tx_bytes" 0
check_eq "backlog_packets" "$P_backlog_packets" 0
check_eq "other drops" $((P_dropped_queue_limit + P_dropped_reinject + P_dropped_flush)) 0
link_snap "$NS" pacer0 L
check_eq "ip -s link rx.packets" "$L_rx_packets" 5
check_eq "ip -s link rx.dropped" "$L_rx_dropped" 5
check_eq "ip -s link tx.dropped" "$L_tx_dropped" 0
check_eq "ip -s link tx.packets" "$L_tx_packets" 0

step "ping -I pacer0 with a larger payload: 3 more"
sent=$(ping_sent 3 -I pacer0 -s 1000 10.99.0.77)
check_eq "ping sent" "$sent" 3
wait_pacer_idle "$NS" pacer0
pacer_snap "$NS" pacer0 P
check_eq "dropped_not_redirected (5 + 3)" "$P_dropped_not_redirected" 8
check_eq "rx_bytes (490 + 3 x 1042)" "$P_rx_bytes" 3616
check_eq "tx_packets" "$P_tx_packets" 0
check_invariant "$NS" pacer0
check_views "$NS" pacer0

# The kernel keeps packets from a device that is down (its qdisc is the
# noop one until it is up): pacer's xmit sees none, and counts none.
step "a down device is given nothing"
ip -n "$NS" link set pacer0 down
rc=0
ip netns exec "$NS" ping -q -n -c 2 -i 0.05 -W 1 -I pacer0 10.99.0.2 >"$TMPD/ping" 2>&1 || rc=$?
log "ping through the down pacer0: exit $rc, $(tr '\n' ' ' <"$TMPD/ping")"
check_ge "ping through the down pacer0 fails (exit status)" "$rc" 1
pacer_snap "$NS" pacer0 P
check_eq "rx_packets unchanged" "$P_rx_packets" 8
check_eq "dropped_flush (nothing was queued)" "$P_dropped_flush" 0

ksft_exit
