# SPDX-License-Identifier: GPL-2.0
#
# Helpers for pacer's selftests (POSIX sh, sourced by every scenario).
#
# A scenario does:
#
#	. "$(dirname "$0")/lib.sh"
#	setup_ns NS_A NS_B		# unique names, cleaned up on exit
#	...
#	check_eq "pacer0 rx_packets" "$got" "$want"
#	ksft_exit
#
# Assertions print their figures whether they pass or fail and record a
# failure without stopping the script, so one run shows every mismatch;
# ksft_exit then exits 1 if any failed.  An unexpected command failure
# stops the script (set -e) and the trap says after which step.  Exit 4
# (KSFT_SKIP) means the test could not run here; a test that finds that
# out only after a check failed exits 1 all the same: what it could not
# do next does not undo the failure (skip names the failed checks).

set -e

KSFT_PASS=0
KSFT_FAIL=1
KSFT_SKIP=4

RET=0			# becomes 1 at the first failed check
FAILED=""		# the failed checks, one a line (their first line)
NSES=""			# namespaces to delete on exit
PIDS=""			# background processes to stop on exit
PARAMS_SET=""		# module parameters module_param changed
TRACE_RESTORE=""	# tracefs and what trace_release changed there
STEP="start"		# what the script was doing, for the exit trap
TMPD=$(mktemp -d "${TMPDIR:-/tmp}/pacer-test.XXXXXX")
TEST_START=$(date +%s)	# each step says when it began, for slow runs

# The debug kernel (KASAN, lockdep) is ~8x slower: shorter runs, lower
# rates.  Goodput is compared at a fixed offered rate (iperf3 -b) well under
# what the VM carries: unlimited TCP over veth under TCG varies from 550 to
# 990 Mbit/s between two identical runs, so no ratio of two such runs means
# anything; at 200 Mbit/s both runs reach 99.9 %.
if [ "${PACER_KERNEL:-cloud}" = debug ]; then
	IS_DEBUG=1
	IPERF_TIME=3
	IPERF_RATE=20M
else
	IS_DEBUG=0
	IPERF_TIME=5
	IPERF_RATE=200M
fi

# ---------------------------------------------------------------- output

log() {
	echo "$*"
}

# step TEXT: say what comes next; the exit trap repeats it on failure.
step() {
	STEP=$*
	echo "--- $* [at $(($(date +%s) - TEST_START))s]"
}

# skip REASON: this test cannot run here (exit 4).  After a failed check
# it is a failure (exit 1): the checks made so far stand, and a skip would
# turn their FAIL into "ok # SKIP".
skip() {
	if [ "$RET" != 0 ]; then
		echo "FAIL: checks failed before the test found it could not go on ($*); failed:"
		printf '%s\n' "$FAILED"
		exit "$KSFT_FAIL"
	fi
	echo "SKIP: $*"
	exit "$KSFT_SKIP"
}

# die REASON: a failure that makes the rest of the test meaningless.
die() {
	echo "FAIL: $*"
	RET=1
	exit "$KSFT_FAIL"
}

# ksft_exit: the script's verdict from every check made.
ksft_exit() {
	if [ "$RET" = 0 ]; then
		echo "PASS: every check passed"
	else
		echo "FAIL: at least one check failed (see FAIL lines above)"
	fi
	exit "$RET"
}

# ------------------------------------------------------------ assertions

_pass() {
	echo "ok:   $*"
}

_fail() {
	local msg="$*" nl='
'

	echo "FAIL: $msg"
	RET=1
	FAILED="$FAILED${FAILED:+$nl}  ${msg%%"$nl"*}"
}

# is_uint VALUE: a non-negative integer (what counters are).
is_uint() {
	case "$1" in
	'' | *[!0-9]*) return 1 ;;
	esac
	return 0
}

# check_eq NAME GOT WANT: exact equality (numbers or strings).
check_eq() {
	if [ "$2" = "$3" ]; then
		_pass "$1: $2"
	else
		_fail "$1: got \"$2\", want \"$3\""
	fi
}

# check_ne NAME GOT UNWANTED
check_ne() {
	if [ "$2" != "$3" ]; then
		_pass "$1: $2 (not $3)"
	else
		_fail "$1: got \"$2\", want anything else"
	fi
}

