// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: ECN marking, in headers pacer has located itself.
 *
 * The network header offset the core leaves in an skb is not the IP header
 * of every frame pacer sees: for a QinQ frame taken at ingress the core
 * moves the outer tag into skb->vlan_tci and leaves the network header on
 * the inner tag, and INET_ECN_set_ce() would edit that tag as if it were
 * IP.  So the IP header is found from the frame's start: the Ethernet
 * header, then up to PACER_VLAN_DEPTH 802.1Q/802.1ad tags, then IPv4 or
 * IPv6 with its version checked.  Anything else - MPLS, PPPoE, other
 * link layers, truncated headers - is left exactly as it came.
 *
 * A GSO packet's segments carry copies of its IP header, so one mark
 * reaches them all - but for GRO's fraglist packets, whose segments are
 * the packets GRO chained, each with its own IP header: those are marked
 * one by one.
 */
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/skbuff.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>

#include "ecn.h"
#include "testing.h"

/* More tags than a provider bridge stacks: no such frame is ours to edit. */
#define PACER_VLAN_DEPTH	4

/*
 * ECT(0), ECT(1) (L4S senders use it) or CE already; INET_ECN_is_capable()
 * tests the ECT(0) bit only.
 */
static bool pacer_ecn_capable(u8 dsfield)
{
	return (dsfield & INET_ECN_MASK) != INET_ECN_NOT_ECT;
}

/*
 * Offset of the network header behind the link layer, and its ethertype
 * in *@proto; -1 if the link layer is not one pacer understands.
 */
static int pacer_ecn_l3_offset(const struct sk_buff *skb, __be16 *proto)
{
	__be16 _p;
	const __be16 *p;
	int off, depth;

	/* A frame from an L3 device (tun, wireguard): the IP header is first. */
	if (skb->dev->type != ARPHRD_ETHER &&
	    skb->dev->type != ARPHRD_LOOPBACK) {
		if (skb_network_offset(skb) != 0)
			return -1;
		*proto = skb->protocol;
		return 0;
	}
	if (skb_mac_header_was_set(skb) && skb_mac_offset(skb) != 0)
		return -1;

	p = skb_header_pointer(skb, ETH_HLEN - sizeof(_p), sizeof(_p), &_p);
	if (!p)
		return -1;
	off = ETH_HLEN;
	for (depth = 0; eth_type_vlan(*p); depth++) {
		if (depth == PACER_VLAN_DEPTH)
			return -1;
		/* The tag's encapsulated protocol follows its TCI. */
		p = skb_header_pointer(skb, off + sizeof(__be16), sizeof(_p),
				       &_p);
		if (!p)
			return -1;
		off += VLAN_HLEN;
	}
	*proto = *p;
	return off;
}

/*
 * The IP header of @skb: its offset in *@off, its protocol in *@proto and
 * its DS field in *@dsfield.  False if pacer understands none.
 */
static bool pacer_ecn_find(const struct sk_buff *skb, int *off, __be16 *proto,
			   u8 *dsfield)
{
	*off = pacer_ecn_l3_offset(skb, proto);
	if (*off < 0)
		return false;

	if (*proto == htons(ETH_P_IP)) {
		const struct iphdr *iph;
		struct iphdr _iph;

		iph = skb_header_pointer(skb, *off, sizeof(_iph), &_iph);
		if (!iph || iph->version != 4 || iph->ihl < 5 ||
		    *off + iph->ihl * 4 > skb->len)
			return false;
		*dsfield = iph->tos;
		return true;
	}
	if (*proto == htons(ETH_P_IPV6)) {
		const struct ipv6hdr *ip6h;
		struct ipv6hdr _ip6h;

		ip6h = skb_header_pointer(skb, *off, sizeof(_ip6h), &_ip6h);
		if (!ip6h || ip6h->version != 6)
			return false;
		*dsfield = ipv6_get_dsfield(ip6h);
		return true;
	}
	return false;
}

/**
 * pacer_ecn_peek() - what pacer_ecn_mark() would do, without doing it
 * @skb: the packet, as for pacer_ecn_mark()
 *
 * Return: %PACER_ECN_MARKED if the packet is ECN-capable (or CE already),
 * %PACER_ECN_NOT_ECT if it is IP but not ECN-capable, %PACER_ECN_UNPARSED
 * if no IP header was found.
 */
enum pacer_ecn_result pacer_ecn_peek(const struct sk_buff *skb)
{
	__be16 proto;
	u8 dsfield;
	int off;

