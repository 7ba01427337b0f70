// SPDX-License-Identifier: GPL-2.0
/*
 * nl_fuzz: random and malformed requests over every command of the pacer
 * generic netlink family.
 *
 * Usage: nl_fuzz [-u] [-v] [-s SEED] [-n COUNT] IFNAME
 *
 * Sends COUNT requests (default 50000), drawn by a PRNG seeded with SEED
 * (default 1, so that a run can be replayed), spread over every command of
 * the family, PACER_CMD_DEV_SET included whether or not the module
 * implements it, and a few over command numbers the family lacks:
 *
 *  - valid-looking requests with random values: class ids, rates up to
 *    U64_MAX, bursts, ceilings, limits, targets, overheads, names, rule
 *    prefs, families, prefixes of any length with plen 0-255, ports,
 *    marks, device caps;
 *  - the same, mutated: attributes of the wrong size, unknown and
 *    reply-only attribute types, duplicates, NLA_F_NESTED missing or where
 *    it does not belong, an nla_len cut short or running past its parent,
 *    nests of garbage, required attributes left out, the dump flag on
 *    do-only commands and not on dump-only ones, reserved flag bits and
 *    genl header bytes, random genl versions, another device than IFNAME
 *    (lo, ifindexes and names that do not exist, names too long or not
 *    terminated, an ifindex and a name that disagree), a message cut short;
 *  - framing the kernel skips: no NLM_F_REQUEST, control message types,
 *    nlmsg_len below the header or past the bytes sent.
 *
 * Every message goes to the pacer family or is a control message: random
 * bytes never become a header another family would act on, and the
 * ifindexes drawn at random never name another pacer device.
 *
 * After each request it reads, non-blocking and for at most GENL_WAIT_MS
 * (10 s), until the request's ACK, error or NLMSG_DONE (a dump is read to
 * its end); a request that may rightly get no answer is followed by an
 * NLMSG_NOOP with NLM_F_ACK, whose ACK ends the wait.  The outcome of each
 * request that reached the family is counted per command: ok (ACK, reply
 * or complete dump), silent (no answer: success without a reply,
 * NLM_F_ACK unset), each errno, timeout.  Every CLEAN_EVERY requests and
 * at the end, the rules and classes of the device are dumped and deleted
 * and its caps restored; at the end class 0 gets back its configuration of
 * the start.
 *
 * TAP tests:
 *  - every message was sent, over all 10 commands;
 *  - per command: no request went unanswered (timeout) or lost its answer
 *    (ENOBUFS); as root, every implemented command succeeded at least once
 *    (a command whose every well-formed request got EOPNOTSUPP is reported
 *    as not implemented); with -u, no mutating command ever succeeded,
 *    each implemented one was refused with EPERM, and the reads succeeded;
 *  - no command number outside the uapi ever succeeded;
 *  - as root: the device is left with class 0 alone, as configured before
 *    the run, no rule, and its caps as before;
 *  - the device still answers a valid DEV_GET, and as root a CLASS_NEW +
 *    CLASS_DEL round trip works (with -u: the class dump works and
 *    CLASS_NEW fails with EPERM).
 * The distinct extack messages met are listed, with their counts, as TAP
 * comments: they show how deep the requests got.
 *
 * -u: unprivileged mode (a user without CAP_NET_ADMIN over the device's
 *     namespace); nothing is cleaned up, there is nothing to clean.
 * -v: print every message (hex) before sending it, to find the one that
 *     trips the kernel: rerun with the same -s and -n up to the suspect.
 *
 * Exit: 0 if every TAP test passed, 1 otherwise, 2 on usage or setup
 * errors, 4 (KSFT_SKIP) if the family is not registered.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>

#include "genl_raw.h"
#include "ksft.h"

#define MAX_TIMEOUTS	10	/* then the kernel is stuck: stop */
#define CLEAN_EVERY	1000
#define MAX_OBJS	4096	/* ids or prefs collected from one dump */
#define N_ERRNO		256
#define N_ROWS		(PACER_CMD_MAX + 2)
#define ROW_OTHER	(PACER_CMD_MAX + 1)	/* commands the uapi lacks */
#define N_KNOWN		16
#define N_EXTACK	96
#define AF_INET_	2
#define AF_INET6_	10
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct row {
	unsigned int sent;
	unsigned int skipped;	/* netlink never passed them to genl */
	unsigned int reached;
	unsigned int ok, silent, timeout, overrun, send_err;
	unsigned int errs[N_ERRNO];
	unsigned int valid, valid_eopnotsupp;	/* well-formed requests */
	unsigned long objects;
	unsigned long long us;	/* time from send to the end of the answer */
};

/* Mutation rates for the message being built, in percent. */
struct knobs {
	unsigned int wrong_size;
	unsigned int unknown;
	unsigned int dup;
	unsigned int type_flags;
	unsigned int no_nested_flag;
	unsigned int drop;
};

/* The parts of a class's configuration a CLASS_SET can restore. */
struct class_cfg {
	bool found;
	bool has_name;
	char name[PACER_CLASS_NAME_LEN + 1];
	uint64_t rate, ceil;
	uint32_t burst, limit_us, limit_bytes, target_us, rtt_us, mpu;
	int32_t overhead;
};

static const char *ifname;
static uint32_t ifindex;
static bool unpriv, verbose;
static uint64_t rng;
static struct knobs kn;
static struct row rows[N_ROWS];
static unsigned long timeouts_total;

/* Other pacer devices of the namespace: never named at random. */
static uint32_t pacer_ifindex[64];
static char pacer_name[64][IFNAMSIZ];
static int n_pacer;

/* Class ids and rule prefs that exist (or did): good targets. */
static uint16_t known_class[N_KNOWN];
static uint32_t known_pref[N_KNOWN];
static unsigned int n_known_class, n_known_pref, next_class, next_pref;

/* The extack messages met, and how often. */
static struct extack_count {
	char text[GENL_EXTACK_MAX];
	unsigned int count;
} extack[N_EXTACK];
static int n_extack;

/* ------------------------------------------------------------- output */

static const char *row_name(int row)
{
	return row == ROW_OTHER ? "other commands (0, > PACER_CMD_MAX)" :
				  pacer_cmd_names[row];
}

