#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A late release is made up: one TCP flow through a class at 20 Mbit/s
# still gets within 1 % of rate x 1448/1514 (seconds 2-9 of 10) while the
# CPU that releases the class is taken from it 30 ms out of every 100.
# The bucket holds 10 ms at the rate, so without making up the delay
# each stall would cost the class 20 ms of its rate: 80 % of it.
#
# pacer0's NAPI contexts run as threads (threaded NAPI) pinned to CPU 1,
# where stall (selftests/stall.c) spins at SCHED_FIFO 30 ms every 100 ms;
# the test, the sender, the receiver and the softirqs that queue into
# pacer0 stay on CPU 0: RPS steers both veths' backlogs there, or the
# data an ACK re-injected on CPU 1 clocks out would wait out the stall in
# CPU 1's backlog while later data passed it on CPU 0 (reordering that
# cost the sender spurious retransmits and its window).
#
# A stall is made up only from what is queued: the sender's window must
# hold the stall's worth and more.  So the sender is Reno, whose slow
# start runs up to the receive window (CUBIC's HyStart left it at 55-68 KB
# in a third of the runs, under what 30 ms at the rate needs, for seconds:
# 97.2-98.9 % of the rate), and the window is fixed at 200 KB (82 ms at
# the rate), below where the class would tell it anything.  Premise,
# checked in the same run: the stalls happened, the flow's packets waited
# through them (the class's longest sojourn is at least 30 ms), the
# sender's window held twice a stall's worth all through the measured
# seconds, and the sender kept the class busy (almost every packet waited
# for tokens).  The class's accounting holds once the run is over, and the
# rate is not overshot either.  The class has rtt 200ms: a sender may then
# keep about 100 ms queued before it is told, more than a stall needs to
# be made up (with the default 100ms and its 55 ms, a window cut after a
# signal sometimes left less than 30 ms queued at the end of a stall:
# 98.8-99.4 % of rate, the sender's limit, not the class's).  Without the
# make-up (7556ad2): 78-79 %.
#
#   +------- NS_S --------+       +--------------- NS_P ----------------+
#   | iperf3 -c           |       | vethP 10.0.8.2           iperf3 -s  |
#   | vethS 10.0.8.1 -----+-------+-> ingress: matchall mirred          |
#   |                     |       |   --> pacer0: rule src 10.0.8.1     |
#   |        CPU 0        |       |       --> class 1 (20 Mbit/s) --'   |
#   +---------------------+       |   NAPI threads: CPU 1, stalled      |
#                                 +-------------------------------------+
#
# run_tests: timeout=120
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl taskset
STALL=$(dirname "$0")/stall
[ -x "$STALL" ] || skip "no $STALL (make -C selftests builds it)"
[ "$(grep -c '^processor' /proc/cpuinfo)" -ge 2 ] || skip "needs 2 CPUs"
[ "$IS_DEBUG" != 1 ] || skip "the debug kernel is too slow for a 1 % rate"

RATE=20
SECS=10
FROM=2
STALL_ON=30
STALL_PERIOD=100
TOL=1
WINDOW=200K

# Everything but the NAPI threads and the stalls on CPU 0, from the start:
# the iperf3 server inherits it.
taskset -p 1 $$ >/dev/null

setup_ns NS_S NS_P
load_pacer
veth_pair "$NS_S" vethS 10.0.8.1 "$NS_P" vethP 10.0.8.2
rps "$NS_S" vethS 1
rps "$NS_P" vethP 1
pacer_add "$NS_P" pacer0
redirect_ingress "$NS_P" vethP pacer0
jserver "$NS_P" 10.0.8.2

step "premise: what the path carries unshaped"
path_capacity "$NS_S" 10.0.8.2
fit_mbit RATE "$RATE"

step "class 1 at $RATE Mbit/s; pacer0's NAPI threads on CPU 1"
pc "$NS_P" class add dev pacer0 id 1 name bulk rate "${RATE}mbit" rtt 200ms
pc "$NS_P" rule add dev pacer0 src 10.0.8.1/32 class 1
pacer_napi_threads "$NS_P" pacer0 2
log "NAPI threads on CPU 1:$NAPI_PIDS"

step "${SECS}s of TCP, CPU 1 stalled ${STALL_ON} ms of every ${STALL_PERIOD} ms"
bg "$STALL" 1 "$STALL_ON" "$STALL_PERIOD" $((SECS + 1)) >"$TMPD/stall"
stall=$BGPID
t0=$(now_ms)
bg iperf_run "$NS_S" 10.0.8.2 "$SECS" "$TMPD/tcp.json" -C reno -w "$WINDOW"
client=$BGPID
wait_until_ms $((t0 + FROM * 1000))
first=$(rx_payload "$NS_P")
wait_until_ms $((t0 + (SECS - 1) * 1000))
second=$(rx_payload "$NS_P")
iperf_join "$client" $((SECS + 30)) "$TMPD/tcp.json" "the sender"
wait_exit "$stall" 10 || die "stall did not end"
check_eq "stall: exit status" "$EXIT_STATUS" 0
bps=$(rx_payload_bps "$first" "$second")
wait_class_idle "$NS_P" pacer0 1
class_snap "$NS_P" pacer0 1 C
show_class "class 1 after the run" C
log "receiver intervals (start end bit/s):" \
	$(iperf_rx_intervals "$TMPD/tcp.json" | awk '{ printf "[%s-%s %d] ", $1, $2, $3 }')
log "stall: $(cat "$TMPD/stall")"

stalls=$(sed -n 's/^stalls \([0-9]*\) .*/\1/p' "$TMPD/stall")
check_ge "premise: stalls made (of $(((SECS + 1) * 1000 / STALL_PERIOD)))" "${stalls:-0}" \
	$(((SECS + 1) * 1000 / STALL_PERIOD * 8 / 10))
check_ge "premise: the class's longest sojourn (us): packets waited through a stall" \
	$(($(val C delay_ns_max) / 1000)) $((STALL_ON * 1000))
check_ge "premise: the sender's least window in s$FROM-$SECS (bytes) vs twice a stall at the rate" \
	"$(least_window "$TMPD/tcp.json" "$FROM")" $((RATE * 1000000 / 8 * STALL_ON * 2 / 1000))
check_ge "premise: packets that waited for tokens, per mille of those sent" \
	$(($(val C delayed_packets) * 1000 / $(val C tx_packets))) 950
check_within "goodput s$FROM-$((SECS - 1)) vs rate x 1448/1514 (bit/s)" \
	"$bps" "$(theory $((RATE * 1000000)))" "$TOL"
check_class_invariant "class 1" C

ksft_exit
