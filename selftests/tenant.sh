#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Hostile tenants: what an unprivileged user can make pacer allocate is
# capped and charged to that user's memory cgroup.
#
# 1. Caps, as root: a device's max_classes, max_rules and max_memory
#    default to the module parameters; "dev set" lowers them (and raises
#    them back, never above the parameters, never below what the device
#    has); at the cap, "class add" and "rule add" fail with the cap's
#    message and change nothing.  The parameters take only 1 to 65536
#    classes.
# 2. A user (uid 65534) in a user and network namespace of its own, which
#    gives it CAP_NET_ADMIN there, creates a pacer device (the module is
#    loaded already) and cannot raise its caps above the parameters.
# 3. Memory, the same user inside a memory cgroup (cgroup v2):
#    - with memory.max 256M it creates 2,000 classes (500 on the debug
#      kernel), each with a rule:
#      the cgroup's memory.current grows by 512 B to 1.5 KiB a class (a
#      class and its parameters; none of it per CPU); then pings through
#      a veth pair of its own, redirected to the device, reach half of
#      them: each grows it by its state on every CPU, allocated in
#      softirq on the class's first packet (before pacer charged them,
#      the growth was ~0);
#    - with classes made under 256M, root lowers memory.max to what the
#      cgroup holds plus 1 MiB and a flood reaches every class: the
#      classes' state on every CPU stops at the limit (packets dropped as
#      memory, memory.events max grows) and memory.current stays within
#      memory.max (with GFP_ATOMIC the cgroup forced the charges past
#      it);
#    - with memory.max 8M it creates pacer devices (each with its flow
#      table, 1 MiB here, and nothing caps how many a namespace has) until
#      one fails: the failure is "Cannot allocate memory", the cgroup
#      records hitting its limit (memory.events max > 0), and the host's
#      MemAvailable (sampled by root every 50 ms) fell by less than the
#      cgroup's limit plus 8 MiB.  The devices get 8192 flow buckets
#      (the module's flows: a 1 MiB table, most of a device), so that the
#      allocation that fails is most likely the table's vmalloc, which
#      from 6.12 writes a warning and a stack trace to the kernel log
#      unless told not to: the kernel log must get no allocation warning.
#
#   +---- cgroup pacer-tenant (memory.max) -----------------------+
#   | setpriv --reuid 65534 unshare -U -r -n:                     |
#   |   ip link add up0 type pacer; pacerctl class add ... x N    |
#   +-------------------------------------------------------------+
#
# run_tests: timeout=300
. "$(dirname "$0")/lib.sh"

require setpriv unshare pacerctl

setup_ns NS
load_pacer
pacer_add "$NS" pacer0
PARAMS=/sys/module/pacer/parameters

in_ns() {
	ip netns exec "$NS" "$@"
}

# dev_field NAME: a field of "pacerctl -j dev show dev pacer0".
dev_field() {
	in_ns pacerctl -j dev show dev pacer0 | json_get "0.$1"
}

step "caps: defaults are the module parameters"
check_eq "max_classes parameter" "$(cat "$PARAMS/max_classes")" 65536
check_eq "max_rules parameter" "$(cat "$PARAMS/max_rules")" 131072
check_eq "max_memory parameter" "$(cat "$PARAMS/max_memory")" 67108864
check_eq "pacer0 max_classes" "$(dev_field max_classes)" 65536
check_eq "pacer0 max_rules" "$(dev_field max_rules)" 131072
check_eq "pacer0 max_memory" "$(dev_field max_memory)" 67108864
check_eq "pacer0 classes (class 0)" "$(dev_field classes)" 1
check_eq "pacer0 rules" "$(dev_field rules)" 0

step "caps: dev set, and what the caps refuse"
check_ok "dev set max_classes 3 max_rules 2" \
	in_ns pacerctl dev set dev pacer0 max_classes 3 max_rules 2
