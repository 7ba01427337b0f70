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
 * After each request it reads, non-blocking and for at most WAIT_MS, until
 * the request's ACK, error or NLMSG_DONE (a dump is read to its end); a
 * request that may rightly get no answer is followed by an NLMSG_NOOP with
 * NLM_F_ACK, whose ACK ends the wait.  The outcome of each request that
 * reached the family is counted per command: ok (ACK, reply or complete
 * dump), silent (no answer: success without a reply, NLM_F_ACK unset),
 * each errno, timeout.  Every CLEAN_EVERY requests and at the end, the
 * rules and classes of the device are dumped and deleted and its caps
 * restored; at the end class 0 gets back its configuration of the start.
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
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/pacer.h>

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define KSFT_SKIP	4
#define BUF_SIZE	(128 * 1024)
#define MSG_MAX		2048
#define WAIT_MS		10000	/* longest wait for one request's answer */
#define MAX_TIMEOUTS	10	/* then the kernel is stuck: stop */
#define CLEAN_EVERY	1000
#define MAX_ATTRS	96	/* attribute offsets kept for corruption */
#define MAX_OBJS	4096	/* ids or prefs collected from one dump */
#define N_ERRNO		256
#define N_ROWS		(PACER_CMD_MAX + 2)
#define ROW_OTHER	(PACER_CMD_MAX + 1)	/* commands the uapi lacks */
#define N_KNOWN		16
#define N_EXTACK	96
#define AF_INET_	2
#define AF_INET6_	10
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct msg {
	union {
		struct nlmsghdr nlh;
		char data[MSG_MAX];
	} u;
	uint16_t attr_off[MAX_ATTRS];
	int n_attrs;
};

/* What came back for one request. */
struct answer {
	int error;		/* of the ACK, error or DONE; 0 if none */
	bool answered;		/* an ACK, error or DONE came */
	int objects;		/* family messages: replies, dump parts */
	bool timeout;
	bool overrun;		/* ENOBUFS: the socket dropped answers */
	int send_errno;
	char msg[128];		/* NLMSGERR_ATTR_MSG */
};

/* Called for each family message of an answer. */
typedef void (*obj_fn)(const struct nlmsghdr *nlh, void *arg);

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
	uint32_t burst, limit_us, limit_bytes, target_us, mpu;
	int32_t overhead;
};

static const char *const cmd_names[N_ROWS] = {
	[PACER_CMD_UNSPEC] = "UNSPEC",
	[PACER_CMD_DEV_GET] = "DEV_GET",
	[PACER_CMD_CLASS_NEW] = "CLASS_NEW",
	[PACER_CMD_CLASS_SET] = "CLASS_SET",
	[PACER_CMD_CLASS_DEL] = "CLASS_DEL",
	[PACER_CMD_CLASS_GET] = "CLASS_GET",
	[PACER_CMD_RULE_NEW] = "RULE_NEW",
	[PACER_CMD_RULE_DEL] = "RULE_DEL",
	[PACER_CMD_RULE_GET] = "RULE_GET",
	[PACER_CMD_STATS_RESET] = "STATS_RESET",
	[PACER_CMD_DEV_SET] = "DEV_SET",
	[ROW_OTHER] = "other commands (0, > PACER_CMD_MAX)",
};

static int sock_fd = -1;
static uint16_t family_id;
static uint32_t seq;
static const char *ifname;
static uint32_t ifindex;
static bool unpriv, verbose;
static int tests, failures;
static uint64_t rng;
static struct knobs kn;
static struct row rows[N_ROWS];
static unsigned long stale, timeouts_total;

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
	char text[128];
	unsigned int count;
} extack[N_EXTACK];
static int n_extack;

/* ------------------------------------------------------------- output */

static void __attribute__((format(printf, 2, 3)))
tap(bool ok, const char *fmt, ...)
{
	va_list ap;

	tests++;
	if (!ok)
		failures++;
	printf("%s %d - ", ok ? "ok" : "not ok", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void __attribute__((format(printf, 1, 2)))
diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static void __attribute__((format(printf, 1, 2), noreturn))
fatal(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nl_fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
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

static void msg_init(struct msg *m, uint16_t type, uint16_t flags, uint8_t cmd)
{
	struct genlmsghdr *g;

	memset(&m->u.nlh, 0, NLMSG_LENGTH(GENL_HDRLEN));
	m->n_attrs = 0;
	m->u.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->u.nlh.nlmsg_type = type;
	m->u.nlh.nlmsg_flags = flags;
	m->u.nlh.nlmsg_seq = ++seq;
	g = NLMSG_DATA(&m->u.nlh);
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : PACER_GENL_VERSION;
}

/*
 * Append an attribute; returns its offset, or -1 when the message is full
 * (the fuzzer then just sends what it has).
 */
static int put(struct msg *m, uint16_t type, const void *data, size_t len)
{
	int off = NLMSG_ALIGN(m->u.nlh.nlmsg_len);
	struct nlattr *nla = (struct nlattr *)(m->u.data + off);

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->u.data))
		return -1;
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)nla + NLA_HDRLEN, data, len);
	memset((char *)nla + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->u.nlh.nlmsg_len = off + NLA_HDRLEN + NLA_ALIGN(len);
	if (m->n_attrs < MAX_ATTRS)
		m->attr_off[m->n_attrs++] = off;
	return off;
}

