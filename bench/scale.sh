#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make bench-scale` (bench/run --scale): what each
# method costs when it does not limit, with traffic arriving on one CPU
# and on two, and what pacer's classes and rules cost at scale.  Every
# workload runs every method in each round, methods interleaved, so a
# slow second of TCG hits all of them alike; each round starts one method
# further along the list, so that none always runs first or last.  Prints
# "csv: " rows and "# " progress lines.
#
#   +------- NS_S (sender) -------+        +--------- NS_R (receiver) ---------+
#   | iperf3 -c (pinned CPU 0/1)  |        | vethR 10.0.20.2   iperf3 -s       |
#   | pktgen kpktgend_0, _1       |------->|  ingress --> none | ifb0 (fq_codel,|
#   | vethS 10.0.20.1             |        |  ifb-mq, htb, tbf, cake) | pacer0 |
#   | (tcp-rtt: netem RTT/2)      |        | (tcp-rtt: netem RTT/2 on egress)  |
#   +-----------------------------+        | vethG 10.0.30.1 (tcp-fwd: routes) |
#                                          +----------------|------------------+
#                                          +--- NS_D --- vethD 10.0.30.2 ------+
#                                          | iperf3 -s (tcp-fwd's receivers)   |
#                                          +-----------------------------------+
#
# Over veth a packet is received on the CPU that sent it: a sender pinned
# to CPU 1, or pktgen's thread on CPU 1, makes traffic arrive there.  With
# netem it arrives where netem's queue lets it go: on the CPU whose timer
# or send found it due, either of the two.
#
# ifb-mq is ifb with a transmit queue, an fq_codel and a tasklet per CPU,
# each CPU's packets in its own (ifb_per_cpu): the per-CPU shape that
# pacer's release has, where plain ifb's one tasklet delivers what both
# CPUs redirected on whichever CPU it runs.
#
# Workloads (all methods rate 10 Gbit/s: never the bottleneck, except fit):
#   tcp      iperf3 1 and 4 flows, TCP_SECS, the 4 flows spread on both CPUs
#   tcp-fwd  the same through a gateway: NS_R routes the flows on to NS_D,
#            where their receivers are, as a gateway does with what it
#            shapes; in tcp the receivers share the shaping host's CPUs,
#            their wakeups depend on how the method batches its delivery,
#            and the scheduler's placement of them moves the figures
#   tcp-rtt  the same at a round trip of RTT_MS: netem on both veths' egress
#            (half each way, so the ACKs wait too), RTT_SECS, the sockets'
#            buffers room for the rate at that round trip
#   pps      pktgen 60-byte frames flat out from 1 and 2 CPUs, PPS_SECS
#   sock     the same frames from a UDP socket per CPU (udp_flood): pktgen
#            holds a reference to each packet while the receive path it
#            sets off runs, so a method that delivers at once has the
#            receiver's IP layer clone every one (ip_rcv's share check),
#            and one that defers delivery to another CPU does not; a
#            socket's packets, as a NIC's, are nobody else's
#   rules    pktgen from 1 CPU through pacer with 1, 100, 10,000 and
#            100,000 /32 rules (one class per rule up to 10,000), the
#            traffic matching the last rule; and through plain ifb just
#            before them (variant 0)
#   fit      one TCP flow through a class (pacer, htb, tbf, cake) at 80 %
#            of what the same flow carried unshaped (none, fit-capacity)
#            at the start of the same round: the share of rate x 1448/1514
#   mem      kernel memory (Slab + Percpu) per idle class with its rule,
#            10,000 of them
#
# Usage: scale.sh [--rounds N] [--commit ID] [--quick] [--workloads W,...]
# --workloads runs only the workloads named (default: all of them), for a
# closer look at a few cells with more rounds in the same time.
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
SELFTESTS=${PACER_SELFTESTS:-$BENCH_DIR/../selftests}
. "$SELFTESTS/lib.sh"
. "$SELFTESTS/classlib.inc"
. "$BENCH_DIR/methods.inc"

