// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: the net_device.
 *
 * tc mirred redirects packets to the device; its xmit classifies them and
 * hands them to their class, which queues them on this CPU's shaper (or
 * on the CPU that holds the rest of their flow).  Each CPU's shaper
 * (shaper.c) releases its packets from softirq context, with a budget,
 * and re-injects them where they came from (reinject.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/flow_dissector.h>
#include <net/rtnetlink.h>

#include "classify.h"
#include "compat.h"
#include "pacer.h"
#include "parse.h"

#if !IS_ENABLED(CONFIG_NET_REDIRECT)
#error "pacer needs CONFIG_NET_REDIRECT: without it tc mirred does not mark redirected packets"
#endif

#define PACER_FEATURES (NETIF_F_HW_CSUM | NETIF_F_SG | NETIF_F_FRAGLIST | \
			NETIF_F_GSO_SOFTWARE | NETIF_F_GSO_ENCAP_ALL | \
			NETIF_F_HIGHDMA | NETIF_F_HW_VLAN_CTAG_TX | \
			NETIF_F_HW_VLAN_STAG_TX)

/* What arrived less what left or was dropped, never below 0. */
static u64 pacer_backlog(u64 in, u64 out)
{
	return in > out ? in - out : 0;
}

/**
 * pacer_dev_get_stats() - sum the per-CPU totals
 * @pd: the device
 * @st: filled with the totals
 *
 * The backlog is what arrived less what left or was dropped: reading it
 * takes no lock the data path takes, whoever reads (/proc/net/dev is
 * world-readable) and however many classes there are.  It is exact once
 * traffic stops; under traffic the per-CPU sums are read one CPU at a
 * time, like every other counter here.
 *
 * Context: any.
 */
void pacer_dev_get_stats(struct pacer_dev *pd, struct pacer_dev_stats *st)
{
	u64 dropped_bytes = 0, dropped = 0;
	int cpu, i;

	memset(st, 0, sizeof(*st));
	for_each_possible_cpu(cpu) {
		const struct pacer_pcpu_stats *s = per_cpu_ptr(pd->stats, cpu);
		struct pacer_dev_stats c;
		unsigned int start;
		u64 c_dropped_bytes;

		do {
			start = u64_stats_fetch_begin(&s->syncp);
			c.rx_packets = u64_stats_read(&s->rx_packets);
			c.rx_bytes = u64_stats_read(&s->rx_bytes);
			c.tx_packets = u64_stats_read(&s->tx_packets);
			c.tx_bytes = u64_stats_read(&s->tx_bytes);
			c.delayed_packets = u64_stats_read(&s->delayed_packets);
			c.ecn_marked = u64_stats_read(&s->ecn_marked);
			c.ecn_unparsed = u64_stats_read(&s->ecn_unparsed);
			c.not_redirected = u64_stats_read(&s->not_redirected);
			for (i = 0; i <= PACER_DROP_MAX; i++)
				c.drops[i] = u64_stats_read(&s->drops[i]);
			c_dropped_bytes = u64_stats_read(&s->dropped_bytes);
		} while (u64_stats_fetch_retry(&s->syncp, start));

		st->rx_packets += c.rx_packets;
		st->rx_bytes += c.rx_bytes;
		st->tx_packets += c.tx_packets;
		st->tx_bytes += c.tx_bytes;
		st->delayed_packets += c.delayed_packets;
		st->ecn_marked += c.ecn_marked;
		st->ecn_unparsed += c.ecn_unparsed;
		st->not_redirected += c.not_redirected;
		for (i = 0; i <= PACER_DROP_MAX; i++)
			st->drops[i] += c.drops[i];
		dropped_bytes += c_dropped_bytes;
	}

	for (i = 0; i <= PACER_DROP_MAX; i++)
		dropped += st->drops[i];
	st->backlog_packets = pacer_backlog(st->rx_packets,
					    st->tx_packets + dropped +
					    st->not_redirected);
	st->backlog_bytes = pacer_backlog(st->rx_bytes,
					  st->tx_bytes + dropped_bytes);
}

/**
 * pacer_dev_get_cpu_stats() - what one CPU handed to the device and
 *	re-injected: each CPU re-injects the packets it received, but for
 *	those that joined their flow on another CPU
 * @pd: the device
 * @cpu: the CPU
 * @rx_packets: set to the packets handed to the device there
 * @tx_packets: set to the packets its shaper re-injected
 * @joined_packets: set to the packets that arrived there and joined their
 *	flow on another CPU
 */
