#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Privilege: reads are open to everyone, changes need CAP_NET_ADMIN.  An
# unprivileged user (uid/gid 65534, no groups, no capabilities) sees the
# same "class show" and "rule show" as root, exit 0, but every change -
# class add, change, del, rule add, del, stats reset - exits 1 with
# "Operation not permitted", and nothing changed.
#
#   +---------------- NS ----------------+
#   | pacer0: class 0, class 5, rule 7   |   pacerctl as root, and
#   |                                    |   setpriv --reuid 65534 ...
#   +------------------------------------+
#
. "$(dirname "$0")/lib.sh"

require pacerctl setpriv jq md5sum

setup_ns NS
load_pacer
pacer_add "$NS" pacer0

in_ns() {
	ip netns exec "$NS" "$@"
}

# nobody CMD...: CMD as uid/gid 65534 without supplementary groups.
nobody() {
	ip netns exec "$NS" setpriv --reuid 65534 --regid 65534 --clear-groups "$@"
}

in_ns pacerctl class add dev pacer0 id 5 rate 10mbit name five
in_ns pacerctl rule add dev pacer0 pref 7 dst 10.0.0.0/8 class 5
classes=$(in_ns pacerctl -j -s class show dev pacer0)
rules=$(in_ns pacerctl -j rule show dev pacer0)

step "reads as uid 65534"
check_eq "uid in setpriv" "$(nobody sh -c 'id -u')" 65534
check_ok "class show" nobody pacerctl class show dev pacer0
check_eq "class show -j -s as nobody = as root ($(printf '%s' "$classes" | wc -c) bytes, md5sum)" \
	"$(nobody pacerctl -j -s class show dev pacer0 | md5sum)" "$(printf '%s\n' "$classes" | md5sum)"
check_eq "class show: the classes" \
	"$(nobody pacerctl -j class show dev pacer0 | jq -c '[.[].id]')" "[0,5]"
check_eq "rule show -j as nobody = as root" \
	"$(nobody pacerctl -j rule show dev pacer0)" "$rules"

step "changes as uid 65534: exit 1, Operation not permitted"
check_fail "class add" 1 "Operation not permitted" \
	nobody pacerctl class add dev pacer0 id 6 rate 1mbit
check_fail "class change" 1 "Operation not permitted" \
	nobody pacerctl class change dev pacer0 id 5 rate 1mbit
check_fail "class del" 1 "Operation not permitted" \
	nobody pacerctl class del dev pacer0 id 5
check_fail "rule add" 1 "Operation not permitted" \
	nobody pacerctl rule add dev pacer0 src 10.1.0.0/16 class 5
check_fail "rule del" 1 "Operation not permitted" \
	nobody pacerctl rule del dev pacer0 pref 7
check_fail "stats reset" 1 "Operation not permitted" \
	nobody pacerctl stats reset dev pacer0

step "nothing changed"
check_eq "classes (JSON with counters, md5sum)" \
	"$(in_ns pacerctl -j -s class show dev pacer0 | md5sum)" "$(printf '%s\n' "$classes" | md5sum)"
check_eq "rules (JSON)" "$(in_ns pacerctl -j rule show dev pacer0)" "$rules"

ksft_exit