	if (!pacer_ecn_find(skb, &off, &proto, &dsfield))
		return PACER_ECN_UNPARSED;
	return pacer_ecn_capable(dsfield) ? PACER_ECN_MARKED :
					    PACER_ECN_NOT_ECT;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_ecn_peek);

/* A GSO packet whose segments are its frag_list members (GRO's fraglist). */
static bool pacer_ecn_fraglist(const struct sk_buff *skb)
{
	return skb_is_gso(skb) && skb_has_frag_list(skb) &&
	       (skb_shinfo(skb)->gso_type & SKB_GSO_FRAGLIST);
}

/*
 * Mark the members of a fraglist GSO packet (GRO with rx-gro-list, and
 * forwarded): skb_segment_list() makes each member a segment with the IP
 * header it arrived with, and copies only the link-layer header from the
 * head, so the head's mark alone would reach one segment of up to 64.  A
 * member the head shares with a clone is replaced by a copy of its own.
 * @skb is unshared.  A member that cannot be made writable (no memory)
 * ends the walk: the head, and the members before it, carry the mark.
 */
static void pacer_ecn_mark_members(struct sk_buff *skb, __be16 proto)
{
	struct sk_buff **link = &skb_shinfo(skb)->frag_list;
	struct sk_buff *m, *n;
	unsigned char *nh;

	for (; (m = *link); link = &m->next) {
		if (skb_shared(m)) {
			n = skb_copy(m, GFP_ATOMIC);
			if (!n)
				return;
			n->next = m->next;
			*link = n;
			skb->truesize += n->truesize;
			skb->truesize -= m->truesize;
			consume_skb(m);
			m = n;
		} else if (skb_unclone(m, GFP_ATOMIC)) {
			return;
		}
		/* GRO pulled the member's headers into its linear area. */
		nh = skb_network_header(m);
		if (proto == htons(ETH_P_IP)) {
			struct iphdr *iph = (struct iphdr *)nh;

			if (nh + sizeof(*iph) <= skb_tail_pointer(m) &&
			    iph->version == 4)
				IP_ECN_set_ce(iph);
		} else {
			struct ipv6hdr *ip6h = (struct ipv6hdr *)nh;

			/* As the head: the helper leaves Not-ECT alone. */
			if (nh + sizeof(*ip6h) <= skb_tail_pointer(m) &&
			    ip6h->version == 6)
				IP6_ECN_set_ce(m, ip6h);
		}
	}
}

/**
 * pacer_ecn_mark() - mark a packet CE if it is ECN-capable
 * @skb: the packet, data at its link-layer header, skb->dev the device it
 *	is about to be re-injected into
 *
 * Context: softirq; may reallocate the header of a cloned skb (GFP_ATOMIC).
 * Return: %PACER_ECN_MARKED if the packet is now CE, %PACER_ECN_NOT_ECT if
 * it is IP but not ECN-capable, %PACER_ECN_UNPARSED if no IP header was
 * found or the header could not be made writable; in the last two cases
 * the packet is unchanged.
 */
enum pacer_ecn_result pacer_ecn_mark(struct sk_buff *skb)
{
	bool fraglist;
	__be16 proto;
	u8 dsfield;
	int off;

	if (!pacer_ecn_find(skb, &off, &proto, &dsfield))
		return PACER_ECN_UNPARSED;
	if (!pacer_ecn_capable(dsfield))
		return PACER_ECN_NOT_ECT;
	fraglist = pacer_ecn_fraglist(skb);
	if (INET_ECN_is_ce(dsfield) && !fraglist)
		return PACER_ECN_MARKED;
	/* Its frag_list is relinked if a member is shared: no clone may see. */
	if (fraglist && skb_unclone(skb, GFP_ATOMIC))
		return PACER_ECN_UNPARSED;

	if (proto == htons(ETH_P_IP)) {
		if (skb_ensure_writable(skb, off + sizeof(struct iphdr)))
			return PACER_ECN_UNPARSED;
		/* Adjusts the header checksum: CHECKSUM_COMPLETE stays valid. */
		IP_ECN_set_ce((struct iphdr *)(skb->data + off));
	} else {
		if (skb_ensure_writable(skb, off + sizeof(struct ipv6hdr)))
			return PACER_ECN_UNPARSED;
		/* Also corrects skb->csum for CHECKSUM_COMPLETE. */
		IP6_ECN_set_ce(skb, (struct ipv6hdr *)(skb->data + off));
	}
	if (fraglist)
		pacer_ecn_mark_members(skb, proto);
	return PACER_ECN_MARKED;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_ecn_mark);
