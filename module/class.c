// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: classes.
 *
 * A class is a token bucket (plus an optional ceil bucket) in front of a
 * fair queue.  Packets always go through the queue; the device's NAPI poll
 * takes from it whatever the buckets allow and leaves the rest for the
 * device timer.  All of a class's state, counters included, is under the
 * class's own lock: the data path takes it anyway, so counters cost no
 * extra atomics and a reader sees them consistent with the backlog.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "ecn.h"
#include "pacer.h"
#include "testing.h"

#define PACER_FLOWS		1024
#define PACER_DEFAULT_TARGET_US	5000
#define PACER_DEFAULT_LIMIT_US	100000
#define PACER_BURST_TIME_NS	(10 * NSEC_PER_MSEC)
/* Two 64 KiB GSO packets, so a default bucket never splits one in two. */
#define PACER_BURST_MIN		(2 * 65536)
/* An unlimited class queues only while the CPU falls behind. */
#define PACER_UNLIMITED_LIMIT	(4 << 20)
#define PACER_CODEL_INTERVAL_NS	(100 * NSEC_PER_MSEC)
/*
 * The longest headers a GSO packet repeats in each segment: Ethernet, two
 * VLAN tags, an encapsulation, IPv6 with extension headers, TCP with
 * options.  A longer one is not a header that the stack built: such a
 * packet is charged as the bytes it has.
 */
#define PACER_GSO_HDR_MAX	256

/* How often a reader retries a copy before it takes the lock. */
#define PACER_READ_TRIES	4

/*
 * Every change to a class's state happens under its lock and inside its
 * seqcount, so that readers can copy it without the lock.
 */
static void pacer_class_lock(struct pacer_class *cl)
	__acquires(&cl->lock)
{
	spin_lock(&cl->lock);
	write_seqcount_begin(&cl->seq);
}

static void pacer_class_unlock(struct pacer_class *cl)
	__releases(&cl->lock)
{
	write_seqcount_end(&cl->seq);
	spin_unlock(&cl->lock);
}

static void pacer_class_lock_bh(struct pacer_class *cl)
	__acquires(&cl->lock)
{
	spin_lock_bh(&cl->lock);
	write_seqcount_begin(&cl->seq);
}

static void pacer_class_unlock_bh(struct pacer_class *cl)
	__releases(&cl->lock)
{
	write_seqcount_end(&cl->seq);
	spin_unlock_bh(&cl->lock);
}

/**
 * pacer_class_cfg_defaults() - the configuration of a new class
 * @cfg: filled with defaults: unlimited, 100 ms limit, 5 ms target
 */
void pacer_class_cfg_defaults(struct pacer_class_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->limit_us = PACER_DEFAULT_LIMIT_US;
	cfg->target_us = PACER_DEFAULT_TARGET_US;
}

static u32 pacer_cfg_burst(const struct pacer_class_cfg *cfg)
{
	u64 burst;

	if (cfg->burst || !cfg->rate)
		return cfg->burst;
	burst = max_t(u64, pacer_ns_to_len(cfg->rate, PACER_BURST_TIME_NS),
		      PACER_BURST_MIN);
	/* At very low rates, no more than a user could have asked for. */
	return min_t(u64, burst,
		     pacer_ns_to_len(cfg->rate, PACER_BURST_TIME_MAX_NS));
}

static u32 pacer_cfg_limit(const struct pacer_class_cfg *cfg, u32 burst)
{
	if (cfg->limit_bytes)
		return cfg->limit_bytes;
	if (!cfg->rate)
		return PACER_UNLIMITED_LIMIT;
	/* Never below the burst: what may leave at once may also queue. */
	return max_t(u64, pacer_ns_to_len(cfg->rate,
					  (u64)cfg->limit_us * NSEC_PER_USEC),
		     burst);
}

/**
 * pacer_class_burst() - the bucket size in use
 * @cl: the class
 *
 * Return: bytes (0 for an unlimited class).
 */
