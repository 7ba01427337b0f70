#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tearing things down while traffic flows through pacer0.  Each phase has
# its own veth pair and iperf3 server (a client killed mid-test can leave a
# server stuck) and ends by checking that the flow's client is gone; the VM
# runner fails the run on any kernel splat.
#
#   +------ NS_A ------+                +------------ NS_B -------------+
#   | iperf3 -c (TCP / |  vethA..vethI  | vethB..vethJ  ingress:        |
#   |  UDP flood)      +--------------->|   matchall mirred --> pacer0  |
#   +------------------+                +-------------------------------+
#
#   1. TCP flow, pacer0 deleted      -> the client ends; vethB still works
#   2. UDP flood, the veth deleted   -> pacer0 lives on: rx = tx + dropped
#                                       + backlog
#   2b. pacer0 holding packets (a    -> exactly the held packets are counted
#      slow class 0, its NAPI thread    as dropped_reinject (or, having
#      starved), the veth deleted       waited too long, dropped_congestion)
#   2d. pacer0 holding packets, the  -> the same: a device that is down
#      veth they came from set down     gets nothing back (as tc mirred
#                                       sends nothing to one)
#   3. UDP flood, pacer0 down and up -> flushed packets counted, invariant
#   3b. pacer0 holding packets, down -> exactly the held packets are
#                                       re-injected or counted as flushed
#                                       (or dropped_congestion)
#   4. UDP flood, rmmod pacer        -> module and device gone, reload works
#
# run_tests: timeout=180
. "$(dirname "$0")/lib.sh"

require iperf3 ping pacerctl tc ss rmmod modprobe taskset renice nstat

if [ "$IS_DEBUG" = 1 ]; then
	FLOOD=10M
else
	FLOOD=50M
fi
FLOW_TIME=4		# seconds each client runs for
CLIENT_GRACE=12		# how long after that it may take to be gone

setup_ns NS_A NS_B
load_pacer
pacer_add "$NS_B" pacer0

# pair N: veth pair N (A side vethA.., B side vethB..) on 10.0.N.0/24 with
# an iperf3 server on port 5200 + N, and the B side's ingress redirected
# to pacer0.  Sets A_DEV, B_DEV, ADDR (the server's address).
pair() {
	local a b

	a=$(echo "x A C E G I" | cut -d' ' -f$(($1 + 1)))
	b=$(echo "x B D F H J" | cut -d' ' -f$(($1 + 1)))
	A_DEV=veth$a
	B_DEV=veth$b
	ADDR=10.0.1$1.2
	veth_pair "$NS_A" "$A_DEV" "10.0.1$1.1" "$NS_B" "$B_DEV" "$ADDR"
	IPERF_PORT=$((5200 + $1))
	iperf_server "$NS_B" "$ADDR"
	redirect_ingress "$NS_B" "$B_DEV" pacer0
}

# flow OUT [ARGS...]: a client in the background for FLOW_TIME seconds.
flow() {
	local out=$1

	shift
	bg timeout -k 2 $((FLOW_TIME + 6)) ip netns exec "$NS_A" \
		iperf3 -c "$ADDR" -p "$IPERF_PORT" -t "$FLOW_TIME" -J "$@" >"$out"
	CLIENT=$BGPID
}

# flowing N: pacer0 has received N packets more than at the last snapshot P0.
flowing() {
	[ "$(pacer_stat "$NS_B" pacer0 rx_packets)" -ge $((P0_rx_packets + $1)) ]
}

# client_gone: the flow's client ended within its bound.
client_gone() {
	if wait_exit "$CLIENT" $((FLOW_TIME + CLIENT_GRACE)); then
		_pass "the client ended within $((FLOW_TIME + CLIENT_GRACE))s (${EXIT_SECS}s, status $EXIT_STATUS)"
	else
		_fail "the client is still running after $((FLOW_TIME + CLIENT_GRACE))s"
	fi
}

# ping_ok: 3 pings from NS_A to ADDR, all answered.
ping_replies() {
	ip netns exec "$NS_A" ping -q -n -c 3 -i 0.1 -w 5 "$ADDR" 2>&1 |
		sed -n 's/.* \([0-9]*\) received.*/\1/p'
}

