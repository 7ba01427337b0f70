#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Configuration churn under traffic.  A TCP and a UDP flow run through
# pacer0 while two mutator loops add, change and delete classes and rules
# as fast as pacerctl goes, and a reader loop dumps what they do:
#
# - mutator 0 owns class 0, the odd class ids 1-15 and rule prefs 1 and
#   11-50; mutator 1 the even ids 2-16 and prefs 2 and 111-150.  Class 1
#   carries the TCP flow (rule 1: src 10.0.21.1/32 proto tcp), class 2
#   the UDP flow (rule 2: ... proto udp); while a live rule is missing,
#   its flow goes to whatever random rule catches it, or to class 0.
#   Each loop draws an operation from a seeded generator: class add with
#   a random rate 1mbit-1gbit,
#   burst, ceil, limit (time or size), target, name; class change, of its
#   live class in half the cases (rate, "rate unlimited", ceil, "ceil
#   none", ...); class del, mostly of a class no rule uses; rule add with
#   random prefixes (v4, v6), protocol, ports, mark/mask, prio into one of
#   its classes or class 0 - these often catch the live flows; rule del;
#   its live rule deleted or added back; its live class slowed down (so
#   that its flow queues), then deleted right after the rules that use
#   it, with packets still queued, or added back; stats reset of a class
#   or of all.
# - Each loop is the only writer of what it owns, so it knows the outcome
#   of every command before running it: success, or exactly which refusal
#   the kernel must give ("a class with this id exists", "no class with
#   this id on the device", "a rule with this pref exists", "no rule with
#   this pref on the device", "a rule sends packets to this class: delete
#   the rule first", "ceil must be 0 (none) or from rate ...", and the two
#   about class 0).  Any other outcome is unexpected: there must be none.
# - The reader loop runs "class show" (-j -s), "rule show", "dev show" and
#   "class show id 1" every second or so; each must succeed (class 1 may
#   be missing, and a dump that a class or rule added or deleted between
#   two of its parts interrupted must say so: pacerctl exits 1, "the list
#   changed while it was read") and every class of
#   every dump must already satisfy
#   rx = tx + dropped + backlog, packets and bytes (read under the class
#   lock; stats reset keeps it true).
# - The churn lasts until the mutators have done MIN_OPS commands (200;
#   debug kernel 60) and at least 15 s (debug 20 s): a loop's command
#   took from 0.07 s to 0.8 s, depending on what else the host ran, so a
#   fixed time could not promise a count.  It fails if that takes more
#   than 150 s (debug 600 s).
# - The traffic survives: the flows are iperf3 runs of 8 s, back to back
#   until the churn stops (so that each lasts through tens of commands
#   whatever the churn's length); every run ends successfully having
#   carried bytes; after the churn, pings through pacer0 are all answered.
# - Once traffic stops: the device invariant (check_invariant), the class
#   invariants of every class left (check_class_invariant), nothing queued
#   anywhere, and the configuration is exactly what the loops believe they
#   left: class ids and each class's rate, ceil, limit, target and name
#   (a refused change must have left nothing half-applied), rule prefs and
#   the class of each rule.
# PACER_SEED=N replays the same sequence of commands.
#
#   +------- NS_A ---------+          +---------------- NS_B -----------------+
#   | iperf3 -c (TCP, -b)  |          | vethB 10.0.21.2   iperf3 -s :5201,5203|
#   | iperf3 -c -u         |          |                   iperf3 -s :5202,5204|
#   | vethA 10.0.21.1 -----+----------+-> ingress: matchall mirred --> pacer0 |
#   +----------------------+          |   mutator 0, mutator 1, reader:       |
#                                     |   pacerctl ... dev pacer0, looping    |
#                                     +---------------------------------------+
#
# run_tests: timeout=300
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
MUTATORS=2
POOL=8			# class ids per mutator
SRC=10.0.21.1
DST=10.0.21.2
# The live classes' rate before the churn; the mutators start from it.
LIVE_RATE=20000000

# ------------------------------------------------------------ generator

# rnd N: R = a pseudo-random integer in [0, N), N <= 32768 (the LCG of
# ANSI C's rand(), its 15 high bits).
rnd() {
	SEED=$(((SEED * 1103515245 + 12345) % 2147483648))
	R=$(((SEED / 65536) % $1))
}

# rnd_rate: RK = a rate in kbit/s, 1mbit to 1gbit, spread over the decades.
rnd_rate() {
	rnd 20
	if [ "$R" = 0 ]; then
		RK=1000000
		return
	fi
	rnd 3
	case $R in
	0) m=1 ;;
	1) m=10 ;;
	*) m=100 ;;
	esac
	rnd 9000
	RK=$(((1000 + R) * m))
}

# ------------------------------------------------------------ the model
#
# For each class id it owns a mutator keeps ex_ID (1: exists), rate_ID and
# ceil_ID (bit/s), lim_ID ("us:N", "bytes:N" or "auto"), tgt_ID (us),
# name_ID and nr_ID (how many of its rules send packets to it); for each
# rule pref rule_PREF (its class) and the list RULES.

