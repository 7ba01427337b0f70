// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: the queue of a class on one CPU.
 *
 * Flows (hash buckets of the device's flow table, keyed by class and flow
 * keys) are served by deficit round robin with a quantum of about one MTU,
 * new flows ahead of old ones (as fq_codel does), so a sparse flow - ACKs,
 * DNS, a ping - is not queued behind a bulk flow's backlog.  A queue owns
 * the flows on its lists; it lets a flow go once the flow has nothing left
 * and its turn is over.  The queue never drops on its own: the class
 * decides when its limit forces a drop and takes the head of the fattest
 * flow.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "bucket.h"
#include "queue.h"
#include "testing.h"

/**
 * pacer_queue_init() - an empty queue
 * @q: the queue
 * @quantum: bytes a flow may send per round
 */
void pacer_queue_init(struct pacer_queue *q, u32 quantum)
{
	q->quantum = quantum;
	INIT_LIST_HEAD(&q->new_flows);
	INIT_LIST_HEAD(&q->old_flows);
	q->backlog_packets = 0;
	q->backlog_bytes = 0;
	q->fattest = NULL;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_queue_init);

/**
 * pacer_flow_init() - a flow in no queue
 * @flow: the flow
 */
void pacer_flow_init(struct pacer_flow *flow)
{
	memset(flow, 0, sizeof(*flow));
	INIT_LIST_HEAD(&flow->node);
	INIT_LIST_HEAD(&flow->send_node);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_flow_init);

/**
 * pacer_flows_sent() - the packets taken from these flows were
 *	re-injected: let go of the flows that have nothing left
 * @sending: the shaper's list (pacer_flow_sending()), emptied
 *
 * Context: the shaper's lock held.
 */
void pacer_flows_sent(struct list_head *sending)
{
	struct pacer_flow *flow, *tmp;

	list_for_each_entry_safe(flow, tmp, sending, send_node)
		pacer_flow_sent(flow);
}

/**
 * pacer_queue_add() - queue a packet at the tail of its flow
 * @q: the queue, which owns @flow
 * @flow: the packet's flow
 * @skb: the packet
 * @class_id: the class of @q: a flow that held another class's packets
 *	before starts its signal state afresh
 */
void pacer_queue_add(struct pacer_queue *q, struct pacer_flow *flow,
		     struct sk_buff *skb, u32 class_id)
{
	skb->next = NULL;
	if (flow->head)
		flow->tail->next = skb;
	else
		flow->head = skb;
	flow->tail = skb;
	flow->backlog += skb->len;
	q->backlog_packets++;
	q->backlog_bytes += skb->len;
	if (!q->fattest || flow->backlog >= q->fattest->backlog)
		q->fattest = flow;

	if (list_empty(&flow->node)) {
		if (flow->class_id != class_id) {
			flow->class_id = class_id;
			flow->above_since = 0;
			flow->quiet_until = 0;
			flow->signal_sojourn_us = 0;
			flow->growth_from = 0;
			flow->growth_next = 0;
		}
		flow->deficit = q->quantum;
		list_add_tail(&flow->node, &q->new_flows);
	}
}
EXPORT_SYMBOL_IF_KUNIT(pacer_queue_add);

/**
 * pacer_queue_peek() - the packet deficit round robin serves next
 * @q: the queue
 * @flowp: set to the packet's flow
 *
 * Moves flows between the lists as their turns end, and lets go of the
 * flows that have nothing left, so calling it again without taking the
 * packet returns the same packet.
 *
 * Return: the packet, or NULL if the queue is empty.
 */
struct sk_buff *pacer_queue_peek(struct pacer_queue *q,
				 struct pacer_flow **flowp)
{
	struct pacer_flow *flow;
	struct list_head *head;

	for (;;) {
		head = &q->new_flows;
		if (list_empty(head)) {
			head = &q->old_flows;
			if (list_empty(head))
				return NULL;
		}
		flow = list_first_entry(head, struct pacer_flow, node);

		if (flow->deficit <= 0) {
			flow->deficit += q->quantum;
			list_move_tail(&flow->node, &q->old_flows);
			continue;
		}
		if (!flow->head) {
			/*
			 * An emptied new flow goes round the old list once,
			 * so a flow that keeps going idle cannot starve the
			 * old flows by always coming back as new.
			 */
			if (head == &q->new_flows && !list_empty(&q->old_flows))
				list_move_tail(&flow->node, &q->old_flows);
			else
				pacer_flow_let_go(flow);
			continue;
		}
		*flowp = flow;
		return flow->head;
	}
}

