#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pacerctl attach/detach: one command in place of "tc qdisc add ... clsact"
# plus "tc filter add ... matchall action mirred egress redirect".
# Attached, vethB's ingress (and then its egress) reaches pacer0: pacer0
# receives exactly the packets vethB received (sent), tc shows a matchall
# filter at pref 49152 redirecting to pacer0; detached, the filter is gone
# and pacer0 receives nothing more.  A redirect added by hand with tc on
# chain 5 is found and deleted by detach (chain 5 is empty afterwards),
# and chain 0's filter of the same pref and handle is left alone; attach
# refuses beside it, naming "chain 5 pref 7", and dump writes it as a
# comment, not as an attach line, with a warning.  With vethB's ingress on
# shared filter block 22, which dum1's ingress shares, attach refuses it,
# naming the block and dum1, and changes nothing (its egress, on no block,
# is attached and detached as before); a redirect added by hand with
# "tc filter add block 22" is named by attach beside it, written by dump as
# a comment for each of vethB and dum1, with one warning, and deleted by
# detach from the block (block 22 is empty afterwards).  Every refusal
# names its cause and changes nothing: a second attach, a pref in use, an
# ingress qdisc where egress needs clsact, a device that does not exist or
# is no pacer, an unprivileged user, bad arguments.
#
#   +----- NS_A -----+          +---------------- NS_B -------------------+
#   | ping -i 0.05   |          | vethB 10.0.14.2                         |
#   | vethA 10.0.14.1+----------+-> ingress / egress (clsact): matchall   |
#   +----------------+          |     mirred redirect --> pacer0 --> back |
#                               | dum0 (dummy): "ingress" qdisc, pref use |
#                               | dum1 (dummy): ingress on block 22 too   |
#                               +-----------------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl tc jq ping setpriv

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.14.1 "$NS_B" vethB 10.0.14.2
pacer_add "$NS_B" pacer0

# filters NS DEV SIDE: "PREF TO_DEV" for each matchall filter on that side
# of DEV whose first action is a mirred redirect.
filters() {
	tc -n "$1" -j filter show dev "$2" "$3" 2>/dev/null | jq -r '
		.[] | select(.kind == "matchall" and .options.actions != null)
		| "\(.pref) \(.options.actions[0].to_dev)"' | sort -u
}

# on_chain NS DEV SIDE CHAIN: "PREF TARGET" for each filter on that chain
# of that side of DEV: its first action's target device (mirred) or
# control action (pass).
on_chain() {
	tc -n "$1" -j filter show dev "$2" "$3" chain "$4" 2>/dev/null | jq -r '
		.[] | select(.options != null) | .pref as $p | .options.actions[0]
		| "\($p) \(.to_dev // .control_action.type)"' | sort -u
}

# in_block NS BLOCK: "PREF TO_DEV" for each filter of shared filter block
# BLOCK whose first action is a mirred redirect.
in_block() {
	tc -n "$1" -j filter show block "$2" 2>/dev/null | jq -r '
		.[] | select(.options.actions != null)
		| "\(.pref) \(.options.actions[0].to_dev)"' | sort -u
}

# pings: 20 pings from NS_A.  Sets PINGS (answered), RX (packets pacer0
# received meanwhile), VRX and VTX (packets vethB received and sent).
pings() {
	wait_pacer_idle "$NS_B" pacer0
	link_snap "$NS_B" vethB V0
	pacer_snap "$NS_B" pacer0 P0
	ip netns exec "$NS_A" ping -n -q -c 20 -i 0.05 -W 2 10.0.14.2 \
		>"$TMPD/ping" 2>&1 || true
	wait_pacer_idle "$NS_B" pacer0
	link_snap "$NS_B" vethB V1
	pacer_snap "$NS_B" pacer0 P1
	PINGS=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$TMPD/ping")
	RX=$(pacer_delta P1 P0 rx_packets)
	VRX=$((V1_rx_packets - V0_rx_packets))
	VTX=$((V1_tx_packets - V0_tx_packets))
	log "pings answered $PINGS; pacer0 rx +$RX; vethB rx +$VRX tx +$VTX"
}

step "bad arguments and devices (exit 2: usage; 1: refused)"
check_fail "no side" 2 '"attach" needs "ingress DEV" or "egress DEV"' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0
check_fail "no pacer" 2 '"attach" needs "dev PACER"' \
	ip netns exec "$NS_B" pacerctl attach ingress vethB
check_fail "pref 0" 2 'invalid pref "0": expected a number from 1 to 65535' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress vethB pref 0
check_fail "pref on detach" 2 'unknown argument "pref" for "detach"' \
	ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress vethB pref 5
