/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: definitions shared by the module's files.
 *
 * The data path, one way: the device (device.c) classifies a packet
 * (classify.c) and hands it to its class (class.c), which queues it on a
 * CPU's shaper; each CPU's shaper (shaper.c) takes from its classes what
 * their token buckets (bucket.c) let go and re-injects it (reinject.c).
 * Classes report what they did to their caller; they never call back into
 * the device.
 */
#ifndef _PACER_H
#define _PACER_H

#include <linux/atomic.h>
#include <linux/cache.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/percpu_counter.h>
#include <linux/seqlock.h>
#include <linux/siphash.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>
#include <uapi/linux/pacer.h>

#include "bucket.h"
#include "queue.h"
#include "stats.h"

/* tools/version's, from the build (module/Kbuild). */
#ifndef PACER_VERSION
#define PACER_VERSION "unknown"
#endif

/* Packets due within this much of a timer's expiry leave with it. */
#define PACER_TIMER_SLACK_NS	(20 * NSEC_PER_USEC)
/* The longest burst a class may have, as time at its rate. */
#define PACER_BURST_TIME_MAX_NS	(1000ULL * NSEC_PER_SEC)
/*
 * How far a CPU's share of a device's queued memory may drift before it
 * is folded into the shared total under the counter's lock: a device-wide
 * lock on every enqueue otherwise.
 */
#define PACER_MEM_BATCH		(256 << 10)

/*
 * Everything a user's request allocates: charged to the requester's memory
 * cgroup, and failing there with -ENOMEM rather than waking the cgroup's
 * OOM killer for a configuration request, or writing a warning and a stack
 * trace to the kernel log (vmalloc's, for a flow table): the requester is
 * told, the cgroup counts it in memory.events, and a tenant at its limit
 * must not be able to fill the log.
 */
#define PACER_GFP	(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

/*
 * Module parameters.  max_classes and max_rules are each device's default
 * caps, and the ceiling a device's owner may set them to
 * (PACER_CMD_DEV_SET): CAP_NET_ADMIN in a user namespace is every user's
 * on Debian, so only the host's root may raise them.  max_memory caps
 * what a device's queues may hold (skb truesize); flows is the size of a
 * device's flow table.
 */
extern unsigned int pacer_max_classes;
extern unsigned int pacer_max_rules;
extern unsigned int pacer_max_memory;
extern unsigned int pacer_flows;

/**
 * struct pacer_class_cfg - what the user configured for a class
 * @name: free text
 * @rate: bits per second, 0 for unlimited
 * @burst: bytes, 0 for the default
 * @ceil: peak bits per second, 0 for none
 * @limit_us: queue limit as time at @rate; 0 for an automatic one
 *	(pacer_class_cfg_limit_us()) unless @limit_bytes is set
 * @limit_bytes: queue limit in bytes, 0 when it is a time
 * @target_us: the standing delay a flow may keep beyond what its round
 *	trip needs, before it is signalled
 * @rtt_us: round-trip time the class's flows are expected to have
 * @overhead: bytes added to each segment's length when charging
 * @mpu: minimum bytes charged per segment
 * @gso: &enum pacer_gso: when GSO packets are split into their segments
 */
struct pacer_class_cfg {
	char name[PACER_CLASS_NAME_LEN];
	u64 rate;
	u32 burst;
	u64 ceil;
	u32 limit_us;
	u32 limit_bytes;
	u32 target_us;
	u32 rtt_us;
	s32 overhead;
	u32 mpu;
	u8 gso;
};

/**
 * struct pacer_class_params - a class's configuration and what follows
 *	from it, replaced whole (RCU) on every change
 * @cfg: as configured
 * @burst: bucket size in use, bytes
 * @limit: queue limit in use, bytes
 * @claim: bytes a CPU takes from the class's bucket at a time
 * @split_gso: GSO packets are split into their segments
 * @signal: when a flow is marked (@signal.mtu follows the device MTU)
 * @rcu: frees the old parameters after readers are done
 */
struct pacer_class_params {
	struct pacer_class_cfg cfg;
	u32 burst;
	u32 limit;
	u32 claim;
	bool split_gso;
	struct pacer_signal signal;
	struct rcu_head rcu;
};

struct mem_cgroup;
struct pacer_shaper;
struct pacer_class;

/**
 * struct pacer_class_cpu - a class on one CPU: its queue there, the tokens
 *	that CPU claimed, and its counters; all under the shaper's lock
 * @cl: the class
 * @sh: the CPU's shaper
 * @active_node: on @sh's active list while the queue has packets
 * @queue: the flows the class has on this CPU
 * @credit: bytes this CPU may still send, claimed from the class's bucket
 * @peak_credit: the same from the ceil bucket
 * @seq: lets readers copy @stats and the backlog without the lock
 * @stats: counters
 */
