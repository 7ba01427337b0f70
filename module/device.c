// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: the net_device.
 *
 * tc mirred redirects packets to the device; its xmit classifies them and
 * queues them in their class.  A NAPI context takes from every busy class
 * what its token buckets let go and re-injects it where it came from, in
 * softirq context and with a budget, the way drivers/net/ifb.c does it:
 * back into the receive path of the original device for packets taken at
 * ingress, out through the original device for packets taken at egress.
 * A soft hrtimer wakes the NAPI context when the earliest waiting packet
 * is due.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/netdevice.h>
#include <linux/netfilter_netdev.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <net/flow_dissector.h>
#include <net/rtnetlink.h>

#include "classify.h"
#include "pacer.h"

#if !IS_ENABLED(CONFIG_NET_REDIRECT)
#error "pacer needs CONFIG_NET_REDIRECT: without it tc mirred does not mark redirected packets"
#endif

#define PACER_FEATURES (NETIF_F_HW_CSUM | NETIF_F_SG | NETIF_F_FRAGLIST | \
			NETIF_F_GSO_SOFTWARE | NETIF_F_GSO_ENCAP_ALL | \
			NETIF_F_HIGHDMA | NETIF_F_HW_VLAN_CTAG_TX | \
			NETIF_F_HW_VLAN_STAG_TX)

/**
 * pacer_dev_count_rx() - count a packet handed to the device
 * @pd: the device
 * @len: its length
 *
 * Context: BH disabled.  A GSO packet that its class splits is counted as
 * the segments it became, so that rx = tx + dropped + backlog.
 */
void pacer_dev_count_rx(struct pacer_dev *pd, unsigned int len)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->rx_packets);
	u64_stats_add(&s->rx_bytes, len);
	u64_stats_update_end(&s->syncp);
}

static void pacer_count_tx(struct pacer_dev *pd, const struct sk_buff *skb)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->tx_packets);
	u64_stats_add(&s->tx_bytes, skb->len);
	if (pacer_skb_cb(skb)->delayed)
		u64_stats_inc(&s->delayed_packets);
	if (pacer_skb_cb(skb)->ecn_marked)
		u64_stats_inc(&s->ecn_marked);
	u64_stats_update_end(&s->syncp);
}

/**
 * pacer_dev_count_drop() - count a dropped packet in the device totals
 * @pd: the device
 * @reason: why
 * @len: its length
 *
 * Context: BH disabled.
 */
void pacer_dev_count_drop(struct pacer_dev *pd, enum pacer_drop_reason reason,
			  unsigned int len)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->drops[reason]);
	u64_stats_add(&s->dropped_bytes, len);
	u64_stats_update_end(&s->syncp);
}

/**
 * pacer_dev_count_ecn_unparsed() - count a packet due a CE mark that had
 *	no IP header pacer could find
 * @pd: the device
 *
 * Context: BH disabled.
 */
void pacer_dev_count_ecn_unparsed(struct pacer_dev *pd)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->ecn_unparsed);
	u64_stats_update_end(&s->syncp);
}

static void pacer_drop_not_redirected(struct pacer_dev *pd,
				      struct sk_buff *skb)
{
	struct pacer_pcpu_stats *s = this_cpu_ptr(pd->stats);

	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->not_redirected);
	u64_stats_add(&s->dropped_bytes, skb->len);
	u64_stats_update_end(&s->syncp);
	kfree_skb(skb);
}

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
 * pacer_dev_kick() - make the NAPI context look at the classes now
 * @pd: the device
 */
void pacer_dev_kick(struct pacer_dev *pd)
{
	/* napi_schedule() raises a softirq: it must not be left pending. */
	local_bh_disable();
	napi_schedule(&pd->napi);
	local_bh_enable();
}

static netdev_tx_t pacer_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);
	struct pacer_class *cl;
	struct flow_keys keys;

	/* Only tc mirred tells us where to send a packet back to. */
	if (!skb->redirected || !skb->skb_iif) {
		pacer_dev_count_rx(pd, skb->len);
		pacer_drop_not_redirected(pd, skb);
		return NETDEV_TX_OK;
	}

	/*
	 * ndo_stop flushes the classes after the core has stopped calling us
	 * (netif_running is cleared, then an RCU grace period); what still
	 * races in here must not be left behind in a stopped device.
	 */
	if (unlikely(!netif_running(dev)))
		goto flush;
	skb_flow_dissect_flow_keys(skb, &keys, 0);
	cl = pacer_classify(pd, skb, &keys);
	if (unlikely(!cl))
		goto flush;
	pacer_class_enqueue(cl, skb, pacer_flow_hash(pd, &keys));
	return NETDEV_TX_OK;

flush:
	pacer_dev_count_rx(pd, skb->len);
	pacer_dev_count_drop(pd, PACER_DROP_FLUSH, skb->len);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}

/**
 * pacer_reinject_prepare() - make a packet ready to go back where it came
 *	from
 * @pd: the device
 * @skb: the packet
 *
 * Context: RCU read side; the caller re-injects under the same RCU section.
 * Return: false if the original device is gone (the caller drops @skb).
 */
bool pacer_reinject_prepare(struct pacer_dev *pd, struct sk_buff *skb)
{
	struct net_device *orig;

	orig = dev_get_by_index_rcu(dev_net(pd->dev), skb->skb_iif);
	if (unlikely(!orig))
		return false;

	/* Skip tc and netfilter egress so the packet is not redirected again. */
	skb->redirected = 0;
#ifdef CONFIG_NET_CLS_ACT
	skb->tc_skip_classify = 1;
#endif
	nf_skip_egress(skb, true);
	skb->dev = orig;
	skb->skb_iif = pd->dev->ifindex;
	return true;
}