u32 pacer_class_burst(const struct pacer_class *cl)
{
	return READ_ONCE(cl->burst);
}

/* Caller holds cl->lock, or owns a class nobody else sees yet. */
static void __pacer_class_apply(struct pacer_class *cl,
				const struct pacer_class_cfg *cfg, u64 now)
{
	u32 mtu = READ_ONCE(cl->pd->dev->mtu) + ETH_HLEN;

	cl->cfg = *cfg;
	WRITE_ONCE(cl->burst, pacer_cfg_burst(cfg));
	cl->limit = pacer_cfg_limit(cfg, cl->burst);
	cl->codel.target = (u64)cfg->target_us * NSEC_PER_USEC;
	cl->codel.interval = PACER_CODEL_INTERVAL_NS;
	cl->codel.mtu = mtu;
	cl->queue.quantum = mtu;
	pacer_bucket_config(&cl->bucket, cfg->rate, cl->burst, now);
	/* The ceil bucket holds one packet: ceil bounds back-to-back bursts. */
	pacer_bucket_config(&cl->peak, cfg->ceil, mtu, now);
}

/**
 * pacer_class_create() - allocate a class
 * @pd: the device
 * @id: its id
 * @cfg: its configuration, already validated
 *
 * Context: process context, may sleep.
 * Return: the class with one reference (the caller's, for the class
 * table), or NULL on allocation failure.
 */
struct pacer_class *pacer_class_create(struct pacer_dev *pd, u16 id,
				       const struct pacer_class_cfg *cfg)
{
	u32 quantum = READ_ONCE(pd->dev->mtu) + ETH_HLEN;
	struct pacer_class *cl;

	/* Charged to the memory cgroup of whoever creates the class. */
	cl = kzalloc(sizeof(*cl), PACER_GFP);
	if (!cl)
		return NULL;
	if (pacer_queue_init(&cl->queue, PACER_FLOWS, quantum, PACER_GFP)) {
		kfree(cl);
		return NULL;
	}
	cl->pd = pd;
	cl->id = id;
	spin_lock_init(&cl->lock);
	seqcount_spinlock_init(&cl->seq, &cl->lock);
	INIT_LIST_HEAD(&cl->active_node);
	refcount_set(&cl->refcnt, 1);
	__pacer_class_apply(cl, cfg, ktime_get_ns());
	return cl;
}

/**
 * pacer_class_apply() - change a class's configuration
 * @cl: the class
 * @cfg: the new configuration, already validated
 *
 * Queued packets stay queued in their order; the buckets keep their
 * tokens.  The device is kicked so a faster rate takes effect at once.
 */
void pacer_class_apply(struct pacer_class *cl,
		       const struct pacer_class_cfg *cfg)
{
	pacer_class_lock_bh(cl);
	__pacer_class_apply(cl, cfg, ktime_get_ns());
	pacer_class_unlock_bh(cl);
	pacer_dev_kick(cl->pd);
}

static void pacer_class_free_rcu(struct rcu_head *head)
{
	struct pacer_class *cl = container_of(head, struct pacer_class, rcu);

	pacer_queue_destroy(&cl->queue);
	kfree(cl);
}

/**
 * pacer_class_put() - drop a reference; the last one frees the class after
 *	an RCU grace period
 * @cl: the class
 */
void pacer_class_put(struct pacer_class *cl)
{
	if (refcount_dec_and_test(&cl->refcnt))
		call_rcu(&cl->rcu, pacer_class_free_rcu);
}

/* Caller holds cl->lock; @skb is freed by the caller after unlocking. */
static void pacer_class_count_drop(struct pacer_class *cl, struct sk_buff *skb,
				   enum pacer_drop_reason reason)
{
	cl->stats.dropped_packets++;
	cl->stats.dropped_bytes += skb->len;
	cl->stats.drops[reason]++;
	pacer_dev_count_drop(cl->pd, reason, skb->len);
}

