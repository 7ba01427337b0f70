/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: counters, and the inline helpers that count.
 *
 * A leaf: it knows no device, class or queue.  Device totals are per CPU
 * (struct pacer_pcpu_stats, written with BH disabled by the CPU that owns
 * them); a class's counters are per class and CPU (struct
 * pacer_class_stats, written under that CPU's shaper lock).  Readers sum
 * them.
 */
#ifndef _PACER_STATS_H
#define _PACER_STATS_H

#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <uapi/linux/pacer.h>

/* Device totals of one CPU. */
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
	u64_stats_t joined;
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
 * struct pacer_class_stats - counters of a class; see &enum pacer_stats_attr
 * @rx_packets: arrived
 * @rx_bytes: bytes arrived
 * @tx_packets: re-injected
 * @tx_bytes: bytes re-injected
 * @delayed_packets: re-injected after waiting
 * @delayed_bytes: bytes of those
 * @delay_us_total: sum of sojourns of re-injected packets, in us: in ns
 *	it would wrap within a day at 10 Gbit/s with 200 ms queued
 * @delay_ns_rem: the ns of that sum short of a whole us, below 1000
 * @delay_ns_max: longest sojourn
 * @hist: sojourn histogram, bucket i up to pacer_hist_bound_us(i)
 * @dropped_packets: dropped, all reasons
 * @dropped_bytes: bytes dropped
 * @drops: dropped packets by &enum pacer_drop_reason
 * @ecn_marked: marked CE
 * @ecn_unparsed: due a mark, but no IP header pacer understands was found
 * @backlog_peak_bytes: largest backlog of the class (kept per class, not
 *	per CPU: the reader fills it in)
 */
struct pacer_class_stats {
	u64 rx_packets;
	u64 rx_bytes;
	u64 tx_packets;
	u64 tx_bytes;
	u64 delayed_packets;
	u64 delayed_bytes;
	u64 delay_us_total;
	u32 delay_ns_rem;
	u64 delay_ns_max;
	u64 hist[PACER_HIST_BUCKETS];
	u64 dropped_packets;
	u64 dropped_bytes;
	u64 drops[PACER_DROP_MAX + 1];
	u64 ecn_marked;
	u64 ecn_unparsed;
	u64 backlog_peak_bytes;
};

/* ---- device totals, on the CPU that owns them (BH disabled) ---------- */

static inline void pacer_stats_rx(struct pacer_pcpu_stats *s, unsigned int len)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->rx_packets);
	u64_stats_add(&s->rx_bytes, len);
	u64_stats_update_end(&s->syncp);
}

static inline void pacer_stats_tx(struct pacer_pcpu_stats *s, unsigned int len,
				  bool delayed, bool ecn_marked)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->tx_packets);
	u64_stats_add(&s->tx_bytes, len);
	if (delayed)
		u64_stats_inc(&s->delayed_packets);
	if (ecn_marked)
		u64_stats_inc(&s->ecn_marked);
	u64_stats_update_end(&s->syncp);
}

static inline void pacer_stats_drop(struct pacer_pcpu_stats *s,
				    enum pacer_drop_reason reason,
				    unsigned int len)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->drops[reason]);
	u64_stats_add(&s->dropped_bytes, len);
	u64_stats_update_end(&s->syncp);
}

static inline void pacer_stats_not_redirected(struct pacer_pcpu_stats *s,
					      unsigned int len)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->not_redirected);
	u64_stats_add(&s->dropped_bytes, len);
	u64_stats_update_end(&s->syncp);
}

/* A packet that arrived here joined its flow, queued on another CPU. */
static inline void pacer_stats_joined(struct pacer_pcpu_stats *s)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->joined);
	u64_stats_update_end(&s->syncp);
}

static inline void pacer_stats_ecn_unparsed(struct pacer_pcpu_stats *s)
{
	u64_stats_update_begin(&s->syncp);
	u64_stats_inc(&s->ecn_unparsed);
	u64_stats_update_end(&s->syncp);
}

/* ---- a class's counters on one CPU (under that CPU's shaper lock) ----- */

/**
 * pacer_hist_bucket() - the sojourn histogram's bucket for a sojourn
 * @sojourn_ns: nanoseconds
 *
 * Return: the first i whose pacer_hist_bound_us(i) the sojourn, rounded up
 * to the microsecond, does not exceed, or the last bucket.
 */
static inline unsigned int pacer_hist_bucket(u64 sojourn_ns)
{
	unsigned int shift;
	u32 rem;
	/* Rounded up, without the overflow of adding 999 first. */
	u64 us = div_u64_rem(sojourn_ns, NSEC_PER_USEC, &rem) + !!rem;

	if (us <= 4)
		return us ? us - 1 : 0;
	/* (4, 8] us: buckets 4 to 7; each doubling after that, four more. */
	shift = fls64(us - 1) - 3;
	return min_t(u64, 4 * (shift + 1) + ((us - 1) >> shift) - 4,
		     PACER_HIST_BUCKETS - 1);
}

static inline void pacer_class_stats_rx(struct pacer_class_stats *st,
					unsigned int len)
{
	st->rx_packets++;
	st->rx_bytes += len;
}

/* Add @ns to a sum kept in us (@us) and the ns short of one (@rem). */
static inline void pacer_delay_add(u64 *us, u32 *rem, u64 ns)
{
	*us += div_u64_rem(*rem + ns, NSEC_PER_USEC, rem);
}

static inline void pacer_class_stats_tx(struct pacer_class_stats *st,
					unsigned int len, bool delayed,
					u64 sojourn)
{
	st->tx_packets++;
	st->tx_bytes += len;
	if (delayed) {
		st->delayed_packets++;
		st->delayed_bytes += len;
	}
	pacer_delay_add(&st->delay_us_total, &st->delay_ns_rem, sojourn);
	if (sojourn > st->delay_ns_max)
		st->delay_ns_max = sojourn;
	st->hist[pacer_hist_bucket(sojourn)]++;
}

static inline void pacer_class_stats_drop(struct pacer_class_stats *st,
					  enum pacer_drop_reason reason,
					  unsigned int len)
{
	st->dropped_packets++;
	st->dropped_bytes += len;
	st->drops[reason]++;
}

/* Add one CPU's counters of a class into a total. */
static inline void pacer_class_stats_add(struct pacer_class_stats *sum,
					 const struct pacer_class_stats *st)
{
	int i;

	sum->rx_packets += st->rx_packets;
	sum->rx_bytes += st->rx_bytes;
	sum->tx_packets += st->tx_packets;
	sum->tx_bytes += st->tx_bytes;
	sum->delayed_packets += st->delayed_packets;
	sum->delayed_bytes += st->delayed_bytes;
	sum->delay_us_total += st->delay_us_total;
	pacer_delay_add(&sum->delay_us_total, &sum->delay_ns_rem,
			st->delay_ns_rem);
	sum->delay_ns_max = max(sum->delay_ns_max, st->delay_ns_max);
	for (i = 0; i < PACER_HIST_BUCKETS; i++)
		sum->hist[i] += st->hist[i];
	sum->dropped_packets += st->dropped_packets;
	sum->dropped_bytes += st->dropped_bytes;
	for (i = 0; i <= PACER_DROP_MAX; i++)
		sum->drops[i] += st->drops[i];
	sum->ecn_marked += st->ecn_marked;
	sum->ecn_unparsed += st->ecn_unparsed;
}

#endif /* _PACER_STATS_H */
