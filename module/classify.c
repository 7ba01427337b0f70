// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: classification.
 *
 * A packet goes to the class of the first rule (in pref order) that
 * matches it; failing that, to the class that skb->priority names (its
 * minor number, as tc prints a classid), so "tc ... action skbedit
 * priority" can steer packets; failing that, to the default class 0.
 * Headers are read once per packet, in the device's xmit (parse.c: the
 * flow dissector's keys): the same keys serve the rules and the flow hash.
 *
 * Rules are grouped by shape: which of family, source prefix length,
 * destination prefix length and protocol they match on.  Within a shape
 * those criteria form an exact-match key, so each shape is a hash table
 * and a packet costs one bucket per shape, however many rules share it
 * (tuple space search, as Open vSwitch's classifier does).  Ports, marks
 * and priorities are ranges or masks: they are checked on the rules the
 * key found.  A bucket's rules are kept in pref order, so the first match
 * in a bucket is that shape's best, and a shape whose lowest pref cannot
 * beat the best match so far is skipped.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/inetdevice.h>
#include <linux/jhash.h>
#include <linux/log2.h>
#include <linux/percpu.h>
#include <linux/pkt_sched.h>
#include <linux/random.h>
#include <linux/rculist.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/flow_dissector.h>
#include <net/ipv6.h>

#include "classify.h"
#include "pacer.h"
#include "testing.h"

/* Criteria that are part of a shape's hash key; the rest are checked after. */
#define PACER_MATCH_KEY	(PACER_MATCH_FAMILY | PACER_MATCH_SRC | \
			 PACER_MATCH_DST | PACER_MATCH_PROTO)
#define PACER_SHAPE_BUCKETS_MIN	8

/*
 * What a shape hashes: the packet's (or the rule's) key criteria, masked.
 * Whole 64-bit words, padding zeroed, so that keys compare word by word.
 */
struct pacer_rule_key {
	struct in6_addr src;
	struct in6_addr dst;
	u8 family;
	u8 proto;
	u16 pad;
	u32 pad2;
} __aligned(sizeof(u64));

/*
 * A rule in one generation of its shape's table, with its key: a lookup
 * compares keys without touching the rules they do not match.
 */
struct pacer_rule_entry {
	struct hlist_node node;
	struct pacer_rule *rule;
	struct pacer_rule_key key;
};

struct pacer_shape_table {
	struct rcu_head rcu;
	u32 mask;
	struct hlist_head buckets[];
};

/**
 * struct pacer_shape - the rules that match on the same key criteria
 * @node: on &pacer_rules.shapes
 * @match: the PACER_MATCH_KEY criteria of its rules
 * @family: their family, when they match on one
 * @src_plen: their source prefix length
 * @dst_plen: their destination prefix length
 * @min_pref: no rule of the shape has a lower pref (a bound: it is not
 *	raised when that rule goes)
 * @n: its rules, under RTNL
 * @table: its hash table; replaced whole when it grows
 * @rcu: frees the shape after readers are done
 */
struct pacer_shape {
	struct list_head node;
	u16 match;
	u8 family;
	u8 src_plen;
	u8 dst_plen;
	u32 min_pref;
	unsigned int n;
	struct pacer_shape_table __rcu *table;
	struct rcu_head rcu;
};

static bool pacer_shape_has(const struct pacer_shape *sh,
			    const struct pacer_rule *r)
{
	return sh->match == (r->match & PACER_MATCH_KEY) &&
	       sh->family == r->family &&
	       sh->src_plen == r->src_plen && sh->dst_plen == r->dst_plen;
}

static void pacer_rule_key(const struct pacer_rule *r, struct pacer_rule_key *k)
{
	memset(k, 0, sizeof(*k));
	if (r->match & (PACER_MATCH_FAMILY | PACER_MATCH_SRC | PACER_MATCH_DST))
		k->family = r->family;
	if (r->match & PACER_MATCH_SRC)
		k->src = r->src;
	if (r->match & PACER_MATCH_DST)
		k->dst = r->dst;
	if (r->match & PACER_MATCH_PROTO)
		k->proto = r->proto;
}