/* Caller holds cl->lock: a dequeued packet no longer holds device memory. */
static void pacer_class_unqueue(struct pacer_class *cl, struct sk_buff *skb)
{
	percpu_counter_add_batch(&cl->pd->mem, -(s64)skb->truesize,
				 PACER_MEM_BATCH);
}

/**
 * pacer_charge_len() - what the buckets are charged for a packet
 * @skb: the packet, data at its link-layer header
 * @cfg: its class's configuration (overhead, mpu)
 *
 * Its length at the device, plus the headers of every segment a GSO
 * packet will become, each segment adjusted by overhead and raised to mpu
 * (as qdisc_pkt_len_init and the size tables do it).  The segments are
 * never more than the kernel makes of one packet (GSO_MAX_SEGS), and a
 * header longer than any the stack builds is not believed: what the
 * packet is on the wire bounds its charge, whatever its metadata says.
 *
 * Return: bytes, at least 1.
 */
u32 pacer_charge_len(const struct sk_buff *skb,
		     const struct pacer_class_cfg *cfg)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	u32 segs = 1;
	u64 len = skb->len;
	s64 charge;

	if (shinfo->gso_size && skb_transport_header_was_set(skb) &&
	    skb_mac_header_was_set(skb) &&
	    skb_transport_header(skb) >= skb_mac_header(skb)) {
		u32 hdr_len = skb_transport_header(skb) - skb_mac_header(skb);

		if (shinfo->gso_type & (SKB_GSO_TCPV4 | SKB_GSO_TCPV6)) {
			struct tcphdr _th;
			const struct tcphdr *th;

			th = skb_header_pointer(skb, skb_transport_offset(skb),
						sizeof(_th), &_th);
			if (th)
				hdr_len += __tcp_hdrlen(th);
		} else if (shinfo->gso_type & SKB_GSO_UDP_L4) {
			hdr_len += sizeof(struct udphdr);
		}
		if (skb->len > hdr_len && hdr_len <= PACER_GSO_HDR_MAX) {
			segs = min_t(u32, DIV_ROUND_UP(skb->len - hdr_len,
						       shinfo->gso_size),
				     GSO_MAX_SEGS);
			len += (u64)(segs - 1) * hdr_len;
		}
	}

	charge = (s64)len + (s64)segs * cfg->overhead;
	charge = max_t(s64, charge, (s64)segs * cfg->mpu);
	return clamp_t(s64, charge, 1, U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_charge_len);

static u64 pacer_class_ready(struct pacer_class *cl, u32 charge, u64 now)
{
	return max(pacer_bucket_ready(&cl->bucket, charge, now),
		   pacer_bucket_ready(&cl->peak, charge, now));
}

/* Queue one packet (or one segment of a split GSO packet). */
static void pacer_class_enqueue_one(struct pacer_class *cl,
				    struct sk_buff *skb, u32 hash)
{
	struct pacer_dev *pd = cl->pd;
	struct pacer_skb_cb *cb = pacer_skb_cb(skb);
	struct sk_buff *victims = NULL, *victim;
	u64 now = ktime_get_ns();
	bool wake = false;

	pacer_dev_count_rx(pd, skb->len);
	pacer_class_lock(cl);
	cl->stats.rx_packets++;
	cl->stats.rx_bytes += skb->len;

	if (unlikely(cl->dead)) {
		pacer_class_count_drop(cl, skb, PACER_DROP_FLUSH);
		goto drop;
	}
	if (unlikely(percpu_counter_read(&pd->mem) + skb->truesize >
		     PACER_MEM_LIMIT)) {
		pacer_class_count_drop(cl, skb, PACER_DROP_MEMORY);
		goto drop;
	}

	/* txqueuelen 0: a class may queue nothing at all. */
	if (unlikely(!READ_ONCE(pd->dev->tx_queue_len))) {
		pacer_class_count_drop(cl, skb, PACER_DROP_QUEUE_LIMIT);
		goto drop;
	}

