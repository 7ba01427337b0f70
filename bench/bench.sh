#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make bench` (bench/run boots the VM and calls this):
# pacer against what operators use instead, on the same traffic in the
# same VM, one method at a time.  Each run prints one CSV row (bench/run
# keeps the lines starting "csv: "), the TCP runs their 100 ms goodput
# samples ("series: "), and progress lines starting "# ".
#
#   +----- NS_S (sender) -----+         +----------- NS_R (receiver) -----------+
#   | iperf3 -c, ping -i 0.1, |         | vethR 10.0.20.2      iperf3 -s        |
#   | pktgen                  |         |  ingress --> the method under test:   |
#   | vethS 10.0.20.1 --------+---------+->  police | ifb0 + htb, htb+fq_codel, |
#   |  netem RTT/2 (egress)   |         |      tbf, cake | pacer0 | none        |
#   +-------------------------+         |  netem RTT/2 on vethR's egress (ACKs) |
#                                       +---------------------------------------+
#
# Usage: bench.sh [--quick] [--methods "M..."] [--commit ID] [--reps N]
#        bench.sh --rtt [--rtts "MS..."] [--methods "M..."] [--commit ID] [--reps N]
# Methods: none police htb htb+fq_codel tbf cake pacer (all by default;
# the packet-rate run always includes none, its reference).
# --rtt: the round-trip matrix instead (make bench-rtt): TCP at 20 Mbit/s
# over RTTS (default 10 40 80 ms), 1 and 4 flows, without and with ECN on
# both ends, 20 s a run, every method once per round (--reps rounds,
# interleaved); pacer and cake are told the RTT (their "rtt").  Workload
# "tcp" or "tcp-ecn" (RTT_WORKLOADS="tcp" in the environment: one of
# them only); the sender's TcpExtTCPDeliveredCE is the "ce" column, and
# pacer's drops by reason are logged.  RTT_FLOWS="4" runs one flow count
# only; RTT_SLOT="slot 10ms 30ms" adds netem's slots to the ACK path's
# delay (the ACKs leave in bursts, as after ACK compression or a stall).
BENCH_DIR=$(cd "$(dirname "$0")" && pwd)
SELFTESTS=${PACER_SELFTESTS:-$BENCH_DIR/../selftests}
. "$SELFTESTS/lib.sh"
. "$SELFTESTS/classlib.inc"
. "$BENCH_DIR/methods.inc"

ALL_METHODS="none police htb htb+fq_codel tbf cake pacer"
METHODS=$ALL_METHODS
QUICK=0
RTT_MODE=0
RTT_MATRIX="10 40 80"
COMMIT=unknown
REPS=1
USAGE='usage: bench.sh [--quick | --rtt [--rtts "MS..."]] [--methods "M..."] [--commit ID] [--reps N]'
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) QUICK=1; shift ;;
	--rtt) RTT_MODE=1; shift ;;
	--rtts) RTT_MATRIX=$2; shift 2 ;;
	--methods) METHODS=$2; shift 2 ;;
	--commit) COMMIT=$2; shift 2 ;;
	--reps) REPS=$2; shift 2 ;;
	*) die "$USAGE" ;;
	esac
done
for m in $METHODS; do
	case " $ALL_METHODS " in
	*" $m "*) ;;
	*) die "unknown method \"$m\" (known: $ALL_METHODS)" ;;
	esac
done
is_uint "$REPS" && [ "$REPS" -ge 1 ] || die "--reps wants a count >= 1, not \"$REPS\""

# The matrix.  TCP runs last TCP_SECS, of which the first WARMUP_SECS
# (slow start, the shaper's first burst) are not counted.
TCP_SECS=10
WARMUP_SECS=1
UDP_SECS=5
PPS_SECS=3
PPS_ROUNDS=3
# Low enough that pktgen sleeps between packets (it spins below 100 us).
CPU_PPS=5000
if [ "$RTT_MODE" = 1 ]; then
	for r in $RTT_MATRIX; do
		is_uint "$r" && [ "$r" -ge 2 ] || die "--rtts wants RTTs in ms >= 2, not \"$r\""
	done
	[ "$METHODS" != "$ALL_METHODS" ] || METHODS="pacer tbf cake htb+fq_codel"
	RATES="20" RTTS=$RTT_MATRIX TCP_SECS=20