static void pacer_prefix(struct in6_addr *out, const struct flow_keys *keys,
			 bool src, u8 family, u8 plen)
{
	if (family == AF_INET)
		out->s6_addr32[0] = (src ? keys->addrs.v4addrs.src :
					   keys->addrs.v4addrs.dst) &
				    inet_make_mask(plen);
	else
		ipv6_addr_prefix(out, src ? &keys->addrs.v6addrs.src :
					    &keys->addrs.v6addrs.dst, plen);
}

/* The packet's key in @sh's terms; false if no rule of @sh can match it. */
static bool pacer_packet_key(const struct pacer_shape *sh,
			     const struct flow_keys *keys,
			     struct pacer_rule_key *k)
{
	memset(k, 0, sizeof(*k));
	if (sh->match & PACER_MATCH_FAMILY) {
		if (keys->basic.n_proto != htons(sh->family == AF_INET ?
						 ETH_P_IP : ETH_P_IPV6))
			return false;
		k->family = sh->family;
	}
	if (sh->match & (PACER_MATCH_SRC | PACER_MATCH_DST)) {
		if (keys->control.addr_type !=
		    (sh->family == AF_INET ? FLOW_DISSECTOR_KEY_IPV4_ADDRS :
					     FLOW_DISSECTOR_KEY_IPV6_ADDRS))
			return false;
		k->family = sh->family;
		if (sh->match & PACER_MATCH_SRC)
			pacer_prefix(&k->src, keys, true, sh->family,
				     sh->src_plen);
		if (sh->match & PACER_MATCH_DST)
			pacer_prefix(&k->dst, keys, false, sh->family,
				     sh->dst_plen);
	}
	if (sh->match & PACER_MATCH_PROTO) {
		/*
		 * Where the dissector found no IP header it leaves ip_proto
		 * 0, which is a protocol number too (IPv6 hop-by-hop).
		 */
		if (keys->control.addr_type != FLOW_DISSECTOR_KEY_IPV4_ADDRS &&
		    keys->control.addr_type != FLOW_DISSECTOR_KEY_IPV6_ADDRS)
			return false;
		k->proto = keys->basic.ip_proto;
	}
	return true;
}

/*
 * Only an IPv6 key has more than the first word of its addresses set:
 * the others hash three words instead of nine (they are still compared
 * whole).
 */
static u32 pacer_key_hash(const struct pacer_rule_key *k, u32 seed)
{
	BUILD_BUG_ON(sizeof(*k) % sizeof(u32));
	if (k->family != AF_INET6)
		return jhash_3words((__force u32)k->src.s6_addr32[0],
				    (__force u32)k->dst.s6_addr32[0],
				    k->family | k->proto << 8, seed);
	return jhash2((const u32 *)k, sizeof(*k) / sizeof(u32), seed);
}

/*
 * Inline, in five words without a branch: it runs for every packet, and
 * memcmp() is a call that also orders keys, which no caller needs.
 */
static bool pacer_key_equal(const struct pacer_rule_key *a,
			    const struct pacer_rule_key *b)
{
	const u64 *x = (const u64 *)a, *y = (const u64 *)b;
	u64 diff = 0;
	unsigned int i;

	BUILD_BUG_ON(sizeof(*a) % sizeof(u64));
	for (i = 0; i < sizeof(*a) / sizeof(u64); i++)
		diff |= x[i] ^ y[i];
	return !diff;
}

/*
 * Whether @keys hold ports the packet carries.  The flow dissector leaves
 * them 0 in every fragment, in a protocol without ports and where the
 * transport header is cut short, and gives ESP's and AH's SPI in their
 * place: none of those may match a port range, not even one from 0.
 */
static bool pacer_keys_have_ports(const struct sk_buff *skb,
				  const struct flow_keys *keys)
{
	if (keys->control.flags & FLOW_DIS_IS_FRAGMENT)
		return false;
	switch (keys->basic.ip_proto) {
	case IPPROTO_TCP:
	case IPPROTO_UDP:
	case IPPROTO_UDPLITE:
	case IPPROTO_SCTP:
	case IPPROTO_DCCP:
		/* The dissector read them at thoff, if they were there. */
		return keys->control.thoff + sizeof(keys->ports.ports) <=
		       skb->len;
	default:
		return false;
	}
}

