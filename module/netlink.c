// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: the "pacer" generic netlink family.
 *
 * Reads are unprivileged: they return configuration and counters, nothing
 * that a user of the namespace could not learn from "ip -s link".
 * Changes need CAP_NET_ADMIN in the user namespace that owns the
 * device's network namespace (GENL_UNS_ADMIN_PERM), run under RTNL, and
 * are checked whole before anything is applied.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/sizes.h>
#include <net/genetlink.h>
#include <net/netlink.h>
#include <net/sock.h>
#include <uapi/linux/pacer.h>

#include "classify.h"
#include "compat.h"
#include "pacer.h"

#define PACER_RATE_MIN		1000ULL			/* 1kbit */
#define PACER_RATE_MAX		10000000000000ULL	/* 10tbit */
#define PACER_BURST_MAX		SZ_1G
#define PACER_LIMIT_US_MAX	10000000U
#define PACER_LIMIT_BYTES_MIN	1024U
#define PACER_LIMIT_BYTES_MAX	SZ_1G
#define PACER_TARGET_US_MAX	1000000U
#define PACER_RTT_US_MAX	10000000U
#define PACER_OVERHEAD_MIN	(-64)
#define PACER_OVERHEAD_MAX	256
#define PACER_MPU_MAX		4096U

enum pacer_mcgrp {
	PACER_MCGRP_EVENTS_IDX,
};

static const struct nla_policy pacer_class_policy[PACER_CLASS_A_MAX + 1] = {
	[PACER_CLASS_A_ID]		= { .type = NLA_U16 },
	[PACER_CLASS_A_NAME]		= { .type = NLA_STRING },
	[PACER_CLASS_A_RATE]		= { .type = NLA_U64 },
	[PACER_CLASS_A_BURST]		= { .type = NLA_U32 },
	[PACER_CLASS_A_CEIL]		= { .type = NLA_U64 },
	[PACER_CLASS_A_LIMIT_US]	= { .type = NLA_U32 },
	[PACER_CLASS_A_LIMIT_BYTES]	= { .type = NLA_U32 },
	[PACER_CLASS_A_TARGET_US]	= { .type = NLA_U32 },
	[PACER_CLASS_A_OVERHEAD]	= { .type = NLA_S32 },
	[PACER_CLASS_A_MPU]		= { .type = NLA_U32 },
	[PACER_CLASS_A_STATS]		= { .type = NLA_REJECT },
	[PACER_CLASS_A_GSO]		= NLA_POLICY_MAX(NLA_U8, PACER_GSO_KEEP),
	[PACER_CLASS_A_QUEUE_LIMIT]	= { .type = NLA_REJECT },
	[PACER_CLASS_A_RTT_US]		= { .type = NLA_U32 },
	[PACER_CLASS_A_LIMIT_AUTO]	= { .type = NLA_REJECT },
};

static const struct nla_policy pacer_rule_policy[PACER_RULE_A_MAX + 1] = {
	[PACER_RULE_A_PREF]		= NLA_POLICY_MIN(NLA_U32, 1),
	[PACER_RULE_A_CLASS]		= { .type = NLA_U16 },
	[PACER_RULE_A_FAMILY]		= { .type = NLA_U8 },
	[PACER_RULE_A_SRC]		= { .type = NLA_BINARY,
					    .len = sizeof(struct in6_addr) },
	[PACER_RULE_A_SRC_PLEN]		= { .type = NLA_U8 },
	[PACER_RULE_A_DST]		= { .type = NLA_BINARY,
					    .len = sizeof(struct in6_addr) },
	[PACER_RULE_A_DST_PLEN]		= { .type = NLA_U8 },
	[PACER_RULE_A_PROTO]		= { .type = NLA_U8 },
	[PACER_RULE_A_SPORT_MIN]	= { .type = NLA_U16 },
	[PACER_RULE_A_SPORT_MAX]	= { .type = NLA_U16 },
	[PACER_RULE_A_DPORT_MIN]	= { .type = NLA_U16 },
	[PACER_RULE_A_DPORT_MAX]	= { .type = NLA_U16 },
	[PACER_RULE_A_MARK]		= { .type = NLA_U32 },
	[PACER_RULE_A_MARK_MASK]	= { .type = NLA_U32 },
	[PACER_RULE_A_PRIO]		= { .type = NLA_U32 },
	[PACER_RULE_A_MATCHES]		= { .type = NLA_REJECT },
};

static const struct nla_policy pacer_policy[PACER_A_MAX + 1] = {
	[PACER_A_IFINDEX]	= NLA_POLICY_MIN(NLA_U32, 1),
	[PACER_A_IFNAME]	= { .type = NLA_NUL_STRING, .len = IFNAMSIZ - 1 },
	[PACER_A_DEV_STATS]	= { .type = NLA_REJECT },
	[PACER_A_CLASS]		= NLA_POLICY_NESTED(pacer_class_policy),
	[PACER_A_RULE]		= NLA_POLICY_NESTED(pacer_rule_policy),
	[PACER_A_MAX_CLASSES]	= NLA_POLICY_MIN(NLA_U32, 1),
	[PACER_A_MAX_RULES]	= NLA_POLICY_MIN(NLA_U32, 1),
	[PACER_A_CLASSES]	= { .type = NLA_REJECT },
	[PACER_A_RULES]		= { .type = NLA_REJECT },
	[PACER_A_MAX_MEMORY]	= { .type = NLA_U32 },
	[PACER_A_CPU_STATS]	= { .type = NLA_REJECT },
};

static const struct genl_multicast_group pacer_mcgrps[] = {
	[PACER_MCGRP_EVENTS_IDX] = { .name = PACER_MCGRP_EVENTS },
};

static struct genl_family pacer_genl_family;

/*
 * Find the device a request names, by ifindex or by name (both may be
 * given if they agree).  Caller holds rcu_read_lock (and RTNL if it keeps
 * the device beyond the RCU section).
 */
static struct net_device *pacer_nl_dev_lookup(struct net *net,
					      struct nlattr **attrs,
					      struct netlink_ext_ack *extack)
{
	struct nlattr *ifindex = attrs[PACER_A_IFINDEX];
	struct nlattr *ifname = attrs[PACER_A_IFNAME];
	struct net_device *dev;

	if (ifindex) {
		dev = dev_get_by_index_rcu(net, nla_get_u32(ifindex));
		if (dev && ifname && nla_strcmp(ifname, dev->name)) {
			NL_SET_ERR_MSG_ATTR(extack, ifname,
					    "PACER_A_IFNAME and PACER_A_IFINDEX name different devices");
			return ERR_PTR(-EINVAL);
		}
	} else if (ifname) {
		dev = dev_get_by_name_rcu(net, nla_data(ifname));
	} else {
		NL_SET_ERR_MSG_MOD(extack,
				   "a device is required: PACER_A_IFINDEX or PACER_A_IFNAME");
		NL_SET_ERR_ATTR_MISS(extack, NULL, PACER_A_IFNAME);
		return ERR_PTR(-EINVAL);
	}

