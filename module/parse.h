/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: reading a packet's headers, once, for its class and its flow.
 */
#ifndef _PACER_PARSE_H
#define _PACER_PARSE_H

#include <linux/skbuff.h>
#include <linux/types.h>
#include <net/flow_dissector.h>

bool pacer_parse_plain(const struct sk_buff *skb, struct flow_keys *keys);

/**
 * pacer_parse() - read a packet's headers for classification and its flow
 * @skb: the packet
 * @keys: filled as skb_flow_dissect_flow_keys(@skb, @keys, 0) fills them
 *
 * Inline: it runs for every packet, and all it adds is the choice.
 *
 * Context: RCU read side (the device's xmit).
 */
static inline void pacer_parse(const struct sk_buff *skb,
			       struct flow_keys *keys)
{
	if (!pacer_parse_plain(skb, keys))
		skb_flow_dissect_flow_keys(skb, keys, 0);
}

#endif /* _PACER_PARSE_H */