ALL_WORKLOADS="tcp tcp-fwd tcp-rtt pps sock rules fit mem"
ROUNDS=3
COMMIT=unknown
QUICK=0
WORKLOADS=$ALL_WORKLOADS
while [ $# -gt 0 ]; do
	case "$1" in
	--rounds) ROUNDS=$2; shift 2 ;;
	--commit) COMMIT=$2; shift 2 ;;
	--quick) QUICK=1; shift ;;
	--workloads) WORKLOADS=$(echo "$2" | tr , ' '); shift 2 ;;
	*) die "usage: scale.sh [--rounds N] [--commit ID] [--quick] [--workloads W,...]" ;;
	esac
done
is_uint "$ROUNDS" && [ "$ROUNDS" -ge 1 ] ||
	die "--rounds wants a count >= 1, not \"$ROUNDS\""
[ -n "$WORKLOADS" ] || die "--workloads wants at least one of: $ALL_WORKLOADS"

# has_word WORD LIST: whether WORD is one of LIST's words.
has_word() {
	case " $2 " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

for w in $WORKLOADS; do
	has_word "$w" "$ALL_WORKLOADS" ||
		die "--workloads: unknown workload \"$w\" (one of: $ALL_WORKLOADS)"
done

# wants WORKLOAD: whether this run measures it.
wants() {
	has_word "$1" "$WORKLOADS"
}

TCP_SECS=5
RTT_MS=40
RTT_SECS=8
PPS_SECS=3
FIT_SECS=8
RULE_COUNTS="1 100 10000 100000"
MEM_CLASSES=10000
if [ "$QUICK" = 1 ]; then
	RULE_COUNTS="1 100 1000"
	MEM_CLASSES=1000
fi
METHODS="none ifb ifb-mq htb tbf cake pacer"

require iperf3 tc nstat pacerctl awk taskset jq
UDP_FLOOD=$SELFTESTS/udp_flood
[ -x "$UDP_FLOOD" ] || die "no $UDP_FLOOD: make -C selftests udp_flood on the host"

S_ADDR=10.0.20.1
R_ADDR=10.0.20.2
G_ADDR=10.0.30.1
D_ADDR=10.0.30.2
KVER=$(uname -r)
VCPUS=$(grep -c '^processor' /proc/cpuinfo)
[ "$VCPUS" -ge 2 ] || die "the scale bench wants 2 vCPUs or more, not $VCPUS"

log "# scale: kernel $KVER, $VCPUS vCPUs, commit $COMMIT, $ROUNDS rounds: $WORKLOADS"

setup_ns NS_S NS_R NS_D
no_tcp_metrics "$NS_S" "$NS_R" "$NS_D"
load_pacer
modprobe ifb numifbs=0
modprobe pktgen
veth_pair "$NS_S" vethS "$S_ADDR" "$NS_R" vethR "$R_ADDR"
veth_pair "$NS_R" vethG "$G_ADDR" "$NS_D" vethD "$D_ADDR"
ns_sysctl "$NS_R" net/ipv4/ip_forward 1
ip -n "$NS_S" route add "$D_ADDR/32" via "$R_ADDR" dev vethS
ip -n "$NS_D" route add "$S_ADDR/32" via "$G_ADDR" dev vethD
# An iperf3 server serves one client at a time: one per flow.
for IPERF_PORT in 5201 5202 5203 5204; do
	jserver "$NS_R" "$R_ADDR"
	jserver "$NS_D" "$D_ADDR"
done
IPERF_PORT=5201

echo "csv: commit,kernel,vcpus,workload,method,variant,round,value,unit"

# emit WORKLOAD METHOD VARIANT ROUND VALUE UNIT
emit() {
	echo "csv: $COMMIT,$KVER,$VCPUS,$1,$2,$3,$4,$5,$6"
}

# --------------------------------------------------------------- methods

# method_on METHOD RATE [RULES]: METHOD on R's ingress at RATE (tc's
# units); for pacer RULES /32 rules (default 1), the sender's the last.
method_on() {
	local m=$1 rate=$2 rules=${3:-1} burst

	# 10 ms at the rate, as bench.sh does; 10 Gbit/s: 12.5 MB.
	burst=$(awk -v r="$rate" 'BEGIN {
		v = r + 0; u = substr(r, length(v "") + 1)
		m = u == "gbit" ? 1e9 : u == "mbit" ? 1e6 : u == "kbit" ? 1e3 : 1
		printf "%d", v * m / 8 / 100 }')
	case "$m" in
	none) ;;
	ifb) ifb_with fq_codel ;;
	ifb-mq) ifb_per_cpu ;;
	htb)
		ifb_htb "$NS_R" vethR ifb0 "$rate" "$burst"
		tc -n "$NS_R" qdisc add dev ifb0 parent 1:1 fq_codel
		;;
	tbf) ifb_with tbf rate "$rate" burst "$burst" latency 100ms ;;
	cake) ifb_with cake bandwidth "$rate" ingress ;;
	pacer-default)
		pacer_add "$NS_R" pacer0
		redirect_ingress "$NS_R" vethR pacer0
		;;
	pacer)
		pacer_add "$NS_R" pacer0
		rules_batch "$rules" "$rate" >"$TMPD/rules"
		ip netns exec "$NS_R" pacerctl -b "$TMPD/rules" >/dev/null ||
			die "pacerctl -b: $rules rules did not go in"
		redirect_ingress "$NS_R" vethR pacer0
		;;
	*) die "unknown method $m" ;;
	esac
}