# pacer0 releases packets at once, and a packet that need not wait is not
# even queued.  To have it hold some, starve_napi slows class 0 far below
# what hold sends (8 kbit/s, 10 pings a second, with a 1k bucket and a 64k
# limit: after ten pings one has to wait, and every later one queues
# behind it; at 100 kbit/s a slow guest's ping, 86 a second, stayed under
# the rate and none waited), moves pacer0's NAPI
# contexts (one per CPU's shaper) to threads (threaded NAPI) pinned to
# CPU 1 at nice 19 and starves them with a busy loop at nice -20; the
# test, and the traffic it sends, stay on CPU 0.  feed_napi ends the
# starvation, makes class 0 unlimited again (at 8 kbit/s what it holds
# would take longer to drain than wait_pacer_idle waits), waits until
# pacer0 is idle and, if pacer0 is up, puts its NAPI contexts back in
# softirqs (unthread_napi).
starve_napi() {
	local p

	ip netns exec "$NS_B" pacerctl class change dev pacer0 id 0 \
		rate 8kbit burst 1k limit 64k
	taskset -p 1 $$ >/dev/null
	# One per CPU's shaper: all of them go to CPU 1 and starve there.
	pacer_napi_threads "$NS_B" pacer0 2
	for p in $NAPI_PIDS; do
		renice -n 19 -p "$p" >/dev/null
	done
	bg taskset 2 sh -c 'while :; do :; done'
	HOG=$BGPID
	renice -n -20 -p "$HOG" >/dev/null
}

feed_napi() {
	kill "$HOG"
	{ wait "$HOG"; } 2>/dev/null || true
	ip netns exec "$NS_B" pacerctl class change dev pacer0 id 0 \
		rate unlimited
	wait_pacer_idle "$NS_B" pacer0
	ip -n "$NS_B" link show dev pacer0 up | grep -q . && unthread_napi
	taskset -p 3 $$ >/dev/null
}

# unthread_napi: pacer0's NAPI contexts back in softirqs.  Only while
# pacer0 is up: on 7.3 the write stops each context's thread first, and
# waits for ever for one that napi_disable() holds (the writer sleeps in
# napi_set_threaded(); 6.1 and 6.12 only clear a flag).
unthread_napi() {
	ip netns exec "$NS_B" sh -c 'echo 0 >/sys/class/net/pacer0/threaded'
}

# waiting_for_napi PID: the process sleeps in napi_disable() (its kernel
# stack says so; without /proc/PID/stack: any uninterruptible sleep), or
# is gone.
waiting_for_napi() {
	[ -e "/proc/$1/stat" ] || return 0
	if [ -r "/proc/$1/stack" ]; then
		grep -q napi_disable "/proc/$1/stack"
	else
		awk '{ sub(/.*\) /, ""); exit $1 != "D" }' "/proc/$1/stat"
	fi
}

# hold K: K pings to ADDR, 5 ms apart (-S: a send buffer for them all:
# packets held in pacer0 stay charged to it).
hold() {
	timeout 30 ip netns exec "$NS_A" ping -q -n -c "$1" -i 0.005 -S 400000 -W 1 "$ADDR" \
		>"$TMPD/ping" 2>&1 || true
	grep 'packets transmitted' "$TMPD/ping" || cat "$TMPD/ping"
}

step "1: a TCP flow through pacer0, then pacer0 deleted"
pair 1
pacer_snap "$NS_B" pacer0 P0
flow "$TMPD/tcp.json" -b "$IPERF_RATE"
wait_for 15 flowing 200 || die "no traffic through pacer0"
ip -n "$NS_B" link del pacer0
log "pacer0 deleted under traffic"
check_eq "pacer0 is gone" \
	"$(ip -n "$NS_B" link show dev pacer0 >/dev/null 2>&1 && echo present || echo absent)" absent
client_gone
tc -n "$NS_B" qdisc del dev "$B_DEV" ingress
check_eq "without the redirect $B_DEV carries pings again" "$(ping_replies)" 3