	if (!dev) {
		NL_SET_ERR_MSG_ATTR(extack, ifindex ?: ifname, "no such device");
		return ERR_PTR(-ENODEV);
	}
	if (!pacer_is_dev(dev)) {
		NL_SET_ERR_MSG_ATTR(extack, ifindex ?: ifname,
				    "not a pacer device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return dev;
}

/*
 * For changes: take RTNL and find the device, which stays valid while the
 * caller holds RTNL.  On error RTNL is released again.
 */
static struct net_device *pacer_nl_dev_lock(struct genl_info *info)
{
	struct net_device *dev;

	rtnl_lock();
	rcu_read_lock();
	dev = pacer_nl_dev_lookup(genl_info_net(info), info->attrs,
				  info->extack);
	rcu_read_unlock();
	if (IS_ERR(dev))
		rtnl_unlock();
	return dev;
}

/*
 * For each part of a dump of a device's classes or rules: the device, the
 * same one every part.  A request may name it by name, and a device
 * deleted and created again under that name between two parts has its
 * own classes and rules, with generations that may well be the old one's
 * (the same configuration restored): the rest of the dump would come from
 * it, unflagged.  cb->args[2] keeps the ifindex the first part found.
 */
static struct net_device *pacer_nl_dump_dev(struct sk_buff *skb,
					    struct netlink_callback *cb)
{
	struct net_device *dev;

	dev = pacer_nl_dev_lookup(sock_net(skb->sk), pacer_dump_attrs(cb),
				  cb->extack);
	if (IS_ERR(dev))
		return dev;
	if (cb->args[2] && cb->args[2] != dev->ifindex) {
		NL_SET_ERR_MSG_MOD(cb->extack,
				   "the device was deleted during the dump");
		return ERR_PTR(-ENODEV);
	}
	cb->args[2] = dev->ifindex;
	return dev;
}

static void *pacer_nl_put_header(struct sk_buff *msg, struct net_device *dev,
				 u32 portid, u32 seq, int flags, u8 cmd,
				 struct netlink_callback *cb)
{
	void *hdr;

	hdr = genlmsg_put(msg, portid, seq, &pacer_genl_family, flags, cmd);
	if (!hdr)
		return NULL;
	if (cb)
		genl_dump_check_consistent(cb, hdr);
	if (nla_put_u32(msg, PACER_A_IFINDEX, dev->ifindex) ||
	    nla_put_string(msg, PACER_A_IFNAME, dev->name)) {
		genlmsg_cancel(msg, hdr);
		return NULL;
	}
	return hdr;
}

static int pacer_nl_put_u64(struct sk_buff *msg, int attr, u64 value, int pad)
{
	return nla_put_u64_64bit(msg, attr, value, pad);
}

/* Tell the events group; a failure here cannot undo the change. */
static void pacer_nl_notify(struct net_device *dev, struct sk_buff *msg)
{
	genlmsg_multicast_netns(&pacer_genl_family, dev_net(dev), msg, 0,
				PACER_MCGRP_EVENTS_IDX, GFP_KERNEL);
}

static bool pacer_nl_listeners(struct net_device *dev)
{
	return genl_has_listeners(&pacer_genl_family, dev_net(dev),
				  PACER_MCGRP_EVENTS_IDX);
}

/*
 * The reply to a change and the event that announces it, allocated before
 * the change is made: after it only filling them in is left, which cannot
 * fail for want of memory, so nobody is told of an error for a change
 * that was applied.
 */
struct pacer_nl_out {
	struct sk_buff *reply;
	struct sk_buff *event;		/* NULL when nobody listens */
};

static int pacer_nl_out_alloc(struct pacer_nl_out *out,
			      struct net_device *dev, size_t size)
{
	out->event = NULL;
	out->reply = genlmsg_new(size, GFP_KERNEL);
	if (!out->reply)
		return -ENOMEM;
	if (pacer_nl_listeners(dev)) {
		out->event = genlmsg_new(size, GFP_KERNEL);
		if (!out->event) {
			nlmsg_free(out->reply);
			return -ENOMEM;
		}
	}
	return 0;
}

static void pacer_nl_out_free(struct pacer_nl_out *out)
{
	nlmsg_free(out->reply);
	nlmsg_free(out->event);
}

/*
 * Send what the caller filled in, @event_err and @reply_err the results of
 * filling each: messages sized for their object make both 0, and a
 * message that did not fit is a bug, which cannot undo the change.
 */
static int pacer_nl_out_send(struct pacer_nl_out *out, struct net_device *dev,
			     struct genl_info *info, int event_err,
			     int reply_err)
{
	if (out->event && !WARN_ON_ONCE(event_err))
		pacer_nl_notify(dev, out->event);
	else
		nlmsg_free(out->event);
	if (WARN_ON_ONCE(reply_err)) {
		nlmsg_free(out->reply);
		return reply_err;
	}
	return genlmsg_reply(out->reply, info);
}

/* ---- devices ---------------------------------------------------------- */

static int pacer_nl_put_dev_stats(struct sk_buff *msg, struct pacer_dev *pd)
{
	struct pacer_dev_stats st;
	struct nlattr *nest;

	pacer_dev_get_stats(pd, &st);
	nest = nla_nest_start(msg, PACER_A_DEV_STATS);
	if (!nest)
		return -EMSGSIZE;

#define PUT(attr, val) \
	pacer_nl_put_u64(msg, PACER_DEV_STATS_##attr, val, PACER_DEV_STATS_PAD)
	if (PUT(RX_PACKETS, st.rx_packets) ||
	    PUT(RX_BYTES, st.rx_bytes) ||
	    PUT(TX_PACKETS, st.tx_packets) ||
	    PUT(TX_BYTES, st.tx_bytes) ||
	    PUT(DELAYED_PACKETS, st.delayed_packets) ||
	    PUT(ECN_MARKED, st.ecn_marked) ||
	    PUT(ECN_UNPARSED, st.ecn_unparsed) ||
	    PUT(DROPPED_NOT_REDIRECTED, st.not_redirected) ||
	    PUT(DROPPED_QUEUE_LIMIT, st.drops[PACER_DROP_QUEUE_LIMIT]) ||
	    PUT(DROPPED_MEMORY, st.drops[PACER_DROP_MEMORY]) ||
	    PUT(DROPPED_REINJECT, st.drops[PACER_DROP_REINJECT]) ||
	    PUT(DROPPED_FLUSH, st.drops[PACER_DROP_FLUSH]) ||
	    PUT(DROPPED_CONGESTION, st.drops[PACER_DROP_CONGESTION]) ||
	    PUT(BACKLOG_PACKETS, st.backlog_packets) ||
	    PUT(BACKLOG_BYTES, st.backlog_bytes)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
#undef PUT

	nla_nest_end(msg, nest);
	return 0;
}

/* The most one CPU's nest in PACER_A_CPU_STATS takes. */
static size_t pacer_nl_cpu_size(void)
{
	return nla_total_size(0) +
	       __PACER_CPU_STATS_A_MAX * nla_total_size_64bit(sizeof(u64));
}

/*
 * What each CPU received and re-injected: one nest per CPU, in
 * PACER_A_CPU_STATS.  An attribute's length is 16 bits, about 1,360 CPUs'
 * nests: a host with more (some have) gets as many PACER_A_CPU_STATS as
 * it takes, each closed before it could outgrow its length.
 */
static int pacer_nl_put_cpu_stats(struct sk_buff *msg, struct pacer_dev *pd)
{
	struct nlattr *first, *nest, *one;
	int cpu;

	first = nla_nest_start(msg, PACER_A_CPU_STATS);
	nest = first;
	if (!nest)
		return -EMSGSIZE;
	for_each_possible_cpu(cpu) {
		u64 rx, tx, joined;

		pacer_dev_get_cpu_stats(pd, cpu, &rx, &tx, &joined);
		/* Firmware may list hundreds that never come up. */
		if (!cpu_online(cpu) && !rx && !tx && !joined)
			continue;
		if (skb_tail_pointer(msg) - (unsigned char *)nest +
		    pacer_nl_cpu_size() > U16_MAX) {
			nla_nest_end(msg, nest);
			nest = nla_nest_start(msg, PACER_A_CPU_STATS);
			if (!nest) {
				nla_nest_cancel(msg, first);
				return -EMSGSIZE;
			}
		}
		one = nla_nest_start(msg, cpu + 1);
		if (!one ||
		    nla_put_u32(msg, PACER_CPU_STATS_A_CPU, cpu) ||
		    pacer_nl_put_u64(msg, PACER_CPU_STATS_A_RX_PACKETS, rx,
				     PACER_CPU_STATS_A_PAD) ||
		    pacer_nl_put_u64(msg, PACER_CPU_STATS_A_TX_PACKETS, tx,
				     PACER_CPU_STATS_A_PAD) ||
		    pacer_nl_put_u64(msg, PACER_CPU_STATS_A_JOINED_PACKETS,
				     joined, PACER_CPU_STATS_A_PAD)) {
			nla_nest_cancel(msg, first);
			return -EMSGSIZE;
		}
		nla_nest_end(msg, one);
	}
	nla_nest_end(msg, nest);
	return 0;
}

/*
 * What a device message takes: its name, caps and totals, and a nest per
 * possible CPU, which on a host with a few hundred of them is more than
 * NLMSG_DEFAULT_SIZE.  Each nest is counted as if it held every attribute
 * its enum has, so that a counter added later cannot outgrow it.
 */
static size_t pacer_nl_dev_size(void)
{
	size_t cpus = num_possible_cpus() * pacer_nl_cpu_size();

	return nla_total_size(sizeof(u32)) +		/* PACER_A_IFINDEX */
	       nla_total_size(IFNAMSIZ) +		/* PACER_A_IFNAME */
	       5 * nla_total_size(sizeof(u32)) +	/* the caps and counts */
	       nla_total_size(0) +			/* PACER_A_DEV_STATS */
	       __PACER_DEV_STATS_MAX * nla_total_size_64bit(sizeof(u64)) +
	       /* PACER_A_CPU_STATS, one per U16_MAX bytes of CPUs' nests */
	       (cpus / (U16_MAX - pacer_nl_cpu_size()) + 1) * nla_total_size(0) +
	       cpus;
}

static int pacer_nl_fill_dev(struct sk_buff *msg, struct net_device *dev,
			     u32 portid, u32 seq, int flags, u8 cmd,
			     struct netlink_callback *cb)
{
	struct pacer_dev *pd = netdev_priv(dev);
	void *hdr;

	hdr = pacer_nl_put_header(msg, dev, portid, seq, flags, cmd, cb);
	if (!hdr)
		return -EMSGSIZE;
	/* Read without RTNL: each figure is one aligned word. */
	if (nla_put_u32(msg, PACER_A_MAX_CLASSES, READ_ONCE(pd->max_classes)) ||
	    nla_put_u32(msg, PACER_A_MAX_RULES, READ_ONCE(pd->max_rules)) ||
	    nla_put_u32(msg, PACER_A_CLASSES, READ_ONCE(pd->nclasses)) ||
	    nla_put_u32(msg, PACER_A_RULES, READ_ONCE(pd->rules->n)) ||
	    nla_put_u32(msg, PACER_A_MAX_MEMORY, READ_ONCE(pd->max_memory)) ||
	    pacer_nl_put_dev_stats(msg, pd) ||
	    pacer_nl_put_cpu_stats(msg, pd)) {
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

	msg = genlmsg_new(pacer_nl_dev_size(), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;

	rcu_read_lock();
	dev = pacer_nl_dev_lookup(genl_info_net(info), info->attrs,
				  info->extack);
	if (IS_ERR(dev))
		err = PTR_ERR(dev);
	else
		err = pacer_nl_fill_dev(msg, dev, info->snd_portid,
					info->snd_seq, 0, PACER_CMD_DEV_GET,
					NULL);
	rcu_read_unlock();

	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/*
 * Each part of the dump has room for one device at least: a part that
 * carried none would end the dump as if there were no more.
 */
static int pacer_nl_dev_get_start(struct netlink_callback *cb)
{
	size_t size = genlmsg_total_size(pacer_nl_dev_size());

	cb->min_dump_alloc = nlmsg_total_size(size);
	return 0;
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
				      cb->nlh->nlmsg_seq, NLM_F_MULTI,
				      PACER_CMD_DEV_GET, cb)) {
			idx--;
			break;
		}
	}
	rcu_read_unlock();

	cb->args[0] = idx;
	return skb->len;
}

/*
 * A device's caps: its owner may lower them, or raise them back up to the
 * module parameters, never above; only the host's root sets those.
 */
static int pacer_nl_dev_cap(struct genl_info *info, int attr, u32 ceiling,
			    u32 in_use, u32 *cap)
{
	struct nlattr *nla = info->attrs[attr];
	bool classes = attr == PACER_A_MAX_CLASSES;
	u32 val;

	if (!nla)
		return 0;
	val = nla_get_u32(nla);
	if (attr == PACER_A_MAX_MEMORY && val < SZ_1M) {
		NL_SET_ERR_MSG_ATTR(info->extack, nla,
				    "max_memory must be at least 1 MiB");
		return -EINVAL;
	}
	if (val > ceiling) {
		if (classes)
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "max_classes is above the module parameter max_classes");
		else if (attr == PACER_A_MAX_RULES)
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "max_rules is above the module parameter max_rules");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "max_memory is above the module parameter max_memory");
		return -ERANGE;
	}
	if (val < in_use) {
		if (classes)
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "max_classes is below the classes the device has: delete some first");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, nla,
					    "max_rules is below the rules the device has: delete some first");
		return -EBUSY;
	}
	*cap = val;
	return 0;
}

