/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: flows and the queue of a class on one CPU: flows served by
 * deficit round robin, new flows ahead of old ones, and the decision when
 * a flow's sender is told to slow down: once per congestion episode, when
 * the flow keeps more queue than its round trip needs.  The caller holds
 * the lock of the CPU's shaper.
 */
#ifndef _PACER_QUEUE_H
#define _PACER_QUEUE_H

#include <linux/list.h>
#include <linux/skbuff.h>
#include <linux/types.h>
#include <asm/barrier.h>

/**
 * struct pacer_skb_cb - what pacer remembers of a packet while it waits
 * @enqueue_ns: arrival time, ktime ns
 * @charge: bytes charged to the token buckets (segments, overhead, mpu)
 * @class_backlog: bytes the class held on all CPUs once it was queued
 *	(saturated): whether the class's queue grew while it waited
 * @delayed: could not leave on arrival (no tokens, or packets ahead)
 * @ecn_marked: marked CE on its way out
 * @drop: why it was dropped, &enum pacer_drop_reason, until it is freed
 */
struct pacer_skb_cb {
	u64 enqueue_ns;
	u32 charge;
	u32 class_backlog;
	bool delayed;
	bool ecn_marked;
	u8 drop;
};

static inline struct pacer_skb_cb *pacer_skb_cb(const struct sk_buff *skb)
{
	BUILD_BUG_ON(sizeof(struct pacer_skb_cb) > sizeof(skb->cb));
	return (struct pacer_skb_cb *)skb->cb;
}

struct pacer_queue;

/**
 * struct pacer_flow - packets of one flow, and its turn in round robin
 * @owner: the queue (a class on one CPU) whose packets the flow holds,
 *	NULL while it is in no queue.  Set from NULL under the lock of the
 *	shaper that will hold it, cleared by that queue when it lets the
 *	flow go; a flow's packets are therefore always on one CPU, so a
 *	flow keeps its order whatever CPUs its packets arrive on
 * @head: oldest packet
 * @tail: newest packet
 * @node: on the owner's new or old list while it has a turn
 * @deficit: bytes it may still send in this round
 * @backlog: bytes queued
 * @class_id: the class whose signal state the flow carries
 * @signal_sojourn_us: the sojourn of the packet that carried its last
 *	signal, us, while the queue has stood since (0 after it fell): told
 *	again only if its packets still wait as long (or twice the class's
 *	level), for a queue that drains is the cut showing (its own, or
 *	other flows')
 * @above_since: when its sojourn rose above the class's threshold, 0
 *	while it is below
 * @quiet_until: no signal to a packet that arrived before this time: it
 *	was sent before the previous signal reached the sender
 * @growth_from: when a packet of the flow was queued a growth span or
 *	more before the newest one the class let go: where the slow-start
 *	rule measures the class's growth from (see
 *	pacer_flow_growth_sample()); 0 for none yet
 * @growth_from_backlog: bytes the class held then
 * @growth_next: a later such time, @growth_from a span on
 * @growth_next_backlog: bytes the class held then
 * @hashes: for a class's overflow flow: a bit per (hash mod 64) of the
 *	flows it holds, so that their later packets join them there
 * @send_node: on its owner's shaper's list of flows whose packets are
 *	being re-injected: an emptied flow keeps its owner until they are,
 *	so that a later packet of it joins it there instead of overtaking
 *	them from another CPU
 * @passing: a packet of it is leaving from the device's xmit (class.c,
 *	pacer_class_pass()), whose CPU is the owner's: its shaper's poll,
 *	should it run on another CPU meanwhile (threaded NAPI, or moved by
 *	CPU hotplug), leaves the flow's queued packets until that one is out
 */
struct pacer_flow {
	struct pacer_queue *owner;
	struct sk_buff *head;
	struct sk_buff *tail;
	struct list_head node;
	s32 deficit;
	u32 backlog;
	u32 class_id;
	u32 signal_sojourn_us;
	u64 above_since;
	u64 quiet_until;
	u64 growth_from;
	u64 growth_next;
	u32 growth_from_backlog;
	u32 growth_next_backlog;
	u64 hashes;
	struct list_head send_node;
	bool passing;
};

/**
 * struct pacer_queue - the flows of one class on one CPU
 * @quantum: bytes a flow may send per round
 * @new_flows: flows that just became active; served first
 * @old_flows: the others
 * @backlog_packets: packets queued
 * @backlog_bytes: bytes queued
 * @fattest: a flow with packets that had the most bytes when it last
 *	grew (round robin takes from every flow alike, so it stays near the
 *	top), or NULL once it emptied: the limit's drops find their victim
 *	without scanning the flows, but after that
 */
struct pacer_queue {
	u32 quantum;
	struct list_head new_flows;
	struct list_head old_flows;
	u32 backlog_packets;
	u64 backlog_bytes;
	struct pacer_flow *fattest;
};

