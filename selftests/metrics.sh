#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Metrics where operators look: "pacerctl -o prometheus class show" and the
# skb:kfree_skb tracepoint, against pacerctl's JSON, for a class that
# carried traffic and dropped some of it.
# UDP at three times a class's rate (5 Mbit/s, limit 32 KiB; 1 Mbit/s on
# the debug kernel) for 3 s, with skb:kfree_skb enabled in tracefs and
# filtered to pacer's code (the call site lies in pacer.ko: from its .text
# section over coresize):
# - the kfree_skb events whose reason is QDISC_DROP number exactly the
#   class's drops.queue_limit (> 0) plus drops.congestion deltas, and
#   pacer freed no packet for any other reason (memory, flush, reinject:
#   0 in the counters too);
#   no trace event was lost (every CPU's overrun is 0);
# - once the flow stopped, every sample of "-o prometheus class show" for
#   class 1 (named 'udp "x"', escaped in the label) equals the counter of
#   "-j -s class show" it stands for: the _total counters, the gauges,
#   dropped_packets_total by reason (and their sum = dropped_packets),
#   the sojourn histogram's buckets (cumulative, le = each bound), _count
#   (= the histogram's total) and _sum (delay_us_total in seconds; JSON's
#   delay_ns_total is the same sum in ns, which wraps),
#   sojourn_max_seconds (delay_ns_max); and every counter key of the JSON
#   has a sample (the derived delayed_share and delay_*_us excepted).
#
#   +------- NS_A ---------+          +------------- NS_B ---------------+
#   | iperf3 -u -b 15M     |          | vethB 10.0.32.2       iperf3 -s  |
#   | vethA 10.0.32.1 -----+----------+-> ingress: matchall mirred       |
#   |                      |          |   --> pacer0: udp --> class 1    |
#   +----------------------+          +----------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc ss

if [ "$IS_DEBUG" = 1 ]; then
	MBIT=1
else
	MBIT=5
fi

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.32.1 "$NS_B" vethB 10.0.32.2
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.32.2
pc "$NS_B" class add dev pacer0 id 1 name 'udp "x"' rate "${MBIT}mbit" burst 16k limit 32k
pc "$NS_B" rule add dev pacer0 src 10.0.32.1/32 proto udp class 1

