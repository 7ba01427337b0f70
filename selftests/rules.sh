#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Classification: each kind of rule steers exactly the packets it should
# to its class, proved by counters.  For every case NS_A sends exactly N
# packets (pings, or TCP SYNs answered by a RST) and the class rx_packets
# deltas must be N for the class the case names and 0 for every other
# class, class 0 included:
#   IPv4 prefix   dst 10.0.14.2/31          ping 10.0.14.2     -> class 11
#   IPv6 prefix   src 2001:db8:14::/64      ping 2001:db8:14::2 -> class 12
#   ports         proto tcp dport 7000-7001 SYNs to .6:7000/7001 -> class 13
#   ports, IPv6   the same rule             SYNs to [2001:db8:14::2]:7000/7001
#                 -> class 13 (the /64 rule matches too; pref 20 wins)
#   mark          mark 0x10/0xf0            ping 10.0.14.3     -> class 14
#                 (tc skbedit mark 0x10 at vethB's ingress, before the
#                 mirred; 10.0.14.3 is also in the /31: first match wins)
#   prio rule     prio 1:10                 ping 10.0.14.4     -> class 15
#                 (tc skbedit priority 1:10)
#   priority      no rule; skbedit priority 1:16: the minor number, 0x16,
#                 names class 22            ping 10.0.14.5     -> class 22
#   default       nothing matches           ping 10.0.14.6     -> class 0
# Then "rule show" lists the five rules in pref order with the class and
# "matches" count (N each, 2N for the ports rule), and after "rule del"
# of the /31 rule its packets fall to class 0.
# IPv6 is on for the two veths only, with DAD and router solicitations
# off and permanent neighbours; the test waits for the MLD reports of the
# new addresses to pass before counting.
#
#   +--------- NS_A ----------+       +------------------ NS_B -------------------+
#   | ping, ping -6, nc       |       | vethB 10.0.14.2-6/24, 2001:db8:14::2/64   |
#   | vethA 10.0.14.1/24      |       |  ingress, in order:                       |
#   |   2001:db8:14::1/64 ----+-------+-> flower dst .3: skbedit mark 0x10,       |
#   |                         |       |      mirred --> pacer0                    |
#   |                         |       |   flower dst .4: skbedit priority 1:10, ..|
#   |                         |       |   flower dst .5: skbedit priority 1:16, ..|
#   |                         |       |   matchall: mirred --> pacer0             |
#   |                         |       |  pacer0: rules pref 10-50, classes        |
#   |                         |       |  0 11 12 13 14 15 22                      |
#   +-------------------------+       +-------------------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl tc ping nc jq

N=10
CLASSES="0 11 12 13 14 15 22"

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.14.1 "$NS_B" vethB 10.0.14.2
mac_b=$(ip -n "$NS_B" -j link show dev vethB | json_get 0.address)
mac_a=$(ip -n "$NS_A" -j link show dev vethA | json_get 0.address)
for a in 3 4 5 6; do
	ip -n "$NS_B" addr add "10.0.14.$a/24" dev vethB
	ip -n "$NS_A" neigh replace "10.0.14.$a" lladdr "$mac_b" dev vethA nud permanent
done

step "IPv6 on vethA and vethB"
for x in "$NS_A vethA 1 $mac_b 2" "$NS_B vethB 2 $mac_a 1"; do
	set -- $x
	for k in accept_dad=0 router_solicitations=0 disable_ipv6=0; do
		ns_sysctl "$1" "net/ipv6/conf/$2/${k%%=*}" "${k#*=}"
	done
	ip -n "$1" addr add "2001:db8:14::$3/64" dev "$2" nodad
	ip -n "$1" -6 neigh replace "2001:db8:14::$5" lladdr "$4" dev "$2" nud permanent
done

step "pacer0, its classes, its rules; tc marks on vethB's ingress"
pacer_add "$NS_B" pacer0
for c in $CLASSES; do
	[ "$c" = 0 ] || pc "$NS_B" class add dev pacer0 id "$c" rate 100mbit
done
pc "$NS_B" rule add dev pacer0 pref 10 mark 0x10/0xf0 class 14
pc "$NS_B" rule add dev pacer0 pref 20 proto tcp dport 7000-7001 class 13
pc "$NS_B" rule add dev pacer0 pref 30 prio 1:10 class 15
pc "$NS_B" rule add dev pacer0 pref 40 src 2001:db8:14::/64 class 12
pc "$NS_B" rule add dev pacer0 pref 50 dst 10.0.14.2/31 class 11
tc -n "$NS_B" qdisc add dev vethB handle ffff: ingress
# tcmark PRIO ADDR ACTION...: at vethB's ingress, ACTION for packets to
# ADDR, then into pacer0.
tcmark() {
	local prio=$1 addr=$2

	shift 2
	tc -n "$NS_B" filter add dev vethB parent ffff: protocol ip prio "$prio" \
		flower dst_ip "$addr" action "$@" pipe \
		action mirred egress redirect dev pacer0
}
tcmark 1 10.0.14.3 skbedit mark 0x10
tcmark 2 10.0.14.4 skbedit priority 1:10
tcmark 3 10.0.14.5 skbedit priority 1:16
tc -n "$NS_B" filter add dev vethB parent ffff: prio 10 matchall \
	action mirred egress redirect dev pacer0