# check_ge NAME GOT MIN: GOT >= MIN, both integers.
check_ge() {
	if ! is_uint "$2" || ! is_uint "$3"; then
		_fail "$1: got \"$2\", want an integer >= \"$3\""
	elif [ "$2" -ge "$3" ]; then
		_pass "$1: $2 >= $3"
	else
		_fail "$1: got $2, want >= $3"
	fi
}

# check_le NAME GOT MAX: GOT <= MAX, both integers.
check_le() {
	if ! is_uint "$2" || ! is_uint "$3"; then
		_fail "$1: got \"$2\", want an integer <= \"$3\""
	elif [ "$2" -le "$3" ]; then
		_pass "$1: $2 <= $3"
	else
		_fail "$1: got $2, want <= $3"
	fi
}

# check_within NAME GOT WANT PCT: |GOT - WANT| <= PCT % of WANT.
check_within() {
	local name=$1 got=$2 want=$3 pct=$4 off

	if ! is_uint "$got" || ! is_uint "$want"; then
		_fail "$name: got \"$got\", want an integer within $pct % of \"$want\""
		return 0
	fi
	# The deviation is compared as computed, and printed rounded: compared
	# after rounding to 0.1, 1.049 % passed a 1 % tolerance.
	off=$(awk -v g="$got" -v w="$want" \
		'BEGIN { d = g - w; if (d < 0) d = -d; printf "%.2f", w ? 100 * d / w : (d ? 100 : 0) }')
	if awk -v g="$got" -v w="$want" -v p="$pct" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !((w ? 100 * d / w : (d ? 100 : 0)) <= p) }'; then
		_pass "$name: $got, want $want +/- $pct % (off by $off %)"
	else
		_fail "$name: got $got, want $want +/- $pct % (off by $off %)"
	fi
}

# check_pct_ge NAME GOT REF PCT: GOT is at least PCT % of REF.
check_pct_ge() {
	local name=$1 got=$2 ref=$3 pct=$4 share

	if ! is_uint "$got" || ! is_uint "$ref" || [ "$ref" = 0 ]; then
		_fail "$name: got \"$got\", want >= $pct % of \"$ref\""
		return 0
	fi
	share=$(awk -v g="$got" -v r="$ref" 'BEGIN { printf "%.1f", 100 * g / r }')
	if [ $((got * 100)) -ge $((ref * pct)) ]; then
		_pass "$name: $got is $share % of $ref (want >= $pct %)"
	else
		_fail "$name: $got is $share % of $ref, want >= $pct %"
	fi
}

# pct_ge GOT REF PCT: GOT is at least PCT % of REF (no output).
pct_ge() {
	is_uint "$1" && is_uint "$2" && [ $(($1 * 100)) -ge $(($2 * $3)) ]
}

# check_fail NAME RC TEXT CMD...: CMD exits with status RC and its stderr
# contains TEXT (a fixed string).
check_fail() {
	local name=$1 want_rc=$2 text=$3 rc=0

	shift 3
	"$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	if [ "$rc" != "$want_rc" ]; then
		_fail "$name: \"$*\" exited $rc, want $want_rc; stderr: $(cat "$TMPD/err")"
	elif ! grep -qF -- "$text" "$TMPD/err"; then
		_fail "$name: \"$*\" exited $rc but stderr lacks \"$text\": $(cat "$TMPD/err")"
	else
		_pass "$name: exit $rc, \"$(head -n 1 "$TMPD/err")\""
	fi
}

# check_ok NAME CMD...: CMD succeeds.
check_ok() {
	local name=$1 rc=0

	shift
	"$@" >"$TMPD/out" 2>"$TMPD/err" || rc=$?
	if [ "$rc" = 0 ]; then
		_pass "$name: \"$*\" exit 0"
	else
		_fail "$name: \"$*\" exited $rc: $(cat "$TMPD/err")"
	fi
}

# ---------------------------------------------------------- environment

# require CMD...: skip unless every command exists.
require() {
	local c

	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}

# pacer_loaded: the module is in the kernel.
pacer_loaded() {
	[ -d /sys/module/pacer ]
}

# lsmod_has MODULE: lsmod lists MODULE.
lsmod_has() {
	lsmod | awk -v m="$1" '$1 == m { f = 1 } END { exit !f }'
}

# module_param NAME VALUE: set pacer.ko's parameter NAME; the value it had
# before the test first set it comes back with module_param_restore NAME,
# and when the test ends.
module_param() {
	case " $PARAMS_SET " in
	*" $1 "*) ;;
	*)
		eval "PARAM_WAS_$1=\$(cat /sys/module/pacer/parameters/$1)" || return 1
		PARAMS_SET="$PARAMS_SET $1"
		;;
	esac
	echo "$2" >"/sys/module/pacer/parameters/$1"
}

