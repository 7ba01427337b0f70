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
 *   PACER_A_MAX_CLASSES    u32
 *   PACER_A_MAX_RULES      u32
 *   PACER_A_CLASSES        u32 (replies only)
 *   PACER_A_RULES          u32 (replies only)
 *   PACER_A_MAX_MEMORY     u32
 *   PACER_A_CPU_STATS      nest of nests, enum pacer_cpu_stats_attr
 *                          (replies only)
 *   PACER_A_DEV_STATS      nest, enum pacer_dev_stats_attr (replies only)
 *   PACER_A_CLASS          nest, enum pacer_class_attr
 *     PACER_CLASS_A_STATS  nest, enum pacer_stats_attr (replies only)
 *       PACER_STATS_A_DELAY_HIST  nest, u64 per histogram bucket
 *       PACER_STATS_A_DROPS       nest, u64 per enum pacer_drop_reason
 *   PACER_A_RULE           nest, enum pacer_rule_attr
 *
 * 64-bit counters are NLA_U64 aligned with PACER_*_PAD attributes.
 */
#ifndef _UAPI_LINUX_PACER_H
#define _UAPI_LINUX_PACER_H

#include <linux/types.h>

#define PACER_GENL_NAME		"pacer"
#define PACER_GENL_VERSION	1

/**
 * enum pacer_cmd - generic netlink commands of the pacer family
 * @PACER_CMD_UNSPEC: unused
 * @PACER_CMD_DEV_GET: get one device (do: by ifindex or name) or all
 *	pacer devices of the caller's namespace (dump)
 * @PACER_CMD_CLASS_NEW: create a class (PACER_A_CLASS with at least
 *	PACER_CLASS_A_ID); replies with the class as created
 * @PACER_CMD_CLASS_SET: change the attributes given of an existing class;
 *	the others keep their values; replies with the class
 * @PACER_CMD_CLASS_DEL: delete a class; its queued packets are dropped and
 *	counted as %PACER_DROP_FLUSH on the device
 * @PACER_CMD_CLASS_GET: get one class (do) or every class of a device (dump),
 *	with PACER_CLASS_A_STATS
 * @PACER_CMD_RULE_NEW: add a rule (PACER_A_RULE with PACER_RULE_A_CLASS)
 * @PACER_CMD_RULE_DEL: delete the rule with PACER_RULE_A_PREF
 * @PACER_CMD_RULE_GET: dump the rules of a device in evaluation order
 * @PACER_CMD_STATS_RESET: zero the counters of one class
 *	(PACER_A_CLASS with PACER_CLASS_A_ID) or of every class of a device
 * @PACER_CMD_DEV_SET: change a device's caps (PACER_A_MAX_CLASSES,
 *	PACER_A_MAX_RULES, PACER_A_MAX_MEMORY); replies with the device
 * @__PACER_CMD_MAX: internal
 * @PACER_CMD_MAX: highest command number
 *
 * Changes of a device's settings, classes and rules are announced on the
 * %PACER_MCGRP_EVENTS multicast group with the command that made them and
 * the object as it is afterwards; a reset of counters
 * (%PACER_CMD_STATS_RESET) is not.
 */
enum pacer_cmd {
	PACER_CMD_UNSPEC,
	PACER_CMD_DEV_GET,
	PACER_CMD_CLASS_NEW,
	PACER_CMD_CLASS_SET,
	PACER_CMD_CLASS_DEL,
	PACER_CMD_CLASS_GET,
	PACER_CMD_RULE_NEW,
	PACER_CMD_RULE_DEL,
	PACER_CMD_RULE_GET,
	PACER_CMD_STATS_RESET,
	PACER_CMD_DEV_SET,

	__PACER_CMD_MAX,
	PACER_CMD_MAX = __PACER_CMD_MAX - 1
};

#define PACER_MCGRP_EVENTS	"events"