log "rules:"
log "$(pc "$NS_B" rule show dev pacer0)"

# rx_all: "ID=RX_PACKETS ..." of every class.
rx_all() {
	pc "$NS_B" -j -s class show dev pacer0 | json_flat | awk -F '\t' '
		$1 ~ /^[0-9]+[.]id$/ { split($1, p, "."); id[p[1]] = $2 }
		$1 ~ /^[0-9]+[.]stats[.]rx_packets$/ { split($1, p, "."); rx[p[1]] = $2 }
		END { for (i in id) printf "%s=%s\n", id[i], rx[i] }' | sort -n
}

# rx_of SNAPSHOT ID: the rx_packets of class ID in an rx_all snapshot.
rx_of() {
	printf '%s\n' "$1" | awk -F = -v id="$2" '$1 == id { print $2 }'
}

step "let IPv6's own packets (MLD reports) pass before counting"
wait_stable 15 1.5 link_stat "$NS_B" vethB rx_packets ||
	die "vethB never went quiet"

# case NAME CLASS CMD...: run CMD (it sends N packets) and check that
# class CLASS, and no other, received N packets.
case_() {
	local name=$1 want=$2 before after c d

	shift 2
	step "$name: $N packets -> class $want"
	before=$(rx_all)
	"$@"
	after=$(rx_all)
	for c in $CLASSES; do
		d=$(($(rx_of "$after" "$c") - $(rx_of "$before" "$c")))
		if [ "$c" = "$want" ]; then
			check_eq "$name: class $c rx_packets delta" "$d" "$N"
		else
			check_eq "$name: class $c rx_packets delta" "$d" 0
		fi
	done
}

# pings ADDR [ARGS]: N echo requests, every one answered.
pings() {
	local addr=$1 got

	shift
	got=$(timeout 30 ip netns exec "$NS_A" ping -n -q "$@" -c "$N" -i 0.02 -W 2 "$addr" |
		sed -n 's/.* \([0-9]*\) received.*/\1/p')
	[ "$got" = "$N" ] || _fail "ping $addr: $got of $N answered"
}

# syns ADDR: N TCP connection attempts to ports 7000 and 7001 of ADDR:
# one SYN each, refused by a RST.
syns() {
	local i=0

	while [ "$i" -lt "$N" ]; do
		timeout 5 ip netns exec "$NS_A" nc -w 2 "$1" $((7000 + i % 2)) \
			</dev/null >/dev/null 2>&1 || true
		i=$((i + 1))
	done
}

case_ "IPv4 prefix (dst 10.0.14.2/31)" 11 pings 10.0.14.2
case_ "IPv6 prefix (src 2001:db8:14::/64)" 12 pings 2001:db8:14::2 -6
case_ "ports (proto tcp dport 7000-7001)" 13 syns 10.0.14.6
case_ "ports over IPv6 (the same rule, before the /64's)" 13 syns 2001:db8:14::2
case_ "mark (skbedit mark 0x10, rule mark 0x10/0xf0)" 14 pings 10.0.14.3
case_ "prio rule (skbedit priority 1:10, rule prio 1:10)" 15 pings 10.0.14.4
case_ "priority, no rule (skbedit priority 1:16 -> class 0x16 = 22)" 22 pings 10.0.14.5
case_ "default (no rule, no priority)" 0 pings 10.0.14.6

step "rule show: pref order, classes, matches"
js=$(pc "$NS_B" -j rule show dev pacer0)
printf '%s\n' "$js" | json_flat >"$TMPD/rules.flat"
# rget PATH: a value of the rule JSON.
rget() {
	awk -F '\t' -v p="$1" '$1 == p { print $2; exit }' "$TMPD/rules.flat"
}
# reach KEY: KEY of every rule, on one line.
reach() {
	echo $(awk -F '\t' -v k="$1" '{ i = index($1, "."); if (substr($1, i + 1) == k) print $2 }' "$TMPD/rules.flat")
}
log "pacerctl -j rule show: $js"
log "$(pc "$NS_B" rule show dev pacer0)"
check_eq "the JSON is valid (jq)" "$(printf '%s\n' "$js" | jq -c .)" "$js"
check_eq "rules listed" "$(reach pref | wc -w)" 5
check_eq "prefs, in order" "$(reach pref)" "10 20 30 40 50"
check_eq "classes" "$(reach class)" "14 13 15 12 11"
check_eq "matches of each rule" "$(reach matches)" "$N $((2 * N)) $N $N $N"
check_eq "pref 50: dst" "$(rget 4.dst)" 10.0.14.2/31
check_eq "pref 40: src" "$(rget 3.src)" 2001:db8:14::/64
check_eq "pref 30: prio (0x10010)" "$(rget 2.prio)" 65552
check_eq "pref 20: proto/dport" "$(rget 1.proto)/$(rget 1.dport)" 6/7000-7001
check_eq "pref 10: mark/mark_mask" "$(rget 0.mark)/$(rget 0.mark_mask)" 16/240

pc "$NS_B" rule del dev pacer0 pref 50
check_eq "rule del: 4 rules left" "$(pc "$NS_B" -j rule show dev pacer0 | json_len)" 4
case_ "after rule del pref 50: 10.0.14.2 falls to the default class" 0 pings 10.0.14.2

ksft_exit