check_eq "max_classes after dev set" "$(dev_field max_classes)" 3
check_eq "max_rules after dev set" "$(dev_field max_rules)" 2
in_ns pacerctl class add dev pacer0 id 1 rate 1mbit
in_ns pacerctl class add dev pacer0 id 2 rate 1mbit
check_fail "class add beyond max_classes" 1 \
	"the device has max_classes classes (class 0 included): delete one or raise the cap" \
	in_ns pacerctl class add dev pacer0 id 3 rate 1mbit
check_eq "classes after the refusal" \
	"$(in_ns pacerctl -j class show dev pacer0 | json_each id | words)" "0 1 2"
in_ns pacerctl rule add dev pacer0 pref 1 dst 10.0.0.1/32 class 1
in_ns pacerctl rule add dev pacer0 pref 2 dst 10.0.0.2/32 class 2
check_fail "rule add beyond max_rules" 1 \
	"the device has max_rules rules: delete one or raise the cap" \
	in_ns pacerctl rule add dev pacer0 pref 3 dst 10.0.0.3/32 class 2
check_eq "rules after the refusal" \
	"$(in_ns pacerctl -j rule show dev pacer0 | json_each pref | words)" "1 2"
check_fail "dev set max_classes below what the device has" 1 \
	"max_classes is below the classes the device has: delete some first" \
	in_ns pacerctl dev set dev pacer0 max_classes 2
check_fail "dev set max_rules above the module parameter" 1 \
	"max_rules is above the module parameter max_rules" \
	in_ns pacerctl dev set dev pacer0 max_rules 131073
check_fail "dev set max_memory above the module parameter" 1 \
	"max_memory is above the module parameter max_memory" \
	in_ns pacerctl dev set dev pacer0 max_memory 65m
check_fail "dev set max_memory below 1m" 2 \
	"invalid max_memory \"1000k\": expected a size from 1m" \
	in_ns pacerctl dev set dev pacer0 max_memory 1000k
check_ok "dev set max_memory 32m" in_ns pacerctl dev set dev pacer0 max_memory 32m
check_eq "max_memory after dev set" "$(dev_field max_memory)" 33554432
check_fail "dev set max_classes 0" 2 "invalid max_classes \"0\": expected 1 to 65536" \
	in_ns pacerctl dev set dev pacer0 max_classes 0
check_fail "dev set with nothing to change" 2 "nothing to change" \
	in_ns pacerctl dev set dev pacer0
check_eq "caps unchanged by the refusals" \
	"$(dev_field max_classes)/$(dev_field max_rules)" 3/2
check_ok "dev set back up to the parameters" \
	in_ns pacerctl dev set dev pacer0 max_classes 65536 max_rules 131072

step "caps: the module parameters"
# Written with tee, whose message names the file (dash's echo says only
# "I/O error"); the value staying put is checked below.  The module
# refuses both with -ERANGE, but the write fails with EIO, as a refused
# value of any module's parameter does in the VM (acpi's ec_delay too).
check_fail "max_classes parameter 0" 1 "tee: $PARAMS/max_classes: " \
	sh -c "echo 0 | tee $PARAMS/max_classes >/dev/null"
check_fail "max_classes parameter 65537" 1 "tee: $PARAMS/max_classes: " \
	sh -c "echo 65537 | tee $PARAMS/max_classes >/dev/null"
check_eq "max_classes parameter unchanged" "$(cat "$PARAMS/max_classes")" 65536
echo 100 >"$PARAMS/max_classes"
pacer_add "$NS" pacer1
check_eq "a new device takes the parameter" \
	"$(in_ns pacerctl -j dev show dev pacer1 | json_get 0.max_classes)" 100
check_fail "dev set above the lowered parameter" 1 \
	"max_classes is above the module parameter max_classes" \
	in_ns pacerctl dev set dev pacer1 max_classes 101
echo 65536 >"$PARAMS/max_classes"

# tenant CMD: CMD as uid 65534 in a user and network namespace of its own
# (root there: CAP_NET_ADMIN over that namespace only).
tenant() {
	setpriv --reuid 65534 --regid 65534 --clear-groups \
		unshare -U -r -n sh -c "$1"
}