static struct sk_buff *pacer_flow_pop(struct pacer_queue *q,
				      struct pacer_flow *flow)
{
	struct sk_buff *skb = flow->head;

	flow->head = skb->next;
	if (!flow->head) {
		flow->tail = NULL;
		/* An empty flow may be let go, and claimed elsewhere. */
		if (q->fattest == flow)
			q->fattest = NULL;
	}
	skb_mark_not_on_list(skb);
	flow->backlog -= skb->len;
	q->backlog_packets--;
	q->backlog_bytes -= skb->len;
	return skb;
}

/**
 * pacer_queue_take() - dequeue the packet pacer_queue_peek() returned
 * @q: the queue
 * @flow: the flow pacer_queue_peek() returned
 *
 * Return: the packet.
 */
struct sk_buff *pacer_queue_take(struct pacer_queue *q,
				 struct pacer_flow *flow)
{
	struct sk_buff *skb = pacer_flow_pop(q, flow);

	flow->deficit -= skb->len;
	return skb;
}

/**
 * pacer_queue_take_fattest() - dequeue the head of the flow with most bytes
 * @q: the queue
 *
 * The flow that built the backlog pays for it, not the sparse flow whose
 * packet just arrived; its oldest packet goes so the sender learns soonest.
 * A queue at its limit under a flood drops on every arrival, so the flow
 * is the one the queue remembers (&pacer_queue.fattest), in O(1); only
 * when that one emptied are the queue's flows scanned (not every hash
 * bucket), and the arrival that follows sets it again.
 *
 * Return: the packet, or NULL if the queue is empty.
 */
struct sk_buff *pacer_queue_take_fattest(struct pacer_queue *q)
{
	struct pacer_flow *flow, *fattest = q->fattest;

	if (fattest)
		return pacer_flow_pop(q, fattest);
	list_for_each_entry(flow, &q->new_flows, node)
		if (flow->head && (!fattest || flow->backlog > fattest->backlog))
			fattest = flow;
	list_for_each_entry(flow, &q->old_flows, node)
		if (flow->head && (!fattest || flow->backlog > fattest->backlog))
			fattest = flow;
	if (!fattest)
		return NULL;
	q->fattest = fattest;
	return pacer_flow_pop(q, fattest);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_queue_take_fattest);

/**
 * pacer_queue_take_all() - dequeue every packet, to empty the queue
 * @q: the queue
 *
 * Flow by flow, each list walked once: a queue at its limit may hold
 * tens of thousands of packets in thousands of flows, and this runs with
 * the shaper's lock held and bottom halves off.
 *
 * Return: the packets, linked by skb->next (each flow's in order), or
 * NULL if the queue was empty.
 */
struct sk_buff *pacer_queue_take_all(struct pacer_queue *q)
{
	struct sk_buff *all = NULL, **tail = &all;
	struct list_head *lists[] = { &q->new_flows, &q->old_flows };
	struct pacer_flow *flow;
	int i;

	/* Every flow that holds packets is on one of the lists. */
	for (i = 0; i < ARRAY_SIZE(lists); i++)
		list_for_each_entry(flow, lists[i], node)
			while (flow->head) {
				*tail = pacer_flow_pop(q, flow);
				tail = &(*tail)->next;
			}
	return all;
}

/**
 * pacer_queue_release() - let go of every flow of an empty queue
 * @q: the queue, with no packets
 *
 * An idle queue keeps no flow: the hash buckets are free for any class
 * on any CPU.
 */
void pacer_queue_release(struct pacer_queue *q)
{
	struct pacer_flow *flow, *tmp;

	WARN_ON_ONCE(q->backlog_packets);
	list_for_each_entry_safe(flow, tmp, &q->new_flows, node)
		pacer_flow_let_go(flow);
	list_for_each_entry_safe(flow, tmp, &q->old_flows, node)
		pacer_flow_let_go(flow);
}