/**
 * enum pacer_attr - top-level attributes
 * @PACER_A_UNSPEC: unused
 * @PACER_A_IFINDEX: u32, the pacer device's ifindex
 * @PACER_A_IFNAME: string, the pacer device's name
 * @PACER_A_DEV_STATS: nest of &enum pacer_dev_stats_attr, device totals
 * @PACER_A_PAD: padding for 64-bit attributes
 * @PACER_A_CLASS: nest of &enum pacer_class_attr
 * @PACER_A_RULE: nest of &enum pacer_rule_attr
 * @PACER_A_MAX_CLASSES: u32, most classes the device may have, class 0
 *	included; at most the module parameter max_classes, which is also
 *	the default
 * @PACER_A_MAX_RULES: u32, most rules the device may have; at most the
 *	module parameter max_rules, which is also the default
 * @PACER_A_CLASSES: u32, classes the device has now (replies only)
 * @PACER_A_RULES: u32, rules the device has now (replies only)
 * @PACER_A_MAX_MEMORY: u32, most bytes (skb truesize) the device's queues
 *	may hold together; at most the module parameter max_memory, which is
 *	also the default
 * @PACER_A_CPU_STATS: nest with one nest per CPU that is online or has
 *	counted a packet (attribute type: CPU number + 1) of &enum
 *	pacer_cpu_stats_attr (replies only, with PACER_A_DEV_STATS); a
 *	message may carry several, each with some of the CPUs (a nest holds
 *	at most 64 KiB, about 1,360 CPUs): read them all
 * @__PACER_A_MAX: internal
 * @PACER_A_MAX: highest attribute number
 */
enum pacer_attr {
	PACER_A_UNSPEC,
	PACER_A_IFINDEX,
	PACER_A_IFNAME,
	PACER_A_DEV_STATS,
	PACER_A_PAD,
	PACER_A_CLASS,
	PACER_A_RULE,
	PACER_A_MAX_CLASSES,
	PACER_A_MAX_RULES,
	PACER_A_CLASSES,
	PACER_A_RULES,
	PACER_A_MAX_MEMORY,
	PACER_A_CPU_STATS,

	__PACER_A_MAX,
	PACER_A_MAX = __PACER_A_MAX - 1
};

/**
 * enum pacer_dev_stats_attr - device-wide counters, all u64
 * @PACER_DEV_STATS_UNSPEC: unused
 * @PACER_DEV_STATS_RX_PACKETS: packets handed to the device
 * @PACER_DEV_STATS_RX_BYTES: bytes of those, Ethernet header included
 * @PACER_DEV_STATS_TX_PACKETS: packets re-injected where they came from
 * @PACER_DEV_STATS_TX_BYTES: bytes of those
 * @PACER_DEV_STATS_DROPPED_NOT_REDIRECTED: packets sent to the device
 *	directly rather than redirected to it; always dropped
 * @PACER_DEV_STATS_DROPPED_QUEUE_LIMIT: packets dropped at a class limit
 * @PACER_DEV_STATS_DROPPED_REINJECT: packets dropped at re-injection because
 *	the device they came from was gone or down
 * @PACER_DEV_STATS_DROPPED_FLUSH: packets dropped because they were queued
 *	when their class or the device went away or down
 * @PACER_DEV_STATS_BACKLOG_PACKETS: packets queued now
 * @PACER_DEV_STATS_BACKLOG_BYTES: bytes queued now
 * @PACER_DEV_STATS_PAD: padding for 64-bit attributes
 * @PACER_DEV_STATS_DELAYED_PACKETS: re-injected packets that waited
 * @PACER_DEV_STATS_DROPPED_MEMORY: packets dropped at the device memory cap
 * @PACER_DEV_STATS_ECN_MARKED: packets marked CE instead of dropped
 * @PACER_DEV_STATS_ECN_UNPARSED: packets due a CE mark whose IP header
 *	pacer could not locate (MPLS, PPPoE, other encapsulations): left as
 *	they were
 * @PACER_DEV_STATS_DROPPED_CONGESTION: packets dropped as a congestion
 *	signal to a sender that cannot take a CE mark (not ECN-capable)
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
	PACER_DEV_STATS_DELAYED_PACKETS,
	PACER_DEV_STATS_DROPPED_MEMORY,
	PACER_DEV_STATS_ECN_MARKED,
	PACER_DEV_STATS_ECN_UNPARSED,
	PACER_DEV_STATS_DROPPED_CONGESTION,

	__PACER_DEV_STATS_MAX,
	PACER_DEV_STATS_MAX = __PACER_DEV_STATS_MAX - 1
};

/**
 * enum pacer_cpu_stats_attr - what one CPU did for a device
 * @PACER_CPU_STATS_A_UNSPEC: unused
 * @PACER_CPU_STATS_A_CPU: u32, the CPU
 * @PACER_CPU_STATS_A_RX_PACKETS: u64, packets handed to the device there
 * @PACER_CPU_STATS_A_TX_PACKETS: u64, packets its shaper re-injected
 * @PACER_CPU_STATS_A_PAD: padding for 64-bit attributes
 * @PACER_CPU_STATS_A_JOINED_PACKETS: u64, packets that arrived there and
 *	joined their flow's packets queued on another CPU, whose shaper
 *	re-injected them
 * @__PACER_CPU_STATS_A_MAX: internal
 * @PACER_CPU_STATS_A_MAX: highest attribute number
 *
 * Each CPU queues and re-injects the packets that arrive on it, except
 * those of a flow that has packets queued on another CPU already (joined):
 * once a device is idle, a CPU's tx is its rx, less what it dropped and
 * what joined elsewhere, plus what joined it from the other CPUs.
 */