static const char *errname(int err)
{
	static char buf[16];

	switch (err) {
	case 0: return "0";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	case EINTR: return "EINTR";
	case ENOMEM: return "ENOMEM";
	case EBUSY: return "EBUSY";
	case EEXIST: return "EEXIST";
	case ENODEV: return "ENODEV";
	case EINVAL: return "EINVAL";
	case ENOSPC: return "ENOSPC";
	case ERANGE: return "ERANGE";
	case E2BIG: return "E2BIG";
	case EMSGSIZE: return "EMSGSIZE";
	case EAFNOSUPPORT: return "EAFNOSUPPORT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOBUFS: return "ENOBUFS";
	case EOVERFLOW: return "EOVERFLOW";
	}
	snprintf(buf, sizeof(buf), "E%d", err);
	return buf;
}

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static long long now_ms(void)
{
	return now_us() / 1000;
}

/* ---------------------------------------------------------------- PRNG */

/* xorshift64*: fast, and the same sequence on every libc. */
static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static uint32_t below(uint32_t n)
{
	return n ? rnd() % n : 0;
}

static bool chance(unsigned int pct)
{
	return below(100) < pct;
}

#define PICK(a)	((a)[below(ARRAY_SIZE(a))])

static void rnd_bytes(void *p, size_t len)
{
	uint8_t *b = p;

	while (len--)
		*b++ = rnd();
}

/* ------------------------------------------------------- message build */

/* A nest, as the build knobs say: sometimes without NLA_F_NESTED. */
static int nest_start(struct genl_msg *m, uint16_t type)
{
	if (!chance(kn.no_nested_flag))
		type |= NLA_F_NESTED;
	return nla_put(m, type, NULL, 0);
}

static void put_garbage(struct genl_msg *m, int depth);

/* An unknown or out-of-place attribute, at any level. */
static void put_unknown(struct genl_msg *m, int maxtype)
{
	static const uint16_t types[] = { 0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 16,
		17, 18, 19, 20, 31, 255, 1024, 0x3fff };
	uint16_t type = chance(50) ? (uint16_t)(maxtype + 1 + below(4)) :
				     PICK(types);
	uint8_t junk[20];
	size_t len = PICK(((const uint8_t []){ 0, 1, 2, 4, 8, 16, 20 }));

	if (chance(20)) {
		int nest = nla_nest_start(m, type);

		put_garbage(m, 3);
		nla_nest_end(m, nest);
		return;
	}
	rnd_bytes(junk, len);
	nla_put(m, type, junk, len);
}

/*
 * A scalar attribute, as the build knobs say: sometimes of the wrong size,
 * with a flag bit in its type, twice, or followed by a stranger.
 */
static void put_val(struct genl_msg *m, uint16_t type, const void *data,
		    size_t len, int maxtype)
{
	static const uint8_t sizes[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12,
		15, 16, 17, 20, 24 };
	uint8_t junk[24];

	if (chance(kn.type_flags))
		type |= chance(50) ? NLA_F_NET_BYTEORDER : NLA_F_NESTED;
	if (chance(kn.wrong_size)) {
		size_t n = PICK(sizes);

		rnd_bytes(junk, n);
		memcpy(junk, data, n < len ? n : len);
		nla_put(m, type, junk, n);
	} else {
		nla_put(m, type, data, len);
	}
	if (chance(kn.dup))
		nla_put(m, type, data, len);
	if (chance(kn.unknown))
		put_unknown(m, maxtype);
}