static void pacer_reinject(struct pacer_dev *pd, struct sk_buff *skb)
{
	pacer_count_tx(pd, skb);
	/* Our bookkeeping must not look like a qdisc's to whoever is next. */
	memset(skb->cb, 0, sizeof(struct pacer_skb_cb));

	if (skb->from_ingress) {
		skb_pull_rcsum(skb, skb->mac_len);
		netif_receive_skb(skb);
	} else {
		dev_queue_xmit(skb);
	}
}

static void pacer_take_woken(struct pacer_dev *pd)
{
	struct llist_node *woken = llist_reverse_order(llist_del_all(&pd->wake));
	struct pacer_class *cl, *tmp;

	llist_for_each_entry_safe(cl, tmp, woken, wake_node)
		list_add_tail(&cl->active_node, &pd->active);
}

static int pacer_poll(struct napi_struct *napi, int budget)
{
	struct pacer_dev *pd = container_of(napi, struct pacer_dev, napi);
	u64 now = ktime_get_ns(), next = U64_MAX;
	struct pacer_class *cl, *tmp;
	struct sk_buff_head batch;
	struct sk_buff *skb;
	int done = 0;

	pacer_take_woken(pd);
	__skb_queue_head_init(&batch);

	rcu_read_lock();
	list_for_each_entry_safe(cl, tmp, &pd->active, active_node) {
		bool idle;

		done += pacer_class_dequeue(cl, now, budget - done, &batch,
					    &next, &idle);
		if (idle) {
			list_del_init(&cl->active_node);
			pacer_class_put(cl);
		}
		if (done >= budget) {
			/* Start with the next class next time round. */
			if (!idle)
				list_move_tail(&cl->active_node, &pd->active);
			break;
		}
	}
	/*
	 * Re-inject outside the class locks: the receive or transmit path we
	 * call into may come back to our xmit.
	 */
	while ((skb = __skb_dequeue(&batch)))
		pacer_reinject(pd, skb);
	rcu_read_unlock();

	if (done >= budget)
		return budget;
	if (napi_complete_done(napi, done) && next != U64_MAX)
		hrtimer_start_range_ns(&pd->timer, ns_to_ktime(next),
				       PACER_TIMER_SLACK_NS,
				       HRTIMER_MODE_ABS_PINNED_SOFT);
	return done;
}

static enum hrtimer_restart pacer_timer_fn(struct hrtimer *timer)
{
	struct pacer_dev *pd = container_of(timer, struct pacer_dev, timer);

	napi_schedule(&pd->napi);
	return HRTIMER_NORESTART;
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
	struct pacer_class *cl, *tmp;

	netif_stop_queue(dev);
	/* NAPI first: a running poll may still arm the timer. */
	napi_disable(&pd->napi);
	hrtimer_cancel(&pd->timer);

	/* Every class with packets is on one of the two lists. */
	pacer_take_woken(pd);
	list_for_each_entry_safe(cl, tmp, &pd->active, active_node) {
		list_del_init(&cl->active_node);
		pacer_class_flush(cl);
		clear_bit(0, &cl->scheduled);
		pacer_class_put(cl);
	}
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
		pacer_class_apply(cl, &cl->cfg);
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
	struct pacer_class_cfg cfg;
	struct pacer_class *cl;
	int err;

	pd->dev = dev;
	get_random_bytes(&pd->flow_key, sizeof(pd->flow_key));
	xa_init(&pd->classes);
	pd->max_classes = READ_ONCE(pacer_max_classes);
	pd->max_rules = READ_ONCE(pacer_max_rules);
	init_llist_head(&pd->wake);
	INIT_LIST_HEAD(&pd->active);
	hrtimer_init(&pd->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED_SOFT);
	pd->timer.function = pacer_timer_fn;

	/* Whoever creates the device pays for it: charged to their memcg. */
	pd->stats = __netdev_alloc_pcpu_stats(struct pacer_pcpu_stats,
					      PACER_GFP);
	if (!pd->stats)
		return -ENOMEM;
	err = percpu_counter_init(&pd->mem, 0, PACER_GFP);
	if (err)
		goto err_stats;
	pd->rules = pacer_rules_create();
	if (!pd->rules) {
		err = -ENOMEM;
		goto err_mem;
	}

	/* The default class: unlimited until configured, like ifb. */
	pacer_class_cfg_defaults(&cfg);
	cl = pacer_class_create(pd, PACER_CLASS_DEFAULT, &cfg);
	if (!cl) {
		err = -ENOMEM;
		goto err_rules;
	}
	err = xa_err(xa_store(&pd->classes, PACER_CLASS_DEFAULT, cl,
			      PACER_GFP));
	if (err)
		goto err_class;
	pd->nclasses = 1;

	netif_napi_add(dev, &pd->napi, pacer_poll);
	return 0;

err_class:
	pacer_class_put(cl);
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

static void pacer_dev_uninit(struct net_device *dev)
{
	struct pacer_dev *pd = netdev_priv(dev);

	netif_napi_del(&pd->napi);
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
	percpu_counter_destroy(&pd->mem);
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
	/* Classes and rules are freed from RCU callbacks in this module. */
	rcu_barrier();
}