	cb->enqueue_ns = now;
	cb->ecn_marked = false;
	cb->charge = pacer_charge_len(skb, &cl->cfg);
	cb->delayed = cl->queue.backlog_packets ||
		      pacer_class_ready(cl, cb->charge, now) > now;

	/* Make room at the expense of whichever flow built the backlog. */
	while (cl->queue.backlog_packets &&
	       (cl->queue.backlog_bytes + skb->len > cl->limit ||
		cl->queue.backlog_packets >= READ_ONCE(pd->dev->tx_queue_len))) {
		victim = pacer_queue_take_fattest(&cl->queue);
		pacer_class_unqueue(cl, victim);
		pacer_class_count_drop(cl, victim, PACER_DROP_QUEUE_LIMIT);
		victim->next = victims;
		victims = victim;
	}

	pacer_queue_add(&cl->queue, skb, hash);
	percpu_counter_add_batch(&pd->mem, skb->truesize, PACER_MEM_BATCH);
	if (cl->queue.backlog_bytes > cl->stats.backlog_peak_bytes)
		cl->stats.backlog_peak_bytes = cl->queue.backlog_bytes;
	if (!test_and_set_bit(0, &cl->scheduled)) {
		/* Safe: not dead, so the class table still holds a ref. */
		refcount_inc(&cl->refcnt);
		wake = true;
	}
	pacer_class_unlock(cl);

	kfree_skb_list(victims);
	if (wake)
		llist_add(&cl->wake_node, &pd->wake);
	/*
	 * Poll on every arrival, as a qdisc is run on every enqueue: packets
	 * due since the timer was armed leave now, not when softirq load
	 * lets the timer run.  Cheap when the NAPI context is scheduled.
	 */
	pacer_dev_kick(pd);
	return;

drop:
	pacer_class_unlock(cl);
	kfree_skb(skb);
}

/**
 * pacer_class_enqueue() - queue a packet in its class
 * @cl: the class, found under RCU
 * @skb: the packet; consumed
 * @hash: its flow, from pacer_flow_hash(); its segments share it
 *
 * A rate-limited class splits GSO packets into their segments, as cake
 * does below gigabit rates: the segments are paced one by one, DRR serves
 * flows at MTU granularity, and a limit drop costs a TCP sender one
 * segment instead of up to 45.
 *
 * Context: BH disabled (the device's xmit).
 */
void pacer_class_enqueue(struct pacer_class *cl, struct sk_buff *skb,
			 u32 hash)
{
	struct sk_buff *segs, *seg, *next;

	if (!skb_is_gso(skb) || !READ_ONCE(cl->cfg.rate)) {
		pacer_class_enqueue_one(cl, skb, hash);
		return;
	}

	segs = skb_gso_segment(skb, netif_skb_features(skb) &
				    ~NETIF_F_GSO_MASK);
	if (IS_ERR_OR_NULL(segs)) {
		/* Not splittable: pace it whole, charged as its segments. */
		pacer_class_enqueue_one(cl, skb, hash);
		return;
	}
	consume_skb(skb);
	skb_list_walk_safe(segs, seg, next) {
		skb_mark_not_on_list(seg);
		pacer_class_enqueue_one(cl, seg, hash);
	}
}

/**
 * pacer_hist_bucket() - the sojourn histogram's bucket for a sojourn
 * @sojourn_ns: nanoseconds
 *
 * Return: i such that the sojourn is at most 2^i us (bucket 0: up to
 * 1 us), or the last bucket.
 */
unsigned int pacer_hist_bucket(u64 sojourn_ns)
{
	u32 rem;
	/* Rounded up, without the overflow of adding 999 first. */
	u64 us = div_u64_rem(sojourn_ns, NSEC_PER_USEC, &rem) + !!rem;

	if (us <= 1)
		return 0;
	return min_t(unsigned int, fls64(us - 1), PACER_HIST_BUCKETS - 1);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_hist_bucket);