# ifb_per_cpu: ifb0 in the shape of pacer's per-CPU release: a transmit
# queue per CPU, each with its fq_codel and its tasklet, and XPS sending
# what each CPU redirects to the queue of its own (plain ifb has one
# queue, whose tasklet delivers, on whichever CPU it runs, what both CPUs
# redirected).  Left to itself, the stack picks ifb0's queue by a hash
# or by the queue the packet was received on, not by the CPU: XPS does.
ifb_per_cpu() {
	local q mask

	# One hex word of XPS mask per queue, written as such.
	[ "$VCPUS" -le 32 ] || die "ifb-mq: XPS masks here go to 32 CPUs"
	ifb_add "$NS_R" ifb0 numtxqueues "$VCPUS" numrxqueues "$VCPUS"
	tc -n "$NS_R" qdisc replace dev ifb0 root handle 1: mq
	for q in $(seq 0 $((VCPUS - 1))); do
		ip netns exec "$NS_R" sh -c "printf '%x' $((1 << q)) \
			>/sys/class/net/ifb0/queues/tx-$q/xps_cpus" ||
			die "ifb0: XPS for queue $q"
		tc -n "$NS_R" qdisc add dev ifb0 parent "1:$((q + 1))" fq_codel
		mask=$(ip netns exec "$NS_R" \
			cat "/sys/class/net/ifb0/queues/tx-$q/xps_cpus")
		[ "$((0x$mask))" = $((1 << q)) ] ||
			die "ifb0: queue $q's XPS mask is $mask, not CPU $q"
	done
	redirect_ingress "$NS_R" vethR ifb0
}

# ifb_mq_spread M CPUS: for M ifb-mq, what each of ifb0's queues carried
# (logged); traffic that arrived on CPUS (2 or more) CPUs must have used
# every queue, or the method was not per-CPU and its figure means nothing.
ifb_mq_spread() {
	local counts

	[ "$1" = ifb-mq ] || return 0
	counts=$(tc -n "$NS_R" -s qdisc show dev ifb0 | awk '
		/^qdisc fq_codel/ { q = 1 }
		q && /Sent/ { printf "%s ", $4; q = 0 }')
	log "# ifb-mq: packets by queue: $counts"
	[ "$2" -ge 2 ] || return 0
	case " $counts" in
	*" 0 "*) die "ifb-mq: a queue carried nothing ($counts): XPS did not keep the CPUs apart" ;;
	esac
}

