#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Configuration as code: "pacerctl dump dev pacer0 > FILE", everything
# deleted (the device, the redirects, the clsact qdiscs), the device made
# again, "pacerctl -b FILE": the configuration is the same as before.
# The configuration uses every attribute: caps (max_classes, max_rules,
# max_memory); class 0 changed; classes with a name with spaces (and one
# with a double quote and a backslash), burst, ceil, a time limit and a
# byte limit, an automatic limit (the default, and "limit auto" after a time
# limit), target, rtt, overhead (negative too), mpu, gso auto/split/keep,
# the slowest rate (1kbit, whose default burst is 1000 s at rate) and an
# unlimited class other than 0; rules of every kind, IPv4 and IPv6: src,
# dst, both, proto with sport and dport ranges and single ports, mark with
# and without a mask, prio both ways, a family alone (every IPv6 packet)
# and with proto and dport, a rule matching everything, prefs given and
# chosen by the kernel; an attach on ingress and one on egress with a
# pref.  Traffic runs first, so that counters are not zero.
# Compared, before and after: "pacerctl -j dev show" (caps),
# "pacerctl -j class show" and "-j rule show" without "matches" (so
# without counters), tc's qdiscs and filters on both veths (JSON, without
# action indexes, references and timestamps), and the dump itself.
#
#   +----- NS_A -----+          +----------------- NS_B -----------------+
#   | ping           |          | vethB 10.0.31.2, 2001:db8:31::2        |
#   | vethA 10.0.31.1+----------+-> ingress (attach) --> pacer0           |
#   +----------------+          |   egress (attach pref 100) --> pacer0  |
#                               +----------------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl tc jq ping

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.31.1 "$NS_B" vethB 10.0.31.2
pacer_add "$NS_B" pacer0

step "a configuration using every attribute"
cat >"$TMPD/setup" <<'EOF'
dev set dev pacer0 max_classes 100 max_rules 200 max_memory 32m
class change dev pacer0 id 0 rate 500mbit burst 256k limit 20ms target 2ms
class add dev pacer0 id 10 name "s3 bulk" rate 10gbit burst 2m ceil 20gbit limit 50ms target 2ms rtt 40ms overhead 24 mpu 84 gso keep
class add dev pacer0 id 11 name "slowest" rate 1kbit
class add dev pacer0 id 12 name "x" rate 100mbit limit 2m gso split overhead -4
class add dev pacer0 id 13 rate 5mbit
class change dev pacer0 id 13 rate unlimited
class add dev pacer0 id 14 name "a \"q\" \\ b" rate 3mbit ceil 4mbit gso auto target 1s mpu 4096 overhead 256
class add dev pacer0 id 65535 rate 10tbit limit 10s rtt 10s
class add dev pacer0 id 15 rate 20mbit limit 30ms rtt 80ms
class change dev pacer0 id 15 limit auto
rule add dev pacer0 pref 10 src 10.0.31.1/32 class 10
rule add dev pacer0 pref 11 dst 192.0.2.0/24 class 11
rule add dev pacer0 pref 12 src 198.51.100.0/22 dst 203.0.113.7 class 12
rule add dev pacer0 pref 13 src 2001:db8:31::/48 class 13
rule add dev pacer0 pref 14 dst 2001:db8:ffff::1/128 proto tcp dport 443 class 14
rule add dev pacer0 pref 15 proto udp sport 1000-2000 dport 53 class 10
rule add dev pacer0 pref 16 proto 47 class 11
rule add dev pacer0 pref 17 mark 0x10/0xf0 class 12
rule add dev pacer0 pref 18 mark 7 class 13
rule add dev pacer0 pref 19 prio 1:10 class 14
rule add dev pacer0 pref 20 prio 5 class 65535
rule add dev pacer0 proto icmp class 0
rule add dev pacer0 pref 22 family inet6 class 15
rule add dev pacer0 pref 23 family inet proto udp dport 53 class 11
rule add dev pacer0 pref 1000 class 0
attach dev pacer0 ingress vethB
attach dev pacer0 egress vethB pref 100
EOF
check_ok "the configuration, as a batch" pc "$NS_B" -b "$TMPD/setup"
check_eq "pings through pacer0" \
	"$(ip netns exec "$NS_A" ping -n -q -c 5 -i 0.05 -W 2 10.0.31.2 | sed -n 's/.* \([0-9]*\) received.*/\1/p')" 5
wait_pacer_idle "$NS_B" pacer0

# json_state FILE FILTER CMD...: CMD's JSON output through jq -S FILTER,
# in FILE.  CMD's exit status is checked apart from jq's (in a pipeline
# only jq's would count, and a failed command on both sides of the round
# trip would leave two equal empty files); the test dies if jq fails or
# prints nothing.
json_state() {
	local file="$1" filter="$2" rc=0

	shift 2
	"$@" >"$file.json" 2>"$file.err" || rc=$?
	[ "$rc" = 0 ] || die "\"$*\" exited $rc: $(cat "$file.err")"
	jq -S "$filter" "$file.json" >"$file" ||
		die "jq '$filter' failed on the output of \"$*\": $(head -c 300 "$file.json")"
	[ -s "$file" ] || die "jq '$filter' printed nothing from \"$*\""
}