/* Caller holds cl->lock. */
static void pacer_class_count_tx(struct pacer_class *cl, struct sk_buff *skb,
				 u64 sojourn)
{
	struct pacer_class_stats *st = &cl->stats;

	st->tx_packets++;
	st->tx_bytes += skb->len;
	if (pacer_skb_cb(skb)->delayed) {
		st->delayed_packets++;
		st->delayed_bytes += skb->len;
	}
	st->delay_ns_total += sojourn;
	if (sojourn > st->delay_ns_max)
		st->delay_ns_max = sojourn;
	st->hist[pacer_hist_bucket(sojourn)]++;
}

/*
 * CoDel waits a whole interval above target before its first mark, and a
 * TCP flow in slow start fills a 100 ms queue well within that interval.
 * So once the class holds a quarter of its limit, every packet of a flow
 * that has a queue of its own is a candidate too: the sender cuts its
 * window (CUBIC by 30 %, over a round trip with PRR) before the limit
 * forces a drop, while the other three quarters absorb what it sends
 * meanwhile: a BDP and a TSO burst or two.  Sparse flows (one MTU or less
 * queued) are left alone.
 */
static bool pacer_class_should_mark(struct pacer_class *cl,
				    struct pacer_flow *flow, u64 sojourn,
				    u64 now)
{
	if (pacer_codel_should_mark(flow, &cl->codel, sojourn, now))
		return true;
	return cl->queue.backlog_bytes >= cl->limit / 4 &&
	       flow->backlog > cl->codel.mtu;
}

/**
 * pacer_class_dequeue() - take the packets the buckets let go now
 * @cl: the class, on the device's active list
 * @now: current time, ktime ns
 * @budget: at most this many packets
 * @batch: packets to re-inject are added here, ready (see
 *	pacer_reinject_prepare())
 * @next: set to when the class's next packet is due, if one waits for
 *	tokens; left alone otherwise
 * @idle: set if the class is left empty: it is then no longer scheduled
 *	and the caller must take it off the active list and drop the list's
 *	reference
 *
 * Context: the device's NAPI poll.
 *
 * Return: packets taken from the queue, re-injected or dropped.
 */
int pacer_class_dequeue(struct pacer_class *cl, u64 now, int budget,
			struct sk_buff_head *batch, u64 *next, bool *idle)
{
	u64 horizon = now + PACER_TIMER_SLACK_NS;
	struct sk_buff *gone = NULL;
	struct pacer_flow *flow;
	struct sk_buff *skb;
	int done = 0;

	pacer_class_lock(cl);
	while (done < budget &&
	       (skb = pacer_queue_peek(&cl->queue, &flow))) {
		struct pacer_skb_cb *cb = pacer_skb_cb(skb);
		u64 due = pacer_class_ready(cl, cb->charge, horizon);
		u64 sojourn;

		if (due > horizon) {
			*next = due;
			break;
		}
		pacer_bucket_charge(&cl->bucket, cb->charge);
		pacer_bucket_charge(&cl->peak, cb->charge);
		pacer_queue_take(&cl->queue, flow);
		pacer_class_unqueue(cl, skb);

		sojourn = now > cb->enqueue_ns ? now - cb->enqueue_ns : 0;
		/* A drop costs the poll as much as a packet that leaves. */
		done++;
		if (unlikely(!pacer_reinject_prepare(cl->pd, skb))) {
			pacer_class_count_drop(cl, skb, PACER_DROP_REINJECT);
			skb->next = gone;
			gone = skb;
			continue;
		}

		cb->ecn_marked = false;
		if (pacer_class_should_mark(cl, flow, sojourn, now)) {
			switch (pacer_ecn_mark(skb)) {
			case PACER_ECN_MARKED:
				cb->ecn_marked = true;
				cl->stats.ecn_marked++;
				break;
			case PACER_ECN_UNPARSED:
				cl->stats.ecn_unparsed++;
				pacer_dev_count_ecn_unparsed(cl->pd);
				break;
			case PACER_ECN_NOT_ECT:
				break;
			}
		}
		pacer_class_count_tx(cl, skb, sojourn);
		__skb_queue_tail(batch, skb);
	}
	*idle = !cl->queue.backlog_packets;
	if (*idle)
		clear_bit(0, &cl->scheduled);
	pacer_class_unlock(cl);

