/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: tracepoints.
 *
 * A class's sojourn histogram counts packets in buckets a quarter of a
 * doubling wide; pacer:pacer_release gives every packet's own sojourn, to
 * the nanosecond, for whoever needs a quantile exactly (bench/bench.sh) or
 * wants to follow one flow.  Disabled, it costs a static branch.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM pacer

#if !defined(_PACER_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _PACER_TRACE_H

#include <linux/netdevice.h>
#include <linux/skbuff.h>
#include <linux/tracepoint.h>

/*
 * pacer_release - a packet left its class, to be re-injected
 * @dev: the pacer device
 * @class_id: its class
 * @flow: its flow's slot in the device's flow table, or -1 for the
 *	class's overflow flow
 * @skb: the packet
 * @sojourn_ns: how long it waited in the class (0 if it passed at once)
 * @delayed: it could not leave on arrival
 * @ecn_marked: it was marked CE on its way out
 */
TRACE_EVENT(pacer_release,
	    TP_PROTO(const struct net_device *dev, u32 class_id, int flow,
		     const struct sk_buff *skb, u64 sojourn_ns, bool delayed,
		     bool ecn_marked),
	    TP_ARGS(dev, class_id, flow, skb, sojourn_ns, delayed, ecn_marked),
	    TP_STRUCT__entry(__field(int, ifindex)
			     __field(u32, class_id)
			     __field(int, flow)
			     __field(unsigned int, len)
			     __field(u64, sojourn_ns)
			     __field(bool, delayed)
			     __field(bool, ecn_marked)),
	    TP_fast_assign(__entry->ifindex = dev->ifindex;
			   __entry->class_id = class_id;
			   __entry->flow = flow;
			   __entry->len = skb->len;
			   __entry->sojourn_ns = sojourn_ns;
			   __entry->delayed = delayed;
			   __entry->ecn_marked = ecn_marked;),
	    TP_printk("ifindex=%d class=%u flow=%d len=%u sojourn_ns=%llu delayed=%d ecn_marked=%d",
		      __entry->ifindex, __entry->class_id, __entry->flow,
		      __entry->len, __entry->sojourn_ns, __entry->delayed,
		      __entry->ecn_marked));

#endif /* _PACER_TRACE_H */

/* An out-of-tree module's trace header is found beside it (module/Kbuild). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
