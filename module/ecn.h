/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: ECN marking in headers pacer located itself.
 */
#ifndef _PACER_ECN_H
#define _PACER_ECN_H

struct sk_buff;

/**
 * enum pacer_ecn_result - what pacer_ecn_mark() did (or would do)
 * @PACER_ECN_MARKED: the packet carries CE now
 * @PACER_ECN_NOT_ECT: an IP packet that is not ECN-capable; unchanged
 * @PACER_ECN_UNPARSED: no IP header pacer understands; unchanged
 */
enum pacer_ecn_result {
	PACER_ECN_MARKED,
	PACER_ECN_NOT_ECT,
	PACER_ECN_UNPARSED,
};

enum pacer_ecn_result pacer_ecn_peek(const struct sk_buff *skb);
enum pacer_ecn_result pacer_ecn_mark(struct sk_buff *skb);

#endif /* _PACER_ECN_H */