static int put_u16(struct msg *m, uint16_t type, uint16_t v)
{
	return put(m, type, &v, sizeof(v));
}

static int put_u32(struct msg *m, uint16_t type, uint32_t v)
{
	return put(m, type, &v, sizeof(v));
}

static int put_u64(struct msg *m, uint16_t type, uint64_t v)
{
	return put(m, type, &v, sizeof(v));
}

static int put_str(struct msg *m, uint16_t type, const char *s)
{
	return put(m, type, s, strlen(s) + 1);
}

static int nest_start_raw(struct msg *m, uint16_t type)
{
	return put(m, type, NULL, 0);
}

static int nest_start(struct msg *m, uint16_t type)
{
	if (!chance(kn.no_nested_flag))
		type |= NLA_F_NESTED;
	return nest_start_raw(m, type);
}

static void nest_end(struct msg *m, int off)
{
	struct nlattr *nla;

	if (off < 0)
		return;
	nla = (struct nlattr *)(m->u.data + off);
	nla->nla_len = m->u.nlh.nlmsg_len - off;
}

static void put_garbage(struct msg *m, int depth);

/* An unknown or out-of-place attribute, at any level. */
static void put_unknown(struct msg *m, int maxtype)
{
	static const uint16_t types[] = { 0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 16,
		17, 18, 19, 20, 31, 255, 1024, 0x3fff };
	uint16_t type = chance(50) ? (uint16_t)(maxtype + 1 + below(4)) :
				     PICK(types);
	uint8_t junk[20];
	size_t len = PICK(((const uint8_t []){ 0, 1, 2, 4, 8, 16, 20 }));

	if (chance(20)) {
		int nest = nest_start_raw(m, type | NLA_F_NESTED);

		put_garbage(m, 3);
		nest_end(m, nest);
		return;
	}
	rnd_bytes(junk, len);
	put(m, type, junk, len);
}

/*
 * A scalar attribute, as the build knobs say: sometimes of the wrong size,
 * with a flag bit in its type, twice, or followed by a stranger.
 */
static void put_val(struct msg *m, uint16_t type, const void *data, size_t len,
		    int maxtype)
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
		put(m, type, junk, n);
	} else {
		put(m, type, data, len);
	}
	if (chance(kn.dup))
		put(m, type, data, len);
	if (chance(kn.unknown))
		put_unknown(m, maxtype);
}