elif [ "$QUICK" = 1 ]; then
	RATES="20" RATES_8="20" RTTS="0" UDP_RATES="20"
	PPS_ROUNDS=2
else
	# 8 flows (seed 003: one flow versus many) at two rates keeps the
	# whole matrix under 30 minutes.
	RATES="10 20 50 100 200" RATES_8="20 100" RTTS="0 40" UDP_RATES="20 100"
fi

require iperf3 ping tc nstat pacerctl awk sort

S_ADDR=10.0.20.1
R_ADDR=10.0.20.2
KVER=$(uname -r)
VCPUS=$(grep -c '^processor' /proc/cpuinfo)

log "# bench: kernel $KVER, $VCPUS vCPUs, commit $COMMIT, methods: $METHODS"
log "# rates: $RATES Mbit/s (8 flows: $RATES_8), RTTs: $RTTS ms, reps: $REPS"

setup_ns NS_S NS_R
no_tcp_metrics "$NS_S" "$NS_R"
# Global, not per namespace: lets iperf3 -w raise a UDP socket's buffers
# (it sets both, on both ends).
echo 16777216 >/proc/sys/net/core/wmem_max
echo 16777216 >/proc/sys/net/core/rmem_max
load_pacer
modprobe ifb numifbs=0
veth_pair "$NS_S" vethS "$S_ADDR" "$NS_R" vethR "$R_ADDR"
jserver "$NS_R" "$R_ADDR" -i 0.1

CSV_HEADER="commit,kernel,vcpus,method,workload,rate_mbit,rtt_ms,flows,rep,secs,goodput_bps,theory_bps,share_pct,retrans,drops,cv_pct,ping_idle_p50_ms,ping_p50_ms,ping_p99_ms,rtt_inc_p50_ms,rtt_inc_p99_ms,pps,cpu_ns_per_pkt,delayed_share_pct,sojourn_p99_us,ce,sojourn_p99_steady_us,sojourn_p99_bulk_us,ping_idle_p99_ms,sojourn_p99_ping_us"
echo "csv: $CSV_HEADER"
echo "series: method,rate_mbit,rtt_ms,flows,t_s,bps"

# ------------------------------------------------------------- methods

# bytes_at RATE_MBIT MS: what RATE carries in MS milliseconds.
bytes_at() {
	echo $(($1 * 125 * $2))
}

# method_on METHOD RATE_MBIT [RTT_MS]: install METHOD on R's ingress,
# shaping to RATE (0: no effective limit, 10 Gbit/s, for the packet-rate
# runs).  Bursts are 10 ms at the rate wherever the method takes one;
# pacer and cake are told RTT when it is given.
method_on() {
	local m=$1 rate burst rtt_arg=

	[ -z "${3:-}" ] || rtt_arg="rtt ${3}ms"

	if [ "$2" = 0 ]; then
		rate=10gbit burst=$(bytes_at 10000 10)
	else
		rate=${2}mbit burst=$(bytes_at "$2" 10)
	fi
	case "$m" in
	none) ;;
	police)
		tc -n "$NS_R" qdisc add dev vethR handle ffff: ingress
		tc -n "$NS_R" filter add dev vethR parent ffff: matchall \
			action police rate "$rate" burst "$burst" conform-exceed drop/ok
		;;
	htb | htb+fq_codel)
		ifb_htb "$NS_R" vethR ifb0 "$rate" "$burst"
		if [ "$m" = htb ]; then
			tc -n "$NS_R" qdisc add dev ifb0 parent 1:1 pfifo limit 1000
		else
			tc -n "$NS_R" qdisc add dev ifb0 parent 1:1 fq_codel
		fi
		;;
	tbf) ifb_with tbf rate "$rate" burst "$burst" latency 100ms ;;
	cake) ifb_with cake bandwidth "$rate" ingress $rtt_arg ;;
	pacer)
		pacer_add "$NS_R" pacer0
		pc "$NS_R" class add dev pacer0 id 1 rate "$rate" $rtt_arg
		pc "$NS_R" rule add dev pacer0 src "$S_ADDR/32" class 1
		redirect_ingress "$NS_R" vethR pacer0
		;;
	esac
}