step "2: a UDP flood through pacer0, then the veth deleted"
pacer_add "$NS_B" pacer0 txqueuelen 5000
pair 2
pacer_snap "$NS_B" pacer0 P0
flow "$TMPD/udp2.json" -u -b "$FLOOD" -l 1400
wait_for 15 flowing 500 || die "no traffic through pacer0"
ip -n "$NS_A" link del "$A_DEV"
log "$A_DEV and $B_DEV deleted under traffic"
client_gone
wait_pacer_idle "$NS_B" pacer0
pacer_snap "$NS_B" pacer0 P1
log "pacer0: $P1"
check_eq "pacer0 survives" "$(ip -n "$NS_B" link show dev pacer0 >/dev/null 2>&1 && echo present)" present
check_ge "packets through pacer0" "$P1_rx_packets" 500
check_eq "backlog_packets" "$P1_backlog_packets" 0
check_eq "backlog_bytes" "$P1_backlog_bytes" 0
check_invariant "$NS_B" pacer0
log "of which dropped because $B_DEV was gone (reinject): $P1_dropped_reinject, flushed: $P1_dropped_flush"

step "2b: packets held in pacer0, then the veth they came from deleted"
pair 3
starve_napi
pacer_snap "$NS_B" pacer0 P0
hold 200
pacer_snap "$NS_B" pacer0 PH
log "pacer0 holding: $PH"
check_ge "packets held in pacer0 before the veth is deleted" "$PH_backlog_packets" 20
ip -n "$NS_A" link del "$A_DEV"
log "$A_DEV and $B_DEV deleted"
pacer_snap "$NS_B" pacer0 PD
held=$((PD_backlog_packets + PD_dropped_reinject - P0_dropped_reinject))
log "pacer0 after the deletion: $PD"
feed_napi
pacer_snap "$NS_B" pacer0 P1
log "pacer0 released: $P1"
# A held packet that waited past the class's target when its turn came
# may be dropped for congestion instead (pings are not ECN-capable).
log "dropped for congestion on the way out: $(pacer_delta P1 PD dropped_congestion)"
check_eq "dropped_reinject delta + congestion drops since = what pacer0 held when the veth went" \
	$(($(pacer_delta P1 P0 dropped_reinject) + $(pacer_delta P1 PD dropped_congestion))) "$held"
check_eq "backlog_packets" "$P1_backlog_packets" 0
check_eq "backlog_bytes" "$P1_backlog_bytes" 0
check_invariant "$NS_B" pacer0

step "2c: pacer0 still works: a new pair, pings through it"
pair 4
pacer_snap "$NS_B" pacer0 P0
check_eq "pings through pacer0" "$(ping_replies)" 3
wait_pacer_idle "$NS_B" pacer0
pacer_snap "$NS_B" pacer0 P1
check_eq "pacer0 rx delta (3 requests)" "$(pacer_delta P1 P0 rx_packets)" 3
check_eq "pacer0 tx delta (3 requests)" "$(pacer_delta P1 P0 tx_packets)" 3

step "2d: packets held in pacer0, then the veth they came from set down"
# A pair of its own; the steps after this one keep using pair 4.
keep="$A_DEV $B_DEV $ADDR $IPERF_PORT"
pair 5
starve_napi
pacer_snap "$NS_B" pacer0 P0
hold 200
pacer_snap "$NS_B" pacer0 PH
log "pacer0 holding: $PH"
check_ge "packets held in pacer0 before $B_DEV goes down" "$PH_backlog_packets" 20
ip -n "$NS_B" link set "$B_DEV" down
log "$B_DEV down"
pacer_snap "$NS_B" pacer0 PD
snmp_var echos_down "$NS_B" IcmpInEchos
held=$((PD_backlog_packets + PD_dropped_reinject - P0_dropped_reinject))
log "pacer0 after $B_DEV went down: $PD"
feed_napi
pacer_snap "$NS_B" pacer0 P1
snmp_var echos_after "$NS_B" IcmpInEchos
log "pacer0 released: $P1"
log "dropped for congestion on the way out: $(pacer_delta P1 PD dropped_congestion)"
# Before, they were counted as re-injected: on 6.1 into the stack of the
# device that was down, from 6.12 into the CPU's backlog, which drops
# them.
check_eq "dropped_reinject delta + congestion drops since = what pacer0 held when $B_DEV went down" \
	$(($(pacer_delta P1 P0 dropped_reinject) + $(pacer_delta P1 PD dropped_congestion))) "$held"
