// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: classification.
 *
 * A packet goes to the class of the first rule (in pref order) that
 * matches it; failing that, to the class that skb->priority names (its
 * minor number, as tc prints a classid), so "tc ... action skbedit
 * priority" can steer packets; failing that, to the default class 0.
 * Headers are read once per packet, by the kernel's flow dissector, in the
 * device's xmit: the same keys serve the rules and the flow hash.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/percpu.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/flow_dissector.h>
#include <linux/inetdevice.h>
#include <net/ipv6.h>

#include "classify.h"
#include "pacer.h"

static bool pacer_prefix_match(const struct pacer_rule *r,
			       const struct flow_keys *keys, bool src)
{
	const struct in6_addr *prefix = src ? &r->src : &r->dst;
	u8 plen = src ? r->src_plen : r->dst_plen;

	if (r->family == AF_INET) {
		__be32 addr;

		if (keys->control.addr_type != FLOW_DISSECTOR_KEY_IPV4_ADDRS)
			return false;
		addr = src ? keys->addrs.v4addrs.src : keys->addrs.v4addrs.dst;
		return !((addr ^ prefix->s6_addr32[0]) & inet_make_mask(plen));
	}
	if (keys->control.addr_type != FLOW_DISSECTOR_KEY_IPV6_ADDRS)
		return false;
	return ipv6_prefix_equal(src ? &keys->addrs.v6addrs.src :
				       &keys->addrs.v6addrs.dst, prefix, plen);
}

static bool pacer_rule_match(const struct pacer_rule *r,
			     const struct sk_buff *skb,
			     const struct flow_keys *keys)
{
	u16 port;

	if ((r->match & PACER_MATCH_FAMILY) &&
	    keys->basic.n_proto != htons(r->family == AF_INET ? ETH_P_IP :
							       ETH_P_IPV6))
		return false;
	if ((r->match & PACER_MATCH_SRC) && !pacer_prefix_match(r, keys, true))
		return false;
	if ((r->match & PACER_MATCH_DST) && !pacer_prefix_match(r, keys, false))
		return false;
	if ((r->match & PACER_MATCH_PROTO) && keys->basic.ip_proto != r->proto)
		return false;
	if (r->match & PACER_MATCH_SPORT) {
		port = ntohs(keys->ports.src);
		if (port < r->sport_min || port > r->sport_max)
			return false;
	}
	if (r->match & PACER_MATCH_DPORT) {
		port = ntohs(keys->ports.dst);
		if (port < r->dport_min || port > r->dport_max)
			return false;
	}
	if ((r->match & PACER_MATCH_MARK) &&
	    (skb->mark & r->mark_mask) != r->mark)
		return false;
	if ((r->match & PACER_MATCH_PRIO) && skb->priority != r->prio)
		return false;
	return true;
}

/**
 * pacer_classify() - the class a packet goes to
 * @pd: the device
 * @skb: the packet, data at the Ethernet header
 * @keys: its headers, from skb_flow_dissect_flow_keys()
 *
 * Context: RCU read side (the device's xmit).
 * Return: the class, or NULL while the device is being torn down.
 */
struct pacer_class *pacer_classify(struct pacer_dev *pd,
				   const struct sk_buff *skb,
				   const struct flow_keys *keys)
{
	const struct pacer_rules *rules = rcu_dereference_bh(pd->rules);
	struct pacer_class *cl;
	unsigned int i;

	for (i = 0; rules && i < rules->n; i++) {
		struct pacer_rule *r = rules->rule[i];

		if (!pacer_rule_match(r, skb, keys))
			continue;
		cl = xa_load(&pd->classes, r->class_id);
		if (likely(cl)) {
			this_cpu_inc(*r->matches);
			return cl;
		}
	}

	if (skb->priority && TC_H_MIN(skb->priority)) {
		cl = xa_load(&pd->classes, TC_H_MIN(skb->priority));
		if (cl)
			return cl;
	}
	return xa_load(&pd->classes, PACER_CLASS_DEFAULT);
}

/**
 * pacer_flow_hash() - the flow a packet belongs to, for DRR
 * @pd: the device, whose secret key makes the hash unpredictable
 * @keys: the packet's headers
 *
 * Addresses, protocol and ports only.  skb->hash and
 * the kernel's flow hash also take the IPv6 flow label, which TCP
 * changes with its txhash on every retransmit timeout; a flow split
 * over two buckets would be reordered by DRR.
 *
 * Return: the hash.
 */
u32 pacer_flow_hash(const struct pacer_dev *pd, const struct flow_keys *keys)
{
	struct {
		struct in6_addr src;
		struct in6_addr dst;
		__be32 ports;
		__be16 n_proto;
		u8 ip_proto;
		u8 pad;
	} __aligned(SIPHASH_ALIGNMENT) tuple = {
		.ports = keys->ports.ports,
		.n_proto = keys->basic.n_proto,
		.ip_proto = keys->basic.ip_proto,
	};

	switch (keys->control.addr_type) {
	case FLOW_DISSECTOR_KEY_IPV4_ADDRS:
		tuple.src.s6_addr32[0] = keys->addrs.v4addrs.src;
		tuple.dst.s6_addr32[0] = keys->addrs.v4addrs.dst;
		break;
	case FLOW_DISSECTOR_KEY_IPV6_ADDRS:
		tuple.src = keys->addrs.v6addrs.src;
		tuple.dst = keys->addrs.v6addrs.dst;
		break;
	}
	return (u32)siphash(&tuple, sizeof(tuple), &pd->flow_key);
}

/**
 * pacer_rule_alloc() - a rule with no criteria and its counter
 *
 * Context: process context, may sleep.
 * Return: the rule or NULL.
 */
