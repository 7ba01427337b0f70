// SPDX-License-Identifier: GPL-2.0
/*
 * pacer_kunit: unit tests of pacer's arithmetic and header handling, at
 * their extremes.
 *
 * Built only against kernels with CONFIG_KUNIT (the debug kernel); the
 * suites run when the module is loaded and report in the kernel log and
 * in /sys/kernel/debug/kunit/<suite>/results.
 *
 * - pacer_bucket: rate <-> time conversions from 1 kbit/s to 10 tbit/s and
 *   up to U32_MAX bytes; a bucket's tokens, what they pay for, its debt
 *   after a packet larger than the bucket, kept in bytes across a change
 *   of rate, and idle times that would overflow a naive sum.
 * - pacer_signal: one signal per congestion episode: a standing queue is
 *   signalled once, then not again until the RTT and the sojourn have
 *   passed, and again only at the sojourn that was signalled, or twice
 *   the level; a burst that arrived at once, sparse flows and sojourns below
 *   the level are left alone, and so is a queue at the pressure that did
 *   not grow while the packet waited (a stall's pile-up, not slow
 *   start) or grew by less than half of what the class released (a
 *   burst in congestion avoidance), over the packet's wait and, where
 *   the limit has room, a span before it (a burst after a drain); the
 *   span is 0 at 40 and 80 ms; times near U64_MAX do not wrap into an
 *   early signal; the automatic limit is four times the level, at least
 *   100 ms.
 * - pacer_hist: the sojourn histogram's bucket boundaries (four per
 *   doubling), 0 to U64_MAX.
 * - pacer_charge: what a GSO packet is charged: its segments' headers,
 *   overhead and mpu per segment, bounded by what it is on the wire when
 *   its metadata is absurd (1-byte gso_size, a header past 256 bytes).
 * - pacer_ecn: CE marking on Ethernet, QinQ as the core leaves it at
 *   ingress (outer tag in vlan_tci, network header on the inner tag), L3
 *   devices, IPv6, every segment of a fraglist GSO packet (not a clone's),
 *   and frames it must leave byte for byte alone.
 * - pacer_classify: the first rule by pref wins across shapes and within
 *   a bucket, through deletions and table growth; port and protocol
 *   criteria match only packets that have ports and an IP header.
 */
#include <kunit/test.h>
#include <linux/etherdevice.h>
#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/limits.h>
#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/tcp.h>
#include <net/checksum.h>
#include <net/dsfield.h>
#include <net/flow_dissector.h>
#include <net/inet_ecn.h>
#include <net/ip.h>

#include "../classify.h"
#include "../compat.h"
#include "../ecn.h"
#include "../pacer.h"
#include "../parse.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define RATE_1KBIT	1000ULL
#define RATE_10MBIT	10000000ULL
#define RATE_10TBIT	10000000000000ULL

/* ---- token bucket ------------------------------------------------------ */

static void pacer_bucket_conversions(struct kunit *test)
{
	static const u64 rates[] = { RATE_1KBIT, 64000, RATE_10MBIT,
				     1000000000ULL, 100000000000ULL,
				     RATE_10TBIT };
	static const u32 lens[] = { 1, 64, 1514, 65536, 1 << 30, U32_MAX };
	int r, l;

	/* 1514 bytes at 1 Gbit/s: 12112 ns, plus the 1 ns rounding up. */
	KUNIT_EXPECT_EQ(test, pacer_len_to_ns(1000000000ULL, 1514), 12113ULL);
	/* U32_MAX bytes at 1 kbit/s: 3.4e16 ns, no overflow. */
	KUNIT_EXPECT_EQ(test, pacer_len_to_ns(RATE_1KBIT, U32_MAX),
			(u64)U32_MAX * 8 * 1000000 + 1);
	KUNIT_EXPECT_EQ(test, pacer_len_to_ns(RATE_10TBIT, 1), 1ULL);

	for (r = 0; r < ARRAY_SIZE(rates); r++) {
		u64 prev = 0;

		for (l = 0; l < ARRAY_SIZE(lens); l++) {
			u64 ns = pacer_len_to_ns(rates[r], lens[l]);

			/* Never fast: at least the exact time. */
			KUNIT_EXPECT_GE(test, ns,
					div64_u64((u64)lens[l] * 8 * NSEC_PER_SEC,
						  rates[r]));
			KUNIT_EXPECT_GE(test, ns, prev);
			prev = ns;
			/* And back: the bytes that time carries. */
			KUNIT_EXPECT_GE(test, pacer_ns_to_len(rates[r], ns),
					(u64)lens[l]);
		}
	}
	/* Saturates instead of wrapping. */
	KUNIT_EXPECT_EQ(test, pacer_ns_to_len(RATE_10TBIT, 1000 * NSEC_PER_SEC),
			(u64)U32_MAX);
	KUNIT_EXPECT_EQ(test, pacer_ns_to_len(RATE_10TBIT, U64_MAX),
			(u64)U32_MAX);
	KUNIT_EXPECT_EQ(test, pacer_ns_to_len(RATE_1KBIT, 0), 0ULL);
}

static void pacer_bucket_tokens(struct kunit *test)
{
	struct pacer_bucket b = {};
	u64 now = 1000 * NSEC_PER_SEC, t;
	u32 burst = 128 * 1024;

	pacer_bucket_config(&b, RATE_10MBIT, burst, now);
	/* A new bucket is full: a burst's worth leaves at once. */
	KUNIT_EXPECT_EQ(test, pacer_bucket_ready(&b, burst, now, false), now);
	pacer_bucket_charge(&b, burst);
	/* Then one frame waits its transmission time, 1211.2 us, to the ns. */
	t = pacer_bucket_ready(&b, 1514, now, false);
	KUNIT_EXPECT_GE(test, t - now, 1211200ULL);
	KUNIT_EXPECT_LE(test, t - now, pacer_len_to_ns(RATE_10MBIT, 1514));

	/* A packet larger than the bucket needs a full bucket, not more. */
	memset(&b, 0, sizeof(b));
	pacer_bucket_config(&b, RATE_10MBIT, 1514, now);
	t = pacer_bucket_ready(&b, U32_MAX, now, false);
	KUNIT_EXPECT_EQ(test, t, now);
	pacer_bucket_charge(&b, U32_MAX);
	/* ... and leaves the bucket in debt for its whole length. */
	KUNIT_EXPECT_LT(test, b.tokens, 0LL);
	t = pacer_bucket_ready(&b, 1514, now, false);
	KUNIT_EXPECT_GE(test, t - now, pacer_len_to_ns(RATE_10MBIT, U32_MAX) -
					pacer_len_to_ns(RATE_10MBIT, 1514));

	/*
	 * A change of rate keeps the debt in bytes: 10 Gbit/s repays what
	 * 10 Mbit/s owed in a thousandth of the time.
	 */
	memset(&b, 0, sizeof(b));
	pacer_bucket_config(&b, RATE_10MBIT, 1514, now);
	pacer_bucket_charge(&b, 65536);
	pacer_bucket_config(&b, 1000 * RATE_10MBIT, 1514, now);
	t = pacer_bucket_ready(&b, 1514, now, false);
	KUNIT_EXPECT_GE(test, t - now, pacer_len_to_ns(1000 * RATE_10MBIT,
						       65536 - 1514));
	KUNIT_EXPECT_LE(test, t - now, pacer_len_to_ns(1000 * RATE_10MBIT,
						       65536 + 1514));
	/* A full bucket stays full, however slow the new rate. */
	memset(&b, 0, sizeof(b));
	pacer_bucket_config(&b, RATE_10TBIT, SZ_1G, now);
	pacer_bucket_config(&b, RATE_1KBIT, burst, now);
	KUNIT_EXPECT_EQ(test, b.tokens, b.depth);

	/* Idle for 2^62 ns (146 years): full again, no overflow. */
	memset(&b, 0, sizeof(b));
	pacer_bucket_config(&b, RATE_1KBIT, burst, now);
	pacer_bucket_charge(&b, burst);
	t = now + (1ULL << 62);
	KUNIT_EXPECT_EQ(test, pacer_bucket_ready(&b, burst, t, false), t);
	KUNIT_EXPECT_EQ(test, b.tokens, b.depth);

	/* What the tokens pay for: the burst when full, nothing in debt. */
	memset(&b, 0, sizeof(b));
	pacer_bucket_config(&b, RATE_10MBIT, burst, now);
	KUNIT_EXPECT_EQ(test, pacer_bucket_ready(&b, 1, now, false), now);
	KUNIT_EXPECT_GE(test, pacer_bucket_avail(&b), burst - 1);
	KUNIT_EXPECT_LE(test, pacer_bucket_avail(&b), burst);
	pacer_bucket_charge(&b, 2 * burst);
	KUNIT_EXPECT_EQ(test, pacer_bucket_avail(&b), 0U);

	/* Unlimited: everything leaves now. */
	pacer_bucket_config(&b, 0, 0, now);
	KUNIT_EXPECT_EQ(test, pacer_bucket_ready(&b, U32_MAX, now, false), now);

	/* 10 tbit/s with the largest burst a class may have. */
	memset(&b, 0, sizeof(b));
	pacer_bucket_config(&b, RATE_10TBIT, SZ_1G, now);
	KUNIT_EXPECT_EQ(test, pacer_bucket_ready(&b, SZ_1G, now, false), now);
	pacer_bucket_charge(&b, SZ_1G);
	KUNIT_EXPECT_LE(test, b.tokens, 1LL);
}

