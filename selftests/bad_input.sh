#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input through pacerctl: every out-of-range or conflicting value is
# refused with a message that names it and the documented exit status
# (2: pacerctl itself rejects the value; 1: the kernel rejects the
# request, and pacerctl prints its extack text), and nothing is
# half-applied: "pacerctl -j -s class show" and "-j rule show" print the
# same before and after all of them.  The kernel's own checks (what
# pacerctl cannot know: existing ids, rules using a class, a ceil below
# the rate already set) are reached through pacerctl; the out-of-range
# values pacerctl stops are sent raw by nl_raw (nl_raw.sh).
#
#   +---------------- NS ----------------+
#   | pacer0: class 0 (default),         |   pacerctl runs here
#   |         class 5 at 10mbit "keep",  |
#   |         rule pref 7: src 10/8 -> 5 |
#   +------------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl jq md5sum

setup_ns NS
load_pacer
pacer_add "$NS" pacer0

in_ns() {
	ip netns exec "$NS" "$@"
}

# check_fail2 NAME RC TEXT1 TEXT2 CMD...: as check_fail, and stderr
# also contains TEXT2 (pacerctl's context beside the kernel's text).
check_fail2() {
	local name=$1 rc=$2 t1=$3 t2=$4

	shift 4
	check_fail "$name" "$rc" "$t1" "$@"
	if grep -qF -- "$t2" "$TMPD/err"; then
		_pass "$name: stderr also says \"$t2\""
	else
		_fail "$name: stderr lacks \"$t2\": $(cat "$TMPD/err")"
	fi
	check_eq "$name: nothing on stdout" "$(wc -c <"$TMPD/out")" 0
}

# state: what must not change, classes (with counters) and rules.
state() {
	in_ns pacerctl -j -s class show dev pacer0
	in_ns pacerctl -j rule show dev pacer0
}

step "a class and a rule to protect"
in_ns pacerctl class add dev pacer0 id 5 rate 10mbit name keep
in_ns pacerctl rule add dev pacer0 pref 7 src 10.0.0.0/8 class 5
before=$(state)
log "before: $(printf '%s\n' "$before" | jq -c '[.[] | del(.stats)]' | tr '\n' ' ')(stats left out)"

step "values pacerctl refuses itself: exit 2"
ADD="pacerctl class add dev pacer0 id 1"
check_fail "rate 500bit" 2 'rate "500bit" is out of range: expected 1kbit to 10tbit' \
	in_ns $ADD rate 500bit
check_fail "target 0 (a time needs its unit)" 2 'invalid target "0": expected a number with' \
	in_ns $ADD rate 10mbit target 0
check_fail "target 0us" 2 'target "0us" is out of range: expected 1us to 1s' \
	in_ns $ADD rate 10mbit target 0us
check_fail "rtt 11s" 2 'rtt "11s" is out of range: expected 1us to 10s' \
	in_ns $ADD rate 10mbit rtt 11s
check_fail "rtt 0us" 2 'rtt "0us" is out of range: expected 1us to 10s' \
	in_ns $ADD rate 10mbit rtt 0us
check_fail "limit given both as a time and a size" 2 '"limit" is given twice' \
	in_ns $ADD rate 10mbit limit 10ms limit 64k
check_fail "overhead 300" 2 'overhead "300" is out of range: expected -64 to 256' \
	in_ns $ADD rate 10mbit overhead 300
check_fail "mpu 5000" 2 'mpu "5000" is out of range: expected 0 to 4096' \
	in_ns $ADD rate 10mbit mpu 5000
check_fail "name of 20 bytes" 2 \
	'name "abcdefghijklmnopqrst" is too long: expected at most 15 bytes' \
	in_ns $ADD rate 10mbit name abcdefghijklmnopqrst
check_fail "ceil below rate" 2 'ceil "5mbit" is out of range: expected 0 (none) or rate' \
	in_ns $ADD rate 10mbit ceil 5mbit
check_fail "id 70000" 2 'id "70000" is out of range: expected 0 to 65535' \
	in_ns pacerctl class add dev pacer0 id 70000 rate 10mbit
check_fail "unknown keyword" 2 'unknown argument "foo" for "class add"' \
	in_ns $ADD rate 10mbit foo 3
check_fail "rate with no unit pacerctl knows" 2 'invalid rate "10xbit"' \
	in_ns $ADD rate 10xbit
check_fail "burst longer than 1000 s at rate" 2 'burst "1g" is out of range' \
	in_ns $ADD rate 1kbit burst 1g