static void val_u8(struct msg *m, uint16_t type, uint8_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

static void val_u16(struct msg *m, uint16_t type, uint16_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

static void val_u32(struct msg *m, uint16_t type, uint32_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

static void val_u64(struct msg *m, uint16_t type, uint64_t v, int maxtype)
{
	put_val(m, type, &v, sizeof(v), maxtype);
}

/* Random attributes, nests of them down to @depth, random payloads. */
static void put_garbage(struct msg *m, int depth)
{
	int n = below(8), i;
	uint8_t junk[32];

	for (i = 0; i < n; i++) {
		uint16_t type = below(chance(80) ? 24 : 0x4000);
		size_t len;

		if (chance(10))
			type |= NLA_F_NET_BYTEORDER;
		if (depth > 0 && chance(30)) {
			int nest = nest_start_raw(m, type |
						  (chance(80) ? NLA_F_NESTED : 0));

			put_garbage(m, depth - 1);
			nest_end(m, nest);
			continue;
		}
		len = below(sizeof(junk) + 1);
		rnd_bytes(junk, len);
		put(m, type, junk, len);
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
static void put_dev(struct msg *m)
{
	char name[40];
	unsigned int r = below(100);

	if (r < 45) {
		put_str(m, PACER_A_IFNAME, ifname);
		return;
	}
	if (r < 75) {
		put_u32(m, PACER_A_IFINDEX, ifindex);
		return;
	}
	if (r < 85) {
		if (chance(50)) {
			put_str(m, PACER_A_IFNAME, ifname);
			put_u32(m, PACER_A_IFINDEX, ifindex);
		} else {
			put_u32(m, PACER_A_IFINDEX, ifindex);
			put_str(m, PACER_A_IFNAME, ifname);
		}
		return;
	}
	switch (below(10)) {
	case 0:
		break;		/* no device at all */
	case 1:
		put_u32(m, PACER_A_IFINDEX, 1);
		break;
	case 2:
		put_u32(m, PACER_A_IFINDEX, gen_other_ifindex());
		break;
	case 3:
		put_u32(m, PACER_A_IFINDEX, 0);
		break;
	case 4:
		put_str(m, PACER_A_IFNAME, "lo");
		break;
	case 5:
		do
			gen_name(name, IFNAMSIZ, IFNAMSIZ - 1);
		while (is_pacer_name(name));
		put_str(m, PACER_A_IFNAME, name);
		break;
	case 6:
		gen_name(name, sizeof(name), 24);
		if (strlen(name) < IFNAMSIZ)
			strcat(name, "0123456789abcdef");
		put_str(m, PACER_A_IFNAME, name);
		break;
	case 7:
		/* Not NUL-terminated: the name's bytes alone. */
		put(m, PACER_A_IFNAME, ifname, strlen(ifname));
		break;
	case 8:
		put_str(m, PACER_A_IFNAME, ifname);
		put_u32(m, PACER_A_IFINDEX, gen_other_ifindex());
		break;
	default:
		put_str(m, PACER_A_IFNAME, "");
		break;
	}
}

/* A class nest: the id (usually) and, for NEW/SET, any configuration. */
static void put_class(struct msg *m, bool cfg)
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
			put(m, PACER_CLASS_A_NAME, name, strlen(name));
		else
			put_str(m, PACER_CLASS_A_NAME, name);
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
		val_u32(m, PACER_CLASS_A_OVERHEAD, gen_overhead(), max);
	if (chance(p / 2))
		val_u32(m, PACER_CLASS_A_MPU, gen_in(0, 4096), max);
	if (chance(kn.unknown))
		val_u64(m, chance(50) ? PACER_CLASS_A_STATS : PACER_CLASS_A_PAD,
			rnd(), max);
	nest_end(m, nest);
}

static void put_prefix(struct msg *m, uint16_t addr_type, uint16_t plen_type,
		       uint8_t family)
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
	put(m, addr_type, addr, alen);
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
static void put_rule(struct msg *m, bool match)
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
	nest_end(m, nest);
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
static void build_body(struct msg *m, int cmd, bool dump)
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
static void corrupt_attr_len(struct msg *m)
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
static void put_raw_nest(struct msg *m)
{
	static const uint16_t types[] = { PACER_A_CLASS, PACER_A_RULE,
		PACER_A_DEV_STATS, PACER_A_IFNAME };
	uint8_t junk[40];
	size_t len = below(sizeof(junk) + 1);

	rnd_bytes(junk, len);
	put(m, PICK(types) | (chance(70) ? NLA_F_NESTED : 0), junk, len);
}

enum mode { MODE_VALID, MODE_MUTATED, MODE_GARBAGE, MODE_FRAME };

/*
 * Build the next request: its command (*@row: its line in the report),
 * flags, body and mutations.  Returns the bytes to send; *@mode tells how
 * it was made.
 */
static size_t build(struct msg *m, int *row, enum mode *mode)
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
	msg_init(m, family_id, flags, cmd);
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
static bool reaches_family(const struct msg *m, size_t len)
{
	const struct nlmsghdr *nlh = &m->u.nlh;

	return (nlh->nlmsg_flags & NLM_F_REQUEST) &&
	       nlh->nlmsg_type >= NLMSG_MIN_TYPE &&
	       nlh->nlmsg_len >= NLMSG_HDRLEN && nlh->nlmsg_len <= len;
}

/* -------------------------------------------------------- transaction */

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

/* NLMSGERR_ATTR_MSG among the TLVs from @p to @end. */
static void parse_tlvs(const char *p, const char *end, struct answer *a)
{
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *nla = (const struct nlattr *)p;

		if (nla->nla_len < NLA_HDRLEN || p + nla->nla_len > end)
			break;
		if ((nla->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG)
			snprintf(a->msg, sizeof(a->msg), "%.*s",
				 (int)(nla->nla_len - NLA_HDRLEN),
				 p + NLA_HDRLEN);
		p += NLA_ALIGN(nla->nla_len);
	}
}

static void parse_error(const struct nlmsghdr *nlh, struct answer *a)
{
	const struct nlmsgerr *err = NLMSG_DATA(nlh);
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const char *p;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
		return;
	a->error = err->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*err)))
		return;
	p = (const char *)err + sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		p += NLMSG_ALIGN(err->msg.nlmsg_len) - NLMSG_HDRLEN;
	parse_tlvs(p, end, a);
}

static void parse_done(const struct nlmsghdr *nlh, struct answer *a)
{
	const char *end = (const char *)nlh + nlh->nlmsg_len;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
		return;
	a->error = *(const int *)NLMSG_DATA(nlh);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		parse_tlvs((const char *)NLMSG_DATA(nlh) + NLA_ALIGN(sizeof(int)),
			   end, a);
}

/*
 * Send @len bytes of @m, followed with @marker by an NLMSG_NOOP with
 * NLM_F_ACK and sequence number @ms: in the same datagram when netlink will
 * get past @m to it, else in a second one.
 */
static int send_req(struct msg *m, size_t len, bool marker, uint32_t ms)
{
	struct nlmsghdr noop = {
		.nlmsg_len = NLMSG_HDRLEN,
		.nlmsg_type = NLMSG_NOOP,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlmsg_seq = ms,
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct iovec iov[2] = {
		{ .iov_base = m->u.data, .iov_len = len },
		{ .iov_base = &noop, .iov_len = sizeof(noop) },
	};
	struct msghdr mh = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
		.msg_iov = iov,
		.msg_iovlen = 1,
	};
	uint32_t nlmsg_len = m->u.nlh.nlmsg_len;
	bool together = nlmsg_len >= NLMSG_HDRLEN &&
			NLMSG_ALIGN(nlmsg_len) == len;

	if (marker && together)
		mh.msg_iovlen = 2;
	if (sendmsg(sock_fd, &mh, MSG_DONTWAIT) < 0)
		return -errno;
	if (marker && !together) {
		mh.msg_iov = &iov[1];
		if (sendmsg(sock_fd, &mh, MSG_DONTWAIT) < 0)
			fatal("sendmsg (NLMSG_NOOP): %s", strerror(errno));
	}
	return 0;
}

/*
 * Send @len bytes of @m and read its answer into @a, calling @obj for each
 * family message.  With @marker, an NLMSG_NOOP follows and its ACK ends the
 * wait (a dump still runs to its end): for requests that may get no answer.
 * The kernel handles a request inside sendmsg(), so the answer is usually
 * queued already: poll() only when the socket is empty.  Never waits longer
 * than WAIT_MS.
 */
static void exchange(struct msg *m, size_t len, bool marker,
		     struct answer *a, obj_fn obj, void *arg)
{
	static char buf[BUF_SIZE];
	uint32_t s = m->u.nlh.nlmsg_seq, ms = marker ? ++seq : 0;
	bool marker_seen = !marker, multi = false, done = false;
	long long deadline;
	int err;

	memset(a, 0, sizeof(*a));
	err = send_req(m, len, marker, ms);
	if (err) {
		a->send_errno = -err;
		return;
	}
	deadline = now_ms() + WAIT_MS;
	for (;;) {
		struct pollfd pfd = { .fd = sock_fd, .events = POLLIN };
		long long left;
		struct nlmsghdr *nlh;
		ssize_t n;

		if (marker ? marker_seen && (!multi || done) : done)
			return;
		n = recv(sock_fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				left = deadline - now_ms();
				if (left <= 0) {
					a->timeout = true;
					return;
				}
				if (poll(&pfd, 1, left) < 0 && errno != EINTR)
					fatal("poll: %s", strerror(errno));
				continue;
			}
			if (errno == ENOBUFS) {
				/*
				 * Answers were dropped: this one may be
				 * among them; later ones are told by seq.
				 */
				a->overrun = true;
				return;
			}
			fatal("recv: %s", strerror(errno));
		}
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (marker && nlh->nlmsg_seq == ms) {
				if (nlh->nlmsg_type == NLMSG_ERROR)
					marker_seen = true;
				continue;
			}
			if (nlh->nlmsg_seq != s) {
				stale++;
				continue;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				parse_error(nlh, a);
				a->answered = done = true;
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				parse_done(nlh, a);
				a->answered = done = true;
			} else {
				a->objects++;
				if (nlh->nlmsg_flags & NLM_F_MULTI)
					multi = true;
				if (obj)
					obj(nlh, arg);
			}
		}
	}
}