step "an unprivileged user in its own user namespace"
if ! tenant 'true' 2>"$TMPD/userns.err"; then
	skip "unprivileged user namespaces are not available: $(cat "$TMPD/userns.err")"
fi
echo 2000 >"$PARAMS/max_classes"
out=$(tenant 'ip link add up0 type pacer && pacerctl dev set dev up0 max_classes 2001;
	echo "rc=$?"; pacerctl -j dev show dev up0' 2>&1) || true
log "$out"
check_eq "the user can create a pacer device and read it (max_classes: the parameter, lowered to 2000)" \
	"$(echo "$out" | sed -n 's/.*"max_classes":\([0-9]*\).*/\1/p')" 2000
check_eq "the user cannot raise max_classes above the parameter" \
	"$(echo "$out" | grep -c 'max_classes is above the module parameter max_classes')" 1
check_eq "... and pacerctl says so with exit status 1" \
	"$(echo "$out" | grep -c '^rc=1$')" 1
echo 65536 >"$PARAMS/max_classes"

# The memory cgroup the tenant runs in.
CG=/sys/fs/cgroup
if [ ! -f "$CG/cgroup.controllers" ]; then
	mount -t cgroup2 none "$CG" 2>/dev/null ||
		skip "cannot mount cgroup2 on $CG"
fi
grep -qw memory "$CG/cgroup.controllers" ||
	skip "the memory controller is not available: $(cat "$CG/cgroup.controllers")"
echo +memory >"$CG/cgroup.subtree_control"
TCG=$CG/pacer-tenant-$$
# Where the tenant (uid 65534) may write.
TT=$(mktemp -d /tmp/pacer-tenant.XXXXXX)
chmod 777 "$TT"
cleanup_test() {
	[ -z "${TNS:-}" ] || ip netns del "$TNS" 2>/dev/null
	rmdir "$TCG" 2>/dev/null
	rm -rf "$TT"
}

# in_cgroup MAX SCRIPT: SCRIPT (sh, written to a file) run as the tenant
# in a fresh cgroup with memory.max MAX; prints its output, then
# "events_max N" and "events_oom_kill N".  At the limit a new process may
# not start: what SCRIPT does last should use builtins only.
in_cgroup() {
	rmdir "$TCG" 2>/dev/null || true
	mkdir "$TCG"
	echo "$1" >"$TCG/memory.max"
	printf '%s\n' "$2" >"$TT/script.sh"
	sh -c "echo \$\$ >$TCG/cgroup.procs; exec setpriv --reuid 65534 --regid 65534 --clear-groups unshare -U -r -n sh $TT/script.sh" 2>&1 || true
	echo "events_max $(awk '$1 == "max" { print $2 }' "$TCG/memory.events")"
	echo "events_oom_kill $(awk '$1 == "oom_kill" { print $2 }' "$TCG/memory.events")"
}

# What the cgroup is charged now (builtins).  The host's MemAvailable is
# sampled by root, from outside the cgroup.
PEEK="read -r cur <$TCG/memory.current; echo \"current \$cur\""

field_of() {	# field_of NAME OUTPUT: the Nth (last) value printed as "NAME V"
	echo "$2" | sed -n "s/^$1 \([0-9]*\).*/\1/p" | tail -n 1
}

step "memory: idle classes, then classes with traffic, charged to the tenant's cgroup"
# The debug kernel forks and pings ~10x slower: a quarter of the classes.
if [ "$IS_DEBUG" = 1 ]; then
	N=500
	ACTIVE=250
else
	N=2000
	ACTIVE=1000
fi
# The tenant's own veth pair: a ping from va to each class's address (va
# does no ARP: its frames reach vb addressed to va itself) is redirected
# at vb's ingress to up0, where rule i sends it to class i.  The tenant cannot
# load modules: root loads what tc needs.
modprobe -a sch_ingress cls_matchall act_mirred
awk -v n="$N" 'BEGIN { for (i = 1; i <= n; i++) {
	printf "class add dev up0 id %d rate 1mbit\n", i
	printf "rule add dev up0 pref %d dst 10.9.%d.%d/32 class %d\n",
		i, 1 + int((i - 1) / 250), 1 + (i - 1) % 250, i } }' >"$TT/classes"