# v NAME: V = the value of variable NAME ("" if unset).
v() {
	eval "V=\${$1:-}"
}

# class_state ID: the class as "class ID RATE CEIL LIMIT TARGET NAME", the
# form the test turns pacerctl's JSON into at the end.
class_state() {
	v "rate_$1"; set -- "$1" "$V"
	v "ceil_$1"; set -- "$@" "$V"
	v "lim_$1"; set -- "$@" "$V"
	v "tgt_$1"; set -- "$@" "$V"
	v "name_$1"; set -- "$@" "${V:--}"
	echo "class $*"
}

# class_new ID: the model of a class just created with defaults.
class_new() {
	eval "ex_$1=1 rate_$1=0 ceil_$1=0 lim_$1=auto tgt_$1=5000 name_$1= nr_$1=\${nr_$1:-0}"
}

# owned_ids: the class ids this mutator owns, class 0 included for mutator 0.
owned_ids() {
	local j=0

	[ "$ME" != 0 ] || echo 0
	while [ "$j" -lt "$POOL" ]; do
		echo $((ME + 1 + MUTATORS * j))
		j=$((j + 1))
	done
}

# rnd_id: R = one of the mutator's class ids (never 0).
rnd_id() {
	rnd "$POOL"
	R=$((ME + 1 + MUTATORS * R))
}

# rnd_rule_class: RC = a class for a new rule: one of the mutator's, or 0.
rnd_rule_class() {
	rnd $((POOL + 1))
	if [ "$R" = "$POOL" ]; then
		RC=0
	else
		RC=$((ME + 1 + MUTATORS * R))
	fi
}

# pick WORDS...: P = one of WORDS at random ("" if none).
pick() {
	P=
	[ $# -gt 0 ] || return 0
	rnd $#
	shift "$R"
	P=$1
}

# ----------------------------------------------------------- one command

# run_op WANT ARGS...: pacerctl ARGS; WANT is "" (it must succeed) or the
# key of the refusal it must give.  Counts the outcome; logs every
# unexpected one.  Returns 0 if the command succeeded.
run_op() {
	local want=$1 rc=0 msg err=

	shift
	OPS=$((OPS + 1))
	pacerctl "$@" >/dev/null 2>"$ERRF" || rc=$?
	[ "$rc" = 0 ] || IFS= read -r err <"$ERRF" || true
	case "$want" in
	'') msg= ;;
	exists) msg="a class with this id exists" ;;
	noclass) msg="no class with this id on the device" ;;
	ceil) msg="ceil must be 0 (none) or from rate to 10tbit, and needs a rate" ;;
	pref) msg="a rule with this pref exists" ;;
	norule) msg="no rule with this pref on the device" ;;
	busy) msg="a rule sends packets to this class: delete the rule first" ;;
	add0) msg="class 0 is the default class and always exists: change it instead" ;;
	del0) msg="class 0 is the default class and cannot be deleted" ;;
	esac
	if [ -z "$want" ] && [ "$rc" = 0 ]; then
		DONE=$((DONE + 1))
	elif [ -n "$want" ] && [ "$rc" = 1 ] && case "$err" in *"$msg"*) true ;; *) false ;; esac; then
		REFUSED=$((REFUSED + 1))
		eval "E_$want=\$((\${E_$want:-0} + 1))"
	else
		UNEXPECTED=$((UNEXPECTED + 1))
		echo "unexpected: pacerctl $*: exit $rc, \"$err\"; want ${msg:-success}" >>"$OUTF.log"
	fi
	return "$rc"
}

# ------------------------------------------------------------ operations

# op_class_add: a class with random parameters; the live class more often
# while it is missing; now and then class 0, which always exists.
op_class_add() {
	local id=${1:-} want='' args

	if [ -z "$id" ]; then
		rnd_id
		id=$R
		v "ex_$LIVE"
		if [ -z "$V" ]; then
			rnd 4
			[ "$R" != 0 ] || id=$LIVE
		fi
		if [ "$ME" = 0 ]; then
			rnd 40
			[ "$R" != 0 ] || id=0
		fi
	fi
	v "ex_$id"
	if [ "$id" = 0 ]; then
		want=add0
	elif [ -n "$V" ]; then
		want=exists
	fi
	rnd_rate
	n_rate=$((RK * 1000)) n_ceil=0 n_lim=auto n_tgt=5000 n_name=
	args="rate ${RK}kbit"
	rnd 2
	if [ "$R" = 0 ]; then
		rnd 256
		args="$args burst $((R + 2))k"
	fi
	rnd 3
	if [ "$R" = 0 ]; then
		rnd "$((RK < 32768 ? RK : 32768))"
		n_ceil=$(((RK + R * (RK / 32768 + 1)) * 1000))
		args="$args ceil $((n_ceil / 1000))kbit"
	fi
	rnd 3
	case $R in
	0)	rnd 200
		n_lim=us:$(((R + 1) * 1000))
		args="$args limit $((R + 1))ms" ;;
	1)	rnd 241
		n_lim=bytes:$(((R + 16) * 1024))
		args="$args limit $((R + 16))k" ;;
	esac
	rnd 3
	if [ "$R" = 0 ]; then
		rnd 20000
		n_tgt=$((R + 100))
		args="$args target ${n_tgt}us"
	fi
	rnd 4
	if [ "$R" = 0 ]; then
		n_name=m${ME}o$OPS
		args="$args name $n_name"
	fi
	if run_op "$want" class add dev "$DEV" id "$id" $args; then
		class_new "$id"
		eval "rate_$id=\$n_rate ceil_$id=\$n_ceil lim_$id=\$n_lim tgt_$id=\$n_tgt name_$id=\$n_name"
	fi
}