# on_path M WANT WHAT [CLASS]: the premise of WHAT's row: M's device
# re-injected at least the WANT packets of the traffic that the receiving
# IP layer counted (for pacer the class of the sender's rule did, CLASS,
# default 1), and WANT is not 0.  A redirect that went nowhere, or a rule
# that matched nothing (the traffic in class 0), would measure no method.
on_path() {
	local m=$1 want=$2 what=$3 got

	[ "$want" -gt 0 ] || die "$what, $m: no packet of the traffic arrived"
	case "$m" in
	none) return 0 ;;
	pacer)
		class_snap "$NS_R" pacer0 "${4:-1}" ONP
		got=$(val ONP tx_packets)
		;;
	pacer-default) got=$(pacer_stat "$NS_R" pacer0 tx_packets) ;;
	*) got=$(link_stat "$NS_R" ifb0 tx_packets) ;;
	esac
	is_uint "$got" && [ "$got" -ge "$want" ] ||
		die "$what, $m: re-injected \"$got\" packets, fewer than the $want that arrived: not on the path"
}

# rules_batch N RATE: a pacerctl batch of N /32 rules (sources 10.100.x.y
# and, last, the sender), one class per rule up to 10,000 and then
# shared; the sender's class (the last) at RATE, the others at 10 Mbit/s.
rules_batch() {
	awk -v n="$1" -v rate="$2" -v src="$S_ADDR" 'BEGIN {
		classes = n < 10000 ? n : 10000
		for (c = 1; c < classes; c++)
			printf "class add dev pacer0 id %d rate 10mbit\n", c
		printf "class add dev pacer0 id %d rate %s\n", classes, rate
		for (i = 1; i < n; i++)
			printf "rule add dev pacer0 pref %d src 10.%d.%d.%d/32 class %d\n",
				i, 100 + int(i / 65536), int(i / 256) % 256, i % 256,
				(i - 1) % classes + 1
		printf "rule add dev pacer0 pref %d src %s/32 class %d\n", n, src, classes
	}'
}

# --------------------------------------------------------------- figures

ip_in() {
	snmp_counter "$NS_R" IpInReceives
}

# pktgen_threads N: pktgen on CPUs 0 .. N-1, each sending 60-byte UDP
# frames from vethS to R, to a port nobody listens on; thread t from
# source port 9 + t, so that each CPU sends a flow of its own, as a NIC's
# RSS hands each CPU flows of their own.
pktgen_threads() {
	local mac n=$1 t

	mac=$(ip -n "$NS_R" -j link show dev vethR | json_get 0.address)
	for t in 0 1; do
		ip netns exec "$NS_S" sh -c \
			"echo rem_device_all >/proc/net/pktgen/kpktgend_$t"
	done
	for t in $(seq 0 $((n - 1))); do
		ip netns exec "$NS_S" sh -c "
			cd /proc/net/pktgen || exit 1
			echo 'add_device vethS@$t' >kpktgend_$t
			for c in 'count 0' 'pkt_size 60' 'clone_skb 0' 'delay 0' \
				'dst $R_ADDR' 'dst_mac $mac' 'udp_src_min $((9 + t))' \
				'udp_src_max $((9 + t))' 'udp_dst_min 9' 'udp_dst_max 9'; do
				echo \"\$c\" >vethS@$t
			done"
	done
}

# flood_window: FLOOD_PPS, what arrived at R's IP layer per second over
# PPS_SECS, after a second of warm-up, a flood just started; FLOOD_IN,
# how many packets that was.
flood_window() {
	local in0 in1 t0 t1

	sleep 1
	in0=$(ip_in) t0=$(now_ms)
	sleep "$PPS_SECS"
	in1=$(ip_in) t1=$(now_ms)
	FLOOD_IN=$((in1 - in0))
	FLOOD_PPS=$((FLOOD_IN * 1000 / (t1 - t0)))
}

# pktgen_rate: FLOOD_PPS (flood_window) with pktgen flat out; pktgen's
# start returns only once its threads stop, so it must still be running
# when the window ends, or the window measured a flood that had ended.
pktgen_rate() {
	local gen

	bg ip netns exec "$NS_S" sh -c 'echo start >/proc/net/pktgen/pgctrl'
	gen=$BGPID
	flood_window
	! not_running "$gen" || die "pktgen stopped before the window ended"
	ip netns exec "$NS_S" sh -c 'echo stop >/proc/net/pktgen/pgctrl' || true
	wait_exit "$gen" 20 || die "pktgen did not stop"
}