/*
 * Charged packet by packet, a bucket takes exactly what the packets take
 * at its rate: rounded up per packet, 64-byte frames at 100 Gbit/s
 * (5.12 ns) cost 6 ns each, and a ceiling charged frame by frame ran
 * 15 % below its rate.
 */
static void pacer_bucket_exact(struct kunit *test)
{
	struct pacer_bucket b = {};
	u64 now = 1000 * NSEC_PER_SEC;
	s64 start;
	int i;

	pacer_bucket_config(&b, 100000000000ULL, SZ_1G, now);
	start = b.tokens;
	for (i = 0; i < 1000000; i++)
		pacer_bucket_charge(&b, 64);
	KUNIT_EXPECT_EQ(test, start - b.tokens, 5120000LL);

	/* 1514 bytes at 1 Gbit/s take 12112 ns, not the 12113 of a need. */
	pacer_bucket_config(&b, 1000000000ULL, SZ_1G, now);
	start = b.tokens;
	for (i = 0; i < 1000; i++)
		pacer_bucket_charge(&b, 1514);
	KUNIT_EXPECT_EQ(test, start - b.tokens, 12112000LL);

	/* A rate that divides nothing: three bytes at 3 Mbit/s, 8 us. */
	pacer_bucket_config(&b, 3000000ULL, SZ_1G, now);
	start = b.tokens;
	for (i = 0; i < 3; i++)
		pacer_bucket_charge(&b, 1);
	KUNIT_EXPECT_EQ(test, start - b.tokens, 8000LL);

	/* Past the exact range, a charge is rounded up and never short. */
	start = b.tokens;
	pacer_bucket_charge(&b, U32_MAX);
	KUNIT_EXPECT_EQ(test, start - b.tokens,
			(s64)pacer_len_to_ns(3000000ULL, U32_MAX));
}

/*
 * A queue released late keeps the tokens of its delay past the depth, up
 * to 50 ms past it; an idle class, or a packet that just arrived, does
 * not.
 */
static void pacer_bucket_late(struct kunit *test)
{
	struct pacer_bucket b = {};
	u64 now = 1000 * NSEC_PER_SEC, due, frame_ns;
	u32 burst = 16 * 1024;

	frame_ns = pacer_len_to_ns(RATE_10MBIT, 1514);
	pacer_bucket_config(&b, RATE_10MBIT, burst, now);
	KUNIT_EXPECT_FALSE(test, pacer_bucket_owes(&b));
	pacer_bucket_charge(&b, burst);
	due = pacer_bucket_ready(&b, 1514, now, false);
	KUNIT_EXPECT_GE(test, due - now, frame_ns - 1);
	KUNIT_EXPECT_LE(test, due - now, frame_ns);
	/* A packet was told to wait: going idle has that to forget. */
	KUNIT_EXPECT_TRUE(test, pacer_bucket_owes(&b));

	/* Released 20 ms late: the depth plus the 20 ms. */
	now = due + 20 * NSEC_PER_MSEC;
	KUNIT_EXPECT_EQ(test, pacer_bucket_ready(&b, 1514, now, true), now);
	KUNIT_EXPECT_EQ(test, b.tokens,
			(s64)(frame_ns + 20 * NSEC_PER_MSEC));
	/* Kept while spent, not cut back to the depth by the next refill. */
	pacer_bucket_charge(&b, 1514);
	KUNIT_EXPECT_EQ(test, pacer_bucket_ready(&b, 1514, now + 1, false),
			now + 1);
	/* (The frame is charged 1211200 ns, 1 ns less than it needed.) */
	KUNIT_EXPECT_EQ(test, b.tokens, (s64)(20 * NSEC_PER_MSEC) + 1);
	KUNIT_EXPECT_TRUE(test, pacer_bucket_owes(&b));
	/* Gone once the class is idle. */
	pacer_bucket_idle(&b);
	KUNIT_EXPECT_EQ(test, b.tokens, b.depth);
	KUNIT_EXPECT_FALSE(test, pacer_bucket_owes(&b));

	/* Late by a second: the depth and 50 ms, no more. */
	pacer_bucket_charge(&b, burst);
	due = pacer_bucket_ready(&b, 1514, now, false);
	now = due + NSEC_PER_SEC;
	pacer_bucket_ready(&b, 1514, now, true);
	KUNIT_EXPECT_EQ(test, b.tokens, b.depth + (s64)(50 * NSEC_PER_MSEC));

	/* A packet that just arrived finds the depth, whatever was due. */
	pacer_bucket_idle(&b);
	pacer_bucket_charge(&b, burst);
	due = pacer_bucket_ready(&b, 1514, now, false);
	now = due + NSEC_PER_SEC;
	pacer_bucket_ready(&b, 1514, now, false);
	KUNIT_EXPECT_EQ(test, b.tokens, b.depth);

	/* Nobody told to wait: the depth only, and nothing to forget. */
	pacer_bucket_idle(&b);
	pacer_bucket_charge(&b, burst);
	now += NSEC_PER_SEC;
	pacer_bucket_ready(&b, 1514, now, true);
	KUNIT_EXPECT_EQ(test, b.tokens, b.depth);
	KUNIT_EXPECT_FALSE(test, pacer_bucket_owes(&b));
}

/* ---- one signal per episode ------------------------------------------- */

/*
 * 20 Mbit/s, 5 ms target, 40 ms RTT, a 200 ms limit: a level of 25 ms,
 * 62,500 bytes, and for a loss 150 ms, 375,000 bytes; pressure at a
 * quarter of the limit, 125,000 bytes.  The persist time is 5 ms here (a
 * class's is at least half its RTT), so that the episodes below stay
 * short.
 */
static const struct pacer_signal pacer_test_signal = {
	.level = 25 * NSEC_PER_MSEC,
	.level_bytes = 62500,
	.loss_level = 150 * NSEC_PER_MSEC,
	.loss_level_bytes = 375000,
	.persist = 5 * NSEC_PER_MSEC,
	.pressure = 125000,
	.growth_span = 5 * NSEC_PER_MSEC,
	.rtt = 40 * NSEC_PER_MSEC,
	.rate = 20000000,
	.mtu = 1514,
};

/*
 * What the dequeue does: signal when due, and remember it was sent.  The
 * class held @backlog_then when the packet was queued.
 */
static bool pacer_test_signal_grown(struct pacer_flow *flow, u64 sojourn,
				    u64 class_backlog, u64 backlog_then,
				    u64 now)
{
	const struct pacer_signal *p = &pacer_test_signal;

	if (!pacer_flow_should_signal(flow, p, sojourn, class_backlog,
				      backlog_then, now, false))
		return false;
	pacer_flow_signalled(flow, p, sojourn, now);
	return true;
}

/* The same for a queue that stood while the packet waited. */
static bool pacer_test_signal_at(struct pacer_flow *flow, u64 sojourn,
				 u64 class_backlog, u64 now)
{
	return pacer_test_signal_grown(flow, sojourn, class_backlog,
				       class_backlog, now);
}

/*
 * The flow's history for the slow-start rule: the class held @backlog
 * the growth span before @queued, and just before.
 */
static void pacer_test_history(struct pacer_flow *flow, u64 queued,
			       u32 backlog)
{
	flow->growth_from = queued - pacer_test_signal.growth_span;
	flow->growth_from_backlog = backlog;
	flow->growth_next = queued - 1;
	flow->growth_next_backlog = backlog;
}

static void pacer_signal_episode(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, sojourn = 30 * ms, backlog = 80000;
	struct pacer_flow flow = { .backlog = 64 << 10 };
	u64 now = NSEC_PER_SEC, t;
	int signals = 0;

	/* At the level, but not for the persist time yet. */
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, sojourn, backlog,
						      now));
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, sojourn, backlog,
						      now + 4 * ms));
	/* Standing: one signal, then none for RTT + sojourn (70 ms). */
	for (t = now + 5 * ms; t < now + 75 * ms; t += ms)
		signals += pacer_test_signal_at(&flow, sojourn, backlog, t);
	KUNIT_EXPECT_EQ(test, signals, 1);
	/* Still standing as high after that: the sender did not cut enough. */
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_at(&flow, sojourn, backlog,
						     now + 75 * ms));
	KUNIT_EXPECT_EQ(test, flow.signal_sojourn_us, 30000U);

	/* Standing but draining after the quiet time: the cut is showing. */
	flow = (struct pacer_flow){ .backlog = 64 << 10, .above_since = now };
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_at(&flow, sojourn, backlog,
						     now + 5 * ms));
	for (t = now + 80 * ms; t < now + 300 * ms; t += ms)
		KUNIT_EXPECT_FALSE(test,
				   pacer_test_signal_at(&flow, sojourn - 1000,
							backlog, t));
	/* Once it fell below the level, a queue that stands is a new episode. */
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, 2 * ms, backlog,
						      now + 300 * ms));
	KUNIT_EXPECT_EQ(test, flow.signal_sojourn_us, 0U);
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, 26 * ms, backlog,
						      now + 301 * ms));
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_at(&flow, 26 * ms, backlog,
						     now + 306 * ms));

	/* A packet below the level ends the episode's persist time. */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, sojourn, backlog,
						      now));
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, 2 * ms, backlog,
						      now + 3 * ms));
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, sojourn, backlog,
						      now + 6 * ms));
	KUNIT_EXPECT_EQ(test, flow.above_since, now + 6 * ms);

	/* A due signal no packet carried (no IP header found) is still due. */
	flow = (struct pacer_flow){ .backlog = 64 << 10, .above_since = now };
	KUNIT_EXPECT_TRUE(test, pacer_flow_should_signal(&flow,
							 &pacer_test_signal,
							 sojourn, backlog,
							 backlog,
							 now + 5 * ms, false));
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_at(&flow, sojourn, backlog,
						     now + 6 * ms));

	/*
	 * Told at 80 ms (a slow start), the queue then standing between the
	 * level and that: again at twice the level (50 ms), not only at
	 * 80 ms, once a packet sent after the cut waits that long.
	 */
	flow = (struct pacer_flow){ .backlog = 64 << 10, .above_since = now };
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_at(&flow, 80 * ms, 200000,
						     now + 5 * ms));
	KUNIT_EXPECT_EQ(test, flow.signal_sojourn_us, 80000U);
	for (t = now + 100 * ms; t < now + 200 * ms; t += ms)
		KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, 49 * ms,
							      backlog, t));
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_at(&flow, 50 * ms, backlog,
						     now + 200 * ms));
}