# op_class_change [ID]: change some of a class's parameters; the kernel
# must refuse a ceil below the rate (or a ceil without a rate) whole.
op_class_change() {
	local id=$1 want='' args='' eff_rate eff_ceil

	if [ -z "$id" ]; then
		rnd_id
		id=$R
		if [ "$ME" = 0 ]; then
			rnd 8
			[ "$R" != 0 ] || id=0
		fi
	fi
	v "rate_$id"; eff_rate=${V:-0}
	v "ceil_$id"; eff_ceil=${V:-0}
	n_lim='' n_tgt='' n_name='' n_ceil=''
	rnd 10
	if [ "$R" -lt 6 ]; then
		rnd 15
		if [ "$R" = 0 ]; then
			eff_rate=0
			args="rate unlimited"
		else
			rnd_rate
			eff_rate=$((RK * 1000))
			args="rate ${RK}kbit"
		fi
	fi
	rnd 4
	if [ "$R" = 0 ]; then
		rnd 3
		if [ "$R" = 0 ] || [ "$eff_rate" = 0 ]; then
			n_ceil=0
			args="$args ceil none"
		elif [ -n "$args" ]; then
			# ceil and rate in one command: pacerctl itself wants
			# ceil >= rate, so give one.
			rnd 32768
			n_ceil=$(((eff_rate / 1000 + R) * 1000))
			args="$args ceil $((n_ceil / 1000))kbit"
		else
			rnd_rate
			n_ceil=$((RK * 1000))
			args="$args ceil ${RK}kbit"
		fi
		eff_ceil=$n_ceil
	fi
	rnd 5
	if [ "$R" = 0 ]; then
		rnd 256
		args="$args burst $((R + 2))k"
	fi
	rnd 4
	if [ "$R" = 0 ]; then
		rnd 2
		if [ "$R" = 0 ]; then
			rnd 200
			n_lim=us:$(((R + 1) * 1000))
			args="$args limit $((R + 1))ms"
		else
			rnd 241
			n_lim=bytes:$(((R + 16) * 1024))
			args="$args limit $((R + 16))k"
		fi
	fi
	rnd 6
	if [ "$R" = 0 ]; then
		rnd 20000
		n_tgt=$((R + 100))
		args="$args target ${n_tgt}us"
	fi
	rnd 10
	if [ "$R" = 0 ]; then
		n_name=m${ME}o$OPS
		args="$args name $n_name"
	fi
	if [ -z "$args" ]; then
		rnd_rate
		eff_rate=$((RK * 1000))
		args="rate ${RK}kbit"
	fi
	v "ex_$id"
	if [ -z "$V" ]; then
		want=noclass
	elif [ "$eff_ceil" != 0 ] && { [ "$eff_rate" = 0 ] || [ "$eff_ceil" -lt "$eff_rate" ]; }; then
		want=ceil
	fi
	if run_op "$want" class change dev "$DEV" id "$id" $args; then
		eval "rate_$id=\$eff_rate ceil_$id=\$eff_ceil"
		[ -z "$n_lim" ] || eval "lim_$id=\$n_lim"
		[ -z "$n_tgt" ] || eval "tgt_$id=\$n_tgt"
		[ -z "$n_name" ] || eval "name_$id=\$n_name"
	fi
}

# op_class_del: mostly a class no rule uses; else any id (the kernel
# refuses a class a rule uses, or one that is not there); now and then
# class 0.
op_class_del() {
	local id want='' free='' i

	for i in $OWNED; do
		[ "$i" != 0 ] || continue
		v "ex_$i"
		[ -n "$V" ] || continue
		v "nr_$i"
		[ "$V" != 0 ] || free="$free $i"
	done
	rnd 5
	if [ "$R" != 0 ] && [ -n "$free" ]; then
		pick $free
		id=$P
	else
		rnd_id
		id=$R
		if [ "$ME" = 0 ]; then
			rnd 10
			[ "$R" != 0 ] || id=0
		fi
	fi
	v "ex_$id"
	if [ "$id" = 0 ]; then
		want=del0
	elif [ -z "$V" ]; then
		want=noclass
	else
		v "nr_$id"
		[ "$V" = 0 ] || want=busy
	fi
	if run_op "$want" class del dev "$DEV" id "$id"; then
		eval "ex_$id="
	fi
}

# rule_added PREF CLASS / rule_deleted PREF: keep the model's rules.
rule_added() {
	eval "rule_$1=$2 nr_$2=\$((\${nr_$2:-0} + 1))"
	RULES="$RULES $1"
}