# sock_rate N: FLOOD_PPS (flood_window) from udp_flood on CPUs 0 .. N-1,
# each from a source port of its own (a flow per CPU, as pktgen's).
sock_rate() {
	local n=$1 c pids='' p

	for c in $(seq 0 $((n - 1))); do
		bg ip netns exec "$NS_S" "$UDP_FLOOD" "$c" $((40009 + c)) \
			"$R_ADDR" 9 $((PPS_SECS + 2))
		pids="$pids $BGPID"
	done
	flood_window
	for p in $pids; do
		wait_exit "$p" 30 || die "udp_flood did not end"
		[ "$EXIT_STATUS" = 0 ] || die "udp_flood failed (status $EXIT_STATUS)"
	done
}

# tcp_rate FLOWS SECS [ADDR]: TCP_BPS, the receivers' goodput of FLOWS
# flows to ADDR (R's by default; seconds 1 to SECS), flow i from the CPU
# i mod 2.
tcp_rate() {
	local flows=$1 secs=$2 to=${3:-$R_ADDR} i pids='' p bps total=0

	for i in $(seq 0 $((flows - 1))); do
		bg ip netns exec "$NS_S" taskset -c $((i % 2)) \
			iperf3 -c "$to" -p $((5201 + i)) -t "$secs" -J \
			--get-server-output >"$TMPD/tcp-$i.json" 2>&1
		pids="$pids $BGPID"
	done
	i=0
	for p in $pids; do
		wait_exit "$p" $((secs + 40)) || die "iperf3 flow $i did not end"
		[ "$EXIT_STATUS" = 0 ] ||
			die "iperf3 flow $i failed: $(jq -r .error "$TMPD/tcp-$i.json" 2>/dev/null)"
		bps=$(iperf_rx_bps "$TMPD/tcp-$i.json" 1 "$secs")
		# A flow without a figure is not a flow that carried nothing.
		[ "$bps" != none ] ||
			die "iperf3 flow $i: the receiver reported no interval in 1-$secs s"
		total=$((total + bps))
		i=$((i + 1))
	done
	TCP_BPS=$total
}

# rtt_on MS: netem delays each veth's egress by half of MS; the sockets
# may hold what 2 Gbit/s has in flight in MS, more than TCG carries (at
# 40 ms, 10 MB: Debian's defaults, 4 MB to send and 6 MB to receive,
# would hold one flow to about 1 Gbit/s, and the window, not the method,
# would set the figure).  rtt_off puts the defaults back, so that every
# other workload runs with them in every round.
rtt_on() {
	local room=$((250000 * $1))

	netem_rtt "$1" 100000
	WMEM_DEFAULT=$(ip netns exec "$NS_S" cat /proc/sys/net/ipv4/tcp_wmem)
	RMEM_DEFAULT=$(ip netns exec "$NS_R" cat /proc/sys/net/ipv4/tcp_rmem)
	ns_sysctl "$NS_S" net/ipv4/tcp_wmem "4096 16384 $((room * 2))"
	ns_sysctl "$NS_R" net/ipv4/tcp_rmem "4096 131072 $((room * 2))"
}

rtt_off() {
	netem_rtt 0 0
	ns_sysctl "$NS_S" net/ipv4/tcp_wmem "$WMEM_DEFAULT"
	ns_sysctl "$NS_R" net/ipv4/tcp_rmem "$RMEM_DEFAULT"
}

kmem() {
	awk '/^(Slab|Percpu):/ { s += $2 } END { print s }' /proc/meminfo
}

# ------------------------------------------------------------- workloads