check_eq "tx_packets since $B_DEV went down" "$(pacer_delta P1 PD tx_packets)" 0
log "echo requests NS_B's stack took since $B_DEV went down: $((echos_after - echos_down))"
check_eq "backlog_packets" "$P1_backlog_packets" 0
check_invariant "$NS_B" pacer0
ip -n "$NS_B" link set "$B_DEV" up
# Down flushed the neighbour entries, permanent ones too: ARP, through
# pacer0.
check_eq "pings through pacer0 once $B_DEV is up again" "$(ping_replies)" 3
# shellcheck disable=SC2086 # four words
set -- $keep
A_DEV=$1 B_DEV=$2 ADDR=$3 IPERF_PORT=$4

step "3: a UDP flood through pacer0, pacer0 down, then up"
pacer_snap "$NS_B" pacer0 P0
flow "$TMPD/udp3.json" -u -b "$FLOOD" -l 1400
wait_for 15 flowing 500 || die "no traffic through pacer0"
ip -n "$NS_B" link set pacer0 down
log "pacer0 down under traffic"
wait_pacer_idle "$NS_B" pacer0
pacer_snap "$NS_B" pacer0 PD
check_eq "backlog once down" "$PD_backlog_packets" 0
check_invariant "$NS_B" pacer0
ip -n "$NS_B" link set pacer0 up
client_gone
wait_pacer_idle "$NS_B" pacer0
pacer_snap "$NS_B" pacer0 P1
log "pacer0: $P1"
log "flushed when it went down: $(pacer_delta P1 P0 dropped_flush)"
check_eq "backlog_packets" "$P1_backlog_packets" 0
check_invariant "$NS_B" pacer0
check_views "$NS_B" pacer0 went-down
check_eq "pings through pacer0 once up again" "$(ping_replies)" 3

step "3b: packets held in pacer0, then pacer0 down"
starve_napi
hold 150
pacer_snap "$NS_B" pacer0 PH
log "pacer0 holding: $PH"
check_ge "packets held in pacer0 before it goes down" "$PH_backlog_packets" 20
# ndo_stop waits (napi_disable) for the starved thread's last polls,
# which may re-inject some or all of what it held; the rest is flushed.
bg ip -n "$NS_B" link set pacer0 down
down=$BGPID
wait_for 15 waiting_for_napi "$down" || log "ip link set down never waited for the NAPI thread"
feed_napi
wait_exit "$down" 20 || die "ip link set pacer0 down does not return"
check_eq "ip link set pacer0 down: exit status" "$EXIT_STATUS" 0
pacer_snap "$NS_B" pacer0 P1
log "pacer0 down: $P1"
log "re-injected by the last polls: $(pacer_delta P1 PH tx_packets), dropped for congestion by them: $(pacer_delta P1 PH dropped_congestion), flushed: $(pacer_delta P1 PH dropped_flush)"
check_eq "held = re-injected + dropped for congestion + flushed" \
	$(($(pacer_delta P1 PH tx_packets) + $(pacer_delta P1 PH dropped_congestion) + \
	   $(pacer_delta P1 PH dropped_flush))) "$PH_backlog_packets"
check_eq "backlog_packets" "$P1_backlog_packets" 0
check_invariant "$NS_B" pacer0
check_views "$NS_B" pacer0 went-down
ip -n "$NS_B" link set pacer0 up
unthread_napi
check_eq "pings through pacer0 once up again" "$(ping_replies)" 3

step "4: a UDP flood through pacer0, then rmmod pacer"
pacer_snap "$NS_B" pacer0 P0
flow "$TMPD/udp4.json" -u -b "$FLOOD" -l 1400
wait_for 15 flowing 500 || die "no traffic through pacer0"
rmmod pacer
log "rmmod pacer under traffic"
check_eq "lsmod has no pacer" "$(lsmod_has pacer && echo yes || echo no)" no
check_eq "pacer0 is gone" \
	"$(ip -n "$NS_B" link show dev pacer0 >/dev/null 2>&1 && echo present || echo absent)" absent
client_gone
check_ok "modprobe pacer again" modprobe pacer
pacer_add "$NS_B" pacer1
check_eq "a new device after the reload" \
	"$(ip netns exec "$NS_B" pacerctl -j dev show | json_each ifname)" pacer1

ksft_exit