# method_counters METHOD: DROPS, the packets the method itself dropped
# (for a qdisc tree the largest count of its qdiscs: a leaf's drop at
# enqueue is counted by its parent too, a drop at dequeue only by the
# leaf), and PACER_FIGURES, "delayed share %,p99 sojourn us" of pacer's
# class ("," for the others).
method_counters() {
	PACER_FIGURES=,
	case "$1" in
	none) DROPS=0 ;;
	police)
		DROPS=$(tc -n "$NS_R" -s -j filter show dev vethR ingress | json_flat |
			awk -F '\t' '$1 ~ /actions[.][0-9]+[.]stats[.]drops$/ { n += $2 }
				END { print n + 0 }') ;;
	pacer)
		class_snap "$NS_R" pacer0 1 P
		DROPS=$P_dropped_packets
		log "# pacer drops: congestion $P_drops_congestion queue_limit $P_drops_queue_limit"
		if [ "$P_tx_packets" -gt 0 ]; then
			PACER_FIGURES=$(awk -v s="$P_delayed_share" \
				-v p="$P_delay_p99_us" \
				'BEGIN { printf "%.1f,%d", 100 * s, p }')
		fi ;;
	*)
		DROPS=$(tc -n "$NS_R" -s -j qdisc show dev ifb0 | json_flat |
			awk -F '\t' '$1 ~ /^[0-9]+[.]drops$/ && $2 > n { n = $2 }
				END { print n + 0 }') ;;
	esac
}

# ------------------------------------------------------------- figures

# hist_since OLD NEW: the buckets of pacer's class histogram that gained
# packets between the class_snap snapshots OLD and NEW, as "LE_US:PACKETS"
# ("inf" for the last, which has no bound): the p99's bucket says only
# that it lies between two bounds; how many packets lie above each bound
# says how close it is.
hist_since() {
	local i=0 n o le out=

	while eval "n=\${${2}_delay_hist_${i}_packets:-}"; [ -n "$n" ]; do
		eval "o=\${${1}_delay_hist_${i}_packets:-0} le=\${${2}_delay_hist_${i}_le_us}"
		[ "$le" != null ] || le=inf
		[ "$n" -eq "$o" ] || out="$out $le:$((n - o))"
		i=$((i + 1))
	done
	echo "${out# }"
}

# hist_p99 BUCKETS: the p99 sojourn (the bound of its bucket, us) of the
# packets in BUCKETS, from hist_since ("" if none).
hist_p99() {
	echo "$1" | tr ' ' '\n' | awk -F: '
		NF == 2 { le[++k] = $1; n[k] = $2; total += $2 }
		END {
			for (i = 1; i <= k; i++) {
				cum += n[i]
				if (cum * 100 >= total * 99) { print le[i]; exit }
			}
		}'
}

# The histogram only bounds a quantile (a bucket is a quarter of a
# doubling wide); in RTT mode pacer's class is traced after the warm-up
# too (pacer:pacer_release, module/trace.h), for the bulk flows' p99
# sojourn exactly.  TRACEFS: where tracefs is, "" if the kernel has none.
TRACEFS=$(tracefs_dir)
SOJOURN_TRACING=0
SOJOURN_EVENT=$TRACEFS/events/pacer/pacer_release

# sojourn_trace_setup RATE_MBIT SECS: enable the event for class 1, with
# the ring buffer off and room for SECS of full-size frames at RATE on
# either CPU, twice over (a record takes some 50 bytes).  Once, before
# any traffic: enabling an event patches the kernel's text, and under
# TCG a patch while the other vCPU ran flat out once left that vCPU
# looping on the patch's int3 in __schedule with interrupts off, and the
# guest hung (2026-12-04).  Probably the sched_switch tracepoint's:
# tracing turns it on with the first event, to record task names (the
# option record-cmd), which we do not need, so it is turned off.  The runs
# then only switch the buffer on and off.
sojourn_trace_setup() {
	[ -n "$TRACEFS" ] && [ -d "$SOJOURN_EVENT" ] || return 0
	echo 0 >"$TRACEFS/tracing_on"
	[ ! -f "$TRACEFS/options/record-cmd" ] ||
		echo 0 >"$TRACEFS/options/record-cmd"
	echo $(($1 * 1000000 / 8 / 1514 * $2 * 2 * 64 / 1024 + 1024)) \
		>"$TRACEFS/buffer_size_kb"
	echo "class_id == 1" >"$SOJOURN_EVENT/filter"
	echo 1 >"$SOJOURN_EVENT/enable"
	SOJOURN_TRACING=ready
}

