#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Overload: UDP offered at twice a class's rate (20 Mbit/s into 10 Mbit/s,
# 5 s) must hit the class limit and be dropped there, never queue beyond
# it, and be accounted for packet by packet:
# - drops.queue_limit > 0; drops.congestion (the signal to a sender that
#   is not ECN-capable: UDP's queue stands all along) at least one and at
#   most one per class rtt (100 ms by default) of the run; nothing dropped
#   for any other reason;
# - backlog_bytes, sampled every ~0.2 s during the run, never exceeds the
#   limit (64 KiB, given in bytes so no default raises it), nor does
#   backlog_peak_bytes; the peak reaches the limit less one packet;
# - every sample taken during the run already satisfies
#   rx = tx + dropped + backlog (a reply is read under the class lock);
# - the receiver gets the class rate (payload share of each frame) within
#   2 % over seconds 1-5; the bucket is 16 KiB (given, as the default
#   may change), so that tokens saved up while a TCG stall holds the poll
#   back stay well inside it (128 KiB is 2.6 % of 4 s at 10 Mbit/s: one
#   stall failed the check);
# - once the flow stops: rx = tx + dropped + backlog exactly (packets and
#   bytes), backlog 0, and the sojourn histogram counts tx_packets.
# Debug kernel: 3 s and a 5 % goodput tolerance.
# Premise: the guest can offer twice the rate and carry what the class
# lets through.  UDP through the path is measured first; when 20 Mbit/s
# is more than a quarter of it, the class gets an eighth and is offered
# twice that.
#
#   +------- NS_A ---------+          +------------- NS_B ---------------+
#   | iperf3 -u -b 20M     |          | vethB 10.0.10.2       iperf3 -s  |
#   | vethA 10.0.10.1 -----+----------+-> ingress: matchall mirred       |
#   |                      |          |   --> pacer0, rule src 10.0.10.1 |
#   |                      |          |       proto udp (iperf3's TCP    |
#   |                      |          |       control: class 0)          |
#   |                      |          |       --> class 1: 10 Mbit/s,    |
#   |                      |          |           limit 64 KiB --'       |
#   +----------------------+          +----------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc ss

if [ "$IS_DEBUG" = 1 ]; then
	SECS=3
	TOL=5
else
	SECS=5
	TOL=2
fi

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.10.1 "$NS_B" vethB 10.0.10.2
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.10.2

step "premise: what the path carries unshaped"
path_capacity "$NS_A" 10.0.10.2 udp
fit_mbit MBIT 10 8
RATE=$((MBIT * 1000000))

step "class 1: $MBIT Mbit/s, limit 64k"
pc "$NS_B" class add dev pacer0 id 1 name udp rate "${MBIT}mbit" burst 16k limit 64k
pc "$NS_B" rule add dev pacer0 src 10.0.10.1/32 proto udp class 1
class_snap "$NS_B" pacer0 1 C0
limit=$C0_limit_bytes
check_eq "limit_bytes of \"limit 64k\"" "$limit" 65536
check_eq "no limit_us beside limit_bytes" "${C0_limit_us:-none}" none
check_eq "rate_bps" "$C0_rate_bps" "$RATE"

step "UDP at $((2 * MBIT)) Mbit/s for ${SECS}s; backlog sampled during the run"
bg iperf_run "$NS_A" 10.0.10.2 "$SECS" "$TMPD/udp.json" -u -b "$((2 * MBIT))M"
pid=$BGPID
samples=0 max_bl=0 max_blp=0 bad=0 busy=0
while ! not_running "$pid"; do
	class_snap "$NS_B" pacer0 1 S
	samples=$((samples + 1))
	[ "$S_backlog_bytes" -le "$max_bl" ] || max_bl=$S_backlog_bytes
	[ "$S_backlog_packets" -le "$max_blp" ] || max_blp=$S_backlog_packets
	[ "$S_backlog_bytes" = 0 ] || busy=$((busy + 1))
	if [ "$S_rx_packets" != $((S_tx_packets + S_dropped_packets + S_backlog_packets)) ] ||
	   [ "$S_rx_bytes" != $((S_tx_bytes + S_dropped_bytes + S_backlog_bytes)) ]; then
		bad=$((bad + 1))
		log "sample $samples breaks rx = tx + dropped + backlog:" \
			"$S_rx_packets/$S_rx_bytes vs $S_tx_packets/$S_tx_bytes" \
			"+ $S_dropped_packets/$S_dropped_bytes + $S_backlog_packets/$S_backlog_bytes"
	fi
	sleep 0.2
done
wait_exit "$pid" 30 || die "iperf3 did not end"
[ "$EXIT_STATUS" = 0 ] || die "iperf3 failed ($EXIT_STATUS)"
log "$samples samples, $busy with a backlog; largest backlog $max_bl bytes, $max_blp packets"

blksize=$(jq -r '.start.test_start.blksize' "$TMPD/udp.json")
sent=$(jq -r '.end.sum.packets // .end.sum_sent.packets // 0' "$TMPD/udp.json")
got=$(iperf_rx_bps "$TMPD/udp.json" 1 "$SECS")
# A datagram of blksize bytes is a frame of blksize + 8 + 20 + 14 bytes.
want=$((RATE * blksize / (blksize + 42)))
log "iperf3: $sent datagrams of $blksize bytes sent; receiver intervals:" \
	$(iperf_rx_intervals "$TMPD/udp.json" | awk '{ printf "[%s-%s %d] ", $1, $2, $3 }')

wait_class_idle "$NS_B" pacer0 1
class_snap "$NS_B" pacer0 1 C
show_class "class 1 after the run" C

check_ge "samples taken during the run" "$samples" 5
check_ge "samples that found a backlog" "$busy" 1
check_le "largest sampled backlog_bytes <= limit" "$max_bl" "$limit"
check_le "backlog_peak_bytes <= limit" "$C_backlog_peak_bytes" "$limit"
check_ge "backlog_peak_bytes reaches the limit less one frame" \
	"$C_backlog_peak_bytes" $((limit - 1514))
check_eq "samples breaking rx = tx + dropped + backlog" "$bad" 0
check_ge "drops.queue_limit" "$C_drops_queue_limit" 1
check_ge "drops.congestion (the standing queue's signal)" "$C_drops_congestion" 1
check_le "drops.congestion vs one per rtt ($((C0_rtt_us / 1000)) ms) of ${SECS}s" \
	"$C_drops_congestion" $((SECS * 1000000 / C0_rtt_us + 1))
check_eq "dropped_packets = drops.queue_limit + drops.congestion (no other reason)" \
	"$C_dropped_packets" $((C_drops_queue_limit + C_drops_congestion))
check_within "receiver goodput s1-$SECS vs $MBIT Mbit/s x $blksize/$((blksize + 42)) (bit/s)" \
	"$got" "$want" "$TOL"
check_class_invariant "class 1" C
check_eq "backlog once the flow stopped" "$C_backlog_packets/$C_backlog_bytes" 0/0

ksft_exit
