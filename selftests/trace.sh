#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tracepoint pacer:pacer_release reports every packet a class lets go,
# with its own sojourn: what the class's counters and sojourn histogram
# count, packet by packet.  Five pings leave an idle class on arrival
# (not delayed), then ECN-capable TCP (net.ipv4.tcp_ecn=1 at both ends)
# queues in it and is marked.  With the event enabled throughout, its
# records of class 1 must add up to the class's counters exactly:
# packets and bytes re-injected, delayed packets, CE marks, and the
# histogram bucket by bucket (each record's sojourn put in the bucket
# whose bounds `class show -j` gives).  The trace buffer must not have
# lost a record (its "overrun" count stays 0).
#
#   +------- NS_A ---------+          +------------- NS_B ----------------+
#   | ping, iperf3 -c      |          | vethB 10.0.13.2  iperf3 -s        |
#   | vethA 10.0.13.1 -----+----------+-> ingress: mirred --> pacer0      |
#   +----------------------+          |   class 1: 10 Mbit/s, target 1ms, |
#                                     |   rtt 10ms --> pacer:pacer_release|
#                                     +-----------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require iperf3 jq pacerctl tc ping awk

TRACEFS=$(tracefs_dir)
[ -n "$TRACEFS" ] || skip "no tracefs (CONFIG_EVENT_TRACING) in this kernel"
SECS=3

setup_ns NS_A NS_B
load_pacer

veth_pair "$NS_A" vethA 10.0.13.1 "$NS_B" vethB 10.0.13.2
ns_sysctl "$NS_A" net/ipv4/tcp_ecn 1
ns_sysctl "$NS_B" net/ipv4/tcp_ecn 1
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
jserver "$NS_B" 10.0.13.2
ifindex=$(ip -n "$NS_B" -j link show dev pacer0 | json_get 0.ifindex)

step "premise: what the path carries unshaped"
path_capacity "$NS_A" 10.0.13.2
fit_mbit MBIT 10

step "class 1: $MBIT Mbit/s, target 1ms, rtt 10ms; the event on"
pc "$NS_B" class add dev pacer0 id 1 name traced rate "${MBIT}mbit" target 1ms rtt 10ms
pc "$NS_B" rule add dev pacer0 src 10.0.13.1/32 class 1
wait_class_idle "$NS_B" pacer0 1
# 4 MiB a CPU: room for every record of the run (about 5,000 of some 50
# bytes) on either CPU, whichever re-injects.
trace_release "$TRACEFS" "ifindex == $ifindex && class_id == 1"
class_snap "$NS_B" pacer0 1 C0

step "5 pings through the idle class, then ${SECS}s of ECN-capable TCP"
ip netns exec "$NS_A" ping -c 5 -i 0.2 -q 10.0.13.2 >/dev/null ||
	die "ping through pacer0 failed"
iperf_run "$NS_A" 10.0.13.2 "$SECS" "$TMPD/tcp.json"
wait_class_idle "$NS_B" pacer0 1
class_snap "$NS_B" pacer0 1 C
echo 0 >"$TRACEFS/tracing_on"
cat "$TRACEFS/trace" >"$TMPD/trace"
show_class "class 1 over the run" C

# The records, summed: packets, bytes, delayed, marked, not delayed (they
# could leave on arrival: passed at once, or at the next poll when
# something of their class was queued on their CPU), the largest sojourn.
sums=$(awk '/ pacer_release: / {
		for (i = 1; i <= NF; i++) {
			split($i, kv, "=")
			f[kv[1]] = kv[2]
		}
		n++; bytes += f["len"]; delayed += f["delayed"]
		marked += f["ecn_marked"]
		if (!f["delayed"]) undelayed++
		if (f["sojourn_ns"] > max) max = f["sojourn_ns"]
	}
	END { printf "%d %d %d %d %d %d\n", n, bytes, delayed, marked, undelayed, max }' \
	"$TMPD/trace")
set -- $sums
log "records: $1 packets, $2 bytes, $3 delayed, $4 marked, $5 not delayed, longest sojourn $6 ns"

overruns=$(trace_overruns "$TRACEFS")
check_eq "trace records lost (overrun)" "$overruns" 0
check_ge "premise: packets delayed in the class" "$(class_delta C C0 delayed_packets)" 100
check_ge "premise: packets marked CE" "$(class_delta C C0 ecn_marked)" 1
check_eq "records vs the class's tx_packets delta" "$1" "$(class_delta C C0 tx_packets)"
check_eq "recorded bytes vs tx_bytes delta" "$2" "$(class_delta C C0 tx_bytes)"
check_eq "records delayed vs delayed_packets delta" "$3" "$(class_delta C C0 delayed_packets)"
check_eq "records marked vs ecn_marked delta" "$4" "$(class_delta C C0 ecn_marked)"
check_ge "records not delayed (the pings, at least)" "$5" 5
check_le "longest recorded sojourn vs the class's delay_ns_max" "$6" "$C_delay_ns_max"

# Bucket by bucket: the records' sojourns, rounded up to the microsecond,
# against the histogram's delta, with the bounds the histogram gives.
bounds=$(printf '%s\n' "$C" | jq -r '.[0].stats.delay_hist[].le_us // "inf"' | tr '\n' ' ')
mismatch=$(
	{
		echo "bounds $bounds"
		printf '%s\n' "$C0" | jq -r '.[0].stats.delay_hist[].packets' |
			awk '{ print "old", NR - 1, $1 }'
		printf '%s\n' "$C" | jq -r '.[0].stats.delay_hist[].packets' |
			awk '{ print "new", NR - 1, $1 }'
		awk '/ pacer_release: / {
			for (i = 1; i <= NF; i++)
				if (sub(/^sojourn_ns=/, "", $i)) print "ns", $i }' \
			"$TMPD/trace"
	} | awk '
	$1 == "bounds" { for (i = 2; i <= NF; i++) le[nb++] = $i; next }
	$1 == "old" { old[$2] = $3; next }
	$1 == "new" { new[$2] = $3; next }
	$1 == "ns" {
		us = int($2 / 1000) + ($2 % 1000 > 0)
		for (b = 0; b < nb - 1 && us > le[b]; b++)
			;
		got[b]++
	}
	END {
		for (b = 0; b < nb; b++)
			if (new[b] - old[b] != got[b] + 0)
				printf "bucket %d (<= %s us): histogram +%d, records %d; ",
					b, le[b], new[b] - old[b], got[b]
	}')
check_eq "histogram buckets that disagree with the records" "${mismatch:-none}" none
check_class_invariant "class 1" C

ksft_exit
