// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: reading a packet's headers, once, for its class and its flow.
 *
 * Nearly everything a gateway shapes is TCP or UDP straight over IPv4 or
 * IPv6.  pacer reads those headers itself: a few loads, where the
 * kernel's flow dissector walks a general protocol graph (VLANs, MPLS,
 * tunnels, extension headers) and costs a 60-byte packet about 1 % of its
 * whole way through the stack.  Everything else - a fragment, another
 * protocol, a tunnel, an extension header, a tag the core left in the
 * skb, a network namespace with a BPF flow dissector attached - goes to
 * the flow dissector.  Either way the keys are what
 * skb_flow_dissect_flow_keys() gives, byte for byte: rules and the flow
 * hash cannot tell which of the two read a packet (module/tests/kunit.c
 * holds them to that).
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/if_vlan.h>
#include <linux/skbuff.h>
#include <net/flow_dissector.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/net_namespace.h>
#include <net/sock.h>

#include "parse.h"
#include "testing.h"

/*
 * Where a BPF program is attached to the root namespace, or else to the
 * packet's own, the flow dissector runs it instead of its own code: a
 * packet there is left to the dissector, so that the program decides.
 */
static bool pacer_parse_bpf_attached(const struct sk_buff *skb)
{
#ifdef CONFIG_BPF_SYSCALL
	const enum netns_bpf_attach_type type = NETNS_BPF_FLOW_DISSECTOR;
	const struct net *net = NULL;

	if (rcu_access_pointer(init_net.bpf.run_array[type]))
		return true;
	/* The namespace the dissector would pick. */
	if (skb->dev)
		net = dev_net(skb->dev);
	else if (skb->sk)
		net = sock_net(skb->sk);
	if (net && rcu_access_pointer(net->bpf.run_array[type]))
		return true;
#endif
	return false;
}

/**
 * pacer_parse_plain() - read the headers of TCP or UDP straight over IP
 * @skb: the packet, network header set (as the flow dissector needs it)
 * @keys: filled as skb_flow_dissect_flow_keys(@skb, @keys, 0) would
 *
 * Return: false, with @keys undefined, for anything else.
 */
bool pacer_parse_plain(const struct sk_buff *skb, struct flow_keys *keys)
{
	int nhoff = skb_network_offset(skb);
	const __be32 *ports;
	__be32 ports_buf;
	u8 ip_proto;
	int thoff;

	if (skb_vlan_tag_present(skb) || pacer_parse_bpf_attached(skb))
		return false;

	memset(keys, 0, sizeof(*keys));
	switch (skb->protocol) {
	case htons(ETH_P_IP): {
		const struct iphdr *iph;
		struct iphdr iph_buf;

		iph = skb_header_pointer(skb, nhoff, sizeof(iph_buf), &iph_buf);
		/* The dissector does not look at the version either. */
		if (!iph || iph->ihl < 5 || ip_is_fragment(iph))
			return false;
		ip_proto = iph->protocol;
		thoff = nhoff + iph->ihl * 4;
		keys->addrs.v4addrs.src = iph->saddr;
		keys->addrs.v4addrs.dst = iph->daddr;
		keys->control.addr_type = FLOW_DISSECTOR_KEY_IPV4_ADDRS;
		break;
	}
	case htons(ETH_P_IPV6): {
		const struct ipv6hdr *ip6h;
		struct ipv6hdr ip6h_buf;

		ip6h = skb_header_pointer(skb, nhoff, sizeof(ip6h_buf),
					  &ip6h_buf);
		if (!ip6h)
			return false;
		ip_proto = ip6h->nexthdr;
		thoff = nhoff + sizeof(*ip6h);
		keys->addrs.v6addrs.src = ip6h->saddr;
		keys->addrs.v6addrs.dst = ip6h->daddr;
		keys->control.addr_type = FLOW_DISSECTOR_KEY_IPV6_ADDRS;
		/* Read by nobody in pacer; kept so that the keys are equal. */
		keys->tags.flow_label = ntohl(ip6_flowlabel(ip6h));
		break;
	}
	default:
		return false;
	}
	if (ip_proto != IPPROTO_TCP && ip_proto != IPPROTO_UDP)
		return false;
	/* Where the dissector gives ports of 0 or an unusable offset. */
	ports = skb_header_pointer(skb, thoff, sizeof(ports_buf), &ports_buf);
	if (!ports || thoff > U16_MAX)
		return false;
	keys->ports.ports = *ports;
	keys->control.thoff = thoff;
	keys->basic.n_proto = skb->protocol;
	keys->basic.ip_proto = ip_proto;
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_parse_plain);