check_fail "to itself" 2 "cannot redirect pacer0's ingress to itself" \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress pacer0
check_fail "no such pacer" 1 'device "pacer9" does not exist' \
	ip netns exec "$NS_B" pacerctl attach dev pacer9 ingress vethB
check_fail "not a pacer" 1 'device "vethB" is not a pacer device' \
	ip netns exec "$NS_B" pacerctl attach dev vethB ingress lo
check_fail "no such device" 1 'device "veth9" does not exist' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress veth9
check_fail "detach, nothing attached" 1 'vethB ingress does not redirect to pacer0' \
	ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress vethB
check_fail "unprivileged" 1 'cannot add a clsact qdisc to vethB: Operation not permitted' \
	ip netns exec "$NS_B" setpriv --reuid 65534 --regid 65534 --clear-groups \
	pacerctl attach dev pacer0 ingress vethB
check_eq "no qdisc left on vethB by the refusals" \
	"$(tc -n "$NS_B" -j qdisc show dev vethB | jq '[.[] | select(.kind == "clsact" or .kind == "ingress")] | length')" 0

step "attach vethB ingress"
check_ok "attach ingress" ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress vethB
check_eq "tc: matchall on vethB ingress" "$(filters "$NS_B" vethB ingress)" "49152 pacer0"
check_fail "attach twice" 1 'vethB ingress already redirects to pacer0 (pref 49152)' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress vethB pref 7
check_eq "tc: still one filter" "$(filters "$NS_B" vethB ingress)" "49152 pacer0"
pings
check_eq "ingress: pings answered" "$PINGS" 20
check_ge "ingress: packets through pacer0" "$RX" 20
check_eq "ingress: pacer0 rx_packets = vethB rx_packets" "$RX" "$VRX"

step "detach vethB ingress; attach its egress, at pref 7"
check_ok "detach ingress" ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress vethB
check_eq "tc: no redirect on vethB ingress" "$(filters "$NS_B" vethB ingress)" ""
check_ok "attach egress" ip netns exec "$NS_B" pacerctl attach dev pacer0 egress vethB pref 7
check_eq "tc: matchall on vethB egress" "$(filters "$NS_B" vethB egress)" "7 pacer0"
pings
check_eq "egress: pings answered" "$PINGS" 20
check_ge "egress: packets through pacer0" "$RX" 20
check_eq "egress: pacer0 rx_packets = vethB tx_packets" "$RX" "$VTX"

step "detach vethB egress"
check_ok "detach egress" ip netns exec "$NS_B" pacerctl detach dev pacer0 egress vethB
check_eq "tc: no redirect on vethB egress" "$(filters "$NS_B" vethB egress)" ""
check_eq "clsact stays (other filters may use it)" \
	"$(tc -n "$NS_B" -j qdisc show dev vethB | jq -r '.[] | select(.kind == "clsact") | .kind')" clsact
pings
check_eq "detached: pings answered" "$PINGS" 20
check_eq "detached: packets through pacer0" "$RX" 0

step "a redirect added by hand on chain 5, and chain 0's filter of its pref"
# Both matchall filters get handle 1 and protocol all: a delete that names
# no chain would find chain 0's.
tc -n "$NS_B" filter add dev vethB ingress pref 7 matchall action pass
tc -n "$NS_B" filter add dev vethB ingress chain 5 pref 7 matchall \
	action mirred egress redirect dev pacer0
check_eq "tc: the redirect on chain 5" "$(on_chain "$NS_B" vethB ingress 5)" "7 pacer0"
check_eq "tc: the pass on chain 0" "$(on_chain "$NS_B" vethB ingress 0)" "7 pass"
check_fail "attach beside it" 1 'vethB ingress already redirects to pacer0 (chain 5 pref 7)' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress vethB
check_ok "dump" ip netns exec "$NS_B" pacerctl dump dev pacer0
check_eq "dump: no attach line (it would redirect all of vethB's ingress)" \
	"$(grep -c '^attach ' "$TMPD/out")" 0
check_eq "dump: a comment instead" \
	"$(grep -cx '# not restored: vethB ingress redirects to pacer0 from chain 5 pref 7, and attach adds to chain 0 only' "$TMPD/out")" 1
check_eq "dump: and a warning" \
	"$(grep -c 'warning: vethB ingress redirects to pacer0 from chain 5 pref 7: attach adds to chain 0 only' "$TMPD/err")" 1