module_param_restore() {
	eval "echo \"\$PARAM_WAS_$1\"" >"/sys/module/pacer/parameters/$1"
}

_params_restore() {
	local p

	for p in $PARAMS_SET; do
		module_param_restore "$p"
	done
}

# load_pacer: modprobe pacer, or skip when this kernel has no pacer.ko.
load_pacer() {
	modprobe pacer 2>"$TMPD/modprobe.err" ||
		skip "modprobe pacer failed: $(cat "$TMPD/modprobe.err")"
}

# now: seconds since the epoch.  now_ms: milliseconds.
now() {
	date +%s
}

now_ms() {
	date +%s%3N
}

# wait_for SECONDS CMD...: poll CMD every 0.1 s until it succeeds; fail
# (status 1) when SECONDS have passed.
wait_for() {
	local end=$(($(now) + $1))

	shift
	while ! "$@" >/dev/null 2>&1; do
		if [ "$(now)" -ge "$end" ]; then
			echo "wait_for: \"$*\" still false after the deadline"
			return 1
		fi
		sleep 0.1
	done
}

# wait_stable SECONDS INTERVAL CMD...: poll until CMD prints the same
# output twice INTERVAL seconds apart (traffic has stopped); fail when
# SECONDS have passed.
wait_stable() {
	local end=$(($(now) + $1)) interval=$2 prev cur

	shift 2
	prev=$("$@")
	while :; do
		sleep "$interval"
		cur=$("$@")
		[ "$cur" = "$prev" ] && return 0
		if [ "$(now)" -ge "$end" ]; then
			echo "wait_stable: \"$*\" still changing after the deadline"
			return 1
		fi
		prev=$cur
	done
}

# ------------------------------------------------------------- cleanup

# Processes (by PID) first, so none keeps a namespace busy, then the
# namespaces: that deletes every device in them.  A scenario may define
# cleanup_test() for its own leftovers; it runs first.
_lib_cleanup() {
	local rc=$? pid ns

	trap - EXIT INT TERM
	set +e
	if [ "$rc" = 143 ] || [ "$rc" = 130 ]; then
		echo "FAIL: killed by a signal (timeout?) during step: $STEP"
	elif [ "$rc" = "$KSFT_SKIP" ] && [ "$RET" != 0 ]; then
		# An exit 4 that did not come through skip: the same rule.
		echo "FAIL: exit status $KSFT_SKIP (skip) after failed checks, during step: $STEP; failed:"
		printf '%s\n' "$FAILED"
		rc=$KSFT_FAIL
	elif [ "$rc" != 0 ] && [ "$rc" != "$KSFT_SKIP" ] && [ "$RET" = 0 ]; then
		echo "FAIL: unexpected exit status $rc during step: $STEP"
		rc=$KSFT_FAIL
	fi
	command -v cleanup_test >/dev/null 2>&1 && cleanup_test
	_trace_restore
	_params_restore
	for pid in $PIDS; do
		kill "$pid" 2>/dev/null
	done
	for pid in $PIDS; do
		wait "$pid" 2>/dev/null
	done
	for ns in $NSES; do
		ip netns del "$ns" 2>/dev/null
	done
	rm -rf "$TMPD"
	exit "$rc"
}
trap _lib_cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# bg CMD...: run CMD in the background; it is stopped on exit.  Sets BGPID.
bg() {
	"$@" &
	BGPID=$!
	PIDS="$PIDS $BGPID"
}

# not_running PID: the process is gone or a zombie.
not_running() {
	[ ! -e "/proc/$1/stat" ] || awk '{ sub(/.*\) /, ""); exit $1 != "Z" }' "/proc/$1/stat"
}

# wait_exit PID SECONDS: wait (bounded) for a background process to end;
# sets EXIT_STATUS and EXIT_SECS (how long it took).  Fails if it is still
# running after SECONDS.
wait_exit() {
	local start

	start=$(now)
	wait_for "$2" not_running "$1" || return 1
	EXIT_STATUS=0
	wait "$1" || EXIT_STATUS=$?
	EXIT_SECS=$(($(now) - start))
}

# ---------------------------------------------------------- namespaces

