// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: token-bucket arithmetic.
 *
 * Tokens are kept in nanoseconds of transmission time at the bucket's rate
 * (as sch_tbf does), so refilling is a subtraction of timestamps and only
 * the conversion of a packet's length needs a division.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/time64.h>

#include "bucket.h"
#include "testing.h"

/*
 * The most of its own lateness a bucket makes up for a packet that
 * waited: a release delayed past the bucket's depth (a stalled CPU,
 * softirq work ahead of it, a TCG vCPU descheduled: 10-40 ms measured)
 * would otherwise lose the tokens of the delay while the queue stood full.
 */
#define PACER_BUCKET_LATE_MAX_NS	(50 * NSEC_PER_MSEC)

/*
 * Up to this many bytes a charge is exact (pacer_bucket_charge()): their
 * bit-nanoseconds, 1.7e19, plus a carry below the highest rate, 1e13,
 * still fit in 64 bits.  No packet or claim comes near it.
 */
#define PACER_BUCKET_EXACT_LEN_MAX	BIT(31)

/**
 * pacer_len_to_ns() - time to send @len bytes at @rate
 * @rate: bits per second, not 0
 * @len: bytes
 *
 * Return: nanoseconds, rounded up so a bucket never runs fast.
 */
u64 pacer_len_to_ns(u64 rate, u32 len)
{
	/*
	 * U32_MAX bytes take 3.4e19 ns at 1 bit/s: the quotient would not
	 * fit in 64 bits (and x86's divq traps).  No class is that slow.
	 */
	return mul_u64_u64_div_u64((u64)len * BITS_PER_BYTE, NSEC_PER_SEC,
				   max_t(u64, rate, 2)) + 1;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_len_to_ns);

/**
 * pacer_ns_to_len() - bytes sent in @ns at @rate
 * @rate: bits per second
 * @ns: nanoseconds
 *
 * Return: bytes, saturated at U32_MAX.
 */
u64 pacer_ns_to_len(u64 rate, u64 ns)
{
	const u64 div = NSEC_PER_SEC * BITS_PER_BYTE;
	u64 len;

	/*
	 * When ns / div reaches U64_MAX / rate, rate * ns / div is at least
	 * U64_MAX - rate: far past the saturation, and a quotient divq
	 * could not hold.
	 */
	if (rate > div && div64_u64(ns, div) >= div64_u64(U64_MAX, rate))
		return U32_MAX;
	len = mul_u64_u64_div_u64(rate, ns, div);
	return min_t(u64, len, U32_MAX);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_ns_to_len);

/*
 * Tokens, time at @from, as the time the same bytes take at @to: what a
 * bucket has, or owes, stays the same in bytes across a change of rate.
 * Bytes past U32_MAX are past any bucket: the caller clamps to its depth.
 */
static s64 pacer_bucket_rescale(s64 tokens, u64 from, u64 to)
{
	u64 len;

	if (tokens >= 0) {
		len = pacer_ns_to_len(from, tokens);
		return len ? pacer_len_to_ns(to, len) : 0;
	}
	return -(s64)pacer_len_to_ns(to, pacer_ns_to_len(from, -tokens));
}

/**
 * pacer_bucket_config() - set a bucket's rate and size
 * @b: the bucket
 * @rate: bits per second, 0 for unlimited
 * @burst: bucket size in bytes
 * @now: current time, ktime ns
 *
 * A change keeps the bytes the bucket has, or owes (clamped to its new
 * size), so changing a class under traffic neither bursts nor stalls it:
 * kept as time, the 51 ms a 64 KiB GSO packet left a 10 Mbit/s bucket of
 * 1514 bytes owing stalled the class for 51 ms after a change to
 * 10 Gbit/s, where those bytes take 51 us.  A bucket that was unlimited
 * starts full.  A lateness not yet made up is forgotten.
 */
void pacer_bucket_config(struct pacer_bucket *b, u64 rate, u32 burst, u64 now)
{
	u64 old_rate = b->rate;

	b->rate = rate;
	b->carry = 0;
	WRITE_ONCE(b->due, 0);
	if (!rate)
		return;
	WRITE_ONCE(b->depth, pacer_len_to_ns(rate, burst));
	if (!old_rate) {
		WRITE_ONCE(b->tokens, b->depth);
		b->t_c = now;
		return;
	}
	if (old_rate != rate)
		WRITE_ONCE(b->tokens,
			   pacer_bucket_rescale(b->tokens, old_rate, rate));
	if (b->tokens > b->depth)
		WRITE_ONCE(b->tokens, b->depth);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_bucket_config);