static void sock_open(void)
{
	int one = 1, size = 1 << 20;

	sock_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock_fd < 0)
		fatal("socket: %s", strerror(errno));
	if (setsockopt(sock_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one,
		       sizeof(one)) ||
	    setsockopt(sock_fd, SOL_NETLINK, NETLINK_CAP_ACK, &one,
		       sizeof(one)))
		fatal("setsockopt: %s", strerror(errno));
	/*
	 * Capped by rmem_max when unprivileged: fine, answers are drained
	 * after every request.
	 */
	setsockopt(sock_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

/* ------------------------------------------------------- reply parsing */

static const struct nlattr *attr_find(const char *p, const char *end,
				      int type)
{
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *nla = (const struct nlattr *)p;

		if (nla->nla_len < NLA_HDRLEN || p + nla->nla_len > end)
			return NULL;
		if ((nla->nla_type & NLA_TYPE_MASK) == type)
			return nla;
		p += NLA_ALIGN(nla->nla_len);
	}
	return NULL;
}

/* A top-level attribute of a family message. */
static const struct nlattr *msg_attr(const struct nlmsghdr *nlh, int type)
{
	const char *p = (const char *)NLMSG_DATA(nlh) + GENL_HDRLEN;

	return attr_find(p, (const char *)nlh + nlh->nlmsg_len, type);
}