static int pacer_nl_dev_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	u32 max_classes, max_rules, max_memory;
	struct pacer_nl_out out;
	struct net_device *dev;
	struct pacer_dev *pd;
	int err;

	if (!info->attrs[PACER_A_MAX_CLASSES] &&
	    !info->attrs[PACER_A_MAX_RULES] &&
	    !info->attrs[PACER_A_MAX_MEMORY]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "nothing to change: give PACER_A_MAX_CLASSES, PACER_A_MAX_RULES or PACER_A_MAX_MEMORY");
		return -EINVAL;
	}

	dev = pacer_nl_dev_lock(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	pd = netdev_priv(dev);
	max_classes = pd->max_classes;
	max_rules = pd->max_rules;
	max_memory = pd->max_memory;
	err = pacer_nl_dev_cap(info, PACER_A_MAX_CLASSES,
			       READ_ONCE(pacer_max_classes), pd->nclasses,
			       &max_classes) ?:
	      pacer_nl_dev_cap(info, PACER_A_MAX_RULES,
			       READ_ONCE(pacer_max_rules), pd->rules->n,
			       &max_rules) ?:
	      pacer_nl_dev_cap(info, PACER_A_MAX_MEMORY,
			       READ_ONCE(pacer_max_memory), 0, &max_memory) ?:
	      pacer_nl_out_alloc(&out, dev, pacer_nl_dev_size());
	if (err)
		goto out;
	WRITE_ONCE(pd->max_classes, max_classes);
	WRITE_ONCE(pd->max_rules, max_rules);
	WRITE_ONCE(pd->max_memory, max_memory);
	err = pacer_nl_out_send(&out, dev, info,
				out.event ?
				pacer_nl_fill_dev(out.event, dev, 0, 0, 0,
						  PACER_CMD_DEV_SET, NULL) : 0,
				pacer_nl_fill_dev(out.reply, dev,
						  info->snd_portid,
						  info->snd_seq, 0,
						  PACER_CMD_DEV_SET, NULL));
out:
	rtnl_unlock();
	return err;
}

/* ---- classes ---------------------------------------------------------- */

static int pacer_nl_put_hist(struct sk_buff *msg,
			     const struct pacer_class_stats *st)
{
	struct nlattr *nest = nla_nest_start(msg, PACER_STATS_A_DELAY_HIST);
	int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < PACER_HIST_BUCKETS; i++)
		if (pacer_nl_put_u64(msg, i + 1, st->hist[i], PACER_ARRAY_PAD))
			goto cancel;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