# One batch (one process, one socket), then a pause for RCU: what the
# cgroup is charged then is the classes, not processes' leftovers
# (sockets are freed after a grace period).
out=$(in_cgroup 256M "ip link set lo up
ip link add up0 type pacer && ip link set up0 up || exit 1
ip link add va type veth peer name vb || exit 1
ip link set va arp off up && ip link set vb up && ip addr add 10.9.0.1/16 dev va || exit 1
tc qdisc add dev vb ingress || exit 1
tc filter add dev vb parent ffff: matchall action mirred egress redirect dev up0 || exit 1
sleep 1
$PEEK
# -b stops at the first failing line, with a non-zero status.
if pacerctl -b $TT/classes >/dev/null; then echo \"created $N\"; else echo \"created 0\"; fi
sleep 1
$PEEK
i=1
while [ \$i -le $ACTIVE ]; do
	ping -n -q -c 1 -W 1 10.9.\$((1 + (i - 1) / 250)).\$((1 + (i - 1) % 250)) >/dev/null 2>&1 &
	[ \$((i % 100)) != 0 ] || wait
	i=\$((i + 1))
done
wait
pacerctl -j -s dev show dev up0 | sed -n 's/.*\"rx_packets\":\([0-9]*\).*/rx \1/p'
sleep 1
$PEEK")
log "$out"
created=$(field_of created "$out")
cur=$(echo "$out" | sed -n 's/^current \([0-9]*\)/\1/p')
before=$(echo "$cur" | sed -n 1p)
idle=$(echo "$cur" | sed -n 2p)
active=$(echo "$cur" | sed -n 3p)
check_eq "classes (each with a rule) created under memory.max 256M" "$created" "$N"
check_ge "premise: packets up0 received from the pings (one per active class)" \
	"$(field_of rx "$out")" "$ACTIVE"
for v in "$before" "$idle" "$active"; do
	is_uint "$v" || die "memory.current was not read each time: $cur"
done
per=$(( (idle - before) / N ))
log "charged per idle class and its rule: $per bytes"
ncpus=$(awk -F- '{ print ($2 == "" ? $1 : $2) + 1 }' /sys/devices/system/cpu/possible)
per_active=$(( (active - idle) / ACTIVE ))
log "charged per class on its first packet: $per_active bytes ($ncpus possible CPUs)"
# A class is 512 bytes of slab and its parameters 192; its state on each
# CPU (432 bytes) is allocated only when its first packet comes, in
# softirq, and charged to the cgroup that created the class.  Before
# pacer charged them, the growth was ~0.
check_ge "cgroup memory.current grew by >= 512 B an idle class" "$per" 512
check_ge "... and by >= 432 B per possible CPU a class with traffic" \
	"$per_active" $((432 * ncpus))
# The debug kernel's KASAN pads every object: its figure is only logged.
if [ "$IS_DEBUG" = 1 ]; then
	log "an idle class costs $per bytes on the debug kernel (KASAN's; not checked)"
else
	check_le "... and an idle class with its rule costs <= 1.5 KiB, whatever the CPUs" \
		"$per" 1536
fi

step "memory: a class's state, allocated at its first packet, stays within memory.max"
# The classes (each with a rule for an address of its own) are made under
# memory.max 256M; then root lowers memory.max to what the cgroup holds
# plus MARGIN, and one udp_flood sends to every class's address in turn.
# Each class's state on every CPU is allocated in softirq at its first
# packet: the cgroup must refuse what goes past its limit (the packet
# dropped as memory), not be charged past it (GFP_ATOMIC's __GFP_HIGH
# made the memory cgroup force such a charge).  Root reads memory.current
# once the flood is over, then raises the limit again for pacerctl.
MARGIN=$((1024 * 1024))
# Their state on every CPU needs well over MARGIN (432 bytes a CPU each).
NSTATE=4000
cp "$(dirname "$0")/udp_flood" "$TT/udp_flood"
chmod 755 "$TT/udp_flood"
# Class i's address is 10.9.0.0 + 1024 + i: one range from 10.9.4.1 on.
awk -v n="$NSTATE" 'BEGIN { for (i = 1; i <= n; i++) {
	printf "class add dev up0 id %d rate 10gbit\n", i
	printf "rule add dev up0 pref %d dst 10.9.%d.%d/32 class %d\n",
		i, int((1024 + i) / 256), (1024 + i) % 256, i } }' >"$TT/state_classes"