check_ok "detach finds it on chain 5" ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress vethB
check_eq "tc: chain 5 is empty" "$(on_chain "$NS_B" vethB ingress 5)" ""
check_eq "tc: chain 0's pass is kept" "$(on_chain "$NS_B" vethB ingress 0)" "7 pass"
check_fail "detach again" 1 'vethB ingress does not redirect to pacer0' \
	ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress vethB
tc -n "$NS_B" filter del dev vethB ingress pref 7

step "an existing ingress qdisc, a pref in use"
ip -n "$NS_B" link add dum0 type dummy
ip -n "$NS_B" link set dum0 up
tc -n "$NS_B" qdisc add dev dum0 ingress
check_fail "egress beside an ingress qdisc" 1 \
	'dum0 has an ingress qdisc, and egress redirection needs clsact: delete it first (tc qdisc del dev dum0 ingress)' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 egress dum0
check_ok "ingress uses the ingress qdisc" ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress dum0
check_eq "tc: matchall on dum0 ingress" "$(filters "$NS_B" dum0 ingress)" "49152 pacer0"
check_ok "detach dum0" ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress dum0
tc -n "$NS_B" filter add dev dum0 ingress pref 100 matchall action pass
check_fail "pref in use" 1 'dum0 ingress already has a filter with pref 100: choose another (pref N)' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress dum0 pref 100
check_eq "dum0 ingress: only the operator's filter" \
	"$(tc -n "$NS_B" -j filter show dev dum0 ingress | jq '[.[] | select(.options != null)] | length')" 1

step "a shared filter block: vethB ingress on block 22, with dum1's"
# The kernel takes filters there only through the block ("tc filter ...
# block 22"); vethB's egress is on no block.
tc -n "$NS_B" qdisc del dev vethB clsact
tc -n "$NS_B" qdisc add dev vethB ingress_block 22 clsact
ip -n "$NS_B" link add dum1 type dummy
tc -n "$NS_B" qdisc add dev dum1 ingress_block 22 clsact
check_fail "attach on the block" 1 \
	'vethB ingress uses shared filter block 22 (also used by dum1 ingress): attach does not add to a shared block, where a redirect takes the traffic of every device on it; if that is meant: tc filter add block 22 pref 49152 matchall action mirred egress redirect dev pacer0' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress vethB
check_eq "tc: block 22 still empty" "$(in_block "$NS_B" 22)" ""
check_ok "attach egress, on no block" ip netns exec "$NS_B" pacerctl attach dev pacer0 egress vethB
check_eq "tc: matchall on vethB egress" "$(filters "$NS_B" vethB egress)" "49152 pacer0"
check_ok "detach egress" ip netns exec "$NS_B" pacerctl detach dev pacer0 egress vethB
check_eq "tc: no redirect on vethB egress" "$(filters "$NS_B" vethB egress)" ""
tc -n "$NS_B" filter add block 22 pref 7 matchall \
	action mirred egress redirect dev pacer0
check_eq "tc: the redirect in block 22" "$(in_block "$NS_B" 22)" "7 pacer0"
check_fail "attach beside it" 1 'vethB ingress already redirects to pacer0 (block 22 pref 7)' \
	ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress vethB
check_ok "dump" ip netns exec "$NS_B" pacerctl dump dev pacer0
check_eq "dump: no attach line (attach refuses the block)" \
	"$(grep -c '^attach ' "$TMPD/out")" 0
check_eq "dump: a comment for vethB" \
	"$(grep -cx '# not restored: vethB ingress redirects to pacer0 from block 22 pref 7, a shared filter block, and attach does not add to one' "$TMPD/out")" 1
check_eq "dump: and one for dum1" \
	"$(grep -cx '# not restored: dum1 ingress redirects to pacer0 from block 22 pref 7, a shared filter block, and attach does not add to one' "$TMPD/out")" 1
check_eq "dump: one warning for the filter" \
	"$(grep -c 'redirects to pacer0 from block 22 pref 7, a shared filter block: attach does not add to one' "$TMPD/err")" 1
check_ok "detach deletes it from the block" ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress vethB
check_eq "tc: block 22 is empty" "$(in_block "$NS_B" 22)" ""
check_fail "detach again, through dum1" 1 'dum1 ingress does not redirect to pacer0' \
	ip netns exec "$NS_B" pacerctl detach dev pacer0 ingress dum1
tc -n "$NS_B" qdisc del dev vethB clsact

step "a pacer device that is down"
ip -n "$NS_B" link set pacer0 down
check_ok "attach to a down pacer0" ip netns exec "$NS_B" pacerctl attach dev pacer0 ingress vethB
check_eq "the warning" "$(grep -c 'warning: pacer0 is down' "$TMPD/err")" 1

ksft_exit