/* The criteria that are not part of the key. */
static bool pacer_rule_match_rest(const struct pacer_rule *r,
				  const struct sk_buff *skb,
				  const struct flow_keys *keys)
{
	u16 port;

	if ((r->match & (PACER_MATCH_SPORT | PACER_MATCH_DPORT)) &&
	    !pacer_keys_have_ports(skb, keys))
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
 * pacer_rules_classify() - the first rule, in pref order, a packet matches
 * @rules: the device's rules
 * @skb: the packet
 * @keys: its headers, from skb_flow_dissect_flow_keys()
 *
 * Context: RCU read side.
 * Return: the rule, or NULL if none matches.
 */
static const struct pacer_rule *
pacer_rules_classify(const struct pacer_rules *rules, const struct sk_buff *skb,
		     const struct flow_keys *keys)
{
	const struct pacer_rule *best = NULL;
	const struct pacer_shape *sh;

	list_for_each_entry_rcu(sh, &rules->shapes, node) {
		const struct pacer_shape_table *t;
		const struct pacer_rule_entry *e;
		struct pacer_rule_key k;
		u32 hash;

		if (best && READ_ONCE(sh->min_pref) >= best->pref)
			continue;
		if (!pacer_packet_key(sh, keys, &k))
			continue;
		hash = pacer_key_hash(&k, rules->seed);
		t = rcu_dereference(sh->table);
		hlist_for_each_entry_rcu(e, &t->buckets[hash & t->mask], node) {
			const struct pacer_rule *r = e->rule;

			if (best && r->pref >= best->pref)
				break;
			if (pacer_key_equal(&e->key, &k) &&
			    pacer_rule_match_rest(r, skb, keys)) {
				best = r;
				break;
			}
		}
	}
	return best;
}

/**
 * pacer_classify() - the class a packet goes to
 * @pd: the device
 * @skb: the packet, data at the Ethernet header
 * @keys: its headers, from skb_flow_dissect_flow_keys()
 *
 * Context: RCU read side (the device's xmit).
 * Return: the class.
 */
struct pacer_class *pacer_classify(struct pacer_dev *pd,
				   const struct sk_buff *skb,
				   const struct flow_keys *keys)
{
	const struct pacer_rule *r = pacer_rules_classify(pd->rules, skb, keys);
	struct pacer_class *cl;

	if (r) {
		this_cpu_inc(*r->matches);
		return r->class;
	}
	if (skb->priority && TC_H_MIN(skb->priority)) {
		cl = xa_load(&pd->classes, TC_H_MIN(skb->priority));
		if (cl)
			return cl;
	}
	return pd->default_class;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_classify);

/* The flow hash of a packet that is not IPv4: its tuple takes 48 bytes. */
static u32 pacer_flow_hash_wide(const struct pacer_dev *pd,
				const struct flow_keys *keys, u16 class_id)
{
	struct {
		struct in6_addr src;
		struct in6_addr dst;
		__be32 ports;
		__be16 n_proto;
		u8 ip_proto;
		u8 pad;
		u16 class_id;
		u16 pad2;
	} __aligned(HSIPHASH_ALIGNMENT) tuple = {
		.ports = keys->ports.ports,
		.n_proto = keys->basic.n_proto,
		.ip_proto = keys->basic.ip_proto,
		.class_id = class_id,
	};

	if (keys->control.addr_type == FLOW_DISSECTOR_KEY_IPV6_ADDRS) {
		tuple.src = keys->addrs.v6addrs.src;
		tuple.dst = keys->addrs.v6addrs.dst;
	}
	return hsiphash(&tuple, sizeof(tuple), &pd->flow_key);
}

/**
 * pacer_flow_hash() - the flow a packet belongs to, for DRR
 * @pd: the device, whose secret key makes the hash unpredictable
 * @keys: the packet's headers
 * @class_id: its class: the device's flow table holds every class's flows
 *
 * Keyed HalfSipHash, the kernel's hash for tables a remote sender must
 * not be able to fill with collisions (on 64-bit, SipHash-1-3): its
 * output stays inside pacer, so SipHash-2-4's margin buys nothing here.
 *
 * Addresses, protocol and ports only.  skb->hash and
 * the kernel's flow hash also take the IPv6 flow label, which TCP
 * changes with its txhash on every retransmit timeout; a flow split
 * over two buckets would be reordered by DRR.
 *
 * Return: the hash.
 */
u32 pacer_flow_hash(const struct pacer_dev *pd, const struct flow_keys *keys,
		    u16 class_id)
{
	/*
	 * IPv4's tuple fits in four words: six rounds instead of the wide
	 * tuple's ten, and no 48-byte tuple to clear and fill first.
	 */
	if (keys->control.addr_type == FLOW_DISSECTOR_KEY_IPV4_ADDRS)
		return hsiphash_4u32((__force u32)keys->addrs.v4addrs.src,
				     (__force u32)keys->addrs.v4addrs.dst,
				     (__force u32)keys->ports.ports,
				     keys->basic.ip_proto | class_id << 16,
				     &pd->flow_key);
	return pacer_flow_hash_wide(pd, keys, class_id);
}

/* ---- rules and their tables, under RTNL -------------------------------- */

/**
 * pacer_rules_create() - a device's empty rule set
 *
 * Context: process context, may sleep; charged to the caller's memory
 * cgroup.
 * Return: the rule set or NULL.
 */
struct pacer_rules *pacer_rules_create(void)
{
	struct pacer_rules *rules = kzalloc(sizeof(*rules), PACER_GFP);

	if (!rules)
		return NULL;
	xa_init(&rules->by_pref);
	rules->by_pref_tree = RB_ROOT;
	INIT_LIST_HEAD(&rules->shapes);
	rules->seed = get_random_u32();
	return rules;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_rules_create);

/**
 * pacer_rule_alloc() - a rule with no criteria and its counter
 *
 * Context: process context, may sleep; charged to the caller's memory
 * cgroup.
 * Return: the rule or NULL.
 */
struct pacer_rule *pacer_rule_alloc(void)
{
	struct pacer_rule *rule = kzalloc(sizeof(*rule), PACER_GFP);

	if (!rule)
		return NULL;
	rule->matches = alloc_percpu_gfp(u64, PACER_GFP);
	if (!rule->matches) {
		kfree(rule);
		return NULL;
	}
	return rule;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_rule_alloc);

static void pacer_rule_free_rcu(struct rcu_head *head)
{
	struct pacer_rule *rule = container_of(head, struct pacer_rule, rcu);

	/* Set only once the rule was unlinked from its table. */
	kfree(rule->entry);
	free_percpu(rule->matches);
	kfree(rule);
}

/**
 * pacer_rule_free() - free a rule after an RCU grace period
 * @rule: a rule never inserted, or returned by pacer_rules_remove()
 */
void pacer_rule_free(struct pacer_rule *rule)
{
	call_rcu(&rule->rcu, pacer_rule_free_rcu);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_rule_free);

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

static struct pacer_shape_table *pacer_table_alloc(u32 buckets)
{
	struct pacer_shape_table *t;
	u32 i;

	t = kvmalloc(struct_size(t, buckets, buckets), PACER_GFP);
	if (!t)
		return NULL;
	t->mask = buckets - 1;
	for (i = 0; i < buckets; i++)
		INIT_HLIST_HEAD(&t->buckets[i]);
	return t;
}

/* After a grace period: the table and the entries only it links. */
static void pacer_table_free_rcu(struct rcu_head *head)
{
	struct pacer_shape_table *t = container_of(head, struct pacer_shape_table,
						   rcu);
	struct pacer_rule_entry *e;
	struct hlist_node *tmp;
	u32 i;

	for (i = 0; i <= t->mask; i++)
		hlist_for_each_entry_safe(e, tmp, &t->buckets[i], node)
			kfree(e);
	kvfree(t);
}

/* Link @rule into @t's bucket for @hash, in pref order. */
static void pacer_table_link(struct pacer_shape_table *t, u32 hash,
			     struct pacer_rule_entry *e)
{
	struct hlist_head *head = &t->buckets[hash & t->mask];
	struct pacer_rule_entry *pos, *last = NULL;

	hlist_for_each_entry(pos, head, node) {
		if (pos->rule->pref > e->rule->pref) {
			hlist_add_before_rcu(&e->node, &pos->node);
			return;
		}
		last = pos;
	}
	if (last)
		hlist_add_behind_rcu(&e->node, &last->node);
	else
		hlist_add_head_rcu(&e->node, head);
}

/*
 * A table twice the size, with entries of its own: readers of the old
 * one keep walking its entries until the grace period ends.  Each new
 * bucket takes from exactly one old bucket, so walking the old buckets in
 * order and appending keeps every new bucket in pref order.
 */
static int pacer_shape_grow(struct pacer_rules *rules, struct pacer_shape *sh)
{
	struct pacer_shape_table *old = rtnl_dereference(sh->table), *new;
	struct pacer_rule_entry *e, *ne;
	u32 i;

	new = pacer_table_alloc((old->mask + 1) * 2);
	if (!new)
		return -ENOMEM;
	for (i = 0; i <= old->mask; i++) {
		hlist_for_each_entry(e, &old->buckets[i], node) {
			ne = kmalloc(sizeof(*ne), PACER_GFP);
			if (!ne) {
				pacer_table_free_rcu(&new->rcu);
				return -ENOMEM;
			}
			ne->rule = e->rule;
			ne->key = e->key;
			pacer_table_link(new,
					 pacer_key_hash(&ne->key, rules->seed),
					 ne);
		}
	}
	for (i = 0; i <= new->mask; i++)
		hlist_for_each_entry(ne, &new->buckets[i], node)
			ne->rule->entry = ne;
	rcu_assign_pointer(sh->table, new);
	call_rcu(&old->rcu, pacer_table_free_rcu);
	return 0;
}

static struct pacer_shape *pacer_shape_get(struct pacer_rules *rules,
					   const struct pacer_rule *r)
{
	struct pacer_shape_table *t;
	struct pacer_shape *sh;

	list_for_each_entry(sh, &rules->shapes, node)
		if (pacer_shape_has(sh, r))
			return sh;

	sh = kzalloc(sizeof(*sh), PACER_GFP);
	if (!sh)
		return NULL;
	t = pacer_table_alloc(PACER_SHAPE_BUCKETS_MIN);
	if (!t) {
		kfree(sh);
		return NULL;
	}
	sh->match = r->match & PACER_MATCH_KEY;
	sh->family = r->family;
	sh->src_plen = r->src_plen;
	sh->dst_plen = r->dst_plen;
	sh->min_pref = U32_MAX;
	RCU_INIT_POINTER(sh->table, t);
	list_add_tail_rcu(&sh->node, &rules->shapes);
	return sh;
}

/* Free @sh after readers are done; the caller owns it (RTNL, or teardown). */
static void pacer_shape_free(struct pacer_shape *sh)
{
	list_del_rcu(&sh->node);
	call_rcu(&rcu_dereference_protected(sh->table, 1)->rcu,
		 pacer_table_free_rcu);
	kfree_rcu(sh, rcu);
}

static void pacer_shape_put(struct pacer_shape *sh)
{
	ASSERT_RTNL();
	if (!sh->n)
		pacer_shape_free(sh);
}

static struct pacer_shape *pacer_shape_of(struct pacer_rules *rules,
					  const struct pacer_rule *r)
{
	struct pacer_shape *sh;

	list_for_each_entry(sh, &rules->shapes, node)
		if (pacer_shape_has(sh, r))
			return sh;
	return NULL;
}

static void pacer_rules_changed(struct pacer_rules *rules)
{
	/* Never 0: a dump treats generation 0 as "not started". */
	if (++rules->gen == 0)
		rules->gen = 1;
}

static u32 pacer_rules_max_pref(const struct pacer_rules *rules)
{
	struct rb_node *last = rb_last(&rules->by_pref_tree);

	return last ? rb_entry(last, struct pacer_rule, pref_node)->pref : 0;
}

static void pacer_rules_tree_add(struct pacer_rules *rules,
				 struct pacer_rule *rule)
{
	struct rb_node **link = &rules->by_pref_tree.rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		if (rule->pref < rb_entry(parent, struct pacer_rule,
					  pref_node)->pref)
			link = &parent->rb_left;
		else
			link = &parent->rb_right;
	}
	rb_link_node(&rule->pref_node, parent, link);
	rb_insert_color(&rule->pref_node, &rules->by_pref_tree);
}

