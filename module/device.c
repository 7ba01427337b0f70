// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: the net_device.
 *
 * tc mirred redirects packets to the device; its xmit queues them and a
 * NAPI context re-injects them where they came from, in softirq context and
 * with a budget, the way drivers/net/ifb.c does it: back into the receive
 * path of the original device for packets taken at ingress, out through the
 * original device for packets taken at egress.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/netfilter_netdev.h>
#include <net/rtnetlink.h>

#include "pacer.h"

#if !IS_ENABLED(CONFIG_NET_REDIRECT)
#error "pacer needs CONFIG_NET_REDIRECT: without it tc mirred does not mark redirected packets"
#endif

#define PACER_FEATURES (NETIF_F_HW_CSUM | NETIF_F_SG | NETIF_F_FRAGLIST | \
			NETIF_F_GSO_SOFTWARE | NETIF_F_GSO_ENCAP_ALL | \
			NETIF_F_HIGHDMA | NETIF_F_HW_VLAN_CTAG_TX | \
			NETIF_F_HW_VLAN_STAG_TX)

static void pacer_count_rx(struct pacer_dev *pd, unsigned int len)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->rx_packets);
	u64_stats_add(&s->rx_bytes, len);
	u64_stats_update_end(&s->syncp);
}

static void pacer_count_tx(struct pacer_dev *pd, unsigned int len)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->tx_packets);
	u64_stats_add(&s->tx_bytes, len);
	u64_stats_update_end(&s->syncp);
}

static void pacer_drop(struct pacer_dev *pd, struct sk_buff *skb,
		       enum pacer_drop_reason reason)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->drops[reason]);
	u64_stats_update_end(&s->syncp);
	kfree_skb(skb);
}

/**
 * pacer_get_stats() - sum the per-CPU counters and read the backlog
 * @pd: the device
 * @st: filled with the totals
 *
 * Context: any; takes the queue lock with BH disabled.
 */
void pacer_get_stats(struct pacer_dev *pd, struct pacer_stats *st)
{
	int cpu, i;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct pacer_pcpu_stats *s = per_cpu_ptr(pd->stats, cpu);
		u64 rx_packets, rx_bytes, tx_packets, tx_bytes;
		u64 drops[PACER_DROP_MAX];
		unsigned int start;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			rx_packets = u64_stats_read(&s->rx_packets);
			rx_bytes = u64_stats_read(&s->rx_bytes);
			tx_packets = u64_stats_read(&s->tx_packets);
			tx_bytes = u64_stats_read(&s->tx_bytes);
			for (i = 0; i < PACER_DROP_MAX; i++)
				drops[i] = u64_stats_read(&s->drops[i]);
		} while (u64_stats_fetch_retry(&s->syncp, start));

		st->rx_packets += rx_packets;
		st->rx_bytes += rx_bytes;
		st->tx_packets += tx_packets;
		st->tx_bytes += tx_bytes;
		for (i = 0; i < PACER_DROP_MAX; i++)
			st->drops[i] += drops[i];
	}

	spin_lock_bh(&pd->lock);
	st->backlog_packets = skb_queue_len(&pd->queue);
	st->backlog_bytes = pd->backlog_bytes;
	spin_unlock_bh(&pd->lock);
}

static netdev_tx_t pacer_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);
	unsigned int len = skb->len;

	pacer_count_rx(pd, len);

	/* Only tc mirred tells us where to send a packet back to. */
	if (!skb->redirected || !skb->skb_iif) {
		pacer_drop(pd, skb, PACER_DROP_NOT_REDIRECTED);
		return NETDEV_TX_OK;
	}

	/*
	 * ndo_stop flushes the queue after the core has stopped calling us
	 * (netif_running is cleared, then an RCU grace period); what still
	 * races in here must not be left behind in a stopped queue.
	 */
	if (unlikely(!netif_running(dev))) {
		pacer_drop(pd, skb, PACER_DROP_FLUSH);
		return NETDEV_TX_OK;
	}

	spin_lock(&pd->lock);
	if (skb_queue_len(&pd->queue) >= READ_ONCE(dev->tx_queue_len)) {
		spin_unlock(&pd->lock);
		pacer_drop(pd, skb, PACER_DROP_QUEUE_LIMIT);
		return NETDEV_TX_OK;
	}
	__skb_queue_tail(&pd->queue, skb);
	pd->backlog_bytes += len;
	spin_unlock(&pd->lock);

	napi_schedule(&pd->napi);
	return NETDEV_TX_OK;
}