/*
 * Where the slow-start rule measures the class's growth from: a packet of
 * the flow queued @p->growth_span before the newest one, or up to twice
 * that; @queued is when the packet leaving now was queued, @backlog_then
 * what the class held then.  After a gap of twice the span in the flow,
 * or a packet older than the last sample (the bucket went to another
 * flow), it starts afresh.
 */
static void pacer_flow_growth_sample(struct pacer_flow *flow,
				     const struct pacer_signal *p, u64 queued,
				     u64 backlog_then)
{
	u32 backlog = min_t(u64, backlog_then, U32_MAX);

	if (!p->growth_span)
		return;
	if (!flow->growth_next || queued < flow->growth_next ||
	    queued - flow->growth_next >= 2 * p->growth_span) {
		flow->growth_from = queued;
		flow->growth_from_backlog = backlog;
	} else if (queued - flow->growth_next >= p->growth_span) {
		flow->growth_from = flow->growth_next;
		flow->growth_from_backlog = flow->growth_next_backlog;
	} else {
		return;
	}
	flow->growth_next = queued;
	flow->growth_next_backlog = backlog;
}

/* Whether the class grew by half of what it released in @span ns. */
static bool pacer_grew_fast(const struct pacer_signal *p, u64 grown, u64 span)
{
	return !p->rate || grown >= pacer_ns_to_len(p->rate, span) / 2;
}

/*
 * A sender in slow start doubles its window every round trip: it sends
 * twice what the class releases, and the class's queue grows by what the
 * class released while a packet waited, a queue's worth per round trip.
 * Once the class holds the pressure, such a sender would reach the limit
 * before a signal at the level came back, so it is told at once.  The
 * queue must have grown by a quarter while the packet waited, and by half
 * of what the class released (arrivals at 1.5 times the rate or more):
 * a sender in congestion avoidance grows its window by a packet a round
 * trip, but its ACKs come back in bursts and so do its packets, and a
 * burst of ten frames is a quarter of a 10 ms RTT's queue.  Told by the
 * quarter alone, one CUBIC flow at 10 ms, not ECN-capable, lost a packet
 * a second to this rule, its queue never reaching the loss level.
 *
 * Where the limit leaves room for it (&pacer_signal.growth_span), the
 * growth must also hold over a span before the packet's own wait (from
 * the flow's growth sample): every packet queued when a burst lands sees
 * the queue grow by the burst, so a packet's wait alone takes each burst
 * after a drain for a slow start, for a whole queue's delay.  With the
 * ACKs released every 10-30 ms (netem slots), four CUBIC flows at 10 ms
 * lost 169-178 packets to this rule, against 38-46 behind tbf.  A burst
 * averages out over the longer span; a slow start keeps arriving at
 * twice the rate for all of it.
 */
static bool pacer_slow_start(const struct pacer_flow *flow,
			     const struct pacer_signal *p, u64 sojourn,
			     u64 class_backlog, u64 backlog_then, u64 now)
{
	u64 grown, span;

	if (flow->backlog <= p->mtu || class_backlog < p->pressure ||
	    sojourn < p->level / 2 || class_backlog <= backlog_then)
		return false;
	grown = class_backlog - backlog_then;
	if (grown < backlog_then / 4 || !pacer_grew_fast(p, grown, sojourn))
		return false;
	if (!p->growth_span)
		return true;
	/* Not the span's worth of the flow's history yet. */
	if (now - sojourn - flow->growth_from < p->growth_span ||
	    class_backlog <= flow->growth_from_backlog)
		return false;
	span = now - flow->growth_from;
	return pacer_grew_fast(p, class_backlog - flow->growth_from_backlog,
			       span);
}

