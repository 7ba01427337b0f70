#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Network namespaces: pacerctl sees only its own namespace's devices, the
# same name in two namespaces names two devices with their own counters,
# and a device moved to another namespace keeps its counters and is
# listed there only.
#
#   +-------- NS1 --------+          +-------- NS2 --------+
#   | pacer0 (3 drops)    |          | pacer0 (0 drops)    |
#   | pacer1 (2 drops) ---+--move--> |                     |
#   +---------------------+          +---------------------+
#   initial namespace: lists neither
#
. "$(dirname "$0")/lib.sh"

require pacerctl ping

names() {	# NS ("" for the initial one): pacerctl's device names, sorted
	if [ -n "$1" ]; then
		ip netns exec "$1" pacerctl -j dev show
	else
		pacerctl -j dev show
	fi | json_each ifname | sort | words
}

# drops NS DEV K: send K packets to DEV directly (each one is dropped
# and counted as not redirected).
drops() {
	ip -n "$1" addr add "10.98.$3.1/24" dev "$2"
	ip netns exec "$1" ping -q -n -c "$3" -i 0.05 -W 1 "10.98.$3.2" >/dev/null 2>&1 || true
	ip -n "$1" addr flush dev "$2"
}

cleanup_test() {
	ip link del "pacert$$" 2>/dev/null
}

setup_ns NS1 NS2
load_pacer
root_before=$(names "")
log "initial namespace lists: $root_before"

step "pacer0 and pacer1 in NS1, pacer0 in NS2"
pacer_add "$NS1" pacer0
pacer_add "$NS1" pacer1
pacer_add "$NS2" pacer0
check_eq "NS1 lists its two" "$(names "$NS1")" 'pacer0 pacer1'
check_eq "NS2 lists its one" "$(names "$NS2")" pacer0
check_eq "the initial namespace lists none of them" "$(names "")" "$root_before"

step "the same name, two devices, two sets of counters"
drops "$NS1" pacer0 3
drops "$NS1" pacer1 2
check_eq "NS1 pacer0 dropped_not_redirected" "$(pacer_stat "$NS1" pacer0 dropped_not_redirected)" 3
check_eq "NS1 pacer1 dropped_not_redirected" "$(pacer_stat "$NS1" pacer1 dropped_not_redirected)" 2
check_eq "NS2 pacer0 dropped_not_redirected" "$(pacer_stat "$NS2" pacer0 dropped_not_redirected)" 0
check_eq "NS2 pacer0 rx_packets" "$(pacer_stat "$NS2" pacer0 rx_packets)" 0

step "move pacer1 from NS1 to NS2"
ip -n "$NS1" link set pacer1 netns "$NS2"
check_eq "NS1 lists pacer0 only" "$(names "$NS1")" pacer0
check_eq "NS2 lists both" "$(names "$NS2")" 'pacer0 pacer1'
check_fail "NS1 no longer finds pacer1" 1 'device "pacer1" does not exist' \
	ip netns exec "$NS1" pacerctl dev show dev pacer1
check_eq "pacer1 kept its counters" "$(pacer_stat "$NS2" pacer1 dropped_not_redirected)" 2
check_eq "NS2 pacer1: ip -s link agrees" "$(link_stat "$NS2" pacer1 rx_dropped)" 2
check_eq "the initial namespace still lists none of them" "$(names "")" "$root_before"

step "a device of the initial namespace is not seen from NS1"
ip link add pacert$$ type pacer
check_eq "initial namespace lists it" \
	"$(pacerctl -j dev show | json_each ifname | grep -c "^pacert$$\$")" 1
check_eq "NS1 does not" "$(names "$NS1")" pacer0
check_fail "NS1 cannot read it by name" 1 "does not exist" \
	ip netns exec "$NS1" pacerctl dev show dev "pacert$$"
ip link del "pacert$$"
check_eq "the initial namespace is back to what it was" "$(names "")" "$root_before"

ksft_exit