/* Called with rcu_read_lock held; consumes @skb. */
static void pacer_reinject(struct pacer_dev *pd, struct sk_buff *skb)
{
	unsigned int len = skb->len;
	struct net_device *orig;

	/* Skip tc and netfilter egress so the packet is not redirected again. */
	skb->redirected = 0;
#ifdef CONFIG_NET_CLS_ACT
	skb->tc_skip_classify = 1;
#endif
	nf_skip_egress(skb, true);

	orig = dev_get_by_index_rcu(dev_net(pd->dev), skb->skb_iif);
	if (unlikely(!orig)) {
		pacer_drop(pd, skb, PACER_DROP_REINJECT);
		return;
	}
	skb->dev = orig;
	skb->skb_iif = pd->dev->ifindex;
	pacer_count_tx(pd, len);

	if (skb->from_ingress) {
		skb_pull_rcsum(skb, skb->mac_len);
		netif_receive_skb(skb);
	} else {
		dev_queue_xmit(skb);
	}
}

static int pacer_poll(struct napi_struct *napi, int budget)
{
	struct pacer_dev *pd = container_of(napi, struct pacer_dev, napi);
	struct sk_buff_head batch;
	struct sk_buff *skb;
	int done = 0;

	/*
	 * Take the batch out under the lock and re-inject outside it: the
	 * receive or transmit path we call into may come back to our xmit.
	 */
	__skb_queue_head_init(&batch);
	spin_lock(&pd->lock);
	while (done < budget && (skb = __skb_dequeue(&pd->queue))) {
		pd->backlog_bytes -= skb->len;
		__skb_queue_tail(&batch, skb);
		done++;
	}
	spin_unlock(&pd->lock);

	rcu_read_lock();
	while ((skb = __skb_dequeue(&batch)))
		pacer_reinject(pd, skb);
	rcu_read_unlock();

	if (done < budget)
		napi_complete_done(napi, done);
	return done;
}

static void pacer_flush(struct pacer_dev *pd)
{
	struct sk_buff_head flushed;
	struct sk_buff *skb;

	__skb_queue_head_init(&flushed);
	spin_lock_bh(&pd->lock);
	skb_queue_splice_init(&pd->queue, &flushed);
	pd->backlog_bytes = 0;
	spin_unlock_bh(&pd->lock);

	/* pacer_drop() counts on this CPU's counters: keep BHs out. */
	local_bh_disable();
	while ((skb = __skb_dequeue(&flushed)))
		pacer_drop(pd, skb, PACER_DROP_FLUSH);
	local_bh_enable();
}

static int pacer_open(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);

	napi_enable(&pd->napi);
	netif_start_queue(dev);
	return 0;
}

static int pacer_stop(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);

	netif_stop_queue(dev);
	napi_disable(&pd->napi);
	pacer_flush(pd);
	return 0;
}

static void pacer_get_stats64(struct net_device *dev,
			      struct rtnl_link_stats64 *stats)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_stats st;

	pacer_get_stats(pd, &st);
	stats->rx_packets = st.rx_packets;
	stats->rx_bytes = st.rx_bytes;
	stats->tx_packets = st.tx_packets;
	stats->tx_bytes = st.tx_bytes;
	stats->rx_dropped = st.drops[PACER_DROP_NOT_REDIRECTED];
	stats->tx_dropped = st.drops[PACER_DROP_QUEUE_LIMIT] +
			    st.drops[PACER_DROP_REINJECT] +
			    st.drops[PACER_DROP_FLUSH];
}

static int pacer_dev_init(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);

	pd->stats = netdev_alloc_pcpu_stats(struct pacer_pcpu_stats);
	if (!pd->stats)
		return -ENOMEM;
	pd->dev = dev;
	spin_lock_init(&pd->lock);
	__skb_queue_head_init(&pd->queue);
	netif_napi_add(dev, &pd->napi, pacer_poll);
	return 0;
}

static void pacer_dev_uninit(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);

	netif_napi_del(&pd->napi);
}

/* Runs once nobody can reach the device any more, so stats readers are gone. */
static void pacer_dev_free(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);

	__skb_queue_purge(&pd->queue);
	free_percpu(pd->stats);
	pd->stats = NULL;
}

