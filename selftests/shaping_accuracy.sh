#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Shaping accuracy: one TCP flow through a pacer class at 10, 20 and 50
# Mbit/s gets within 1 % of the theoretical goodput (rate x 1448/1514).
# The goodput is the payload the receiver's IP layer took in from second
# 2 (slow start excluded) to second 9 of a 10 s run (rx_payload), not the
# bytes iperf3's receiver read: at 10-20 Mbit/s the class signals the
# flow by a drop one to three times a second, and the bytes held behind
# each hole reach the application only when it is filled, a congestion
# window at once, so iperf3's figure over a window moves by up to ~1 %
# with where its edges fall.  Both are logged.
#
# The same flow through the kernel's reference shaper, an ifb with an
# HTB class of the same rate and burst (pacer's default, which the
# kernel works out anew at each rate: 10 ms at rate, at least 16 KiB for
# a class that splits GSO; read from the class at each rate), runs in
# the same VM right after and is printed beside it.  It is also the
# control: when a busy host (TCG shares two cores with other VMs) keeps
# even ifb+htb from 1 %, pacer must be no further from the theory than
# ifb+htb (check_accuracy says which rule applied).  The class's
# accounting holds exactly once each run is over.  Debug kernel: 10
# Mbit/s only, 6 s runs (seconds 2-5), 3 %.  Premise: one flow keeps the
# class busy.  The path through pacer0 is measured first; a rate above a
# quarter of what it carries is replaced by that quarter.
#
#   +------- NS_S --------+       +--------------- NS_P ----------------+
#   | iperf3 -c           |       | vethP 10.0.4.2           iperf3 -s  |
#   | vethSP 10.0.4.1 ----+-------+-> ingress: matchall mirred          |
#   |                     |       |   --> pacer0: rule src 10.0.4.1     |
#   |                     |       |       --> class 1 (rate R) --'      |
#   |                     |       +-------------------------------------+
#   |                     |       +--------------- NS_H ----------------+
#   | vethSH 10.0.5.1 ----+-------+-> vethH 10.0.5.2         iperf3 -s  |
#   |                     |       |   ingress: matchall mirred          |
#   +---------------------+       |   --> ifb0 (txqueuelen 1000):       |
#                                 |       htb 1:1 rate R, pfifo 1000    |
#                                 +-------------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc ss

if [ "$IS_DEBUG" = 1 ]; then
	RATES="10"
	SECS=6
	TOL=3
else
	RATES="10 20 50"
	SECS=10
	TOL=1
fi
FROM=2		# seconds of each run left out: slow start

setup_ns NS_S NS_P NS_H
load_pacer
veth_pair "$NS_S" vethSP 10.0.4.1 "$NS_P" vethP 10.0.4.2
veth_pair "$NS_S" vethSH 10.0.5.1 "$NS_H" vethH 10.0.5.2
pacer_add "$NS_P" pacer0
redirect_ingress "$NS_P" vethP pacer0
jserver "$NS_P" 10.0.4.2
jserver "$NS_H" 10.0.5.2

step "premise: what the path carries unshaped"
path_capacity "$NS_S" 10.0.4.2
fitted=
for r in $RATES; do
	fit_mbit r "$r"
	case " $fitted " in *" $r "*) ;; *) fitted="$fitted $r" ;; esac
done
RATES=${fitted# }

step "class 1 at ${RATES%% *} Mbit/s for 10.0.4.1; ifb0 + htb at the same rate"
pc "$NS_P" class add dev pacer0 id 1 name bulk rate "${RATES%% *}mbit"
pc "$NS_P" rule add dev pacer0 src 10.0.4.1/32 class 1
class_snap "$NS_P" pacer0 1 C
burst=$C_burst
# 10 ms at R Mbit/s is R x 1250 bytes.
want=$((${RATES%% *} * 1250))
[ "$want" -ge 16384 ] || want=16384
check_eq "default burst: max(10 ms at rate, 16 KiB) below 1 Gbit/s" "$burst" "$want"
ifb_htb "$NS_H" vethH ifb0 "${RATES%% *}mbit" "$burst"

# off GOT WANT: |GOT - WANT| as a percentage of WANT.
off() {
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; printf "%.2f", 100 * d / w }'
}

# check_accuracy MBIT PACER HTB WANT: pacer's goodput is within TOL % of
# WANT.  Only if the reference run right after it missed that too (the
# host was too busy for either to be exact: see the table) is pacer held
# to the reference instead: no further from WANT than ifb+htb, plus 0.2
# points.  A busy host only slows a flow down: goodput more than TOL %
# above WANT is a failure whatever the reference did.  Which rule applied
# is printed.
check_accuracy() {
	local name="pacer $1 Mbit/s: goodput s$FROM-$((SECS - 1)) vs rate x 1448/1514" po ho

	po=$(off "$2" "$4")
	ho=$(off "$3" "$4")
	if awk -v p="$po" -v t="$TOL" 'BEGIN { exit !(p <= t) }'; then
		_pass "$name: $2, want $4 +/- $TOL % (off by $po %; ifb+htb off by $ho %)"
	elif is_uint "$2" && [ "$2" -gt "$4" ]; then
		_fail "$name: got $2, $po % above $4 (want <= $TOL %): a busy host does not make a flow faster; ifb+htb off by $ho %"
	elif awk -v h="$ho" -v t="$TOL" 'BEGIN { exit !(h <= t) }'; then
		_fail "$name: got $2, want $4 +/- $TOL % (off by $po %) - ifb+htb managed it (off by $ho %)"
	elif awk -v p="$po" -v h="$ho" 'BEGIN { exit !(p <= h + 0.2) }'; then
		_pass "$name: $2 is off by $po %, more than $TOL %, but ifb+htb in the same conditions is off by $ho %: a busy host; pacer no worse than the reference"
	else
		_fail "$name: got $2, off by $po % (want <= $TOL %); ifb+htb off by $ho %: pacer worse than the reference"
	fi
}