# state DIR: what must survive the round trip, one file each.
state() {
	mkdir -p "$1"
	json_state "$1/dev" '.[] | {ifname, classes, max_classes, rules, max_rules, max_memory}' \
		pc "$NS_B" -j dev show dev pacer0
	json_state "$1/classes" . pc "$NS_B" -j class show dev pacer0
	json_state "$1/rules" 'map(del(.matches))' pc "$NS_B" -j rule show dev pacer0
	for side in ingress egress; do
		json_state "$1/filters-$side" '
			walk(if type == "object" then
				del(.index, .ref, .bind, .tm, .stats, .not_in_hw, .in_hw_count)
			     else . end)' \
			tc -n "$NS_B" -j filter show dev vethB "$side"
	done
	json_state "$1/qdiscs" 'map(del(.handle?))' tc -n "$NS_B" -j qdisc show dev vethB
}

# redirects FILE: "PREF ACTION MIRRED_ACTION TO_DEV" of each matchall
# filter in a filters-SIDE file, for its first action.
redirects() {
	jq -r '.[] | select(.kind == "matchall" and .options.actions != null)
		| .pref as $p | .options.actions[0]
		| "\($p) \(.kind) \(.mirred_action) \(.to_dev)"' "$1" | words
}

state "$TMPD/before"
# What the round trip compares must be there to compare.
check_eq "before: vethB's ingress filters (attach ingress: pref 49152)" \
	"$(redirects "$TMPD/before/filters-ingress")" "49152 mirred redirect pacer0"
check_eq "before: vethB's egress filters (attach egress pref 100)" \
	"$(redirects "$TMPD/before/filters-egress")" "100 mirred redirect pacer0"
check_eq "before: vethB's clsact qdisc" \
	"$(jq '[.[] | select(.kind == "clsact")] | length' "$TMPD/before/qdiscs")" 1
check_eq "before: pacer0's caps" \
	"$(jq -r '"\(.ifname) \(.max_classes) \(.max_rules) \(.max_memory)"' "$TMPD/before/dev")" \
	"pacer0 100 200 33554432"
check_eq "counters are not zero before the dump (class 10 rx_packets > 0)" \
	"$(pc "$NS_B" -j -s class show dev pacer0 id 10 | jq '.[0].stats.rx_packets > 0')" true
check_eq "rules before" "$(jq length "$TMPD/before/rules")" 15
# rule_text PREF: "rule show"'s line of rule PREF, without its counter.
rule_text() {
	pc "$NS_B" rule show dev pacer0 | grep "^pref $1 " | sed 's/ (matches [0-9]*)$//'
}
check_eq "before: a family alone shows as such, not as a catch-all" \
	"$(rule_text 22)" "pref 22 family inet6 class 15"
check_eq "before: a family with proto and dport" \
	"$(rule_text 23)" "pref 23 family inet proto udp dport 53 class 11"
check_eq "before: JSON family of prefs 22 and 23" \
	"$(jq -r '.[] | select(.pref == 22 or .pref == 23) | .family' "$TMPD/before/rules" | words)" \
	"inet6 inet"
check_eq "before: no JSON family where a prefix carries it (pref 13, src 2001:db8:31::/48)" \
	"$(jq -r '.[] | select(.pref == 13) | "\(has("family")) \(.src)"' "$TMPD/before/rules")" \
	"false 2001:db8:31::/48"
check_eq "classes before" "$(jq length "$TMPD/before/classes")" 8
# An automatic limit is 4 x (target + rtt/2), at least 100 ms.
check_eq "class 10: limit 50ms, not automatic" \
	"$(jq -r '.[] | select(.id == 10) | "\(.limit_us) \(.limit_auto)"' "$TMPD/before/classes")" \
	"50000 false"
check_eq "class 14 (target 1s, default rtt 100ms): limit auto 4.2s, 4.2s at 3mbit" \
	"$(jq -r '.[] | select(.id == 14) | "\(.limit_us) \(.limit_auto) \(.queue_limit_bytes)"' "$TMPD/before/classes")" \
	"4200000 true 1575000"
check_eq "class 15 (rtt 80ms, limit auto after 30ms): 180ms, 180ms at 20mbit" \
	"$(jq -r '.[] | select(.id == 15) | "\(.limit_us) \(.limit_auto) \(.queue_limit_bytes)"' "$TMPD/before/classes")" \
	"180000 true 450000"
check_eq "class 13 (unlimited, defaults): limit auto 220ms" \
	"$(jq -r '.[] | select(.id == 13) | "\(.limit_us) \(.limit_auto)"' "$TMPD/before/classes")" \
	"220000 true"
check_eq "text: class 15 shows \"limit auto 180ms\"" \
	"$(pc "$NS_B" class show dev pacer0 id 15 | grep -o 'limit auto [0-9a-z]*')" "limit auto 180ms"
log "rules: $(jq -c 'map(.pref)' "$TMPD/before/rules")"