/**
 * pacer_bucket_ready() - earliest time a packet of @len bytes may leave
 * @b: the bucket; its tokens are brought up to date to @now
 * @len: bytes the packet is charged
 * @now: current time, ktime ns
 * @waited: the caller releases a queue that was told to wait, rather
 *	than a packet that just arrived
 *
 * A packet larger than the bucket needs only a full bucket, so it still
 * leaves (and leaves the bucket in debt) instead of stalling the class.
 *
 * Tokens stop at the bucket's depth: what an idle class saved up.  But a
 * queue told to wait until some time, and released later than that, was
 * not idle: the bucket keeps the tokens of the delay past its depth (up to
 * PACER_BUCKET_LATE_MAX_NS), and the queue makes up its rate with them.
 * They stay until spent, or until the class is idle again
 * (pacer_bucket_idle()).
 *
 * Return: @now if the packet may leave now, else the time it may.
 */
u64 pacer_bucket_ready(struct pacer_bucket *b, u32 len, u64 now, bool waited)
{
	s64 cap = b->depth, need;

	if (!b->rate)
		return now;
	if (waited && b->due && now > b->due) {
		cap += min_t(u64, now - b->due, PACER_BUCKET_LATE_MAX_NS);
		WRITE_ONCE(b->due, 0);
	}
	if (now > b->t_c) {
		/* Never below what it has: lateness made up stays. */
		WRITE_ONCE(b->tokens,
			   max(b->tokens, min_t(s64, cap,
						b->tokens + (s64)(now - b->t_c))));
		b->t_c = now;
	}
	need = min_t(s64, pacer_len_to_ns(b->rate, len), b->depth);
	if (b->tokens >= need)
		return now;
	WRITE_ONCE(b->due, now + (need - b->tokens));
	return b->due;
}
EXPORT_SYMBOL_IF_KUNIT(pacer_bucket_ready);

/**
 * pacer_bucket_idle() - the class it shapes has nothing queued
 * @b: the bucket
 *
 * Nobody waits: lateness not yet made up is forgotten, and tokens kept
 * past the depth for it go, so that an idle class bursts its depth only.
 */
void pacer_bucket_idle(struct pacer_bucket *b)
{
	WRITE_ONCE(b->due, 0);
	if (b->rate && b->tokens > b->depth)
		WRITE_ONCE(b->tokens, b->depth);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_bucket_idle);

/**
 * pacer_bucket_owes() - whether pacer_bucket_idle() has anything to forget
 * @b: the bucket
 *
 * May be asked without the lock its owner keeps it under (the writers
 * store with WRITE_ONCE()): a bucket that never ran short of tokens then
 * goes idle without its cache line being written.
 *
 * Return: true if a packet was told to wait since the bucket was last
 * idle, or it keeps tokens past its depth.
 */
bool pacer_bucket_owes(const struct pacer_bucket *b)
{
	return READ_ONCE(b->due) || READ_ONCE(b->tokens) > READ_ONCE(b->depth);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_bucket_owes);

/**
 * pacer_bucket_avail() - bytes the bucket's tokens pay for now
 * @b: the bucket, brought up to date by pacer_bucket_ready()
 *
 * Return: bytes, 0 when it is in debt or empty.
 */
u32 pacer_bucket_avail(const struct pacer_bucket *b)
{
	if (b->tokens <= 0)
		return 0;
	return pacer_ns_to_len(b->rate, b->tokens);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_bucket_avail);

/**
 * pacer_bucket_charge() - take a packet's tokens after it was let go
 * @b: the bucket, brought up to date by pacer_bucket_ready()
 * @len: bytes the packet is charged
 *
 * Exactly what @len bytes take at the bucket's rate, whole nanoseconds
 * now and the fraction with a later packet: rounded up per packet, a
 * 64-byte frame (5.12 ns at 100 Gbit/s) would be charged 6 ns, and a
 * bucket charged frame by frame (a ceiling) would run 15 % slow.
 * pacer_bucket_ready() still rounds up what a packet needs, so none
 * leaves early.
 */
void pacer_bucket_charge(struct pacer_bucket *b, u32 len)
{
	u64 ns;

	if (!b->rate)
		return;
	if (len < PACER_BUCKET_EXACT_LEN_MAX) {
		ns = div64_u64_rem((u64)len * BITS_PER_BYTE * NSEC_PER_SEC +
				   b->carry, b->rate, &b->carry);
	} else {
		ns = pacer_len_to_ns(b->rate, len);
		b->carry = 0;
	}
	WRITE_ONCE(b->tokens, b->tokens - ns);
}
EXPORT_SYMBOL_IF_KUNIT(pacer_bucket_charge);