static const struct net_device_ops pacer_netdev_ops = {
	.ndo_init		= pacer_dev_init,
	.ndo_uninit		= pacer_dev_uninit,
	.ndo_open		= pacer_open,
	.ndo_stop		= pacer_stop,
	.ndo_start_xmit		= pacer_xmit,
	.ndo_get_stats64	= pacer_get_stats64,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

/* ethtool -S: the device totals, one name per counter. */
static const char pacer_ethtool_names[][ETH_GSTRING_LEN] = {
	"rx_packets",
	"rx_bytes",
	"tx_packets",
	"tx_bytes",
	"dropped_not_redirected",
	"dropped_queue_limit",
	"dropped_reinject",
	"dropped_flush",
	"backlog_packets",
	"backlog_bytes",
};

static void pacer_get_drvinfo(struct net_device *dev,
			      struct ethtool_drvinfo *info)
{
	strscpy(info->driver, KBUILD_MODNAME, sizeof(info->driver));
	strscpy(info->version, PACER_VERSION, sizeof(info->version));
}

static int pacer_get_sset_count(struct net_device *dev, int sset)
{
	return sset == ETH_SS_STATS ? ARRAY_SIZE(pacer_ethtool_names) :
				      -EOPNOTSUPP;
}

static void pacer_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	if (sset == ETH_SS_STATS)
		memcpy(data, pacer_ethtool_names, sizeof(pacer_ethtool_names));
}

static void pacer_get_ethtool_stats(struct net_device *dev,
				    struct ethtool_stats *estats, u64 *data)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_stats st;

	pacer_get_stats(pd, &st);
	*data++ = st.rx_packets;
	*data++ = st.rx_bytes;
	*data++ = st.tx_packets;
	*data++ = st.tx_bytes;
	*data++ = st.drops[PACER_DROP_NOT_REDIRECTED];
	*data++ = st.drops[PACER_DROP_QUEUE_LIMIT];
	*data++ = st.drops[PACER_DROP_REINJECT];
	*data++ = st.drops[PACER_DROP_FLUSH];
	*data++ = st.backlog_packets;
	*data++ = st.backlog_bytes;
}

static const struct ethtool_ops pacer_ethtool_ops = {
	.get_drvinfo		= pacer_get_drvinfo,
	.get_link		= ethtool_op_get_link,
	.get_sset_count		= pacer_get_sset_count,
	.get_strings		= pacer_get_strings,
	.get_ethtool_stats	= pacer_get_ethtool_stats,
};

static void pacer_setup(struct net_device *dev)
{
	ether_setup(dev);
	dev->netdev_ops = &pacer_netdev_ops;
	dev->ethtool_ops = &pacer_ethtool_ops;

	/* Our queue is the only queue, so its counters tell the whole story. */
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->priv_flags &= ~IFF_TX_SKB_SHARING;
	dev->tx_queue_len = 1000;

	/* Our own lock protects the queue; the core's tx lock would add nothing. */
	dev->features |= PACER_FEATURES | NETIF_F_LLTX;
	dev->hw_features |= PACER_FEATURES;
	dev->hw_enc_features |= PACER_FEATURES;
	dev->vlan_features |= PACER_FEATURES & ~(NETIF_F_HW_VLAN_CTAG_TX |
						 NETIF_F_HW_VLAN_STAG_TX);

	dev->flags |= IFF_NOARP;
	dev->flags &= ~IFF_MULTICAST;
	netif_keep_dst(dev);
	eth_hw_addr_random(dev);
	dev->needs_free_netdev = true;
	dev->priv_destructor = pacer_dev_free;
	dev->min_mtu = 0;
	dev->max_mtu = 0;
}

static int pacer_validate(struct nlattr *tb[], struct nlattr *data[],
			  struct netlink_ext_ack *extack)
{
	if (tb[IFLA_ADDRESS]) {
		if (nla_len(tb[IFLA_ADDRESS]) != ETH_ALEN) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_ADDRESS],
					    "MAC address must be 6 bytes");
			return -EINVAL;
		}
		if (!is_valid_ether_addr(nla_data(tb[IFLA_ADDRESS]))) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_ADDRESS],
					    "MAC address must be a valid unicast address");
			return -EADDRNOTAVAIL;
		}
	}
	return 0;
}

struct rtnl_link_ops pacer_link_ops __read_mostly = {
	.kind		= "pacer",
	.priv_size	= sizeof(struct pacer_dev),
	.setup		= pacer_setup,
	.validate	= pacer_validate,
};

/**
 * pacer_is_dev() - tell whether a net_device is a pacer device
 * @dev: any net_device
 *
 * Return: true if @dev was created by this module.
 */
bool pacer_is_dev(const struct net_device *dev)
{
	return dev->rtnl_link_ops == &pacer_link_ops;
}

/**
 * pacer_device_init() - register the "pacer" link type
 *
 * Return: 0 or a negative errno.
 */
int pacer_device_init(void)
{
	return rtnl_link_register(&pacer_link_ops);
}

/**
 * pacer_device_exit() - unregister the link type, deleting every device
 */
void pacer_device_exit(void)
{
	rtnl_link_unregister(&pacer_link_ops);
}