static int pacer_nl_put_drops(struct sk_buff *msg,
			      const struct pacer_class_stats *st)
{
	struct nlattr *nest = nla_nest_start(msg, PACER_STATS_A_DROPS);
	int reason;

	if (!nest)
		return -EMSGSIZE;
	for (reason = 1; reason <= PACER_DROP_MAX; reason++)
		if (pacer_nl_put_u64(msg, reason, st->drops[reason],
				     PACER_ARRAY_PAD))
			goto cancel;
	nla_nest_end(msg, nest);
	return 0;
cancel:
	nla_nest_cancel(msg, nest);
	return -EMSGSIZE;
}

static int pacer_nl_put_class_stats(struct sk_buff *msg,
				    const struct pacer_class_stats *st,
				    u64 backlog_packets, u64 backlog_bytes)
{
	struct nlattr *nest = nla_nest_start(msg, PACER_CLASS_A_STATS);

	if (!nest)
		return -EMSGSIZE;
#define PUT(attr, val) \
	pacer_nl_put_u64(msg, PACER_STATS_A_##attr, val, PACER_STATS_A_PAD)
	if (PUT(RX_PACKETS, st->rx_packets) ||
	    PUT(RX_BYTES, st->rx_bytes) ||
	    PUT(TX_PACKETS, st->tx_packets) ||
	    PUT(TX_BYTES, st->tx_bytes) ||
	    PUT(DELAYED_PACKETS, st->delayed_packets) ||
	    PUT(DELAYED_BYTES, st->delayed_bytes) ||
	    PUT(DELAY_NS_TOTAL, st->delay_us_total * NSEC_PER_USEC +
				st->delay_ns_rem) ||
	    PUT(DELAY_US_TOTAL, st->delay_us_total) ||
	    PUT(DELAY_NS_MAX, st->delay_ns_max) ||
	    pacer_nl_put_hist(msg, st) ||
	    PUT(DROPPED_PACKETS, st->dropped_packets) ||
	    PUT(DROPPED_BYTES, st->dropped_bytes) ||
	    pacer_nl_put_drops(msg, st) ||
	    PUT(ECN_MARKED, st->ecn_marked) ||
	    PUT(ECN_UNPARSED, st->ecn_unparsed) ||
	    PUT(BACKLOG_PACKETS, backlog_packets) ||
	    PUT(BACKLOG_BYTES, backlog_bytes) ||
	    PUT(BACKLOG_PEAK_BYTES, st->backlog_peak_bytes)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
#undef PUT
	nla_nest_end(msg, nest);
	return 0;
}

static int pacer_nl_put_class(struct sk_buff *msg, struct pacer_class *cl,
			      struct pacer_class_snapshot *snap)
{
	const struct pacer_class_stats *st = &snap->sum;
	struct pacer_class_cfg cfg;
	u64 backlog_packets, backlog_bytes;
	struct nlattr *nest;

	pacer_class_read(cl, &cfg, snap, &backlog_packets, &backlog_bytes);
	nest = nla_nest_start(msg, PACER_A_CLASS);
	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u16(msg, PACER_CLASS_A_ID, cl->id) ||
	    (cfg.name[0] && nla_put_string(msg, PACER_CLASS_A_NAME, cfg.name)) ||
	    pacer_nl_put_u64(msg, PACER_CLASS_A_RATE, cfg.rate,
			     PACER_CLASS_A_PAD) ||
	    nla_put_u32(msg, PACER_CLASS_A_BURST, pacer_class_burst(cl)) ||
	    pacer_nl_put_u64(msg, PACER_CLASS_A_CEIL, cfg.ceil,
			     PACER_CLASS_A_PAD) ||
	    (cfg.limit_bytes ?
	     nla_put_u32(msg, PACER_CLASS_A_LIMIT_BYTES, cfg.limit_bytes) :
	     nla_put_u32(msg, PACER_CLASS_A_LIMIT_US,
			 pacer_class_cfg_limit_us(&cfg))) ||
	    (!cfg.limit_bytes && !cfg.limit_us &&
	     nla_put_flag(msg, PACER_CLASS_A_LIMIT_AUTO)) ||
	    nla_put_u32(msg, PACER_CLASS_A_TARGET_US, cfg.target_us) ||
	    nla_put_u32(msg, PACER_CLASS_A_RTT_US, cfg.rtt_us) ||
	    nla_put_s32(msg, PACER_CLASS_A_OVERHEAD, cfg.overhead) ||
	    nla_put_u32(msg, PACER_CLASS_A_MPU, cfg.mpu) ||
	    nla_put_u8(msg, PACER_CLASS_A_GSO, cfg.gso) ||
	    nla_put_u32(msg, PACER_CLASS_A_QUEUE_LIMIT, pacer_class_limit(cl)) ||
	    pacer_nl_put_class_stats(msg, st, backlog_packets,
				     backlog_bytes)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int pacer_nl_fill_class(struct sk_buff *msg, struct pacer_class *cl,
			       u32 portid, u32 seq, int flags, u8 cmd,
			       struct netlink_callback *cb,
			       struct pacer_class_snapshot *snap)
{
	void *hdr;

	hdr = pacer_nl_put_header(msg, cl->pd->dev, portid, seq, flags, cmd,
				  cb);
	if (!hdr)
		return -EMSGSIZE;
	if (pacer_nl_put_class(msg, cl, snap)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

/* A class's reply and event, and the room to read its counters into. */
struct pacer_nl_class_out {
	struct pacer_nl_out msgs;
	struct pacer_class_snapshot *snap;
};

static int pacer_nl_class_out_alloc(struct pacer_nl_class_out *out,
				    struct net_device *dev)
{
	int err;

	out->snap = kmalloc(sizeof(*out->snap), GFP_KERNEL_ACCOUNT);
	if (!out->snap)
		return -ENOMEM;
	err = pacer_nl_out_alloc(&out->msgs, dev, NLMSG_DEFAULT_SIZE);
	if (err)
		kfree(out->snap);
	return err;
}

static void pacer_nl_class_out_free(struct pacer_nl_class_out *out)
{
	pacer_nl_out_free(&out->msgs);
	kfree(out->snap);
}

/* Reply to the requester and tell the events group about a class. */
static int pacer_nl_class_out_send(struct pacer_nl_class_out *out,
				   struct genl_info *info,
				   struct pacer_class *cl, u8 cmd)
{
	struct pacer_nl_out *m = &out->msgs;
	int err;

	err = pacer_nl_out_send(m, cl->pd->dev, info,
				m->event ?
				pacer_nl_fill_class(m->event, cl, 0, 0, 0, cmd,
						    NULL, out->snap) : 0,
				pacer_nl_fill_class(m->reply, cl,
						    info->snd_portid,
						    info->snd_seq, 0, cmd,
						    NULL, out->snap));
	kfree(out->snap);
	return err;
}

static int pacer_nl_parse_class(struct genl_info *info, struct nlattr **tb)
{
	if (GENL_REQ_ATTR_CHECK(info, PACER_A_CLASS)) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "PACER_A_CLASS is required");
		return -EINVAL;
	}
	return nla_parse_nested(tb, PACER_CLASS_A_MAX,
				info->attrs[PACER_A_CLASS], pacer_class_policy,
				info->extack);
}

/* Every request about one class: its attributes, and the id it names. */
static int pacer_nl_parse_class_id(struct genl_info *info, struct nlattr **tb,
				   u16 *id)
{
	int err = pacer_nl_parse_class(info, tb);

	if (err)
		return err;
	if (!tb[PACER_CLASS_A_ID]) {
		NL_SET_ERR_MSG_MOD(info->extack, "PACER_CLASS_A_ID is required");
		NL_SET_ERR_ATTR_MISS(info->extack, info->attrs[PACER_A_CLASS],
				     PACER_CLASS_A_ID);
		return -EINVAL;
	}
	*id = nla_get_u16(tb[PACER_CLASS_A_ID]);
	return 0;
}

/*
 * Merge the attributes of a request into @cfg and check the result as a
 * whole: nothing is applied unless every attribute and their combination
 * are valid.
 */
static int pacer_nl_class_precheck(struct nlattr **tb,
				   struct pacer_class_cfg *cfg,
				   struct netlink_ext_ack *extack)
{
	if (tb[PACER_CLASS_A_NAME]) {
		if (nla_strscpy(cfg->name, tb[PACER_CLASS_A_NAME],
				sizeof(cfg->name)) < 0) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_NAME],
					    "name must be at most 15 bytes");
			return -EINVAL;
		}
	}
	if (tb[PACER_CLASS_A_RATE]) {
		cfg->rate = nla_get_u64(tb[PACER_CLASS_A_RATE]);
		if (cfg->rate &&
		    (cfg->rate < PACER_RATE_MIN || cfg->rate > PACER_RATE_MAX)) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_RATE],
					    "rate must be 0 (unlimited) or 1kbit to 10tbit");
			return -EINVAL;
		}
	}
	if (tb[PACER_CLASS_A_BURST]) {
		cfg->burst = nla_get_u32(tb[PACER_CLASS_A_BURST]);
		if (cfg->burst > PACER_BURST_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_BURST],
					    "burst must be at most 1 GiB (0 for the default)");
			return -EINVAL;
		}
	}
	/* Exactly: pacer_len_to_ns() rounds up, and 1000 s itself is allowed. */
	if (cfg->rate && cfg->burst &&
	    cfg->burst > pacer_ns_to_len(cfg->rate, PACER_BURST_TIME_MAX_NS)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_BURST] ?:
				    tb[PACER_CLASS_A_RATE],
				    "burst must take at most 1000s at rate");
		return -EINVAL;
	}
	if (tb[PACER_CLASS_A_CEIL])
		cfg->ceil = nla_get_u64(tb[PACER_CLASS_A_CEIL]);
	if (cfg->ceil && (!cfg->rate || cfg->ceil < cfg->rate ||
			  cfg->ceil > PACER_RATE_MAX)) {
		NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_CEIL] ?:
				    tb[PACER_CLASS_A_RATE],
				    "ceil must be 0 (none) or from rate to 10tbit, and needs a rate");
		return -EINVAL;
	}
	if (tb[PACER_CLASS_A_LIMIT_US] && tb[PACER_CLASS_A_LIMIT_BYTES]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_LIMIT_BYTES],
				    "limit is a time or a size, not both");
		return -EINVAL;
	}
	if (tb[PACER_CLASS_A_LIMIT_US]) {
		cfg->limit_us = nla_get_u32(tb[PACER_CLASS_A_LIMIT_US]);
		cfg->limit_bytes = 0;
		/* 0 asks for the automatic limit back. */
		if (cfg->limit_us > PACER_LIMIT_US_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_LIMIT_US],
					    "limit must be 0 (auto) or 1us to 10s");
			return -EINVAL;
		}
	}
	if (tb[PACER_CLASS_A_LIMIT_BYTES]) {
		cfg->limit_bytes = nla_get_u32(tb[PACER_CLASS_A_LIMIT_BYTES]);
		cfg->limit_us = 0;
		if (cfg->limit_bytes < PACER_LIMIT_BYTES_MIN ||
		    cfg->limit_bytes > PACER_LIMIT_BYTES_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_LIMIT_BYTES],
					    "limit must be 1 KiB to 1 GiB");
			return -EINVAL;
		}
	}
	if (tb[PACER_CLASS_A_TARGET_US]) {
		cfg->target_us = nla_get_u32(tb[PACER_CLASS_A_TARGET_US]);
		if (!cfg->target_us || cfg->target_us > PACER_TARGET_US_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_TARGET_US],
					    "target must be 1us to 1s");
			return -EINVAL;
		}
	}
	if (tb[PACER_CLASS_A_RTT_US]) {
		cfg->rtt_us = nla_get_u32(tb[PACER_CLASS_A_RTT_US]);
		if (!cfg->rtt_us || cfg->rtt_us > PACER_RTT_US_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_RTT_US],
					    "rtt must be 1us to 10s");
			return -EINVAL;
		}
	}
	if (tb[PACER_CLASS_A_OVERHEAD]) {
		cfg->overhead = nla_get_s32(tb[PACER_CLASS_A_OVERHEAD]);
		if (cfg->overhead < PACER_OVERHEAD_MIN ||
		    cfg->overhead > PACER_OVERHEAD_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_OVERHEAD],
					    "overhead must be -64 to 256 bytes");
			return -EINVAL;
		}
	}
	if (tb[PACER_CLASS_A_MPU]) {
		cfg->mpu = nla_get_u32(tb[PACER_CLASS_A_MPU]);
		if (cfg->mpu > PACER_MPU_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_CLASS_A_MPU],
					    "mpu must be 0 to 4096 bytes");
			return -EINVAL;
		}
	}
	/* The policy bounds it: auto, split or keep. */
	if (tb[PACER_CLASS_A_GSO])
		cfg->gso = nla_get_u8(tb[PACER_CLASS_A_GSO]);
	return 0;
}