void pacer_dev_get_cpu_stats(struct pacer_dev *pd, int cpu, u64 *rx_packets,
			     u64 *tx_packets, u64 *joined_packets)
{
	const struct pacer_pcpu_stats *s = per_cpu_ptr(pd->stats, cpu);
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&s->syncp);
		*rx_packets = u64_stats_read(&s->rx_packets);
		*tx_packets = u64_stats_read(&s->tx_packets);
		*joined_packets = u64_stats_read(&s->joined);
	} while (u64_stats_fetch_retry(&s->syncp, start));
}

/**
 * pacer_dev_classes_changed() - after a class's configuration changed:
 *	let every shaper look at its classes again
 * @pd: the device
 *
 * Context: process context.
 */
void pacer_dev_classes_changed(struct pacer_dev *pd)
{
	pacer_shapers_kick(pd);
}

static netdev_tx_t pacer_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_shaper *here;
	struct pacer_class *cl;
	struct flow_keys keys;

	/* Only tc mirred tells us where to send a packet back to. */
	if (!skb->redirected || !skb->skb_iif) {
		pacer_stats_rx(this_cpu_ptr(pd->stats), skb->len);
		pacer_stats_not_redirected(this_cpu_ptr(pd->stats), skb->len);
		/* Nowhere to go back to: pacer0 cannot handle it. */
		kfree_skb_reason(skb, SKB_DROP_REASON_DEV_READY);
		return NETDEV_TX_OK;
	}

	/*
	 * ndo_stop flushes the classes after the core has stopped calling us
	 * (netif_running is cleared, then an RCU grace period); what still
	 * races in here must not be left behind in a stopped device.
	 */
	if (unlikely(!netif_running(dev)))
		goto flush;
	pacer_parse(skb, &keys);
	cl = pacer_classify(pd, skb, &keys);
	here = this_cpu_ptr(pd->shapers);
	if (pacer_class_enqueue(cl, skb, pacer_flow_hash(pd, &keys, cl->id),
				here))
		napi_schedule(&here->napi);
	return NETDEV_TX_OK;

flush:
	pacer_drop_classless(pd, skb, PACER_DROP_FLUSH);
	return NETDEV_TX_OK;
}

static int pacer_open(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);

	pacer_shapers_start(pd);
	netif_start_queue(dev);
	return 0;
}

static int pacer_stop(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_class *cl;
	unsigned long id;

	netif_stop_queue(dev);
	pacer_shapers_stop(pd);
	xa_for_each(&pd->classes, id, cl)
		pacer_class_flush(cl);
	return 0;
}

/*
 * A class's DRR quantum and ceil bucket are one frame: they follow the MTU,
 * which is bounded so that a quantum always fits its s32 deficit.
 */
static int pacer_change_mtu(struct net_device *dev, int new_mtu)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_class *cl;
	unsigned long id;

	WRITE_ONCE(dev->mtu, new_mtu);
	xa_for_each(&pd->classes, id, cl)
		pacer_class_set_mtu(cl, new_mtu + ETH_HLEN);
	return 0;
}

static void pacer_get_stats64(struct net_device *dev,
			      struct rtnl_link_stats64 *stats)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_dev_stats st;
	int i;

	pacer_dev_get_stats(pd, &st);
	stats->rx_packets = st.rx_packets;
	stats->rx_bytes = st.rx_bytes;
	stats->tx_packets = st.tx_packets;
	stats->tx_bytes = st.tx_bytes;
	stats->rx_dropped = st.not_redirected;
	for (i = 0; i <= PACER_DROP_MAX; i++)
		stats->tx_dropped += st.drops[i];
}