rule_deleted() {
	local c l

	v "rule_$1"
	c=$V
	eval "rule_$1= nr_$c=\$((nr_$c - 1))"
	l=" $RULES "
	RULES="${l%% "$1" *} ${l#* "$1" }"
}

# op_rule_add: a rule with random matches into a random class of the
# mutator's (or class 0).  The matches often catch the live flows.
op_rule_add() {
	local pref want='' args='' fam

	rnd 40
	pref=$((ME * 100 + 11 + R))
	rnd_rule_class
	rnd 5
	if [ "$R" = 0 ]; then
		fam=6
	else
		fam=4
	fi
	rnd 2
	if [ "$R" = 0 ]; then
		if [ "$fam" = 4 ]; then
			pick $SRC/32 10.0.21.0/24 10.0.0.0/8 192.0.2.0/24 0.0.0.0/0 198.51.100.7
		else
			pick 2001:db8::/32 2001:db8:21::1/128 ::/0
		fi
		args="src $P"
	fi
	rnd 3
	if [ "$R" = 0 ]; then
		if [ "$fam" = 4 ]; then
			pick $DST/32 10.0.21.0/30 10.0.0.0/8 203.0.113.0/24
		else
			pick 2001:db8:21::/64 fe80::/10
		fi
		args="$args dst $P"
	fi
	rnd 5
	if [ "$R" -lt 2 ]; then
		pick tcp udp icmp 6 17
		args="$args proto $P"
	fi
	rnd 6
	if [ "$R" = 0 ]; then
		pick 5201 5202 5201-5202 1-1023 40000-60999
		args="$args dport $P"
	fi
	rnd 8
	if [ "$R" = 0 ]; then
		pick 1024-65535 5201 32768-60999 7
		args="$args sport $P"
	fi
	rnd 7
	if [ "$R" = 0 ]; then
		pick 0/0 0x10/0xf0 0/0xff 0x1234 7/7
		args="$args mark $P"
	fi
	rnd 10
	if [ "$R" = 0 ]; then
		pick 1:10 0 65552 ffff:ffff
		args="$args prio $P"
	fi
	v "ex_$RC"
	if [ -z "$V" ]; then
		want=noclass
	else
		v "rule_$pref"
		[ -z "$V" ] || want=pref
	fi
	if run_op "$want" rule add dev "$DEV" pref "$pref" $args class "$RC"; then
		rule_added "$pref" "$RC"
	fi
}

# op_rule_del: mostly a rule that is there; else any of the mutator's prefs.
op_rule_del() {
	local pref want=

	rnd 4
	pick $RULES
	if [ "$R" != 0 ] && [ -n "$P" ]; then
		pref=$P
	else
		rnd 41
		pref=$((ME * 100 + 11 + R))
	fi
	[ "$pref" != "$LIVE_PREF" ] || return 0
	v "rule_$pref"
	[ -n "$V" ] || want=norule
	if run_op "$want" rule del dev "$DEV" pref "$pref"; then
		rule_deleted "$pref"
	fi
}

# op_live_rule: delete the rule that steers the live flow, or add it back
# (refused while its class is missing).
op_live_rule() {
	local want=

	v "rule_$LIVE_PREF"
	if [ -n "$V" ]; then
		run_op "" rule del dev "$DEV" pref "$LIVE_PREF" &&
			rule_deleted "$LIVE_PREF"
		return 0
	fi
	v "ex_$LIVE"
	[ -n "$V" ] || want=noclass
	if run_op "$want" rule add dev "$DEV" pref "$LIVE_PREF" $LIVE_MATCH class "$LIVE"; then
		rule_added "$LIVE_PREF" "$LIVE"
	fi
}

# op_live_cycle: the live class slowed to 1mbit with a 2k bucket and a
# 256k limit, so that its flow queues at once, then deleted with what it
# still holds (its rule deleted just before, and the random rules that
# use it), or, when it is missing, added back with its rule.
op_live_cycle() {
	local want='' i

	v "ex_$LIVE"
	if [ -z "$V" ]; then
		op_class_add "$LIVE"
		v "ex_$LIVE"
		[ -z "$V" ] || op_live_rule
		return 0
	fi
	# Slow it down and let it queue, so that it has packets to flush.
	v "ceil_$LIVE"
	[ "$V" = 0 ] || [ "$V" -ge 1000000 ] || want=ceil
	if run_op "$want" class change dev "$DEV" id "$LIVE" rate 1000kbit burst 2k limit 256k; then
		eval "rate_$LIVE=1000000 lim_$LIVE=bytes:262144"
	fi
	# Its rules go, the random ones that use it too.
	for i in $RULES; do
		v "rule_$i"
		[ "$V" != "$LIVE" ] || [ "$i" = "$LIVE_PREF" ] ||
			{ run_op "" rule del dev "$DEV" pref "$i" && rule_deleted "$i"; }
	done
	v "rule_$LIVE_PREF"
	[ -z "$V" ] || op_live_rule
	want=
	v "nr_$LIVE"
	[ "$V" = 0 ] || want=busy
	if run_op "$want" class del dev "$DEV" id "$LIVE"; then
		eval "ex_$LIVE="
		LIVE_DELS=$((LIVE_DELS + 1))
	fi
}

