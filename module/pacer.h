/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: definitions shared by the module's files.
 */
#ifndef _PACER_H
#define _PACER_H

#include <linux/hrtimer.h>
#include <linux/llist.h>
#include <linux/netdevice.h>
#include <linux/percpu_counter.h>
#include <linux/refcount.h>
#include <linux/seqlock.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>
#include <linux/xarray.h>
#include <uapi/linux/pacer.h>

#include "bucket.h"
#include "queue.h"

#define PACER_VERSION "0.2.0"

/* Packets due within this much of a timer's expiry leave with it. */
#define PACER_TIMER_SLACK_NS	(20 * NSEC_PER_USEC)
/* The longest burst a class may have, as time at its rate. */
#define PACER_BURST_TIME_MAX_NS	(1000ULL * NSEC_PER_SEC)
/* Bytes queued in all classes of a device together, by skb truesize. */
#define PACER_MEM_LIMIT		(64 << 20)
/*
 * How far a CPU's share of that count may drift before it is folded into
 * the shared total under the counter's lock.  The default batch (32) is
 * less than one packet's truesize, which would take a device-wide lock
 * on every enqueue and dequeue; 256 KiB keeps the cap within a few
 * percent on machines of up to 16 CPUs, and it is a safety net anyway.
 */
#define PACER_MEM_BATCH		(256 << 10)

/*
 * Everything a user's request allocates: charged to the requester's memory
 * cgroup, and failing there with -ENOMEM rather than waking the cgroup's
 * OOM killer for a configuration request.
 */
#define PACER_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL)

/*
 * Module parameters: the most classes and rules a device may have.  They
 * are each device's defaults, and the ceiling a device's owner may lower
 * its caps to (PACER_CMD_DEV_SET): CAP_NET_ADMIN in a user namespace is
 * every user's on Debian, so only the host's root may raise them.
 */
extern unsigned int pacer_max_classes;
extern unsigned int pacer_max_rules;

/* Written on the data path by the CPU that owns it; readers sum them. */
struct pacer_pcpu_stats {
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t delayed_packets;
	u64_stats_t ecn_marked;
	u64_stats_t ecn_unparsed;
	u64_stats_t not_redirected;
	u64_stats_t drops[PACER_DROP_MAX + 1];
	u64_stats_t dropped_bytes;
	struct u64_stats_sync syncp;
};

/**
 * struct pacer_dev_stats - totals of a device, as ip -s link and ethtool
 *	-S report them; they never go backwards
 * @rx_packets: packets handed to the device
 * @rx_bytes: bytes of those, Ethernet header included
 * @tx_packets: packets re-injected
 * @tx_bytes: bytes of those
 * @delayed_packets: re-injected packets that waited
 * @ecn_marked: packets marked CE
 * @ecn_unparsed: packets due a mark whose IP header was not found
 * @not_redirected: packets sent to the device directly, dropped
 * @drops: dropped packets by &enum pacer_drop_reason
 * @backlog_packets: packets queued in all classes now
 * @backlog_bytes: bytes queued in all classes now
 */
struct pacer_dev_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 delayed_packets;
	u64 ecn_marked;
	u64 ecn_unparsed;
	u64 not_redirected;
	u64 drops[PACER_DROP_MAX + 1];
	u64 backlog_packets;
	u64 backlog_bytes;
};

/**
 * struct pacer_class_cfg - what the user configured for a class
 * @name: free text
 * @rate: bits per second, 0 for unlimited
 * @burst: bytes, 0 for the default
 * @ceil: peak bits per second, 0 for none
 * @limit_us: queue limit as time at @rate, 0 when @limit_bytes is set
 * @limit_bytes: queue limit in bytes, 0 when @limit_us is set
 * @target_us: ECN marking target
 * @overhead: bytes added to each segment's length when charging
 * @mpu: minimum bytes charged per segment
 */
struct pacer_class_cfg {
	char name[PACER_CLASS_NAME_LEN];
	u64 rate;
	u32 burst;
	u64 ceil;
	u32 limit_us;
	u32 limit_bytes;
	u32 target_us;
	s32 overhead;
	u32 mpu;
};

/**
 * struct pacer_class_stats - counters of a class; see &enum pacer_stats_attr
 * @rx_packets: arrived
 * @rx_bytes: bytes arrived
 * @tx_packets: re-injected
 * @tx_bytes: bytes re-injected
 * @delayed_packets: re-injected after waiting
 * @delayed_bytes: bytes of those
 * @delay_ns_total: sum of sojourns of re-injected packets
 * @delay_ns_max: longest sojourn
 * @hist: sojourn histogram, bucket i up to 2^i us
 * @dropped_packets: dropped, all reasons
 * @dropped_bytes: bytes dropped
 * @drops: dropped packets by &enum pacer_drop_reason
 * @ecn_marked: marked CE
 * @ecn_unparsed: due a mark, but no IP header pacer understands was found
 * @backlog_peak_bytes: largest backlog
 */
struct pacer_class_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 delayed_packets;
	u64 delayed_bytes;
	u64 delay_ns_total;
	u64 delay_ns_max;
	u64 hist[PACER_HIST_BUCKETS];
	u64 dropped_packets;
	u64 dropped_bytes;
	u64 drops[PACER_DROP_MAX + 1];
	u64 ecn_marked;
	u64 ecn_unparsed;
	u64 backlog_peak_bytes;
};

struct pacer_dev;

