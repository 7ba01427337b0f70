#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pacerctl's failures and help: every error names the problem on stderr
# with the documented exit status (1: the request failed, 2: bad usage);
# help at every level prints usage on stdout and exits 0; -V prints the
# version; "dev show" lists the namespace's devices; reads work without
# privileges.
#
#   +---------------- NS ----------------+
#   | pacer0  pacer1   lo (not a pacer)  |   pacerctl runs here
#   +------------------------------------+
#   module unloaded, autoload blocked by /etc/modprobe.d/pacer-test.conf:
#   "generic netlink family not found"
#
. "$(dirname "$0")/lib.sh"

require modprobe rmmod pacerctl jq setpriv

BLOCK=/etc/modprobe.d/pacer-test.conf
cleanup_test() {
	rm -f "$BLOCK"
}

# in_ns CMD...: run CMD in the test's namespace.
in_ns() {
	ip netns exec "$NS" "$@"
}

# check_help NAME CMD...: exit 0, "Usage:" on stdout, nothing on stderr.
check_help() {
	local name=$1 rc=0

	shift
	"$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	if [ "$rc" != 0 ]; then
		_fail "$name: \"$*\" exited $rc, want 0"
	elif ! grep -q '^Usage: pacerctl' "$TMPD/out"; then
		_fail "$name: \"$*\" printed no usage on stdout: $(head -n 3 "$TMPD/out")"
	elif [ -s "$TMPD/err" ]; then
		_fail "$name: \"$*\" wrote to stderr: $(cat "$TMPD/err")"
	else
		_pass "$name: exit 0, \"$(head -n 1 "$TMPD/out")\""
	fi
}

setup_ns NS

step "module not loaded and not loadable"
rmmod pacer 2>/dev/null || true
mkdir -p /etc/modprobe.d
echo "install pacer /bin/false" >"$BLOCK"
check_eq "pacer is not loaded" "$(pacer_loaded && echo loaded || echo unloaded)" unloaded
check_fail "dev show without the module" 1 \
	"pacer: generic netlink family not found; is the module loaded? (modprobe pacer)" \
	in_ns pacerctl dev show
check_fail "dev show NAME without the module" 1 \
	"generic netlink family not found" \
	in_ns pacerctl -j -s dev show dev pacer0
check_eq "nothing on stdout then" "$(wc -c <"$TMPD/out")" 0
check_eq "the blocked autoload did not load it" \
	"$(pacer_loaded && echo loaded || echo unloaded)" unloaded
rm -f "$BLOCK"

step "the module loaded, two devices"
load_pacer
pacer_add "$NS" pacer0
pacer_add "$NS" pacer1

step "dev show"
js=$(in_ns pacerctl -j dev show)
log "pacerctl -j dev show: $js"
check_eq "JSON lists both devices" "$(echo "$js" | json_len)" 2
check_eq "their names" "$(echo "$js" | json_each ifname | sort | words)" "pacer0 pacer1"
check_eq "their ifindexes are rtnetlink's" \
	"$(echo "$js" | json_each ifindex | sort -n | words)" \
	"$(ip -n "$NS" -j link show type pacer | json_each ifindex | sort -n | words)"
check_eq "no stats without -s" "$(echo "$js" | json_each stats.rx_packets)" ""
check_eq "the JSON is valid (jq)" "$(echo "$js" | jq -c .)" "$js"
txt=$(in_ns pacerctl dev show)
log "pacerctl dev show:"
log "$txt"
check_eq "text lists both devices" \
	"$(echo "$txt" | grep -cE '^pacer[01]: ifindex [0-9]+ classes 1 max_classes [0-9]+ rules 0 max_rules [0-9]+ max_memory [0-9]+[KMG]?b$')" 2
js=$(in_ns pacerctl -j -s dev show dev pacer1)
log "pacerctl -j -s dev show dev pacer1: $js"
check_eq "dev NAME lists one device" "$(echo "$js" | json_each ifname | words)" pacer1
check_eq "-s: the 10 counters by name" \
	"$(echo "$js" | json_flat | awk -F '\t' 'sub(/^0[.]stats[.]/, "", $1) { print $1 }' | words)" \
	"$(echo "$PACER_COUNTERS" | words)"
check_eq "-s: all 0 on a new device" \
	"$(echo "$js" | json_flat | awk -F '\t' '/^0[.]stats[.]/ { n += $2 } END { print n + 0 }')" 0
check_eq "-p prints the same JSON, indented" \
	"$(in_ns pacerctl -p -s dev show dev pacer1 | jq -c .)" "$(echo "$js" | jq -c .)"
check_ge "-p output has one line per value" \
	"$(in_ns pacerctl -p -s dev show dev pacer1 | wc -l)" 14