# op_stats_reset: every class's counters, or one class's.
op_stats_reset() {
	local want=

	rnd 2
	if [ "$R" = 0 ]; then
		run_op "" stats reset dev "$DEV"
		return 0
	fi
	rnd_id
	v "ex_$R"
	[ -n "$V" ] || want=noclass
	run_op "$want" stats reset dev "$DEV" id "$R"
}

# ------------------------------------------------------------ the loops

# mutator ME DEV SEED STOPFILE OUTF: the churn loop of mutator ME on DEV
# (run in NS_B) until STOPFILE exists.  The mutator's live class and rule
# exist when it starts, as the test sets them up.  Keeps the count of its
# commands in OUTF.ops; writes its counters and the configuration it
# believes it left to OUTF.
mutator() {
	local stop=$4 i

	set +e
	ME=$1 DEV=$2 SEED=$3 OUTF=$5
	ERRF=$OUTF.err
	OPS=0 DONE=0 REFUSED=0 UNEXPECTED=0 RULES='' LIVE_DELS=0
	: >"$OUTF.log"
	OWNED=$(owned_ids)
	LIVE=$((ME + 1))
	LIVE_PREF=$((ME + 1))
	if [ "$ME" = 0 ]; then
		LIVE_MATCH="src $SRC/32 proto tcp"
	else
		LIVE_MATCH="src $SRC/32 proto udp"
	fi
	# Class 0 always exists; mutator 0 owns it (changes it).
	ex_0=1
	[ "$ME" != 0 ] || class_new 0
	class_new "$LIVE"
	eval "rate_$LIVE=\$LIVE_RATE"
	rule_added "$LIVE_PREF" "$LIVE"
	start=$(now_ms)
	while [ ! -e "$stop" ]; do
		echo "$OPS" >"$OUTF.ops"
		rnd 100
		if [ "$R" -lt 18 ]; then
			op_class_add
		elif [ "$R" -lt 30 ]; then
			op_class_change
		elif [ "$R" -lt 42 ]; then
			op_class_change "$LIVE"
		elif [ "$R" -lt 54 ]; then
			op_class_del
		elif [ "$R" -lt 70 ]; then
			op_rule_add
		elif [ "$R" -lt 82 ]; then
			op_rule_del
		elif [ "$R" -lt 90 ]; then
			op_live_rule
		elif [ "$R" -lt 95 ]; then
			op_live_cycle
		else
			op_stats_reset
		fi
	done
	{
		echo "ops $OPS"
		echo "ms $(($(now_ms) - start))"
		echo "done $DONE"
		echo "refused $REFUSED"
		echo "unexpected $UNEXPECTED"
		echo "live_dels $LIVE_DELS"
		for i in exists noclass ceil pref norule busy add0 del0; do
			v "E_$i"
			echo "refusal_$i ${V:-0}"
		done
		for i in $OWNED; do
			v "ex_$i"
			[ -z "$V" ] || class_state "$i"
		done
		for i in $RULES; do
			v "rule_$i"
			echo "rule $i $V"
		done
	} >"$OUTF.tmp"
	mv "$OUTF.tmp" "$OUTF"
}

# READER_AWK: for a "pacerctl -j -s class show" dump, one line per class
# whose counters break rx = tx + dropped + backlog, and a last line
# "checked N".  Fields are found by name in each class's part of the text
# (json_flat is quadratic in the input's length: too slow for a loop).
READER_AWK='
function num(c, k) {
	if (!match(c, "\"" k "\":[0-9]+"))
		return -1
	return substr(c, RSTART + length(k) + 3, RLENGTH - length(k) - 3) + 0
}
{ s = s $0 }
END {
	n = split(s, part, /"id":/)
	for (i = 2; i <= n; i++) {
		c = part[i]
		rx = num(c, "rx_packets"); tx = num(c, "tx_packets")
		dr = num(c, "dropped_packets"); bl = num(c, "backlog_packets")
		rxb = num(c, "rx_bytes"); txb = num(c, "tx_bytes")
		drb = num(c, "dropped_bytes"); blb = num(c, "backlog_bytes")
		checked++
		if (rx < 0 || rx != tx + dr + bl || rxb != txb + drb + blb)
			printf "class %d: rx %d/%dB tx %d/%dB dropped %d/%dB backlog %d/%dB\n",
				c + 0, rx, rxb, tx, txb, dr, drb, bl, blb
	}
	print "checked " checked + 0
}'