/* An attribute inside the top-level nest @nest_type. */
static const struct nlattr *nest_attr(const struct nlmsghdr *nlh,
				      int nest_type, int type)
{
	const struct nlattr *nest = msg_attr(nlh, nest_type);

	if (!nest)
		return NULL;
	return attr_find((const char *)nest + NLA_HDRLEN,
			 (const char *)nest + nest->nla_len, type);
}

static bool get_u32(const struct nlattr *nla, uint32_t *v)
{
	if (!nla || nla->nla_len < NLA_HDRLEN + sizeof(*v))
		return false;
	memcpy(v, (const char *)nla + NLA_HDRLEN, sizeof(*v));
	return true;
}

static bool get_u16(const struct nlattr *nla, uint16_t *v)
{
	if (!nla || nla->nla_len < NLA_HDRLEN + sizeof(*v))
		return false;
	memcpy(v, (const char *)nla + NLA_HDRLEN, sizeof(*v));
	return true;
}

static bool get_u64(const struct nlattr *nla, uint64_t *v)
{
	if (!nla || nla->nla_len < NLA_HDRLEN + sizeof(*v))
		return false;
	memcpy(v, (const char *)nla + NLA_HDRLEN, sizeof(*v));
	return true;
}

/* Replies to the fuzz: remember the classes and rules that now exist. */
static void note_created(const struct nlmsghdr *nlh, void *arg)
{
	const struct genlmsghdr *g = NLMSG_DATA(nlh);
	uint16_t id;
	uint32_t pref;

	(void)arg;
	if (nlh->nlmsg_type != family_id ||
	    nlh->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
		return;
	if (g->cmd == PACER_CMD_CLASS_NEW &&
	    get_u16(nest_attr(nlh, PACER_A_CLASS, PACER_CLASS_A_ID), &id)) {
		known_class[next_class++ % N_KNOWN] = id;
		if (n_known_class < N_KNOWN)
			n_known_class++;
	}
	if (g->cmd == PACER_CMD_RULE_NEW &&
	    get_u32(nest_attr(nlh, PACER_A_RULE, PACER_RULE_A_PREF), &pref)) {
		known_pref[next_pref++ % N_KNOWN] = pref;
		if (n_known_pref < N_KNOWN)
			n_known_pref++;
	}
}

/* ---------------------------------------------------- setup, cleanup */

static void pacer_req(struct msg *m, uint8_t cmd, uint16_t flags)
{
	msg_init(m, family_id, NLM_F_REQUEST | NLM_F_ACK | flags, cmd);
	put_str(m, PACER_A_IFNAME, ifname);
}

/* A request of the test's own (setup, cleanup, checks): it must be answered. */
static void transact(struct msg *m, struct answer *a, obj_fn obj, void *arg)
{
	uint8_t cmd = ((struct genlmsghdr *)NLMSG_DATA(&m->u.nlh))->cmd;
	const char *name = m->u.nlh.nlmsg_type != family_id ?
			   "CTRL_CMD_GETFAMILY" :
			   cmd_names[cmd <= PACER_CMD_MAX ? cmd : ROW_OTHER];

	exchange(m, m->u.nlh.nlmsg_len, false, a, obj, arg);
	if (a->send_errno)
		fatal("sendmsg (%s): %s", name, strerror(a->send_errno));
	if (a->timeout || a->overrun)
		fatal("no answer to a %s request within %d ms%s", name,
		      WAIT_MS, a->overrun ? " (ENOBUFS)" : "");
}

static void family_reply(const struct nlmsghdr *nlh, void *arg)
{
	const char *p = (const char *)NLMSG_DATA(nlh) + GENL_HDRLEN;
	const struct nlattr *id;

	id = attr_find(p, (const char *)nlh + nlh->nlmsg_len,
		       CTRL_ATTR_FAMILY_ID);
	if (id && id->nla_len >= NLA_HDRLEN + 2)
		memcpy(arg, (const char *)id + NLA_HDRLEN, 2);
}

static void resolve_family(void)
{
	struct answer a;
	struct msg m;

	msg_init(&m, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK,
		 CTRL_CMD_GETFAMILY);
	put_str(&m, CTRL_ATTR_FAMILY_NAME, PACER_GENL_NAME);
	transact(&m, &a, family_reply, &family_id);
	if (a.error == -ENOENT) {
		printf("TAP version 13\n1..0 # SKIP generic netlink family \"%s\" not found\n",
		       PACER_GENL_NAME);
		exit(KSFT_SKIP);
	}
	if (a.error || !family_id)
		fatal("resolving \"%s\": %s", PACER_GENL_NAME,
		      errname(-a.error));
}

struct dev_info {
	uint32_t ifindex;
	bool has_caps;
	uint32_t max_classes, max_rules;
};

static void dev_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct dev_info *d = arg;

	if (nlh->nlmsg_type != family_id)
		return;
	get_u32(msg_attr(nlh, PACER_A_IFINDEX), &d->ifindex);
	d->has_caps = get_u32(msg_attr(nlh, PACER_A_MAX_CLASSES),
			      &d->max_classes) &&
		      get_u32(msg_attr(nlh, PACER_A_MAX_RULES), &d->max_rules);
}