# setup_ns VAR...: create one namespace per VAR, named uniquely after it
# (pacer-PID-var), and set VAR to the name.  lo is up; IPv6 is off so
# that no router or neighbour solicitation adds packets the counters
# would have to explain.
setup_ns() {
	local var name

	for var in "$@"; do
		name=pacer-$$-$(echo "$var" | tr 'A-Z' 'a-z')
		ip netns add "$name"
		NSES="$NSES $name"
		eval "$var=\$name"
		ip -n "$name" link set lo up
		ip netns exec "$name" sh -c '
			for f in /proc/sys/net/ipv6/conf/all/disable_ipv6 \
				 /proc/sys/net/ipv6/conf/default/disable_ipv6; do
				[ ! -w "$f" ] || echo 1 >"$f"
			done'
	done
}

# veth_pair NS1 DEV1 ADDR1 NS2 DEV2 ADDR2: a veth pair between two
# namespaces, addresses in a /24, both up, and permanent neighbour entries
# on both sides: no ARP packet ever crosses it, so the counters of a test
# see only its own traffic.
veth_pair() {
	local ns1=$1 dev1=$2 addr1=$3 ns2=$4 dev2=$5 addr2=$6 mac1 mac2

	ip link add "$dev1" netns "$ns1" type veth peer name "$dev2" netns "$ns2"
	ip -n "$ns1" addr add "$addr1/24" dev "$dev1"
	ip -n "$ns2" addr add "$addr2/24" dev "$dev2"
	ip -n "$ns1" link set "$dev1" up
	ip -n "$ns2" link set "$dev2" up
	mac1=$(ip -n "$ns1" -j link show dev "$dev1" | json_get 0.address)
	mac2=$(ip -n "$ns2" -j link show dev "$dev2" | json_get 0.address)
	ip -n "$ns1" neigh replace "$addr2" lladdr "$mac2" dev "$dev1" nud permanent
	ip -n "$ns2" neigh replace "$addr1" lladdr "$mac1" dev "$dev2" nud permanent
}

# pacer_add NS DEV [ARGS...]: create a pacer device and bring it up.
pacer_add() {
	local ns=$1 dev=$2

	shift 2
	ip -n "$ns" link add "$dev" "$@" type pacer
	ip -n "$ns" link set "$dev" up
}

# redirect_ingress NS DEV PACER: every packet arriving on DEV goes to PACER.
redirect_ingress() {
	tc -n "$1" qdisc add dev "$2" handle ffff: ingress
	tc -n "$1" filter add dev "$2" parent ffff: matchall \
		action mirred egress redirect dev "$3"
}

# redirect_egress NS DEV PACER: every packet leaving through DEV goes to PACER.
redirect_egress() {
	tc -n "$1" qdisc add dev "$2" clsact
	tc -n "$1" filter add dev "$2" egress matchall \
		action mirred egress redirect dev "$3"
}

# snmp_counter NS NAME: an SNMP/netstat counter of NS (nstat's name, e.g.
# TcpRetransSegs), absolute, without touching nstat's history.
snmp_counter() {
	ip netns exec "$1" nstat -asz "$2" | awk -v n="$2" '$1 == n { print $2 }'
}

# snmp_var VAR NS NAME: VAR = snmp_counter NS NAME; the test dies unless
# that is a number.  When nstat fails or lacks NAME, snmp_counter prints
# nothing, which $((...)) takes for 0: a delta of two such readings is 0
# and passes any check that wants none.
snmp_var() {
	local _v

	_v=$(snmp_counter "$2" "$3")
	is_uint "$_v" || die "nstat in $2 gives no $3 (got \"$_v\")"
	eval "$1=\$_v"
}

# ----------------------------------------------------------------- JSON
#
# jq takes ~0.4 s to start under TCG, awk ~0.01 s: counters are read with
# this awk flattener; jq is kept for iperf3's large reports.

