#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The netlink API fuzzed: nl_fuzz (nl_fuzz.c, built on the host by "make -C
# selftests") sends random and malformed requests over every command of
# the pacer family while pings cross pacer0, in three phases:
#
#   a. as root in NS_B, on pacer0 (the largest phase: 100000 requests,
#      30000 on the debug kernel);
#   b. as uid 65534 without capabilities, on pacer0 (-u): no change may
#      succeed, reads still do (20000 requests, 10000 on debug);
#   c. as uid 65534 in a user + network namespace of its own, where it is
#      root: on a pacer device it creates there (40000 requests, 10000 on
#      debug).  Skipped, not failed, when the kernel gives unprivileged
#      users no user namespace.
#
# Each phase must pass its own TAP tests (see nl_fuzz.c: every request
# answered, the implemented commands succeed or, unprivileged, never do,
# the device left with class 0 alone and no rule, DEV_GET and a class
# round trip still work); its TAP is shown indented.  Afterwards pacer0
# still forwards (every one of 20 pings answered), rx = tx + dropped +
# backlog holds, pacerctl shows class 0 alone and no rule, and once the
# namespaces are deleted "rmmod pacer" succeeds.  Skips when the binary
# was not built.
#
#   +------- NS_A -------+            +------------- NS_B ---------------+
#   | ping -i 0.02 ------+------------+-> vethB 10.0.15.2                |
#   | vethA 10.0.15.1    |            |    ingress: mirred -> pacer0     |
#   +--------------------+            |  nl_fuzz pacer0 (root, 65534)    |
#                                     +----------------------------------+
#   +- userns + netns of uid 65534 -+
#   | pacer9    nl_fuzz pacer9      |
#   +-------------------------------+
#
# PACER_FUZZ_SEED (default 1) seeds phase a; b and c take the next two.
#
# 35-50 s on the cloud kernel under TCG; 250-330 s on the debug kernel,
# whose timeout is 5x this one.
# run_tests: timeout=150
. "$(dirname "$0")/lib.sh"

require setpriv unshare ping pacerctl tc rmmod
NL_FUZZ=$(cd "$(dirname "$0")" && pwd)/nl_fuzz
[ -x "$NL_FUZZ" ] || skip "nl_fuzz is not built (make -C selftests on the host)"

SEED=${PACER_FUZZ_SEED:-1}
# At least 50000 requests in all, root's phase (it reaches the most code)
# the largest.  A request costs 0.05-0.25 ms on the cloud kernel under TCG
# and 1.5-7 ms on the debug kernel (30-50x, not the 5x of the timeout):
# there the phases are cut to the minimum.
if [ "$IS_DEBUG" = 1 ]; then
	N_ROOT=30000
	N_UNPRIV=10000
	N_USERNS=10000
else
	N_ROOT=100000
	N_UNPRIV=20000
	N_USERNS=40000
fi

setup_ns NS_A NS_B
load_pacer
veth_pair "$NS_A" vethA 10.0.15.1 "$NS_B" vethB 10.0.15.2
pacer_add "$NS_B" pacer0
redirect_ingress "$NS_B" vethB pacer0

# pings N: N pings through pacer0; sets PINGS (answered).
pings() {
	ip netns exec "$NS_A" ping -n -q -c "$1" -i 0.05 -W 2 10.0.15.2 \
		>"$TMPD/ping" 2>&1 || true
	PINGS=$(sed -n 's/.* \([0-9]*\) received.*/\1/p' "$TMPD/ping")
}

# run_tap NAME CMD...: CMD's TAP indented; checks on its exit status and
# on how many TAP tests it ran.
run_tap() {
	local name=$1 rc=0 start

	shift
	start=$(now_ms)
	"$@" >"$TMPD/tap" 2>&1 || rc=$?
	sed 's/^/  /' "$TMPD/tap"
	log "$name: $(($(now_ms) - start)) ms"
	check_eq "$name: exit status (failed TAP tests: $(grep -c '^not ok' "$TMPD/tap"))" "$rc" 0
	check_ge "$name: TAP tests passed" "$(grep -c '^ok' "$TMPD/tap")" 14
}

step "premise: pacer0 forwards"
pings 10
check_eq "pings answered through pacer0 before the fuzz" "$PINGS" 10

step "pings through pacer0 while the fuzz runs"
exec 3>&1 >"$TMPD/bgping"
bg ip netns exec "$NS_A" ping -n -q -i 0.02 -W 1 10.0.15.2
exec 1>&3 3>&-
PING_PID=$BGPID

step "a: nl_fuzz as root, $N_ROOT requests"
run_tap "nl_fuzz (root)" ip netns exec "$NS_B" "$NL_FUZZ" -s "$SEED" -n "$N_ROOT" pacer0

step "b: nl_fuzz -u as uid 65534, $N_UNPRIV requests"
run_tap "nl_fuzz -u (uid 65534)" ip netns exec "$NS_B" \
	setpriv --reuid 65534 --regid 65534 --clear-groups \
	"$NL_FUZZ" -u -s $((SEED + 1)) -n "$N_UNPRIV" pacer0

step "c: nl_fuzz as uid 65534 in its own user and network namespace, $N_USERNS requests"
if setpriv --reuid 65534 --regid 65534 --clear-groups \
	unshare -U -r -n true >"$TMPD/userns" 2>&1; then
	run_tap "nl_fuzz (userns root)" \
		setpriv --reuid 65534 --regid 65534 --clear-groups \
		unshare -U -r -n sh -c '
			ip link add pacer9 type pacer &&
			ip link set pacer9 up &&
			exec "$0" -s "$1" -n "$2" pacer9' \
		"$NL_FUZZ" $((SEED + 2)) "$N_USERNS"
else
	log "SKIP (this phase only): uid 65534 gets no user namespace: $(cat "$TMPD/userns")"
fi

# SIGINT: ping prints its summary.
kill -INT "$PING_PID" 2>/dev/null || true
wait_exit "$PING_PID" 10 || die "the background ping does not stop"
log "pings during the fuzz (not judged: the fuzz reconfigures class 0): $(grep transmitted "$TMPD/bgping")"

step "afterwards: pacer0 forwards, its counters add up, nothing is left"
pings 20
check_eq "pings answered through pacer0 after the fuzz" "$PINGS" 20
wait_pacer_idle "$NS_B" pacer0
log "pacer0: $(pacer_line "$NS_B" pacer0)"
check_invariant "$NS_B" pacer0
check_eq "pacer0: classes" \
	"$(ip netns exec "$NS_B" pacerctl -j class show dev pacer0 | json_each id | words)" 0
check_eq "pacer0: rules" \
	"$(ip netns exec "$NS_B" pacerctl -j rule show dev pacer0 | json_len)" 0

step "the module unloads once the namespaces are gone"
ip netns del "$NS_A"
ip netns del "$NS_B"
NSES=""
# Namespaces die in a workqueue: their devices hold the module a moment.
start=$(now_ms)
end=$(($(now) + 20))
until rmmod pacer 2>"$TMPD/rmmod"; do
	if [ "$(now)" -ge "$end" ]; then
		log "rmmod pacer still fails after 20 s: $(cat "$TMPD/rmmod")"
		break
	fi
	sleep 0.2
done
check_eq "pacer unloaded by rmmod after ip netns del ($(($(now_ms) - start)) ms)" \
	"$(lsmod_has pacer && echo loaded || echo unloaded)" unloaded

ksft_exit