enum pacer_cpu_stats_attr {
	PACER_CPU_STATS_A_UNSPEC,
	PACER_CPU_STATS_A_CPU,
	PACER_CPU_STATS_A_RX_PACKETS,
	PACER_CPU_STATS_A_TX_PACKETS,
	PACER_CPU_STATS_A_PAD,
	PACER_CPU_STATS_A_JOINED_PACKETS,

	__PACER_CPU_STATS_A_MAX,
	PACER_CPU_STATS_A_MAX = __PACER_CPU_STATS_A_MAX - 1
};

/**
 * enum pacer_gso - what a class does with GSO packets
 * @PACER_GSO_AUTO: split them below %PACER_GSO_AUTO_SPLIT_BELOW bit/s,
 *	keep them whole from there
 * @PACER_GSO_SPLIT: split them into their segments (rate-limited classes)
 * @PACER_GSO_KEEP: keep them whole, charged as their segments
 */
enum pacer_gso {
	PACER_GSO_AUTO,
	PACER_GSO_SPLIT,
	PACER_GSO_KEEP,
};

/* 500 Mbit/s: a 64 KiB GSO packet lasts 1 ms there. */
#define PACER_GSO_AUTO_SPLIT_BELOW	500000000

/* Class 0 always exists: it takes every packet no rule or priority steers. */
#define PACER_CLASS_DEFAULT	0
#define PACER_CLASS_ID_MAX	65535
#define PACER_CLASS_NAME_LEN	16