static int dev_get(struct dev_info *d, struct answer *a)
{
	struct msg m;

	memset(d, 0, sizeof(*d));
	pacer_req(&m, PACER_CMD_DEV_GET, 0);
	transact(&m, a, dev_reply, d);
	return a->error;
}

/* Every pacer device of the namespace, by DEV_GET dump. */
static void pacer_list(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *name = msg_attr(nlh, PACER_A_IFNAME);

	(void)arg;
	if (nlh->nlmsg_type != family_id || n_pacer >= 64)
		return;
	get_u32(msg_attr(nlh, PACER_A_IFINDEX), &pacer_ifindex[n_pacer]);
	if (name)
		snprintf(pacer_name[n_pacer], IFNAMSIZ, "%.*s",
			 (int)(name->nla_len - NLA_HDRLEN),
			 (const char *)name + NLA_HDRLEN);
	n_pacer++;
}

static void list_pacers(void)
{
	struct answer a;
	struct msg m;

	msg_init(&m, family_id, NLM_F_REQUEST | NLM_F_ACK | NLM_F_DUMP,
		 PACER_CMD_DEV_GET);
	transact(&m, &a, pacer_list, NULL);
	if (a.error)
		fatal("DEV_GET dump: %s (%s)", errname(-a.error), a.msg);
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
	    get_u16(nest_attr(nlh, PACER_A_CLASS, PACER_CLASS_A_ID), &id))
		l->v[l->n++] = id;
}

static void collect_rule(const struct nlmsghdr *nlh, void *arg)
{
	struct id_list *l = arg;
	uint32_t pref;

	if (l->n < MAX_OBJS &&
	    get_u32(nest_attr(nlh, PACER_A_RULE, PACER_RULE_A_PREF), &pref))
		l->v[l->n++] = pref;
}

static int dump(uint8_t cmd, obj_fn fn, struct id_list *l)
{
	struct answer a;
	struct msg m;

	l->n = 0;
	pacer_req(&m, cmd, NLM_F_DUMP);
	transact(&m, &a, fn, l);
	return a.error;
}

static void class_cfg_reply(const struct nlmsghdr *nlh, void *arg)
{
	struct class_cfg *c = arg;
	const struct nlattr *name;

	if (nlh->nlmsg_type != family_id)
		return;
	memset(c, 0, sizeof(*c));
	c->found = true;
#define CA(t) nest_attr(nlh, PACER_A_CLASS, PACER_CLASS_A_##t)
	name = CA(NAME);
	if (name) {
		c->has_name = true;
		snprintf(c->name, sizeof(c->name), "%.*s",
			 (int)(name->nla_len - NLA_HDRLEN),
			 (const char *)name + NLA_HDRLEN);
	}
	get_u64(CA(RATE), &c->rate);
	get_u64(CA(CEIL), &c->ceil);
	get_u32(CA(BURST), &c->burst);
	get_u32(CA(LIMIT_US), &c->limit_us);
	get_u32(CA(LIMIT_BYTES), &c->limit_bytes);
	get_u32(CA(TARGET_US), &c->target_us);
	get_u32(CA(MPU), &c->mpu);
	get_u32(CA(OVERHEAD), (uint32_t *)&c->overhead);
#undef CA
}