# sojourn_trace_on: record class 1's packets from now on.
sojourn_trace_on() {
	[ "$SOJOURN_TRACING" = ready ] || return 0
	echo >"$TRACEFS/trace"
	echo 1 >"$TRACEFS/tracing_on"
	SOJOURN_TRACING=on
}

# sojourn_trace_off: stop recording; SOJOURN_BULK_P99, the p99 sojourn in
# us (nearest rank) of the packets recorded that are longer than 200
# bytes: the bulk flows' segments, not the ping's 98-byte frames, and
# SOJOURN_PING_P99, the ping's own (its 98-byte frames): how much of its
# round trip the class itself added.  Empty if nothing was traced or the
# buffer lost a record.
sojourn_trace_off() {
	local lost

	SOJOURN_BULK_P99= SOJOURN_PING_P99=
	[ "$SOJOURN_TRACING" = on ] || return 0
	SOJOURN_TRACING=ready
	echo 0 >"$TRACEFS/tracing_on"
	lost=$(trace_overruns "$TRACEFS")
	if [ "$lost" != 0 ]; then
		log "# the trace lost $lost records: no exact p99"
		return 0
	fi
	awk '/ pacer_release: / {
		len = 0
		for (i = 1; i <= NF; i++) {
			if ($i ~ /^len=/) len = substr($i, 5) + 0
			if ($i ~ /^sojourn_ns=/) ns = substr($i, 12)
		}
		if (len > 200) print "bulk", ns
		else if (len == 98) print "ping", ns
	}' "$TRACEFS/trace" >"$TMPD/sojourns"
	set -- $(sojourn_quantiles bulk) $(sojourn_quantiles ping)
	[ $# = 6 ] || return 0
	[ "$1" = 0 ] || SOJOURN_BULK_P99=$2
	[ "$4" = 0 ] || SOJOURN_PING_P99=$5
	log "# pacer's trace after the warm-up: $1 bulk packets, sojourn p99 $2 us, max $3 us; $4 of the ping, p99 $5 us, max $6 us"
}

# sojourn_quantiles KIND: the count, p99 (nearest rank) and maximum of the
# sojourns of KIND (bulk or ping) in $TMPD/sojourns, in us; "0 - -" if
# there are none.
sojourn_quantiles() {
	awk -v k="$1" '$1 == k { print $2 }' "$TMPD/sojourns" | sort -n | awk '
		{ v[NR] = $1 }
		END {
			if (!NR) { print "0 - -"; exit }
			printf "%d %.1f %.1f\n", NR,
				v[int((NR * 99 + 99) / 100)] / 1000, v[NR] / 1000
		}'
}

retrans() {
	snmp_counter "$NS_S" TcpRetransSegs
}

# loaded_pings [SECS]: the pings of a SECS-long run (default TCP_SECS),
# 10 a second from the end of the warm-up, stopping before the run does.
loaded_pings() {
	echo $(((${1:-$TCP_SECS} - WARMUP_SECS) * 10 - 5))
}

# ping_start COUNT FILE: COUNT pings, 10 a second, S to R, in the
# background; ping_wait collects them.
ping_start() {
	bg timeout $(($1 / 10 + 15)) ip netns exec "$NS_S" \
		ping -n -i 0.1 -W 2 -c "$1" "$R_ADDR" >"$2" 2>&1
	PING_PID=$BGPID
}

ping_wait() {
	wait_exit "$PING_PID" 30 || true
}

# ping_quantiles FILE: "P50 P99" of the RTTs (ms) in ping's output; lost
# pings do not count (the method's drops say what was lost).
ping_quantiles() {
	sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p' "$1" | sort -n | awk '
		{ v[NR] = $1 }
		END {
			if (NR == 0) { print "- -"; exit }
			i50 = int(NR * 0.50 + 0.999); i99 = int(NR * 0.99 + 0.999)
			print v[i50 < 1 ? 1 : i50], v[i99 < 1 ? 1 : i99]
		}'
}