static struct pacer_class *pacer_nl_class_get(struct pacer_dev *pd, u16 id,
					      struct genl_info *info,
					      struct nlattr **tb)
{
	struct pacer_class *cl = xa_load(&pd->classes, id);

	if (!cl)
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_CLASS_A_ID],
				    "no class with this id on the device");
	return cl;
}

/*
 * A class was added or deleted: a dump that spans it is flagged.  The
 * generation stops short of U32_MAX, so that the dump's cb->seq (one
 * more) is never 0, which genl_dump_check_consistent() takes for "not
 * checked".
 */
static void pacer_nl_classes_changed(struct pacer_dev *pd)
{
	WRITE_ONCE(pd->classes_gen,
		   pd->classes_gen == U32_MAX - 1 ? 0 : pd->classes_gen + 1);
}

static int pacer_nl_class_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[PACER_CLASS_A_MAX + 1];
	struct pacer_nl_class_out out;
	struct pacer_class_cfg cfg;
	struct net_device *dev;
	struct pacer_class *cl;
	struct pacer_dev *pd;
	u16 id;
	int err;

	err = pacer_nl_parse_class_id(info, tb, &id);
	if (err)
		return err;
	pacer_class_cfg_defaults(&cfg);
	err = pacer_nl_class_precheck(tb, &cfg, info->extack);
	if (err)
		return err;

	dev = pacer_nl_dev_lock(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	pd = netdev_priv(dev);
	if (xa_load(&pd->classes, id)) {
		if (id == PACER_CLASS_DEFAULT)
			NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_CLASS_A_ID],
					    "class 0 is the default class and always exists: change it instead");
		else
			NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_CLASS_A_ID],
					    "a class with this id exists");
		err = -EEXIST;
		goto out;
	}
	if (pd->nclasses >= pd->max_classes) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_CLASS_A_ID],
				    "the device has max_classes classes (class 0 included): delete one or raise the cap");
		err = -ENOSPC;
		goto out;
	}
	err = pacer_nl_class_out_alloc(&out, dev);
	if (err)
		goto out;
	cl = pacer_class_create(pd, id, &cfg);
	if (!cl) {
		err = -ENOMEM;
		goto free_out;
	}
	err = xa_insert(&pd->classes, id, cl, PACER_GFP);
	if (err) {
		pacer_class_free(cl);
		goto free_out;
	}
	WRITE_ONCE(pd->nclasses, pd->nclasses + 1);
	pacer_nl_classes_changed(pd);
	err = pacer_nl_class_out_send(&out, info, cl, PACER_CMD_CLASS_NEW);
	goto out;

free_out:
	pacer_nl_class_out_free(&out);
out:
	rtnl_unlock();
	return err;
}

