// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: the per-class queue.
 *
 * Flows (a hash of the packet's flow keys) are served by deficit round
 * robin with a quantum of about one MTU, new flows ahead of old ones (as
 * fq_codel does), so a sparse flow - ACKs, DNS, a ping - is not queued
 * behind a bulk flow's backlog.  The queue never drops on its own: the
 * class decides when its limit forces a drop and takes the head of the
 * fattest flow.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/reciprocal_div.h>
#include <linux/slab.h>

#include "queue.h"
#include "testing.h"

/**
 * pacer_queue_init() - allocate a queue's flows
 * @q: the queue
 * @nflows: number of hash buckets
 * @quantum: bytes a flow may send per round
 * @gfp: how to allocate them
 *
 * Context: process context, may sleep.
 * Return: 0 or -ENOMEM.
 */
int pacer_queue_init(struct pacer_queue *q, u32 nflows, u32 quantum,
		     gfp_t gfp)
{
	u32 i;

	q->flows = kvcalloc(nflows, sizeof(*q->flows), gfp);
	if (!q->flows)
		return -ENOMEM;
	for (i = 0; i < nflows; i++)
		INIT_LIST_HEAD(&q->flows[i].node);
	q->nflows = nflows;
	q->quantum = quantum;
	INIT_LIST_HEAD(&q->new_flows);
	INIT_LIST_HEAD(&q->old_flows);
	q->backlog_packets = 0;
	q->backlog_bytes = 0;
	return 0;
}

/**
 * pacer_queue_destroy() - free a queue's flows
 * @q: the queue, already emptied with pacer_queue_take_any()
 */
void pacer_queue_destroy(struct pacer_queue *q)
{
	WARN_ON_ONCE(q->backlog_packets);
	kvfree(q->flows);
	q->flows = NULL;
}

/**
 * pacer_queue_add() - queue a packet at the tail of its flow
 * @q: the queue
 * @skb: the packet
 * @hash: the packet's flow hash
 */
void pacer_queue_add(struct pacer_queue *q, struct sk_buff *skb, u32 hash)
{
	struct pacer_flow *flow = &q->flows[reciprocal_scale(hash, q->nflows)];

	skb->next = NULL;
	if (flow->head)
		flow->tail->next = skb;
	else
		flow->head = skb;
	flow->tail = skb;
	flow->backlog += skb->len;
	q->backlog_packets++;
	q->backlog_bytes += skb->len;

	if (list_empty(&flow->node)) {
		flow->deficit = q->quantum;
		list_add_tail(&flow->node, &q->new_flows);
	}
}

/**
 * pacer_queue_peek() - the packet deficit round robin serves next
 * @q: the queue
 * @flowp: set to the packet's flow
 *
 * Moves flows between the lists as their turns end, so calling it again
 * without taking the packet returns the same packet.
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
				list_del_init(&flow->node);
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
	if (!flow->head)
		flow->tail = NULL;
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
 * @q: the queue, not empty
 *
 * The flow that built the backlog pays for it, not the sparse flow whose
 * packet just arrived; its oldest packet goes so the sender learns soonest.
 *
 * Return: the packet.
 */
struct sk_buff *pacer_queue_take_fattest(struct pacer_queue *q)
{
	struct pacer_flow *fattest = NULL;
	u32 i;

	for (i = 0; i < q->nflows; i++) {
		struct pacer_flow *flow = &q->flows[i];

		if (flow->head && (!fattest || flow->backlog > fattest->backlog))
			fattest = flow;
	}
	return fattest ? pacer_flow_pop(q, fattest) : NULL;
}

/**
 * pacer_queue_take_any() - dequeue some packet, to empty the queue
 * @q: the queue
 *
 * Return: a packet, or NULL if the queue is empty.
 */
struct sk_buff *pacer_queue_take_any(struct pacer_queue *q)
{
	struct pacer_flow *flow;

	/* Every flow that holds packets is on one of the lists. */
	list_for_each_entry(flow, &q->new_flows, node)
		if (flow->head)
			return pacer_flow_pop(q, flow);
	list_for_each_entry(flow, &q->old_flows, node)
		if (flow->head)
			return pacer_flow_pop(q, flow);
	return NULL;
}

/**
 * pacer_codel_control_law() - when to mark next: @interval / sqrt(@count)
 *	after @t
 * @t: the previous mark, ktime ns
 * @interval: CoDel's interval, ns
 * @count: marks so far in this marking state; 0 counts as 1
 *
 * Return: the time of the next mark, ktime ns.
 */
u64 pacer_codel_control_law(u64 t, u64 interval, u32 count)
{
	return t + div_u64(interval, int_sqrt(max(count, 1U)));
}
EXPORT_SYMBOL_IF_KUNIT(pacer_codel_control_law);

/**
 * pacer_codel_should_mark() - CoDel's decision for a dequeued packet
 * @flow: the packet's flow (its state advances)
 * @p: target, interval and MTU of the class
 * @sojourn: how long the packet waited, ns
 * @now: current time, ktime ns
 *
 * Return: true if the packet should be marked CE.
 */
bool pacer_codel_should_mark(struct pacer_flow *flow,
			     const struct pacer_codel *p, u64 sojourn, u64 now)
{
	bool ok_to_mark = false;
	u32 delta;

	if (sojourn < p->target || flow->backlog <= p->mtu)
		flow->first_above = 0;
	else if (!flow->first_above)
		flow->first_above = now + p->interval;
	else if (now >= flow->first_above)
		ok_to_mark = true;

	if (flow->marking) {
		if (!ok_to_mark) {
			flow->marking = false;
			return false;
		}
		if (now < flow->mark_next)
			return false;
		/*
		 * A flow that never drains (a flood into a fast class) marks
		 * for hours; past 2^32 marks the law's rate is long flat.
		 */
		if (flow->count < U32_MAX)
			flow->count++;
		flow->mark_next = pacer_codel_control_law(flow->mark_next,
							  p->interval,
							  flow->count);
		return true;
	}
	if (!ok_to_mark)
		return false;

	/* Re-entering soon after leaving: resume near the old rate. */
	flow->marking = true;
	delta = flow->count - flow->last_count;
	if (delta > 1 && now - flow->mark_next < 16 * p->interval)
		flow->count = delta;
	else
		flow->count = 1;
	flow->last_count = flow->count;
	flow->mark_next = pacer_codel_control_law(now, p->interval,
						  flow->count);
	return true;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_codel_should_mark);
