// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: classes.
 *
 * A class is a token bucket (plus an optional ceil bucket) shared by all
 * CPUs, in front of a fair queue on each CPU.  A packet is queued on the
 * CPU it arrived on and released by that CPU's shaper, so the spreading
 * of a NIC's RSS survives pacer.  The CPUs share the class's rate by
 * claiming its tokens a batch at a time (about a millisecond of the rate)
 * under the class's lock, then spending them without it: the shared
 * cache line is written once per batch, not per packet.
 *
 * A flow's packets are all on one CPU: the first packet of a flow claims
 * its hash bucket for the queue of the CPU it arrived on, and later
 * packets of that flow join it there, whatever CPU they arrive on, until
 * the bucket is empty again.  So a flow is never reordered, even when its
 * packets move between CPUs.
 *
 * A packet that finds its flow idle everywhere, nothing of its class
 * queued on its CPU and the tokens it needs is not queued at all: it is
 * sent on at once from the device's xmit, as it would have left the queue
 * a moment later, without waiting for the CPU's shaper to run.
 *
 * All of a class's state on a CPU - its queue, the flows it owns, its
 * claimed tokens and counters - is under that CPU's shaper lock, taken by
 * the CPU itself on arrival and release, and by another CPU only for a
 * flow that moved; the lock nests outside the class's bucket lock.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <linux/udp.h>

#include "compat.h"
#include "ecn.h"
#include "pacer.h"
#include "reinject.h"
#include "testing.h"

#define CREATE_TRACE_POINTS
#include "trace.h"

#define PACER_DEFAULT_TARGET_US	5000
/* The least an automatic limit is: what a time limit defaulted to before. */
#define PACER_AUTO_LIMIT_MIN_US	100000
#define PACER_DEFAULT_RTT_US	100000
#define PACER_BURST_TIME_NS	(10 * NSEC_PER_MSEC)
/* Two 64 KiB GSO packets, so a default bucket never splits one in two. */
#define PACER_BURST_MIN_GSO	(2 * 65536)
/*
 * A class that splits GSO sends segments, and a larger idle bucket only
 * lets a window-limited or slow-starting flow's windows through at once:
 * they come back as bursts that overshoot the queue.  A few frames, so a
 * poll late by a TCG or softirq stall still finds its tokens.
 */
#define PACER_BURST_MIN_SPLIT	(16 << 10)
/* An unlimited class queues only while the CPU falls behind. */
#define PACER_UNLIMITED_LIMIT	(4 << 20)
/*
 * The longest headers a GSO packet repeats in each segment: Ethernet, two
 * VLAN tags, an encapsulation, IPv6 with extension headers, TCP with
 * options.  A longer one is not a header that the stack built: such a
 * packet is charged as the bytes it has.
 */
#define PACER_GSO_HDR_MAX	256
/*
 * What a CPU claims from the class's bucket at a time: a millisecond of
 * the rate, within bounds.  The tokens a CPU holds but does not spend are
 * at most this much: the error it adds to the rate, and to a burst.
 */
#define PACER_CLAIM_NS		NSEC_PER_MSEC
#define PACER_CLAIM_MAX		(256 << 10)
/* How often a reader retries a copy before it takes the lock. */
#define PACER_READ_TRIES	4

/**
 * pacer_class_cfg_defaults() - the configuration of a new class
 * @cfg: filled with defaults: unlimited, an automatic limit (see
 *	pacer_class_cfg_limit_us()), 5 ms target, 100 ms RTT (cake's
 *	"internet")
 */
void pacer_class_cfg_defaults(struct pacer_class_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->target_us = PACER_DEFAULT_TARGET_US;
	cfg->rtt_us = PACER_DEFAULT_RTT_US;
	cfg->gso = PACER_GSO_AUTO;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_class_cfg_defaults);

static bool pacer_cfg_split_gso(const struct pacer_class_cfg *cfg)
{
	switch (cfg->gso) {
	case PACER_GSO_SPLIT:
		return cfg->rate;
	case PACER_GSO_KEEP:
		return false;
	default:
		return cfg->rate && cfg->rate < PACER_GSO_AUTO_SPLIT_BELOW;
	}
}

static u32 pacer_cfg_burst(const struct pacer_class_cfg *cfg)
{
	u64 burst;

	if (cfg->burst || !cfg->rate)
		return cfg->burst;
	burst = max_t(u64, pacer_ns_to_len(cfg->rate, PACER_BURST_TIME_NS),
		      pacer_cfg_split_gso(cfg) ? PACER_BURST_MIN_SPLIT :
						 PACER_BURST_MIN_GSO);
	/* At very low rates, no more than a user could have asked for. */
	return min_t(u64, burst,
		     pacer_ns_to_len(cfg->rate, PACER_BURST_TIME_MAX_NS));
}

/*
 * The standing queue a flow may keep before it is told, before a limit
 * caps it: see pacer_signal_config().
 */
static u64 pacer_cfg_level_ns(const struct pacer_class_cfg *cfg)
{
	return ((u64)cfg->target_us + (u64)cfg->rtt_us / 2) * NSEC_PER_USEC;
}

/**
 * pacer_class_cfg_limit_us() - a class's limit as time at its rate
 * @cfg: the class's configuration, its limit not in bytes
 *
 * An automatic limit (@cfg->limit_us 0, the default) is four times the
 * signal level, target + rtt/2 (see pacer_signal_config()), and at least
 * 100 ms.  A slow-starting sender told at the level doubles its window
 * once more before the signal comes back: its queue grows to its round
 * trip plus twice the level, and since the round trip is at most twice
 * the level that stays below four times it.  With a fixed 100 ms limit
 * the level was capped at 25 ms, less than the 34 ms that one CUBIC flow
 * at 80 ms needs after a cut.  A limit set by hand caps the level instead.
 *
 * Return: microseconds.
 */
