#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The man page names every key pacerctl prints in JSON: the keys of
# "-j -s -s dev show", "-j -s -s class show", "-j rule show", a
# "-j monitor" event and "-j -s monitor" class rates, for a device with a
# named class, a rule of every criterion and a few packets through it, are
# collected, and each must appear in bold in Documentation/pacerctl.8
# (copied into selftests/ by "make -C selftests", which make check runs),
# as the page sets its keys, not merely as a word of its prose.
# The monitor also sees a class deleted, with its id.
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require pacerctl jq ping
MAN=$(cd "$(dirname "$0")" && pwd)/pacerctl.8
[ -f "$MAN" ] || skip "$MAN missing: run \"make -C selftests\" on the host (copies Documentation/pacerctl.8)"

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.33.1 "$NS_B" vethB 10.0.33.2
pacer_add "$NS_B" pacer0
pc "$NS_B" attach dev pacer0 ingress vethB
pc "$NS_B" class add dev pacer0 id 1 name one rate 10mbit limit 64k
pc "$NS_B" class add dev pacer0 id 2 rate 10mbit limit 5ms
pc "$NS_B" rule add dev pacer0 pref 1 src 10.0.33.1/32 dst 10.0.33.0/24 proto icmp class 1
pc "$NS_B" rule add dev pacer0 pref 2 proto tcp sport 1-2 dport 3 mark 1/3 prio 1:2 class 2
ip netns exec "$NS_A" ping -n -q -c 5 -i 0.05 -W 2 10.0.33.2 >/dev/null || true

# keys: every object key of the JSON on stdin, one a line.
keys() {
	jq -r '[paths | .[] | select(type == "string")] | unique | .[]'
}

step "collect the keys"
{
	pc "$NS_B" -j -s -s dev show dev pacer0 | keys
	pc "$NS_B" -j -s -s class show dev pacer0 | keys
	pc "$NS_B" -j rule show dev pacer0 | keys
	pc "$NS_B" -j -s monitor dev pacer0 count 1 | keys
} >"$TMPD/keys" 2>"$TMPD/keys.err"
# The monitor joins the events group some time after it starts and does
# not say when (a fixed pause, under TCG or on the debug kernel, may end
# first): a class is added, a new id each time, until one's event has
# reached the monitor and it has stopped (count 1), at most MON_TRIES
# classes ~2 s apart.  Whichever event it sees first is a "class new".
bg timeout 60 ip netns exec "$NS_B" pacerctl -j monitor dev pacer0 count 1 \
	>"$TMPD/event" 2>"$TMPD/event.err"
mon=$BGPID
MON_TRIES=15
id=3
while :; do
	pc "$NS_B" class add dev pacer0 id "$id" rate 1mbit
	wait_for 2 not_running "$mon" >/dev/null && break
	[ "$id" -lt $((MON_TRIES + 2)) ] ||
		die "pacerctl monitor saw none of classes 3 to $id being added, ~2 s apart: $(cat "$TMPD/event.err")"
	id=$((id + 1))
done
wait_exit "$mon" 5 || die "pacerctl monitor did not end"
log "the monitor stopped after $((id - 2)) class add(s); its stderr: \"$(cat "$TMPD/event.err")\""
check_eq "pacerctl -j monitor dev pacer0 count 1: exit status" "$EXIT_STATUS" 0
check_eq "the monitor's one event is a class added to pacer0" \
	"$(jq -r '"\(.event) \(.ifname)"' <"$TMPD/event" | words)" "class new pacer0"
keys <"$TMPD/event" >>"$TMPD/keys"

# A deleted class's event, built before the class goes: classes 100 on
# are made first, then deleted in turn, ~2 s apart, until the monitor has
# seen one (it joins the group some time after it starts).
for del in $(seq 100 $((100 + MON_TRIES))); do
	pc "$NS_B" class add dev pacer0 id "$del" rate 1mbit
done
bg timeout 60 ip netns exec "$NS_B" pacerctl -j monitor dev pacer0 count 1 \
	>"$TMPD/del_event" 2>"$TMPD/del_event.err"
mon=$BGPID
del=100
while :; do
	pc "$NS_B" class del dev pacer0 id "$del"
	wait_for 2 not_running "$mon" >/dev/null && break
	[ "$del" -lt $((100 + MON_TRIES)) ] ||
		die "pacerctl monitor saw none of classes 100 to $del being deleted, ~2 s apart: $(cat "$TMPD/del_event.err")"
	del=$((del + 1))
done
wait_exit "$mon" 5 || die "pacerctl monitor did not end"
check_eq "the monitor's one event is class $del deleted from pacer0" \
	"$(jq -r '"\(.event) \(.ifname) \(.id)"' <"$TMPD/del_event" | words)" \
	"class del pacer0 $del"
sort -u "$TMPD/keys" -o "$TMPD/keys"
log "$(wc -l <"$TMPD/keys") keys: $(words <"$TMPD/keys")"
check_ge "keys found" "$(wc -l <"$TMPD/keys")" 60
for k in stats drops delay_hist cpus rx_bps event queue_limit_bytes matches; do
	check_eq "the collection has \"$k\"" "$(grep -cx "$k" "$TMPD/keys")" 1
done

step "each in bold in pacerctl.8"
# The man page's bold words, one a line: \fB...\fR spans, .B lines and the
# bold arguments of .BR, .RB, .BI and .IB.  The page sets every JSON key
# in bold; a key that is only a word of its prose ("id", "name") is not
# documented as one.
BOLD_AWK='
function args(line,    n, a, rest, m) {
	n = 0
	rest = line
	while (rest != "") {
		sub(/^[ \t]+/, "", rest)
		if (rest == "")
			break
		if (substr(rest, 1, 1) == "\"") {
			m = index(substr(rest, 2), "\"")
			if (m == 0) { a = substr(rest, 2); rest = "" }
			else { a = substr(rest, 2, m - 1); rest = substr(rest, m + 2) }
		} else {
			m = match(rest, /[ \t]/)
			if (m == 0) { a = rest; rest = "" }
			else { a = substr(rest, 1, m - 1); rest = substr(rest, m) }
		}
		A[++n] = a
	}
	return n
}
function words(s,    w, k, i) {
	gsub(/\\-/, "-", s)
	gsub(/\\f[BIRP]/, " ", s)
	k = split(s, w, /[^A-Za-z0-9_-]+/)
	for (i = 1; i <= k; i++)
		if (w[i] != "")
			print w[i]
}
/^\.(B|BR|RB|BI|IB)[ \t]/ {
	macro = substr($1, 2)
	n = args(substr($0, length($1) + 1))
	for (i = 1; i <= n; i++)
		if (macro == "B" || ((macro == "BR" || macro == "BI") && i % 2 == 1) ||
		    ((macro == "RB" || macro == "IB") && i % 2 == 0))
			words(A[i])
	next
}
{
	s = $0
	while ((p = index(s, "\\fB")) > 0) {
		s = substr(s, p + 3)
		q = match(s, /\\f[RIP]/)
		if (q == 0) { words(s); s = "" }
		else { words(substr(s, 1, q - 1)); s = substr(s, q) }
	}
}
'
awk "$BOLD_AWK" "$MAN" | sort -u >"$TMPD/bold"
check_ge "bold words in the man page" "$(wc -l <"$TMPD/bold")" 100
missing=
for k in $(cat "$TMPD/keys"); do
	grep -qx -- "$k" "$TMPD/bold" || missing="$missing $k"
done
check_eq "keys the man page does not set in bold" "${missing:- none}" " none"

ksft_exit