/**
 * enum pacer_class_attr - attributes of a class
 * @PACER_CLASS_A_UNSPEC: unused
 * @PACER_CLASS_A_ID: u16, 0 (the default class) to %PACER_CLASS_ID_MAX
 * @PACER_CLASS_A_NAME: string, at most %PACER_CLASS_NAME_LEN - 1 bytes
 * @PACER_CLASS_A_RATE: u64, bits per second; 0 means unlimited
 * @PACER_CLASS_A_BURST: u32, bytes that may leave back to back after idle;
 *	default 10 ms at rate, at least 16 KiB for a class that splits GSO
 *	packets and 128 KiB for one that keeps them whole
 * @PACER_CLASS_A_CEIL: u64, peak rate in bits per second with a bucket of
 *	one MTU; 0 means none
 * @PACER_CLASS_A_LIMIT_US: u32, queue limit as sojourn at rate; exclusive
 *	with @PACER_CLASS_A_LIMIT_BYTES.  0 (the default) is automatic: four
 *	times target + rtt/2, at least 100 ms.  Replies give the time in use
 *	and add @PACER_CLASS_A_LIMIT_AUTO when it is automatic
 * @PACER_CLASS_A_LIMIT_BYTES: u32, queue limit in bytes
 * @PACER_CLASS_A_TARGET_US: u32, standing delay a flow may keep beyond
 *	half its round trip before its sender is signalled (CE); default 5000
 * @PACER_CLASS_A_OVERHEAD: s32, bytes added to each packet's length (per
 *	segment of a GSO packet) when charging the bucket
 * @PACER_CLASS_A_MPU: u32, minimum charged length of a packet
 * @PACER_CLASS_A_STATS: nest of &enum pacer_stats_attr (replies only)
 * @PACER_CLASS_A_PAD: padding for 64-bit attributes
 * @PACER_CLASS_A_GSO: u8, &enum pacer_gso (default %PACER_GSO_AUTO)
 * @PACER_CLASS_A_QUEUE_LIMIT: u32, bytes the class may queue in all, from
 *	its limit at its rate (replies only)
 * @PACER_CLASS_A_RTT_US: u32, round-trip time the class's flows are
 *	expected to have (as cake's rtt); default 100000
 * @PACER_CLASS_A_LIMIT_AUTO: flag, the limit is automatic (replies only)
 * @__PACER_CLASS_A_MAX: internal
 * @PACER_CLASS_A_MAX: highest attribute number
 */
enum pacer_class_attr {
	PACER_CLASS_A_UNSPEC,
	PACER_CLASS_A_ID,
	PACER_CLASS_A_NAME,
	PACER_CLASS_A_RATE,
	PACER_CLASS_A_BURST,
	PACER_CLASS_A_CEIL,
	PACER_CLASS_A_LIMIT_US,
	PACER_CLASS_A_LIMIT_BYTES,
	PACER_CLASS_A_TARGET_US,
	PACER_CLASS_A_OVERHEAD,
	PACER_CLASS_A_MPU,
	PACER_CLASS_A_STATS,
	PACER_CLASS_A_PAD,
	PACER_CLASS_A_GSO,
	PACER_CLASS_A_QUEUE_LIMIT,
	PACER_CLASS_A_RTT_US,
	PACER_CLASS_A_LIMIT_AUTO,

	__PACER_CLASS_A_MAX,
	PACER_CLASS_A_MAX = __PACER_CLASS_A_MAX - 1
};

/*
 * Sojourn histogram, log-linear: four buckets per doubling, so what a
 * bucket holds is at least 80 % of its bound.  Bucket i counts sojourns
 * up to pacer_hist_bound_us(i) microseconds - 1, 2, 3, 4, 5, 6, 7, 8, 10,
 * 12, 14, 16, 20, ... up to 2^20 (about a second) - and the last bucket
 * longer ones.
 */
#define PACER_HIST_BUCKETS	77

/* The upper bound of bucket @i, which is not the last. */
static inline __u64 pacer_hist_bound_us(unsigned int i)
{
	if (i < 4)
		return i + 1;
	return (__u64)(5 + i % 4) << (i / 4 - 1);
}

/* Padding inside PACER_STATS_A_DELAY_HIST and PACER_STATS_A_DROPS. */
#define PACER_ARRAY_PAD		1024