static int class0_get(struct class_cfg *c)
{
	struct answer a;
	struct msg m;
	int nest;

	memset(c, 0, sizeof(*c));
	pacer_req(&m, PACER_CMD_CLASS_GET, 0);
	nest = nest_start_raw(&m, PACER_A_CLASS | NLA_F_NESTED);
	put_u16(&m, PACER_CLASS_A_ID, PACER_CLASS_DEFAULT);
	nest_end(&m, nest);
	transact(&m, &a, class_cfg_reply, c);
	return a.error;
}

static int class0_set(const struct class_cfg *c)
{
	struct answer a;
	struct msg m;
	int nest;

	pacer_req(&m, PACER_CMD_CLASS_SET, 0);
	nest = nest_start_raw(&m, PACER_A_CLASS | NLA_F_NESTED);
	put_u16(&m, PACER_CLASS_A_ID, PACER_CLASS_DEFAULT);
	put_str(&m, PACER_CLASS_A_NAME, c->has_name ? c->name : "");
	put_u64(&m, PACER_CLASS_A_RATE, c->rate);
	put_u32(&m, PACER_CLASS_A_BURST, c->burst);
	put_u64(&m, PACER_CLASS_A_CEIL, c->ceil);
	if (c->limit_bytes)
		put_u32(&m, PACER_CLASS_A_LIMIT_BYTES, c->limit_bytes);
	else
		put_u32(&m, PACER_CLASS_A_LIMIT_US, c->limit_us);
	put_u32(&m, PACER_CLASS_A_TARGET_US, c->target_us);
	put_u32(&m, PACER_CLASS_A_OVERHEAD, c->overhead);
	put_u32(&m, PACER_CLASS_A_MPU, c->mpu);
	nest_end(&m, nest);
	transact(&m, &a, NULL, NULL);
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
	       a->target_us == b->target_us && a->mpu == b->mpu &&
	       a->overhead == b->overhead;
}

static struct dev_info dev_before;

/* Put the caps back: DEV_SET may not exist, then there is nothing to do. */
static void restore_caps(void)
{
	struct answer a;
	struct msg m;

	if (!dev_before.has_caps)
		return;
	pacer_req(&m, PACER_CMD_DEV_SET, 0);
	put_u32(&m, PACER_A_MAX_CLASSES, dev_before.max_classes);
	put_u32(&m, PACER_A_MAX_RULES, dev_before.max_rules);
	transact(&m, &a, NULL, NULL);
}

/*
 * Delete every rule, then every class but 0 (a class a rule points to
 * cannot go).  Returns the classes and rules left, class 0 included.
 */