/* Whether a signal is due, the class's queue standing while it waited. */
static bool pacer_test_due(struct pacer_flow *flow, u64 sojourn, u64 backlog,
			   u64 now, bool by_loss)
{
	return pacer_flow_should_signal(flow, &pacer_test_signal, sojourn,
					backlog, backlog, now, by_loss);
}

/*
 * A sender that is not ECN-capable is told by a loss, once its queue
 * stands at the loss level; above the level but below that, an ECN
 * flow's last signal is kept (its retransmits are not ECN-capable).  A
 * slow start is told as early as an ECN flow's.
 */
static void pacer_signal_loss_level(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC, backlog = 400000;
	struct pacer_flow flow = { .backlog = 64 << 10 };
	u64 now = NSEC_PER_SEC, t;

	/* 100 ms standing: an ECN flow is due, a loss is not. */
	for (t = now; t < now + 50 * ms; t += ms)
		KUNIT_EXPECT_FALSE(test, pacer_test_due(&flow, 100 * ms,
							backlog, t, true));
	KUNIT_EXPECT_FALSE(test, pacer_test_due(&flow, 100 * ms, backlog,
						now + 50 * ms, false));
	KUNIT_EXPECT_TRUE(test, pacer_test_due(&flow, 100 * ms, backlog,
					       now + 55 * ms, false));
	/* At the loss level, but with less than its bytes queued: not yet. */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	for (t = now; t < now + 50 * ms; t += ms)
		KUNIT_EXPECT_FALSE(test, pacer_test_due(&flow, 150 * ms,
							300000, t, true));
	/* Standing at the loss level for the persist time: one loss. */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	KUNIT_EXPECT_FALSE(test, pacer_test_due(&flow, 150 * ms, backlog, now,
						true));
	KUNIT_EXPECT_TRUE(test, pacer_test_due(&flow, 150 * ms, backlog,
					       now + 5 * ms, true));
	pacer_flow_signalled(&flow, &pacer_test_signal, 150 * ms,
			     now + 5 * ms);
	/* A retransmit between the levels keeps the last signal's sojourn. */
	KUNIT_EXPECT_FALSE(test, pacer_test_due(&flow, 100 * ms, backlog,
						now + 6 * ms, true));
	KUNIT_EXPECT_EQ(test, flow.signal_sojourn_us, 150000U);
	/*
	 * Slow start: the queue grew by a quarter while the packet waited,
	 * and by half of what the class released since the growth span
	 * before.
	 */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	pacer_test_history(&flow, now - 15 * ms, 150000);
	KUNIT_EXPECT_TRUE(test, pacer_flow_should_signal(&flow,
							 &pacer_test_signal,
							 15 * ms, 200000,
							 150000, now, true));
}

/*
 * The signal parameters of a class at 20 Mbit/s, @rtt_us, its limit
 * @limit_us (0: automatic).
 */
static void pacer_test_signal_of(struct pacer_signal *s, u32 rtt_us,
				 u32 limit_us)
{
	struct pacer_class_cfg cfg;
	u32 limit;

	pacer_class_cfg_defaults(&cfg);
	cfg.rate = 20000000;
	cfg.rtt_us = rtt_us;
	cfg.limit_us = limit_us;
	limit = pacer_ns_to_len(cfg.rate, (u64)pacer_class_cfg_limit_us(&cfg) *
					  NSEC_PER_USEC);
	pacer_signal_config(s, &cfg, limit, 1514);
}

/* The growth span of a class at @rtt_us with an automatic limit, us. */
static u64 pacer_test_growth_span(u32 rtt_us)
{
	struct pacer_signal s;

	pacer_test_signal_of(&s, rtt_us, 0);
	return div_u64(s.growth_span, NSEC_PER_USEC);
}

/*
 * Where the limit leaves room for it, the slow-start rule looks a span
 * further back than the packet's own wait: a slow start keeps the class
 * growing, a burst that lands after a drain does not.
 */
static void pacer_signal_slow_start_span(struct kunit *test)
{
	const struct pacer_signal *p = &pacer_test_signal;
	const u64 ms = NSEC_PER_MSEC, t0 = NSEC_PER_SEC;
	struct pacer_flow flow = { .backlog = 64 << 10 };
	int i, first = -1;

	/*
	 * The span is the persist time where a slow start told that much
	 * after the pressure stays below the limit: rtt + 2 (pressure +
	 * persist) is 70 ms of 100 at 10 ms, 90 of 100 at 20 ms; 130 of 100
	 * at 40 ms and 250 of 180 at 80 ms have no room.
	 */
	KUNIT_EXPECT_EQ(test, pacer_test_growth_span(10000), 5000ULL);
	KUNIT_EXPECT_EQ(test, pacer_test_growth_span(20000), 10000ULL);
	KUNIT_EXPECT_EQ(test, pacer_test_growth_span(40000), 0ULL);
	KUNIT_EXPECT_EQ(test, pacer_test_growth_span(80000), 0ULL);

	/*
	 * A slow start, not ECN-capable: a packet queued every millisecond,
	 * the class growing by what it releases (arrivals at twice the
	 * rate), each packet waiting what stood ahead of it.  Told once the
	 * flow has the span's (5 ms) history, not before.
	 */
	for (i = 0; i < 20 && first < 0; i++) {
		u64 then = 100000 + 2500 * i, sojourn = then / 2500 * ms;

		if (pacer_flow_should_signal(&flow, p, sojourn, 2 * then, then,
					     t0 + i * ms + sojourn, true))
			first = i;
	}
	KUNIT_EXPECT_EQ(test, first, 5);

	/*
	 * A burst after a drain: the class went from 160,000 bytes down to
	 * 100,000 over 10 ms, then 50,000 landed while the next packet
	 * waited 15 ms.  The packet saw the class grow by half (at twice
	 * the rate), but since half a round trip before, the class grew
	 * by 20,000 bytes in 20 ms, less than half of what it released.
	 */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_FALSE(test,
				   pacer_flow_should_signal(&flow, p, 10 * ms,
							    160000 - 6000 * i,
							    160000 - 6000 * i,
							    t0 + (i + 10) * ms,
							    true));
	KUNIT_EXPECT_FALSE(test, pacer_flow_should_signal(&flow, p, 15 * ms,
							  150000, 100000,
							  t0 + 25 * ms, true));
	/* The same packet after the class stood at 100,000: a slow start. */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	for (i = 0; i < 10; i++)
		KUNIT_EXPECT_FALSE(test,
				   pacer_flow_should_signal(&flow, p, 10 * ms,
							    100000, 100000,
							    t0 + (i + 10) * ms,
							    true));
	KUNIT_EXPECT_TRUE(test, pacer_flow_should_signal(&flow, p, 15 * ms,
							 150000, 100000,
							 t0 + 25 * ms, true));

	/* After a gap of twice the span in the flow, its history starts anew. */
	KUNIT_EXPECT_FALSE(test, pacer_flow_should_signal(&flow, p, 15 * ms,
							  150000, 100000,
							  t0 + 50 * ms, true));
	KUNIT_EXPECT_EQ(test, flow.growth_from, t0 + 35 * ms);
}

static void pacer_signal_auto_limit(struct kunit *test)
{
	struct pacer_class_cfg cfg;

	/* Defaults: target 5 ms, rtt 100 ms: 4 x 55 ms. */
	pacer_class_cfg_defaults(&cfg);
	KUNIT_EXPECT_EQ(test, pacer_class_cfg_limit_us(&cfg), 220000U);
	/* Up to rtt 40 ms the floor holds: 4 x 25 ms. */
	cfg.rtt_us = 40000;
	KUNIT_EXPECT_EQ(test, pacer_class_cfg_limit_us(&cfg), 100000U);
	cfg.rtt_us = 1;
	KUNIT_EXPECT_EQ(test, pacer_class_cfg_limit_us(&cfg), 100000U);
	cfg.rtt_us = 80000;
	KUNIT_EXPECT_EQ(test, pacer_class_cfg_limit_us(&cfg), 180000U);
	/* The largest target and rtt the family takes. */
	cfg.target_us = 1000000;
	cfg.rtt_us = 10000000;
	KUNIT_EXPECT_EQ(test, pacer_class_cfg_limit_us(&cfg), 24000000U);
	/* A limit set by hand is the limit. */
	cfg.limit_us = 30000;
	KUNIT_EXPECT_EQ(test, pacer_class_cfg_limit_us(&cfg), 30000U);
}

/* The loss level of a class at @rtt_us, its limit @limit_us at 20 Mbit/s. */
static u64 pacer_test_loss_level(u32 rtt_us, u32 limit_us)
{
	struct pacer_signal s;

	pacer_test_signal_of(&s, rtt_us, limit_us);
	return div_u64(s.loss_level + NSEC_PER_USEC / 2, NSEC_PER_USEC);
}

