/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: sending a packet back where it came from.
 */
#ifndef _PACER_REINJECT_H
#define _PACER_REINJECT_H

#include <linux/types.h>

struct net_device;
struct sk_buff;

bool pacer_reinject_prepare(struct net_device *pacer, struct sk_buff *skb);
bool pacer_reinject_nests(const struct sk_buff *skb);
void pacer_reinject(struct sk_buff *skb);

#endif /* _PACER_REINJECT_H */