/**
 * enum pacer_stats_attr - counters of a class, all u64
 * @PACER_STATS_A_UNSPEC: unused
 * @PACER_STATS_A_RX_PACKETS: packets that arrived in the class
 * @PACER_STATS_A_RX_BYTES: bytes of those (length at the device, Ethernet
 *	header included, before overhead)
 * @PACER_STATS_A_TX_PACKETS: packets re-injected
 * @PACER_STATS_A_TX_BYTES: bytes of those
 * @PACER_STATS_A_DELAYED_PACKETS: re-injected packets that could not leave
 *	on arrival (no tokens, or packets ahead of them)
 * @PACER_STATS_A_DELAYED_BYTES: bytes of those
 * @PACER_STATS_A_DELAY_NS_TOTAL: sum of the sojourn of re-injected packets,
 *	modulo 2^64: a class at 10 Gbit/s with 200 ms queued sums that in
 *	about a day; %PACER_STATS_A_DELAY_US_TOTAL does not wrap
 * @PACER_STATS_A_DELAY_NS_MAX: the longest such sojourn
 * @PACER_STATS_A_DELAY_HIST: nest of %PACER_HIST_BUCKETS u64 packet counts,
 *	attribute type i + 1 for bucket i (padded with %PACER_ARRAY_PAD)
 * @PACER_STATS_A_DROPPED_PACKETS: packets dropped, all reasons
 * @PACER_STATS_A_DROPPED_BYTES: bytes of those
 * @PACER_STATS_A_DROPS: nest of u64 packet counts by &enum pacer_drop_reason
 *	(padded with %PACER_ARRAY_PAD)
 * @PACER_STATS_A_ECN_MARKED: packets marked CE instead of dropped
 * @PACER_STATS_A_BACKLOG_PACKETS: packets queued now
 * @PACER_STATS_A_BACKLOG_BYTES: bytes queued now
 * @PACER_STATS_A_BACKLOG_PEAK_BYTES: largest backlog since the last reset
 * @PACER_STATS_A_PAD: padding for 64-bit attributes
 * @PACER_STATS_A_ECN_UNPARSED: packets due a CE mark whose IP header pacer
 *	could not locate, left unmarked (see %PACER_DEV_STATS_ECN_UNPARSED)
 * @PACER_STATS_A_DELAY_US_TOTAL: sum of the sojourn of re-injected packets
 *	in microseconds (the nanoseconds short of one carried, not dropped):
 *	2^64 us is 585,000 years of sojourn, over three years of that class's
 * @__PACER_STATS_A_MAX: internal
 * @PACER_STATS_A_MAX: highest attribute number
 *
 * rx = tx + dropped + backlog holds in every reply, packets and bytes.
 */
enum pacer_stats_attr {
	PACER_STATS_A_UNSPEC,
	PACER_STATS_A_RX_PACKETS,
	PACER_STATS_A_RX_BYTES,
	PACER_STATS_A_TX_PACKETS,
	PACER_STATS_A_TX_BYTES,
	PACER_STATS_A_DELAYED_PACKETS,
	PACER_STATS_A_DELAYED_BYTES,
	PACER_STATS_A_DELAY_NS_TOTAL,
	PACER_STATS_A_DELAY_NS_MAX,
	PACER_STATS_A_DELAY_HIST,
	PACER_STATS_A_DROPPED_PACKETS,
	PACER_STATS_A_DROPPED_BYTES,
	PACER_STATS_A_DROPS,
	PACER_STATS_A_ECN_MARKED,
	PACER_STATS_A_BACKLOG_PACKETS,
	PACER_STATS_A_BACKLOG_BYTES,
	PACER_STATS_A_BACKLOG_PEAK_BYTES,
	PACER_STATS_A_PAD,
	PACER_STATS_A_ECN_UNPARSED,
	PACER_STATS_A_DELAY_US_TOTAL,

	__PACER_STATS_A_MAX,
	PACER_STATS_A_MAX = __PACER_STATS_A_MAX - 1
};