struct pacer_rule *pacer_rule_alloc(void)
{
	struct pacer_rule *rule = kzalloc(sizeof(*rule), GFP_KERNEL);

	if (!rule)
		return NULL;
	rule->matches = alloc_percpu(u64);
	if (!rule->matches) {
		kfree(rule);
		return NULL;
	}
	return rule;
}

static void pacer_rule_free_rcu(struct rcu_head *head)
{
	struct pacer_rule *rule = container_of(head, struct pacer_rule, rcu);

	free_percpu(rule->matches);
	kfree(rule);
}

/**
 * pacer_rule_free() - free a rule after an RCU grace period
 * @rule: a rule no longer in the device's rules
 */
void pacer_rule_free(struct pacer_rule *rule)
{
	call_rcu(&rule->rcu, pacer_rule_free_rcu);
}

/**
 * pacer_rule_matches() - packets a rule classified
 * @rule: the rule
 *
 * Return: the sum of the per-CPU counters.
 */
u64 pacer_rule_matches(const struct pacer_rule *rule)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *per_cpu_ptr(rule->matches, cpu);
	return sum;
}

static struct pacer_rules *pacer_rules_alloc(unsigned int n)
{
	struct pacer_rules *rules;

	rules = kzalloc(struct_size(rules, rule, n), GFP_KERNEL);
	if (rules)
		rules->n = n;
	return rules;
}

static void pacer_rules_replace(struct pacer_dev *pd, struct pacer_rules *new)
{
	struct pacer_rules *old = rtnl_dereference(pd->rules);

	/* Never 0: a dump treats generation 0 as "not started". */
	if (++pd->rules_gen == 0)
		pd->rules_gen = 1;
	if (new)
		new->gen = pd->rules_gen;
	rcu_assign_pointer(pd->rules, new);
	if (old)
		kfree_rcu(old, rcu);
}

/**
 * pacer_rules_insert() - add a rule in pref order
 * @pd: the device
 * @rule: the rule; a pref of 0 means one past the highest in use
 * @extack: for the rejection message
 *
 * Context: RTNL held.
 * Return: 0, -EEXIST if the pref is taken, or -ENOMEM.
 */
int pacer_rules_insert(struct pacer_dev *pd, struct pacer_rule *rule,
		       struct netlink_ext_ack *extack)
{
	struct pacer_rules *old = rtnl_dereference(pd->rules), *new;
	unsigned int n = old ? old->n : 0, i, pos;

	if (!rule->pref) {
		if (n && old->rule[n - 1]->pref == U32_MAX) {
			NL_SET_ERR_MSG_MOD(extack,
					   "no pref is left after the highest in use: give one");
			return -ERANGE;
		}
		rule->pref = n ? old->rule[n - 1]->pref + 1 : 1;
	}
	for (pos = 0; pos < n && old->rule[pos]->pref < rule->pref; pos++)
		;
	if (pos < n && old->rule[pos]->pref == rule->pref) {
		NL_SET_ERR_MSG_MOD(extack, "a rule with this pref exists");
		return -EEXIST;
	}

	new = pacer_rules_alloc(n + 1);
	if (!new)
		return -ENOMEM;
	for (i = 0; i < pos; i++)
		new->rule[i] = old->rule[i];
	new->rule[pos] = rule;
	for (i = pos; i < n; i++)
		new->rule[i + 1] = old->rule[i];
	pacer_rules_replace(pd, new);
	return 0;
}

/**
 * pacer_rules_remove() - take a rule out of the device's rules
 * @pd: the device
 * @pref: the rule's pref
 *
 * Context: RTNL held.
 * Return: the rule (the caller frees it with pacer_rule_free()), NULL if
 * there is none with @pref, or an ERR_PTR on allocation failure.
 */
struct pacer_rule *pacer_rules_remove(struct pacer_dev *pd, u32 pref)
{
	struct pacer_rules *old = rtnl_dereference(pd->rules), *new = NULL;
	unsigned int n = old ? old->n : 0, i, pos;
	struct pacer_rule *rule;

	for (pos = 0; pos < n && old->rule[pos]->pref != pref; pos++)
		;
	if (pos == n)
		return NULL;
	rule = old->rule[pos];

	if (n > 1) {
		new = pacer_rules_alloc(n - 1);
		if (!new)
			return ERR_PTR(-ENOMEM);
		for (i = 0; i < n; i++)
			if (i != pos)
				new->rule[i < pos ? i : i - 1] = old->rule[i];
	}
	pacer_rules_replace(pd, new);
	return rule;
}

/**
 * pacer_rules_find_class() - a rule that sends packets to a class
 * @pd: the device
 * @class_id: the class
 *
 * Context: RTNL held.
 * Return: the first such rule, or NULL.
 */
const struct pacer_rule *pacer_rules_find_class(struct pacer_dev *pd,
						u16 class_id)
{
	const struct pacer_rules *rules = rtnl_dereference(pd->rules);
	unsigned int i;

	for (i = 0; rules && i < rules->n; i++)
		if (rules->rule[i]->class_id == class_id)
			return rules->rule[i];
	return NULL;
}

/**
 * pacer_rules_free() - free all rules of a device being destroyed
 * @pd: the device
 */
void pacer_rules_free(struct pacer_dev *pd)
{
	struct pacer_rules *rules = rcu_dereference_protected(pd->rules, 1);
	unsigned int i;

	RCU_INIT_POINTER(pd->rules, NULL);
	if (!rules)
		return;
	for (i = 0; i < rules->n; i++)
		pacer_rule_free(rules->rule[i]);
	kfree_rcu(rules, rcu);
}