# json_flat: every scalar of the JSON on stdin as "PATH<TAB>VALUE", PATH
# made of keys and array indexes joined by dots ("0.stats64.rx.packets").
# Strings are printed unquoted, escapes left as they are.
JSON_FLAT_AWK='
function emit(v,   p, k) {
	p = ""
	for (k = 1; k <= depth; k++)
		p = p (k > 1 ? "." : "") key[k]
	print p "\t" v
}
{ s = s $0 " " }
END {
	while (s != "") {
		c = substr(s, 1, 1)
		if (c == " " || c == "\t" || c == "\r") { s = substr(s, 2); continue }
		if (c == "{" || c == "[") {
			depth++; type[depth] = c; key[depth] = (c == "[") ? 0 : ""
			want[depth] = (c == "{"); s = substr(s, 2); continue
		}
		if (c == "}" || c == "]") { depth--; s = substr(s, 2); continue }
		if (c == ",") {
			if (type[depth] == "[") key[depth]++; else want[depth] = 1
			s = substr(s, 2); continue
		}
		if (c == ":") { want[depth] = 0; s = substr(s, 2); continue }
		if (c == "\"") {
			match(s, /^"([^"\\]|\\.)*"/)
			v = substr(s, 2, RLENGTH - 2); s = substr(s, RLENGTH + 1)
			if (type[depth] == "{" && want[depth]) key[depth] = v; else emit(v)
			continue
		}
		match(s, /^[^],} \t\r]+/)
		emit(substr(s, 1, RLENGTH)); s = substr(s, RLENGTH + 1)
	}
}'

json_flat() {
	awk "$JSON_FLAT_AWK"
}

# json_get PATH: the value at PATH of the JSON on stdin ("" if none).
json_get() {
	json_flat | awk -F '\t' -v p="$1" '$1 == p { print $2; exit }'
}

# json_each KEY: KEY of every element of the JSON array on stdin, one a line.
json_each() {
	json_flat | awk -F '\t' -v k="$1" '
		{ i = index($1, ".") }
		i && substr($1, 1, i - 1) ~ /^[0-9]+$/ && substr($1, i + 1) == k { print $2 }'
}

# words: the lines on stdin joined by single spaces, on one line.
words() {
	awk '{ printf "%s%s", n++ ? " " : "", $0 } END { print "" }'
}

# json_len: how many elements the JSON array on stdin has.
json_len() {
	json_flat | awk -F '\t' '
		{ i = index($1 ".", "."); n = substr($1, 1, i - 1) }
		n ~ /^[0-9]+$/ && !(n in seen) { seen[n] = 1; c++ }
		END { print c + 0 }'
}

# json_vars PREFIX PATH: "PREFIX_KEY='VALUE'" for every scalar under PATH
# of the JSON on stdin (dots of deeper keys become "_"), for eval.
json_vars() {
	json_flat | awk -F '\t' -v pre="$1" -v p="$2." '
		index($1, p) == 1 {
			k = substr($1, length(p) + 1)
			gsub(/[^A-Za-z0-9_]/, "_", k)
			print pre "_" k "=\047" $2 "\047"
		}'
}

# ------------------------------------------------------------- counters
#
# Snapshots set shell variables, one per counter: pacer_snap NS DEV P sets
# P_rx_packets, P_tx_packets, P_dropped_flush, ... and P (the JSON).

PACER_COUNTERS="rx_packets rx_bytes tx_packets tx_bytes delayed_packets
ecn_marked ecn_unparsed dropped_not_redirected dropped_queue_limit
dropped_congestion dropped_memory dropped_reinject dropped_flush backlog_packets
backlog_bytes"

# pacer_line NS DEV: pacerctl's JSON about DEV, counters included.
pacer_line() {
	ip netns exec "$1" pacerctl -j -s dev show dev "$2"
}

# pacer_snap NS DEV VAR: DEV's counters, from pacerctl.  The test dies
# unless every counter of PACER_COUNTERS is a number in this reply (not
# left over from an earlier snapshot into VAR): an empty one reads as 0
# in $((...)), and two empty sides of check_eq are equal (with no "stats"
# in the JSON, check_invariant compared "" with "" and passed).
pacer_snap() {
	local _js _k _v

	_js=$(pacer_line "$1" "$2")
	eval "$3=\${_js}"
	for _k in $PACER_COUNTERS; do
		eval "$3_$_k="
	done
	eval "$(printf '%s\n' "$_js" | json_vars "$3" 0.stats)"
	for _k in $PACER_COUNTERS; do
		eval "_v=\${$3_$_k:-}"
		is_uint "$_v" || die "pacerctl -j -s dev show dev $2 (in $1) gives no $_k: $_js"
	done
}

# link_snap NS DEV VAR: VAR_rx_packets, VAR_rx_bytes, VAR_rx_dropped,
# VAR_tx_... from "ip -s -j link".
link_snap() {
	local _js

	_js=$(ip -n "$1" -s -j link show dev "$2")
	eval "$3=\${_js}"
	eval "$(printf '%s\n' "$_js" | json_vars "$3" 0.stats64)"
}