/**
 * struct pacer_class - a token bucket with its queue and counters
 * @pd: the device
 * @id: class id, 0 for the default class
 * @lock: serialises the data path and configuration changes of this class
 * @seq: lets readers copy @cfg, @stats and the backlog without @lock
 * @cfg: configuration as given
 * @burst: bucket size in use, bytes
 * @limit: queue limit in use, bytes
 * @codel: ECN marking parameters in use
 * @bucket: the rate bucket
 * @peak: the ceil bucket (rate 0 when there is no ceil)
 * @queue: the flows
 * @stats: counters; kept under @lock, which the data path holds anyway,
 *	so a reader (under @seq) sees rx = tx + dropped + backlog exactly
 * @nrules: rules that send packets here, under RTNL
 * @dead: deleted; arriving packets are dropped as %PACER_DROP_FLUSH
 * @scheduled: bit 0 set while the class is on the device's wake list or
 *	active list (then it holds a reference)
 * @wake_node: on &pacer_dev.wake
 * @active_node: on &pacer_dev.active
 * @refcnt: one for the class table, one while scheduled
 * @rcu: frees the class after readers are done
 */
struct pacer_class {
	struct pacer_dev *pd;
	u16 id;
	spinlock_t lock; /* data path and configuration of this class */
	seqcount_spinlock_t seq;
	struct pacer_class_cfg cfg;
	u32 burst;
	u32 limit;
	struct pacer_codel codel;
	struct pacer_bucket bucket;
	struct pacer_bucket peak;
	struct pacer_queue queue;
	struct pacer_class_stats stats;
	u32 nrules;
	bool dead;
	unsigned long scheduled;
	struct llist_node wake_node;
	struct list_head active_node;
	refcount_t refcnt;
	struct rcu_head rcu;
};

struct pacer_rules;

/**
 * struct pacer_dev - private data of a pacer net_device
 * @dev: the device itself
 * @napi: releases due packets from softirq context, with a budget
 * @timer: wakes @napi when the earliest waiting packet is due
 * @classes: classes by id; RCU readers, writers under RTNL
 * @nclasses: entries in @classes, under RTNL
 * @classes_gen: changes whenever a class is added or deleted, so that a
 *	dump can tell it was interrupted; under RTNL
 * @max_classes: cap on @nclasses, under RTNL
 * @max_rules: cap on the number of rules, under RTNL
 * @rules: classification rules; RCU readers, writers under RTNL
 * @wake: classes that just got packets; any CPU adds, @napi takes
 * @active: classes with packets; owned by @napi (and by ndo_stop once
 *	@napi is disabled)
 * @mem: truesize of all queued packets
 * @stats: per-CPU device totals
 * @flow_key: secret for the flow hash
 */
struct pacer_dev {
	struct net_device *dev;
	struct napi_struct napi;
	struct hrtimer timer;
	struct xarray classes;
	u32 nclasses;
	u32 classes_gen;
	u32 max_classes;
	u32 max_rules;
	struct pacer_rules *rules;
	struct llist_head wake;
	struct list_head active;
	struct percpu_counter mem;
	struct pacer_pcpu_stats __percpu *stats;
	siphash_key_t flow_key;
};

extern struct rtnl_link_ops pacer_link_ops;

/* device.c */
bool pacer_is_dev(const struct net_device *dev);
void pacer_dev_get_stats(struct pacer_dev *pd, struct pacer_dev_stats *st);
void pacer_dev_count_rx(struct pacer_dev *pd, unsigned int len);
void pacer_dev_count_drop(struct pacer_dev *pd, enum pacer_drop_reason reason,
			  unsigned int len);
void pacer_dev_count_ecn_unparsed(struct pacer_dev *pd);
bool pacer_reinject_prepare(struct pacer_dev *pd, struct sk_buff *skb);
void pacer_dev_kick(struct pacer_dev *pd);
int pacer_device_init(void);
void pacer_device_exit(void);

/* class.c */
void pacer_class_cfg_defaults(struct pacer_class_cfg *cfg);
struct pacer_class *pacer_class_create(struct pacer_dev *pd, u16 id,
				       const struct pacer_class_cfg *cfg);
void pacer_class_apply(struct pacer_class *cl,
		       const struct pacer_class_cfg *cfg);
void pacer_class_delete(struct pacer_class *cl);
void pacer_class_put(struct pacer_class *cl);
void pacer_class_enqueue(struct pacer_class *cl, struct sk_buff *skb,
			 u32 hash);
int pacer_class_dequeue(struct pacer_class *cl, u64 now, int budget,
			struct sk_buff_head *batch, u64 *next, bool *idle);
void pacer_class_flush(struct pacer_class *cl);
void pacer_class_read(struct pacer_class *cl, struct pacer_class_cfg *cfg,
		      struct pacer_class_stats *st, u64 *backlog_packets,
		      u64 *backlog_bytes);
void pacer_class_reset_stats(struct pacer_class *cl);
u32 pacer_charge_len(const struct sk_buff *skb,
		     const struct pacer_class_cfg *cfg);
unsigned int pacer_hist_bucket(u64 sojourn_ns);
u32 pacer_class_burst(const struct pacer_class *cl);

/* classify.c */
struct flow_keys;
struct pacer_class *pacer_classify(struct pacer_dev *pd,
				   const struct sk_buff *skb,
				   const struct flow_keys *keys);
u32 pacer_flow_hash(const struct pacer_dev *pd, const struct flow_keys *keys);

/* netlink.c */
int pacer_netlink_init(void);
void pacer_netlink_exit(void);

#endif /* _PACER_H */