# reader DEV STOPFILE OUTF: dumps back to back until STOPFILE exists.
reader() {
	local dev=$1 stop=$2 outf=$3 rc err reads=0 bad=0 unexpected=0
	local samples=0 classes=0 broken=0 missing=0 interrupted=0

	set +e
	: >"$outf.log"
	while [ ! -e "$stop" ]; do
		for what in classes rules devs one; do
			rc=0
			case $what in
			classes) pacerctl -j -s class show dev "$dev" >"$outf.json" 2>"$outf.err" || rc=$? ;;
			rules) pacerctl -j rule show dev "$dev" >/dev/null 2>"$outf.err" || rc=$? ;;
			devs) pacerctl -s dev show >/dev/null 2>"$outf.err" || rc=$? ;;
			one) pacerctl -s class show dev "$dev" id 1 >/dev/null 2>"$outf.err" || rc=$? ;;
			esac
			reads=$((reads + 1))
			err=
			[ "$rc" = 0 ] || IFS= read -r err <"$outf.err" || true
			if [ "$rc" != 0 ]; then
				case "$what $rc $err" in
				"one 1 "*"no class with this id on the device"*)
					missing=$((missing + 1)) ;;
				# A class or rule added or deleted between two parts
				# of a dump: pacerctl says so and fails.
				*" 1 "*"the list changed while it was read; run the command again"*)
					interrupted=$((interrupted + 1)) ;;
				*)	unexpected=$((unexpected + 1))
					echo "unexpected: $what: exit $rc, \"$err\"" >>"$outf.log" ;;
				esac
			elif [ "$what" = classes ]; then
				awk "$READER_AWK" "$outf.json" >"$outf.chk"
				samples=$((samples + 1))
				while IFS= read -r line; do
					case "$line" in
					"checked "*) classes=$((classes + ${line#checked })) ;;
					*) broken=$((broken + 1)); echo "sample $samples: $line" >>"$outf.log" ;;
					esac
				done <"$outf.chk"
			fi
		done
		# Leave most of the CPU to the mutators.
		sleep 1
	done
	printf 'reads %s\nunexpected %s\nmissing %s\ninterrupted %s\nsamples %s\nclasses %s\nbroken %s\n' \
		"$reads" "$unexpected" "$missing" "$interrupted" "$samples" "$classes" "$broken" >"$outf.tmp"
	mv "$outf.tmp" "$outf"
}

case "${1:-}" in
--mutator)
	shift
	mutator "$@"
	exit 0
	;;
--reader)
	shift
	reader "$@"
	exit 0
	;;
esac

# ----------------------------------------------------------------- test

require iperf3 jq pacerctl tc ss ping

# Modest rates, paced coarsely: under TCG an iperf3 client paced every
# millisecond costs a quarter of a vCPU even at 4 Mbit/s, which the loops
# need.
if [ "$IS_DEBUG" = 1 ]; then
	TCP_RATE=1M
	UDP_RATE=500k
	MIN_OPS=60
	CHURN_MIN=20
	CHURN_MAX=600
else
	TCP_RATE=4M
	UDP_RATE=2M
	MIN_OPS=200
	CHURN_MIN=15
	CHURN_MAX=150
fi
FLOW_SECS=8		# each iperf3 run
RUN_MAX=$((FLOW_SECS + 30 + 120 * IS_DEBUG))	# then it is killed, failed
SEED=${PACER_SEED:-$(( ($(date +%s) * 7 + $$) % 1000000 ))}
log "seed $SEED (PACER_SEED=$SEED replays the same commands)"

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA "$SRC" "$NS_B" vethB "$DST"
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0
# Two servers per flow: back-to-back runs alternate between them, so
# that no run finds its server still busy with the run before.
for IPERF_PORT in 5201 5202 5203 5204; do
	iperf_server "$NS_B" "$DST"
done

# mval FILE KEY: a value of a mutator's (or the reader's) report.
mval() {
	awk -v k="$2" '$1 == k { print $2; exit }' "$1"
}

# flow NAME PORT ARGS...: iperf3 runs of FLOW_SECS seconds, back to back,
# alternating between servers PORT and PORT + 2, until $TMPD/traffic.stop
# exists; a run is killed after RUN_MAX seconds.  Run I's JSON in
# $TMPD/NAME.I, its exit status and length (ms) in NAME.I.rc.
flow() {
	local name=$1 port=$2 i=0 rc t0

	shift 2
	while [ ! -e "$TMPD/traffic.stop" ]; do
		rc=0
		t0=$(now_ms)
		timeout -k 5 "$RUN_MAX" ip netns exec "$NS_A" iperf3 -c "$DST" \
			-p $((port + 2 * (i % 2))) -t "$FLOW_SECS" -J "$@" \
			>"$TMPD/$name.$i" || rc=$?
		echo "$rc $(($(now_ms) - t0))" >"$TMPD/$name.$i.rc"
		i=$((i + 1))
	done
}

# flowing: classes 1 and 2 have received packets since the snapshots F1_0
# and F2_0.
flowing() {
	class_snap "$NS_B" pacer0 1 F1 && [ "$F1_rx_packets" -ge $((F1_0_rx_packets + 20)) ] &&
		class_snap "$NS_B" pacer0 2 F2 && [ "$F2_rx_packets" -ge $((F2_0_rx_packets + 20)) ]
}

# progress: the commands the mutators have done so far.
progress() {
	local i=0 n=0 k

	while [ "$i" -lt "$MUTATORS" ]; do
		k=
		[ ! -e "$TMPD/mutator$i.ops" ] ||
			read -r k 2>/dev/null <"$TMPD/mutator$i.ops" || true
		n=$((n + ${k:-0}))
		i=$((i + 1))
	done
	echo "$n"
}