struct pacer_class_cpu {
	struct pacer_class *cl;
	struct pacer_shaper *sh;
	struct list_head active_node;
	struct pacer_queue queue;
	u32 credit;
	u32 peak_credit;
	seqcount_spinlock_t seq;
	struct pacer_class_stats stats;
};

/**
 * struct pacer_class - a token bucket shared by the CPUs, in front of a
 *	fair queue on each CPU
 * @pd: the device
 * @id: class id, 0 for the default class
 * @nrules: rules that send packets here, under RTNL
 * @dead: deleted: arriving packets are dropped as %PACER_DROP_FLUSH
 * @params: configuration; RCU readers, replaced under RTNL
 * @cpu: the class on each CPU, NULL until its first packet (an idle class
 *	holds no per-CPU memory); set once, see pacer_class_cpus()
 * @memcg: the memory cgroup of whoever created the class, charged for
 *	what the class allocates later, from softirq
 * @overflow: the class's flow for packets whose hash bucket another class
 *	holds; owned by one CPU's queue at a time, like any flow
 * @lock: the buckets; CPUs take it once per claim, not per packet
 * @bucket: the rate bucket
 * @peak: the ceil bucket (rate 0 when there is no ceil)
 * @backlog: bytes queued on all CPUs
 * @backlog_peak: the largest @backlog since the last reset
 * @rcu: frees the class after readers are done, two grace periods after
 *	it was deleted (see pacer_class_free())
 * @freeing: the first of those has passed
 */
struct pacer_class {
	struct pacer_dev *pd;
	u16 id;
	u32 nrules;
	bool dead;
	struct pacer_class_params __rcu *params;
	struct pacer_class_cpu __percpu *cpu;
	struct mem_cgroup *memcg;
	struct pacer_flow overflow;

	spinlock_t lock ____cacheline_aligned_in_smp; /* the buckets */
	struct pacer_bucket bucket;
	struct pacer_bucket peak;

	atomic64_t backlog ____cacheline_aligned_in_smp;
	atomic64_t backlog_peak;
	struct rcu_head rcu;
	bool freeing;
};

/**
 * struct pacer_shaper - a device's shaper on one CPU: it releases the
 *	packets that arrived on that CPU
 * @lock: the queues of every class on this CPU, and the flows they own
 * @active: &struct pacer_class_cpu with packets, in turn
 * @sending: flows whose packets @napi is re-injecting (pacer_flow_sending())
 * @joined: a packet arriving on another CPU joined such a flow and made its
 *	class active here meanwhile: @napi polls again
 * @napi: releases due packets from softirq context, with a budget
 * @timer: wakes @napi when the earliest waiting packet is due
 * @pd: the device
 * @cpu: the CPU
 */
struct pacer_shaper {
	spinlock_t lock; /* the queues of this CPU */
	struct list_head active;
	struct list_head sending;
	bool joined;
	struct napi_struct napi;
	struct hrtimer timer;
	struct pacer_dev *pd;
	int cpu;
};

/**
 * struct pacer_flows - a device's flow table
 * @mask: number of flows less one (a power of two)
 * @flow: the flows, by hash of class and flow keys
 */
struct pacer_flows {
	u32 mask;
	struct pacer_flow flow[];
};

struct pacer_rules;

/**
 * struct pacer_dev - private data of a pacer net_device
 * @dev: the device itself
 * @shapers: one per CPU
 * @flows: the flow table
 * @classes: classes by id; RCU readers, writers under RTNL
 * @default_class: class 0, which lives as long as the device
 * @nclasses: entries in @classes, under RTNL
 * @classes_gen: changes whenever a class is added or deleted, so that a
 *	dump can tell it was interrupted; under RTNL
 * @max_classes: cap on @nclasses, under RTNL
 * @max_rules: cap on the number of rules, under RTNL
 * @max_memory: cap on @mem
 * @rules: classification rules; RCU readers, writers under RTNL
 * @mem: truesize of all queued packets
 * @stats: per-CPU device totals
 * @flow_key: secret for the flow hash
 */
struct pacer_dev {
	struct net_device *dev;
	struct pacer_shaper __percpu *shapers;
	struct pacer_flows *flows;
	struct xarray classes;
	struct pacer_class *default_class;
	u32 nclasses;
	u32 classes_gen;
	u32 max_classes;
	u32 max_rules;
	u32 max_memory;
	struct pacer_rules *rules;
	struct percpu_counter mem;
	struct pacer_pcpu_stats __percpu *stats;
	hsiphash_key_t flow_key;
};