/**
 * struct pacer_signal - when a class tells a flow's sender to slow down
 * @level: sojourn a flow may keep, ns: half its expected round trip plus
 *	the class's target, at most a quarter of the class limit
 * @level_bytes: what the class queues in @level at its rate (0 for an
 *	unlimited class): a packet that waited @level is due a signal only
 *	if that much still stands behind it, so that a burst which arrived
 *	at once and drains (the sender's, or the bucket's) is not taken for
 *	a standing queue
 * @loss_level: the sojourn a flow whose sender is not ECN-capable may
 *	keep, ns: the class limit less @level, or less an eighth of it if
 *	that is more (seven eighths at RTT 10 ms, three quarters from 40 ms
 *	on with an automatic limit).  Its signal is a loss, which costs the
 *	sender a retransmission and a round trip of recovery, and a
 *	loss-based sender's windows shrink with its queue (the loss rate it
 *	needs grows as the square of the window's shrinking): told at
 *	@level, four CUBIC flows at 10 ms lost 12 times what they lost
 *	behind tbf's 100 ms, and at three quarters of the limit still a
 *	little more than behind tbf.  What is left above it holds what the
 *	flows send while a signal is on its way, which grows with the RTT
 *	as the level does: at 80 ms, with only an eighth left, four flows
 *	lost up to 17 packets a run at the limit.  Sparse flows still skip
 *	the bulk flows' queue (new flows first)
 * @loss_level_bytes: what the class queues in @loss_level at its rate
 * @persist: how long a flow's sojourn must stay at its level, ns: the
 *	class's target, or half its expected round trip if that is longer.
 *	A queue that a stall piled up (the CPU releasing the class was
 *	late, or a burst came at once) drains within a round trip; one that
 *	stands that long is the senders' windows
 * @pressure: class backlog, bytes, from which a flow whose packet waited
 *	half of @level is signalled at once if the class's queue grew by a
 *	quarter or more while the packet waited (and fast since
 *	@growth_span before it was queued): a sender in slow start doubles
 *	its queue every round trip and cannot wait for @persist.  A queue
 *	that stands (congestion avoidance) or drains (a burst, a stall) does
 *	not grow so, and waits for @persist
 * @growth_span: how long before a packet was queued the slow-start rule
 *	also measures the class's growth from, ns: @persist where the limit
 *	holds a slow start told that much later (its queue reaches its round
 *	trip plus twice what it was told at: at RTT 10 ms with an automatic
 *	limit), else 0, the packet's own wait only.  A burst after a drain
 *	grows the queue as much while a packet waits, but not over the
 *	longer span; a slow start told @persist later at 40 or 80 ms,
 *	though, reached the limit (29-64 drops there a run)
 * @rtt: expected round-trip time, ns: a signal takes this long, plus the
 *	queue's delay, to come back as a slower flow
 * @mtu: a flow with at most this many bytes queued is never signalled
 */
struct pacer_signal {
	u64 level;
	u64 level_bytes;
	u64 loss_level;
	u64 loss_level_bytes;
	u64 persist;
	u64 pressure;
	u64 growth_span;
	u64 rtt;
	u64 rate;
	u32 mtu;
};

void pacer_queue_init(struct pacer_queue *q, u32 quantum);
void pacer_flow_init(struct pacer_flow *flow);
void pacer_flows_sent(struct list_head *sending);
void pacer_queue_add(struct pacer_queue *q, struct pacer_flow *flow,
		     struct sk_buff *skb, u32 class_id);
struct sk_buff *pacer_queue_peek(struct pacer_queue *q,
				 struct pacer_flow **flowp);
struct sk_buff *pacer_queue_take(struct pacer_queue *q,
				 struct pacer_flow *flow);
struct sk_buff *pacer_queue_take_fattest(struct pacer_queue *q);
struct sk_buff *pacer_queue_take_all(struct pacer_queue *q);
void pacer_queue_release(struct pacer_queue *q);
bool pacer_flow_should_signal(struct pacer_flow *flow,
			      const struct pacer_signal *p, u64 sojourn,
			      u64 class_backlog, u64 backlog_then, u64 now,
			      bool by_loss);
void pacer_flow_signalled(struct pacer_flow *flow,
			  const struct pacer_signal *p, u64 sojourn, u64 now);

/* ---- a flow's ownership: asked and changed per packet, so inline ---- */

/*
 * The flow leaves the queue's lists, and anyone may claim it now - unless
 * packets of it are still on their way out (pacer_flow_sending()): then
 * pacer_flows_sent() lets it go once they are.
 */
static inline void pacer_flow_let_go(struct pacer_flow *flow)
{
	list_del_init(&flow->node);
	if (!list_empty(&flow->send_node))
		return;
	WRITE_ONCE(flow->hashes, 0);
	/* Pairs with the claim's cmpxchg: the flow is empty and unlinked. */
	smp_store_release(&flow->owner, NULL);
}

/**
 * pacer_flow_unclaim() - give back a flow that holds nothing: claimed for
 *	packets that were all dropped before they got in, or whose last
 *	packets were re-injected (pacer_flow_sent())
 * @flow: the flow, claimed by the caller's queue
 */
static inline void pacer_flow_unclaim(struct pacer_flow *flow)
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
static inline void pacer_flow_sending(struct pacer_flow *flow,
				      struct list_head *sending)
{
	if (list_empty(&flow->send_node))
		list_add_tail(&flow->send_node, sending);
}

/**
 * pacer_flow_sent() - the packets taken from one flow were re-injected
 * @flow: the flow, on a list of flows being sent; taken off it, and let
 *	go of if it has nothing left
 *
 * Context: the lock of the shaper whose queue owns @flow held.
 */
static inline void pacer_flow_sent(struct pacer_flow *flow)
{
	list_del_init(&flow->send_node);
	/* Unless a packet that joined meanwhile put it back on a list. */
	pacer_flow_unclaim(flow);
}

#endif /* _PACER_QUEUE_H */
