// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: re-injection, the way drivers/net/ifb.c does it: back into the
 * receive path of the original device for packets taken at ingress, out
 * through the original device for packets taken at egress.  From a
 * shaper's NAPI poll, in softirq context and with a budget; and for a
 * packet taken at ingress that need not wait (class.c, pacer_class_pass())
 * from the device's xmit, nested as tc mirred nests its own redirects:
 * every level goes through dev_queue_xmit(), whose recursion limit bounds
 * the depth.
 *
 * Where tc mirred takes a redirect to a device it is already redirecting
 * to on this CPU for a loop (6.12), what the stack sends from inside a
 * nested receive could not come back to pacer: there a packet taken at
 * ingress goes through the CPU's backlog (netif_rx()), as a NIC's packet
 * does, from the poll as well as from the xmit, so that one FIFO per CPU
 * keeps what pacer re-injects there in order.
 */
#include <linux/netdevice.h>
#include <linux/netfilter_netdev.h>
#include <linux/skbuff.h>

#include "compat.h"
#include "queue.h"
#include "reinject.h"

/**
 * pacer_reinject_prepare() - make a packet ready to go back where it came
 *	from
 * @pacer: the pacer device
 * @skb: the packet
 *
 * A packet may wait in its class far longer than in ifb's queue (the
 * class's limit is 100 ms at least): its device may have gone down
 * meanwhile, and nothing would stop it there.  netif_receive_skb() hands
 * it to the stack of a device that is down, dev_queue_xmit() and
 * netif_rx() drop it in the kernel, after pacer counted it as sent.  tc
 * mirred drops a redirect to a device that is down; so does pacer, where
 * it is counted.
 *
 * Context: RCU read side; the caller re-injects under the same RCU section.
 * Return: false if the original device is gone or down (the caller drops
 * @skb).
 */
bool pacer_reinject_prepare(struct net_device *pacer, struct sk_buff *skb)
{
	struct net_device *orig;

	orig = dev_get_by_index_rcu(dev_net(pacer), skb->skb_iif);
	if (unlikely(!orig || !netif_running(orig)))
		return false;

	/* Skip tc and netfilter egress so the packet is not redirected again. */
	skb->redirected = 0;
	/* The bit is CONFIG_NET_XGRESS's from 6.6 on, which BPF alone selects. */
#if defined(CONFIG_NET_CLS_ACT) || defined(CONFIG_NET_XGRESS)
	skb->tc_skip_classify = 1;
#endif
	nf_skip_egress(skb, true);
	skb->dev = orig;
	skb->skb_iif = pacer->ifindex;
	return true;
}

/**
 * pacer_reinject() - send a prepared packet on its way
 * @skb: the packet, from pacer_reinject_prepare()
 *
 * Context: softirq, RCU read side.
 */
void pacer_reinject(struct sk_buff *skb)
{
	/* Our bookkeeping must not look like a qdisc's to whoever is next. */
	memset(skb->cb, 0, sizeof(struct pacer_skb_cb));

	if (!skb->from_ingress) {
		dev_queue_xmit(skb);
		return;
	}
	skb_pull_rcsum(skb, skb->mac_len);
	/* The same answer pacer_class_may_pass() went by. */
	if (pacer_reinject_nests(skb))
		netif_receive_skb(skb);
	else
		netif_rx(skb);
}