static void pacer_signal_loss_room(struct kunit *test)
{
	/* An eighth of the 100 ms floor is more than a 10 ms level. */
	KUNIT_EXPECT_EQ(test, pacer_test_loss_level(10000, 0), 87500ULL);
	/* From 40 ms on the level is a quarter of the automatic limit. */
	KUNIT_EXPECT_EQ(test, pacer_test_loss_level(40000, 0), 75000ULL);
	KUNIT_EXPECT_EQ(test, pacer_test_loss_level(80000, 0), 135000ULL);
	/* A limit set by hand caps the level at a quarter of it. */
	KUNIT_EXPECT_EQ(test, pacer_test_loss_level(80000, 30000), 22500ULL);
	/* A hand limit far above the level: an eighth of it is left. */
	KUNIT_EXPECT_EQ(test, pacer_test_loss_level(10000, 400000), 350000ULL);
}

static void pacer_signal_edges(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC;
	struct pacer_flow flow = { .backlog = 1514 };
	u64 now = NSEC_PER_SEC, t;
	int signals = 0;

	/* A sparse flow, even with a long sojourn behind a full class. */
	for (t = now; t < now + 100 * ms; t += ms)
		signals += pacer_test_signal_at(&flow, 500 * ms, 1 << 20, t);
	KUNIT_EXPECT_EQ(test, signals, 0);
	/*
	 * A burst that arrived at once: its last packets waited past the
	 * level, but what stands behind them is less than the level's bytes.
	 */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	for (t = now; t < now + 30 * ms; t += ms)
		signals += pacer_test_signal_at(&flow, 30 * ms, 62499, t);
	KUNIT_EXPECT_EQ(test, signals, 0);
	/* Below half the level: nothing, however full the class. */
	for (t = now; t < now + 30 * ms; t += ms)
		signals += pacer_test_signal_at(&flow, 12 * ms, 1 << 20, t);
	KUNIT_EXPECT_EQ(test, signals, 0);
	/*
	 * At the pressure, a queue that stood or drained while the packet
	 * waited half the level is left to the persist time: it is not a
	 * sender in slow start (a stall of the CPU releasing the class
	 * piles up as much, and drains).
	 */
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, 13 * ms, 125000,
						      now + 40 * ms));
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_grown(&flow, 13 * ms,
							 125000, 250000,
							 now + 40 * ms));
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_grown(&flow, 13 * ms,
							 125000, 100001,
							 now + 40 * ms));
	/* Grown by a quarter (slow start doubles it): told at once. */
	pacer_test_history(&flow, now + 27 * ms, 100000);
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_grown(&flow, 13 * ms,
							125000, 100000,
							now + 40 * ms));
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_grown(&flow, 13 * ms,
							 125000, 62500,
							 now + 41 * ms));
	/*
	 * Grown by 40 %, but by less than half of the 100,000 bytes the
	 * class released in 40 ms: a burst of a flow in congestion
	 * avoidance, not a slow start.  At half of them (arrivals at 1.5
	 * times the rate), a slow start.
	 */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_grown(&flow, 40 * ms,
							 140000, 100000,
							 now));
	pacer_test_history(&flow, now - 40 * ms, 93000);
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_grown(&flow, 40 * ms,
							151000, 100000, now));
	/* Times at the end of the clock's range do not wrap. */
	flow = (struct pacer_flow){ .backlog = 64 << 10 };
	now = U64_MAX - 10 * ms;
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, 30 * ms, 62500,
						      now));
	KUNIT_EXPECT_TRUE(test, pacer_test_signal_at(&flow, 30 * ms, 62500,
						     now + 5 * ms));
	KUNIT_EXPECT_EQ(test, flow.quiet_until, U64_MAX);
	KUNIT_EXPECT_FALSE(test, pacer_test_signal_at(&flow, 30 * ms, 62500,
						      now + 9 * ms));
}

/* ---- queue: the limit's victim -------------------------------------------- */

static struct sk_buff *pacer_test_queued(struct kunit *test, unsigned int len)
{
	struct sk_buff *skb = alloc_skb(len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, skb);
	skb_put(skb, len);
	return skb;
}

/* The limit's next victim in @q is the packet of @len bytes; it is freed. */
static void pacer_test_victim_is(struct kunit *test, struct pacer_queue *q,
				 u32 len)
{
	struct sk_buff *skb = pacer_queue_take_fattest(q);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, skb);
	KUNIT_EXPECT_EQ(test, skb->len, len);
	kfree_skb(skb);
}

static void pacer_queue_victim(struct kunit *test)
{
	struct pacer_flow flows[3];
	struct pacer_queue q;
	int i;

	pacer_queue_init(&q, 1514);
	for (i = 0; i < 3; i++)
		pacer_flow_init(&flows[i]);
	/* Flow 1 holds the most bytes: its oldest packet goes first. */
	pacer_queue_add(&q, &flows[0], pacer_test_queued(test, 1000), 1);
	pacer_queue_add(&q, &flows[1], pacer_test_queued(test, 900), 1);
	pacer_queue_add(&q, &flows[1], pacer_test_queued(test, 901), 1);
	pacer_queue_add(&q, &flows[2], pacer_test_queued(test, 1500), 1);
	KUNIT_EXPECT_PTR_EQ(test, q.fattest, &flows[1]);
	pacer_test_victim_is(test, &q, 900);
	/* Its second packet too: it is still remembered, no scan needed. */
	pacer_test_victim_is(test, &q, 901);
	/* Emptied, it is forgotten; a scan finds flow 2 and keeps it. */
	KUNIT_EXPECT_PTR_EQ(test, q.fattest, (struct pacer_flow *)NULL);
	pacer_test_victim_is(test, &q, 1500);
	pacer_test_victim_is(test, &q, 1000);
	KUNIT_EXPECT_PTR_EQ(test, pacer_queue_take_fattest(&q),
			    (struct sk_buff *)NULL);
	KUNIT_EXPECT_EQ(test, q.backlog_packets, 0U);
	KUNIT_EXPECT_EQ(test, q.backlog_bytes, 0ULL);
}

/* ---- sojourn histogram -------------------------------------------------- */

static void pacer_hist_buckets(struct kunit *test)
{
	int i;

	KUNIT_EXPECT_EQ(test, pacer_hist_bucket(0), 0U);
	KUNIT_EXPECT_EQ(test, pacer_hist_bucket(1000), 0U);
	KUNIT_EXPECT_EQ(test, pacer_hist_bucket(1001), 1U);
	/* Four buckets per doubling, the last bound about a second. */
	KUNIT_EXPECT_EQ(test, pacer_hist_bound_us(7), 8ULL);
	KUNIT_EXPECT_EQ(test, pacer_hist_bound_us(8), 10ULL);
	KUNIT_EXPECT_EQ(test, pacer_hist_bound_us(55), 32768ULL);
	KUNIT_EXPECT_EQ(test, pacer_hist_bound_us(PACER_HIST_BUCKETS - 2),
			1ULL << 20);
	/*
	 * Bucket i holds sojourns in (bound(i - 1), bound(i)] us; from 4 us
	 * on, the bounds grow by at most a quarter.
	 */
	for (i = 0; i < PACER_HIST_BUCKETS - 1; i++) {
		u64 us = pacer_hist_bound_us(i);

		KUNIT_EXPECT_EQ(test, pacer_hist_bucket(us * 1000), (u32)i);
		KUNIT_EXPECT_EQ(test, pacer_hist_bucket(us * 1000 + 1),
				(u32)i + 1);
		if (i >= 4)
			KUNIT_EXPECT_LE(test, 4 * us,
					5 * pacer_hist_bound_us(i - 1));
	}
	KUNIT_EXPECT_EQ(test, pacer_hist_bucket(U64_MAX),
			PACER_HIST_BUCKETS - 1U);
	KUNIT_EXPECT_EQ(test, pacer_hist_bucket(3600 * NSEC_PER_SEC),
			PACER_HIST_BUCKETS - 1U);
}

/*
 * The sum of sojourns is kept in us, the ns short of one carried: exact
 * over many packets and over CPUs, and past where a sum in ns wraps (a
 * day of a class at 10 Gbit/s with 200 ms queued).
 */
static void pacer_hist_sojourn_sum(struct kunit *test)
{
	struct pacer_class_stats a = {}, b = {}, sum = {};
	int i;

	for (i = 0; i < 1000; i++)
		pacer_class_stats_tx(&a, 1514, true, 999);
	KUNIT_EXPECT_EQ(test, a.delay_us_total, 999ULL);
	KUNIT_EXPECT_EQ(test, a.delay_ns_rem, 0U);
	pacer_class_stats_tx(&a, 1514, true, 2 * NSEC_PER_SEC + 600);
	pacer_class_stats_tx(&b, 1514, true, 700);
	KUNIT_EXPECT_EQ(test, a.delay_us_total, 999ULL + 2000000);
	KUNIT_EXPECT_EQ(test, a.delay_ns_rem, 600U);

	/* Two CPUs' remainders make a whole us more. */
	pacer_class_stats_add(&sum, &a);
	pacer_class_stats_add(&sum, &b);
	KUNIT_EXPECT_EQ(test, sum.delay_us_total, 999ULL + 2000000 + 1);
	KUNIT_EXPECT_EQ(test, sum.delay_ns_rem, 300U);
	KUNIT_EXPECT_EQ(test, sum.tx_packets, 1002ULL);

	/* Where a sum in ns wraps, the one in us goes on. */
	memset(&a, 0, sizeof(a));
	a.delay_us_total = div_u64(U64_MAX, NSEC_PER_USEC);
	pacer_class_stats_tx(&a, 1514, true, 200 * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, a.delay_us_total,
			div_u64(U64_MAX, NSEC_PER_USEC) + 200000);
}

