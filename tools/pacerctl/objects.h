/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: what the object files share about devices, classes and
 * rules: the structs a command line is parsed into and a reply is
 * decoded into, and the functions that encode, decode and print them.
 * dev.c, class.c and rule.c own them; stats.c, monitor.c and dump.c use
 * them.
 */
#ifndef PACERCTL_OBJECTS_H
#define PACERCTL_OBJECTS_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <linux/pacer.h>
#include <netlink/msg.h>

#include "parse.h"

struct pnl;
struct pacer_opts;

#define PACER_BIT(n) (1U << (n))

/**
 * struct pacer_msg_dev - the device a reply or an event is about
 * @ifindex: its ifindex
 * @ifname: its name, pointing into the message
 */
struct pacer_msg_dev {
	uint32_t ifindex;
	const char *ifname;
};

/**
 * struct pacer_class_stats - the counters of a class
 * @has: PACER_BIT(attr) for each &enum pacer_stats_attr present
 * @v: the scalar counters, by attribute
 * @hist: packets per sojourn histogram bucket
 * @drops: dropped packets by &enum pacer_drop_reason
 */
struct pacer_class_stats {
	uint32_t has;
	uint64_t v[PACER_STATS_A_MAX + 1];
	uint64_t hist[PACER_HIST_BUCKETS];
	uint64_t drops[PACER_DROP_MAX + 1];
};

/**
 * struct pacer_class_info - a class: what a command sets, or a reply says
 * @has: PACER_BIT(attr) for each &enum pacer_class_attr present
 * @id: PACER_CLASS_A_ID
 * @name: PACER_CLASS_A_NAME ("" when a reply describes a class without one)
 * @rate: PACER_CLASS_A_RATE, bits per second, 0 for unlimited
 * @burst: PACER_CLASS_A_BURST, bytes
 * @ceil: PACER_CLASS_A_CEIL, bits per second, 0 for none
 * @limit_us: PACER_CLASS_A_LIMIT_US (0 in a request: automatic; in a reply
 *	the time in use, with PACER_CLASS_A_LIMIT_AUTO in @has if automatic)
 * @limit_bytes: PACER_CLASS_A_LIMIT_BYTES
 * @target_us: PACER_CLASS_A_TARGET_US
 * @rtt_us: PACER_CLASS_A_RTT_US
 * @overhead: PACER_CLASS_A_OVERHEAD, bytes
 * @mpu: PACER_CLASS_A_MPU, bytes
 * @gso: PACER_CLASS_A_GSO, &enum pacer_gso
 * @queue_limit: PACER_CLASS_A_QUEUE_LIMIT, bytes (replies only)
 * @stats: PACER_CLASS_A_STATS
 */
struct pacer_class_info {
	uint32_t has;
	uint16_t id;
	char name[PACER_CLASS_NAME_LEN];
	uint64_t rate;
	uint32_t burst;
	uint64_t ceil;
	uint32_t limit_us;
	uint32_t limit_bytes;
	uint32_t target_us;
	uint32_t rtt_us;
	int32_t overhead;
	uint32_t mpu;
	uint8_t gso;
	uint32_t queue_limit;
	struct pacer_class_stats stats;
};

/**
 * struct pacer_rule_info - a rule: what a command sets, or a reply says
 * @has: PACER_BIT(attr) for each &enum pacer_rule_attr present
 * @pref: PACER_RULE_A_PREF
 * @class_id: PACER_RULE_A_CLASS
 * @family: PACER_RULE_A_FAMILY, AF_INET or AF_INET6 (a reply carries it
 *	with every src or dst; a command sets it for "family" only)
 * @src: PACER_RULE_A_SRC and _SRC_PLEN, with PACER_RULE_A_FAMILY
 * @dst: PACER_RULE_A_DST and _DST_PLEN, with PACER_RULE_A_FAMILY
 * @proto: PACER_RULE_A_PROTO
 * @sport_min: PACER_RULE_A_SPORT_MIN
 * @sport_max: PACER_RULE_A_SPORT_MAX
 * @dport_min: PACER_RULE_A_DPORT_MIN
 * @dport_max: PACER_RULE_A_DPORT_MAX
 * @mark: PACER_RULE_A_MARK
 * @mark_mask: PACER_RULE_A_MARK_MASK
 * @prio: PACER_RULE_A_PRIO
 * @matches: PACER_RULE_A_MATCHES
 */