# run_tcp METHOD FLOWS ROUND WORKLOAD: WORKLOAD tcp, tcp-fwd, or tcp-rtt
# (at RTT_MS: the netem of rtt_on in place).
run_tcp() {
	local m=$1 flows=$2 round=$3 w=$4 secs=$TCP_SECS to=$R_ADDR spread=$2
	local fwd0 fwd1 at='' rx_ns=$NS_R in0 in1

	case "$w" in
	# D's IP layer counts only what R forwarded from S, through the
	# method (R's forwarding counter has D's ACKs too).
	tcp-fwd) to=$D_ADDR rx_ns=$NS_D ;;
	tcp-rtt)
		secs=$RTT_SECS at=" at $RTT_MS ms"
		# Through netem a packet arrives on either CPU.
		spread=1
		;;
	esac
	method_on "$m" 10gbit
	snmp_var in0 "$rx_ns" IpInReceives
	fwd0=$(snmp_counter "$NS_R" IpForwDatagrams)
	tcp_rate "$flows" "$secs" "$to"
	fwd1=$(snmp_counter "$NS_R" IpForwDatagrams)
	snmp_var in1 "$rx_ns" IpInReceives
	ifb_mq_spread "$m" "$spread"
	on_path "$m" $((in1 - in0)) "$w, $flows flow(s)"
	method_off
	# The premise of each: the flows went through R, ended there or not.
	if [ "$w" = tcp-fwd ]; then
		[ "$fwd1" -gt "$fwd0" ] || die "tcp-fwd, $m: R forwarded nothing"
	else
		[ "$fwd1" = "$fwd0" ] || die "$w, $m: R forwarded $((fwd1 - fwd0)) datagrams"
	fi
	emit "$w" "$m" "${flows}flows" "$round" "$TCP_BPS" bit/s
	log "# round $round: $w $flows flow(s)$at, $m: $((TCP_BPS / 1000000)) Mbit/s"
}

run_pps() {
	local m=$1 cpus=$2 round=$3

	method_on "$m" 10gbit
	pktgen_rate
	ifb_mq_spread "$m" "$cpus"
	on_path "$m" "$FLOOD_IN" "pps from $cpus CPU(s)"
	method_off
	emit pps "$m" "${cpus}cpu" "$round" "$FLOOD_PPS" pkt/s
	log "# round $round: pktgen from $cpus CPU(s), $m: $FLOOD_PPS pkt/s"
}

run_sock() {
	local m=$1 cpus=$2 round=$3

	method_on "$m" 10gbit
	sock_rate "$cpus"
	ifb_mq_spread "$m" "$cpus"
	on_path "$m" "$FLOOD_IN" "sock from $cpus CPU(s)"
	method_off
	emit sock "$m" "${cpus}cpu" "$round" "$FLOOD_PPS" pkt/s
	log "# round $round: udp_flood from $cpus CPU(s), $m: $FLOOD_PPS pkt/s"
}

run_rules() {
	local n=$1 round=$2 t0 t1

	t0=$(now_ms)
	method_on pacer 10gbit "$n"
	t1=$(now_ms)
	pktgen_rate
	# The sender's rule is the last; its class the last too (rules_batch).
	on_path pacer "$FLOOD_IN" "$n rules" $((n < 10000 ? n : 10000))
	method_off
	emit rules pacer "$n" "$round" "$FLOOD_PPS" pkt/s
	emit rules-setup pacer "$n" "$round" $((t1 - t0)) ms
	log "# round $round: pktgen through $n rules: $FLOOD_PPS pkt/s (set up in $((t1 - t0)) ms)"
}

# run_rules_ifb ROUND: the same flood through plain ifb, among the rule
# counts (in turn with them, as methods are): their ratio to ifb, from
# figures seconds apart, none of them always first.
run_rules_ifb() {
	method_on ifb 10gbit
	pktgen_rate
	on_path ifb "$FLOOD_IN" "pps beside the rules"
	method_off
	emit rules ifb 0 "$1" "$FLOOD_PPS" pkt/s
	log "# round $1: pktgen through ifb, beside the rules: $FLOOD_PPS pkt/s"
}

# run_fit_capacity ROUND: FIT_MBIT, 80 % of what fit's flow (tcp_rate,
# from CPU 0) carries unshaped now, measured first in each round: what
# the guest carries drifts over a boot (a rate set once from the boot's
# first run was 50-70 % of the later rounds' unshaped figure in two 6.1
# boots), and the premise is a class at 80 % of it.
run_fit_capacity() {
	tcp_rate 1 "$FIT_SECS"
	FIT_MBIT=$((TCP_BPS * 8 / 10 / 1000000))
	emit fit-capacity none 1flow "$1" "$TCP_BPS" bit/s
	log "# round $1: one flow unshaped: $((TCP_BPS / 1000000)) Mbit/s; classes at $FIT_MBIT Mbit/s"
}