/* ---- charge of a GSO packet --------------------------------------------- */

#define TCP4_HDRS	(ETH_HLEN + sizeof(struct iphdr) + sizeof(struct tcphdr))

/* A TCP/IPv4 GSO packet of @len bytes at the device, headers at the front. */
static struct sk_buff *pacer_test_gso_skb(struct kunit *test, u32 len,
					  u16 gso_size, int thoff)
{
	struct sk_buff *skb = alloc_skb(len, GFP_KERNEL);
	struct tcphdr *th;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, skb);
	memset(skb_put(skb, len), 0, len);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	skb_set_transport_header(skb, thoff);
	if (thoff + sizeof(*th) <= len) {
		th = (struct tcphdr *)(skb->data + thoff);
		th->doff = 5;
	}
	skb_shinfo(skb)->gso_size = gso_size;
	skb_shinfo(skb)->gso_type = SKB_GSO_TCPV4;
	return skb;
}

static void pacer_charge_gso(struct kunit *test)
{
	struct pacer_class_cfg cfg = {};
	const u32 hdr = TCP4_HDRS;
	struct sk_buff *skb;
	u32 segs;

	/* Not GSO: its length, then overhead, then mpu. */
	skb = pacer_test_gso_skb(test, 1514, 0, hdr - sizeof(struct tcphdr));
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg), 1514U);
	cfg.overhead = -64;
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg), 1450U);
	cfg.mpu = 4096;
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg), 4096U);
	kfree_skb(skb);

	/* 64 KiB of TCP in 1448-byte segments: every segment's headers. */
	memset(&cfg, 0, sizeof(cfg));
	skb = pacer_test_gso_skb(test, 65536, 1448, hdr - sizeof(struct tcphdr));
	segs = DIV_ROUND_UP(65536 - hdr, 1448);
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg),
			65536 + (segs - 1) * hdr);
	cfg.overhead = 24;
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg),
			65536 + (segs - 1) * hdr + segs * 24);
	kfree_skb(skb);

	/* gso_size 1: no more segments than the kernel makes of a packet. */
	memset(&cfg, 0, sizeof(cfg));
	cfg.mpu = 4096;
	skb = pacer_test_gso_skb(test, 65536 + hdr + 100, 1,
				 hdr - sizeof(struct tcphdr));
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg),
			(u32)GSO_MAX_SEGS * 4096);
	cfg.mpu = 0;
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg),
			skb->len + (GSO_MAX_SEGS - 1) * hdr);
	kfree_skb(skb);

	/* A "header" of 40 KB is not one: charged as the bytes there are. */
	skb = pacer_test_gso_skb(test, 65536, 1, 40000);
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg), 65536U);
	kfree_skb(skb);

	/* Never 0, whatever the overhead. */
	cfg.overhead = -64;
	skb = pacer_test_gso_skb(test, 60, 0, 34);
	KUNIT_EXPECT_EQ(test, pacer_charge_len(skb, &cfg), 1U);
	kfree_skb(skb);
}

/* ---- ECN marking -------------------------------------------------------- */

struct pacer_ecn_ctx {
	struct net_device *ether;
	struct net_device *l3;
};

static void pacer_ecn_l3_setup(struct net_device *dev)
{
	dev->type = ARPHRD_NONE;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	dev->mtu = 1500;
}

static int pacer_ecn_init(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = kunit_kzalloc(test, sizeof(*ctx),
						  GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	ctx->ether = alloc_etherdev(0);
	ctx->l3 = alloc_netdev(0, "pacertest%d", NET_NAME_UNKNOWN,
			       pacer_ecn_l3_setup);
	if (!ctx->ether || !ctx->l3) {
		if (ctx->ether)
			free_netdev(ctx->ether);
		if (ctx->l3)
			free_netdev(ctx->l3);
		return -ENOMEM;
	}
	test->priv = ctx;
	return 0;
}

static void pacer_ecn_exit(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;

	free_netdev(ctx->ether);
	free_netdev(ctx->l3);
}

/*
 * Append an IPv4 header of @ihl words from @saddr to 10.0.0.2, with a
 * correct checksum, for @payload bytes the caller appends after it.
 */
static struct iphdr *pacer_put_ip4(struct sk_buff *skb, u8 proto,
				   u16 frag_off, u8 ihl, u32 saddr,
				   u16 payload)
{
	struct iphdr *iph = skb_put_zero(skb, ihl * 4);

	iph->version = 4;
	iph->ihl = ihl;
	iph->tot_len = htons(ihl * 4 + payload);
	iph->frag_off = htons(frag_off);
	iph->ttl = 64;
	iph->protocol = proto;
	iph->saddr = htonl(saddr);
	iph->daddr = htonl(0x0a000002);
	ip_send_check(iph);
	return iph;
}

/* Append a UDP-over-IPv4 header with @tos and a 64-byte payload. */
static void pacer_put_ipv4(struct sk_buff *skb, u8 tos)
{
	struct iphdr *iph = pacer_put_ip4(skb, IPPROTO_UDP, IP_DF, 5,
					  0x0a000001, 64);

	iph->tos = tos;
	ip_send_check(iph);
	memset(skb_put(skb, 64), 0xab, 64);
}

static void pacer_put_eth(struct sk_buff *skb, __be16 proto)
{
	struct ethhdr *eth = skb_put_zero(skb, sizeof(*eth));

	eth_broadcast_addr(eth->h_dest);
	eth->h_source[5] = 1;
	eth->h_proto = proto;
}

static void pacer_put_vlan(struct sk_buff *skb, u16 vid, __be16 proto)
{
	struct vlan_hdr *vh = skb_put(skb, sizeof(*vh));

	vh->h_vlan_TCI = htons(vid);
	vh->h_vlan_encapsulated_proto = proto;
}

static struct sk_buff *pacer_test_skb(struct kunit *test)
{
	struct sk_buff *skb = alloc_skb(256, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, skb);
	return skb;
}

static void pacer_ecn_ethernet(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	struct sk_buff *skb = pacer_test_skb(test);
	struct iphdr *iph;

	pacer_put_eth(skb, htons(ETH_P_IP));
	pacer_put_ipv4(skb, INET_ECN_ECT_0);
	skb->dev = ctx->ether;
	skb->protocol = htons(ETH_P_IP);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);

	/* Peeking tells what marking would do, and writes nothing. */
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_peek(skb), (int)PACER_ECN_MARKED);
	iph = (struct iphdr *)(skb->data + ETH_HLEN);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_ECT_0);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(skb), (int)PACER_ECN_MARKED);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_CE);
	KUNIT_EXPECT_EQ(test, (int)(__force u16)ip_fast_csum(iph, iph->ihl), 0);

	/* Not ECN-capable: left alone. */
	iph->tos = 0;
	ip_send_check(iph);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_peek(skb), (int)PACER_ECN_NOT_ECT);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(skb), (int)PACER_ECN_NOT_ECT);
	KUNIT_EXPECT_EQ(test, (int)iph->tos, 0);
	kfree_skb(skb);
}

/*
 * QinQ as the core leaves it at ingress: the outer 802.1ad tag moved to
 * skb->vlan_tci, the inner 802.1Q tag still in the frame, and the network
 * header on that tag.  The IP header behind it is marked; the tag is not
 * touched.
 */
static void pacer_ecn_qinq(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	struct sk_buff *skb = pacer_test_skb(test);
	unsigned char before[ETH_HLEN + VLAN_HLEN];
	const int ipoff = ETH_HLEN + VLAN_HLEN;
	struct iphdr *iph;

	pacer_put_eth(skb, htons(ETH_P_8021Q));
	pacer_put_vlan(skb, 10, htons(ETH_P_IP));
	pacer_put_ipv4(skb, INET_ECN_ECT_0);
	__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021AD), 5);
	skb->dev = ctx->ether;
	skb->protocol = htons(ETH_P_8021Q);
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	memcpy(before, skb->data, sizeof(before));

	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(skb), (int)PACER_ECN_MARKED);
	KUNIT_EXPECT_EQ(test, memcmp(before, skb->data, sizeof(before)), 0);
	iph = (struct iphdr *)(skb->data + ipoff);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_CE);
	KUNIT_EXPECT_EQ(test, (int)ntohs(iph->frag_off), IP_DF);
	KUNIT_EXPECT_EQ(test, (int)(__force u16)ip_fast_csum(iph, iph->ihl), 0);
	kfree_skb(skb);

	/* Both tags in the frame (taken at egress): the same. */
	skb = pacer_test_skb(test);
	pacer_put_eth(skb, htons(ETH_P_8021AD));
	pacer_put_vlan(skb, 5, htons(ETH_P_8021Q));
	pacer_put_vlan(skb, 10, htons(ETH_P_IP));
	pacer_put_ipv4(skb, INET_ECN_ECT_1);
	skb->dev = ctx->ether;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(skb), (int)PACER_ECN_MARKED);
	iph = (struct iphdr *)(skb->data + ETH_HLEN + 2 * VLAN_HLEN);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_CE);
	KUNIT_EXPECT_EQ(test, (int)(__force u16)ip_fast_csum(iph, iph->ihl), 0);
	kfree_skb(skb);
}