/**
 * enum pacer_drop_reason - why a packet was dropped (attribute types of
 *	PACER_STATS_A_DROPS)
 * @PACER_DROP_UNSPEC: unused
 * @PACER_DROP_QUEUE_LIMIT: the class queue was at its limit; dropped from
 *	the head of the class's largest flow
 * @PACER_DROP_MEMORY: the device-wide memory cap was reached
 * @PACER_DROP_REINJECT: the device the packet came from was gone or down
 * @PACER_DROP_FLUSH: queued when its class or the device went away or down
 * @PACER_DROP_CONGESTION: the congestion signal (one per episode, from the
 *	head of a flow whose queue stands) to a sender that is not
 *	ECN-capable, where an ECN-capable one gets a CE mark
 * @__PACER_DROP_MAX: internal
 * @PACER_DROP_MAX: highest reason
 */
enum pacer_drop_reason {
	PACER_DROP_UNSPEC,
	PACER_DROP_QUEUE_LIMIT,
	PACER_DROP_MEMORY,
	PACER_DROP_REINJECT,
	PACER_DROP_FLUSH,
	PACER_DROP_CONGESTION,

	__PACER_DROP_MAX,
	PACER_DROP_MAX = __PACER_DROP_MAX - 1
};

/**
 * enum pacer_rule_attr - attributes of a classification rule
 * @PACER_RULE_A_UNSPEC: unused
 * @PACER_RULE_A_PREF: u32, evaluation order (lower first, unique per
 *	device); chosen by the kernel if absent on NEW
 * @PACER_RULE_A_CLASS: u16, class a matching packet goes to
 * @PACER_RULE_A_FAMILY: u8, AF_INET or AF_INET6; required with addresses,
 *	and on its own matches every packet of that family
 * @PACER_RULE_A_SRC: binary, 4 or 16 bytes, source prefix address
 * @PACER_RULE_A_SRC_PLEN: u8, source prefix length
 * @PACER_RULE_A_DST: binary, 4 or 16 bytes, destination prefix address
 * @PACER_RULE_A_DST_PLEN: u8, destination prefix length
 * @PACER_RULE_A_PROTO: u8, IP protocol (after IPv6 extension headers)
 * @PACER_RULE_A_SPORT_MIN: u16, lowest source port matched
 * @PACER_RULE_A_SPORT_MAX: u16, highest source port matched
 * @PACER_RULE_A_DPORT_MIN: u16, lowest destination port matched
 * @PACER_RULE_A_DPORT_MAX: u16, highest destination port matched
 * @PACER_RULE_A_MARK: u32, skb->mark value after masking
 * @PACER_RULE_A_MARK_MASK: u32, mask applied to skb->mark (default ~0)
 * @PACER_RULE_A_PRIO: u32, skb->priority to match exactly
 * @PACER_RULE_A_MATCHES: u64, packets this rule classified (replies only)
 * @PACER_RULE_A_PAD: padding for 64-bit attributes
 * @__PACER_RULE_A_MAX: internal
 * @PACER_RULE_A_MAX: highest attribute number
 *
 * A rule matches when every criterion it has matches; rules are tried in
 * PREF order and the first match wins.
 */
enum pacer_rule_attr {
	PACER_RULE_A_UNSPEC,
	PACER_RULE_A_PREF,
	PACER_RULE_A_CLASS,
	PACER_RULE_A_FAMILY,
	PACER_RULE_A_SRC,
	PACER_RULE_A_SRC_PLEN,
	PACER_RULE_A_DST,
	PACER_RULE_A_DST_PLEN,
	PACER_RULE_A_PROTO,
	PACER_RULE_A_SPORT_MIN,
	PACER_RULE_A_SPORT_MAX,
	PACER_RULE_A_DPORT_MIN,
	PACER_RULE_A_DPORT_MAX,
	PACER_RULE_A_MARK,
	PACER_RULE_A_MARK_MASK,
	PACER_RULE_A_PRIO,
	PACER_RULE_A_MATCHES,
	PACER_RULE_A_PAD,

	__PACER_RULE_A_MAX,
	PACER_RULE_A_MAX = __PACER_RULE_A_MAX - 1
};

#endif /* _UAPI_LINUX_PACER_H */