static int pacer_nl_class_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[PACER_CLASS_A_MAX + 1];
	struct pacer_nl_class_out out;
	struct pacer_class_cfg cfg;
	struct net_device *dev;
	struct pacer_class *cl;
	u16 id;
	int err;

	err = pacer_nl_parse_class_id(info, tb, &id);
	if (err)
		return err;

	dev = pacer_nl_dev_lock(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	cl = pacer_nl_class_get(netdev_priv(dev), id, info, tb);
	if (!cl) {
		err = -ENOENT;
		goto out;
	}
	/* Only RTNL holders change the configuration: this copy is stable. */
	cfg = rtnl_dereference(cl->params)->cfg;
	err = pacer_nl_class_precheck(tb, &cfg, info->extack) ?:
	      pacer_nl_class_out_alloc(&out, dev);
	if (err)
		goto out;
	err = pacer_class_apply(cl, &cfg);
	if (err) {
		pacer_nl_class_out_free(&out);
		goto out;
	}
	pacer_dev_classes_changed(cl->pd);
	err = pacer_nl_class_out_send(&out, info, cl, PACER_CMD_CLASS_SET);
out:
	rtnl_unlock();
	return err;
}

/* The event announcing that class @id of @dev is gone; NULL without memory. */
static struct sk_buff *pacer_nl_class_del_event(struct net_device *dev, u16 id)
{
	struct sk_buff *msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	struct nlattr *nest;
	void *hdr;

	if (!msg)
		return NULL;
	hdr = pacer_nl_put_header(msg, dev, 0, 0, 0, PACER_CMD_CLASS_DEL, NULL);
	nest = hdr ? nla_nest_start(msg, PACER_A_CLASS) : NULL;
	if (WARN_ON_ONCE(!nest || nla_put_u16(msg, PACER_CLASS_A_ID, id))) {
		nlmsg_free(msg);
		return NULL;
	}
	nla_nest_end(msg, nest);
	genlmsg_end(msg, hdr);
	return msg;
}

static int pacer_nl_class_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[PACER_CLASS_A_MAX + 1];
	struct net_device *dev;
	struct pacer_class *cl;
	struct pacer_dev *pd;
	struct sk_buff *msg = NULL;
	u16 id;
	int err;

	err = pacer_nl_parse_class_id(info, tb, &id);
	if (err)
		return err;
	if (id == PACER_CLASS_DEFAULT) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_CLASS_A_ID],
				    "class 0 is the default class and cannot be deleted");
		return -EINVAL;
	}

	dev = pacer_nl_dev_lock(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	pd = netdev_priv(dev);
	cl = pacer_nl_class_get(pd, id, info, tb);
	if (!cl) {
		err = -ENOENT;
		goto out;
	}
	if (cl->nrules) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_CLASS_A_ID],
				    "a rule sends packets to this class: delete the rule first");
		err = -EBUSY;
		goto out;
	}

	/*
	 * The event is built before the class goes, so that a deletion is
	 * never made without its event for want of memory.
	 */
	if (pacer_nl_listeners(dev)) {
		msg = pacer_nl_class_del_event(dev, id);
		if (!msg) {
			err = -ENOMEM;
			goto out;
		}
	}
	xa_erase(&pd->classes, id);
	WRITE_ONCE(pd->nclasses, pd->nclasses - 1);
	pacer_nl_classes_changed(pd);
	pacer_class_delete(cl);
	if (msg)
		pacer_nl_notify(dev, msg);
out:
	rtnl_unlock();
	return err;
}

static int pacer_nl_class_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[PACER_CLASS_A_MAX + 1];
	struct pacer_class_snapshot *snap;
	struct net_device *dev;
	struct pacer_class *cl;
	struct sk_buff *msg;
	u16 id;
	int err;

	err = pacer_nl_parse_class_id(info, tb, &id);
	if (err)
		return err;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL_ACCOUNT);
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!snap || !msg) {
		kfree(snap);
		nlmsg_free(msg);
		return -ENOMEM;
	}
	rcu_read_lock();
	dev = pacer_nl_dev_lookup(genl_info_net(info), info->attrs,
				  info->extack);
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
	} else {
		cl = pacer_nl_class_get(netdev_priv(dev), id, info, tb);
		err = cl ? pacer_nl_fill_class(msg, cl, info->snd_portid,
					       info->snd_seq, 0,
					       PACER_CMD_CLASS_GET, NULL,
					       snap) :
			   -ENOENT;
	}
	rcu_read_unlock();
	kfree(snap);
	if (err) {
		nlmsg_free(msg);
		return err;
	}
	return genlmsg_reply(msg, info);
}

/* cb->args[0]: the next class id to send; cb->args[2]: pacer_nl_dump_dev(). */
static int pacer_nl_class_get_dumpit(struct sk_buff *skb,
				     struct netlink_callback *cb)
{
	unsigned long id = cb->args[0];
	struct pacer_class_snapshot *snap;
	struct net_device *dev;
	struct pacer_class *cl;
	struct pacer_dev *pd;
	int err = 0;

	snap = kmalloc(sizeof(*snap), GFP_KERNEL_ACCOUNT);
	if (!snap)
		return -ENOMEM;
	rcu_read_lock();
	dev = pacer_nl_dump_dev(skb, cb);
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
		goto out;
	}
	pd = netdev_priv(dev);
	/* Classes added or deleted between two parts flag the dump. */
	cb->seq = READ_ONCE(pd->classes_gen) + 1;	/* never 0 */
	xa_for_each_start(&pd->classes, id, cl, cb->args[0]) {
		if (pacer_nl_fill_class(skb, cl, NETLINK_CB(cb->skb).portid,
					cb->nlh->nlmsg_seq, NLM_F_MULTI,
					PACER_CMD_CLASS_GET, cb, snap))
			break;
		cb->args[0] = id + 1;
	}
out:
	rcu_read_unlock();
	kfree(snap);
	return err ?: skb->len;
}

/* ---- rules ------------------------------------------------------------ */

static int pacer_nl_put_rule(struct sk_buff *msg, const struct pacer_rule *r)
{
	int alen = r->family == AF_INET ? 4 : 16;
	struct nlattr *nest = nla_nest_start(msg, PACER_A_RULE);

	if (!nest)
		return -EMSGSIZE;
	if (nla_put_u32(msg, PACER_RULE_A_PREF, r->pref) ||
	    nla_put_u16(msg, PACER_RULE_A_CLASS, r->class_id) ||
	    (r->family && nla_put_u8(msg, PACER_RULE_A_FAMILY, r->family)) ||
	    ((r->match & PACER_MATCH_SRC) &&
	     (nla_put(msg, PACER_RULE_A_SRC, alen, &r->src) ||
	      nla_put_u8(msg, PACER_RULE_A_SRC_PLEN, r->src_plen))) ||
	    ((r->match & PACER_MATCH_DST) &&
	     (nla_put(msg, PACER_RULE_A_DST, alen, &r->dst) ||
	      nla_put_u8(msg, PACER_RULE_A_DST_PLEN, r->dst_plen))) ||
	    ((r->match & PACER_MATCH_PROTO) &&
	     nla_put_u8(msg, PACER_RULE_A_PROTO, r->proto)) ||
	    ((r->match & PACER_MATCH_SPORT) &&
	     (nla_put_u16(msg, PACER_RULE_A_SPORT_MIN, r->sport_min) ||
	      nla_put_u16(msg, PACER_RULE_A_SPORT_MAX, r->sport_max))) ||
	    ((r->match & PACER_MATCH_DPORT) &&
	     (nla_put_u16(msg, PACER_RULE_A_DPORT_MIN, r->dport_min) ||
	      nla_put_u16(msg, PACER_RULE_A_DPORT_MAX, r->dport_max))) ||
	    ((r->match & PACER_MATCH_MARK) &&
	     (nla_put_u32(msg, PACER_RULE_A_MARK, r->mark) ||
	      nla_put_u32(msg, PACER_RULE_A_MARK_MASK, r->mark_mask))) ||
	    ((r->match & PACER_MATCH_PRIO) &&
	     nla_put_u32(msg, PACER_RULE_A_PRIO, r->prio)) ||
	    pacer_nl_put_u64(msg, PACER_RULE_A_MATCHES, pacer_rule_matches(r),
			     PACER_RULE_A_PAD)) {
		nla_nest_cancel(msg, nest);
		return -EMSGSIZE;
	}
	nla_nest_end(msg, nest);
	return 0;
}