static unsigned int cleanup(struct id_list *classes, struct id_list *rules)
{
	struct answer a;
	struct msg m;
	unsigned int i, pass;
	int err;

	restore_caps();
	for (pass = 0; pass < 8; pass++) {
		err = dump(PACER_CMD_RULE_GET, collect_rule, rules);
		if (err)
			fatal("rule dump: %s", errname(-err));
		for (i = 0; i < rules->n; i++) {
			int nest;

			pacer_req(&m, PACER_CMD_RULE_DEL, 0);
			nest = nest_start_raw(&m, PACER_A_RULE | NLA_F_NESTED);
			put_u32(&m, PACER_RULE_A_PREF, rules->v[i]);
			nest_end(&m, nest);
			transact(&m, &a, NULL, NULL);
		}
		err = dump(PACER_CMD_CLASS_GET, collect_class, classes);
		if (err)
			fatal("class dump: %s", errname(-err));
		for (i = 0; i < classes->n; i++) {
			int nest;

			if (classes->v[i] == PACER_CLASS_DEFAULT)
				continue;
			pacer_req(&m, PACER_CMD_CLASS_DEL, 0);
			nest = nest_start_raw(&m, PACER_A_CLASS | NLA_F_NESTED);
			put_u16(&m, PACER_CLASS_A_ID, classes->v[i]);
			nest_end(&m, nest);
			transact(&m, &a, NULL, NULL);
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

static void print_msg(unsigned long i, const struct msg *m, size_t len,
		      int row)
{
	size_t k;

	printf("# > %lu %s cmd %u flags 0x%x nlmsg_len %u sent %zu:", i,
	       cmd_names[row], ((const struct genlmsghdr *)NLMSG_DATA(&m->u.nlh))->cmd,
	       m->u.nlh.nlmsg_flags, m->u.nlh.nlmsg_len, len);
	for (k = 0; k < len; k++)
		printf("%s%02x", k % 4 ? "" : " ", (uint8_t)m->u.data[k]);
	putchar('\n');
	fflush(stdout);
}

static void count(int row, enum mode mode, const struct msg *m, size_t len,
		  const struct answer *a)
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
		struct answer a;
		enum mode mode;
		struct msg m;
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
		exchange(&m, len, !reaches_family(&m, len) || !(ack || dump),
			 &a, note_created, NULL);
		rows[row].us += now_us() - t;
		count(row, mode, &m, len, &a);
		if (timeouts_total >= MAX_TIMEOUTS) {
			diag("%lu requests got no answer within %d ms: stopping",
			     timeouts_total, WAIT_MS);
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
		      cmd_names[i], r->sent, r->reached, r->ok, r->silent);
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
	struct answer a;
	long long start;
	int opt, err, i, nest;
	struct msg m;
	char *end;

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
	setvbuf(stdout, NULL, _IOLBF, 0);

	sock_open();
	resolve_family();
	printf("TAP version 13\n");
	if (dev_get(&dev_before, &a))
		fatal("DEV_GET %s: %s \"%s\"", ifname, errname(-a.error), a.msg);
	ifindex = dev_before.ifindex;
	list_pacers();
	diag("family \"%s\" is %u; device %s, ifindex %u; %d pacer device(s) in the namespace; %s",
	     PACER_GENL_NAME, family_id, ifname, ifindex, n_pacer,
	     unpriv ? "unprivileged" : "privileged");
	diag("seed %lu, %lu requests (replay: nl_fuzz%s -s %lu -n %lu %s)",
	     seed, count_arg, unpriv ? " -u" : "", seed, count_arg, ifname);
	if (!unpriv) {
		err = class0_get(&cfg_before);
		if (err || !cfg_before.found)
			fatal("CLASS_GET of class 0: %s", errname(-err));
		cleanup(&classes, &rules);
	}

	start = now_ms();
	sent = fuzz(count_arg);
	diag("%lu requests in %.1f s; %lu stale answers (to requests that had timed out)",
	     sent, (now_ms() - start) / 1000.0, stale);

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
		    "class 0 as before the run: rate %llu burst %u ceil %llu limit %u us / %u bytes target %u us overhead %d mpu %u name \"%s\" (got rate %llu burst %u ceil %llu limit %u us / %u bytes target %u us overhead %d mpu %u name \"%s\")",
		    (unsigned long long)cfg_before.rate, cfg_before.burst,
		    (unsigned long long)cfg_before.ceil, cfg_before.limit_us,
		    cfg_before.limit_bytes, cfg_before.target_us,
		    cfg_before.overhead, cfg_before.mpu, cfg_before.name,
		    (unsigned long long)cfg_after.rate, cfg_after.burst,
		    (unsigned long long)cfg_after.ceil, cfg_after.limit_us,
		    cfg_after.limit_bytes, cfg_after.target_us,
		    cfg_after.overhead, cfg_after.mpu, cfg_after.name);
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

	pacer_req(&m, PACER_CMD_CLASS_NEW, 0);
	nest = nest_start_raw(&m, PACER_A_CLASS | NLA_F_NESTED);
	put_u16(&m, PACER_CLASS_A_ID, 4242);
	put_u64(&m, PACER_CLASS_A_RATE, 1000000);
	nest_end(&m, nest);
	transact(&m, &a, NULL, NULL);
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
		pacer_req(&m, PACER_CMD_CLASS_DEL, 0);
		nest = nest_start_raw(&m, PACER_A_CLASS | NLA_F_NESTED);
		put_u16(&m, PACER_CLASS_A_ID, 4242);
		nest_end(&m, nest);
		transact(&m, &a, NULL, NULL);
		tap(!a.error, "CLASS_DEL id 4242: %s \"%s\"",
		    errname(-a.error), a.msg);
	}

	printf("1..%d\n", tests);
	diag("%d passed, %d failed", tests - failures, failures);
	return failures ? 1 : 0;

usage:
	fprintf(stderr, "Usage: nl_fuzz [-u] [-v] [-s SEED] [-n COUNT] IFNAME\n");
	return 2;
}
