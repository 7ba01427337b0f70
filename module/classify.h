/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: rules that map a packet to a class.
 */
#ifndef _PACER_CLASSIFY_H
#define _PACER_CLASSIFY_H

#include <linux/in6.h>
#include <linux/netlink.h>
#include <linux/rbtree.h>
#include <linux/types.h>
#include <linux/xarray.h>

struct flow_keys;
struct pacer_class;
struct pacer_rule_entry;
struct sk_buff;

/* Criteria a rule has; a rule matches when all of them match. */
#define PACER_MATCH_SRC		BIT(0)
#define PACER_MATCH_DST		BIT(1)
#define PACER_MATCH_PROTO	BIT(2)
#define PACER_MATCH_SPORT	BIT(3)
#define PACER_MATCH_DPORT	BIT(4)
#define PACER_MATCH_MARK	BIT(5)
#define PACER_MATCH_PRIO	BIT(6)
#define PACER_MATCH_FAMILY	BIT(7)

/**
 * struct pacer_rule - one classification rule
 * @pref: evaluation order, unique per device
 * @class_id: class of a matching packet
 * @class: that class, which cannot be deleted while a rule sends packets
 *	to it; set when the rule is added
 * @match: PACER_MATCH_* criteria this rule has
 * @family: AF_INET or AF_INET6 when it has addresses
 * @src_plen: source prefix length
 * @dst_plen: destination prefix length
 * @proto: IP protocol
 * @src: source prefix (IPv4 in the first word), host bits clear
 * @dst: destination prefix, host bits clear
 * @sport_min: lowest source port
 * @sport_max: highest source port
 * @dport_min: lowest destination port
 * @dport_max: highest destination port
 * @mark: skb->mark after masking
 * @mark_mask: mask for skb->mark
 * @prio: skb->priority
 * @matches: per-CPU count of packets classified by this rule
 * @entry: its entry in its shape's hash table, under RTNL
 * @pref_node: in &pacer_rules.by_pref_tree, under RTNL
 * @rcu: frees the rule after readers are done
 */
struct pacer_rule {
	u32 pref;
	u16 class_id;
	u16 match;
	struct pacer_class *class;
	u8 family;
	u8 src_plen;
	u8 dst_plen;
	u8 proto;
	struct in6_addr src;
	struct in6_addr dst;
	u16 sport_min;
	u16 sport_max;
	u16 dport_min;
	u16 dport_max;
	u32 mark;
	u32 mark_mask;
	u32 prio;
	u64 __percpu *matches;
	struct pacer_rule_entry *entry;
	struct rb_node pref_node;
	struct rcu_head rcu;
};

/**
 * struct pacer_rules - a device's rules
 * @by_pref: rules by pref, for lookups and dumps; RCU readers, writers
 *	under RTNL
 * @by_pref_tree: the same rules in a tree, for the highest pref in use;
 *	under RTNL
 * @shapes: &struct pacer_shape, one per combination of criteria that
 *	rules use as a hash key; RCU readers, writers under RTNL
 * @n: number of rules, under RTNL
 * @gen: changes with every change, so a dump can tell it was interrupted
 * @seed: of the hash tables
 * @rcu: frees the rule set after readers are done
 *
 * A packet is matched against one hash bucket per shape, not against
 * every rule: rules that share their prefix lengths (10,000 /32s) cost
 * one lookup between them.
 */
struct pacer_rules {
	struct xarray by_pref;
	struct rb_root by_pref_tree;
	struct list_head shapes;
	unsigned int n;
	u32 gen;
	u32 seed;
	struct rcu_head rcu;
};

struct pacer_rules *pacer_rules_create(void);
void pacer_rules_destroy(struct pacer_rules *rules);
struct pacer_rule *pacer_rule_alloc(void);
void pacer_rule_free(struct pacer_rule *rule);
u64 pacer_rule_matches(const struct pacer_rule *rule);
int pacer_rules_insert(struct pacer_rules *rules, struct pacer_rule *rule,
		       struct netlink_ext_ack *extack);
struct pacer_rule *pacer_rules_remove(struct pacer_rules *rules, u32 pref);

#endif /* _PACER_CLASSIFY_H */