static void pacer_ecn_ipv6(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	struct sk_buff *skb = pacer_test_skb(test);
	struct ipv6hdr *ip6h;

	pacer_put_eth(skb, htons(ETH_P_IPV6));
	ip6h = skb_put_zero(skb, sizeof(*ip6h));
	ip6h->version = 6;
	ipv6_change_dsfield(ip6h, 0, INET_ECN_ECT_1);
	ip6h->nexthdr = IPPROTO_UDP;
	skb->dev = ctx->ether;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(skb), (int)PACER_ECN_MARKED);
	ip6h = (struct ipv6hdr *)(skb->data + ETH_HLEN);
	KUNIT_EXPECT_EQ(test, ipv6_get_dsfield(ip6h) & INET_ECN_MASK,
			(int)INET_ECN_CE);
	kfree_skb(skb);
}

/* From a tun or wireguard device: no link-layer header at all. */
static void pacer_ecn_l3_device(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	struct sk_buff *skb = pacer_test_skb(test);
	struct iphdr *iph;

	pacer_put_ipv4(skb, INET_ECN_ECT_0);
	skb->dev = ctx->l3;
	skb->protocol = htons(ETH_P_IP);
	skb_reset_mac_header(skb);
	skb_reset_network_header(skb);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(skb), (int)PACER_ECN_MARKED);
	iph = (struct iphdr *)skb->data;
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_CE);
	KUNIT_EXPECT_EQ(test, (int)(__force u16)ip_fast_csum(iph, iph->ihl), 0);
	kfree_skb(skb);
}

/*
 * A packet GRO chained as a fraglist (rx-gro-list): its head, Ethernet and
 * IPv4 with @tos, and one member holding the next segment's IPv4 header
 * with @tos, its data pulled past its headers as GRO leaves it.
 */
static struct sk_buff *pacer_test_fraglist(struct kunit *test,
					   struct net_device *dev, u8 tos)
{
	struct sk_buff *skb = pacer_test_skb(test), *m = pacer_test_skb(test);

	pacer_put_eth(skb, htons(ETH_P_IP));
	pacer_put_ipv4(skb, tos);
	skb->dev = dev;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, ETH_HLEN);

	skb_reset_network_header(m);
	pacer_put_ipv4(m, tos);
	skb_pull(m, sizeof(struct iphdr));

	skb_shinfo(skb)->frag_list = m;
	skb->data_len += m->len;
	skb->len += m->len;
	skb->truesize += m->truesize;
	skb_shinfo(skb)->gso_size = 64;
	skb_shinfo(skb)->gso_segs = 2;
	skb_shinfo(skb)->gso_type = SKB_GSO_UDP_L4 | SKB_GSO_FRAGLIST;
	return skb;
}

/* The IPv4 header of @skb's first frag_list member. */
static struct iphdr *pacer_test_member_iph(struct sk_buff *skb)
{
	return (struct iphdr *)skb_network_header(skb_shinfo(skb)->frag_list);
}

/*
 * Every segment of a fraglist GSO packet carries the mark: each has its own
 * IP header, which skb_segment_list() keeps.  A clone's members are the
 * original's: the original's stay as they were.
 */
static void pacer_ecn_fraglist(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	struct sk_buff *skb, *clone;
	struct iphdr *iph;

	skb = pacer_test_fraglist(test, ctx->ether, INET_ECN_ECT_0);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(skb), (int)PACER_ECN_MARKED);
	iph = (struct iphdr *)(skb->data + ETH_HLEN);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_CE);
	iph = pacer_test_member_iph(skb);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_CE);
	KUNIT_EXPECT_EQ(test, (int)(__force u16)ip_fast_csum(iph, iph->ihl), 0);
	kfree_skb(skb);

	skb = pacer_test_fraglist(test, ctx->ether, INET_ECN_ECT_1);
	clone = skb_clone(skb, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, clone);
	KUNIT_EXPECT_EQ(test, (int)pacer_ecn_mark(clone),
			(int)PACER_ECN_MARKED);
	iph = pacer_test_member_iph(clone);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_CE);
	KUNIT_EXPECT_EQ(test, (int)(__force u16)ip_fast_csum(iph, iph->ihl), 0);
	KUNIT_EXPECT_PTR_NE(test, skb_shinfo(clone)->frag_list,
			    skb_shinfo(skb)->frag_list);
	iph = (struct iphdr *)(skb->data + ETH_HLEN);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_ECT_1);
	iph = pacer_test_member_iph(skb);
	KUNIT_EXPECT_EQ(test, iph->tos & INET_ECN_MASK, (int)INET_ECN_ECT_1);
	kfree_skb(clone);
	kfree_skb(skb);
}

/* Frames pacer does not understand: not one byte changes. */
static void pacer_ecn_untouched(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	unsigned char before[256];
	struct sk_buff *skb;
	struct iphdr *iph;
	int i;

	for (i = 0; i < 5; i++) {
		skb = pacer_test_skb(test);
		switch (i) {
		case 0:	/* MPLS, IPv4 ECT(0) behind a label */
			pacer_put_eth(skb, htons(ETH_P_MPLS_UC));
			put_unaligned_be32(0x00010140, skb_put(skb, 4));
			pacer_put_ipv4(skb, INET_ECN_ECT_0);
			break;
		case 1:	/* PPPoE session carrying IPv4 */
			pacer_put_eth(skb, htons(ETH_P_PPP_SES));
			put_unaligned_be32(0x11000001, skb_put(skb, 4));
			put_unaligned_be32(0x00560021, skb_put(skb, 4));
			pacer_put_ipv4(skb, INET_ECN_ECT_0);
			break;
		case 2:	/* IPv4 ethertype, version nibble 6 */
			pacer_put_eth(skb, htons(ETH_P_IP));
			pacer_put_ipv4(skb, INET_ECN_ECT_0);
			iph = (struct iphdr *)(skb->data + ETH_HLEN);
			iph->version = 6;
			break;
		case 3:	/* IPv4 whose header would run past the frame */
			pacer_put_eth(skb, htons(ETH_P_IP));
			pacer_put_ipv4(skb, INET_ECN_ECT_0);
			iph = (struct iphdr *)(skb->data + ETH_HLEN);
			iph->ihl = 15;
			skb_trim(skb, ETH_HLEN + 40);
			break;
		case 4:	/* five VLAN tags */
			pacer_put_eth(skb, htons(ETH_P_8021AD));
			pacer_put_vlan(skb, 1, htons(ETH_P_8021AD));
			pacer_put_vlan(skb, 2, htons(ETH_P_8021AD));
			pacer_put_vlan(skb, 3, htons(ETH_P_8021AD));
			pacer_put_vlan(skb, 4, htons(ETH_P_8021Q));
			pacer_put_vlan(skb, 5, htons(ETH_P_IP));
			pacer_put_ipv4(skb, INET_ECN_ECT_0);
			break;
		}
		skb->dev = ctx->ether;
		skb_reset_mac_header(skb);
		skb_set_network_header(skb, ETH_HLEN);
		memcpy(before, skb->data, skb->len);
		KUNIT_EXPECT_EQ_MSG(test, (int)pacer_ecn_mark(skb),
				    (int)PACER_ECN_UNPARSED, "frame %d", i);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(before, skb->data, skb->len),
				    0, "frame %d changed", i);
		kfree_skb(skb);
	}
}

/* ---- header parsing ---------------------------------------------------- */

enum pacer_parse_kind {
	PACER_PARSE_UDP4,		/* the common case, and its variants: */
	PACER_PARSE_TCP4_OPTIONS,	/* an IP option: ports further in */
	PACER_PARSE_TCP6,		/* with a flow label */
	PACER_PARSE_UDP6,
	PACER_PARSE_L3,			/* no link-layer header */
	PACER_PARSE_PLAIN_LAST = PACER_PARSE_L3,
	PACER_PARSE_FIRST_FRAG,		/* the rest: the flow dissector's */
	PACER_PARSE_LATER_FRAG,
	PACER_PARSE_ICMP4,
	PACER_PARSE_IPIP,
	PACER_PARSE_HOPOPTS6,
	PACER_PARSE_SHORT_IHL,
	PACER_PARSE_NO_PORTS,
	PACER_PARSE_HW_VLAN,
	PACER_PARSE_INBAND_VLAN,
	PACER_PARSE_ARP,
	PACER_PARSE_KINDS
};

static void pacer_put_ip6(struct sk_buff *skb, u8 nexthdr)
{
	struct ipv6hdr *ip6h = skb_put_zero(skb, sizeof(*ip6h));

	ip6h->version = 6;
	ip6h->flow_lbl[0] = 0x0a;
	ip6h->flow_lbl[2] = 0x5c;
	ip6h->nexthdr = nexthdr;
	ip6h->payload_len = htons(24);
	ip6h->hop_limit = 64;
	ip6h->saddr.s6_addr32[0] = htonl(0x20010db8);
	ip6h->saddr.s6_addr32[3] = htonl(1);
	ip6h->daddr.s6_addr32[0] = htonl(0x20010db8);
	ip6h->daddr.s6_addr32[3] = htonl(2);
}

/* Ports and a payload: the first 24 bytes of any transport header. */
static void pacer_put_l4(struct sk_buff *skb)
{
	u8 *l4 = skb_put(skb, 24);

	put_unaligned_be16(40000, l4);
	put_unaligned_be16(5201, l4 + 2);
	memset(l4 + 4, 0x5a, 20);
}

