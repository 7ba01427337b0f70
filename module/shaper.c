// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: a device's shapers, one per CPU.
 *
 * A packet is queued on the CPU it arrived on, and that CPU's shaper
 * releases it: a NAPI context takes from every class with packets there
 * what its token buckets let go, and re-injects it where it came from; a
 * soft hrtimer pinned to the CPU wakes it when the earliest waiting packet
 * is due.  So the CPUs a NIC spreads its flows over keep them, as with one
 * shaper per core in Carousel, and no CPU waits for another's lock or
 * writes another's cache lines to release its own packets.
 */
#include <linux/cpu.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/smp.h>

#include "pacer.h"
#include "reinject.h"

static int pacer_shaper_poll(struct napi_struct *napi, int budget)
{
	struct pacer_shaper *sh = container_of(napi, struct pacer_shaper, napi);
	struct pacer_pcpu_stats *stats = this_cpu_ptr(sh->pd->stats);
	u64 now = ktime_get_ns(), next = U64_MAX;
	struct pacer_class_cpu *cc, *tmp;
	struct sk_buff_head batch;
	struct sk_buff *skb;
	bool joined = false;
	int done = 0;

	__skb_queue_head_init(&batch);
	rcu_read_lock();
	spin_lock(&sh->lock);
	list_for_each_entry_safe(cc, tmp, &sh->active, active_node) {
		bool idle;

		done += pacer_class_dequeue(cc, now, budget - done, &batch,
					    &next, &idle);
		if (idle)
			list_del_init(&cc->active_node);
		if (done >= budget) {
			/* Start with the next class next time round. */
			if (!idle)
				list_move_tail(&cc->active_node, &sh->active);
			break;
		}
	}
	spin_unlock(&sh->lock);

	/*
	 * Re-inject outside the lock: the receive or transmit path we call
	 * into may come back to the device's xmit on this CPU.
	 */
	while ((skb = __skb_dequeue(&batch))) {
		const struct pacer_skb_cb *cb = pacer_skb_cb(skb);

		pacer_stats_tx(stats, skb->len, cb->delayed, cb->ecn_marked);
		pacer_reinject(skb);
	}
	/*
	 * Only this poll adds to the list, so it may look without the lock.
	 * The flows re-injected from are anyone's again once empty.
	 */
	if (!list_empty(&sh->sending)) {
		spin_lock(&sh->lock);
		pacer_flows_sent(&sh->sending);
		joined = sh->joined;
		sh->joined = false;
		spin_unlock(&sh->lock);
	}
	rcu_read_unlock();

	if (done >= budget || joined)
		return budget;
	/*
	 * The timer is armed before the context is let go: once
	 * napi_complete_done() clears NAPI_STATE_SCHED, napi_disable() on
	 * another CPU returns, and pacer_shapers_stop() cancels the timer
	 * right after it.  Armed after that, it would outlive the stopped
	 * device, and the per-CPU memory it lives in once the device is
	 * freed.  Should the context be polled again instead (scheduled
	 * meanwhile), that poll arms it anew.
	 */
	if (next != U64_MAX)
		hrtimer_start_range_ns(&sh->timer, ns_to_ktime(next),
				       PACER_TIMER_SLACK_NS,
				       HRTIMER_MODE_ABS_PINNED_SOFT);
	napi_complete_done(napi, done);
	return done;
}

static enum hrtimer_restart pacer_shaper_timer_fn(struct hrtimer *timer)
{
	struct pacer_shaper *sh = container_of(timer, struct pacer_shaper,
					       timer);

	napi_schedule(&sh->napi);
	return HRTIMER_NORESTART;
}

/**
 * pacer_shapers_init() - a shaper for every possible CPU
 * @pd: the device
 *
 * Context: process context (ndo_init); charged to the caller's memcg.
 * Return: 0 or -ENOMEM.
 */
int pacer_shapers_init(struct pacer_dev *pd)
{
	int cpu;

	pd->shapers = alloc_percpu_gfp(struct pacer_shaper, PACER_GFP);
	if (!pd->shapers)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct pacer_shaper *sh = per_cpu_ptr(pd->shapers, cpu);

		spin_lock_init(&sh->lock);
		INIT_LIST_HEAD(&sh->active);
		INIT_LIST_HEAD(&sh->sending);
		pacer_hrtimer_setup(&sh->timer, pacer_shaper_timer_fn,
				    CLOCK_MONOTONIC,
				    HRTIMER_MODE_ABS_PINNED_SOFT);
		sh->pd = pd;
		sh->cpu = cpu;
		netif_napi_add(pd->dev, &sh->napi, pacer_shaper_poll);
	}
	return 0;
}

/**
 * pacer_shapers_destroy() - undo pacer_shapers_init()
 * @pd: the device, stopped
 */
void pacer_shapers_destroy(struct pacer_dev *pd)
{
	int cpu;

	if (!pd->shapers)
		return;
	/*
	 * netif_napi_del() waits for a grace period each time: one per
	 * possible CPU (200 on some machines) for every device deleted.  The
	 * contexts are unhashed with RCU readers around: one grace period
	 * for them all.
	 */
	for_each_possible_cpu(cpu)
		__netif_napi_del(&per_cpu_ptr(pd->shapers, cpu)->napi);
	synchronize_net();
	free_percpu(pd->shapers);
	pd->shapers = NULL;
}

/**
 * pacer_shapers_start() - let the shapers run (ndo_open)
 * @pd: the device
 */
void pacer_shapers_start(struct pacer_dev *pd)
{
	int cpu;

	for_each_possible_cpu(cpu)
		napi_enable(&per_cpu_ptr(pd->shapers, cpu)->napi);
}

/**
 * pacer_shapers_stop() - stop every shaper (ndo_stop); the caller then
 *	flushes the classes
 * @pd: the device
 */
void pacer_shapers_stop(struct pacer_dev *pd)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct pacer_shaper *sh = per_cpu_ptr(pd->shapers, cpu);

		/*
		 * NAPI first: a poll arms the timer before it lets the
		 * context go, so none arms it once napi_disable() returns.
		 */
		napi_disable(&sh->napi);
		hrtimer_cancel(&sh->timer);
	}
}

static void pacer_shaper_kick_here(void *arg)
{
	struct pacer_shaper *sh = arg;

	napi_schedule(&sh->napi);
}

/**
 * pacer_shapers_kick() - make every shaper look at its classes now, on
 *	its own CPU (after a configuration change: a faster rate takes
 *	effect at once)
 * @pd: the device
 *
 * The shaper of a CPU that went offline with packets queued is polled
 * wherever hotplug moved its NAPI context and timer: it is kicked from
 * here, or its packets would wait for the time the old rate gave them.
 *
 * Context: process context.
 */
void pacer_shapers_kick(struct pacer_dev *pd)
{
	int cpu;

	cpus_read_lock();
	for_each_possible_cpu(cpu) {
		struct pacer_shaper *sh = per_cpu_ptr(pd->shapers, cpu);

		if (list_empty_careful(&sh->active))
			continue;
		if (cpu_online(cpu)) {
			smp_call_function_single(cpu, pacer_shaper_kick_here,
						 sh, 1);
		} else {
			local_bh_disable();
			napi_schedule(&sh->napi);
			local_bh_enable();
		}
	}
	cpus_read_unlock();
}