# measure NS ADDR RXNS OUT WHO: an iperf3 run of SECS s from NS to ADDR
# in RXNS, its report in OUT.  Sets BPS, the payload RXNS received from
# second FROM to second SECS - 1 of the run (rx_payload), and
# IPERF_RETRANS.
measure() {
	local t0 first second

	t0=$(now_ms)
	bg iperf_run "$1" "$2" "$SECS" "$4"
	wait_until_ms $((t0 + FROM * 1000))
	first=$(rx_payload "$3")
	wait_until_ms $((t0 + (SECS - 1) * 1000))
	second=$(rx_payload "$3")
	iperf_join "$BGPID" $((SECS + 30)) "$4" "$5"
	BPS=$(rx_payload_bps "$first" "$second")
}

table=""
for r in $RATES; do
	bps=$((r * 1000000))
	want=$(theory "$bps")

	step "pacer, $r Mbit/s: ${SECS}s of TCP"
	pc "$NS_P" class change dev pacer0 id 1 rate "${r}mbit"
	class_snap "$NS_P" pacer0 1 C
	check_eq "class 1 rate_bps" "$C_rate_bps" "$bps"
	# The kernel recomputes the default burst for each rate (25000 bytes
	# at 20 Mbit/s, 62500 at 50): the control below gets this rate's.
	want_burst=$((r * 1250))
	[ "$want_burst" -ge 16384 ] || want_burst=16384
	check_eq "class 1 burst at $r Mbit/s: max(10 ms at rate, 16 KiB)" "$C_burst" "$want_burst"
	burst=$C_burst
	pc "$NS_P" stats reset dev pacer0 id 1
	measure "$NS_S" 10.0.4.2 "$NS_P" "$TMPD/pacer-$r.json" pacer
	p_re=$IPERF_RETRANS
	p_bps=$BPS
	p_app=$(iperf_rx_bps "$TMPD/pacer-$r.json" "$FROM" $((SECS - 1)))
	wait_class_idle "$NS_P" pacer0 1
	class_snap "$NS_P" pacer0 1 C
	show_class "class 1 after the run" C
	log "receiver intervals (start end bit/s):" \
		$(iperf_rx_intervals "$TMPD/pacer-$r.json" | awk '{ printf "[%s-%s %d] ", $1, $2, $3 }')

	step "ifb + htb, $r Mbit/s (burst $burst, pacer's): ${SECS}s of TCP"
	htb_rate "$NS_H" ifb0 "${r}mbit" "$burst"
	h_drop0=$(htb_drops "$NS_H" ifb0)
	measure "$NS_S" 10.0.5.2 "$NS_H" "$TMPD/htb-$r.json" ifb+htb
	h_re=$IPERF_RETRANS
	h_bps=$BPS
	h_app=$(iperf_rx_bps "$TMPD/htb-$r.json" "$FROM" $((SECS - 1)))
	h_drop=$(($(htb_drops "$NS_H" ifb0) - h_drop0))

	log "ifb+htb $r Mbit/s: goodput $h_bps bit/s = $(pct "$h_bps" "$want") % of $want"
	log "what iperf3's receiver read in the same seconds: pacer $p_app, ifb+htb $h_app bit/s;" \
		"sender retransmits by second: pacer $(iperf_tx_retrans_by_second "$TMPD/pacer-$r.json")," \
		"ifb+htb $(iperf_tx_retrans_by_second "$TMPD/htb-$r.json")"
	check_accuracy "$r" "$p_bps" "$h_bps" "$want"
	check_eq "pacer $r Mbit/s: delay_hist total = tx_packets" "$C_hist_total" "$C_tx_packets"
	check_class_invariant "pacer $r Mbit/s" C
	check_ge "pacer $r Mbit/s: delayed_packets (the class did shape)" "$C_delayed_packets" 1
	table="$table
$(printf '%5s %9s %9s %7s %6s/%-6s %9s %7s %6s/%-6s' "$r" "$(mbit "$want")" \
		"$(mbit "$p_bps")" "$(pct "$p_bps" "$want")" "$C_dropped_packets" "$p_re" \
		"$(mbit "$h_bps")" "$(pct "$h_bps" "$want")" "$h_drop" "$h_re")"
done

log ""
log "goodput, Mbit/s, receiver's IP layer, seconds $FROM-$((SECS - 1)) (share of rate x 1448/1514):"
log "$(printf '%5s %9s %9s %7s %13s %9s %7s %13s' rate theory pacer % drop/retr htb % drop/retr)$table"

ksft_exit