u32 pacer_class_cfg_limit_us(const struct pacer_class_cfg *cfg)
{
	u64 limit_us;

	if (cfg->limit_us)
		return cfg->limit_us;
	limit_us = div_u64(4 * pacer_cfg_level_ns(cfg), NSEC_PER_USEC);
	return clamp_t(u64, limit_us, PACER_AUTO_LIMIT_MIN_US, U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_class_cfg_limit_us);

static u32 pacer_cfg_limit(const struct pacer_class_cfg *cfg, u32 burst)
{
	u64 limit_ns;

	if (cfg->limit_bytes)
		return cfg->limit_bytes;
	if (!cfg->rate)
		return PACER_UNLIMITED_LIMIT;
	limit_ns = (u64)pacer_class_cfg_limit_us(cfg) * NSEC_PER_USEC;
	/* Never below the burst: what may leave at once may also queue. */
	return max_t(u64, pacer_ns_to_len(cfg->rate, limit_ns), burst);
}

/*
 * A CUBIC sender cuts its window by 30 % on a signal; to keep the rate
 * busy afterwards it must have had 0.43 of a round trip's worth queued
 * (1 / 0.7 - 1), Reno (a halving) a whole one.  So a flow may keep half
 * its RTT, plus the class's target, as standing queue before it is told,
 * and one signal costs it no rate.  At most a quarter of the limit,
 * though, which is also the pressure at which a sender in slow start is
 * told without waiting: it doubles its queue every round trip, and the
 * three quarters above absorb what it sends until the signal comes back
 * as a slower flow.  An automatic limit is four times the level, so only
 * a limit set by hand caps it.  A standing queue is one that stays at the
 * level for half a round trip (the target, if longer): a pile-up drains
 * within one.  A sender that is not ECN-capable is told by a loss, and
 * only once its flow's queue stands at the limit less the level (less an
 * eighth of the limit, if that is more; see &pacer_signal.loss_level);
 * in slow start it is told as early.
 */
void pacer_signal_config(struct pacer_signal *s,
			 const struct pacer_class_cfg *cfg, u32 limit, u32 mtu)
{
	s->rtt = (u64)cfg->rtt_us * NSEC_PER_USEC;
	s->level = pacer_cfg_level_ns(cfg);
	s->persist = max_t(u64, (u64)cfg->target_us * NSEC_PER_USEC,
			   s->rtt / 2);
	s->level_bytes = 0;
	s->loss_level = s->level;
	s->loss_level_bytes = 0;
	s->pressure = limit / 4;
	s->growth_span = 0;
	s->rate = cfg->rate;
	if (cfg->rate) {
		u64 limit_ns = pacer_len_to_ns(cfg->rate, limit);

		s->level = min(s->level, limit_ns / 4);
		s->level_bytes = pacer_ns_to_len(cfg->rate, s->level);
		/* The level is at most a quarter: this is at least 3/4. */
		s->loss_level = limit_ns - max(limit_ns / 8, s->level);
		s->loss_level_bytes = pacer_ns_to_len(cfg->rate,
						      s->loss_level);
		/* Room for a slow start told @persist after the pressure. */
		if (s->rtt + 2 * (limit_ns / 4 + s->persist) <= limit_ns)
			s->growth_span = s->persist;
	}
	s->mtu = mtu;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_signal_config);

static struct pacer_class_params *
pacer_class_params_new(const struct pacer_class_cfg *cfg, u32 mtu)
{
	struct pacer_class_params *p = kzalloc(sizeof(*p), PACER_GFP);

	if (!p)
		return NULL;
	p->cfg = *cfg;
	p->burst = pacer_cfg_burst(cfg);
	p->limit = pacer_cfg_limit(cfg, p->burst);
	p->claim = cfg->rate ? clamp_t(u64, pacer_ns_to_len(cfg->rate,
							     PACER_CLAIM_NS),
				       1, PACER_CLAIM_MAX) : 0;
	p->split_gso = pacer_cfg_split_gso(cfg);
	pacer_signal_config(&p->signal, cfg, p->limit, mtu);
	return p;
}

static u32 pacer_class_mtu(const struct pacer_class *cl)
{
	return READ_ONCE(cl->pd->dev->mtu) + ETH_HLEN;
}

/* Under RTNL, or of a class nobody else sees yet. */
static struct pacer_class_params *pacer_class_params(struct pacer_class *cl)
{
	return rcu_dereference_protected(cl->params, true);
}

/* The class on each CPU, or NULL while no packet has reached it. */
static struct pacer_class_cpu __percpu *
pacer_class_cpus(const struct pacer_class *cl)
{
	/* Pairs with the cmpxchg in pacer_class_cpus_alloc(): initialised. */
	return smp_load_acquire(&cl->cpu);
}

/**
 * pacer_class_burst() - the bucket size in use
 * @cl: the class
 *
 * Context: RCU read side or RTNL.
 * Return: bytes (0 for an unlimited class).
 */
u32 pacer_class_burst(struct pacer_class *cl)
{
	return rcu_dereference_rtnl(cl->params)->burst;
}

/**
 * pacer_class_limit() - the queue limit in use
 * @cl: the class
 *
 * Context: RCU read side or RTNL.
 * Return: bytes.
 */
u32 pacer_class_limit(struct pacer_class *cl)
{
	return rcu_dereference_rtnl(cl->params)->limit;
}

/*
 * Every change to a class's state on a CPU happens under that CPU's
 * shaper lock and inside the class's seqcount there, so that readers can
 * copy it without the lock.
 */
static void pacer_class_cpu_lock(struct pacer_class_cpu *cc)
	__acquires(&cc->sh->lock)
{
	spin_lock(&cc->sh->lock);
	write_seqcount_begin(&cc->seq);
}

static void pacer_class_cpu_unlock(struct pacer_class_cpu *cc)
	__releases(&cc->sh->lock)
{
	write_seqcount_end(&cc->seq);
	spin_unlock(&cc->sh->lock);
}

/* The buckets' configuration; the caller holds cl->lock or owns @cl. */
static void pacer_class_config_buckets(struct pacer_class *cl,
				       const struct pacer_class_params *p,
				       u32 mtu, u64 now)
{
	pacer_bucket_config(&cl->bucket, p->cfg.rate, p->burst, now);
	/* The ceil bucket holds one frame: ceil bounds back-to-back bursts. */
	pacer_bucket_config(&cl->peak, p->cfg.ceil, mtu, now);
}

/* Each CPU's view: the DRR quantum, and no tokens claimed at old terms. */
static void pacer_class_config_cpus(struct pacer_class *cl, u32 mtu)
{
	struct pacer_class_cpu __percpu *cpus = pacer_class_cpus(cl);
	int cpu;

	if (!cpus)
		return;
	for_each_possible_cpu(cpu) {
		struct pacer_class_cpu *cc = per_cpu_ptr(cpus, cpu);

		spin_lock_bh(&cc->sh->lock);
		write_seqcount_begin(&cc->seq);
		cc->queue.quantum = mtu;
		cc->credit = 0;
		cc->peak_credit = 0;
		write_seqcount_end(&cc->seq);
		spin_unlock_bh(&cc->sh->lock);
	}
}

static void pacer_class_cpu_init(struct pacer_class_cpu *cc,
				 struct pacer_class *cl, int cpu, u32 mtu)
{
	cc->cl = cl;
	cc->sh = per_cpu_ptr(cl->pd->shapers, cpu);
	INIT_LIST_HEAD(&cc->active_node);
	pacer_queue_init(&cc->queue, mtu);
	seqcount_spinlock_init(&cc->seq, &cc->sh->lock);
}

/*
 * The class's state on every CPU, allocated when its first packet
 * arrives: an idle class then costs no per-CPU memory (65,535 classes on
 * 64 CPUs would otherwise hold gigabytes).  It is charged to the memory
 * cgroup that created the class, not to whichever task the softirq
 * interrupted.  A quantum that misses an MTU change made meanwhile is
 * corrected by the next one, as a configuration change corrects the
 * signal's MTU.
 *
 * Context: BH disabled, RCU read side.
 * Return: the state, or NULL if the allocation failed.
 */
static struct pacer_class_cpu __percpu *
pacer_class_cpus_alloc(struct pacer_class *cl)
{
	struct pacer_class_cpu __percpu *cpus, *old;
	u32 mtu = pacer_class_mtu(cl);
	struct mem_cgroup *prev;
	int cpu;

	/*
	 * GFP_NOWAIT, not GFP_ATOMIC: the memory cgroup lets an allocation
	 * with __GFP_HIGH through past its limit (try_charge_memcg() forces
	 * the charge), and a tenant could then send a packet to each of its
	 * classes and hold their per-CPU state beyond its memory.max.
	 */
	prev = set_active_memcg(cl->memcg);
	cpus = alloc_percpu_gfp(struct pacer_class_cpu,
				GFP_NOWAIT | __GFP_ACCOUNT | __GFP_NOWARN);
	set_active_memcg(prev);
	if (!cpus)
		return NULL;
	for_each_possible_cpu(cpu)
		pacer_class_cpu_init(per_cpu_ptr(cpus, cpu), cl, cpu, mtu);
	/*
	 * A full barrier: a class deleted meanwhile either sees the state
	 * (and flushes it) or is seen dead by the packet (which then does
	 * not stay), see pacer_class_delete().
	 */
	old = cmpxchg(&cl->cpu, NULL, cpus);
	if (old) {
		free_percpu(cpus);
		return old;
	}
	return cpus;
}

/**
 * pacer_class_create() - allocate a class
 * @pd: the device
 * @id: its id
 * @cfg: its configuration, already validated
 *
 * Context: process context, may sleep; charged to the caller's memcg.
 * Return: the class (the caller puts it in the class table), or NULL on
 * allocation failure.
 */
struct pacer_class *pacer_class_create(struct pacer_dev *pd, u16 id,
				       const struct pacer_class_cfg *cfg)
{
	u32 mtu = READ_ONCE(pd->dev->mtu) + ETH_HLEN;
	struct pacer_class_params *p;
	struct pacer_class *cl;

	cl = kzalloc(sizeof(*cl), PACER_GFP);
	if (!cl)
		return NULL;
	p = pacer_class_params_new(cfg, mtu);
	if (!p) {
		kfree(cl);
		return NULL;
	}
	cl->pd = pd;
	cl->id = id;
	/* What the class allocates later is charged here, too. */
	cl->memcg = get_mem_cgroup_from_mm(current->mm);
	spin_lock_init(&cl->lock);
	pacer_flow_init(&cl->overflow);
	atomic64_set(&cl->backlog, 0);
	atomic64_set(&cl->backlog_peak, 0);
	pacer_class_config_buckets(cl, p, mtu, ktime_get_ns());
	RCU_INIT_POINTER(cl->params, p);
	return cl;
}

/**
 * pacer_class_apply() - change a class's configuration
 * @cl: the class
 * @cfg: the new configuration, already validated
 *
 * Queued packets stay queued in their order; the buckets keep their
 * tokens.  The caller kicks the shapers so that a faster rate takes
 * effect at once.
 *
 * Context: RTNL held, may sleep.
 * Return: 0 or -ENOMEM (then nothing changed).
 */
int pacer_class_apply(struct pacer_class *cl, const struct pacer_class_cfg *cfg)
{
	u32 mtu = pacer_class_mtu(cl);
	struct pacer_class_params *p, *old = pacer_class_params(cl);

	p = pacer_class_params_new(cfg, mtu);
	if (!p)
		return -ENOMEM;
	spin_lock_bh(&cl->lock);
	pacer_class_config_buckets(cl, p, mtu, ktime_get_ns());
	rcu_assign_pointer(cl->params, p);
	spin_unlock_bh(&cl->lock);
	pacer_class_config_cpus(cl, mtu);
	kfree_rcu(old, rcu);
	return 0;
}

/**
 * pacer_class_set_mtu() - follow a change of the device MTU
 * @cl: the class
 * @mtu: the new frame size (MTU and Ethernet header)
 *
 * The DRR quantum, the ceil bucket and the size below which a flow is
 * never marked are one frame.  The signal's MTU is read with the parameters,
 * so it follows at the next configuration change; until then it differs
 * by the change, which only moves where a sparse flow ends.
 *
 * Context: RTNL held.
 */
void pacer_class_set_mtu(struct pacer_class *cl, u32 mtu)
{
	const struct pacer_class_params *p = pacer_class_params(cl);

	spin_lock_bh(&cl->lock);
	pacer_bucket_config(&cl->peak, p->cfg.ceil, mtu, ktime_get_ns());
	spin_unlock_bh(&cl->lock);
	pacer_class_config_cpus(cl, mtu);
}

static void pacer_class_free_rcu(struct rcu_head *head)
{
	struct pacer_class *cl = container_of(head, struct pacer_class, rcu);

	if (!cl->freeing) {
		cl->freeing = true;
		call_rcu(&cl->rcu, pacer_class_free_rcu);
		return;
	}
	kfree(rcu_dereference_protected(cl->params, true));
	free_percpu(cl->cpu);
	mem_cgroup_put(cl->memcg);
	kfree(cl);
}

/**
 * pacer_class_free() - free a class after two RCU grace periods
 * @cl: a class no packet can reach any more (flushed, out of the table)
 *
 * After the first, no reader is left that found the class through the
 * class table or a rule.  But a flow whose last packets were being
 * re-injected when the class was flushed still named the class's queue
 * as its owner until they were out, which is inside such a reader, and a
 * reader that began after the class was deleted may have read it there
 * (pacer_class_lock_flow() looks at the owner's class); the second waits
 * for those.  pacer_device_exit() waits for both with two rcu_barrier().
 */
void pacer_class_free(struct pacer_class *cl)
{
	call_rcu(&cl->rcu, pacer_class_free_rcu);
}

/*
 * Caller holds the shaper lock of @cc; @skb is freed after unlocking, with
 * pacer_class_free_dropped().
 */
static void pacer_class_count_drop(struct pacer_class_cpu *cc,
				   struct sk_buff *skb,
				   enum pacer_drop_reason reason)
{
	pacer_class_stats_drop(&cc->stats, reason, skb->len);
	pacer_stats_drop(this_cpu_ptr(cc->cl->pd->stats), reason, skb->len);
	pacer_skb_cb(skb)->drop = reason;
}

/**
 * pacer_skb_drop_reason() - the kernel's drop reason closest to pacer's,
 *	so that dropwatch and the skb:kfree_skb tracepoint tell them apart
 * @reason: pacer's
 *
 * Return: the kernel's.
 */
enum skb_drop_reason pacer_skb_drop_reason(enum pacer_drop_reason reason)
{
	switch (reason) {
	case PACER_DROP_QUEUE_LIMIT:
	case PACER_DROP_CONGESTION:
		/* What sch_codel's and sch_fq_codel's drops are, too. */
		return SKB_DROP_REASON_QDISC_DROP;
	case PACER_DROP_MEMORY:
		return SKB_DROP_REASON_NOMEM;
	default:
		/* The device it came from, or its class, or pacer0, is gone. */
		return SKB_DROP_REASON_DEV_READY;
	}
}

/**
 * pacer_drop_classless() - drop a packet no class state counts: the
 *	device's counters only (received, and dropped for @reason)
 * @pd: the device
 * @skb: the packet; freed
 * @reason: why
 *
 * Context: BH disabled.
 */
void pacer_drop_classless(struct pacer_dev *pd, struct sk_buff *skb,
			  enum pacer_drop_reason reason)
{
	struct pacer_pcpu_stats *stats = this_cpu_ptr(pd->stats);

	pacer_stats_rx(stats, skb->len);
	pacer_stats_drop(stats, reason, skb->len);
	kfree_skb_reason(skb, pacer_skb_drop_reason(reason));
}

/* Free a list of packets pacer_class_count_drop() counted. */
static void pacer_class_free_dropped(struct sk_buff *list)
{
	struct sk_buff *next;

	for (; list; list = next) {
		next = list->next;
		skb_mark_not_on_list(list);
		kfree_skb_reason(list,
				 pacer_skb_drop_reason(pacer_skb_cb(list)->drop));
	}
}

/* A packet left @cc's queue: it holds no class backlog or device memory. */
static void pacer_class_unqueue(struct pacer_class_cpu *cc, struct sk_buff *skb)
{
	/*
	 * What this CPU did to the buckets while the packet was queued is
	 * seen by a CPU that then finds the class empty (pairs with the
	 * acquire in pacer_class_dequeue()): see pacer_class_idle().
	 */
	smp_mb__before_atomic();
	atomic64_sub(skb->len, &cc->cl->backlog);
	percpu_counter_add_batch(&cc->cl->pd->mem, -(s64)skb->truesize,
				 PACER_MEM_BATCH);
}

/**
 * pacer_charge_segments() - pacer_charge_len() of a GSO packet
 * @skb: the packet, data at its link-layer header; its gso_size is not 0
 *	(pacer_charge_len() asks), since the segments are counted by it
 * @cfg: its class's configuration (overhead, mpu)
 *
 * Its length at the device, plus the headers of every segment it will
 * become, each segment adjusted as pacer_charge_adjust() does.  The
 * segments are never more than the kernel makes of one packet
 * (GSO_MAX_SEGS), and a header longer than any the stack builds is not
 * believed: what the packet is on the wire bounds its charge, whatever
 * its metadata says.
 *
 * Return: bytes, at least 1.
 */
u32 pacer_charge_segments(const struct sk_buff *skb,
			  const struct pacer_class_cfg *cfg)
{
	const struct skb_shared_info *shinfo = skb_shinfo(skb);
	u32 segs = 1;
	u64 len = skb->len;

	if (skb_transport_header_was_set(skb) &&
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
	return pacer_charge_adjust(len, segs, cfg);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_charge_segments);

/* The clock, read at most once per packet: *@now is 0 until then. */
static u64 pacer_now(u64 *now)
{
	if (!*now)
		*now = ktime_get_ns();
	return *now;
}

/*
 * Whether a packet charged @charge bytes may leave @cc now; if not, *@due
 * is when it may.  The CPU spends the tokens it claimed; when they run
 * short it claims more from the class's buckets, a batch at a time.  A
 * packet larger than the bucket needs only a full bucket, and leaves the
 * bucket in debt.  *@now is the time, or 0 if the caller has not read
 * the clock yet: it is read only if the buckets must be asked, and kept
 * for the caller.  @waited: the packet is released from the queue (see
 * pacer_bucket_ready()); the ceiling makes up no lateness, it bounds
 * bursts.  Caller holds @cc's shaper lock.
 */
static bool pacer_class_cpu_ready(struct pacer_class_cpu *cc,
				  const struct pacer_class_params *p,
				  u32 charge, bool waited, u64 *now, u64 *due)
{
	struct pacer_class *cl = cc->cl;
	bool ceil = p->cfg.ceil;
	u32 need, peak_need = 0;
	u64 t;

	if (!p->cfg.rate)
		return true;
	need = charge > cc->credit ? charge - cc->credit : 0;
	if (ceil)
		peak_need = charge > cc->peak_credit ?
			    charge - cc->peak_credit : 0;
	if (!need && !peak_need)
		return true;

	pacer_now(now);
	spin_lock(&cl->lock);
	t = need ? pacer_bucket_ready(&cl->bucket, need, *now, waited) : *now;
	if (peak_need)
		t = max(t, pacer_bucket_ready(&cl->peak, peak_need, *now,
					      false));
	if (t > *now) {
		spin_unlock(&cl->lock);
		*due = t;
		return false;
	}
	if (need) {
		u32 grant = max(need, min(p->claim,
					  pacer_bucket_avail(&cl->bucket)));

		pacer_bucket_charge(&cl->bucket, grant);
		cc->credit += grant;
	}
	if (peak_need) {
		/* A frame's worth deep: claimed packet by packet. */
		pacer_bucket_charge(&cl->peak, peak_need);
		cc->peak_credit += peak_need;
	}
	spin_unlock(&cl->lock);
	return true;
}

static void pacer_class_cpu_spend(struct pacer_class_cpu *cc,
				  const struct pacer_class_params *p,
				  u32 charge)
{
	if (!p->cfg.rate)
		return;
	cc->credit -= min(charge, cc->credit);
	if (p->cfg.ceil)
		cc->peak_credit -= min(charge, cc->peak_credit);
}

/*
 * Lock the shaper of the queue that holds, or is to hold, the packets of
 * flow *@flowp of @cl, and return that queue's class on its CPU.  A flow
 * another queue holds is joined there, on whatever CPU; a free flow is
 * claimed for this CPU.  A flow another class holds sends the packet to
 * @cl's overflow flow, and so do later packets of the same hash while
 * the overflow flow has some of theirs, so that none overtakes them.
 */
static struct pacer_class_cpu *
pacer_class_lock_flow(struct pacer_class *cl,
		      struct pacer_class_cpu __percpu *cpus,
		      struct pacer_flow **flowp, u32 hash)
	__acquires(&cc->sh->lock)
{
	struct pacer_class_cpu *mine = this_cpu_ptr(cpus), *cc;
	struct pacer_flow *flow = *flowp;
	u64 bit = BIT_ULL(hash % 64);

	for (;;) {
		/*
		 * Pairs with the release in pacer_flow_let_go(): a flow seen
		 * free is seen empty and off its last owner's lists.
		 */
		struct pacer_queue *owner = smp_load_acquire(&flow->owner);

		if (owner) {
			cc = container_of(owner, struct pacer_class_cpu, queue);
			if (cc->cl != cl) {
				flow = &cl->overflow;
				continue;
			}
			pacer_class_cpu_lock(cc);
			if (READ_ONCE(flow->owner) == owner)
				break;
			pacer_class_cpu_unlock(cc);
			continue;
		}
		if (flow != &cl->overflow && READ_ONCE(cl->overflow.owner) &&
		    (READ_ONCE(cl->overflow.hashes) & bit)) {
			flow = &cl->overflow;
			continue;
		}
		cc = mine;
		pacer_class_cpu_lock(cc);
		if (!cmpxchg(&flow->owner, NULL, &cc->queue))
			break;
		pacer_class_cpu_unlock(cc);
	}
	if (flow == &cl->overflow)
		WRITE_ONCE(flow->hashes, flow->hashes | bit);
	*flowp = flow;
	return cc;
}

static void pacer_class_peak(struct pacer_class *cl, s64 backlog)
{
	s64 peak = atomic64_read(&cl->backlog_peak);

	while (backlog > peak) {
		s64 old = atomic64_cmpxchg(&cl->backlog_peak, peak, backlog);

		if (old == peak)
			break;
		peak = old;
	}
}

/*
 * Queue one packet (or one segment of a split GSO packet) in @flow of
 * @cc; @victims collects what was dropped, freed after unlocking.  *@now
 * as for pacer_class_cpu_ready(): the segments share one reading.
 */
static void pacer_class_enqueue_one(struct pacer_class_cpu *cc,
				    struct pacer_flow *flow,
				    const struct pacer_class_params *p,
				    struct sk_buff *skb, u64 *now,
				    struct sk_buff **victims)
{
	struct pacer_class *cl = cc->cl;
	struct pacer_dev *pd = cl->pd;
	struct pacer_skb_cb *cb = pacer_skb_cb(skb);
	struct sk_buff *victim;
	s64 backlog;
	u64 due;

	pacer_stats_rx(this_cpu_ptr(pd->stats), skb->len);
	pacer_class_stats_rx(&cc->stats, skb->len);

	if (unlikely(READ_ONCE(cl->dead))) {
		pacer_class_count_drop(cc, skb, PACER_DROP_FLUSH);
		goto drop;
	}
	if (unlikely(percpu_counter_read(&pd->mem) + skb->truesize >
		     READ_ONCE(pd->max_memory))) {
		pacer_class_count_drop(cc, skb, PACER_DROP_MEMORY);
		goto drop;
	}

	/*
	 * Reserve the packet's room first, so that CPUs queueing into the
	 * class at once cannot each see room for one and together pass the
	 * limit.  Make room at the expense of whichever flow built the
	 * backlog here; if the backlog is on other CPUs, the arriving packet
	 * goes.  A class holding nothing else takes the packet whatever its
	 * limit, as a bucket lets a packet larger than itself go: a limit
	 * below a packet's size must not drop every such packet that waits.
	 */
	backlog = atomic64_add_return(skb->len, &cl->backlog);
	while (backlog > p->limit && backlog > skb->len) {
		victim = pacer_queue_take_fattest(&cc->queue);
		if (!victim) {
			atomic64_sub(skb->len, &cl->backlog);
			pacer_class_count_drop(cc, skb, PACER_DROP_QUEUE_LIMIT);
			goto drop;
		}
		pacer_class_unqueue(cc, victim);
		pacer_class_count_drop(cc, victim, PACER_DROP_QUEUE_LIMIT);
		victim->next = *victims;
		*victims = victim;
		backlog = atomic64_read(&cl->backlog);
	}

	cb->ecn_marked = false;
	cb->charge = pacer_charge_len(skb, &p->cfg);
	cb->delayed = cc->queue.backlog_packets ||
		      !pacer_class_cpu_ready(cc, p, cb->charge, false, now,
					     &due);
	cb->enqueue_ns = pacer_now(now);
	cb->class_backlog = min_t(s64, backlog, U32_MAX);
	pacer_queue_add(&cc->queue, flow, skb, cl->id);
	pacer_class_peak(cl, backlog);
	percpu_counter_add_batch(&pd->mem, skb->truesize, PACER_MEM_BATCH);
	return;

drop:
	skb->next = *victims;
	*victims = skb;
}

/* @flow's slot in the device's flow table, for the tracepoint. */
static int pacer_flow_slot(const struct pacer_class *cl,
			   const struct pacer_flow *flow)
{
	return flow == &cl->overflow ? -1 : flow - cl->pd->flows->flow;
}

/*
 * Whether @skb may leave at once instead of being queued: it was taken at
 * ingress, nothing of its flow is queued or on its way out anywhere (@cc,
 * this CPU's, just claimed it), nothing of the class waits on this CPU,
 * and the buckets have its tokens.  Then it is what would have left first
 * from the queue a moment later; passing it saves a NAPI round and a
 * second trip through the shaper's lock, which is most of what a class
 * that is not the bottleneck costs a packet.
 *
 * A packet taken at egress always goes through the poll, as ifb sends
 * from its tasklet: mirred may have taken it in a filter of the original
 * device's root qdisc, with that qdisc's lock held, and sending it back
 * into the device from here would enter the same qdisc (the kernel drops
 * that as a loop; one without the check deadlocks).
 */
static bool pacer_class_may_pass(struct pacer_class_cpu *cc,
				 struct pacer_flow *flow,
				 const struct pacer_class_params *p,
				 struct sk_buff *skb, u64 *now)
{
	struct pacer_skb_cb *cb = pacer_skb_cb(skb);
	u64 due;

	if (!skb->from_ingress || cc->queue.backlog_packets ||
	    flow == &cc->cl->overflow || flow->head ||
	    !list_empty(&flow->node) || !list_empty(&flow->send_node) ||
	    READ_ONCE(cc->cl->dead))
		return false;
	/*
	 * Nested into the receive path only from inside it (a NIC's or a
	 * backlog's poll), never from a sender that may hold a socket lock
	 * the receive path would take.
	 */
	if (pacer_reinject_nests(skb) && !in_serving_softirq())
		return false;
	cb->charge = pacer_charge_len(skb, &p->cfg);
	return pacer_class_cpu_ready(cc, p, cb->charge, false, now, &due);
}

/*
 * Send @skb, taken at ingress, on at once (pacer_class_may_pass()), from
 * the device's xmit: a nested call into the receive path (from 6.12 into
 * the CPU's backlog), as tc mirred makes one, and bounded like it by the
 * core's transmit recursion limit, since nothing reaches pacer but
 * through dev_queue_xmit().  The flow stays @cc's meanwhile, so that a
 * packet of it arriving on another CPU joins it here and leaves after
 * this one.
 *
 * Return: true if such a packet made @cc's queue busy: this CPU polls.
 */
static bool pacer_class_pass(struct pacer_class_cpu *cc,
			     struct pacer_flow *flow,
			     const struct pacer_class_params *p,
			     struct sk_buff *skb)
	__releases(&cc->sh->lock)
{
	struct pacer_dev *pd = cc->cl->pd;
	struct pacer_pcpu_stats *stats = this_cpu_ptr(pd->stats);
	LIST_HEAD(passing);
	bool busy;

	pacer_stats_rx(stats, skb->len);
	pacer_class_stats_rx(&cc->stats, skb->len);
	if (unlikely(!pacer_reinject_prepare(pd->dev, skb))) {
		pacer_class_count_drop(cc, skb, PACER_DROP_REINJECT);
		pacer_flow_unclaim(flow);
		pacer_class_cpu_unlock(cc);
		pacer_class_free_dropped(skb);
		return false;
	}
	pacer_class_cpu_spend(cc, p, pacer_skb_cb(skb)->charge);
	pacer_class_stats_tx(&cc->stats, skb->len, false, 0);
	trace_pacer_release(pd->dev, cc->cl->id, pacer_flow_slot(cc->cl, flow),
			    skb, 0, false, false);
	pacer_flow_sending(flow, &passing);
	flow->passing = true;
	pacer_class_cpu_unlock(cc);

	pacer_stats_tx(stats, skb->len, false, false);
	pacer_reinject(skb);

	spin_lock(&cc->sh->lock);
	flow->passing = false;
	pacer_flow_sent(flow);
	busy = !list_empty(&cc->active_node);
	spin_unlock(&cc->sh->lock);
	return busy;
}

/**
 * pacer_class_enqueue() - queue a packet in its class
 * @cl: the class, found under RCU
 * @skb: the packet; consumed
 * @hash: its flow, from pacer_flow_hash(); its segments share it
 * @here: the shaper of this CPU
 *
 * A class below 500 Mbit/s (or with "gso split") splits GSO packets into
 * their segments, as cake does below 1 Gbit/s: the segments are paced one
 * by one, DRR serves flows at MTU granularity, and a limit drop costs a
 * TCP sender one segment instead of up to 45.  Faster classes keep them
 * whole, charged as their segments: there a 64 KiB packet lasts at most
 * a millisecond, a CPU's claim of tokens, and splitting costs more than
 * it smooths (the receiver loses GRO's coalescing, and each segment goes
 * up its stack alone: one TCP flow through a class at 736 Mbit/s under
 * TCG got 63-87 % of the rate split, 98 % whole, as htb did).
 * The segments go into their flow in one go, under one lock.  A packet
 * that would leave at once is not queued but sent on (see
 * pacer_class_may_pass()).
 *
 * Context: BH disabled (the device's xmit), RCU read side.
 * Return: true if @here has a packet it should look at now.
 */
bool pacer_class_enqueue(struct pacer_class *cl, struct sk_buff *skb,
			 u32 hash, struct pacer_shaper *here)
{
	const struct pacer_class_params *p = rcu_dereference_bh(cl->params);
	struct pacer_class_cpu __percpu *cpus = pacer_class_cpus(cl);
	struct pacer_flows *flows = cl->pd->flows;
	struct pacer_flow *flow = &flows->flow[hash & flows->mask];
	struct sk_buff *victims = NULL, *segs, *next;
	struct pacer_class_cpu *cc;
	u64 now = 0;
	bool kick;

	if (unlikely(!cpus)) {
		cpus = pacer_class_cpus_alloc(cl);
		if (!cpus) {
			pacer_drop_classless(cl->pd, skb, PACER_DROP_MEMORY);
			return false;
		}
	}

	cc = pacer_class_lock_flow(cl, cpus, &flow, hash);
	/*
	 * Split with the flow locked, as cake does under its qdisc lock: the
	 * flow's order is the order its packets take the lock, and a packet
	 * of the flow arriving on another CPU while this one is split must
	 * not get in first.
	 */
	if (skb_is_gso(skb) && p->split_gso) {
		segs = skb_gso_segment(skb, netif_skb_features(skb) &
					    ~NETIF_F_GSO_MASK);
		/* Not splittable: paced whole, charged as its segments. */
		if (!IS_ERR_OR_NULL(segs)) {
			consume_skb(skb);
			skb = segs;
		}
	}
	if (!skb->next && cc->sh == here &&
	    pacer_class_may_pass(cc, flow, p, skb, &now))
		return pacer_class_pass(cc, flow, p, skb);
	skb_list_walk_safe(skb, skb, next) {
		skb_mark_not_on_list(skb);
		if (cc->sh != here)
			pacer_stats_joined(this_cpu_ptr(cl->pd->stats));
		pacer_class_enqueue_one(cc, flow, p, skb, &now, &victims);
	}
	/* Everything dropped before it got in: the flow is anyone's again. */
	pacer_flow_unclaim(flow);
	kick = cc->sh == here;
	if (cc->queue.backlog_packets && list_empty(&cc->active_node)) {
		list_add_tail(&cc->active_node, &cc->sh->active);
		/*
		 * A flow joined on another CPU whose queue was idle: that
		 * CPU's poll is re-injecting the flow's last packets, and
		 * polls again when done (pacer_flows_sent()).
		 */
		if (!kick)
			cc->sh->joined = true;
	}
	/*
	 * Here, poll on every arrival, as a qdisc is run on every enqueue:
	 * packets due since the timer was armed leave now.  A flow joined on
	 * another CPU is in a queue that CPU's shaper is busy with already:
	 * a flow has an owner only while its queue is on the active list or
	 * its last packets are being re-injected there.
	 */
	pacer_class_cpu_unlock(cc);

	pacer_class_free_dropped(victims);
	return kick;
}

/*
 * Tell the sender of @skb's flow to slow down, if it is due: a CE mark, or
 * for a sender that is not ECN-capable the loss of this packet, at the
 * head of its flow so that the loss shows a round trip sooner than a tail
 * drop would.  One signal either way, then none for the episode.  A class
 * without a rate queues only while the CPU falls behind: nobody is told.
 *
 * Return: true if @skb is to be dropped.
 */
static bool pacer_class_signal(struct pacer_class_cpu *cc,
			       const struct pacer_class_params *params,
			       struct pacer_flow *flow, struct sk_buff *skb,
			       u64 sojourn, u64 now)
{
	const struct pacer_signal *p = &params->signal;
	enum pacer_ecn_result ecn = PACER_ECN_UNPARSED;

	if (!params->cfg.rate)
		return false;
	/*
	 * Below half the level no signal is due, whoever the sender: the
	 * header is read only above it, and once, for the mark too.
	 */
	if (sojourn >= p->level / 2)
		ecn = pacer_ecn_peek(skb);
	if (!pacer_flow_should_signal(flow, p, sojourn,
				      atomic64_read(&cc->cl->backlog),
				      pacer_skb_cb(skb)->class_backlog, now,
				      ecn == PACER_ECN_NOT_ECT))
		return false;
	if (ecn == PACER_ECN_MARKED)
		ecn = pacer_ecn_mark(skb);
	switch (ecn) {
	case PACER_ECN_MARKED:
		pacer_skb_cb(skb)->ecn_marked = true;
		cc->stats.ecn_marked++;
		pacer_flow_signalled(flow, p, sojourn, now);
		return false;
	case PACER_ECN_NOT_ECT:
		pacer_flow_signalled(flow, p, sojourn, now);
		return true;
	case PACER_ECN_UNPARSED:
		/* Neither marked nor, for what may be ECN-capable, dropped. */
		cc->stats.ecn_unparsed++;
		pacer_stats_ecn_unparsed(this_cpu_ptr(cc->cl->pd->stats));
		break;
	}
	return false;
}

/*
 * Nothing of @cl is queued on any CPU: its buckets owe nobody lateness.
 * A class whose CPUs never ran short of tokens has none to forget: its
 * CPUs, which empty their queues at nearly every poll when the class is
 * not the bottleneck, then leave the class's shared cache line alone.
 */
static void pacer_class_idle(struct pacer_class *cl)
{
	if (!pacer_bucket_owes(&cl->bucket))
		return;
	spin_lock(&cl->lock);
	pacer_bucket_idle(&cl->bucket);
	spin_unlock(&cl->lock);
}

/**
 * pacer_class_dequeue() - take the packets the buckets let go now
 * @cc: the class on the caller's CPU, on its shaper's active list
 * @now: current time, ktime ns
 * @budget: at most this many packets
 * @batch: packets to re-inject are added here, ready (see
 *	pacer_reinject_prepare())
 * @next: lowered to when the class's next packet is due, if one waits for
 *	tokens
 * @idle: set if the queue is left empty: it then owns no flow any more,
 *	and the caller takes it off the active list
 *
 * Context: the shaper's NAPI poll, its lock held, RCU read side.
 * Return: packets taken from the queue, re-injected or dropped.
 */
int pacer_class_dequeue(struct pacer_class_cpu *cc, u64 now, int budget,
			struct sk_buff_head *batch, u64 *next, bool *idle)
{
	const struct pacer_class_params *p = rcu_dereference(cc->cl->params);
	u64 horizon = now + PACER_TIMER_SLACK_NS;
	struct pacer_dev *pd = cc->cl->pd;
	struct sk_buff *gone = NULL;
	struct pacer_flow *flow;
	struct sk_buff *skb;
	int done = 0;

	write_seqcount_begin(&cc->seq);
	while (done < budget && (skb = pacer_queue_peek(&cc->queue, &flow))) {
		struct pacer_skb_cb *cb = pacer_skb_cb(skb);
		enum pacer_drop_reason drop;
		u64 due, sojourn;

		/*
		 * The packet before it is leaving from the xmit on the CPU
		 * this poll belongs to, not the one it runs on: wait for it,
		 * whose sender polls again when it is out.
		 */
		if (unlikely(flow->passing))
			break;
		if (!pacer_class_cpu_ready(cc, p, cb->charge, true, &horizon,
					   &due)) {
			*next = min(*next, due);
			break;
		}
		pacer_queue_take(&cc->queue, flow);
		pacer_class_unqueue(cc, skb);
		sojourn = now > cb->enqueue_ns ? now - cb->enqueue_ns : 0;
		/*
		 * A drop costs the poll as much as a packet that leaves, and
		 * no tokens: the next packet may have them.
		 */
		done++;
		if (unlikely(!pacer_reinject_prepare(pd->dev, skb)))
			drop = PACER_DROP_REINJECT;
		else if (pacer_class_signal(cc, p, flow, skb, sojourn, now))
			drop = PACER_DROP_CONGESTION;
		else
			drop = PACER_DROP_UNSPEC;
		if (drop) {
			pacer_class_count_drop(cc, skb, drop);
			skb->next = gone;
			gone = skb;
			continue;
		}
		pacer_class_cpu_spend(cc, p, cb->charge);
		pacer_class_stats_tx(&cc->stats, skb->len, cb->delayed, sojourn);
		trace_pacer_release(pd->dev, cc->cl->id,
				    pacer_flow_slot(cc->cl, flow), skb, sojourn,
				    cb->delayed, cb->ecn_marked);
		__skb_queue_tail(batch, skb);
		pacer_flow_sending(flow, &cc->sh->sending);
	}
	*idle = !cc->queue.backlog_packets;
	if (*idle)
		pacer_queue_release(&cc->queue);
	write_seqcount_end(&cc->seq);
	/* An unlimited class owes no lateness: no lock for it per poll. */
	if (*idle && p->cfg.rate && !atomic64_read_acquire(&cc->cl->backlog))
		pacer_class_idle(cc->cl);

	pacer_class_free_dropped(gone);
	return done;
}

/**
 * pacer_class_flush() - drop every queued packet, counted as flush
 * @cl: the class
 *
 * Its queue on every CPU is emptied and lets go of its flows.
 *
 * Context: process context (class deletion, device going down).
 */
void pacer_class_flush(struct pacer_class *cl)
{
	struct pacer_class_cpu __percpu *cpus = pacer_class_cpus(cl);
	int cpu;

	if (!cpus)
		return;
	for_each_possible_cpu(cpu) {
		struct pacer_class_cpu *cc = per_cpu_ptr(cpus, cpu);
		struct sk_buff *flushed, *skb;

		local_bh_disable();
		pacer_class_cpu_lock(cc);
		flushed = pacer_queue_take_all(&cc->queue);
		for (skb = flushed; skb; skb = skb->next) {
			pacer_class_unqueue(cc, skb);
			pacer_class_count_drop(cc, skb, PACER_DROP_FLUSH);
		}
		pacer_queue_release(&cc->queue);
		list_del_init(&cc->active_node);
		pacer_class_cpu_unlock(cc);
		local_bh_enable();
		pacer_class_free_dropped(flushed);
	}
	local_bh_disable();
	pacer_class_idle(cl);
	local_bh_enable();
}

/**
 * pacer_class_delete() - make a class unreachable and drop its backlog
 * @cl: the class, already removed from the class table
 *
 * Context: process context, RTNL held.  Frees the class after an RCU
 * grace period.
 */
void pacer_class_delete(struct pacer_class *cl)
{
	/* Seen by every enqueue that takes a shaper lock after this. */
	WRITE_ONCE(cl->dead, true);
	/*
	 * Pairs with the cmpxchg in pacer_class_cpus_alloc(): either the
	 * flush sees the state a first packet allocates, or that packet sees
	 * the class dead.
	 */
	smp_mb();
	pacer_class_flush(cl);
	pacer_class_free(cl);
}

static void pacer_class_cpu_copy(const struct pacer_class_cpu *cc,
				 struct pacer_class_stats *st, u64 *packets,
				 u64 *bytes)
{
	*st = cc->stats;
	*packets = cc->queue.backlog_packets;
	*bytes = cc->queue.backlog_bytes;
}

/*
 * One CPU's counters of a class: copied between two writes, retried, and
 * only after losing that race a few times under the lock.
 */
static void pacer_class_cpu_read(struct pacer_class_cpu *cc,
				 struct pacer_class_stats *st, u64 *packets,
				 u64 *bytes)
{
	unsigned int seq;
	int tries;

	for (tries = 0; tries < PACER_READ_TRIES; tries++) {
		seq = read_seqcount_begin(&cc->seq);
		pacer_class_cpu_copy(cc, st, packets, bytes);
		if (!read_seqcount_retry(&cc->seq, seq))
			return;
	}
	spin_lock_bh(&cc->sh->lock);
	pacer_class_cpu_copy(cc, st, packets, bytes);
	spin_unlock_bh(&cc->sh->lock);
}

/**
 * pacer_class_read() - a copy of a class's state
 * @cl: the class
 * @cfg: filled with the configuration
 * @snap: its @sum is filled with the counters, summed over the CPUs (its
 *	@cpu is scratch)
 * @backlog_packets: set to packets queued
 * @backlog_bytes: set to bytes queued
 *
 * Each CPU's part is a consistent copy, and a packet is counted on one
 * CPU from its arrival to its departure, so rx = tx + dropped + backlog
 * holds for the sum at any time.  Readers are anyone (class show is
 * unprivileged): they never hold up the data path.
 *
 * Context: RCU read side or RTNL.
 */
void pacer_class_read(struct pacer_class *cl, struct pacer_class_cfg *cfg,
		      struct pacer_class_snapshot *snap, u64 *backlog_packets,
		      u64 *backlog_bytes)
{
	struct pacer_class_cpu __percpu *cpus = pacer_class_cpus(cl);
	struct pacer_class_stats *st = &snap->sum;
	int cpu;

	*cfg = rcu_dereference_rtnl(cl->params)->cfg;
	memset(st, 0, sizeof(*st));
	*backlog_packets = 0;
	*backlog_bytes = 0;
	for_each_possible_cpu(cpu) {
		u64 packets, bytes;

		if (!cpus)
			break;
		pacer_class_cpu_read(per_cpu_ptr(cpus, cpu), &snap->cpu,
				     &packets, &bytes);
		pacer_class_stats_add(st, &snap->cpu);
		*backlog_packets += packets;
		*backlog_bytes += bytes;
	}
	st->backlog_peak_bytes = atomic64_read(&cl->backlog_peak);
}

/**
 * pacer_class_reset_stats() - zero a class's counters
 * @cl: the class
 *
 * Packets still queued count as arrived after the reset, so that
 * rx = tx + dropped + backlog keeps holding.
 *
 * Context: process context.
 */
void pacer_class_reset_stats(struct pacer_class *cl)
{
	struct pacer_class_cpu __percpu *cpus = pacer_class_cpus(cl);
	int cpu;

	for_each_possible_cpu(cpu) {
		struct pacer_class_cpu *cc;

		if (!cpus)
			break;
		cc = per_cpu_ptr(cpus, cpu);

		spin_lock_bh(&cc->sh->lock);
		write_seqcount_begin(&cc->seq);
		memset(&cc->stats, 0, sizeof(cc->stats));
		cc->stats.rx_packets = cc->queue.backlog_packets;
		cc->stats.rx_bytes = cc->queue.backlog_bytes;
		write_seqcount_end(&cc->seq);
		spin_unlock_bh(&cc->sh->lock);
	}
	atomic64_set(&cl->backlog_peak, atomic64_read(&cl->backlog));
}
