#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pacer-quick up|down NAME (tools/pacer-quick, what pacer@.service runs):
# - up with $PACER_CONF_DIR/pq0.conf (caps, two classes one of them with a
#   quoted name, a rule, an attach to vethB's ingress) exits 0 and leaves
#   pq0 a pacer device, up, with exactly those caps, classes and rule, and
#   vethB's ingress redirected to it: 10 pings from NS_A all reach class 10
#   (rx_packets +10) and are answered;
# - down exits 0, pq0 is gone and so is the redirect (pings still answered,
#   vethB has no matchall filter left);
# - the errors exit 1 (2 for usage) with a message naming the cause, and
#   change nothing: no configuration file; a file that names another
#   device; the device exists already; down of a missing device and of a
#   device that is not a pacer device; a failing line (line 4 of 5, after
#   the attach): the message names FILE:4, pq0 is taken down again, the
#   attach of line 3 is undone and line 5 never ran;
# - down, when the redirect of an attach line cannot be detached (a
#   pacerctl whose detach fails, put first in PATH), exits 1 naming it and
#   saying that pq3 is kept: pq3 and the redirect stay, pings still pass;
#   down again with the real pacerctl deletes both;
# - down, when that redirect was detached by hand already (pacerctl detach
#   fails: nothing to undo), deletes the device and exits 0;
# - up with a failing line after an attach, when that redirect cannot be
#   detached, exits 1 and keeps pq4 and the redirect, saying so.
# tools/pacer-quick/pacer-quick reaches the guest as selftests/pacer-quick,
# copied there by "make -C selftests" (make check does it).
#
#   +----- NS_A -----+          +--------------- NS_B ---------------+
#   | ping           |          | vethB 10.0.30.2                    |
#   | vethA 10.0.30.1+----------+-> ingress: matchall mirred --> pq0 |
#   +----------------+          |   (pacer-quick up: "attach" line)  |
#                               +------------------------------------+
#
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require dash pacerctl tc jq ping
PQ=$(cd "$(dirname "$0")" && pwd)/pacer-quick
[ -f "$PQ" ] || skip "$PQ missing: run \"make -C selftests\" on the host (copies tools/pacer-quick)"

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.30.1 "$NS_B" vethB 10.0.30.2
CONF=$TMPD/conf
mkdir -p "$CONF"

# pq ARGS...: pacer-quick in NS_B with the test's configuration directory.
# With dash, Debian's /bin/sh: the guest's sh is busybox's, whose ip
# applet would shadow iproute2's (no -j).
pq() {
	ip netns exec "$NS_B" env PACER_CONF_DIR="$CONF" dash "$PQ" "$@"
}

# pq_nodetach ARGS...: pq with $TMPD/bin first in PATH, where the test
# puts a pacerctl whose detach fails.
pq_nodetach() {
	ip netns exec "$NS_B" env PATH="$TMPD/bin:$PATH" PACER_CONF_DIR="$CONF" \
		dash "$PQ" "$@"
}

# redirects: the matchall filters on vethB's ingress, "PREF TO_DEV" each.
redirects() {
	tc -n "$NS_B" -j filter show dev vethB ingress 2>/dev/null | jq -r '
		.[] | select(.kind == "matchall" and .options.actions != null)
		| "\(.pref) \(.options.actions[0].to_dev)"' | words
}

# pings N: N pings from NS_A to vethB; prints how many were answered.
pings() {
	ip netns exec "$NS_A" ping -n -q -c "$1" -i 0.05 -W 2 10.0.30.2 2>&1 |
		sed -n 's/.* \([0-9]*\) received.*/\1/p'
}

# exists DEV: DEV exists in NS_B.
exists() {
	ip -n "$NS_B" link show dev "$1" >/dev/null 2>&1
}

cat >"$CONF/pq0.conf" <<'EOF'
# pq0: written by hand, as an operator would
dev set dev pq0 max_classes 8 max_rules 16

class add dev pq0 id 10 name "bulk s3" rate 20mbit limit 50ms
class add dev pq0 id 11 rate 5mbit gso split   # not used by a rule
rule add dev pq0 pref 100 src 10.0.30.1/32 class 10
attach dev pq0 ingress vethB
EOF

