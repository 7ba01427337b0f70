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
#include <linux/mm.h>
#include <linux/slab.h>

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
}

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

/*
 * The flow leaves the queue's lists, and anyone may claim it now - unless
 * packets of it are still on their way out (pacer_flow_sending()): then
 * pacer_flows_sent() lets it go once they are.
 */
static void pacer_flow_let_go(struct pacer_flow *flow)
{
	list_del_init(&flow->node);
	if (!list_empty(&flow->send_node))
		return;
	flow->hashes = 0;
	/* Pairs with the claim's cmpxchg: the flow is empty and unlinked. */
	smp_store_release(&flow->owner, NULL);
}

/**
 * pacer_flow_unclaim() - give back a flow claimed for packets that were
 *	all dropped before they got in
 * @flow: the flow, claimed by the caller's queue
 */
void pacer_flow_unclaim(struct pacer_flow *flow)
{
	if (list_empty(&flow->node) && !flow->head)
		pacer_flow_let_go(flow);
}

/**
 * pacer_flow_sending() - a packet of the flow left its queue and is about
 *	to be re-injected, after the shaper's lock is dropped
 * @flow: the flow
 * @sending: the shaper's list of such flows
 *
 * Until pacer_flows_sent(), the flow keeps its owner even if it empties:
 * a packet of it arriving on another CPU meanwhile joins it here, and
 * leaves after the ones on their way, not before.
 */
void pacer_flow_sending(struct pacer_flow *flow, struct list_head *sending)
{
	if (list_empty(&flow->send_node))
		list_add_tail(&flow->send_node, sending);
}

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

	list_for_each_entry_safe(flow, tmp, sending, send_node) {
		list_del_init(&flow->send_node);
		/* A packet that joined meanwhile put it back on a list. */
		if (list_empty(&flow->node) && !flow->head)
			pacer_flow_let_go(flow);
	}
}

/**
 * pacer_queue_add() - queue a packet at the tail of its flow
 * @q: the queue, which owns @flow
 * @flow: the packet's flow
 * @skb: the packet
 * @class_id: the class of @q: a flow that held another class's packets
 *	before starts its CoDel state afresh
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

	if (list_empty(&flow->node)) {
		if (flow->class_id != class_id) {
			flow->class_id = class_id;
			flow->first_above = 0;
			flow->count = 0;
			flow->last_count = 0;
			flow->marking = false;
		}
		flow->deficit = q->quantum;
		list_add_tail(&flow->node, &q->new_flows);
	}
}

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
 * Only the queue's own flows are looked at, not every hash bucket.
 *
 * Return: the packet, or NULL if the queue is empty.
 */
struct sk_buff *pacer_queue_take_fattest(struct pacer_queue *q)
{
	struct pacer_flow *flow, *fattest = NULL;

	list_for_each_entry(flow, &q->new_flows, node)
		if (flow->head && (!fattest || flow->backlog > fattest->backlog))
			fattest = flow;
	list_for_each_entry(flow, &q->old_flows, node)
		if (flow->head && (!fattest || flow->backlog > fattest->backlog))
			fattest = flow;
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
