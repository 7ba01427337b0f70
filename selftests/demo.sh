#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make demo: one TCP flow through pacer0, then what pacer0 counted.  Not a
# test (run_tests skips it); it only fails if the setup does.
#
#   +------- client -------+            +------------- server --------------+
#   | iperf3 -c            |            |                        iperf3 -s  |
#   | veth0 10.0.9.1 ------+------------+-> veth1 10.0.9.2                  |
#   |                      |            |   ingress: matchall               |
#   |                      |            |   mirred redirect --> pacer0      |
#   |                      |            |   <-- re-injected ---'            |
#   +----------------------+            +-----------------------------------+
#
. "$(dirname "$0")/lib.sh"

require iperf3 pacerctl ethtool tc ss

DEMO_TIME=${DEMO_TIME:-10}
[ "$IS_DEBUG" = 0 ] || DEMO_TIME=5

cat <<EOF
pacer demo
==========
Two network namespaces, "client" and "server", joined by a veth pair.
Every packet arriving on the server's veth1 is redirected by tc (ingress
qdisc, matchall filter, mirred action) to pacer0, which queues it and
re-injects it into veth1's receive path, the way an ifb device does.
No pacing class is configured yet, so pacer0 passes everything at once.

A ${DEMO_TIME}-second iperf3 TCP flow goes from client to server; then you see
pacer0's counters as pacerctl, ethtool and ip report them.  Every packet
pacer0 received is accounted for:
    rx_packets = tx_packets + dropped_* + backlog_packets

EOF

setup_ns CLIENT SERVER
load_pacer
veth_pair "$CLIENT" veth0 10.0.9.1 "$SERVER" veth1 10.0.9.2
pacer_add "$SERVER" pacer0
redirect_ingress "$SERVER" veth1 pacer0
iperf_server "$SERVER" 10.0.9.2

echo "Setup, in the server's namespace:"
echo "    ip link add pacer0 type pacer && ip link set pacer0 up"
echo "    tc qdisc add dev veth1 handle ffff: ingress"
echo "    tc filter add dev veth1 parent ffff: matchall action mirred egress redirect dev pacer0"
echo
echo "== iperf3 -c 10.0.9.2 -t $DEMO_TIME (client namespace) =="
timeout $((DEMO_TIME + 20)) ip netns exec "$CLIENT" \
	iperf3 -c 10.0.9.2 -t "$DEMO_TIME" --format m |
	sed -n '/^\[ ID\]/,$p' | grep -v '^iperf Done'
wait_pacer_idle "$SERVER" pacer0 || true
echo
echo "== pacerctl -s dev show =="
ip netns exec "$SERVER" pacerctl -s dev show
echo
echo "== ethtool -S pacer0 =="
ip netns exec "$SERVER" ethtool -S pacer0
echo
echo "== ip -s link show pacer0 =="
ip -n "$SERVER" -s link show pacer0
echo
echo "(ip's RX dropped is dropped_not_redirected; its TX dropped is the sum"
echo " of every other dropped_* counter.)"