/**
 * pacer_rules_insert() - add a rule
 * @rules: the device's rules
 * @rule: the rule; a pref of 0 means one past the highest in use
 * @extack: for the rejection message
 *
 * Costs O(log n) and a bucket's worth of work, plus, when the rule's
 * shape outgrows its table, a rehash of that shape (amortised O(1)).
 *
 * Context: RTNL held.
 * Return: 0, -EEXIST if the pref is taken, -ERANGE if no pref is left, or
 * -ENOMEM; on error nothing changed.
 */
int pacer_rules_insert(struct pacer_rules *rules, struct pacer_rule *rule,
		       struct netlink_ext_ack *extack)
{
	struct pacer_rule_entry *e;
	struct pacer_shape *sh;
	int err;

	if (!rule->pref) {
		u32 max = pacer_rules_max_pref(rules);

		if (max == U32_MAX) {
			NL_SET_ERR_MSG_MOD(extack,
					   "no pref is left after the highest in use: give one");
			return -ERANGE;
		}
		rule->pref = max + 1;
	}
	e = kmalloc(sizeof(*e), PACER_GFP);
	if (!e)
		return -ENOMEM;
	e->rule = rule;
	pacer_rule_key(rule, &e->key);

	/*
	 * Reserve the pref (a NULL entry): a dump, which walks by_pref
	 * without RTNL, must not list a rule whose insertion then fails;
	 * it sees the rule once the store below, which cannot fail, is made.
	 */
	err = xa_insert(&rules->by_pref, rule->pref, NULL, PACER_GFP);
	if (err) {
		if (err == -EBUSY) {
			NL_SET_ERR_MSG_MOD(extack, "a rule with this pref exists");
			err = -EEXIST;
		}
		goto err_entry;
	}
	sh = pacer_shape_get(rules, rule);
	if (!sh) {
		err = -ENOMEM;
		goto err_xa;
	}
	if (sh->n >= rtnl_dereference(sh->table)->mask + 1) {
		err = pacer_shape_grow(rules, sh);
		if (err) {
			pacer_shape_put(sh);
			goto err_xa;
		}
	}