LAST=$((1024 + NSTATE))
LAST=10.9.$((LAST / 256)).$((LAST % 256))
# The tenant waits on FIFOs (read, a builtin): at the limit, a process
# it started to poll with might not get the memory to start.
rm -f "$TT/ready" "$TT/go" "$TT/go2"
mkfifo -m 666 "$TT/go" "$TT/go2"
in_cgroup 256M "ip link set lo up
ip link add up0 type pacer && ip link set up0 up || exit 1
ip link add va type veth peer name vb || exit 1
ip link set va arp off up && ip link set vb up && ip addr add 10.9.0.1/16 dev va || exit 1
tc qdisc add dev vb ingress || exit 1
tc filter add dev vb parent ffff: matchall action mirred egress redirect dev up0 || exit 1
pacerctl -b $TT/state_classes >/dev/null || { echo 'classes: failed'; exit 1; }
sleep 1
: >$TT/ready
read -r go <$TT/go
$TT/udp_flood 0 5000 10.9.4.1-$LAST 9 120
read -r go <$TT/go2" \
	>"$TT/out" 2>&1 &
tenant=$!
wait_for 120 test -e "$TT/ready" || die "the tenant did not make its classes: $(cat "$TT/out")"
# At the limit the memory cgroup may kill the tenant's shell (6.12 does):
# a name for the tenant's namespace keeps it, and up0, for the counters.
read -r shell <"$TCG/cgroup.procs"
TNS=pacer-tenant-$$
ip netns attach "$TNS" "$shell" || die "cannot name the tenant's network namespace"
sleep 1
read -r idle <"$TCG/memory.current"
echo $((idle + MARGIN)) >"$TCG/memory.max"
echo go >"$TT/go"
# The flood goes on until up0 has seen every class's address twice (the
# debug kernel takes ~10x as long as Debian's), then root stops it.  The
# cgroup's OOM killer may have ended it, or all of the tenant, before.
flood_pid() {
	while read -r p; do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" != udp_flood ] || echo "$p"
	done <"$TCG/cgroup.procs"
}
not_flooding() {
	[ -z "$(flood_pid)" ]
}
flood_done() {
	rx=$(ip netns exec "$TNS" pacerctl -j -s dev show dev up0 | json_get 0.stats.rx_packets)
	[ "${rx:-0}" -ge $((2 * NSTATE)) ] || not_flooding
}
wait_for 110 flood_done || die "up0 saw $rx packets of the flood in 110 s: $(cat "$TT/out")"
fp=$(flood_pid)
[ -z "$fp" ] || kill "$fp"
wait_for 10 not_flooding || die "udp_flood did not stop"
sleep 1
read -r cur <"$TCG/memory.current"
read -r max <"$TCG/memory.max"
echo 256M >"$TCG/memory.max"
log "memory.events after the flood: $(tr '\n' ' ' <"$TCG/memory.events")"
ip netns exec "$TNS" pacerctl -j -s dev show dev up0 >"$TT/dev.json"
ip netns del "$TNS"
timeout 10 sh -c "echo go >$TT/go2" ||
	log "the tenant's shell was gone (the cgroup's OOM killer's pick)"
