#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The device's life: module load, create, up/down, several devices, the
# same name in two namespaces, rtnl validation, ethtool -i, module
# autoload by "ip link add" and by pacerctl, and rmmod with devices in two
# namespaces deleting them all.
#
#   +---------------- NS1 ----------------+   +------- NS2 -------+
#   | pacer0  pacer1  pacer2  pacer3      |   | pacer0            |
#   +-------------------------------------+   +-------------------+
#              rmmod pacer: all of them gone, in both
#
. "$(dirname "$0")/lib.sh"

require modprobe rmmod lsmod modinfo ethtool pacerctl

# pacer_count NS: how many pacer devices NS has, as rtnetlink says.
pacer_count() {
	ip -n "$1" -d -j link show | json_each linkinfo.info_kind |
		awk '$0 == "pacer" { n++ } END { print n + 0 }'
}

# link_field NS DEV PATH: a field of "ip -d -j link show DEV" (".mtu").
link_field() {
	ip -n "$1" -d -j link show dev "$2" | json_get "0$3"
}

# has_flag NS DEV FLAG: DEV has FLAG (UP, NOARP, ...).
has_flag() {
	ip -n "$1" -j link show dev "$2" | json_flat |
		awk -F '\t' -v f="$3" '$1 ~ /^0[.]flags[.]/ && $2 == f { x = 1 } END { exit !x }'
}

# pacerctl_names NS: the devices pacerctl lists, sorted, on one line.
pacerctl_names() {
	ip netns exec "$1" pacerctl -j dev show | json_each ifname | sort | words
}

step "modprobe pacer"
load_pacer
check_eq "lsmod lists pacer after modprobe" "$(lsmod_has pacer && echo yes)" yes
version=$(modinfo -F version pacer)
# tools/version: the release, and the commit it was built from in git.
check_eq "modinfo version $version is MAJOR.MINOR.PATCH[+COUNT.gCOMMIT][+dirty]" \
	"$(echo "$version" | grep -cE '^[0-9]+\.[0-9]+\.[0-9]+(\+[0-9]+\.g[0-9a-f]+)?(\+dirty)?$')" 1
check_eq "pacerctl -V names the module's version" \
	"$(pacerctl -V | grep -cF "$version")" 1

setup_ns NS1 NS2

step "create pacer0"
ip -n "$NS1" link add pacer0 type pacer
check_eq "pacer0 kind" "$(link_field "$NS1" pacer0 .linkinfo.info_kind)" pacer
check_eq "pacer0 txqueuelen (no queue bound: a class's limit is) defaults to 1000" \
	"$(link_field "$NS1" pacer0 .txqlen)" 1000
check_eq "pacer0 starts down" "$(has_flag "$NS1" pacer0 UP && echo up || echo down)" down
check_eq "pacer0 is NOARP" "$(has_flag "$NS1" pacer0 NOARP && echo yes)" yes
check_eq "pacer0 has no qdisc (IFF_NO_QUEUE)" "$(link_field "$NS1" pacer0 .qdisc)" noop

step "up and down"
ip -n "$NS1" link set pacer0 up
check_eq "pacer0 up" "$(has_flag "$NS1" pacer0 UP && echo up || echo down)" up
check_eq "pacer0 qdisc once up" "$(link_field "$NS1" pacer0 .qdisc)" noqueue
ip -n "$NS1" link set pacer0 down
check_eq "pacer0 down" "$(has_flag "$NS1" pacer0 UP && echo up || echo down)" down
ip -n "$NS1" link set pacer0 up
ip -n "$NS1" link set pacer0 txqueuelen 64
check_eq "txqueuelen can be changed" "$(link_field "$NS1" pacer0 .txqlen)" 64
ip -n "$NS1" link set pacer0 mtu 9000
check_eq "mtu can be raised" "$(link_field "$NS1" pacer0 .mtu)" 9000
# A class's DRR quantum is one frame in an s32: the MTU stays 68 to 65535.
check_fail "mtu 67 (below the minimum)" 2 "mtu less than device minimum" \
	ip -n "$NS1" link set pacer0 mtu 67
check_fail "mtu 65536 (above the maximum)" 2 "mtu greater than device maximum" \
	ip -n "$NS1" link set pacer0 mtu 65536
check_ok "mtu 68" ip -n "$NS1" link set pacer0 mtu 68
check_ok "mtu 65535" ip -n "$NS1" link set pacer0 mtu 65535
check_eq "mtu after the refusals" "$(link_field "$NS1" pacer0 .mtu)" 65535
ip -n "$NS1" link set pacer0 mtu 1500