step "pacer-quick up pq0"
check_ok "up pq0" pq up pq0
check_eq "pq0 is a pacer device" \
	"$(ip -n "$NS_B" -d -j link show dev pq0 | jq -r '.[0].linkinfo.info_kind')" pacer
check_eq "pq0 is up" \
	"$(ip -n "$NS_B" -j link show dev pq0 | jq -r '.[0].flags | index("UP") != null')" true
js=$(pc "$NS_B" -j dev show dev pq0)
log "dev show: $js"
check_eq "caps: max_classes, max_rules" \
	"$(printf '%s\n' "$js" | json_get 0.max_classes)/$(printf '%s\n' "$js" | json_get 0.max_rules)" 8/16
js=$(pc "$NS_B" -j class show dev pq0)
log "class show: $js"
check_eq "classes" "$(printf '%s\n' "$js" | json_each id | words)" "0 10 11"
check_eq "class 10: name with a space, rate" \
	"$(printf '%s\n' "$js" | jq -r '.[] | select(.id == 10) | "\(.name)|\(.rate_bps)|\(.limit_us)"')" \
	"bulk s3|20000000|50000"
check_eq "class 11: rate, gso" \
	"$(printf '%s\n' "$js" | jq -r '.[] | select(.id == 11) | "\(.rate_bps)|\(.gso)"')" "5000000|split"
js=$(pc "$NS_B" -j rule show dev pq0)
check_eq "rule: pref, src, class" \
	"$(printf '%s\n' "$js" | jq -r '.[] | "\(.pref) \(.src) \(.class)"')" "100 10.0.30.1/32 10"
check_eq "vethB ingress redirects to pq0" "$(redirects)" "49152 pq0"
class_snap "$NS_B" pq0 10 C0
check_eq "pings through pq0 answered" "$(pings 10)" 10
wait_class_idle "$NS_B" pq0 10
class_snap "$NS_B" pq0 10 C1
check_eq "class 10 received the 10 pings" "$(class_delta C1 C0 rx_packets)" 10

step "errors of up: nothing changes"
check_fail "up pq0 again: exists" 1 "pq0 exists already" pq up pq0
check_eq "pq0 still there, still redirected to" "$(redirects)" "49152 pq0"
check_fail "up without a file" 1 "no configuration for pq9: $CONF/pq9.conf" pq up pq9
check_eq "no pq9 made" "$(exists pq9 && echo yes || echo no)" no
sed 's/pq0/pq2/g; s/^rule add dev pq2/rule add dev pq0/' "$CONF/pq0.conf" >"$CONF/pq2.conf"
check_fail "a file about another device" 1 "$CONF/pq2.conf is not only about pq2: $CONF/pq2.conf:6: pq0" \
	pq up pq2
check_eq "no pq2 made" "$(exists pq2 && echo yes || echo no)" no
check_fail "usage: no name" 2 "usage: pacer-quick up|down NAME" pq up
check_fail "usage: unknown command" 2 "usage: pacer-quick up|down NAME" pq sideways pq0
check_fail "a name with a slash" 1 'invalid device name "a/b"' pq up a/b

step "pacer-quick down pq0"
check_ok "down pq0" pq down pq0
check_eq "pq0 is gone" "$(exists pq0 && echo yes || echo no)" no
check_eq "no redirect left on vethB" "$(redirects)" ""
check_eq "pings answered without pq0" "$(pings 5)" 5

step "errors of down"
check_fail "down a missing device" 1 "no device pq0" pq down pq0
ip -n "$NS_B" link add dum0 type dummy
check_fail "down a device that is not pacer" 1 "dum0 is not a pacer device" pq down dum0
check_eq "dum0 left alone" "$(exists dum0 && echo yes || echo no)" yes