static struct sk_buff *pacer_parse_skb(struct kunit *test,
				       struct net_device *dev,
				       enum pacer_parse_kind kind)
{
	struct sk_buff *skb = pacer_test_skb(test);
	__be16 proto = htons(ETH_P_IP);
	int nhoff = ETH_HLEN;

	switch (kind) {
	case PACER_PARSE_TCP6:
	case PACER_PARSE_UDP6:
	case PACER_PARSE_HOPOPTS6:
		proto = htons(ETH_P_IPV6);
		break;
	case PACER_PARSE_INBAND_VLAN:
		proto = htons(ETH_P_8021Q);
		break;
	case PACER_PARSE_ARP:
		proto = htons(ETH_P_ARP);
		break;
	case PACER_PARSE_L3:
		nhoff = 0;
		break;
	default:
		break;
	}
	if (nhoff)
		pacer_put_eth(skb, proto);
	if (kind == PACER_PARSE_INBAND_VLAN)
		pacer_put_vlan(skb, 10, htons(ETH_P_IP));

	switch (kind) {
	case PACER_PARSE_UDP4:
	case PACER_PARSE_L3:
	case PACER_PARSE_HW_VLAN:
	case PACER_PARSE_INBAND_VLAN:
		pacer_put_ip4(skb, IPPROTO_UDP, IP_DF, 5, 0x0a000001, 24);
		break;
	case PACER_PARSE_TCP4_OPTIONS:
		pacer_put_ip4(skb, IPPROTO_TCP, 0, 6, 0x0a000001, 24);
		break;
	case PACER_PARSE_TCP6:
		pacer_put_ip6(skb, IPPROTO_TCP);
		break;
	case PACER_PARSE_UDP6:
		pacer_put_ip6(skb, IPPROTO_UDP);
		break;
	case PACER_PARSE_FIRST_FRAG:
		pacer_put_ip4(skb, IPPROTO_UDP, IP_MF, 5, 0x0a000001, 24);
		break;
	case PACER_PARSE_LATER_FRAG:
		pacer_put_ip4(skb, IPPROTO_UDP, 185, 5, 0x0a000001, 24);
		break;
	case PACER_PARSE_ICMP4:
		pacer_put_ip4(skb, IPPROTO_ICMP, 0, 5, 0x0a000001, 24);
		break;
	case PACER_PARSE_IPIP:
		pacer_put_ip4(skb, IPPROTO_IPIP, 0, 5, 0x0a000001, 20 + 24);
		pacer_put_ip4(skb, IPPROTO_UDP, 0, 5, 0x0a0000fe, 24);
		break;
	case PACER_PARSE_HOPOPTS6:
		pacer_put_ip6(skb, NEXTHDR_HOP);
		/* Next header UDP, length 0 (8 bytes), PadN. */
		memcpy(skb_put(skb, 8), "\x11\x00\x01\x04\x00\x00\x00\x00", 8);
		break;
	case PACER_PARSE_SHORT_IHL:
		pacer_put_ip4(skb, IPPROTO_UDP, 0, 5, 0x0a000001, 24);
		((struct iphdr *)(skb->data + nhoff))->ihl = 4;
		break;
	case PACER_PARSE_NO_PORTS:
		pacer_put_ip4(skb, IPPROTO_UDP, 0, 5, 0x0a000001, 24);
		break;
	case PACER_PARSE_ARP:
		memset(skb_put(skb, 28), 0x01, 28);
		break;
	default:
		break;
	}
	if (kind != PACER_PARSE_NO_PORTS && kind != PACER_PARSE_ARP)
		pacer_put_l4(skb);
	if (kind == PACER_PARSE_HW_VLAN)
		__vlan_hwaccel_put_tag(skb, htons(ETH_P_8021Q), 10);

	skb->dev = dev;
	skb->protocol = proto;
	skb_reset_mac_header(skb);
	skb_set_network_header(skb, nhoff);
	return skb;
}

/*
 * pacer reads TCP and UDP straight over IPv4 and IPv6 itself, and leaves
 * everything else to the flow dissector; the keys are the dissector's
 * either way, byte for byte, so that no rule and no flow hash can tell.
 */
static void pacer_parse_as_dissector(struct kunit *test)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	struct flow_keys want, got;
	enum pacer_parse_kind kind;
	struct sk_buff *skb;

	for (kind = 0; kind < PACER_PARSE_KINDS; kind++) {
		bool plain = kind <= PACER_PARSE_PLAIN_LAST;

		skb = pacer_parse_skb(test, kind == PACER_PARSE_L3 ?
					    ctx->l3 : ctx->ether, kind);
		skb_flow_dissect_flow_keys(skb, &want, 0);
		memset(&got, 0xff, sizeof(got));
		KUNIT_EXPECT_EQ_MSG(test, pacer_parse_plain(skb, &got), plain,
				    "kind %d", kind);
		if (plain)
			KUNIT_EXPECT_EQ_MSG(test,
					    memcmp(&got, &want, sizeof(want)),
					    0, "kind %d", kind);
		memset(&got, 0xff, sizeof(got));
		pacer_parse(skb, &got);
		KUNIT_EXPECT_EQ_MSG(test, memcmp(&got, &want, sizeof(want)), 0,
				    "kind %d", kind);
		kfree_skb(skb);
	}

	/* What the plain reading found, spelled out for the common case. */
	skb = pacer_parse_skb(test, ctx->ether, PACER_PARSE_TCP4_OPTIONS);
	KUNIT_ASSERT_TRUE(test, pacer_parse_plain(skb, &got));
	KUNIT_EXPECT_EQ(test, got.control.addr_type,
			(u16)FLOW_DISSECTOR_KEY_IPV4_ADDRS);
	KUNIT_EXPECT_EQ(test, got.control.thoff, (u16)(ETH_HLEN + 24));
	KUNIT_EXPECT_EQ(test, ntohl(got.addrs.v4addrs.src), 0x0a000001U);
	KUNIT_EXPECT_EQ(test, ntohl(got.addrs.v4addrs.dst), 0x0a000002U);
	KUNIT_EXPECT_EQ(test, ntohs(got.ports.src), 40000);
	KUNIT_EXPECT_EQ(test, ntohs(got.ports.dst), 5201);
	KUNIT_EXPECT_EQ(test, got.basic.ip_proto, (u8)IPPROTO_TCP);
	kfree_skb(skb);

	/* The tunnel's keys are the inner header's: the dissector's call. */
	skb = pacer_parse_skb(test, ctx->ether, PACER_PARSE_IPIP);
	pacer_parse(skb, &got);
	KUNIT_EXPECT_EQ(test, ntohl(got.addrs.v4addrs.src), 0x0a0000feU);
	kfree_skb(skb);
}

/* ---- classification ---------------------------------------------------- */

#define PACER_TEST_CLASSES	4

/*
 * A device with rules and nothing else: pacer_classify() only compares
 * the classes' addresses, so they need not be real classes.
 */
struct pacer_test_rules {
	struct pacer_dev *pd;
	struct pacer_class *cl;
};

static void pacer_test_rules_init(struct kunit *test, struct pacer_test_rules *t)
{
	t->pd = kunit_kzalloc(test, sizeof(*t->pd), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd);
	t->cl = kunit_kcalloc(test, PACER_TEST_CLASSES, sizeof(*t->cl),
			      GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->cl);
	xa_init(&t->pd->classes);
	t->pd->default_class = &t->cl[0];
	t->pd->rules = pacer_rules_create();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->pd->rules);
}

static void pacer_test_rules_exit(struct pacer_test_rules *t)
{
	pacer_rules_destroy(t->pd->rules);
	xa_destroy(&t->pd->classes);
}

/* Add a rule like @tmpl, to class @cl. */
static void pacer_test_rule_add(struct kunit *test, struct pacer_test_rules *t,
				const struct pacer_rule *tmpl, int cl)
{
	struct pacer_rule *r = pacer_rule_alloc();
	u64 __percpu *matches;
	int err;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	matches = r->matches;
	*r = *tmpl;
	r->matches = matches;
	r->class_id = cl;
	r->class = &t->cl[cl];
	rtnl_lock();
	err = pacer_rules_insert(t->pd->rules, r, NULL);
	rtnl_unlock();
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "pref %u", tmpl->pref);
}

static void pacer_test_rule_del(struct kunit *test, struct pacer_test_rules *t,
				u32 pref)
{
	struct pacer_rule *r;

	rtnl_lock();
	r = pacer_rules_remove(t->pd->rules, pref);
	rtnl_unlock();
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, r);
	pacer_rule_free(r);
}

/* The index of the class a packet of @kind goes to. */
static int pacer_test_classify(struct kunit *test, struct pacer_test_rules *t,
			       enum pacer_parse_kind kind)
{
	struct pacer_ecn_ctx *ctx = test->priv;
	struct pacer_class *cl;
	struct flow_keys keys;
	struct sk_buff *skb;

	skb = pacer_parse_skb(test, ctx->ether, kind);
	pacer_parse(skb, &keys);
	rcu_read_lock();
	cl = pacer_classify(t->pd, skb, &keys);
	rcu_read_unlock();
	kfree_skb(skb);
	return cl - t->cl;
}

#define PACER_TEST_V4(a, b, c, d) \
	((struct in6_addr){ .s6_addr = { a, b, c, d } })

/*
 * A port criterion matches only packets that carry ports: fragments,
 * ICMP, ARP and a UDP header cut short have none, even for 0-65535.  A
 * protocol criterion needs an IP header: ARP is not protocol 0.
 */
