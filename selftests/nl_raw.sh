#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The netlink API spoken raw: runs nl_raw (nl_raw.c, built on the host by
# "make -C selftests": the guest has no compiler) against a pacer device,
# as root and then as an unprivileged user.  nl_raw sends out-of-range,
# conflicting, missing and wrongly sized attributes on a plain generic
# netlink socket with NETLINK_EXT_ACK and checks errno, the extack text
# and the attribute it blames; its TAP is shown indented.  Skips when the
# binary was not built.
#
#   +------------- NS -------------+
#   | pacer0    nl_raw (root)      |
#   |           nl_raw -u (65534)  |
#   +------------------------------+
#
. "$(dirname "$0")/lib.sh"

require setpriv
NL_RAW=$(cd "$(dirname "$0")" && pwd)/nl_raw
[ -x "$NL_RAW" ] || skip "nl_raw is not built (make -C selftests on the host)"

setup_ns NS
load_pacer
pacer_add "$NS" pacer0

# run_tap NAME CMD...: CMD's TAP indented; a check on its exit status.
run_tap() {
	local name=$1 rc=0

	shift
	"$@" >"$TMPD/tap" 2>&1 || rc=$?
	sed 's/^/  /' "$TMPD/tap"
	check_eq "$name: exit status (failed TAP tests: $(grep -c '^not ok' "$TMPD/tap"))" "$rc" 0
	check_ge "$name: TAP tests run" "$(grep -c '^ok' "$TMPD/tap")" 3
}

step "nl_raw as root"
run_tap "nl_raw pacer0" ip netns exec "$NS" "$NL_RAW" pacer0

step "nl_raw -u as uid 65534"
run_tap "nl_raw -u pacer0" ip netns exec "$NS" \
	setpriv --reuid 65534 --regid 65534 --clear-groups "$NL_RAW" -u pacer0

ksft_exit