step "a failing line: up takes pq1 down again"
cat >"$CONF/pq1.conf" <<'EOF'
class add dev pq1 id 10 rate 10mbit
rule add dev pq1 pref 5 dst 10.0.30.2/32 class 10
attach dev pq1 ingress vethB
rule add dev pq1 pref 6 proto udp class 12
class add dev pq1 id 12 rate 1mbit
EOF
check_fail "up pq1 with a rule to a missing class on line 4" 1 "$CONF/pq1.conf:4:" pq up pq1
log "stderr: $(cat "$TMPD/err" | words)"
check_eq "the message says it takes pq1 down" \
	"$(grep -c "pq1.conf failed: taking pq1 down again" "$TMPD/err")" 1
check_eq "pq1 is gone" "$(exists pq1 && echo yes || echo no)" no
check_eq "line 3's attach is undone" "$(redirects)" ""
check_eq "pings answered" "$(pings 5)" 5

step "down keeps pq3 while its redirect cannot be detached"
cat >"$CONF/pq3.conf" <<'EOF'
class add dev pq3 id 10 rate 20mbit
attach dev pq3 ingress vethB
EOF
check_ok "up pq3" pq up pq3
check_eq "vethB ingress redirects to pq3" "$(redirects)" "49152 pq3"
# A pacerctl whose detach fails and leaves the redirect, as when the
# kernel refuses the delete; every other command is the real one's.
REAL_PACERCTL=$(command -v pacerctl)
mkdir -p "$TMPD/bin"
cat >"$TMPD/bin/pacerctl" <<EOF
#!/bin/sh
if [ "\$1" = detach ]; then
	echo "pacerctl: detach refused by the test" >&2
	exit 1
fi
exec "$REAL_PACERCTL" "\$@"
EOF
chmod +x "$TMPD/bin/pacerctl"
check_fail "down pq3, detach failing" 1 "pacer-quick: could not detach pq3 from vethB ingress" \
	pq_nodetach down pq3
log "stderr: $(words <"$TMPD/err")"
check_eq "the message says pq3 is kept" "$(grep -c '^pacer-quick: kept pq3: ' "$TMPD/err")" 1
check_eq "pq3 is kept" "$(exists pq3 && echo yes || echo no)" yes
check_eq "vethB ingress still redirects to pq3" "$(redirects)" "49152 pq3"
check_eq "pings through pq3 answered" "$(pings 5)" 5
check_ok "down pq3 again, detach working" pq down pq3
check_eq "pq3 is gone" "$(exists pq3 && echo yes || echo no)" no
check_eq "no redirect left on vethB" "$(redirects)" ""

step "down when the redirect is detached already: the device goes"
check_ok "up pq3" pq up pq3
check_ok "detach by hand" pc "$NS_B" detach dev pq3 ingress vethB
check_ok "down pq3" pq down pq3
check_eq "pacerctl said there was nothing to detach" \
	"$(grep -c 'vethB ingress does not redirect to pq3' "$TMPD/err")" 1
check_eq "pq3 is gone" "$(exists pq3 && echo yes || echo no)" no
check_eq "no redirect left on vethB" "$(redirects)" ""

step "up's taking down after a failing line keeps pq4 under a redirect"
cat >"$CONF/pq4.conf" <<'EOF'
attach dev pq4 ingress vethB
rule add dev pq4 pref 6 proto udp class 12
EOF
check_fail "up pq4, line 2 failing, detach failing" 1 \
	"pacer-quick: could not detach pq4 from vethB ingress" pq_nodetach up pq4
log "stderr: $(words <"$TMPD/err")"
check_eq "the message names line 2" "$(grep -c "$CONF/pq4.conf:2:" "$TMPD/err")" 1
check_eq "the message says pq4 is kept" "$(grep -c '^pacer-quick: kept pq4: ' "$TMPD/err")" 1
check_eq "pq4 is kept" "$(exists pq4 && echo yes || echo no)" yes
check_eq "vethB ingress still redirects to pq4" "$(redirects)" "49152 pq4"
check_ok "down pq4, detach working" pq down pq4
check_eq "pq4 is gone" "$(exists pq4 && echo yes || echo no)" no
check_eq "no redirect left on vethB" "$(redirects)" ""

ksft_exit