static int pacer_nl_fill_rule(struct sk_buff *msg, struct net_device *dev,
			      const struct pacer_rule *r, u32 portid, u32 seq,
			      int flags, u8 cmd, struct netlink_callback *cb)
{
	void *hdr = pacer_nl_put_header(msg, dev, portid, seq, flags, cmd, cb);

	if (!hdr)
		return -EMSGSIZE;
	if (pacer_nl_put_rule(msg, r)) {
		genlmsg_cancel(msg, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return 0;
}

static int pacer_nl_rule_prefix(struct nlattr **tb, int addr_attr,
				int plen_attr, struct pacer_rule *r,
				struct netlink_ext_ack *extack)
{
	int alen = r->family == AF_INET ? 4 : 16;
	struct in6_addr *addr;
	u8 plen;
	int i;

	if (!tb[addr_attr]) {
		if (tb[plen_attr]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[plen_attr],
					    "a prefix length needs an address");
			return -EINVAL;
		}
		return 0;
	}
	if (!r->family) {
		NL_SET_ERR_MSG_ATTR(extack, tb[addr_attr],
				    "an address needs PACER_RULE_A_FAMILY (AF_INET or AF_INET6)");
		return -EINVAL;
	}
	if (nla_len(tb[addr_attr]) != alen) {
		NL_SET_ERR_MSG_ATTR(extack, tb[addr_attr],
				    "address must be 4 bytes for AF_INET, 16 for AF_INET6");
		return -EINVAL;
	}
	plen = tb[plen_attr] ? nla_get_u8(tb[plen_attr]) : alen * 8;
	if (plen > alen * 8) {
		NL_SET_ERR_MSG_ATTR(extack, tb[plen_attr],
				    "prefix length must be 0-32 for IPv4, 0-128 for IPv6");
		return -EINVAL;
	}

	addr = addr_attr == PACER_RULE_A_SRC ? &r->src : &r->dst;
	nla_memcpy(addr, tb[addr_attr], alen);
	/* Host bits do not matter to a prefix: clear them. */
	for (i = 0; i < alen; i++) {
		int bits = clamp_t(int, plen - i * 8, 0, 8);

		addr->s6_addr[i] &= (u8)(0xff00 >> bits);
	}
	if (addr_attr == PACER_RULE_A_SRC) {
		r->src_plen = plen;
		r->match |= PACER_MATCH_SRC;
	} else {
		r->dst_plen = plen;
		r->match |= PACER_MATCH_DST;
	}
	return 0;
}

static int pacer_nl_rule_ports(struct nlattr **tb, int min_attr, int max_attr,
			       u16 *min, u16 *max,
			       struct netlink_ext_ack *extack)
{
	if (!tb[min_attr]) {
		if (tb[max_attr]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[max_attr],
					    "a highest port needs a lowest port");
			return -EINVAL;
		}
		return 0;
	}
	*min = nla_get_u16(tb[min_attr]);
	*max = tb[max_attr] ? nla_get_u16(tb[max_attr]) : *min;
	if (*max < *min) {
		NL_SET_ERR_MSG_ATTR(extack, tb[max_attr],
				    "port range must not end below its start");
		return -EINVAL;
	}
	return 1;
}

/* Build a rule from a request; checked whole before anything changes. */
static int pacer_nl_rule_precheck(struct nlattr **tb, struct pacer_rule *r,
				  struct netlink_ext_ack *extack)
{
	int err;

	if (tb[PACER_RULE_A_PREF])
		r->pref = nla_get_u32(tb[PACER_RULE_A_PREF]);
	r->class_id = nla_get_u16(tb[PACER_RULE_A_CLASS]);
	if (tb[PACER_RULE_A_FAMILY]) {
		r->family = nla_get_u8(tb[PACER_RULE_A_FAMILY]);
		if (r->family != AF_INET && r->family != AF_INET6) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_RULE_A_FAMILY],
					    "family must be AF_INET or AF_INET6");
			return -EINVAL;
		}
		r->match |= PACER_MATCH_FAMILY;
	}
	err = pacer_nl_rule_prefix(tb, PACER_RULE_A_SRC, PACER_RULE_A_SRC_PLEN,
				   r, extack);
	if (err)
		return err;
	err = pacer_nl_rule_prefix(tb, PACER_RULE_A_DST, PACER_RULE_A_DST_PLEN,
				   r, extack);
	if (err)
		return err;
	if (tb[PACER_RULE_A_PROTO]) {
		r->proto = nla_get_u8(tb[PACER_RULE_A_PROTO]);
		r->match |= PACER_MATCH_PROTO;
	}
	err = pacer_nl_rule_ports(tb, PACER_RULE_A_SPORT_MIN,
				  PACER_RULE_A_SPORT_MAX, &r->sport_min,
				  &r->sport_max, extack);
	if (err < 0)
		return err;
	if (err)
		r->match |= PACER_MATCH_SPORT;
	err = pacer_nl_rule_ports(tb, PACER_RULE_A_DPORT_MIN,
				  PACER_RULE_A_DPORT_MAX, &r->dport_min,
				  &r->dport_max, extack);
	if (err < 0)
		return err;
	if (err)
		r->match |= PACER_MATCH_DPORT;
	if (tb[PACER_RULE_A_MARK_MASK] && !tb[PACER_RULE_A_MARK]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[PACER_RULE_A_MARK_MASK],
				    "a mark mask needs a mark");
		return -EINVAL;
	}
	if (tb[PACER_RULE_A_MARK]) {
		r->mark = nla_get_u32(tb[PACER_RULE_A_MARK]);
		r->mark_mask = tb[PACER_RULE_A_MARK_MASK] ?
			       nla_get_u32(tb[PACER_RULE_A_MARK_MASK]) : ~0U;
		if (r->mark & ~r->mark_mask) {
			NL_SET_ERR_MSG_ATTR(extack, tb[PACER_RULE_A_MARK],
					    "mark has bits outside its mask");
			return -EINVAL;
		}
		r->match |= PACER_MATCH_MARK;
	}
	if (tb[PACER_RULE_A_PRIO]) {
		r->prio = nla_get_u32(tb[PACER_RULE_A_PRIO]);
		r->match |= PACER_MATCH_PRIO;
	}
	return 0;
}

static int pacer_nl_parse_rule(struct genl_info *info, struct nlattr **tb)
{
	if (GENL_REQ_ATTR_CHECK(info, PACER_A_RULE)) {
		NL_SET_ERR_MSG_MOD(info->extack, "PACER_A_RULE is required");
		return -EINVAL;
	}
	return nla_parse_nested(tb, PACER_RULE_A_MAX,
				info->attrs[PACER_A_RULE], pacer_rule_policy,
				info->extack);
}

/* Reply to the requester and tell the events group about a rule. */
static int pacer_nl_rule_out_send(struct pacer_nl_out *out,
				  struct genl_info *info,
				  struct net_device *dev,
				  const struct pacer_rule *r, u8 cmd)
{
	return pacer_nl_out_send(out, dev, info,
				 out->event ?
				 pacer_nl_fill_rule(out->event, dev, r, 0, 0, 0,
						    cmd, NULL) : 0,
				 pacer_nl_fill_rule(out->reply, dev, r,
						    info->snd_portid,
						    info->snd_seq, 0, cmd,
						    NULL));
}