check_eq "keywords may be shortened: d s = dev show" \
	"$(in_ns pacerctl -j d s)" "$(in_ns pacerctl -j dev show)"
check_fail "the first keyword a prefix fits wins, as in ip: det = detach" 1 \
	'lo ingress does not redirect to pacer1' \
	in_ns pacerctl det dev pacer1 ingress lo
check_eq "reads need no privilege (uid 65534)" \
	"$(in_ns setpriv --reuid 65534 --regid 65534 --clear-groups pacerctl -j dev show | json_len)" 2

step "request errors: exit 1"
check_fail "no such device" 1 'device "nosuch0" does not exist' \
	in_ns pacerctl dev show dev nosuch0
check_fail "not a pacer device" 1 'device "lo" is not a pacer device' \
	in_ns pacerctl dev show dev lo
check_eq "nothing on stdout after a failed request" "$(wc -c <"$TMPD/out")" 0
check_fail "JSON mode: not a pacer device" 1 'device "lo" is not a pacer device' \
	in_ns pacerctl -j -s dev show dev lo

step "usage errors: exit 2"
check_fail "unknown object" 2 'unknown object "foo"' in_ns pacerctl foo
check_fail "unknown command" 2 'unknown command "foo" for "dev"' \
	in_ns pacerctl dev foo
check_fail "unknown argument" 2 'unknown argument "foo" for "dev show"' \
	in_ns pacerctl dev show foo
check_fail "missing value" 2 '"dev" needs a value' in_ns pacerctl dev show dev
check_fail "keyword given twice" 2 '"dev" is given twice' \
	in_ns pacerctl dev show dev pacer0 dev pacer1
check_fail "invalid device name" 2 'invalid device name "a/b"' \
	in_ns pacerctl dev show dev a/b
check_fail "too long device name" 2 'invalid device name "abcdefghijklmnop"' \
	in_ns pacerctl dev show dev abcdefghijklmnop
check_fail "a CR in a device name, as the kernel refuses it" 2 \
	'invalid device name "lo\r": a carriage return at byte 3' \
	in_ns pacerctl dev show dev "$(printf 'lo\r')"
check_fail "a ':' in a device name" 2 'invalid device name "a:b": '"':'"' at byte 2' \
	in_ns pacerctl dev show dev a:b
check_fail "a device name of \"..\"" 2 'invalid device name "..": expected 1 to 15 bytes' \
	in_ns pacerctl dev show dev ..
check_fail "unknown option" 2 'unknown option "-x"' in_ns pacerctl -x dev show
check_fail "unknown long option" 2 'unknown option "--nope"' \
	in_ns pacerctl --nope dev show
check_fail "no object" 2 "Usage: pacerctl" in_ns pacerctl
check_fail "help of an unknown object" 2 'unknown object "foo"' \
	in_ns pacerctl help foo
check_fail "a rate below 1bit is refused, not read as 0 (unlimited)" 2 \
	'rate "0.5bit" is out of range: expected 0 (unlimited) or 1kbit to 10tbit' \
	in_ns pacerctl class change dev pacer0 id 0 rate 0.5bit
check_fail "a ceil below 1bit is refused, not read as 0 (none)" 2 \
	'ceil "0.5bit" is out of range' \
	in_ns pacerctl class change dev pacer0 id 0 ceil 0.5bit
check_fail "a burst below 1 byte is refused, not read as 0 (the default)" 2 \
	'burst "0.5"' \
	in_ns pacerctl class change dev pacer0 id 0 burst 0.5

step "help at every level: exit 0, usage on stdout"
check_help "help" in_ns pacerctl help
check_help "-h" in_ns pacerctl -h
check_help "--help" in_ns pacerctl --help
check_help "help dev" in_ns pacerctl help dev
check_help "dev help" in_ns pacerctl dev help
check_help "dev show help" in_ns pacerctl dev show help
check_eq "dev help shows the dev grammar" \
	"$(in_ns pacerctl dev help | grep -c 'dev show \[ dev NAME \]')" 1

step "version"
check_ok "-V" in_ns pacerctl -V
check_eq "-V prints \"pacerctl VERSION\"" \
	"$(grep -cE '^pacerctl [0-9A-Za-z][^ ]*$' "$TMPD/out")" 1
log "pacerctl -V: $(cat "$TMPD/out")"
check_eq "--version prints the same" "$(in_ns pacerctl --version)" "$(cat "$TMPD/out")"

step "no devices: an empty list"
ip -n "$NS" link del pacer0
ip -n "$NS" link del pacer1
check_eq "JSON: []" "$(in_ns pacerctl -j dev show)" '[]'
check_eq "text: nothing" "$(in_ns pacerctl dev show | wc -c)" 0

ksft_exit