/**
 * pacer_flow_should_signal() - whether the sender of a dequeued packet's
 *	flow is due a signal to slow down (a CE mark, or a drop)
 * @flow: the packet's flow (its signal state advances)
 * @p: the class's signal parameters
 * @sojourn: how long the packet waited, ns
 * @class_backlog: bytes the class holds on all CPUs
 * @backlog_then: bytes it held once the packet was queued
 * @now: current time, ktime ns
 * @by_loss: the signal would be the packet's loss (its sender is not
 *	ECN-capable): the flow may keep its queue up to the loss level
 *	before a standing queue is told.  A slow start is told as early
 *	either way: it would reach the limit and lose a burst
 *
 * One signal per congestion episode: a sender answers one by cutting its
 * window once (CUBIC by 30 %) and ignores further ones for a round trip,
 * so signalling every packet past a threshold, or at CoDel's quickening
 * rate, cuts the window again and again before the first cut shows in the
 * queue: at 40 ms that left one flow half the rate.  Once a signal went
 * out (pacer_flow_signalled()) the flow is left alone until a packet
 * that arrived the expected RTT after it reaches the head: the first one
 * the sender can have sent after its cut.  Counting from the signal's
 * departure plus its sojourn instead told a slow start twice: its queue
 * grows, and the packets sent before the cut had waited longer than the
 * signalled one (four CUBIC flows at 40 ms lost two packets each where
 * one would do).  If its packets sent after the cut still wait as long
 * as the one that carried the signal, the sender did not cut enough and
 * is told again.  A queue that stands but drains is the cut showing,
 * this flow's or other flows' of the class: telling each flow again
 * until the last cut shows would cut them all twice.
 *
 * Return: true if the packet should carry the signal.
 */
bool pacer_flow_should_signal(struct pacer_flow *flow,
			      const struct pacer_signal *p, u64 sojourn,
			      u64 class_backlog, u64 backlog_then, u64 now,
			      bool by_loss)
{
	u64 threshold, again_us;
	bool due;

	pacer_flow_growth_sample(flow, p, now - sojourn, backlog_then);
	/* A sparse flow (an MTU or less queued) builds no queue. */
	if (flow->backlog <= p->mtu || sojourn < p->level ||
	    class_backlog < p->level_bytes) {
		flow->above_since = 0;
		flow->signal_sojourn_us = 0;
		due = false;
	} else if (by_loss && (sojourn < p->loss_level ||
			       class_backlog < p->loss_level_bytes)) {
		/*
		 * Not yet for a loss.  The last signal's sojourn stays: an
		 * ECN flow's retransmits are not ECN-capable, and must not
		 * make its next mark come sooner.
		 */
		flow->above_since = 0;
		due = false;
	} else {
		if (!flow->above_since)
			flow->above_since = now;
		due = now - flow->above_since >= p->persist;
	}
	if (!due)
		due = pacer_slow_start(flow, p, sojourn, class_backlog,
				       backlog_then, now);
	if (!due || now - sojourn < flow->quiet_until)
		return false;
	/*
	 * Again only as long as the last signal's packet waited, or twice
	 * the threshold: with other flows' queues standing, the episode may
	 * never fall below the level, and a slow start's long sojourn would
	 * stand as the threshold for good (most likely what kept four ECN
	 * flows at 10 ms at a p99 of 65 ms in two runs of three).
	 */
	threshold = by_loss ? p->loss_level : p->level;
	again_us = min_t(u64, flow->signal_sojourn_us,
			 div_u64(2 * threshold, NSEC_PER_USEC));
	return div_u64(sojourn, NSEC_PER_USEC) >= again_us;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_flow_should_signal);

/**
 * pacer_flow_signalled() - a packet of the flow carried a signal (a CE
 *	mark, or its loss): none again before it can have come back as a
 *	slower flow
 * @flow: the flow
 * @p: the class's signal parameters
 * @sojourn: how long the packet waited, ns
 * @now: current time, ktime ns
 *
 * A packet whose header could not be located carries none and spends
 * nothing: the next one is signalled.
 */
void pacer_flow_signalled(struct pacer_flow *flow,
			  const struct pacer_signal *p, u64 sojourn, u64 now)
{
	/* Saturates: a wrapped time would let the next signal out early. */
	flow->quiet_until = now + min(p->rtt, U64_MAX - now);
	flow->signal_sojourn_us = clamp_t(u64, div_u64(sojourn, NSEC_PER_USEC),
					  1, U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_flow_signalled);