extern struct rtnl_link_ops pacer_link_ops;

/* device.c */
bool pacer_is_dev(const struct net_device *dev);
void pacer_dev_get_stats(struct pacer_dev *pd, struct pacer_dev_stats *st);
void pacer_dev_get_cpu_stats(struct pacer_dev *pd, int cpu, u64 *rx_packets,
			     u64 *tx_packets, u64 *joined_packets);
void pacer_dev_classes_changed(struct pacer_dev *pd);
int pacer_device_init(void);
void pacer_device_exit(void);

/* shaper.c */
int pacer_shapers_init(struct pacer_dev *pd);
void pacer_shapers_destroy(struct pacer_dev *pd);
void pacer_shapers_start(struct pacer_dev *pd);
void pacer_shapers_stop(struct pacer_dev *pd);
void pacer_shapers_kick(struct pacer_dev *pd);

/* class.c */
void pacer_class_cfg_defaults(struct pacer_class_cfg *cfg);
u32 pacer_class_cfg_limit_us(const struct pacer_class_cfg *cfg);
void pacer_signal_config(struct pacer_signal *s,
			 const struct pacer_class_cfg *cfg, u32 limit, u32 mtu);
struct pacer_class *pacer_class_create(struct pacer_dev *pd, u16 id,
				       const struct pacer_class_cfg *cfg);
int pacer_class_apply(struct pacer_class *cl,
		      const struct pacer_class_cfg *cfg);
void pacer_class_set_mtu(struct pacer_class *cl, u32 mtu);
void pacer_class_delete(struct pacer_class *cl);
void pacer_class_free(struct pacer_class *cl);
bool pacer_class_enqueue(struct pacer_class *cl, struct sk_buff *skb,
			 u32 hash, struct pacer_shaper *here);
int pacer_class_dequeue(struct pacer_class_cpu *cc, u64 now, int budget,
			struct sk_buff_head *batch, u64 *next, bool *idle);
void pacer_class_flush(struct pacer_class *cl);
/*
 * What reading a class's counters takes: their sum, and one CPU's copy on
 * the way.  With the sojourn histogram that is over 1.5 KiB, more than a
 * kernel stack frame may hold: readers allocate it.
 */
struct pacer_class_snapshot {
	struct pacer_class_stats sum;
	struct pacer_class_stats cpu;
};

void pacer_class_read(struct pacer_class *cl, struct pacer_class_cfg *cfg,
		      struct pacer_class_snapshot *snap, u64 *backlog_packets,
		      u64 *backlog_bytes);
void pacer_class_reset_stats(struct pacer_class *cl);
u32 pacer_class_burst(struct pacer_class *cl);
u32 pacer_class_limit(struct pacer_class *cl);
u32 pacer_charge_segments(const struct sk_buff *skb,
			  const struct pacer_class_cfg *cfg);
enum skb_drop_reason pacer_skb_drop_reason(enum pacer_drop_reason reason);
void pacer_drop_classless(struct pacer_dev *pd, struct sk_buff *skb,
			  enum pacer_drop_reason reason);

/*
 * @len bytes in @segs frames on the wire: each frame adjusted by the
 * class's overhead and raised to its mpu, as qdisc_pkt_len_init() and the
 * size tables do it.
 */
static inline u32 pacer_charge_adjust(u64 len, u32 segs,
				      const struct pacer_class_cfg *cfg)
{
	s64 charge = (s64)len + (s64)segs * cfg->overhead;

	charge = max_t(s64, charge, (s64)segs * cfg->mpu);
	return clamp_t(s64, charge, 1, U32_MAX);
}

/**
 * pacer_charge_len() - what the buckets are charged for a packet
 * @skb: the packet, data at its link-layer header
 * @cfg: its class's configuration (overhead, mpu)
 *
 * Inline for the packet that is one frame, as most are; a GSO packet is
 * charged as its segments (pacer_charge_segments()).
 *
 * Return: bytes, at least 1.
 */
static inline u32 pacer_charge_len(const struct sk_buff *skb,
				   const struct pacer_class_cfg *cfg)
{
	if (skb_shinfo(skb)->gso_size)
		return pacer_charge_segments(skb, cfg);
	return pacer_charge_adjust(skb->len, 1, cfg);
}

/* classify.c */
struct flow_keys;
struct pacer_class *pacer_classify(struct pacer_dev *pd,
				   const struct sk_buff *skb,
				   const struct flow_keys *keys);
u32 pacer_flow_hash(const struct pacer_dev *pd, const struct flow_keys *keys,
		    u16 class_id);

/* netlink.c */
int pacer_netlink_init(void);
void pacer_netlink_exit(void);

#endif /* _PACER_H */
