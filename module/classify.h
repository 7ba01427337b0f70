/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: rules that map a packet to a class.
 */
#ifndef _PACER_CLASSIFY_H
#define _PACER_CLASSIFY_H

#include <linux/in6.h>
#include <linux/netlink.h>
#include <linux/types.h>

struct pacer_dev;

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
 * @match: PACER_MATCH_* criteria this rule has
 * @family: AF_INET or AF_INET6 when it has addresses
 * @src_plen: source prefix length
 * @dst_plen: destination prefix length
 * @proto: IP protocol
 * @src: source prefix (IPv4 in the first word)
 * @dst: destination prefix
 * @sport_min: lowest source port
 * @sport_max: highest source port
 * @dport_min: lowest destination port
 * @dport_max: highest destination port
 * @mark: skb->mark after masking
 * @mark_mask: mask for skb->mark
 * @prio: skb->priority
 * @matches: per-CPU count of packets classified by this rule
 * @rcu: frees the rule after readers are done
 */
struct pacer_rule {
	u32 pref;
	u16 class_id;
	u16 match;
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
	struct rcu_head rcu;
};

/**
 * struct pacer_rules - a device's rules, replaced whole on every change
 * @rcu: frees the array after readers are done
 * @gen: changes with every change, so a dump can tell it was interrupted
 * @n: number of rules
 * @rule: the rules in @pref order
 */
struct pacer_rules {
	struct rcu_head rcu;
	u32 gen;
	unsigned int n;
	struct pacer_rule *rule[];
};

struct pacer_rule *pacer_rule_alloc(void);
void pacer_rule_free(struct pacer_rule *rule);
u64 pacer_rule_matches(const struct pacer_rule *rule);
int pacer_rules_insert(struct pacer_dev *pd, struct pacer_rule *rule,
		       struct netlink_ext_ack *extack);
struct pacer_rule *pacer_rules_remove(struct pacer_dev *pd, u32 pref);
const struct pacer_rule *pacer_rules_find_class(struct pacer_dev *pd,
						u16 class_id);

#endif /* _PACER_CLASSIFY_H */