# ethtool_snap NS DEV VAR: VAR_NAME for every counter of "ethtool -S",
# and VAR_names, their names in order.
ethtool_snap() {
	eval "$(ip netns exec "$1" ethtool -S "$2" | awk -v v="$3" '
		/^ +[a-z_]+: [0-9]+$/ {
			sub(":", "", $1)
			print v "_" $1 "=" $2
			names = names (names == "" ? "" : " ") $1
		}
		END { print v "_names=\047" names "\047" }')"
}

# link_stat NS DEV FIELD: one counter of "ip -s -j link" (rx_packets,
# tx_dropped, ...).
link_stat() {
	link_snap "$1" "$2" _ls
	eval "echo \$_ls_$3"
}

# pacer_stat NS DEV NAME: one counter, from pacerctl.
pacer_stat() {
	pacer_snap "$1" "$2" _ps
	eval "echo \$_ps_$3"
}

# val VAR NAME: the value of VAR_NAME.
val() {
	eval "echo \$$1_$2"
}

# pacer_drops VAR: every drop of a snapshot, packets.
pacer_drops() {
	echo $(($(val "$1" dropped_not_redirected) + $(val "$1" dropped_queue_limit) +
		$(val "$1" dropped_memory) + $(val "$1" dropped_reinject) +
		$(val "$1" dropped_flush) + $(val "$1" dropped_congestion)))
}

# pacer_accounted VAR: tx + dropped + backlog of a snapshot, packets.
pacer_accounted() {
	echo $(($(val "$1" tx_packets) + $(pacer_drops "$1") + $(val "$1" backlog_packets)))
}

# pacer_delta NEW OLD NAME: how much a counter grew between two snapshots.
pacer_delta() {
	echo $(($(val "$1" "$3") - $(val "$2" "$3")))
}

# pacer_napi_threads NS DEV MASK: DEV's NAPI contexts (a pacer device's:
# one per CPU's shaper; a veth's with GRO on: one per receive queue)
# become threads (threaded NAPI), pinned to the CPUs of MASK (as
# taskset's); NAPI_PIDS lists them.  The test dies if there are none.
pacer_napi_threads() {
	local p

	ip netns exec "$1" sh -c "echo 1 >/sys/class/net/$2/threaded"
	NAPI_PIDS=
	for p in /proc/[0-9]*; do
		case "$(cat "$p/comm" 2>/dev/null)" in
		"napi/$2-"*) NAPI_PIDS="$NAPI_PIDS ${p#/proc/}" ;;
		esac
	done
	[ -n "$NAPI_PIDS" ] || die "no NAPI thread for $2"
	for p in $NAPI_PIDS; do
		taskset -p "$3" "$p" >/dev/null
	done
}

# wait_pacer_idle NS DEV [SECONDS]: the counters stopped moving (traffic
# is over).
wait_pacer_idle() {
	wait_stable "${3:-10}" 0.3 pacer_line "$1" "$2"
}

# check_invariant NS DEV: once traffic has stopped, every packet handed to
# DEV is accounted for: rx = tx + dropped + backlog.
check_invariant() {
	pacer_snap "$1" "$2" _ci
	check_eq "$2: rx_packets = tx + dropped + backlog" \
		"$_ci_rx_packets" "$(pacer_accounted _ci)"
	# Drops count no bytes: the byte invariant holds without them.
	[ "$(pacer_drops _ci)" != 0 ] ||
		check_eq "$2: rx_bytes = tx + backlog (no drops)" \
			"$_ci_rx_bytes" $((_ci_tx_bytes + _ci_backlog_bytes))
}