static int pacer_nl_rule_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[PACER_RULE_A_MAX + 1];
	struct pacer_nl_out out;
	struct net_device *dev;
	struct pacer_rule *rule;
	struct pacer_class *cl;
	struct pacer_dev *pd;
	int err;

	err = pacer_nl_parse_rule(info, tb);
	if (err)
		return err;
	if (!tb[PACER_RULE_A_CLASS]) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "PACER_RULE_A_CLASS is required");
		NL_SET_ERR_ATTR_MISS(info->extack, info->attrs[PACER_A_RULE],
				     PACER_RULE_A_CLASS);
		return -EINVAL;
	}
	rule = pacer_rule_alloc();
	if (!rule)
		return -ENOMEM;
	err = pacer_nl_rule_precheck(tb, rule, info->extack);
	if (err)
		goto free;

	dev = pacer_nl_dev_lock(info);
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
		goto free;
	}
	pd = netdev_priv(dev);
	cl = xa_load(&pd->classes, rule->class_id);
	if (!cl) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_RULE_A_CLASS],
				    "no class with this id on the device");
		err = -ENOENT;
		goto unlock;
	}
	if (pd->rules->n >= pd->max_rules) {
		NL_SET_ERR_MSG_MOD(info->extack,
				   "the device has max_rules rules: delete one or raise the cap");
		err = -ENOSPC;
		goto unlock;
	}
	err = pacer_nl_out_alloc(&out, dev, NLMSG_DEFAULT_SIZE);
	if (err)
		goto unlock;
	rule->class = cl;
	err = pacer_rules_insert(pd->rules, rule, info->extack);
	if (err) {
		if (err == -EEXIST)
			NL_SET_BAD_ATTR(info->extack, tb[PACER_RULE_A_PREF]);
		pacer_nl_out_free(&out);
		goto unlock;
	}
	cl->nrules++;
	err = pacer_nl_rule_out_send(&out, info, dev, rule,
				     PACER_CMD_RULE_NEW);
	rtnl_unlock();
	return err;

unlock:
	rtnl_unlock();
free:
	pacer_rule_free(rule);
	return err;
}

static int pacer_nl_rule_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *tb[PACER_RULE_A_MAX + 1];
	struct pacer_nl_out out;
	struct net_device *dev;
	struct pacer_rule *rule;
	struct pacer_dev *pd;
	int err;

	err = pacer_nl_parse_rule(info, tb);
	if (err)
		return err;
	if (!tb[PACER_RULE_A_PREF]) {
		NL_SET_ERR_MSG_MOD(info->extack, "PACER_RULE_A_PREF is required");
		NL_SET_ERR_ATTR_MISS(info->extack, info->attrs[PACER_A_RULE],
				     PACER_RULE_A_PREF);
		return -EINVAL;
	}

	dev = pacer_nl_dev_lock(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	pd = netdev_priv(dev);
	err = pacer_nl_out_alloc(&out, dev, NLMSG_DEFAULT_SIZE);
	if (err)
		goto out;
	rule = pacer_rules_remove(pd->rules, nla_get_u32(tb[PACER_RULE_A_PREF]));
	if (!rule) {
		NL_SET_ERR_MSG_ATTR(info->extack, tb[PACER_RULE_A_PREF],
				    "no rule with this pref on the device");
		pacer_nl_out_free(&out);
		err = -ENOENT;
		goto out;
	}
	rule->class->nrules--;
	err = pacer_nl_rule_out_send(&out, info, dev, rule,
				     PACER_CMD_RULE_DEL);
	pacer_rule_free(rule);
out:
	rtnl_unlock();
	return err;
}

/*
 * cb->args[0]: the lowest pref not yet sent; cb->args[1]: set once the
 * rule at the highest pref there can be was, which has no next pref in an
 * unsigned long of 32 bits; cb->args[2]: pacer_nl_dump_dev().
 */
static int pacer_nl_rule_get_dumpit(struct sk_buff *skb,
				    struct netlink_callback *cb)
{
	const struct pacer_rule *rule;
	struct pacer_rules *rules;
	struct net_device *dev;
	unsigned long pref;
	int err = 0;

	rcu_read_lock();
	dev = pacer_nl_dump_dev(skb, cb);
	if (IS_ERR(dev)) {
		err = PTR_ERR(dev);
		goto out;
	}
	rules = ((struct pacer_dev *)netdev_priv(dev))->rules;
	/* Rules added or deleted between two parts flag the dump. */
	cb->seq = READ_ONCE(rules->gen);
	if (cb->args[1])
		goto out;
	xa_for_each_start(&rules->by_pref, pref, rule, cb->args[0]) {
		if (pacer_nl_fill_rule(skb, dev, rule,
				       NETLINK_CB(cb->skb).portid,
				       cb->nlh->nlmsg_seq, NLM_F_MULTI,
				       PACER_CMD_RULE_GET, cb))
			break;
		if (pref == U32_MAX) {
			cb->args[1] = 1;
			break;
		}
		cb->args[0] = pref + 1;
	}
out:
	rcu_read_unlock();
	return err ?: skb->len;
}

/* ---- statistics ------------------------------------------------------- */

static int pacer_nl_stats_reset_doit(struct sk_buff *skb,
				     struct genl_info *info)
{
	struct nlattr *tb[PACER_CLASS_A_MAX + 1] = {};
	struct pacer_class *cl = NULL;
	struct net_device *dev;
	struct pacer_dev *pd;
	unsigned long id;
	u16 class_id;
	int err = 0;

	/*
	 * A class nest names one class: without its id it is refused, not
	 * taken for "every class".
	 */
	if (info->attrs[PACER_A_CLASS]) {
		err = pacer_nl_parse_class_id(info, tb, &class_id);
		if (err)
			return err;
	}

	dev = pacer_nl_dev_lock(info);
	if (IS_ERR(dev))
		return PTR_ERR(dev);
	pd = netdev_priv(dev);
	if (tb[PACER_CLASS_A_ID]) {
		cl = pacer_nl_class_get(pd, class_id, info, tb);
		if (!cl) {
			err = -ENOENT;
			goto out;
		}
		pacer_class_reset_stats(cl);
	} else {
		xa_for_each(&pd->classes, id, cl)
			pacer_class_reset_stats(cl);
	}
out:
	rtnl_unlock();
	return err;
}

static const struct genl_ops pacer_genl_ops[] = {
	{
		.cmd		= PACER_CMD_DEV_GET,
		.doit		= pacer_nl_dev_get_doit,
		.start		= pacer_nl_dev_get_start,
		.dumpit		= pacer_nl_dev_get_dumpit,
	},
	{
		.cmd		= PACER_CMD_CLASS_NEW,
		.doit		= pacer_nl_class_new_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= PACER_CMD_CLASS_SET,
		.doit		= pacer_nl_class_set_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= PACER_CMD_CLASS_DEL,
		.doit		= pacer_nl_class_del_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= PACER_CMD_CLASS_GET,
		.doit		= pacer_nl_class_get_doit,
		.dumpit		= pacer_nl_class_get_dumpit,
	},
	{
		.cmd		= PACER_CMD_RULE_NEW,
		.doit		= pacer_nl_rule_new_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= PACER_CMD_RULE_DEL,
		.doit		= pacer_nl_rule_del_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= PACER_CMD_RULE_GET,
		.dumpit		= pacer_nl_rule_get_dumpit,
	},
	{
		.cmd		= PACER_CMD_STATS_RESET,
		.doit		= pacer_nl_stats_reset_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= PACER_CMD_DEV_SET,
		.doit		= pacer_nl_dev_set_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
};

static struct genl_family pacer_genl_family __ro_after_init = {
	.name		= PACER_GENL_NAME,
	.version	= PACER_GENL_VERSION,
	.maxattr	= PACER_A_MAX,
	.policy		= pacer_policy,
	.netnsok	= true,
	.parallel_ops	= true,
	.module		= THIS_MODULE,
	.ops		= pacer_genl_ops,
	.n_ops		= ARRAY_SIZE(pacer_genl_ops),
	.mcgrps		= pacer_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(pacer_mcgrps),
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