# run_fit METHOD MBIT ROUND: the flow through a class at MBIT, as a share
# of MBIT x 1448/1514.  For pacer also the share of the flow's packets
# that waited in the class (fit-queued): near 100 the class was the
# bottleneck; far below it the sender could not keep a queue, the guest's
# CPU 0 (96-99 % busy in such rounds) held the flow back, and the round
# says nothing about shaping.
run_fit() {
	local m=$1 mbit=$2 round=$3 share

	method_on "$m" "${mbit}mbit"
	tcp_rate 1 "$FIT_SECS"
	if [ "$m" = pacer ]; then
		class_snap "$NS_R" pacer0 1 F
		emit fit-queued pacer 80pct "$round" \
			"$(pct "$F_delayed_packets" "$F_tx_packets")" pct
	fi
	method_off
	share=$(pct "$TCP_BPS" "$(theory $((mbit * 1000000)))")
	emit fit "$m" 80pct "$round" "$share" pct
	log "# round $round: one flow through $m at $mbit Mbit/s: $share % of rate x 1448/1514"
}

run_mem() {
	local m0 m1

	pacer_add "$NS_R" pacer0
	awk -v n="$MEM_CLASSES" 'BEGIN {
		for (i = 1; i <= n; i++) {
			printf "class add dev pacer0 id %d rate 10mbit\n", i
			printf "rule add dev pacer0 pref %d dst 10.%d.%d.%d/32 class %d\n",
				i, 100 + int(i / 65536), int(i / 256) % 256, i % 256, i
		}
	}' >"$TMPD/mem"
	sync
	echo 2 >/proc/sys/vm/drop_caches
	m0=$(kmem)
	ip netns exec "$NS_R" pacerctl -b "$TMPD/mem" >/dev/null ||
		die "pacerctl -b: $MEM_CLASSES classes did not go in"
	m1=$(kmem)
	ip -n "$NS_R" link del pacer0
	emit mem pacer "${MEM_CLASSES}classes" 1 $(((m1 - m0) * 1024 / MEM_CLASSES)) bytes/class
	log "# $MEM_CLASSES idle classes with a rule each: $(((m1 - m0) / 1024)) MiB of kernel memory, $(((m1 - m0) * 1024 / MEM_CLASSES)) bytes a class"
}

# ---------------------------------------------------------------- matrix

if wants mem; then
	run_mem
fi

if wants fit; then
	step "fit: one flow unshaped to warm up, left out"
	tcp_rate 1 "$FIT_SECS"
fi

for round in $(seq 1 "$ROUNDS"); do
	for w in tcp tcp-fwd; do
		wants "$w" || continue
		for flows in 1 4; do
			for m in $(in_turn "$round" $METHODS); do
				run_tcp "$m" "$flows" "$round" "$w"
			done
		done
	done
	if wants tcp-rtt; then
		rtt_on "$RTT_MS"
		for flows in 1 4; do
			for m in $(in_turn "$round" $METHODS); do
				run_tcp "$m" "$flows" "$round" tcp-rtt
			done
		done
		rtt_off
	fi
	for cpus in 1 2; do
		if wants pps; then
			pktgen_threads "$cpus"
			for m in $(in_turn "$round" $METHODS pacer-default); do
				run_pps "$m" "$cpus" "$round"
			done
		fi
		if wants sock; then
			for m in $(in_turn "$round" $METHODS); do
				run_sock "$m" "$cpus" "$round"
			done
		fi
	done
	if wants rules; then
		pktgen_threads 1
		for n in $(in_turn "$round" ifb $RULE_COUNTS); do
			if [ "$n" = ifb ]; then
				run_rules_ifb "$round"
			else
				run_rules "$n" "$round"
			fi
		done
	fi
	if wants fit; then
		run_fit_capacity "$round"
		for m in $(in_turn "$round" pacer htb tbf cake); do
			run_fit "$m" "$FIT_MBIT" "$round"
		done
	fi
done
log "# scale: done"