# check_views NS DEV [went-down]: "ip -s link", "ethtool -S" and pacerctl
# report the same counters (call it once traffic has stopped).  went-down:
# DEV went down while packets were redirected to it.  From 6.12 the kernel
# counts, in DEV's tx.dropped, what tc mirred sent it between ndo_stop's
# start and the end of dev_close (its noop qdisc then, which drops and
# counts since 6.12): packets pacer0 never received, so ip's tx.dropped may
# exceed pacer's drops by them.  On older kernels the two stay equal.
check_views() {
	local ns=$1 dev=$2 went_down=${3:-} k core

	pacer_snap "$ns" "$dev" _cp
	ethtool_snap "$ns" "$dev" _ce
	link_snap "$ns" "$dev" _cl
	log "pacerctl: $_cp"
	log "ethtool:  $(for k in $_ce_names; do printf '%s=%s ' "$k" "$(val _ce "$k")"; done)"
	log "ip link:  $_cl"
	check_eq "$dev: ethtool -S names its counters as pacerctl does" \
		"$_ce_names" "$(echo "$PACER_COUNTERS" | words)"
	for k in $PACER_COUNTERS; do
		check_eq "$dev: $k, ethtool = pacerctl" "$(val _ce "$k")" "$(val _cp "$k")"
	done
	check_eq "$dev: ip rx.packets = pacerctl rx_packets" "$_cl_rx_packets" "$_cp_rx_packets"
	check_eq "$dev: ip rx.bytes = pacerctl rx_bytes" "$_cl_rx_bytes" "$_cp_rx_bytes"
	check_eq "$dev: ip tx.packets = pacerctl tx_packets" "$_cl_tx_packets" "$_cp_tx_packets"
	check_eq "$dev: ip tx.bytes = pacerctl tx_bytes" "$_cl_tx_bytes" "$_cp_tx_bytes"
	check_eq "$dev: ip rx.dropped = pacerctl dropped_not_redirected" \
		"$_cl_rx_dropped" "$_cp_dropped_not_redirected"
	core=$((_cl_tx_dropped - (_cp_dropped_queue_limit + _cp_dropped_memory + \
		_cp_dropped_reinject + _cp_dropped_flush + _cp_dropped_congestion)))
	if [ "$went_down" = went-down ] && kernel_since 6 12; then
		log "$dev: dropped by the kernel's noop qdisc while it went down: $core"
		check_ge "$dev: ip tx.dropped - pacerctl queue_limit + memory + reinject + flush + congestion (the noop qdisc's)" \
			"$core" 0
	else
		check_eq "$dev: ip tx.dropped - pacerctl queue_limit + memory + reinject + flush + congestion" \
			"$core" 0
	fi
}

# tracefs_dir: where tracefs is, mounted at /sys/kernel/tracing if
# nothing is there yet; "" if the kernel has no event tracing.
tracefs_dir() {
	local d=/sys/kernel/tracing

	[ -d "$d/events" ] || mount -t tracefs nodev "$d" 2>/dev/null ||
		d=/sys/kernel/debug/tracing
	if [ -d "$d/events" ]; then
		echo "$d"
	fi
}

# trace_release DIR FILTER: record pacer:pacer_release events that match
# FILTER (tracefs's filter syntax) in tracefs DIR, from an emptied buffer
# of 4 MiB a CPU, without task names: recording them turns the
# sched_switch tracepoint on, one more patch of the kernel's text
# (bench/bench.sh).  The event, its filter, the buffer's size and
# record-cmd are put back when the test ends.
trace_release() {
	local ev=$1/events/pacer/pacer_release

	[ -d "$ev" ] || die "pacer.ko has no tracepoint pacer:pacer_release ($ev)"
	if [ -z "$TRACE_RESTORE" ]; then
		TRACE_RESTORE="$1 $(cat "$1/buffer_size_kb" | cut -d' ' -f1)"
		[ ! -f "$1/options/record-cmd" ] ||
			TRACE_RESTORE="$TRACE_RESTORE $(cat "$1/options/record-cmd")"
	fi
	echo 0 >"$1/tracing_on"
	[ ! -f "$1/options/record-cmd" ] || echo 0 >"$1/options/record-cmd"
	echo 4096 >"$1/buffer_size_kb"
	echo >"$1/trace"
	echo "$2" >"$ev/filter"
	echo 1 >"$ev/enable"
	echo 1 >"$1/tracing_on"
}

