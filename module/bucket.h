/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: token-bucket arithmetic.  No skb, no netlink, no locking: the
 * caller owns the bucket (under its class lock); only pacer_bucket_owes()
 * may look without owning it.
 */
#ifndef _PACER_BUCKET_H
#define _PACER_BUCKET_H

#include <linux/types.h>

/**
 * struct pacer_bucket - a token bucket that counts tokens as time
 * @rate: bits per second; 0 means unlimited (every packet may leave now)
 * @depth: bucket size as transmission time at @rate, in ns
 * @tokens: transmission time available now, in ns; negative after a packet
 *	larger than the bucket left, repaid before the next one may leave
 * @t_c: when @tokens was last brought up to date (ktime ns)
 * @due: when the packet last told to wait may leave (ktime ns), 0 if none
 *	was told since: from then on, tokens past @depth are what the
 *	releasing CPU's lateness cost the queue, and are kept
 * @carry: what the packets charged so far took short of a whole ns, in
 *	bit-nanoseconds (less than @rate): charged with the next one
 */
struct pacer_bucket {
	u64 rate;
	s64 depth;
	s64 tokens;
	u64 t_c;
	u64 due;
	u64 carry;
};

u64 pacer_len_to_ns(u64 rate, u32 len);
u64 pacer_ns_to_len(u64 rate, u64 ns);
void pacer_bucket_config(struct pacer_bucket *b, u64 rate, u32 burst, u64 now);
u64 pacer_bucket_ready(struct pacer_bucket *b, u32 len, u64 now, bool waited);
void pacer_bucket_idle(struct pacer_bucket *b);
bool pacer_bucket_owes(const struct pacer_bucket *b);
u32 pacer_bucket_avail(const struct pacer_bucket *b);
void pacer_bucket_charge(struct pacer_bucket *b, u32 len);

#endif /* _PACER_BUCKET_H */
