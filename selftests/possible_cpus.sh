#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A device's messages on a host whose firmware lists more CPUs than it
# has: each carries a nest per CPU, sized for every possible one.  `make
# check` runs this test twice: in the suite's boot, and on 6.1 in a boot
# of its own with 2 CPUs online out of 200 possible (tools/vm/run
# --maxcpus 200, PACER_POSSIBLE_MIN=200), where a device message takes
# more than the 8 KiB of a default netlink reply and more than a page of
# a dump (see tools/vm/check for why not on 6.12).
# - the premise: the kernel counts at least PACER_POSSIBLE_MIN possible
#   CPUs (when set);
# - "-s -s dev show dev pacer0" answers, with one "cpus" entry for each
#   online CPU and none for the others (none has counted a packet);
# - the dump ("-s -s dev show") lists each of three devices once;
# - "dev set" answers with the caps it set, and one that is refused
#   (max_rules above the module parameter) leaves them all as they were;
# - "monitor" prints a "dev set" event with the caps as they are after
#   the change.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/classlib.inc"

require jq pacerctl

# cpu_list FILE: the CPUs of a sysfs list ("0-1,4"), one a line.
cpu_list() {
	tr ',' '\n' <"$1" | awk -F- 'NF { for (c = $1; c <= (NF > 1 ? $2 : $1); c++) print c }'
}

step "premise: the CPUs the kernel counts"
POSSIBLE=$(cpu_list /sys/devices/system/cpu/possible | wc -l)
ONLINE=$(cpu_list /sys/devices/system/cpu/online | words)
log "possible CPUs: $POSSIBLE; online: $ONLINE"
if [ -n "${PACER_POSSIBLE_MIN:-}" ]; then
	check_ge "possible CPUs" "$POSSIBLE" "$PACER_POSSIBLE_MIN"
fi

setup_ns NS
load_pacer
for d in pacer0 pacer1 pacer2; do
	pacer_add "$NS" "$d"
done

step "dev show: one cpus entry per online CPU"
pc "$NS" -j -s -s dev show dev pacer0 >"$TMPD/dev" 2>"$TMPD/err" ||
	die "dev show dev pacer0 failed: $(cat "$TMPD/err")"
check_eq "cpus listed" "$(jq -r '.[0].cpus[].cpu' "$TMPD/dev" | words)" "$ONLINE"
check_eq "devices in the reply" "$(jq -r '.[].ifname' "$TMPD/dev" | words)" pacer0

step "dev show: the dump lists every device once"
pc "$NS" -j -s -s dev show >"$TMPD/all" 2>"$TMPD/err" ||
	die "dev show failed: $(cat "$TMPD/err")"
check_eq "devices in the dump" "$(jq -r '.[].ifname' "$TMPD/all" | sort | words)" \
	"pacer0 pacer1 pacer2"
check_eq "cpus listed for pacer2" \
	"$(jq -r '.[] | select(.ifname == "pacer2") | .cpus[].cpu' "$TMPD/all" | words)" \
	"$ONLINE"

step "dev set: the reply, and a refused change"
MAX_RULES=$(jq -r '.[0].max_rules' "$TMPD/dev")
MAX_MEMORY=$(jq -r '.[0].max_memory' "$TMPD/dev")
pc "$NS" -j dev set dev pacer0 max_classes 50 >"$TMPD/set" 2>"$TMPD/err" ||
	die "dev set failed: $(cat "$TMPD/err")"
check_eq "dev set's reply: max_classes" "$(jq -r '.[0].max_classes' "$TMPD/set")" 50
check_eq "dev set's reply: max_rules" "$(jq -r '.[0].max_rules' "$TMPD/set")" "$MAX_RULES"
PARAM=$(cat /sys/module/pacer/parameters/max_rules)
check_fail "max_rules above the module parameter" 1 \
	"max_rules is above the module parameter max_rules" \
	pc "$NS" dev set dev pacer0 max_classes 60 max_rules $((PARAM + 1))
pc "$NS" -j dev show dev pacer0 >"$TMPD/after"
check_eq "max_classes after the refused change" \
	"$(jq -r '.[0].max_classes' "$TMPD/after")" 50
check_eq "max_rules after the refused change" \
	"$(jq -r '.[0].max_rules' "$TMPD/after")" "$MAX_RULES"

step "monitor: a dev set event"
bg pc "$NS" -j monitor dev pacer0 count 1 >"$TMPD/events"
MON=$BGPID
# Until the monitor has joined the group a change goes unseen: change
# the caps until one is seen, each time to a value of its own.
n=0
while [ ! -s "$TMPD/events" ] && [ "$n" -lt 100 ]; do
	n=$((n + 1))
	pc "$NS" dev set dev pacer0 max_classes $((100 + n)) >/dev/null
	sleep 0.1
done
wait_exit "$MON" 10 || die "monitor did not stop after its event"
log "event: $(cat "$TMPD/events")"
check_eq "event" "$(jq -r .event "$TMPD/events")" "dev set"
check_eq "event's device" "$(jq -r .ifname "$TMPD/events")" pacer0
EV_CLASSES=$(jq -r .max_classes "$TMPD/events")
check_ge "event's max_classes: one that was set" "$EV_CLASSES" 101
check_le "event's max_classes: one that was set" "$EV_CLASSES" $((100 + n))
check_eq "event's max_rules" "$(jq -r .max_rules "$TMPD/events")" "$MAX_RULES"
check_eq "event's max_memory" "$(jq -r .max_memory "$TMPD/events")" "$MAX_MEMORY"

ksft_exit