check_fail "burst one byte past 1000 s at rate" 2 \
	'burst "125001" is out of range: expected at most 125000 bytes (1000s at rate 1Kbit)' \
	in_ns $ADD rate 1kbit burst 125001
check_fail "class add without a rate" 2 '"class add" needs "rate RATE"' \
	in_ns pacerctl class add dev pacer0 id 1
check_fail "src with prefix length 33" 2 \
	'src "10.0.0.0/33" is out of range: expected a prefix length of 0-32 for IPv4, 0-128 for IPv6' \
	in_ns pacerctl rule add dev pacer0 src 10.0.0.0/33 class 5
check_fail "dport range ending below its start" 2 'dport "80-79" is out of range' \
	in_ns pacerctl rule add dev pacer0 dport 80-79 class 5
check_fail "mark with bits outside its mask" 2 'mark "0x11/0xf0" is out of range' \
	in_ns pacerctl rule add dev pacer0 mark 0x11/0xf0 class 5

step "requests the kernel refuses: exit 1, its extack text"
check_fail2 "class add id 0" 1 \
	"class 0 is the default class and always exists: change it instead" \
	'cannot add class 0 to device "pacer0"' \
	in_ns pacerctl class add dev pacer0 id 0 rate 10mbit
check_fail2 "class add of an id that exists" 1 "a class with this id exists" \
	'cannot add class 5 to device "pacer0"' \
	in_ns pacerctl class add dev pacer0 id 5 rate 1mbit
check_fail2 "class del id 0" 1 "class 0 is the default class and cannot be deleted" \
	'cannot delete class 0 of device "pacer0"' \
	in_ns pacerctl class del dev pacer0 id 0
check_fail2 "class del of a class a rule uses" 1 \
	"a rule sends packets to this class: delete the rule first" \
	'cannot delete class 5 of device "pacer0"' \
	in_ns pacerctl class del dev pacer0 id 5
check_fail2 "class change of a class that does not exist" 1 \
	"no class with this id on the device" 'cannot change class 9 of device "pacer0"' \
	in_ns pacerctl class change dev pacer0 id 9 rate 1mbit
check_fail2 "class change: a name and a ceil below the rate set (nothing applied)" 1 \
	"ceil must be 0 (none) or from rate to 10tbit, and needs a rate" \
	'cannot change class 5 of device "pacer0"' \
	in_ns pacerctl class change dev pacer0 id 5 name changed ceil 1mbit
check_fail2 "rule to a class that does not exist" 1 \
	"no class with this id on the device" 'cannot add the rule to device "pacer0"' \
	in_ns pacerctl rule add dev pacer0 src 10.0.0.0/8 class 9
check_fail2 "rule with a pref in use" 1 "a rule with this pref exists" \
	'cannot add the rule to device "pacer0"' \
	in_ns pacerctl rule add dev pacer0 pref 7 dst 10.0.0.0/8 class 5
check_fail2 "rule del of a pref not in use" 1 "no rule with this pref on the device" \
	'cannot delete rule 99 of device "pacer0"' \
	in_ns pacerctl rule del dev pacer0 pref 99

step "nothing half-applied"
after=$(state)
check_eq "class show -s and rule show (JSON, $(printf '%s' "$before" | wc -c) bytes): md5sum after = before" \
	"$(printf '%s' "$after" | md5sum)" "$(printf '%s' "$before" | md5sum)"
check_eq "class 5 still named keep, rate 10 Mbit/s, no ceil" \
	"$(in_ns pacerctl -j class show dev pacer0 id 5 | jq -r '.[0] | "\(.name) \(.rate_bps) \(.ceil_bps)"')" \
	"keep 10000000 0"

# pacerctl checks the burst against a rate it is given; against the rate
# a class has, the kernel does.  Both allow 1000 s at rate itself.
step "a burst of exactly 1000 s at rate is allowed, one byte more is not"
check_ok "class add at 1kbit with burst 125000 (1000 s)" \
	in_ns pacerctl class add dev pacer0 id 6 rate 1kbit burst 125000
check_fail2 "class change to burst 125001 (the kernel's check)" 1 \
	"burst must take at most 1000s at rate" 'cannot change class 6 of device "pacer0"' \
	in_ns pacerctl class change dev pacer0 id 6 burst 125001
check_eq "class 6's burst" \
	"$(in_ns pacerctl -j class show dev pacer0 id 6 | jq -r '.[0].burst')" 125000
check_ok "class del 6" in_ns pacerctl class del dev pacer0 id 6

ksft_exit