step "live classes 1 (TCP) and 2 (UDP), their rules"
pc "$NS_B" class add dev pacer0 id 1 rate "${LIVE_RATE}bit"
pc "$NS_B" class add dev pacer0 id 2 rate "${LIVE_RATE}bit"
pc "$NS_B" rule add dev pacer0 pref 1 src "$SRC/32" proto tcp class 1
pc "$NS_B" rule add dev pacer0 pref 2 src "$SRC/32" proto udp class 2
log "$(pc "$NS_B" class show dev pacer0)"
log "$(pc "$NS_B" rule show dev pacer0)"

step "traffic: TCP at $TCP_RATE, UDP at $UDP_RATE, in runs of ${FLOW_SECS}s"
class_snap "$NS_B" pacer0 1 F1_0
class_snap "$NS_B" pacer0 2 F2_0
bg flow tcp 5201 -b "$TCP_RATE" --pacing-timer 20000
TCP_LOOP=$BGPID
bg flow udp 5202 -u -b "$UDP_RATE" -l 1400 --pacing-timer 20000
UDP_LOOP=$BGPID
wait_for 60 flowing || die "no traffic through classes 1 and 2 within 60 s"

step "churn: $MUTATORS mutators and a reader, until $MIN_OPS commands and ${CHURN_MIN}s"
STOP=$TMPD/churn.stop
bg ip netns exec "$NS_B" sh "$SELF" --reader pacer0 "$STOP" "$TMPD/reader"
LOOPS=$BGPID
i=0
while [ "$i" -lt "$MUTATORS" ]; do
	bg ip netns exec "$NS_B" sh "$SELF" --mutator "$i" pacer0 $((SEED + 7919 * i)) \
		"$STOP" "$TMPD/mutator$i"
	LOOPS="$LOOPS $BGPID"
	i=$((i + 1))
done
start=$(now)
while :; do
	sleep 1
	secs=$(($(now) - start))
	ops=$(progress)
	[ "$secs" -lt "$CHURN_MIN" ] || [ "$ops" -lt "$MIN_OPS" ] || break
	[ "$secs" -lt "$CHURN_MAX" ] || break
done
touch "$STOP"
for pid in $LOOPS; do
	wait_exit "$pid" 60 || die "a churn loop did not stop within 60 s"
done
CHURN=$(($(now) - start))
log "churn stopped after ${CHURN}s"
touch "$TMPD/traffic.stop"
wait_exit "$TCP_LOOP" $((FLOW_SECS + 60)) || die "the TCP runs did not end"
wait_exit "$UDP_LOOP" $((FLOW_SECS + 60)) || die "the UDP runs did not end"

step "the traffic survived"
# runs NAME: log a line per run of the flow; RUNS, FAILED (exit status or
# error), EMPTY (no byte received: TCP, or sent: UDP), BYTES.
runs() {
	local i=0 rc res

	RUNS=0 FAILED=0 EMPTY=0 BYTES=0
	while [ -e "$TMPD/$1.$i.rc" ]; do
		read -r rc ms <"$TMPD/$1.$i.rc"
		res=$(jq -r 'if .error then "error: " + .error
			elif .start.test_start.protocol == "TCP"
			then "\(.end.sum_received.bytes) bytes received, \(.end.sum_sent.retransmits) retransmits"
			else "\(.end.sum.bytes) bytes sent, \(.end.sum.lost_packets)" +
				" of \(.end.sum.packets) datagrams lost"
			end' "$TMPD/$1.$i" 2>/dev/null) || res="error: no JSON report"
		log "$1 run $i: exit $rc after $((ms / 1000)).$((ms % 1000 / 100))s, $res"
		RUNS=$((RUNS + 1))
		case "$rc $res" in
		"0 0 "*) EMPTY=$((EMPTY + 1)) ;;
		"0 "[0-9]*) BYTES=$((BYTES + ${res%% *})) ;;
		*)	FAILED=$((FAILED + 1))
			log "  its intervals (start end bytes): $(jq -r '[.intervals[].sum |
				"\(.start | floor)-\(.end * 10 | floor / 10) \(.bytes)"] | join(", ")' \
				"$TMPD/$1.$i" 2>/dev/null)" ;;
		esac
		i=$((i + 1))
	done
}
runs tcp
check_ge "TCP runs" "$RUNS" 1
check_eq "TCP runs that failed" "$FAILED" 0
check_eq "TCP runs that carried nothing" "$EMPTY" 0
log "TCP: $BYTES bytes received in all"
runs udp
check_ge "UDP runs" "$RUNS" 1
check_eq "UDP runs that failed" "$FAILED" 0
check_eq "UDP runs that carried nothing" "$EMPTY" 0
log "UDP: $BYTES bytes sent in all"
wait_pacer_idle "$NS_B" pacer0 30 || die "pacer0 still busy 30 s after the traffic"
replies=$(ip netns exec "$NS_A" ping -q -n -c 5 -i 0.2 -W 3 "$DST" 2>&1 |
	sed -n 's/.* \([0-9]*\) received.*/\1/p')
