/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: reading a packet's headers, once, for its class and its flow.
 */
#ifndef _PACER_PARSE_H
#define _PACER_PARSE_H

#include <linux/types.h>

struct flow_keys;
struct sk_buff;

void pacer_parse(const struct sk_buff *skb, struct flow_keys *keys);
bool pacer_parse_plain(const struct sk_buff *skb, struct flow_keys *keys);

#endif /* _PACER_PARSE_H */