# _trace_restore: tracefs as trace_release found it.
_trace_restore() {
	set -- $TRACE_RESTORE
	[ $# -ge 2 ] || return 0
	echo 0 >"$1/events/pacer/pacer_release/enable"
	echo 0 >"$1/events/pacer/pacer_release/filter"
	echo >"$1/trace"
	echo "$2" >"$1/buffer_size_kb"
	[ -z "${3:-}" ] || echo "$3" >"$1/options/record-cmd"
}

# trace_overruns DIR: records the trace buffer of tracefs DIR lost, all
# CPUs together.
trace_overruns() {
	awk '/^overrun:/ { s += $2 } END { print s + 0 }' "$1"/per_cpu/cpu*/stats
}

# kernel_since MAJ MIN: the running kernel is MAJ.MIN or later.
kernel_since() {
	local v maj min

	v=$(uname -r)
	maj=${v%%.*}
	min=${v#*.}
	min=${min%%[!0-9]*}
	[ "$maj" -gt "$1" ] || { [ "$maj" -eq "$1" ] && [ "$min" -ge "$2" ]; }
}

# ---------------------------------------------------------------- iperf3

# iperf3's port; a scenario that needs several servers changes it before
# starting each (and before each client).
IPERF_PORT=5201

# iperf_server NS ADDR: an iperf3 server on ADDR:$IPERF_PORT, stopped on
# exit; returns once it listens.  Its output goes to $TMPD/iperf-server.*.
iperf_server() {
	bg ip netns exec "$1" iperf3 -s -B "$2" -p "$IPERF_PORT" \
		>"$TMPD/iperf-server.$1.$IPERF_PORT" 2>&1
	wait_for 10 iperf_listening "$1" ||
		die "the iperf3 server in $1 does not listen"
}

iperf_listening() {
	ip netns exec "$1" ss -Hltn "sport = :$IPERF_PORT" | grep -q "$IPERF_PORT"
}

# iperf_client NS ADDR SECONDS OUT [ARGS...]: an iperf3 client run, JSON
# in OUT; killed after SECONDS + 20.  Returns iperf3's (or timeout's)
# status.
iperf_client() {
	local ns=$1 addr=$2 secs=$3 out=$4

	shift 4
	timeout -k 5 $((secs + 20)) ip netns exec "$ns" \
		iperf3 -c "$addr" -p "$IPERF_PORT" -t "$secs" -J "$@" >"$out"
}

# iperf_tcp NS ADDR SECONDS OUT: a TCP run that must succeed.  Sets
# IPERF_BPS (goodput: bits/s the receiver got) and IPERF_RETRANS, and
# logs a summary.
iperf_tcp() {
	local rc=0 res

	iperf_client "$@" || rc=$?
	res=$(jq -r 'if .error then "error: " + .error else
		"\(.end.sum_received.bits_per_second | floor) \(.end.sum_sent.retransmits // 0) \(.end.sum_received.bytes)"
		end' "$4" 2>/dev/null) || res="error: no JSON report"
	case "$rc $res" in
	"0 error"* | "0 " | [!0]*)
		die "iperf3 exited $rc: $res"
		;;
	esac
	set -- $res
	IPERF_BPS=$1
	IPERF_RETRANS=$2
	log "iperf3: $(($1 / 1000000)) Mbit/s received, $3 bytes, $2 retransmits"
}

# ------------------------------------------------------------- premises
#
# A test that judges shaping or goodput assumes the class (or the rate it
# offers), not the guest's CPU, is the bottleneck.  Under TCG what the
# guest carries depends on the kernel (the debug one is ~8x slower) and on
# whatever else the host runs, so such a test measures its own path first,
# in the same VM run, through the same devices, and sizes its rates from
# that: at most a quarter of what the path carries unshaped.  Its
# assertions stay as they are; only their premise is made true.

# path_capacity NS ADDR [tcp|udp]: CAPACITY_BPS = what one unpaced flow
# from NS gets to ADDR now (an iperf3 server listens there), as the
# receiver counts it, the first second (slow start) left out.
path_capacity() {
	local proto=${3:-tcp}

	if [ "$proto" = udp ]; then
		iperf_tcp "$1" "$2" 3 "$TMPD/capacity.json" -O 1 -u -b 0
	else
		iperf_tcp "$1" "$2" 3 "$TMPD/capacity.json" -O 1
	fi
	CAPACITY_BPS=$IPERF_BPS
	log "premise: the path carries $((CAPACITY_BPS / 1000000)) Mbit/s of $proto unshaped"
}

# fit_mbit VAR WANT [SHARE]: VAR = WANT (Mbit/s), or CAPACITY_BPS / SHARE
# (default 4) in whole Mbit/s when that is less.  The test dies, failed,
# when not even 1 Mbit/s fits: then it could not tell pacer from the
# machine.
fit_mbit() {
	local room=$((CAPACITY_BPS / ${3:-4} / 1000000))

	[ "$room" -ge 1 ] ||
		die "premise: the path carries $CAPACITY_BPS bit/s, too little to test at >= 1 Mbit/s"
	if [ "$2" -le "$room" ]; then
		eval "$1=\$2"
	else
		log "premise: $2 Mbit/s is more than 1/${3:-4} of the path; $room Mbit/s instead"
		eval "$1=\$room"
	fi
}