step "pacerctl dump dev pacer0"
check_ok "dump" pc "$NS_B" dump dev pacer0
cp "$TMPD/out" "$TMPD/pacer0.conf"
sed 's/^/    | /' "$TMPD/pacer0.conf"
check_eq "dump: one line per cap set, class, rule, attach (+1 comment, +1 for class 13)" \
	"$(wc -l <"$TMPD/pacer0.conf")" $((1 + 1 + 8 + 1 + 15 + 2))
check_eq "dump: pref 22 keeps its family (not a catch-all)" \
	"$(grep '^rule add dev pacer0 pref 22 ' "$TMPD/pacer0.conf")" \
	"rule add dev pacer0 pref 22 family inet6 class 15"
check_eq "dump: pref 23 keeps its family" \
	"$(grep '^rule add dev pacer0 pref 23 ' "$TMPD/pacer0.conf")" \
	"rule add dev pacer0 pref 23 family inet proto 17 dport 53 class 11"
check_eq "dump: class 15's limit is \"limit auto\"" \
	"$(grep -c '^class add dev pacer0 id 15 .* limit auto ' "$TMPD/pacer0.conf")" 1
check_eq "dump: class 11 (1kbit) has its default burst left out" \
	"$(grep -c '^class add dev pacer0 id 11 .*burst' "$TMPD/pacer0.conf")" 0

step "delete everything: redirects, qdiscs, the device"
pc "$NS_B" detach dev pacer0 ingress vethB
pc "$NS_B" detach dev pacer0 egress vethB
tc -n "$NS_B" qdisc del dev vethB clsact
ip -n "$NS_B" link del pacer0
check_eq "pacer0 is gone" "$(ip -n "$NS_B" link show dev pacer0 >/dev/null 2>&1 && echo yes || echo no)" no
check_eq "no qdisc left on vethB" "$(tc -n "$NS_B" -j qdisc show dev vethB | jq '[.[] | select(.kind == "clsact")] | length')" 0

step "recreate pacer0 and restore"
pacer_add "$NS_B" pacer0
check_ok "pacerctl -b pacer0.conf" pc "$NS_B" -b "$TMPD/pacer0.conf"
state "$TMPD/after"
for f in dev classes rules filters-ingress filters-egress qdiscs; do
	if cmp -s "$TMPD/before/$f" "$TMPD/after/$f"; then
		check_eq "$f identical after the round trip ($(wc -c <"$TMPD/before/$f") bytes of JSON)" same same
	else
		check_eq "$f identical after the round trip" differs same
		diff "$TMPD/before/$f" "$TMPD/after/$f" | head -n 40
	fi
done
check_ok "dump again" pc "$NS_B" dump dev pacer0
if cmp -s "$TMPD/out" "$TMPD/pacer0.conf"; then
	check_eq "the second dump is the first" same same
else
	check_eq "the second dump is the first" differs same
	diff "$TMPD/pacer0.conf" "$TMPD/out" | head -n 20
fi
check_eq "restored: pref 22 is family inet6 alone" \
	"$(rule_text 22)" "pref 22 family inet6 class 15"
check_eq "pings through the restored pacer0" \
	"$(ip netns exec "$NS_A" ping -n -q -c 5 -i 0.05 -W 2 10.0.31.2 | sed -n 's/.* \([0-9]*\) received.*/\1/p')" 5
check_eq "the restored rule 10 classifies them (class 10 rx_packets)" \
	"$(pc "$NS_B" -j -s class show dev pacer0 id 10 | jq '.[0].stats.rx_packets > 0')" true

step "dump's errors"
check_fail "no dev" 2 '"dev DEV" is required' pc "$NS_B" dump
check_fail "no such device" 1 'device "pacer9" does not exist' pc "$NS_B" dump dev pacer9
check_fail "not a pacer device" 1 'device "vethB" is not a pacer device' pc "$NS_B" dump dev vethB

step "rule add family: other words and contradicting prefixes are refused"
check_fail "family ipx" 2 'invalid family "ipx": expected inet (IPv4) or inet6 (IPv6)' \
	pc "$NS_B" rule add dev pacer0 family ipx class 0
check_fail "family inet with an IPv6 src" 2 \
	'family "inet" and src "2001:db8::/32" are of different families: family inet takes IPv4 prefixes only' \
	pc "$NS_B" rule add dev pacer0 family inet src 2001:db8::/32 class 0
check_fail "family inet6 with an IPv4 dst" 2 \
	'family "inet6" and dst "192.0.2.1" are of different families: family inet6 takes IPv6 prefixes only' \
	pc "$NS_B" rule add dev pacer0 family inet6 dst 192.0.2.1 class 0
check_eq "none of them was added" "$(pc "$NS_B" -j rule show dev pacer0 | jq length)" 15
# The kernel takes a family that its prefix shares: the prefix shows it.
check_ok "family inet with an IPv4 src" \
	pc "$NS_B" rule add dev pacer0 pref 500 family inet src 198.18.0.0/15 class 0
check_eq "... shows as its src alone" "$(rule_text 500)" "pref 500 src 198.18.0.0/15 class 0"
check_ok "... and is deleted" pc "$NS_B" rule del dev pacer0 pref 500

ksft_exit
