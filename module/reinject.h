/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: sending a packet back where it came from.
 */
#ifndef _PACER_REINJECT_H
#define _PACER_REINJECT_H

#include <linux/skbuff.h>
#include <linux/types.h>

#include "compat.h"

struct net_device;

bool pacer_reinject_prepare(struct net_device *pacer, struct sk_buff *skb);
void pacer_reinject(struct sk_buff *skb);

/**
 * pacer_reinject_nests() - whether re-injecting a packet runs the stack's
 *	receive path nested in the caller
 * @skb: the packet
 *
 * Inline because it is asked per packet and is a compile-time constant
 * and one bit of @skb.
 *
 * Return: true for a packet taken at ingress where tc mirred allows a
 * nested redirect to the same device; false where it goes through the
 * backlog, and for a packet taken at egress.
 */
static inline bool pacer_reinject_nests(const struct sk_buff *skb)
{
	return skb->from_ingress && pacer_mirred_may_nest_same_dev();
}

#endif /* _PACER_REINJECT_H */