step "tracefs: skb:kfree_skb, filtered to pacer.ko's code"
T=$(tracefs_dir)
[ -n "$T" ] || skip "no tracefs in this kernel"
[ -d "$T/events/skb/kfree_skb" ] || skip "no skb:kfree_skb tracepoint in $T"
EV=$T/events/skb/kfree_skb
cleanup_test() {
	echo 0 >"$EV/enable" 2>/dev/null
	echo 0 >"$EV/filter" 2>/dev/null
	: >"$T/trace" 2>/dev/null
}
text=$(cat /sys/module/pacer/sections/.text)
size=$(cat /sys/module/pacer/coresize)
case "$text" in
0x0000000000000000 | "") skip "pacer.ko's .text address is hidden ($text)" ;;
esac
# The shell's arithmetic is signed: a kernel address does not fit.  The
# module's core fits in the low 32 bits of its address, so add there.
hi8=${text%????????}
lo8=${text#"$hi8"}
end=$((0x$lo8 + size))
[ "$end" -le $((0xffffffff)) ] || skip "pacer.ko's core crosses a 4 GiB boundary"
end=$(printf '%s%08x' "$hi8" "$end")
log "pacer.ko: .text at $text, coresize $size: up to $end"
filter="location >= $text && location < $end"
echo 8192 >"$T/buffer_size_kb"
echo 0 >"$EV/enable"
if echo "$filter" >"$EV/filter" 2>/dev/null; then
	log "filter: $(cat "$EV/filter")"
else
	die "the tracefs filter \"$filter\" was refused: $(cat "$EV/filter")"
fi
: >"$T/trace"
echo 1 >"$T/tracing_on"
class_snap "$NS_B" pacer0 1 C0
echo 1 >"$EV/enable"

step "UDP at $((3 * MBIT)) Mbit/s into $MBIT Mbit/s for 3 s"
iperf_run "$NS_A" 10.0.32.2 3 "$TMPD/udp.json" -u -b "$((3 * MBIT))M"
wait_class_idle "$NS_B" pacer0 1
echo 0 >"$EV/enable"
class_snap "$NS_B" pacer0 1 C1
show_class "class 1" C1
cp "$T/trace" "$TMPD/trace"
lost=$(trace_overruns "$T")

events=$(grep -c ' kfree_skb: ' "$TMPD/trace" || true)
qdisc=$(grep -c ' kfree_skb: .*reason: QDISC_DROP' "$TMPD/trace" || true)
other=$((events - qdisc))
log "trace: $events kfree_skb events from pacer.ko, $qdisc QDISC_DROP; first:"
grep ' kfree_skb: ' "$TMPD/trace" | head -n 2 | sed 's/^/    /'
grep ' kfree_skb: ' "$TMPD/trace" | sed -n 's/.*reason: //p' | sort | uniq -c | sed 's/^/    reasons: /'
check_eq "no trace event lost (overrun)" "$lost" 0
check_ge "drops.queue_limit delta > 0" "$(class_delta C1 C0 drops_queue_limit)" 1
check_eq "QDISC_DROP events = drops.queue_limit + drops.congestion deltas" "$qdisc" \
	$(($(class_delta C1 C0 drops_queue_limit) + $(class_delta C1 C0 drops_congestion)))
check_eq "pacer freed nothing for another reason" "$other" 0
check_eq "drops memory/flush/reinject" \
	"$(class_delta C1 C0 drops_memory)/$(class_delta C1 C0 drops_flush)/$(class_delta C1 C0 drops_reinject)" 0/0/0

step "-o prometheus against -j -s, class 1"
js=$(pc "$NS_B" -j -s class show dev pacer0)
prom=$(pc "$NS_B" -o prometheus class show dev pacer0)
printf '%s\n' "$prom" >"$TMPD/prom"
log "$(grep -c '^pacer_class_' "$TMPD/prom") samples, $(grep -c '^# TYPE' "$TMPD/prom") families; class 1's rx:"
grep '^pacer_class_rx_packets_total{.*class="1"' "$TMPD/prom" | sed 's/^/    /'
check_eq "the name label, escaped" \
	"$(grep -c '^pacer_class_rx_packets_total{dev="pacer0",class="1",name="udp \\"x\\""} ' "$TMPD/prom")" 1

# The JSON of class 1 as "KEY VALUE" (stats.K -> K, stats.drops.R ->
# drops_R, delay_hist.I.packets -> hist_I), and the Prometheus samples of
# class 1 as the same keys.
printf '%s\n' "$js" | json_flat | awk -F '\t' '
	$1 ~ /^[0-9]+[.]id$/ && $2 == 1 { split($1, p, "."); e = p[1] }
	{ path[NR] = $1; v[NR] = $2 }
	END {
		for (i = 1; i <= NR; i++) {
			if (index(path[i], e ".stats.") != 1) continue
			k = substr(path[i], length(e ".stats.") + 1)
			if (k ~ /^delay_hist[.][0-9]+[.]packets$/) { split(k, q, "."); print "hist_" q[2], v[i]; continue }
			if (k ~ /^delay_hist[.][0-9]+[.]le_us$/) { split(k, q, "."); print "histle_" q[2], v[i]; continue }
			if (k ~ /^delay_hist[.]/) continue
			gsub(/[.]/, "_", k)
			print k, v[i]
		}
	}' | sort >"$TMPD/json.kv"
awk '
	# seconds with 9 decimals -> ns, exactly; without leading zeros,
	# which busybox awk would read as octal ("0000001000" is 512)
	function ns(s,   a, d) { split(s, a, "."); d = a[1] a[2]; sub(/^0+/, "", d); return d + 0 }
	/^#/ || index($0, "class=\"1\"") == 0 { next }
	{
		name = $1; sub(/\{.*/, "", name); sub(/^pacer_class_/, "", name)
		val = $NF
		if (name == "dropped_packets_total") {
			match($0, /reason="[a-z_]*"/); r = substr($0, RSTART + 8, RLENGTH - 9)
			print "drops_" r, val; drops += val; next
		}
		if (name == "sojourn_seconds_bucket") {
			match($0, /le="[^"]*"/); le = substr($0, RSTART + 4, RLENGTH - 5)
			print "bucket_" (le == "+Inf" ? "inf" : ns(sprintf("%.9f", le)) / 1000), val; next
		}
		if (name == "sojourn_seconds_count") { print "hist_total", val; next }
		# (_sum has 6 decimals, the sum in us: ns() gives us)
		if (name == "sojourn_seconds_sum") { print "delay_us_total", ns(val); next }
		if (name == "sojourn_max_seconds") { print "delay_ns_max", ns(val); next }
		sub(/_total$/, "", name)
		print name, val
	}
	END { print "dropped_packets", drops }' "$TMPD/prom" | sort >"$TMPD/prom.kv"
log "class 1, JSON:       $(awk '!/^hist/' "$TMPD/json.kv" | words)"
log "class 1, Prometheus: $(awk '!/^bucket_/' "$TMPD/prom.kv" | words)"

# jv KEY / pv KEY: a value of the JSON / of the Prometheus samples.
jv() { awk -v k="$1" '$1 == k { print $2 }' "$TMPD/json.kv"; }
pv() { awk -v k="$1" '$1 == k { print $2 }' "$TMPD/prom.kv"; }

missing=
for k in $(awk '{ print $1 }' "$TMPD/json.kv"); do
	case "$k" in
	delayed_share | delay_avg_us | delay_p50_us | delay_p99_us | hist*) continue ;;
	delay_ns_total) continue ;;	# _sum is the sum in us (below)
	esac
	if [ -z "$(pv "$k")" ]; then
		missing="$missing $k"
	else
		check_eq "prometheus $k = JSON" "$(pv "$k")" "$(jv "$k")"
	fi
done
check_eq "JSON counters without a Prometheus sample" "${missing:- none}" " none"
check_eq "delay_us_total = delay_ns_total / 1000 (JSON)" "$(jv delay_us_total)" \
	$(($(jv delay_ns_total) / 1000))
check_ge "class 1 carried traffic (rx_packets)" "$(jv rx_packets)" 100
total=0
i=0
bad=
buckets=$(grep -c '^hist_[0-9]' "$TMPD/json.kv")
check_eq "Prometheus buckets = JSON buckets" "$(grep -c '^bucket_' "$TMPD/prom.kv")" "$buckets"
while [ "$i" -lt "$buckets" ]; do
	total=$((total + $(jv "hist_$i")))
	b=$(jv "histle_$i")
	[ "$b" != null ] || b=inf
	[ "$(pv "bucket_$b")" = "$total" ] || bad="$bad le=${b}us:$(pv "bucket_$b")!=$total"
	i=$((i + 1))
done
check_eq "$buckets cumulative buckets = the JSON histogram summed up to each" "${bad:- all equal}" " all equal"
check_eq "_count = histogram total" "$(pv hist_total)" "$total"
check_eq "_count = tx_packets" "$(pv hist_total)" "$(jv tx_packets)"

ksft_exit
