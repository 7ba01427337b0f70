#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# GSO packets: a class below 500 Mbit/s splits them into their segments
# (gso auto), a class at or above 500 Mbit/s keeps them whole, and "gso
# split" and "gso keep" decide it whatever the rate.  One TCP flow (its
# sender builds GSO packets of several segments; veth passes them on
# whole) runs through class 1 in each mode; what the class re-injected
# tells which it did: split, no packet is longer than a frame (tx_bytes /
# tx_packets <= 1514); kept, the average is several frames (> 3000).
# A kept GSO packet is charged as its segments: at 100 Mbit/s (or a
# quarter of what the path carries, if less) with "gso keep" the flow's
# goodput is within 2 % of rate x 1448/1514, as split.
#
# Everything runs on CPU 0: the test and its iperf3s are pinned there, and
# RPS steers both veths' receive processing to it.  Over veth with TSO a
# sender's packets wait in the receive backlog of the CPU that sent them,
# and an unpinned sender sends from whichever CPU its ACKs arrive on: a
# packet sent later from the other CPU then reaches pacer0 first.
# Measured at pacer0's entry, 1-2 such packets per 5 s run when the class
# splits (its segments then reach the receiver out of order and are
# resent: once 97.8 % of the rate); pacer0 re-injected every segment in
# the order it received it.  flow_moves.sh feeds one flow to pacer0 from
# both CPUs in order, and checks that the order holds.
#
#   +---- NS_A ----+          +---------------- NS_B ----------------+
#   | iperf3 -c    |          | vethB 10.0.21.2: ingress --> pacer0:  |
#   | vethA -------+--------->|   class 1: rate R, gso auto|split|keep |
#   +--------------+          +--------------------------------------+
#
# run_tests: timeout=240
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc ss taskset

if [ "$IS_DEBUG" = 1 ]; then
	SECS=4
	TOL=4
else
	SECS=5
	TOL=2
fi
FROM=1

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.21.1 "$NS_B" vethB 10.0.21.2
taskset -p 1 $$ >/dev/null
rps "$NS_A" vethA 1
rps "$NS_B" vethB 1
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.21.2

step "premise: what the path carries unshaped"
path_capacity "$NS_A" 10.0.21.2
fit_mbit MBIT 100
pc "$NS_B" class add dev pacer0 id 1 name gso rate "${MBIT}mbit"
pc "$NS_B" rule add dev pacer0 src 10.0.21.1/32 class 1

# run RATE GSO: the flow through class 1 at RATE with GSO; sets AVG (bytes
# per re-injected packet), BPS (goodput, s$FROM-$SECS), OFO (segments
# the receiver queued out of order) and DSACK (the sender's DSACKs: what
# it retransmitted needlessly).
run() {
	local ofo0 dsack0

	pc "$NS_B" class change dev pacer0 id 1 rate "$1" gso "$2"
	pc "$NS_B" stats reset dev pacer0 id 1
	ofo0=$(snmp_counter "$NS_B" TcpExtTCPOFOQueue)
	dsack0=$(snmp_counter "$NS_A" TcpExtTCPDSACKRecv)
	iperf_run "$NS_A" 10.0.21.2 "$SECS" "$TMPD/$1-$2.json"
	OFO=$(($(snmp_counter "$NS_B" TcpExtTCPOFOQueue) - ofo0))
	DSACK=$(($(snmp_counter "$NS_A" TcpExtTCPDSACKRecv) - dsack0))
	wait_class_idle "$NS_B" pacer0 1
	class_snap "$NS_B" pacer0 1 C
	check_eq "rate $1 gso $2: class 1 says gso" "$C_gso" "$2"
	# Premise: the flow went through class 1.  Without it AVG is 0 and
	# "split: one frame at most" passes on nothing.
	check_ge "rate $1 gso $2: premise: packets class 1 re-injected" "$C_tx_packets" 100
	check_ge "rate $1 gso $2: premise: class 1 re-injected the payload the receiver got (bytes)" \
		"$C_tx_bytes" "$(jq '.end.sum_received.bytes' "$TMPD/$1-$2.json")"
	AVG=$((C_tx_bytes / (C_tx_packets + (C_tx_packets == 0))))
	BPS=$(iperf_rx_bps "$TMPD/$1-$2.json" "$FROM" "$SECS")
	log "rate $1 gso $2: $C_tx_packets packets, $C_tx_bytes bytes re-injected: $AVG bytes a packet; goodput $BPS bit/s"
	log "rate $1 gso $2: $C_delayed_packets packets delayed; receiver's Mbit/s by second: $(iperf_rx_mbit_by_second "$TMPD/$1-$2.json"); sender's retransmits by second: $(iperf_tx_retrans_by_second "$TMPD/$1-$2.json"); segments out of order at the receiver: $OFO; DSACKs at the sender: $DSACK"
	check_class_invariant "rate $1 gso $2: class 1" C
}

step "below 500 Mbit/s, gso auto: split"
run "${MBIT}mbit" auto
check_le "${MBIT}mbit auto: bytes a packet (split: one frame at most)" "$AVG" 1514
check_within "${MBIT}mbit auto: goodput vs rate x 1448/1514" \
	"$BPS" "$(theory $((MBIT * 1000000)))" "$TOL"

step "below 500 Mbit/s, gso keep: whole, charged as its segments"
run "${MBIT}mbit" keep
check_ge "${MBIT}mbit keep: bytes a packet (kept: several frames)" "$AVG" 3000
check_within "${MBIT}mbit keep: goodput vs rate x 1448/1514" \
	"$BPS" "$(theory $((MBIT * 1000000)))" "$TOL"

step "500 Mbit/s and more, gso auto: whole"
run 10gbit auto
check_ge "10gbit auto: bytes a packet (kept)" "$AVG" 3000

step "500 Mbit/s and more, gso split: split"
run 10gbit split
check_le "10gbit split: bytes a packet (split)" "$AVG" 1514

ksft_exit