wait "$tenant"
out=$(cat "$TT/out")
log "$out"
log "cgroup: $idle bytes with $NSTATE idle classes; memory.max then $max; after the flood $cur"
check_ge "premise: packets up0 received from the flood (one class an address)" \
	"$(json_get 0.stats.rx_packets <"$TT/dev.json")" "$NSTATE"
check_ge "premise: the classes' state could not all fit: packets dropped as memory" \
	"$(json_get 0.stats.dropped_memory <"$TT/dev.json")" 1
# A charge that fails without waiting is not counted in memory.events:
# the room the classes' state took up shows that the limit was reached.
check_ge "premise: the classes' state filled most of the room left (bytes)" \
	"$((cur - idle))" $((MARGIN / 2))
check_le "memory.current after the flood <= memory.max (nothing charged past it)" \
	"$cur" "$max"

step "memory: under memory.max 8M the tenant runs out of memory, not of a cap"
# Root samples MemAvailable from outside the cgroup while the tenant runs:
# the host's lowest figure is its peak, whichever process the cgroup's OOM
# killer picks (on 6.12 it has picked the tenant's shell itself).  The
# tenant's shell records each device it made in a file for the same
# reason.
mem0=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
rm -f "$TT/sampling" "$TT/devices"
module_param flows 8192
log_lines=$(dmesg | wc -l)
touch "$TT/sampling"
(
	low=$mem0
	while [ -e "$TT/sampling" ]; do
		while read -r key val unit; do
			[ "$key" != MemAvailable: ] || [ "$val" -ge "$low" ] || low=$val
		done </proc/meminfo
		sleep 0.05
	done
	echo "$low" >"$TT/memlow"
) &
sampler=$!
out=$(in_cgroup 8M "i=0
while [ \$i -lt 200 ]; do
	ip link add up\$i type pacer 2>$TT/err || break
	i=\$((i + 1))
	echo \$i >$TT/devices
done
read -r err <$TT/err
echo \"devices \$i error \$err\"
$PEEK")
rm -f "$TT/sampling"
wait "$sampler"
module_param_restore flows
log "$out"
created=$(field_of devices "$out")
if [ -z "$created" ]; then
	created=$(cat "$TT/devices" 2>/dev/null || echo 0)
	log "the tenant's shell did not finish (OOM-killed); it had made $created device(s)"
fi
events=$(field_of events_max "$out")
mem1=$(cat "$TT/memlow")
check_le "pacer devices created under memory.max 8M (each with its flow table)" \
	"${created:-999}" 40
check_ge "pacer devices created under memory.max 8M" "${created:-0}" 3
# The cgroup refuses either the device's allocation (ENOMEM, which ip
# reports) or, when the limit is hit first by ip's own pages, by killing
# ip or the tenant's shell (the cgroup's OOM killer; seen on the debug
# kernel, whose processes are larger, and on 6.12): both are the memory
# cgroup's refusal, not a cap's.
refused=$(echo "$out" | grep -c 'Cannot allocate memory' || true)
killed=$(field_of events_oom_kill "$out")
log "refusal: ENOMEM reported $refused time(s); the cgroup OOM-killed ${killed:-0} process(es)"
check_eq "the refusal is the memory cgroup's (ENOMEM or its OOM kill)" \
	$((refused + ${killed:-0} > 0)) 1
check_ge "memory.events max (the cgroup hit its limit)" "${events:-0}" 1
fell=$((mem0 - mem1))
log "host MemAvailable: $mem0 kB before, $mem1 kB at its lowest while the tenant ran"
check_le "host MemAvailable fell by (kB, at the tenant's peak) <= 8M + 8M" \
	"$fell" $(((8 + 8) * 1024))
# A tenant at its limit must not be able to fill the kernel log.
warned=$(dmesg | tail -n +$((log_lines + 1)) |
	grep -E 'allocation failure|vmalloc error|Call Trace' || true)
check_eq "kernel log lines about the refused allocations" "${warned:-none}" none

ksft_exit
