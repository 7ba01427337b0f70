/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: internal definitions shared by the module's files.
 */
#ifndef _PACER_H
#define _PACER_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/u64_stats_sync.h>

#define PACER_VERSION "0.1.0"

/**
 * enum pacer_drop_reason - why the device dropped a packet
 * @PACER_DROP_NOT_REDIRECTED: sent to the device directly, not by tc mirred
 * @PACER_DROP_QUEUE_LIMIT: the queue was full
 * @PACER_DROP_REINJECT: the device the packet came from is gone
 * @PACER_DROP_FLUSH: queued when the device went down or away
 * @PACER_DROP_MAX: number of reasons
 */
enum pacer_drop_reason {
	PACER_DROP_NOT_REDIRECTED,
	PACER_DROP_QUEUE_LIMIT,
	PACER_DROP_REINJECT,
	PACER_DROP_FLUSH,
	PACER_DROP_MAX,
};

/* Written on the data path by the CPU that owns it; readers sum them. */
struct pacer_pcpu_stats {
	u64_stats_t rx_packets;
	u64_stats_t rx_bytes;
	u64_stats_t tx_packets;
	u64_stats_t tx_bytes;
	u64_stats_t drops[PACER_DROP_MAX];
	struct u64_stats_sync syncp;
};

/**
 * struct pacer_stats - a consistent-enough snapshot of a device's counters
 * @rx_packets: packets handed to the device
 * @rx_bytes: bytes of those, Ethernet header included
 * @tx_packets: packets re-injected
 * @tx_bytes: bytes of those
 * @drops: dropped packets by &enum pacer_drop_reason
 * @backlog_packets: packets queued at the time of the snapshot
 * @backlog_bytes: bytes queued at the time of the snapshot
 */
struct pacer_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 drops[PACER_DROP_MAX];
	u64 backlog_packets;
	u64 backlog_bytes;
};

/**
 * struct pacer_dev - private data of a pacer net_device
 * @dev: the device itself
 * @napi: releases queued packets from softirq context, with a budget
 * @lock: protects @queue and @backlog_bytes; taken in BH context only
 * @queue: packets waiting for release, in arrival order
 * @backlog_bytes: total length of the packets in @queue
 * @stats: per-CPU counters
 */
struct pacer_dev {
	struct net_device *dev;
	struct napi_struct napi;
	spinlock_t lock; /* protects queue and backlog_bytes */
	struct sk_buff_head queue;
	unsigned int backlog_bytes;
	struct pacer_pcpu_stats __percpu *stats;
};

extern struct rtnl_link_ops pacer_link_ops;

bool pacer_is_dev(const struct net_device *dev);
void pacer_get_stats(struct pacer_dev *pd, struct pacer_stats *st);

int pacer_device_init(void);
void pacer_device_exit(void);
int pacer_netlink_init(void);
void pacer_netlink_exit(void);

#endif /* _PACER_H */
