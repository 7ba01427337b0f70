/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pacer: an IFB-like device that paces redirected traffic per class.
 *
 * Generic netlink family PACER_GENL_NAME, version PACER_GENL_VERSION.
 *
 * Every request names its device with PACER_A_IFINDEX or PACER_A_IFNAME
 * (in the caller's network namespace).  Mutating commands need
 * CAP_NET_ADMIN in the device's network namespace; reads do not.
 *
 * Attribute tree:
 *
 *   PACER_A_IFINDEX        u32
 *   PACER_A_IFNAME         string
 *   PACER_A_DEV_STATS      nest, enum pacer_dev_stats_attr (replies only)
 *
 * 64-bit counters are NLA_U64 aligned with PACER_*_PAD attributes.
 */
#ifndef _UAPI_LINUX_PACER_H
#define _UAPI_LINUX_PACER_H

#define PACER_GENL_NAME		"pacer"
#define PACER_GENL_VERSION	1

/**
 * enum pacer_cmd - generic netlink commands of the pacer family
 * @PACER_CMD_UNSPEC: unused
 * @PACER_CMD_DEV_GET: get one device (do: by ifindex or name) or all
 *	pacer devices of the caller's namespace (dump); unprivileged
 * @__PACER_CMD_MAX: internal
 * @PACER_CMD_MAX: highest command number
 */
enum pacer_cmd {
	PACER_CMD_UNSPEC,
	PACER_CMD_DEV_GET,

	__PACER_CMD_MAX,
	PACER_CMD_MAX = __PACER_CMD_MAX - 1
};

/**
 * enum pacer_attr - top-level attributes
 * @PACER_A_UNSPEC: unused
 * @PACER_A_IFINDEX: u32, the pacer device's ifindex
 * @PACER_A_IFNAME: string, the pacer device's name
 * @PACER_A_DEV_STATS: nest of &enum pacer_dev_stats_attr, device totals
 * @PACER_A_PAD: padding for 64-bit attributes
 * @__PACER_A_MAX: internal
 * @PACER_A_MAX: highest attribute number
 */
enum pacer_attr {
	PACER_A_UNSPEC,
	PACER_A_IFINDEX,
	PACER_A_IFNAME,
	PACER_A_DEV_STATS,
	PACER_A_PAD,

	__PACER_A_MAX,
	PACER_A_MAX = __PACER_A_MAX - 1
};

/**
 * enum pacer_dev_stats_attr - device-wide counters, all u64
 * @PACER_DEV_STATS_UNSPEC: unused
 * @PACER_DEV_STATS_RX_PACKETS: packets handed to the device by tc mirred
 * @PACER_DEV_STATS_RX_BYTES: bytes of those, Ethernet header included
 * @PACER_DEV_STATS_TX_PACKETS: packets re-injected where they came from
 * @PACER_DEV_STATS_TX_BYTES: bytes of those
 * @PACER_DEV_STATS_DROPPED_NOT_REDIRECTED: packets sent to the device
 *	directly rather than redirected to it; always dropped
 * @PACER_DEV_STATS_DROPPED_QUEUE_LIMIT: packets dropped because the queue
 *	was full
 * @PACER_DEV_STATS_DROPPED_REINJECT: packets dropped at re-injection because
 *	the device they came from was gone
 * @PACER_DEV_STATS_DROPPED_FLUSH: packets dropped because they were queued
 *	when the device went down or was removed
 * @PACER_DEV_STATS_BACKLOG_PACKETS: packets queued now
 * @PACER_DEV_STATS_BACKLOG_BYTES: bytes queued now
 * @PACER_DEV_STATS_PAD: padding for 64-bit attributes
 * @__PACER_DEV_STATS_MAX: internal
 * @PACER_DEV_STATS_MAX: highest attribute number
 */
enum pacer_dev_stats_attr {
	PACER_DEV_STATS_UNSPEC,
	PACER_DEV_STATS_RX_PACKETS,
	PACER_DEV_STATS_RX_BYTES,
	PACER_DEV_STATS_TX_PACKETS,
	PACER_DEV_STATS_TX_BYTES,
	PACER_DEV_STATS_DROPPED_NOT_REDIRECTED,
	PACER_DEV_STATS_DROPPED_QUEUE_LIMIT,
	PACER_DEV_STATS_DROPPED_REINJECT,
	PACER_DEV_STATS_DROPPED_FLUSH,
	PACER_DEV_STATS_BACKLOG_PACKETS,
	PACER_DEV_STATS_BACKLOG_BYTES,
	PACER_DEV_STATS_PAD,

	__PACER_DEV_STATS_MAX,
	PACER_DEV_STATS_MAX = __PACER_DEV_STATS_MAX - 1
};

#endif /* _UAPI_LINUX_PACER_H */