struct pacer_rule_info {
	uint32_t has;
	uint32_t pref;
	uint16_t class_id;
	uint8_t family;
	struct pacer_prefix src;
	struct pacer_prefix dst;
	uint8_t proto;
	uint16_t sport_min;
	uint16_t sport_max;
	uint16_t dport_min;
	uint16_t dport_max;
	uint32_t mark;
	uint32_t mark_mask;
	uint32_t prio;
	uint64_t matches;
};

/**
 * struct pacer_dev_cpu - what one CPU did for a device
 * @cpu: the CPU
 * @rx_packets: packets handed to the device there
 * @tx_packets: packets its shaper re-injected there
 * @joined_packets: packets that arrived there and joined their flow's
 *	packets queued on another CPU, whose shaper re-injected them
 */
struct pacer_dev_cpu {
	uint32_t cpu;
	uint64_t rx_packets;
	uint64_t tx_packets;
	uint64_t joined_packets;
};

/**
 * struct pacer_dev - a device as a PACER_CMD_DEV_GET reply describes it
 * @ifindex: its ifindex
 * @ifname: its name, pointing into the reply
 * @has_caps: the reply carried the caps and what uses them
 * @classes: classes the device has
 * @max_classes: the most it may have
 * @rules: rules the device has
 * @max_rules: the most it may have
 * @max_memory: bytes its queues may hold
 * @ncpus: CPUs in @cpu, as many as the reply listed
 * @cpu: what each CPU received and re-injected (allocated, NULL if none)
 * @has_stats: the reply carried PACER_A_DEV_STATS
 * @has: which counters it carried, by attribute
 * @stats: their values, by attribute
 */
struct pacer_dev {
	uint32_t ifindex;
	const char *ifname;
	bool has_caps;
	uint32_t classes;
	uint32_t max_classes;
	uint32_t rules;
	uint32_t max_rules;
	uint32_t max_memory;
	int ncpus;
	struct pacer_dev_cpu *cpu;
	bool has_stats;
	bool has[PACER_DEV_STATS_MAX + 1];
	uint64_t stats[PACER_DEV_STATS_MAX + 1];
};

/* dev.c */
int pacer_msg_parse(struct nlmsghdr *nlh, struct nlattr **tb,
		    struct pacer_msg_dev *dev);
int pacer_dev_decode(struct nlmsghdr *nlh, struct pacer_dev *dev);
void pacer_dev_free(struct pacer_dev *dev);

/* class.c */
struct nl_msg *pacer_class_msg(const struct pnl *nl, uint8_t cmd, int flags,
			       const char *ifname,
			       const struct pacer_class_info *cls);
int pacer_class_decode(struct nlmsghdr *nlh, struct pacer_msg_dev *dev,
		       struct pacer_class_info *cls);
void pacer_class_print_config(const struct pacer_class_info *cls);
int pacer_class_show(int argc, char **argv, const struct pacer_opts *opts,
		     const char *command);
int pacer_class_parse_id(const char *kw, const char *value, uint16_t *id);

/* stats.c */
int pacer_class_stats_decode(struct nlattr *nest, struct pacer_class_stats *st);
void pacer_class_stats_print(const struct pacer_class_stats *st, int level);

/* attach.c */
int pacer_attach_list(uint32_t pacer_ifindex,
		      int (*fn)(const char *ifname, bool ingress,
				uint32_t block, uint32_t chain, uint32_t pref,
				void *arg),
		      void *arg);
/* Room for pacer_attach_where()'s "block B chain C pref P". */
#define PACER_WHERE_LEN 64
const char *pacer_attach_where(char *buf, size_t len, uint32_t block,
			       uint32_t chain, uint32_t pref);

/* rule.c */
int pacer_rule_parse_add(int argc, char **argv, const char **ifname,
			 struct pacer_rule_info *rule);
int pacer_rule_put(struct nl_msg *msg, const struct pacer_rule_info *rule);
int pacer_rule_decode(struct nlmsghdr *nlh, struct pacer_msg_dev *dev,
		      struct pacer_rule_info *rule);
bool pacer_rule_lone_family(const struct pacer_rule_info *rule);
void pacer_rule_print(const struct pacer_rule_info *rule);

/* dump.c */
void pacer_rule_dump(const char *ifname, const struct pacer_rule_info *rule);

#endif /* PACERCTL_OBJECTS_H */