# series_stats FILE FROM THEORY: from "END BPS BYTES" receiver samples,
# "GOODPUT CV_PCT SHARE_PCT": bytes over the samples that end after FROM,
# the coefficient of variation of their rates, goodput / THEORY.
series_stats() {
	awk -v from="$2" -v th="$3" '
		# busybox awk has no sqrt(): Newton iterations
		function root(x,   r, i) {
			if (x <= 0) return 0
			r = x > 1 ? x : 1
			for (i = 0; i < 60; i++) r = (r + x / r) / 2
			return r
		}
		$1 > from + 0.05 && $4 > 0.05 {
			n++; bytes += $3; secs += $4; s += $2; ss += $2 * $2
		}
		END {
			if (n == 0 || secs == 0) { print "0 - -"; exit }
			g = bytes * 8 / secs; m = s / n
			var = ss / n - m * m; if (var < 0) var = 0
			cv = m > 0 ? 100 * root(var) / m : 0
			share = th > 0 ? sprintf("%.2f", 100 * g / th) : ""
			printf "%d %.1f %s\n", g, cv, share
		}' "$1"
}

# iperf_samples JSON OUT: the receiver's intervals as "END BPS BYTES SECS".
iperf_samples() {
	jq -r 'if .error then error(.error) else
		.server_output_json.intervals[].sum
		| "\(.end) \(.bits_per_second | floor) \(.bytes) \(.seconds)" end' \
		"$1" >"$2" 2>"$2.err" || die "iperf3: $(cat "$2.err")"
}

# theory RATE_MBIT PAYLOAD: payload bits/s of a full-size frame stream
# at RATE (1448 bytes of TCP payload, 1472 of UDP, per 1514 on the wire).
theory_of() {
	[ "$1" = 0 ] && { echo 0; return; }
	echo $(($1 * 1000000 * $2 / 1514))
}

# emit METHOD WORKLOAD RATE RTT FLOWS REP SECS REST: one CSV row.
emit() {
	echo "csv: $COMMIT,$KVER,$VCPUS,$1,$2,$3,$4,$5,$6,$7,$8"
}

# ------------------------------------------------------------- netem

set_rtt() {
	# shellcheck disable=SC2086 # RTT_SLOT is netem's words, split
	netem_rtt "$1" 10000 ${RTT_SLOT:-}
}

# idle_ping: IDLE_P50 IDLE_P99 with nothing else running, from as many
# pings as a loaded run sends in the round-trip matrix (so its p99 is the
# same statistic as theirs: a p99 of a few dozen pings is the worst one),
# from 30 otherwise.  The loaded percentiles' increase (rtt_inc_*) is over
# the idle median.
idle_ping() {
	local n=30

	[ "$RTT_MODE" = 1 ] && n=$(loaded_pings)
	ping_start "$n" "$TMPD/ping-idle"
	ping_wait
	set -- $(ping_quantiles "$TMPD/ping-idle")
	IDLE_P50=$1 IDLE_P99=$2
}

# rtt_increase LOADED IDLE: LOADED - IDLE in ms ("" when unknown).
rtt_increase() {
	case "$1$2" in *-*) echo ""; return ;; esac
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'
}

# ----------------------------------------------------------- workloads