static void pacer_classify_ports(struct kunit *test)
{
	struct pacer_test_rules t;

	pacer_test_rules_init(test, &t);
	pacer_test_rule_add(test, &t, &(struct pacer_rule){
		.pref = 1, .match = PACER_MATCH_DPORT,
		.dport_min = 0, .dport_max = 65535 }, 1);
	pacer_test_rule_add(test, &t, &(struct pacer_rule){
		.pref = 2, .match = PACER_MATCH_SPORT,
		.sport_min = 0, .sport_max = 0 }, 2);
	pacer_test_rule_add(test, &t, &(struct pacer_rule){
		.pref = 3, .match = PACER_MATCH_FAMILY, .family = AF_INET }, 2);
	pacer_test_rule_add(test, &t, &(struct pacer_rule){
		.pref = 4, .match = PACER_MATCH_PROTO, .proto = 0 }, 3);

	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 1);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_TCP6), 1);
	KUNIT_EXPECT_EQ(test,
			pacer_test_classify(test, &t, PACER_PARSE_FIRST_FRAG), 2);
	KUNIT_EXPECT_EQ(test,
			pacer_test_classify(test, &t, PACER_PARSE_LATER_FRAG), 2);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_ICMP4), 2);
	KUNIT_EXPECT_EQ(test,
			pacer_test_classify(test, &t, PACER_PARSE_NO_PORTS), 2);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_ARP), 0);
	pacer_test_rules_exit(&t);
}

/*
 * The first rule by pref wins: across shapes, past a rule of the same
 * key whose ports do not match, and when rules go (a shape's lowest pref
 * is only a bound then).
 */
static void pacer_classify_first_match(struct kunit *test)
{
	/* Static: on the stack, KASAN's redzones took the frame past 1 KiB. */
	static const struct pacer_rule dst32 = {
		.match = PACER_MATCH_FAMILY | PACER_MATCH_DST,
		.family = AF_INET, .dst_plen = 32,
		.dst = PACER_TEST_V4(10, 0, 0, 2),
	};
	static const struct pacer_rule udp_from_10_8 = {
		.pref = 45,
		.match = PACER_MATCH_FAMILY | PACER_MATCH_SRC |
			 PACER_MATCH_PROTO,
		.family = AF_INET, .src_plen = 8,
		.src = PACER_TEST_V4(10, 0, 0, 0), .proto = IPPROTO_UDP
	};
	static const struct pacer_rule udp_any = {
		.pref = 60, .match = PACER_MATCH_PROTO,
		.proto = IPPROTO_UDP
	};
	static const struct pacer_rule mark_1 = {
		.pref = 10,
		.match = PACER_MATCH_FAMILY | PACER_MATCH_SRC |
			 PACER_MATCH_MARK,
		.family = AF_INET, .src_plen = 0, .mark = 1,
		.mark_mask = 1
	};
	static const struct pacer_rule mark_0 = {
		.pref = 11,
		.match = PACER_MATCH_FAMILY | PACER_MATCH_SRC |
			 PACER_MATCH_MARK,
		.family = AF_INET, .src_plen = 0, .mark = 0,
		.mark_mask = 1
	};
	static const struct pacer_rule v6_prefix = {
		.pref = 5, .match = PACER_MATCH_FAMILY | PACER_MATCH_SRC,
		.family = AF_INET6, .src_plen = 32,
		.src.s6_addr32[0] = cpu_to_be32(0x20010db8)
	};
	struct pacer_test_rules t;
	struct pacer_rule r;

	pacer_test_rules_init(test, &t);
	r = dst32;
	r.pref = 50;
	pacer_test_rule_add(test, &t, &r, 1);
	r.pref = 40;
	r.match |= PACER_MATCH_DPORT;
	r.dport_min = 80;
	r.dport_max = 80;
	pacer_test_rule_add(test, &t, &r, 2);
	pacer_test_rule_add(test, &t, &udp_from_10_8, 3);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 3);

	r.pref = 30;
	r.dport_min = 5000;
	r.dport_max = 5201;
	pacer_test_rule_add(test, &t, &r, 2);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 2);
	pacer_test_rule_del(test, &t, 30);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 3);
	pacer_test_rule_del(test, &t, 45);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 1);
	pacer_test_rule_del(test, &t, 40);
	pacer_test_rule_add(test, &t, &udp_any, 3);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 1);

	/* A /0 prefix matches any address; the mark decides. */
	pacer_test_rule_add(test, &t, &mark_1, 3);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 1);
	pacer_test_rule_add(test, &t, &mark_0, 2);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 2);

	/* IPv6 prefixes: only IPv6 packets. */
	pacer_test_rule_add(test, &t, &v6_prefix, 3);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_TCP6), 3);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 2);
	pacer_test_rules_exit(&t);
}

/* A shape's table grows under its rules; lookups find the same rules. */
static void pacer_classify_grow(struct kunit *test)
{
	struct pacer_test_rules t;
	struct pacer_rule r = {
		.match = PACER_MATCH_FAMILY | PACER_MATCH_DST,
		.family = AF_INET, .dst_plen = 32,
	};
	int i;

	pacer_test_rules_init(test, &t);
	pacer_test_rule_add(test, &t, &(struct pacer_rule){
		.pref = 1000, .match = PACER_MATCH_FAMILY,
		.family = AF_INET }, 3);
	for (i = 0; i < 100; i++) {
		r.pref = 100 + i;
		r.dst = PACER_TEST_V4(10, 0, i == 77 ? 0 : 1, i == 77 ? 2 : i);
		pacer_test_rule_add(test, &t, &r, i == 77 ? 2 : 1);
		KUNIT_EXPECT_EQ_MSG(test,
				    pacer_test_classify(test, &t,
							PACER_PARSE_UDP4),
				    i < 77 ? 3 : 2, "after %d rules", i + 1);
	}
	pacer_test_rule_del(test, &t, 177);
	KUNIT_EXPECT_EQ(test, pacer_test_classify(test, &t, PACER_PARSE_UDP4), 3);
	pacer_test_rules_exit(&t);
}

static struct kunit_case pacer_bucket_cases[] = {
	KUNIT_CASE(pacer_bucket_conversions),
	KUNIT_CASE(pacer_bucket_tokens),
	KUNIT_CASE(pacer_bucket_late),
	KUNIT_CASE(pacer_bucket_exact),
	{}
};

static struct kunit_case pacer_signal_cases[] = {
	KUNIT_CASE(pacer_signal_episode),
	KUNIT_CASE(pacer_signal_loss_level),
	KUNIT_CASE(pacer_signal_edges),
	KUNIT_CASE(pacer_signal_slow_start_span),
	KUNIT_CASE(pacer_signal_auto_limit),
	KUNIT_CASE(pacer_signal_loss_room),
	{}
};

static struct kunit_case pacer_queue_cases[] = {
	KUNIT_CASE(pacer_queue_victim),
	{}
};

static struct kunit_case pacer_hist_cases[] = {
	KUNIT_CASE(pacer_hist_buckets),
	KUNIT_CASE(pacer_hist_sojourn_sum),
	{}
};

static struct kunit_case pacer_charge_cases[] = {
	KUNIT_CASE(pacer_charge_gso),
	{}
};

static struct kunit_case pacer_ecn_cases[] = {
	KUNIT_CASE(pacer_ecn_ethernet),
	KUNIT_CASE(pacer_ecn_qinq),
	KUNIT_CASE(pacer_ecn_ipv6),
	KUNIT_CASE(pacer_ecn_l3_device),
	KUNIT_CASE(pacer_ecn_fraglist),
	KUNIT_CASE(pacer_ecn_untouched),
	{}
};

static struct kunit_case pacer_parse_cases[] = {
	KUNIT_CASE(pacer_parse_as_dissector),
	{}
};

static struct kunit_case pacer_classify_cases[] = {
	KUNIT_CASE(pacer_classify_ports),
	KUNIT_CASE(pacer_classify_first_match),
	KUNIT_CASE(pacer_classify_grow),
	{}
};

static struct kunit_suite pacer_bucket_suite = {
	.name = "pacer_bucket",
	.test_cases = pacer_bucket_cases,
};

static struct kunit_suite pacer_signal_suite = {
	.name = "pacer_signal",
	.test_cases = pacer_signal_cases,
};

static struct kunit_suite pacer_queue_suite = {
	.name = "pacer_queue",
	.test_cases = pacer_queue_cases,
};

static struct kunit_suite pacer_hist_suite = {
	.name = "pacer_hist",
	.test_cases = pacer_hist_cases,
};

static struct kunit_suite pacer_charge_suite = {
	.name = "pacer_charge",
	.test_cases = pacer_charge_cases,
};

static struct kunit_suite pacer_ecn_suite = {
	.name = "pacer_ecn",
	.init = pacer_ecn_init,
	.exit = pacer_ecn_exit,
	.test_cases = pacer_ecn_cases,
};

static struct kunit_suite pacer_parse_suite = {
	.name = "pacer_parse",
	.init = pacer_ecn_init,
	.exit = pacer_ecn_exit,
	.test_cases = pacer_parse_cases,
};

static struct kunit_suite pacer_classify_suite = {
	.name = "pacer_classify",
	.init = pacer_ecn_init,
	.exit = pacer_ecn_exit,
	.test_cases = pacer_classify_cases,
};

kunit_test_suites(&pacer_bucket_suite, &pacer_signal_suite,
		  &pacer_queue_suite, &pacer_hist_suite, &pacer_charge_suite,
		  &pacer_ecn_suite, &pacer_parse_suite, &pacer_classify_suite);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("KUnit tests of pacer's arithmetic and header handling");