static void val_u8(struct genl_msg *m, uint16_t type, uint8_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

static void val_u16(struct genl_msg *m, uint16_t type, uint16_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

static void val_u32(struct genl_msg *m, uint16_t type, uint32_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

static void val_u64(struct genl_msg *m, uint16_t type, uint64_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

/* Random attributes, nests of them down to @depth, random payloads. */
static void put_garbage(struct genl_msg *m, int depth)
{
	int n = below(8), i;
	uint8_t junk[32];

	for (i = 0; i < n; i++) {
		uint16_t type = below(chance(80) ? 24 : 0x4000);
		size_t len;

		if (chance(10))
			type |= NLA_F_NET_BYTEORDER;
		if (depth > 0 && chance(30)) {
			uint16_t nested = chance(80) ? NLA_F_NESTED : 0;
			int nest = nla_put(m, type | nested, NULL, 0);

			put_garbage(m, depth - 1);
			nla_nest_end(m, nest);
			continue;
		}
		len = below(sizeof(junk) + 1);
		rnd_bytes(junk, len);
		nla_put(m, type, junk, len);
	}
}

/* ------------------------------------------------------- random values */

static uint64_t gen_u64_edge(void)
{
	static const uint64_t v[] = { 0, 1, 999, 1000, 1001, 8000, 1000000,
		10000000000000ULL, 10000000000001ULL, 1ULL << 32,
		(1ULL << 32) - 1, 1ULL << 63, UINT64_MAX - 1, UINT64_MAX };

	return chance(80) ? PICK(v) : rnd();
}

static uint32_t gen_u32_edge(void)
{
	static const uint32_t v[] = { 0, 1, 2, 127, 128, 1023, 1024, 1025,
		1500, 4096, 4097, 65535, 65536, 131072, 1000000, 1000001,
		10000000, 10000001, 1U << 30, (1U << 30) + 1, 0x7fffffff,
		0x80000000, UINT32_MAX - 1, UINT32_MAX };

	return chance(80) ? PICK(v) : (uint32_t)rnd();
}

static uint16_t gen_class_id(void)
{
	static const uint16_t edge[] = { 0, 1, 255, 256, 32767, 32768,
		65534, 65535 };
	unsigned int r = below(100);

	if (r < 15 && n_known_class)
		return known_class[below(n_known_class)];
	if (r < 60)
		return below(8);
	if (r < 75)
		return 8 + below(24);
	if (r < 90)
		return rnd();
	return PICK(edge);
}

static uint64_t gen_rate(void)
{
	unsigned int r = below(100);

	if (r < 50)
		return 1000 + rnd() % 10000000000ULL;	/* 1kbit to 10gbit */
	if (r < 60)
		return 0;
	if (r < 90)
		return gen_u64_edge();
	return rnd();
}

static uint32_t gen_burst(void)
{
	unsigned int r = below(100);

	if (r < 40)
		return 0;
	if (r < 70)
		return 1500 + below(4 << 20);
	return gen_u32_edge();
}

static uint32_t gen_in(uint32_t lo, uint32_t hi)
{
	return chance(70) ? lo + below(hi - lo + 1) : gen_u32_edge();
}

static int32_t gen_overhead(void)
{
	static const int32_t edge[] = { -65, -64, -1, 0, 1, 255, 256, 257,
		INT32_MIN, INT32_MAX };

	return chance(70) ? -64 + (int32_t)below(321) : PICK(edge);
}

static void gen_name(char *buf, size_t size, size_t maxlen)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyz0123456789-_.";
	size_t len = below(maxlen + 1), i;

	if (len >= size)
		len = size - 1;
	for (i = 0; i < len; i++)
		buf[i] = chars[below(sizeof(chars) - 1)];
	buf[len] = '\0';
}

static bool is_pacer_ifindex(uint32_t idx)
{
	int i;

	for (i = 0; i < n_pacer; i++)
		if (pacer_ifindex[i] == idx)
			return true;
	return false;
}

static bool is_pacer_name(const char *name)
{
	int i;

	for (i = 0; i < n_pacer; i++)
		if (!strcmp(pacer_name[i], name))
			return true;
	return false;
}

/* Any ifindex but a pacer device's: lo, veths, nothing at all. */
static uint32_t gen_other_ifindex(void)
{
	int tries;

	for (tries = 0; tries < 8; tries++) {
		uint32_t idx = chance(60) ? 1 + below(64) : (uint32_t)rnd();

		if (idx && !is_pacer_ifindex(idx))
			return idx;
	}
	return 1;	/* lo */
}

/* ------------------------------------------------------ request bodies */

/* Which device the request names: mostly IFNAME's, sometimes another. */
static void put_dev(struct genl_msg *m)
{
	char name[40];
	unsigned int r = below(100);

	if (r < 45) {
		nla_put_string(m, PACER_A_IFNAME, ifname);
		return;
	}
	if (r < 75) {
		nla_put_u32(m, PACER_A_IFINDEX, ifindex);
		return;
	}
	if (r < 85) {
		if (chance(50)) {
			nla_put_string(m, PACER_A_IFNAME, ifname);
			nla_put_u32(m, PACER_A_IFINDEX, ifindex);
		} else {
			nla_put_u32(m, PACER_A_IFINDEX, ifindex);
			nla_put_string(m, PACER_A_IFNAME, ifname);
		}
		return;
	}
	switch (below(10)) {
	case 0:
		break;		/* no device at all */
	case 1:
		nla_put_u32(m, PACER_A_IFINDEX, 1);
		break;
	case 2:
		nla_put_u32(m, PACER_A_IFINDEX, gen_other_ifindex());
		break;
	case 3:
		nla_put_u32(m, PACER_A_IFINDEX, 0);
		break;
	case 4:
		nla_put_string(m, PACER_A_IFNAME, "lo");
		break;
	case 5:
		do
			gen_name(name, IFNAMSIZ, IFNAMSIZ - 1);
		while (is_pacer_name(name));
		nla_put_string(m, PACER_A_IFNAME, name);
		break;
	case 6:
		gen_name(name, sizeof(name), 24);
		if (strlen(name) < IFNAMSIZ)
			strcat(name, "0123456789abcdef");
		nla_put_string(m, PACER_A_IFNAME, name);
		break;
	case 7:
		/* Not NUL-terminated: the name's bytes alone. */
		nla_put(m, PACER_A_IFNAME, ifname, strlen(ifname));
		break;
	case 8:
		nla_put_string(m, PACER_A_IFNAME, ifname);
		nla_put_u32(m, PACER_A_IFINDEX, gen_other_ifindex());
		break;
	default:
		nla_put_string(m, PACER_A_IFNAME, "");
		break;
	}
}

/* A class nest: the id (usually) and, for NEW/SET, any configuration. */
static void put_class(struct genl_msg *m, bool cfg)
{
	int nest = nest_start(m, PACER_A_CLASS);
	int max = PACER_CLASS_A_MAX;
	char name[24];
	unsigned int p = cfg ? 40 : 5;

	if (!chance(kn.drop + 5))
		val_u16(m, PACER_CLASS_A_ID, gen_class_id(), max);
	if (chance(p)) {
		gen_name(name, sizeof(name), 20);
		if (chance(10))
			nla_put(m, PACER_CLASS_A_NAME, name, strlen(name));
		else
			nla_put_string(m, PACER_CLASS_A_NAME, name);
	}
	if (chance(p))
		val_u64(m, PACER_CLASS_A_RATE, gen_rate(), max);
	if (chance(p))
		val_u32(m, PACER_CLASS_A_BURST, gen_burst(), max);
	if (chance(p / 2))
		val_u64(m, PACER_CLASS_A_CEIL,
			chance(50) ? gen_rate() : gen_u64_edge(), max);
	if (chance(p / 2))
		val_u32(m, PACER_CLASS_A_LIMIT_US, gen_in(1, 10000000), max);
	if (chance(p / 2))
		val_u32(m, PACER_CLASS_A_LIMIT_BYTES,
			gen_in(1024, 1U << 30), max);
	if (chance(p / 2))
		val_u32(m, PACER_CLASS_A_TARGET_US, gen_in(1, 1000000), max);
	if (chance(p / 2))
		val_u32(m, PACER_CLASS_A_RTT_US, gen_in(1, 10000000), max);
	if (chance(p / 2))
		val_u32(m, PACER_CLASS_A_OVERHEAD, gen_overhead(), max);
	if (chance(p / 2))
		val_u32(m, PACER_CLASS_A_MPU, gen_in(0, 4096), max);
	if (chance(kn.unknown))
		val_u64(m, chance(50) ? PACER_CLASS_A_STATS : PACER_CLASS_A_PAD,
			rnd(), max);
	nla_nest_end(m, nest);
}

static void put_prefix(struct genl_msg *m, uint16_t addr_type,
		       uint16_t plen_type, uint8_t family)
{
	static const uint8_t bad_len[] = { 0, 1, 3, 5, 8, 15, 17, 20 };
	size_t alen = family == AF_INET_ ? 4 : 16;
	uint8_t addr[20];

	if (chance(10))
		alen = family == AF_INET_ ? 16 : 4;
	if (chance(5))
		alen = PICK(bad_len);
	rnd_bytes(addr, sizeof(addr));
	if (chance(50))
		addr[0] = family == AF_INET_ ? 10 : 0xfd;
	nla_put(m, addr_type, addr, alen);
	if (chance(75))
		val_u8(m, plen_type, chance(70) ? below(alen * 8 + 1) : rnd(),
		       PACER_RULE_A_MAX);
}

static uint32_t gen_pref(void)
{
	unsigned int r = below(100);

	if (r < 25 && n_known_pref)
		return known_pref[below(n_known_pref)];
	if (r < 75)
		return 1 + below(32);
	if (r < 90)
		return PICK(((const uint32_t []){ 0, 1, 2, 1000, UINT32_MAX - 1,
						 UINT32_MAX }));
	return rnd();
}

/* A rule nest; @match: the criteria of RULE_NEW, else the pref alone. */
static void put_rule(struct genl_msg *m, bool match)
{
	int nest = nest_start(m, PACER_A_RULE);
	int max = PACER_RULE_A_MAX;
	uint8_t family = 0;
	unsigned int p = match ? 35 : 5;

	if (match ? chance(50) : !chance(kn.drop + 5))
		val_u32(m, PACER_RULE_A_PREF, gen_pref(), max);
	if (match ? !chance(kn.drop + 5) : chance(p))
		val_u16(m, PACER_RULE_A_CLASS, gen_class_id(), max);
	if (chance(p + 25)) {
		family = chance(90) ? (chance(50) ? AF_INET_ : AF_INET6_) :
				      (uint8_t)rnd();
		val_u8(m, PACER_RULE_A_FAMILY, family, max);
	}
	if (chance(p))
		put_prefix(m, PACER_RULE_A_SRC, PACER_RULE_A_SRC_PLEN, family);
	if (chance(p))
		put_prefix(m, PACER_RULE_A_DST, PACER_RULE_A_DST_PLEN, family);
	if (chance(5))	/* a prefix length without its address */
		val_u8(m, PACER_RULE_A_DST_PLEN, rnd(), max);
	if (chance(p))
		val_u8(m, PACER_RULE_A_PROTO,
		       chance(70) ? PICK(((const uint8_t []){ 1, 6, 17, 58 })) :
				    (uint8_t)rnd(), max);
	if (chance(p)) {
		uint16_t lo = rnd();

		val_u16(m, PACER_RULE_A_SPORT_MIN, lo, max);
		if (chance(70))
			val_u16(m, PACER_RULE_A_SPORT_MAX,
				chance(80) ? lo + below(65536 - lo) :
					     (uint16_t)rnd(), max);
	}
	if (chance(p)) {
		uint16_t lo = rnd();

		if (chance(90))
			val_u16(m, PACER_RULE_A_DPORT_MIN, lo, max);
		if (chance(70))
			val_u16(m, PACER_RULE_A_DPORT_MAX,
				chance(80) ? lo + below(65536 - lo) :
					     (uint16_t)rnd(), max);
	}
	if (chance(p)) {
		uint32_t mask = chance(50) ? gen_u32_edge() : UINT32_MAX;
		uint32_t mark = rnd();

		if (chance(80))
			mark &= mask;
		if (chance(95))
			val_u32(m, PACER_RULE_A_MARK, mark, max);
		if (chance(50))
			val_u32(m, PACER_RULE_A_MARK_MASK, mask, max);
	}
	if (chance(p))
		val_u32(m, PACER_RULE_A_PRIO,
			chance(50) ? below(8) : gen_u32_edge(), max);
	if (chance(kn.unknown))
		val_u64(m, chance(50) ? PACER_RULE_A_MATCHES : PACER_RULE_A_PAD,
			rnd(), max);
	nla_nest_end(m, nest);
}

static bool is_dump_cmd(int cmd)
{
	return cmd == PACER_CMD_DEV_GET || cmd == PACER_CMD_CLASS_GET ||
	       cmd == PACER_CMD_RULE_GET;
}

static bool is_mutating(int cmd)
{
	return cmd != PACER_CMD_DEV_GET && cmd != PACER_CMD_CLASS_GET &&
	       cmd != PACER_CMD_RULE_GET && cmd != ROW_OTHER;
}

/* The attributes of a request for @cmd, as the knobs say. */
static void build_body(struct genl_msg *m, int cmd, bool dump)
{
	int max = PACER_A_MAX;

	/* A DEV_GET dump needs no device; the other dumps do. */
	if (!chance(kn.drop) &&
	    (cmd != PACER_CMD_DEV_GET || !dump || chance(30)))
		put_dev(m);
	switch (cmd) {
	case PACER_CMD_DEV_GET:
		break;
	case PACER_CMD_CLASS_NEW:
	case PACER_CMD_CLASS_SET:
		if (!chance(kn.drop))
			put_class(m, true);
		break;
	case PACER_CMD_CLASS_DEL:
	case PACER_CMD_CLASS_GET:
		if (!dump ? !chance(kn.drop) : chance(20))
			put_class(m, false);
		break;
	case PACER_CMD_RULE_NEW:
		if (!chance(kn.drop))
			put_rule(m, true);
		break;
	case PACER_CMD_RULE_DEL:
		if (!chance(kn.drop))
			put_rule(m, false);
		break;
	case PACER_CMD_RULE_GET:
		if (chance(20))
			put_rule(m, chance(50));
		break;
	case PACER_CMD_STATS_RESET:
		if (chance(50))
			put_class(m, false);
		break;
	case PACER_CMD_DEV_SET:
		if (chance(60))
			val_u32(m, PACER_A_MAX_CLASSES, gen_u32_edge(), max);
		if (chance(60))
			val_u32(m, PACER_A_MAX_RULES, gen_u32_edge(), max);
		break;
	default:
		put_garbage(m, 2);
		break;
	}
	if (chance(kn.unknown))
		put_unknown(m, max);
	if (chance(kn.unknown / 2))
		val_u32(m, PICK(((const uint16_t []){ PACER_A_CLASSES,
			PACER_A_RULES, PACER_A_DEV_STATS, PACER_A_PAD,
			PACER_A_MAX_CLASSES, PACER_A_MAX_RULES })),
			gen_u32_edge(), max);
}

/* Give one attribute a length that lies: short, odd, or past its parent. */
static void corrupt_attr_len(struct genl_msg *m)
{
	struct nlattr *nla;
	uint16_t len;

	if (!m->n_attrs)
		return;
	nla = (struct nlattr *)(m->u.data + m->attr_off[below(m->n_attrs)]);
	len = nla->nla_len;
	switch (below(8)) {
	case 0:
		len = 0;
		break;
	case 1:
		len = 1 + below(3);
		break;
	case 2:
		len = NLA_HDRLEN;
		break;
	case 3:
		len = len > NLA_HDRLEN ? len - 1 : len + 1;
		break;
	case 4:
		len += 1 + below(3);
		break;
	case 5:
		len += 4 * (1 + below(16));
		break;
	case 6:
		len = 0xffff;
		break;
	default:
		len = rnd();
		break;
	}
	nla->nla_len = len;
}

/* A nest whose payload is raw bytes rather than attributes. */
static void put_raw_nest(struct genl_msg *m)
{
	static const uint16_t types[] = { PACER_A_CLASS, PACER_A_RULE,
		PACER_A_DEV_STATS, PACER_A_IFNAME };
	uint8_t junk[40];
	size_t len = below(sizeof(junk) + 1);

	rnd_bytes(junk, len);
	nla_put(m, PICK(types) | (chance(70) ? NLA_F_NESTED : 0), junk, len);
}

enum mode { MODE_VALID, MODE_MUTATED, MODE_GARBAGE, MODE_FRAME };

/*
 * Build the next request: its command (*@row: its line in the report),
 * flags, body and mutations.  Returns the bytes to send; *@mode tells how
 * it was made.
 */
static size_t build(struct genl_msg *m, int *row, enum mode *mode)
{
	uint16_t flags = NLM_F_REQUEST | (chance(80) ? NLM_F_ACK : 0);
	unsigned int r = below(100);
	int cmd = 1 + below(PACER_CMD_MAX);
	struct genlmsghdr *g;
	size_t len;
	bool dump;

	*row = cmd;
	if (chance(4)) {
		*row = ROW_OTHER;
		cmd = chance(20) ? 0 : PACER_CMD_MAX + 1 + below(255 - PACER_CMD_MAX);
	}
	*mode = r < 45 ? MODE_VALID : r < 80 ? MODE_MUTATED :
		r < 93 ? MODE_GARBAGE : MODE_FRAME;
	memset(&kn, 0, sizeof(kn));
	if (*mode == MODE_MUTATED) {
		kn.wrong_size = 8;
		kn.unknown = 8;
		kn.dup = 5;
		kn.type_flags = 4;
		kn.no_nested_flag = 8;
		kn.drop = 8;
	}

	dump = cmd == PACER_CMD_RULE_GET ? chance(90) :
	       is_dump_cmd(cmd) ? chance(50) : false;
	if (dump)
		flags |= NLM_F_DUMP;
	genl_msg_init(m, pacer_family, flags, cmd);
	g = NLMSG_DATA(&m->u.nlh);

	if (*mode == MODE_GARBAGE) {
		if (chance(60))
			put_dev(m);
		if (chance(30))
			put_raw_nest(m);
		else
			put_garbage(m, 5);
	} else {
		build_body(m, cmd, dump);
	}
	len = m->u.nlh.nlmsg_len;

	if (*mode == MODE_MUTATED) {
		if (chance(25))
			corrupt_attr_len(m);
		if (chance(10))
			put_raw_nest(m);
		if (chance(8))
			m->u.nlh.nlmsg_flags ^= NLM_F_DUMP;
		if (chance(5))
			m->u.nlh.nlmsg_flags |= PICK(((const uint16_t []){
				NLM_F_ROOT, NLM_F_MATCH, NLM_F_ATOMIC,
				NLM_F_ECHO, NLM_F_MULTI, 0x20, 0x800,
				0x8000 }));
		if (chance(3))
			g->reserved = rnd();
		len = m->u.nlh.nlmsg_len;
		if (chance(8) && len > NLMSG_HDRLEN + 1) {
			/*
			 * Cut short: the last attribute overruns the end.
			 * Only the announced bytes go: what follows must not
			 * be read as another message.
			 */
			m->u.nlh.nlmsg_len = NLMSG_HDRLEN +
				below(len - NLMSG_HDRLEN);
			len = NLMSG_ALIGN(m->u.nlh.nlmsg_len);
		}
	}
	if (chance(10))
		g->version = rnd();

	if (*mode == MODE_FRAME) {
		switch (below(5)) {
		case 0:
			m->u.nlh.nlmsg_flags &= ~NLM_F_REQUEST;
			break;
		case 1:
			m->u.nlh.nlmsg_type = below(NLMSG_MIN_TYPE);
			break;
		case 2:
			m->u.nlh.nlmsg_len = below(NLMSG_HDRLEN);
			break;
		case 3:
			m->u.nlh.nlmsg_len = len + 1 + below(64);
			break;
		default:
			/* Reaches genl, shorter than its header. */
			m->u.nlh.nlmsg_len = NLMSG_HDRLEN + below(GENL_HDRLEN);
			len = NLMSG_ALIGN(m->u.nlh.nlmsg_len);
			break;
		}
	}
	return len;
}

/* Would netlink pass the message to genl (and so to pacer)? */
static bool reaches_family(const struct genl_msg *m, size_t len)
{
	const struct nlmsghdr *nlh = &m->u.nlh;

	return (nlh->nlmsg_flags & NLM_F_REQUEST) &&
	       nlh->nlmsg_type >= NLMSG_MIN_TYPE &&
	       nlh->nlmsg_len >= NLMSG_HDRLEN && nlh->nlmsg_len <= len;
}

/* ------------------------------------------------------------- answers */

static void note_extack(const char *text)
{
	int i;

	if (!*text)
		return;
	for (i = 0; i < n_extack; i++) {
		if (!strcmp(extack[i].text, text)) {
			extack[i].count++;
			return;
		}
	}
	if (n_extack < N_EXTACK) {
		snprintf(extack[n_extack].text, sizeof(extack[0].text), "%s",
			 text);
		extack[n_extack++].count = 1;
	}
}

/* Replies to the fuzz: remember the classes and rules that now exist. */
static void note_created(const struct nlmsghdr *nlh, void *arg)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	uint16_t id;
	uint32_t pref;

	(void)arg;
	if (nlh->nlmsg_type != pacer_family ||
	    nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return;
	if (g->cmd == PACER_CMD_CLASS_NEW &&
	    nla_get(genl_nest_attr(nlh, PACER_A_CLASS, PACER_CLASS_A_ID),
		    &id)) {
		known_class[next_class++ % N_KNOWN] = id;
		if (n_known_class < N_KNOWN)
			n_known_class++;
	}
	if (g->cmd == PACER_CMD_RULE_NEW &&
	    nla_get(genl_nest_attr(nlh, PACER_A_RULE, PACER_RULE_A_PREF),
		    &pref)) {
		known_pref[next_pref++ % N_KNOWN] = pref;
		if (n_known_pref < N_KNOWN)
			n_known_pref++;
	}
}

/* ---------------------------------------------------- setup, cleanup */

struct dev_info {
	uint32_t ifindex;
	bool has_caps;
	uint32_t max_classes, max_rules;
};

static void dev_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct dev_info *d = arg;

	if (nlh->nlmsg_type != pacer_family)
		return;
	nla_get(genl_attr(nlh, PACER_A_IFINDEX), &d->ifindex);
	d->has_caps = nla_get(genl_attr(nlh, PACER_A_MAX_CLASSES),
			      &d->max_classes) &&
		      nla_get(genl_attr(nlh, PACER_A_MAX_RULES), &d->max_rules);
}

static int dev_get(struct dev_info *d, struct genl_answer *a)
{
	struct genl_msg m;

	memset(d, 0, sizeof(*d));
	pacer_req(&m, PACER_CMD_DEV_GET, 0, ifname);
	genl_transact(&m, a, dev_reply, d);
	return a->error;
}

/* Every pacer device of the namespace, by DEV_GET dump. */
static void pacer_list(const struct nlmsghdr *nlh, void *arg)
{
	(void)arg;
	if (nlh->nlmsg_type != pacer_family || n_pacer >= 64)
		return;
	nla_get(genl_attr(nlh, PACER_A_IFINDEX), &pacer_ifindex[n_pacer]);
	nla_get_str(genl_attr(nlh, PACER_A_IFNAME), pacer_name[n_pacer],
		    IFNAMSIZ);
	n_pacer++;
}

static void list_pacers(void)
{
	struct genl_answer a;
	struct genl_msg m;

	genl_msg_init(&m, pacer_family, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP,
		      PACER_CMD_DEV_GET);
	genl_transact(&m, &a, pacer_list, NULL);
	if (a.error)
		ksft_fatal(0, "DEV_GET dump: %s (%s)", errname(-a.error),
			   a.msg);
}

struct id_list {
	unsigned int n;
	uint32_t v[MAX_OBJS];
};

static void collect_class(const struct nlmsghdr *nlh, void *arg)
{
	struct id_list *l = arg;
	uint16_t id;

	if (l->n < MAX_OBJS &&
	    nla_get(genl_nest_attr(nlh, PACER_A_CLASS, PACER_CLASS_A_ID), &id))
		l->v[l->n++] = id;
}

static void collect_rule(const struct nlmsghdr *nlh, void *arg)
{
	struct id_list *l = arg;
	uint32_t pref;

	if (l->n < MAX_OBJS &&
	    nla_get(genl_nest_attr(nlh, PACER_A_RULE, PACER_RULE_A_PREF),
		    &pref))
		l->v[l->n++] = pref;
}

static int dump(uint8_t cmd, genl_obj_fn fn, struct id_list *l)
{
	struct genl_answer a;
	struct genl_msg m;

	l->n = 0;
	pacer_req(&m, cmd, NLM_F_DUMP, ifname);
	genl_transact(&m, &a, fn, l);
	return a.error;
}

static void class_cfg_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct class_cfg *c = arg;

	if (nlh->nlmsg_type != pacer_family)
		return;
	memset(c, 0, sizeof(*c));
	c->found = true;
#define CA(t) genl_nest_attr(nlh, PACER_A_CLASS, PACER_CLASS_A_##t)
	c->has_name = nla_get_str(CA(NAME), c->name, sizeof(c->name));
	nla_get(CA(RATE), &c->rate);
	nla_get(CA(CEIL), &c->ceil);
	nla_get(CA(BURST), &c->burst);
	nla_get(CA(LIMIT_US), &c->limit_us);
	nla_get(CA(LIMIT_BYTES), &c->limit_bytes);
	nla_get(CA(TARGET_US), &c->target_us);
	nla_get(CA(RTT_US), &c->rtt_us);
	nla_get(CA(MPU), &c->mpu);
	nla_get(CA(OVERHEAD), &c->overhead);
#undef CA
}

static int class0_get(struct class_cfg *c)
{
	struct genl_answer a;
	struct genl_msg m;
	int nest;

	memset(c, 0, sizeof(*c));
	pacer_req(&m, PACER_CMD_CLASS_GET, 0, ifname);
	nest = pacer_class_nest(&m, PACER_CLASS_DEFAULT);
	nla_nest_end(&m, nest);
	genl_transact(&m, &a, class_cfg_reply, c);
	return a.error;
}

static int class0_set(const struct class_cfg *c)
{
	struct genl_answer a;
	struct genl_msg m;
	int nest;

	pacer_req(&m, PACER_CMD_CLASS_SET, 0, ifname);
	nest = pacer_class_nest(&m, PACER_CLASS_DEFAULT);
	nla_put_string(&m, PACER_CLASS_A_NAME, c->has_name ? c->name : "");
	nla_put_u64(&m, PACER_CLASS_A_RATE, c->rate);
	nla_put_u32(&m, PACER_CLASS_A_BURST, c->burst);
	nla_put_u64(&m, PACER_CLASS_A_CEIL, c->ceil);
	if (c->limit_bytes)
		nla_put_u32(&m, PACER_CLASS_A_LIMIT_BYTES, c->limit_bytes);
	else
		nla_put_u32(&m, PACER_CLASS_A_LIMIT_US, c->limit_us);
	nla_put_u32(&m, PACER_CLASS_A_TARGET_US, c->target_us);
	nla_put_u32(&m, PACER_CLASS_A_RTT_US, c->rtt_us);
	nla_put_u32(&m, PACER_CLASS_A_OVERHEAD, c->overhead);
	nla_put_u32(&m, PACER_CLASS_A_MPU, c->mpu);
	nla_nest_end(&m, nest);
	genl_transact(&m, &a, NULL, NULL);
	if (a.error)
		diag("restoring class 0: %s \"%s\"", errname(-a.error), a.msg);
	return a.error;
}

static bool class_cfg_equal(const struct class_cfg *a,
			    const struct class_cfg *b)
{
	return a->found == b->found && a->has_name == b->has_name &&
	       !strcmp(a->name, b->name) && a->rate == b->rate &&
	       a->ceil == b->ceil && a->burst == b->burst &&
	       a->limit_us == b->limit_us &&
	       a->limit_bytes == b->limit_bytes &&
	       a->target_us == b->target_us && a->rtt_us == b->rtt_us &&
	       a->mpu == b->mpu &&
	       a->overhead == b->overhead;
}

static struct dev_info dev_before;

/* Put the caps back: DEV_SET may not exist, then there is nothing to do. */
static void restore_caps(void)
{
	struct genl_answer a;
	struct genl_msg m;

	if (!dev_before.has_caps)
		return;
	pacer_req(&m, PACER_CMD_DEV_SET, 0, ifname);
	nla_put_u32(&m, PACER_A_MAX_CLASSES, dev_before.max_classes);
	nla_put_u32(&m, PACER_A_MAX_RULES, dev_before.max_rules);
	genl_transact(&m, &a, NULL, NULL);
}

/*
 * Delete every rule, then every class but 0 (a class a rule points to
 * cannot go).  Returns the classes and rules left, class 0 included.
 */
static unsigned int cleanup(struct id_list *classes, struct id_list *rules)
{
	struct genl_answer a;
	struct genl_msg m;
	unsigned int i, pass;
	int err;

	restore_caps();
	for (pass = 0; pass < 8; pass++) {
		err = dump(PACER_CMD_RULE_GET, collect_rule, rules);
		if (err)
			ksft_fatal(0, "rule dump: %s", errname(-err));
		for (i = 0; i < rules->n; i++) {
			int nest;

			pacer_req(&m, PACER_CMD_RULE_DEL, 0, ifname);
			nest = nla_nest_start(&m, PACER_A_RULE);
			nla_put_u32(&m, PACER_RULE_A_PREF, rules->v[i]);
			nla_nest_end(&m, nest);
			genl_transact(&m, &a, NULL, NULL);
		}
		err = dump(PACER_CMD_CLASS_GET, collect_class, classes);
		if (err)
			ksft_fatal(0, "class dump: %s", errname(-err));
		for (i = 0; i < classes->n; i++) {
			int nest;

			if (classes->v[i] == PACER_CLASS_DEFAULT)
				continue;
			pacer_req(&m, PACER_CMD_CLASS_DEL, 0, ifname);
			nest = pacer_class_nest(&m, classes->v[i]);
			nla_nest_end(&m, nest);
			genl_transact(&m, &a, NULL, NULL);
		}
		if (!rules->n && classes->n <= 1)
			break;
	}
	dump(PACER_CMD_RULE_GET, collect_rule, rules);
	dump(PACER_CMD_CLASS_GET, collect_class, classes);
	n_known_class = n_known_pref = 0;
	return rules->n + classes->n;
}

/* ---------------------------------------------------------------- fuzz */

static void print_msg(unsigned long i, const struct genl_msg *m, size_t len,
		      int row)
{
	size_t k;

	printf("# > %lu %s cmd %u flags 0x%x nlmsg_len %u sent %zu:", i,
	       row_name(row), ((const struct genlmsghdr *)NLMSG_DATA(&m->u.nlh))->cmd,
	       m->u.nlh.nlmsg_flags, m->u.nlh.nlmsg_len, len);
	for (k = 0; k < len; k++)
		printf("%s%02x", k % 4 ? "" : " ", (uint8_t)m->u.data[k]);
	putchar('\n');
	fflush(stdout);
}

static void count(int row, enum mode mode, const struct genl_msg *m, size_t len,
		  const struct genl_answer *a)
{
	struct row *r = &rows[row];

	r->sent++;
	if (a->send_errno) {
		r->send_err++;
		return;
	}
	if (a->timeout) {
		r->timeout++;
		timeouts_total++;
	}
	if (a->overrun)
		r->overrun++;
	if (!reaches_family(m, len)) {
		r->skipped++;
		return;
	}
	r->reached++;
	r->objects += a->objects;
	note_extack(a->msg);
	if (a->timeout || a->overrun)
		return;
	if (a->error < 0)
		r->errs[-a->error < N_ERRNO ? -a->error : 0]++;
	else if (a->answered || a->objects)
		r->ok++;
	else
		r->silent++;
	if (mode == MODE_VALID) {
		r->valid++;
		if (a->error == -EOPNOTSUPP)
			r->valid_eopnotsupp++;
	}
}

static unsigned long fuzz(unsigned long n)
{
	struct id_list classes, rules;
	long long start = now_ms();
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct genl_answer a;
		enum mode mode;
		struct genl_msg m;
		size_t len;
		bool ack, dump;
		long long t;
		int row;

		len = build(&m, &row, &mode);
		if (verbose)
			print_msg(i, &m, len, row);
		ack = m.u.nlh.nlmsg_flags & NLM_F_ACK;
		dump = (m.u.nlh.nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
		/*
		 * Processed requests with NLM_F_ACK, and dumps, always end
		 * with an ACK, error or DONE; others may end in silence.
		 */
		t = now_us();
		genl_exchange(&m, len,
			      !reaches_family(&m, len) || !(ack || dump),
			      &a, note_created, NULL);
		rows[row].us += now_us() - t;
		count(row, mode, &m, len, &a);
		if (timeouts_total >= MAX_TIMEOUTS) {
			diag("%lu requests got no answer within %d ms: stopping",
			     timeouts_total, GENL_WAIT_MS);
			i++;
			break;
		}
		if (!unpriv && (i + 1) % CLEAN_EVERY == 0)
			cleanup(&classes, &rules);
		if ((i + 1) % 10000 == 0)
			diag("%lu requests sent, %.1f s", i + 1,
			     (now_ms() - start) / 1000.0);
	}
	return i;
}

/* ------------------------------------------------------------- verdict */

static bool implemented(const struct row *r)
{
	return !r->valid || r->valid_eopnotsupp < r->valid;
}

static void report_row(int i)
{
	const struct row *r = &rows[i];
	char buf[1024];
	int n = 0, e;
	bool ok = !r->timeout && !r->overrun && !r->send_err && r->sent;
	const char *why = "";

	n += snprintf(buf + n, sizeof(buf) - n,
		      "%s: %u sent, %u reached the family: ok %u, silent %u",
		      row_name(i), r->sent, r->reached, r->ok, r->silent);
	for (e = 1; e < N_ERRNO; e++)
		if (r->errs[e])
			n += snprintf(buf + n, sizeof(buf) - n, ", %s %u",
				      errname(e), r->errs[e]);
	if (r->errs[0])
		n += snprintf(buf + n, sizeof(buf) - n, ", other errno %u",
			      r->errs[0]);
	n += snprintf(buf + n, sizeof(buf) - n,
		      "; %u skipped by netlink; %lu reply messages; %llu us per request",
		      r->skipped, r->objects, r->sent ? r->us / r->sent : 0);
	if (r->timeout || r->overrun || r->send_err)
		n += snprintf(buf + n, sizeof(buf) - n,
			      "; %u unanswered, %u ENOBUFS, %u send errors",
			      r->timeout, r->overrun, r->send_err);

	if (i == ROW_OTHER) {
		if (r->ok || r->silent) {
			ok = false;
			why = " (a command outside the uapi succeeded)";
		}
	} else if (!implemented(r)) {
		why = " (not implemented: every well-formed request got EOPNOTSUPP)";
	} else if (unpriv && is_mutating(i)) {
		if (r->ok || r->silent) {
			ok = false;
			why = " (succeeded without CAP_NET_ADMIN)";
		} else if (!r->errs[EPERM]) {
			ok = false;
			why = " (never refused with EPERM)";
		}
	} else if (!r->ok && !r->silent) {
		ok = false;
		why = " (never succeeded)";
	}
	(void)n;
	tap(ok, "%s%s", buf, why);
}

static int by_count(const void *a, const void *b)
{
	const struct extack_count *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 :
	       strcmp(x->text, y->text);
}

static void check_left(void)
{
	struct id_list classes, rules;

	cleanup(&classes, &rules);
	tap(classes.n == 1 && classes.v[0] == PACER_CLASS_DEFAULT && !rules.n,
	    "after the cleanup: %u class(es), want class 0 alone; %u rule(s), want none",
	    classes.n, rules.n);
}

int main(int argc, char **argv)
{
	unsigned long count_arg = 50000, seed = 1, sent;
	struct id_list classes, rules;
	struct class_cfg cfg_before, cfg_after;
	struct dev_info d;
	struct genl_answer a;
	long long start;
	int opt, err, i, nest;
	struct genl_msg m;
	char *end;

	ksft_init("nl_fuzz");
	while ((opt = getopt(argc, argv, "uvs:n:")) != -1) {
		switch (opt) {
		case 'u':
			unpriv = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 's':
			seed = strtoul(optarg, &end, 0);
			if (*end || !*optarg)
				goto usage;
			break;
		case 'n':
			count_arg = strtoul(optarg, &end, 0);
			if (*end || !*optarg)
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc - 1)
		goto usage;
	ifname = argv[optind];
	if (strlen(ifname) >= IFNAMSIZ)
		goto usage;
	rng = seed * 0x9e3779b97f4a7c15ULL + 1;	/* never 0 */

	genl_open();
	ksft_print_header();
	if (dev_get(&dev_before, &a))
		ksft_fatal(0, "DEV_GET %s: %s \"%s\"", ifname,
			   errname(-a.error), a.msg);
	ifindex = dev_before.ifindex;
	list_pacers();
	diag("family \"%s\" is %u; device %s, ifindex %u; %d pacer device(s) in the namespace; %s",
	     PACER_GENL_NAME, pacer_family, ifname, ifindex, n_pacer,
	     unpriv ? "unprivileged" : "privileged");
	diag("seed %lu, %lu requests (replay: nl_fuzz%s -s %lu -n %lu %s)",
	     seed, count_arg, unpriv ? " -u" : "", seed, count_arg, ifname);
	if (!unpriv) {
		err = class0_get(&cfg_before);
		if (err || !cfg_before.found)
			ksft_fatal(0, "CLASS_GET of class 0: %s",
				   errname(-err));
		cleanup(&classes, &rules);
	}

	start = now_ms();
	sent = fuzz(count_arg);
	diag("%lu requests in %.1f s; %lu stale answers (to requests that had timed out)",
	     sent, (now_ms() - start) / 1000.0, genl_stale);

	{
		unsigned int all = 1;

		for (i = 1; i <= PACER_CMD_MAX; i++)
			all &= rows[i].sent > 0;
		tap(sent == count_arg && all,
		    "sent %lu of %lu messages over all %d commands (%u over other command numbers)",
		    sent, count_arg, PACER_CMD_MAX, rows[ROW_OTHER].sent);
	}
	for (i = 1; i <= ROW_OTHER; i++)
		report_row(i);
	qsort(extack, n_extack, sizeof(extack[0]), by_count);
	for (i = 0; i < n_extack; i++)
		diag("extack %6u \"%s\"", extack[i].count, extack[i].text);

	if (!unpriv) {
		check_left();
		class0_set(&cfg_before);
		err = class0_get(&cfg_after);
		tap(!err && cfg_after.found &&
		    class_cfg_equal(&cfg_before, &cfg_after),
		    "class 0 as before the run: rate %llu burst %u ceil %llu limit %u us / %u bytes target %u us rtt %u us overhead %d mpu %u name \"%s\" (got rate %llu burst %u ceil %llu limit %u us / %u bytes target %u us rtt %u us overhead %d mpu %u name \"%s\")",
		    (unsigned long long)cfg_before.rate, cfg_before.burst,
		    (unsigned long long)cfg_before.ceil, cfg_before.limit_us,
		    cfg_before.limit_bytes, cfg_before.target_us,
		    cfg_before.rtt_us, cfg_before.overhead, cfg_before.mpu, cfg_before.name,
		    (unsigned long long)cfg_after.rate, cfg_after.burst,
		    (unsigned long long)cfg_after.ceil, cfg_after.limit_us,
		    cfg_after.limit_bytes, cfg_after.target_us,
		    cfg_after.rtt_us, cfg_after.overhead, cfg_after.mpu, cfg_after.name);
	}

	err = dev_get(&d, &a);
	tap(!err && a.objects == 1 && d.ifindex == ifindex,
	    "DEV_GET %s still answers: %s, %d reply, ifindex %u",
	    ifname, errname(-err), a.objects, d.ifindex);
	if (!unpriv && dev_before.has_caps)
		tap(d.has_caps && d.max_classes == dev_before.max_classes &&
		    d.max_rules == dev_before.max_rules,
		    "caps as before the run: max_classes %u, max_rules %u",
		    d.max_classes, d.max_rules);

	pacer_req(&m, PACER_CMD_CLASS_NEW, 0, ifname);
	nest = pacer_class_nest(&m, 4242);
	nla_put_u64(&m, PACER_CLASS_A_RATE, 1000000);
	nla_nest_end(&m, nest);
	genl_transact(&m, &a, NULL, NULL);
	if (unpriv) {
		err = dump(PACER_CMD_CLASS_GET, collect_class, &classes);
		tap(!err && classes.n >= 1, "class dump: %s, %u class(es)",
		    errname(-err), classes.n);
		tap(a.error == -EPERM, "CLASS_NEW id 4242: %s, want EPERM",
		    errname(-a.error));
	} else {
		tap(!a.error && a.objects == 1,
		    "CLASS_NEW id 4242 rate 1mbit: %s \"%s\", %d reply",
		    errname(-a.error), a.msg, a.objects);
		pacer_req(&m, PACER_CMD_CLASS_DEL, 0, ifname);
		nest = pacer_class_nest(&m, 4242);
		nla_nest_end(&m, nest);
		genl_transact(&m, &a, NULL, NULL);
		tap(!a.error, "CLASS_DEL id 4242: %s \"%s\"",
		    errname(-a.error), a.msg);
	}

	return ksft_finish();

usage:
	fprintf(stderr, "Usage: nl_fuzz [-u] [-v] [-s SEED] [-n COUNT] IFNAME\n");
	return KSFT_ERROR;
}