# run_load METHOD WORKLOAD RATE RTT FLOWS REP: a TCP (FLOWS streams; tcp-ecn:
# ECN on both ends, and the method told the RTT) or UDP (2x RATE) run with
# a 10/s ping from the end of the warm-up on.
run_load() {
	local m=$1 w=$2 rate=$3 rtt=$4 flows=$5 rep=$6
	local secs theory re0 re1 ce0 ce1 p50 p99 json args n ecn=0

	if [ "$RTT_MODE" = 1 ]; then
		[ "$w" = tcp-ecn ] && ecn=1
		ns_sysctl "$NS_S" net/ipv4/tcp_ecn "$ecn"
		ns_sysctl "$NS_R" net/ipv4/tcp_ecn "$ecn"
		method_on "$m" "$rate" "$rtt"
	else
		method_on "$m" "$rate"
	fi
	if [ "$w" != udp2x ]; then
		secs=$TCP_SECS
		theory=$(theory_of "$rate" 1448)
		args="-P $flows"
	else
		secs=$UDP_SECS
		theory=$(theory_of "$rate" 1472)
		# -w: a UDP socket's send buffer holds every packet it sent
		# until the shaper frees it; at the default 208 KiB the sender
		# blocks before any queue here overflows, which a remote
		# sender would not.
		args="-u -l 1472 -w 8M -b $((2 * rate))M"
	fi
	json=$TMPD/iperf-$m-$w-$rate-$rtt-$flows.json
	re0=$(retrans)
	ce0=$(delivered_ce "$NS_S")
	n=$(loaded_pings "$secs")
	bg iperf_client "$NS_S" "$R_ADDR" "$secs" "$json" --get-server-output $args
	local client=$BGPID
	sleep "$WARMUP_SECS"
	# pacer's sojourns from here on, as the ping's and the goodput's
	if [ "$m" = pacer ]; then
		class_snap "$NS_R" pacer0 1 W
		sojourn_trace_on
	fi
	ping_start "$n" "$TMPD/ping-load"
	wait_exit "$client" $((secs + 40)) || die "iperf3 ($m $w $rate) did not end"
	sojourn_trace_off
	ping_wait
	re1=$(retrans)
	ce1=$(delivered_ce "$NS_S")
	method_counters "$m"
	local steady= buckets
	if [ "$m" = pacer ]; then
		buckets=$(hist_since W P)
		steady=$(hist_p99 "$buckets")
		log "# pacer sojourns after the warm-up, us bucket bound:packets: $buckets"
	fi
	method_off

	iperf_samples "$json" "$TMPD/samples"
	set -- $(series_stats "$TMPD/samples" "$WARMUP_SECS" "$theory")
	local goodput=$1 cv=$2 share=${3:-}
	set -- $(ping_quantiles "$TMPD/ping-load")
	p50=$1 p99=$2
	[ "$m" = none ] && theory= share=
	emit "$m" "$w" "$rate" "$rtt" "$flows" "$rep" "$secs" \
		"$goodput,$theory,$share,$((re1 - re0)),$DROPS,$cv,$IDLE_P50,$p50,$p99,$(rtt_increase "$p50" "$IDLE_P50"),$(rtt_increase "$p99" "$IDLE_P50"),,,$PACER_FIGURES,$((ce1 - ce0)),$steady,$SOJOURN_BULK_P99,$IDLE_P99,$SOJOURN_PING_P99"
	log "# $m $w ${rate}M rtt ${rtt}ms x$flows: $((goodput / 1000)) kbit/s (${share:-n/a} %), $((re1 - re0)) retrans, $DROPS drops, $((ce1 - ce0)) CE, cv $cv %, ping p50/p99 $p50/$p99 ms$(
		[ "$PACER_FIGURES" = , ] ||
			echo "$PACER_FIGURES" | awk -F, -v s="$steady" '{ print ", delayed " $1 " %, sojourn p99 <= " $2 " us, after the warm-up <= " s " us" }')"
	if [ "$w" = tcp ] && [ "$flows" = 1 ] && [ "$RTT_MODE" = 0 ]; then
		awk -v pre="series: $m,$rate,$rtt,$flows," '{ print pre $1 "," $2 }' \
			"$TMPD/samples"
	fi
}

# kernel_ticks: USER_HZ ticks all CPUs spent in the kernel (system and
# softirq: the receive path runs in softirq, or in ksoftirqd, which counts
# as system).
kernel_ticks() {
	awk '$1 == "cpu" { print $4 + $8 }' /proc/stat
}

ip_in() {
	snmp_counter "$NS_R" IpInReceives
}

# pktgen_setup: one pktgen thread sends 60-byte UDP frames from vethS to
# R's address and MAC, to a port nobody listens on.
pktgen_setup() {
	local mac

	modprobe pktgen
	mac=$(ip -n "$NS_R" -j link show dev vethR | json_get 0.address)
	ip netns exec "$NS_S" sh -c "
		cd /proc/net/pktgen || exit 1
		echo rem_device_all >kpktgend_0
		echo 'add_device vethS' >kpktgend_0
		for c in 'count 0' 'pkt_size 60' 'clone_skb 0' \
			'dst $R_ADDR' 'dst_mac $mac' 'udp_src_min 9' \
			'udp_src_max 9' 'udp_dst_min 9' 'udp_dst_max 9'; do
			echo \"\$c\" >vethS
		done"
}