static int pacer_dev_init(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);
	u32 nflows = READ_ONCE(pacer_flows);
	struct pacer_class_cfg cfg;
	struct pacer_class *cl;
	u32 i;
	int err;

	pd->dev = dev;
	get_random_bytes(&pd->flow_key, sizeof(pd->flow_key));
	xa_init(&pd->classes);
	pd->max_classes = READ_ONCE(pacer_max_classes);
	pd->max_rules = READ_ONCE(pacer_max_rules);
	pd->max_memory = READ_ONCE(pacer_max_memory);

	/* Whoever creates the device pays for it: charged to their memcg. */
	pd->stats = __netdev_alloc_pcpu_stats(struct pacer_pcpu_stats,
					      PACER_GFP);
	if (!pd->stats)
		return -ENOMEM;
	err = percpu_counter_init(&pd->mem, 0, PACER_GFP);
	if (err)
		goto err_stats;
	err = -ENOMEM;
	pd->rules = pacer_rules_create();
	if (!pd->rules)
		goto err_mem;
	pd->flows = kvzalloc(struct_size(pd->flows, flow, nflows), PACER_GFP);
	if (!pd->flows)
		goto err_rules;
	pd->flows->mask = nflows - 1;
	for (i = 0; i < nflows; i++)
		pacer_flow_init(&pd->flows->flow[i]);
	err = pacer_shapers_init(pd);
	if (err)
		goto err_flows;

	/* The default class: unlimited until configured, like ifb. */
	pacer_class_cfg_defaults(&cfg);
	cl = pacer_class_create(pd, PACER_CLASS_DEFAULT, &cfg);
	if (!cl) {
		err = -ENOMEM;
		goto err_shapers;
	}
	err = xa_err(xa_store(&pd->classes, PACER_CLASS_DEFAULT, cl,
			      PACER_GFP));
	if (err)
		goto err_class;
	pd->default_class = cl;
	pd->nclasses = 1;
	return 0;

err_class:
	pacer_class_free(cl);
err_shapers:
	pacer_shapers_destroy(pd);
err_flows:
	kvfree(pd->flows);
	pd->flows = NULL;
err_rules:
	pacer_rules_destroy(pd->rules);
	pd->rules = NULL;
err_mem:
	percpu_counter_destroy(&pd->mem);
err_stats:
	free_percpu(pd->stats);
	pd->stats = NULL;
	return err;
}

/* Runs once nobody can reach the device any more, so readers are gone. */
static void pacer_dev_free(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_class *cl;
	unsigned long id;

	if (!pd->stats)
		return;
	pacer_rules_destroy(pd->rules);
	pd->rules = NULL;
	xa_for_each(&pd->classes, id, cl) {
		xa_erase(&pd->classes, id);
		pacer_class_delete(cl);
	}
	xa_destroy(&pd->classes);
	pacer_shapers_destroy(pd);
	/* Classes go after a grace period; nothing of theirs is in a flow. */
	kvfree(pd->flows);
	pd->flows = NULL;
	percpu_counter_destroy(&pd->mem);
	free_percpu(pd->stats);
	pd->stats = NULL;
}

static const struct net_device_ops pacer_netdev_ops = {
	.ndo_init		= pacer_dev_init,
	.ndo_open		= pacer_open,
	.ndo_stop		= pacer_stop,
	.ndo_start_xmit		= pacer_xmit,
	.ndo_get_stats64	= pacer_get_stats64,
	.ndo_change_mtu		= pacer_change_mtu,
	.ndo_set_mac_address	= eth_mac_addr,
	.ndo_validate_addr	= eth_validate_addr,
};

/* ethtool -S: the device totals, one name per counter, ENA style. */
static const char pacer_ethtool_names[][ETH_GSTRING_LEN] = {
	"rx_packets",
	"rx_bytes",
	"tx_packets",
	"tx_bytes",
	"delayed_packets",
	"ecn_marked",
	"ecn_unparsed",
	"dropped_not_redirected",
	"dropped_queue_limit",
	"dropped_congestion",
	"dropped_memory",
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
	struct pacer_dev_stats st;

	pacer_dev_get_stats(pd, &st);
	*data++ = st.rx_packets;
	*data++ = st.rx_bytes;
	*data++ = st.tx_packets;
	*data++ = st.tx_bytes;
	*data++ = st.delayed_packets;
	*data++ = st.ecn_marked;
	*data++ = st.ecn_unparsed;
	*data++ = st.not_redirected;
	*data++ = st.drops[PACER_DROP_QUEUE_LIMIT];
	*data++ = st.drops[PACER_DROP_CONGESTION];
	*data++ = st.drops[PACER_DROP_MEMORY];
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
	pacer_netdev_set_lltx(dev);
	dev->features |= PACER_FEATURES;
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
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU;
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
	/*
	 * Classes and rules are freed from RCU callbacks in this module, and
	 * a class's first callback queues its second (pacer_class_free()):
	 * the first barrier waits for those it queued, the second for them.
	 */
	rcu_barrier();
	rcu_barrier();
}