step "ethtool -i"
drv=$(ip netns exec "$NS1" ethtool -i pacer0)
log "$drv"
check_eq "ethtool -i driver" "$(echo "$drv" | sed -n 's/^driver: //p')" pacer
check_eq "ethtool -i version = modinfo version" \
	"$(echo "$drv" | sed -n 's/^version: //p')" "$version"
check_eq "ethtool -i supports-statistics" \
	"$(echo "$drv" | sed -n 's/^supports-statistics: //p')" yes

step "rtnl validation of the MAC address"
check_fail "multicast address refused at creation" 2 \
	"MAC address must be a valid unicast address" \
	ip -n "$NS1" link add x address 01:00:00:00:00:01 type pacer
check_eq "no device x after the refused creation" \
	"$(ip -n "$NS1" link show dev x >/dev/null 2>&1 && echo present || echo absent)" absent
check_fail "all-zero address refused at creation" 2 \
	"MAC address must be a valid unicast address" \
	ip -n "$NS1" link add x address 00:00:00:00:00:00 type pacer
ip -n "$NS1" link set pacer0 down
check_fail "multicast address refused on an existing device" 2 \
	"Cannot assign requested address" \
	ip -n "$NS1" link set pacer0 address 01:00:00:00:00:01
ip -n "$NS1" link set pacer0 address 02:00:00:00:00:10
check_eq "unicast address taken by an existing device" \
	"$(link_field "$NS1" pacer0 .address)" 02:00:00:00:00:10
ip -n "$NS1" link set pacer0 up
ip -n "$NS1" link add pacer9 address 02:00:00:00:00:09 type pacer
check_eq "unicast address taken at creation" \
	"$(link_field "$NS1" pacer9 .address)" 02:00:00:00:00:09
ip -n "$NS1" link del pacer9

step "several devices"
for i in 1 2 3; do
	pacer_add "$NS1" "pacer$i"
done
check_eq "4 pacer devices in NS1 (rtnetlink)" "$(pacer_count "$NS1")" 4
check_eq "pacerctl lists the same 4" "$(pacerctl_names "$NS1")" \
	'pacer0 pacer1 pacer2 pacer3'
ip -n "$NS1" link del pacer2
check_eq "3 left after deleting pacer2" "$(pacer_count "$NS1")" 3
check_eq "pacerctl lists the same 3" "$(pacerctl_names "$NS1")" \
	'pacer0 pacer1 pacer3'
ip -n "$NS1" link set pacer3 down
ip -n "$NS1" link set pacer3 name renamed3
check_eq "pacerctl follows a rename" "$(pacerctl_names "$NS1")" \
	'pacer0 pacer1 renamed3'

step "the same name in a second namespace"
pacer_add "$NS2" pacer0
check_eq "pacer0 in NS2" "$(pacerctl_names "$NS2")" pacer0
check_eq "NS1 still has its 3" "$(pacer_count "$NS1")" 3

step "rmmod pacer with devices in two namespaces"
rmmod pacer
check_eq "lsmod has no pacer after rmmod" "$(lsmod_has pacer && echo yes || echo no)" no
check_eq "no pacer device left in NS1" "$(pacer_count "$NS1")" 0
check_eq "no pacer device left in NS2" "$(pacer_count "$NS2")" 0
check_eq "pacer0 gone from NS2" \
	"$(ip -n "$NS2" link show dev pacer0 >/dev/null 2>&1 && echo present || echo absent)" absent

step "ip link add loads the module (MODULE_ALIAS_RTNL_LINK)"
check_ok "ip link add after rmmod" ip -n "$NS1" link add pacer0 type pacer
check_eq "lsmod lists pacer again" "$(lsmod_has pacer && echo yes || echo no)" yes
check_eq "the new pacer0 exists" "$(pacer_count "$NS1")" 1

step "pacerctl loads the module (MODULE_ALIAS_GENL_FAMILY)"
rmmod pacer
check_eq "unloaded" "$(lsmod_has pacer && echo yes || echo no)" no
check_eq "pacerctl dev show after rmmod lists nothing" \
	"$(ip netns exec "$NS1" pacerctl -j dev show)" "[]"
check_eq "lsmod lists pacer after pacerctl" "$(lsmod_has pacer && echo yes || echo no)" yes

step "delete everything, reload"
pacer_add "$NS1" pacer0
pacer_add "$NS2" pacer0
ip -n "$NS1" link del pacer0
ip -n "$NS2" link del pacer0
check_eq "NS1 empty" "$(pacer_count "$NS1")" 0
check_eq "NS2 empty" "$(pacer_count "$NS2")" 0
rmmod pacer
check_ok "modprobe pacer again" modprobe pacer
pacer_add "$NS1" pacer0
check_eq "a device after the reload" "$(pacerctl_names "$NS1")" pacer0

ksft_exit