	/* Into the reserved slot: no allocation, so no error. */
	WARN_ON_ONCE(xa_is_err(xa_store(&rules->by_pref, rule->pref, rule,
					PACER_GFP)));
	rule->entry = e;
	pacer_table_link(rtnl_dereference(sh->table),
			 pacer_key_hash(&e->key, rules->seed), e);
	sh->n++;
	if (rule->pref < sh->min_pref)
		WRITE_ONCE(sh->min_pref, rule->pref);
	pacer_rules_tree_add(rules, rule);
	rules->n++;
	pacer_rules_changed(rules);
	return 0;

err_xa:
	xa_release(&rules->by_pref, rule->pref);
err_entry:
	kfree(e);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_rules_insert);

/**
 * pacer_rules_remove() - take a rule out of the device's rules
 * @rules: the device's rules
 * @pref: the rule's pref
 *
 * Context: RTNL held.
 * Return: the rule (the caller frees it, and with it its unlinked table
 * entry, with pacer_rule_free()), or NULL if there is none with @pref.
 */
struct pacer_rule *pacer_rules_remove(struct pacer_rules *rules, u32 pref)
{
	struct pacer_rule *rule = xa_erase(&rules->by_pref, pref);
	struct pacer_shape *sh;

	if (!rule)
		return NULL;
	sh = pacer_shape_of(rules, rule);
	hlist_del_rcu(&rule->entry->node);
	sh->n--;
	pacer_shape_put(sh);
	rb_erase(&rule->pref_node, &rules->by_pref_tree);
	rules->n--;
	pacer_rules_changed(rules);
	return rule;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_rules_remove);

/**
 * pacer_rules_destroy() - free a device's rules
 * @rules: the rules of a device nobody can reach any more
 */
void pacer_rules_destroy(struct pacer_rules *rules)
{
	struct pacer_shape *sh, *tmp;
	struct pacer_rule *rule;
	unsigned long pref;

	xa_for_each(&rules->by_pref, pref, rule) {
		/* Its entry goes with its table. */
		rule->entry = NULL;
		pacer_rule_free(rule);
	}
	xa_destroy(&rules->by_pref);
	list_for_each_entry_safe(sh, tmp, &rules->shapes, node)
		pacer_shape_free(sh);
	kfree_rcu(rules, rcu);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_rules_destroy);