	kfree_skb_list(gone);
	return done;
}

/**
 * pacer_class_flush() - drop every queued packet, counted as flush
 * @cl: the class
 *
 * Context: process context (class deletion, device going down).
 */
void pacer_class_flush(struct pacer_class *cl)
{
	struct sk_buff *flushed = NULL, *skb;

	pacer_class_lock_bh(cl);
	while ((skb = pacer_queue_take_any(&cl->queue))) {
		pacer_class_unqueue(cl, skb);
		pacer_class_count_drop(cl, skb, PACER_DROP_FLUSH);
		skb->next = flushed;
		flushed = skb;
	}
	pacer_class_unlock_bh(cl);
	kfree_skb_list(flushed);
}

/**
 * pacer_class_delete() - make a class unreachable and drop its backlog
 * @cl: the class, already removed from the class table
 *
 * Context: process context, RTNL held.  Drops the table's reference.
 */
void pacer_class_delete(struct pacer_class *cl)
{
	pacer_class_lock_bh(cl);
	cl->dead = true;
	pacer_class_unlock_bh(cl);
	pacer_class_flush(cl);
	pacer_class_put(cl);
}

static void pacer_class_copy(const struct pacer_class *cl,
			     struct pacer_class_cfg *cfg,
			     struct pacer_class_stats *st, u64 *backlog_packets,
			     u64 *backlog_bytes)
{
	*cfg = cl->cfg;
	*st = cl->stats;
	*backlog_packets = cl->queue.backlog_packets;
	*backlog_bytes = cl->queue.backlog_bytes;
}

/**
 * pacer_class_read() - a consistent copy of a class's state
 * @cl: the class
 * @cfg: filled with the configuration
 * @st: filled with the counters
 * @backlog_packets: set to packets queued
 * @backlog_bytes: set to bytes queued
 *
 * Readers are anyone (class show is unprivileged): they copy between two
 * writes and retry, so they never hold up the data path; only a reader
 * that keeps losing the race waits for the lock once.
 */
void pacer_class_read(struct pacer_class *cl, struct pacer_class_cfg *cfg,
		      struct pacer_class_stats *st, u64 *backlog_packets,
		      u64 *backlog_bytes)
{
	unsigned int seq;
	int tries;

	for (tries = 0; tries < PACER_READ_TRIES; tries++) {
		seq = read_seqcount_begin(&cl->seq);
		pacer_class_copy(cl, cfg, st, backlog_packets, backlog_bytes);
		if (!read_seqcount_retry(&cl->seq, seq))
			return;
	}
	spin_lock_bh(&cl->lock);
	pacer_class_copy(cl, cfg, st, backlog_packets, backlog_bytes);
	spin_unlock_bh(&cl->lock);
}

/**
 * pacer_class_reset_stats() - zero a class's counters
 * @cl: the class
 *
 * Packets still queued count as arrived after the reset, so that
 * rx = tx + dropped + backlog keeps holding.
 */
void pacer_class_reset_stats(struct pacer_class *cl)
{
	pacer_class_lock_bh(cl);
	memset(&cl->stats, 0, sizeof(cl->stats));
	cl->stats.rx_packets = cl->queue.backlog_packets;
	cl->stats.rx_bytes = cl->queue.backlog_bytes;
	cl->stats.backlog_peak_bytes = cl->queue.backlog_bytes;
	pacer_class_unlock_bh(cl);
}
