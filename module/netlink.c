// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: the "pacer" generic netlink family.
 *
 * Reads are unprivileged: they return configuration and counters, nothing
 * that a user of the namespace could not learn from "ip -s link".
 * Mutating commands carry GENL_ADMIN_PERM (CAP_NET_ADMIN in the namespace
 * that owns the socket's network namespace).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/linux/pacer.h>

#include "pacer.h"

static const struct nla_policy pacer_dev_get_policy[PACER_A_MAX + 1] = {
	[PACER_A_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[PACER_A_IFNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
};

static struct genl_family pacer_genl_family;

/*
 * Find the device a request names, by ifindex or by name (both may be
 * given if they agree).  Caller holds rcu_read_lock.
 */
static struct net_device *pacer_nl_dev_lookup(struct genl_info *info)
{
	struct nlattr *ifindex = info->attrs[PACER_A_IFINDEX];
	struct nlattr *ifname = info->attrs[PACER_A_IFNAME];
	struct net *net = genl_info_net(info);
	struct net_device *dev;

	if (ifindex) {
		dev = dev_get_by_index_rcu(net, nla_get_u32(ifindex));
		if (dev && ifname && nla_strcmp(ifname, dev->name)) {
			NL_SET_ERR_MSG_ATTR(info->extack, ifname,
					    "PACER_A_IFNAME and PACER_A_IFINDEX name different devices");
			return ERR_PTR(-EINVAL);
		}
	} else if (ifname) {
		dev = dev_get_by_name_rcu(net, nla_data(ifname));
	} else {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "a device is required: PACER_A_IFINDEX or PACER_A_IFNAME");
		NL_SET_ERR_ATTR_MISS(info->extack, NULL, PACER_A_IFNAME);
		return ERR_PTR(-EINVAL);
	}

	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, ifindex ?: ifname,
				    "no such device");
		return ERR_PTR(-ENODEV);
	}
	if (!pacer_is_dev(dev)) {
		NL_SET_ERR_MSG_ATTR(info->extack, ifindex ?: ifname,
				    "not a pacer device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return dev;
}

static int pacer_nl_put_dev_stats(struct sk_buff *msg, struct pacer_dev *pd)
{
	struct pacer_stats st;
	struct nlattr *nest;

	pacer_get_stats(pd, &st);
	nest = nla_nest_start(msg, PACER_A_DEV_STATS);
	if (!nest)
		return -EMSGSIZE;

#define PUT(attr, val) \
	nla_put_u64_64bit(msg, PACER_DEV_STATS_##attr, val, PACER_DEV_STATS_PAD)
	if (PUT(RX_PACKETS, st.rx_packets) ||
	    PUT(RX_BYTES, st.rx_bytes) ||
	    PUT(TX_PACKETS, st.tx_packets) ||
	    PUT(TX_BYTES, st.tx_bytes) ||
	    PUT(DROPPED_NOT_REDIRECTED, st.drops[PACER_DROP_NOT_REDIRECTED]) ||
	    PUT(DROPPED_QUEUE_LIMIT, st.drops[PACER_DROP_QUEUE_LIMIT]) ||
	    PUT(DROPPED_REINJECT, st.drops[PACER_DROP_REINJECT]) ||
	    PUT(DROPPED_FLUSH, st.drops[PACER_DROP_FLUSH]) ||
	    PUT(BACKLOG_PACKETS, st.backlog_packets) ||
	    PUT(BACKLOG_BYTES, st.backlog_bytes)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
#undef PUT

	nla_nest_end(msg, nest);
	return 0;
}

/*
 * The one fill function for a device message: replies and dumps alike.
 * @cb is the dump's callback (NULL otherwise), so the message can be
 * flagged when the device list changed under the dump.
 */
static int pacer_nl_fill_dev(struct sk_buff *msg, struct net_device *dev,
			     u32 portid, u32 seq, int flags,
			     struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &pacer_genl_family, flags,
			  PACER_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (cb)
		genl_dump_check_consistent(cb, hdr);

	if (nla_put_u32(msg, PACER_A_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, PACER_A_IFNAME, dev->name) ||
	    pacer_nl_put_dev_stats(msg, netdev_priv(dev))) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}

	genlmsg_end(msg, hdr);
	return 0;
}

static int pacer_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct net_device *dev;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	rcu_read_lock();
	dev = pacer_nl_dev_lookup(info);
	if (IS_ERR(dev))
		err = PTR_ERR(dev);
	else
		err = pacer_nl_fill_dev(msg, dev, info->snd_portid,
					info->snd_seq, 0, NULL);
	rcu_read_unlock();

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: how many pacer devices earlier messages already carried. */
static int pacer_nl_dev_get_dumpit(struct sk_buff *skb,
				   struct netlink_callback *cb)
{
	struct net *net = sock_net(skb->sk);
	long skip = cb->args[0], idx = 0;
	struct net_device *dev;

	rcu_read_lock();
	cb->seq = READ_ONCE(net->dev_base_seq);
	for_each_netdev_rcu(net, dev) {
		if (!pacer_is_dev(dev))
			continue;
		if (idx++ < skip)
			continue;
		if (pacer_nl_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid,
				      cb->nlh->nlmsg_seq, NLM_F_MULTI, cb)) {
			idx--;
			break;
		}
	}
	rcu_read_unlock();

	cb->args[0] = idx;
	return skb->len;
}

static const struct genl_ops pacer_genl_ops[] = {
	{
		.cmd		= PACER_CMD_DEV_GET,
		.doit		= pacer_nl_dev_get_doit,
		.dumpit		= pacer_nl_dev_get_dumpit,
		.policy		= pacer_dev_get_policy,
		.maxattr	= PACER_A_MAX,
	},
};

static struct genl_family pacer_genl_family __ro_after_init = {
	.name		= PACER_GENL_NAME,
	.version	= PACER_GENL_VERSION,
	.maxattr	= PACER_A_MAX,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= pacer_genl_ops,
	.n_ops		= ARRAY_SIZE(pacer_genl_ops),
};

/**
 * pacer_netlink_init() - register the generic netlink family
 *
 * Return: 0 or a negative errno.
 */
int __init pacer_netlink_init(void)
{
	return genl_register_family(&pacer_genl_family);
}

/**
 * pacer_netlink_exit() - unregister the generic netlink family
 */
void pacer_netlink_exit(void)
{
	genl_unregister_family(&pacer_genl_family);
}