check_eq "pings through pacer0 after the churn, answered (of 5)" "$replies" 5

step "what the loops did"
ops=0 done_=0 refused=0 unexpected=0
for i in $(seq 0 $((MUTATORS - 1))); do
	f=$TMPD/mutator$i
	log "mutator $i: $(mval "$f" ops) commands in $(mval "$f" ms) ms:" \
		"$(mval "$f" "done") done, $(mval "$f" refused) refused as expected" \
		"(class exists $(mval "$f" refusal_exists), no class $(mval "$f" refusal_noclass)," \
		"ceil $(mval "$f" refusal_ceil), pref exists $(mval "$f" refusal_pref)," \
		"no rule $(mval "$f" refusal_norule), rule uses class $(mval "$f" refusal_busy)," \
		"class 0 add $(mval "$f" refusal_add0) del $(mval "$f" refusal_del0))," \
		"$(mval "$f" unexpected) unexpected; its live class deleted $(mval "$f" live_dels) times"
	head -n 10 "$f.log"
	ops=$((ops + $(mval "$f" ops)))
	done_=$((done_ + $(mval "$f" "done")))
	refused=$((refused + $(mval "$f" refused)))
	unexpected=$((unexpected + $(mval "$f" unexpected)))
done
f=$TMPD/reader
log "reader: $(mval "$f" reads) reads, $(mval "$f" samples) class dumps of" \
	"$(mval "$f" classes) classes in all; class 1 missing $(mval "$f" missing) times;" \
	"$(mval "$f" interrupted) dumps interrupted by a change"
head -n 10 "$f.log"
log "pace: $(awk -v n="$ops" -v s="$CHURN" 'BEGIN { printf "%.1f", n / s }') commands/s"
check_ge "commands done by the mutators in ${CHURN}s" "$ops" "$MIN_OPS"
check_ge "commands that succeeded" "$done_" $((MIN_OPS / 4))
check_ge "commands refused as predicted" "$refused" $((MIN_OPS / 10))
check_eq "commands with an unexpected outcome" "$unexpected" 0
check_ge "reader: class dumps" "$(mval "$f" samples)" 5
check_eq "reader: unexpected failures" "$(mval "$f" unexpected)" 0
check_eq "reader: dumped classes breaking rx = tx + dropped + backlog" "$(mval "$f" broken)" 0

step "invariants once the traffic stopped"
pacer_snap "$NS_B" pacer0 P1
log "pacer0: rx $P1_rx_packets tx $P1_tx_packets dropped: queue_limit" \
	"$P1_dropped_queue_limit memory $P1_dropped_memory reinject" \
	"$P1_dropped_reinject flush $P1_dropped_flush congestion $P1_dropped_congestion" \
	"not_redirected" \
	"$P1_dropped_not_redirected; backlog $P1_backlog_packets/$P1_backlog_bytes"
check_invariant "$NS_B" pacer0
check_eq "pacer0 backlog (packets/bytes)" "$P1_backlog_packets/$P1_backlog_bytes" 0/0
ids=$(pc "$NS_B" -j class show dev pacer0 | json_each id | words)
for id in $ids; do
	class_snap "$NS_B" pacer0 "$id" C
	show_class "class $id" C
	check_class_invariant "class $id" C
	check_eq "class $id backlog (packets/bytes)" "$C_backlog_packets/$C_backlog_bytes" 0/0
done

step "the configuration is what the loops left"
cat "$TMPD"/mutator[0-9] | awk '$1 == "class"' | sort -n -k2 >"$TMPD/want.classes"
cat "$TMPD"/mutator[0-9] | awk '$1 == "rule"' | sort -n -k2 >"$TMPD/want.rules"
pc "$NS_B" -j class show dev pacer0 | jq -r '.[] | "class \(.id) \(.rate_bps) \(.ceil_bps)" +
	(if .limit_bytes then " bytes:\(.limit_bytes)" elif .limit_auto then " auto"
	 else " us:\(.limit_us)" end) +
	" \(.target_us) \(if .name == "" then "-" else .name end)"' | sort -n -k2 >"$TMPD/got.classes"
pc "$NS_B" -j rule show dev pacer0 | jq -r '.[] | "rule \(.pref) \(.class)"' |
	sort -n -k2 >"$TMPD/got.rules"
check_eq "class ids" "$(awk '{ print $2 }' "$TMPD/got.classes" | words)" \
	"$(awk '{ print $2 }' "$TMPD/want.classes" | words)"
check_eq "rule prefs" "$(awk '{ print $2 }' "$TMPD/got.rules" | words)" \
	"$(awk '{ print $2 }' "$TMPD/want.rules" | words)"
check_eq "classes: id rate ceil limit target name" "$(words <"$TMPD/got.classes")" \
	"$(words <"$TMPD/want.classes")"
check_eq "rules: pref class" "$(words <"$TMPD/got.rules")" "$(words <"$TMPD/want.rules")"

ksft_exit