# pktgen_flood PPS: send at PPS packets/s (0: as fast as one CPU can) for
# a second, then measure for PPS_SECS: FLOOD_PPS, what arrived at R's IP
# layer per second, and FLOOD_CPU_NS, kernel CPU time per arrived packet.
pktgen_flood() {
	local in0 in1 s0 s1 t0 t1 gen

	if [ "$1" = 0 ]; then
		ip netns exec "$NS_S" sh -c 'echo "delay 0" >/proc/net/pktgen/vethS'
	else
		ip netns exec "$NS_S" sh -c "echo 'ratep $1' >/proc/net/pktgen/vethS"
	fi
	bg ip netns exec "$NS_S" sh -c 'echo start >/proc/net/pktgen/pgctrl'
	gen=$BGPID
	sleep 1
	in0=$(ip_in) s0=$(kernel_ticks) t0=$(now_ms)
	sleep "$PPS_SECS"
	in1=$(ip_in) s1=$(kernel_ticks) t1=$(now_ms)
	ip netns exec "$NS_S" sh -c 'echo stop >/proc/net/pktgen/pgctrl' || true
	wait_exit "$gen" 20 || die "pktgen did not stop"
	FLOOD_PPS=$(((in1 - in0) * 1000 / (t1 - t0)))
	FLOOD_CPU_NS=$(awk -v c=$((s1 - s0)) -v p=$((in1 - in0)) \
		'BEGIN { if (p > 0) printf "%.0f", c * 10000000 / p }')
}

# run_pps METHOD ROUND: the packet rate METHOD carries (no effective
# limit, pktgen flat out: the sending CPU is the bottleneck, so this is
# the whole path's cost), and the kernel CPU time per packet at a fixed
# CPU_PPS that every method carries (pktgen sleeps between packets there:
# what it spends sending is the same for every method, see none).
run_pps() {
	local m=$1 pps

	method_on "$m" 0
	pktgen_flood 0
	pps=$FLOOD_PPS
	pktgen_flood "$CPU_PPS"
	method_counters "$m"
	method_off
	emit "$m" pps 0 0 1 "$2" "$PPS_SECS" \
		",,,,$DROPS,,,,,,,$pps,$FLOOD_CPU_NS,,,,,,,"
	log "# $m pps: $pps packets/s flat out; at $FLOOD_PPS/s $FLOOD_CPU_NS ns of kernel CPU per packet; $DROPS drops"
}

# --------------------------------------------------------------- matrix

if [ "$RTT_MODE" = 1 ]; then
	sojourn_trace_setup 20 "$TCP_SECS"
	# Rounds outermost: each method is measured once per round, next to
	# the others, so a slower stretch of the host hits all of them.
	for REP in $(seq 1 "$REPS"); do
		for rtt in $RTTS; do
			set_rtt "$rtt"
			idle_ping
			log "# round $REP, RTT ${rtt} ms: idle ping p50/p99 $IDLE_P50/$IDLE_P99 ms"
			for w in ${RTT_WORKLOADS:-tcp tcp-ecn}; do
				for flows in ${RTT_FLOWS:-1 4}; do
					for m in $(in_turn "$REP" $METHODS); do
						run_load "$m" "$w" 20 "$rtt" "$flows" "$REP"
					done
				done
			done
		done
	done
	log "# bench: done"
	exit 0
fi

for REP in $(seq 1 "$REPS"); do
	for rtt in $RTTS; do
		set_rtt "$rtt"
		idle_ping
		log "# RTT ${rtt} ms: idle ping p50/p99 $IDLE_P50/$IDLE_P99 ms"
		for flows in 1 8; do
			rates=$RATES
			[ "$flows" = 1 ] || rates=$RATES_8
			for m in $(in_turn "$REP" $METHODS); do
				if [ "$m" = none ]; then
					run_load none tcp 0 "$rtt" "$flows" "$REP"
					continue
				fi
				for rate in $rates; do
					run_load "$m" tcp "$rate" "$rtt" "$flows" "$REP"
				done
			done
		done
	done
	set_rtt 0
	idle_ping
	for m in $(in_turn "$REP" $METHODS); do
		[ "$m" = none ] && continue
		for rate in $UDP_RATES; do
			run_load "$m" udp2x "$rate" 0 1 "$REP"
		done
	done
done
# Packet rates vary from one second to the next under TCG: every method
# is measured in each of PPS_ROUNDS rounds, interleaved.
pktgen_setup
pps_methods="none $(echo " $METHODS " | sed 's/ none / /')"
for round in $(seq 1 $((PPS_ROUNDS * REPS))); do
	for m in $(in_turn "$round" $pps_methods); do
		run_pps "$m" "$round"
	done
done
log "# bench: done"
