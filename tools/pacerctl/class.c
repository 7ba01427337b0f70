// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl class: the traffic classes of a pacer device.
 *
 *   pacerctl class add    dev DEV id ID rate RATE [ OPTIONS ]
 *   pacerctl class change dev DEV id ID [ rate RATE ] [ OPTIONS ]
 *   pacerctl class del    dev DEV id ID
 *   pacerctl [-j] [-p] [-s] class show dev DEV [ id ID ]
 *
 * Arguments are parsed and range-checked into struct class_args (its
 * struct pacer_class_info holds the attributes to send), sent as one
 * request (CLASS_NEW, CLASS_SET, CLASS_DEL or CLASS_GET), and each reply
 * of "show" is decoded into struct pacer_class_info and printed.  The
 * counters (-s) are stats.c's to decode and print.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pacer.h>
#include <netlink/genl/genl.h>

#include "nl.h"
#include "objects.h"
#include "pacerctl.h"
#include "print.h"
#include "prometheus.h"
#include "units.h"

/* The kernel's bounds (module/netlink.c), checked here first. */
#define RATE_MIN	UINT64_C(1000)			/* 1kbit */
#define RATE_MAX	UINT64_C(10000000000000)	/* 10tbit */
#define BURST_MAX	(UINT64_C(1) << 30)
#define BURST_TIME_MAX_S 1000
#define LIMIT_NS_MIN	UINT64_C(1000)			/* 1us */
#define LIMIT_NS_MAX	UINT64_C(10000000000)		/* 10s */
#define LIMIT_BYTES_MIN	UINT64_C(1024)
#define LIMIT_BYTES_MAX	(UINT64_C(1) << 30)
#define TARGET_NS_MIN	UINT64_C(1000)			/* 1us */
#define TARGET_NS_MAX	UINT64_C(1000000000)		/* 1s */
#define RTT_NS_MIN	UINT64_C(1000)			/* 1us */
#define RTT_NS_MAX	UINT64_C(10000000000)		/* 10s */
#define OVERHEAD_MIN	(-64)
#define OVERHEAD_MAX	256
#define MPU_MAX		4096

/* The commands, as bits: which keywords each one takes. */
enum {
	CLASS_ADD = 1,
	CLASS_CHANGE = 2,
	CLASS_DEL = 4,
	CLASS_SHOW = 8,
};

/**
 * struct class_args - the arguments of a class command
 * @command: its name, for messages ("class add")
 * @which: CLASS_ADD, CLASS_CHANGE, CLASS_DEL or CLASS_SHOW
 * @seen: the keywords given, a bit per entry of class_keywords[]
 * @ifname: the device
 * @cls: the attributes to send (cls.has says which)
 * @rate_text: rate as written, for messages about combinations
 * @burst_text: burst as written
 * @ceil_text: ceil as written
 * @help: help was asked for and printed
 */
struct class_args {
	const char *command;
	unsigned int which;
	unsigned int seen;
	const char *ifname;
	struct pacer_class_info cls;
	const char *rate_text;
	const char *burst_text;
	const char *ceil_text;
	bool help;
};

/**
 * struct class_show_ctx - the state of "class show" while replies arrive
 * @opts: global options
 * @started: the output is started (the JSON array is open)
 * @prom: the classes so far, for -o prometheus (printed once all are in)
 */
struct class_show_ctx {
	const struct pacer_opts *opts;
	bool started;
	struct pacer_prom prom;
};

static int class_show(int argc, char **argv, const struct pacer_opts *opts);
static int class_add(int argc, char **argv, const struct pacer_opts *opts);
static int class_change(int argc, char **argv, const struct pacer_opts *opts);
static int class_del(int argc, char **argv, const struct pacer_opts *opts);
static int class_help(int argc, char **argv, const struct pacer_opts *opts);

static const struct pacerctl_cmd class_cmds[] = {
	{ "show", class_show, "the classes of a device (-s: their counters)" },
	{ "add", class_add, "create a class" },
	{ "change", class_change, "change some attributes of a class" },
	{ "del", class_del, "delete a class (no rule may send packets to it)" },
	{ "help", class_help, "this text" },
};

#define CLASS_OPTIONS \
	"[ burst SIZE ] [ ceil RATE ] [ limit TIME|SIZE|auto ] [ target TIME ] [ rtt TIME ] [ overhead N ] [ mpu N ] [ gso auto|split|keep ] [ name NAME ]"

static void class_usage(FILE *f)
{
	fputs("Usage: pacerctl class add dev DEV id ID rate RATE [ burst SIZE ] [ ceil RATE ]\n"
	      "                          [ limit TIME|SIZE|auto ] [ target TIME ] [ rtt TIME ]\n"
	      "                          [ overhead N ] [ mpu N ] [ gso auto|split|keep ]\n"
	      "                          [ name NAME ]\n"
	      "       pacerctl class change dev DEV id ID [ rate RATE ] [ burst SIZE ] ...\n"
	      "       pacerctl class del dev DEV id ID\n"
	      "       pacerctl [ -j ] [ -p ] [ -s ] class show dev DEV [ id ID ]\n"
	      "       pacerctl class help\n"
	      "\n"
	      "Commands:\n", f);
	pacer_print_cmds(f, class_cmds, ARRAY_SIZE(class_cmds));
	fputs("\n"
	      "Values:\n"
	      "    id ID           0 to 65535; class 0 is the default class: it always\n"
	      "                    exists and takes every packet no rule or priority steers\n"
	      "    rate RATE       1kbit to 10tbit (bit, kbit, mbit, gbit, tbit); \"class\n"
	      "                    change\" also takes 0 or \"unlimited\"\n"
	      "    burst SIZE      bytes that may leave back to back after idle (k, m, g);\n"
	      "                    at most 1g and 1000s at rate; 0: the default, 10ms at\n"
	      "                    rate, at least 16k if the class splits GSO packets,\n"
	      "                    128k if it keeps them whole\n"
	      "    ceil RATE       peak rate, from rate to 10tbit; 0 or \"none\": none\n"
	      "    limit TIME      queue limit as time at rate, 1us to 10s (us, ms, s)\n"
	      "    limit auto      the default: 4 x (target + rtt/2), at least 100ms\n"
	      "    limit SIZE      queue limit in bytes, 1k to 1g\n"
	      "    target TIME     standing delay a flow may keep beyond half its RTT\n"
	      "                    before its sender is told to slow down (a CE mark),\n"
	      "                    1us to 1s (default 5ms)\n"
	      "    rtt TIME        round-trip time the class's flows are expected to have,\n"
	      "                    1us to 10s (default 100ms)\n"
	      "    overhead N      bytes added to each packet's length, -64 to 256\n"
	      "    mpu N           minimum charged length of a packet, 0 to 4096\n"
	      "    gso MODE        split GSO packets into their segments (split), keep\n"
	      "                    them whole (keep), or split below 500mbit only (auto,\n"
	      "                    the default)\n"
	      "    name NAME       free text, at most 15 bytes\n"
	      "\n"
	      "With -s, \"class show\" adds the counters; -s -s also the sojourn histogram.\n", f);
}

static int class_help(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)argc;
	(void)argv;
	(void)opts;
	class_usage(stdout);
	return EXIT_SUCCESS;
}

/* ---- arguments -------------------------------------------------------- */

static int out_of_range(const char *kw, const char *value, const char *range)
{
	return pacer_usage_error("%s \"%s\" is out of range: expected %s", kw,
				 value, range);
}

/**
 * pacer_class_parse_id() - parse a class id
 * @kw: the keyword it was given with, for messages ("id", or "class" in
 *	"rule add")
 * @value: the text, 0 to 65535
 * @id: the id
 *
 * Return: 0, or EXIT_USAGE (explained).
 */
int pacer_class_parse_id(const char *kw, const char *value, uint16_t *id)
{
	uint64_t v;
	int err = parse_uint(value, 10, PACER_CLASS_ID_MAX, &v);

	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected a class id from 0 to %u",
					 kw, value, PACER_CLASS_ID_MAX);
	if (err)
		return out_of_range(kw, value, "0 to 65535");
	*id = v;
	return 0;
}

static int class_parse_dev(const char *value, struct class_args *a)
{
	a->ifname = value;
	return pacer_check_ifname(value);
}

static int class_parse_id(const char *value, struct class_args *a)
{
	a->cls.has |= PACER_BIT(PACER_CLASS_A_ID);
	return pacer_class_parse_id("id", value, &a->cls.id);
}

/*
 * A rate, or 0 for @zero_word ("unlimited", "none") or "0"; UINT64_MAX
 * for a rate out of range.  @zero_word is NULL where 0 is not allowed.
 */
static int class_rate_value(const char *kw, const char *value,
			    const char *zero_word, uint64_t *rate)
{
	int err;

	if (!strcmp(value, "0") || (zero_word && !strcmp(value, zero_word))) {
		*rate = zero_word ? 0 : UINT64_MAX;
		return 0;
	}
	err = parse_rate(value, rate);
	if (err == -EINVAL && zero_word)
		return pacer_usage_error("invalid %s \"%s\": expected %s, or 0 (%s)",
					 kw, value, UNITS_RATE_HELP, zero_word);
	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, UNITS_RATE_HELP);
	if (err || (*rate && (*rate < RATE_MIN || *rate > RATE_MAX)))
		*rate = UINT64_MAX;	/* out of range for any command */
	if (!*rate && !zero_word)
		*rate = UINT64_MAX;	/* "0bit" where 0 is not allowed */
	return 0;
}

static int class_parse_rate(const char *value, struct class_args *a)
{
	bool add = a->which == CLASS_ADD;
	uint64_t rate;
	int ret;

	ret = class_rate_value("rate", value, add ? NULL : "unlimited", &rate);
	if (ret)
		return ret;
	if (add && rate == UINT64_MAX)
		return out_of_range("rate", value,
				    "1kbit to 10tbit (\"class change\" also takes 0, unlimited)");
	if (rate == UINT64_MAX)
		return out_of_range("rate", value,
				    "0 (unlimited) or 1kbit to 10tbit");
	a->cls.rate = rate;
	a->cls.has |= PACER_BIT(PACER_CLASS_A_RATE);
	a->rate_text = value;
	return 0;
}

static int class_parse_ceil(const char *value, struct class_args *a)
{
	uint64_t ceil;
	int ret = class_rate_value("ceil", value, "none", &ceil);

	if (ret)
		return ret;
	if (ceil == UINT64_MAX)
		return out_of_range("ceil", value, "0 (none) or 1kbit to 10tbit");
	a->cls.ceil = ceil;
	a->cls.has |= PACER_BIT(PACER_CLASS_A_CEIL);
	a->ceil_text = value;
	return 0;
}

static int class_parse_burst(const char *value, struct class_args *a)
{
	uint64_t burst;
	int err = parse_size(value, &burst);

	if (err == -EINVAL)
		return pacer_usage_error("invalid burst \"%s\": expected %s",
					 value, UNITS_SIZE_HELP);
	if (err || burst > BURST_MAX)
		return out_of_range("burst", value,
				    "0 (the default), or 1 byte to 1g");
	a->cls.burst = burst;
	a->cls.has |= PACER_BIT(PACER_CLASS_A_BURST);
	a->burst_text = value;
	return 0;
}

/* A time, in whole microseconds (sub-microsecond parts are dropped). */
static int class_time_value(const char *kw, const char *value, uint64_t min,
			    uint64_t max, const char *range, uint32_t *us)
{
	uint64_t ns;
	int err = parse_time(value, &ns);

	if (err == -EINVAL)
		return pacer_usage_error("invalid %s \"%s\": expected %s", kw,
					 value, UNITS_TIME_HELP);
	if (err || ns < min || ns > max)
		return out_of_range(kw, value, range);
	*us = ns / 1000;
	return 0;
}

static int class_parse_target(const char *value, struct class_args *a)
{
	a->cls.has |= PACER_BIT(PACER_CLASS_A_TARGET_US);
	return class_time_value("target", value, TARGET_NS_MIN, TARGET_NS_MAX,
				"1us to 1s", &a->cls.target_us);
}

static int class_parse_rtt(const char *value, struct class_args *a)
{
	a->cls.has |= PACER_BIT(PACER_CLASS_A_RTT_US);
	return class_time_value("rtt", value, RTT_NS_MIN, RTT_NS_MAX,
				"1us to 10s", &a->cls.rtt_us);
}

/* A time (PACER_CLASS_A_LIMIT_US) or a size (_LIMIT_BYTES), by its unit. */
static int class_parse_limit(const char *value, struct class_args *a)
{
	uint64_t ns, bytes;
	int err;

	/* 0 us asks the kernel for the automatic limit back. */
	if (!strcmp(value, "auto")) {
		a->cls.has |= PACER_BIT(PACER_CLASS_A_LIMIT_US);
		a->cls.limit_us = 0;
		return 0;
	}
	err = parse_time(value, &ns);
	if (err != -EINVAL) {
		a->cls.has |= PACER_BIT(PACER_CLASS_A_LIMIT_US);
		return class_time_value("limit", value, LIMIT_NS_MIN,
					LIMIT_NS_MAX, "1us to 10s",
					&a->cls.limit_us);
	}
	err = parse_size(value, &bytes);
	if (err == -EINVAL)
		return pacer_usage_error("invalid limit \"%s\": expected \"auto\", a time (%s) or a size (%s)",
					 value, UNITS_TIME_HELP,
					 UNITS_SIZE_HELP);
	if (err || bytes < LIMIT_BYTES_MIN || bytes > LIMIT_BYTES_MAX)
		return out_of_range("limit", value, "1k to 1g");
	a->cls.limit_bytes = bytes;
	a->cls.has |= PACER_BIT(PACER_CLASS_A_LIMIT_BYTES);
	return 0;
}

static int class_parse_overhead(const char *value, struct class_args *a)
{
	int64_t v;
	int err = parse_int(value, OVERHEAD_MIN, OVERHEAD_MAX, &v);

	if (err == -EINVAL)
		return pacer_usage_error("invalid overhead \"%s\": expected an integer from %d to %d",
					 value, OVERHEAD_MIN, OVERHEAD_MAX);
	if (err)
		return out_of_range("overhead", value, "-64 to 256");
	a->cls.overhead = v;
	a->cls.has |= PACER_BIT(PACER_CLASS_A_OVERHEAD);
	return 0;
}

static int class_parse_mpu(const char *value, struct class_args *a)
{
	uint64_t v;
	int err = parse_uint(value, 10, MPU_MAX, &v);

	if (err == -EINVAL)
		return pacer_usage_error("invalid mpu \"%s\": expected an integer from 0 to %d",
					 value, MPU_MAX);
	if (err)
		return out_of_range("mpu", value, "0 to 4096");
	a->cls.mpu = v;
	a->cls.has |= PACER_BIT(PACER_CLASS_A_MPU);
	return 0;
}

static const char *const gso_names[] = {
	[PACER_GSO_AUTO] = "auto",
	[PACER_GSO_SPLIT] = "split",
	[PACER_GSO_KEEP] = "keep",
};

static int class_parse_gso(const char *value, struct class_args *a)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gso_names); i++) {
		if (!strcmp(value, gso_names[i])) {
			a->cls.gso = i;
			a->cls.has |= PACER_BIT(PACER_CLASS_A_GSO);
			return 0;
		}
	}
	return pacer_usage_error("invalid gso \"%s\": expected auto, split or keep",
				 value);
}

static int class_parse_name(const char *value, struct class_args *a)
{
	if (strlen(value) >= PACER_CLASS_NAME_LEN)
		return pacer_usage_error("name \"%s\" is too long: expected at most %d bytes",
					 value, PACER_CLASS_NAME_LEN - 1);
	strcpy(a->cls.name, value);
	a->cls.has |= PACER_BIT(PACER_CLASS_A_NAME);
	return 0;
}

#define CLASS_SET (CLASS_ADD | CLASS_CHANGE)
#define CLASS_ALL (CLASS_SET | CLASS_DEL | CLASS_SHOW)

/* The keywords, and the commands that take each. */
static const struct class_keyword {
	const char *name;
	int (*parse)(const char *value, struct class_args *a);
	unsigned int commands;
} class_keywords[] = {
	{ "dev", class_parse_dev, CLASS_ALL },
	{ "id", class_parse_id, CLASS_ALL },
	{ "rate", class_parse_rate, CLASS_SET },
	{ "burst", class_parse_burst, CLASS_SET },
	{ "ceil", class_parse_ceil, CLASS_SET },
	{ "limit", class_parse_limit, CLASS_SET },
	{ "target", class_parse_target, CLASS_SET },
	{ "rtt", class_parse_rtt, CLASS_SET },
	{ "overhead", class_parse_overhead, CLASS_SET },
	{ "mpu", class_parse_mpu, CLASS_SET },
	{ "gso", class_parse_gso, CLASS_SET },
	{ "name", class_parse_name, CLASS_SET },
};

static const char *class_grammar(unsigned int which)
{
	switch (which) {
	case CLASS_ADD:
		return "dev DEV id ID rate RATE " CLASS_OPTIONS;
	case CLASS_CHANGE:
		return "dev DEV id ID [ rate RATE ] " CLASS_OPTIONS;
	case CLASS_DEL:
		return "dev DEV id ID";
	default:
		return "dev DEV [ id ID ]";
	}
}

static const struct class_keyword *class_keyword(const char *arg,
						 unsigned int which)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(class_keywords); i++)
		if ((class_keywords[i].commands & which) &&
		    !strcmp(class_keywords[i].name, arg))
			return &class_keywords[i];
	return NULL;
}

/* burst at most 1000s at rate; ceil from rate up, and only with a rate. */
static int class_check_combination(const struct class_args *a)
{
	const struct pacer_class_info *c = &a->cls;
	char buf[UNITS_BUF_LEN], range[128];

	if (!a->rate_text)
		return 0;	/* the kernel knows the rate: it checks */
	if (c->rate && a->burst_text && c->burst &&
	    (uint64_t)c->burst * 8 > BURST_TIME_MAX_S * c->rate) {
		snprintf(range, sizeof(range),
			 "at most %" PRIu64 " bytes (%ds at rate %s)",
			 BURST_TIME_MAX_S * c->rate / 8, BURST_TIME_MAX_S,
			 format_rate(buf, sizeof(buf), c->rate));
		return out_of_range("burst", a->burst_text, range);
	}
	if (a->ceil_text && c->ceil && !c->rate)
		return out_of_range("ceil", a->ceil_text,
				    "0 (none): a class without a rate has no ceil");
	if (a->ceil_text && c->ceil && c->ceil < c->rate) {
		snprintf(range, sizeof(range), "0 (none) or rate (%s) to 10tbit",
			 format_rate(buf, sizeof(buf), c->rate));
		return out_of_range("ceil", a->ceil_text, range);
	}
	return 0;
}

static int class_check_required(const struct class_args *a)
{
	uint32_t settable = a->cls.has & ~PACER_BIT(PACER_CLASS_A_ID);

	if (!a->ifname)
		return pacer_usage_error("\"%s\" needs \"dev DEV\"", a->command);
	if (a->which != CLASS_SHOW &&
	    !(a->cls.has & PACER_BIT(PACER_CLASS_A_ID)))
		return pacer_usage_error("\"%s\" needs \"id ID\"", a->command);
	if (a->which == CLASS_ADD &&
	    !(a->cls.has & PACER_BIT(PACER_CLASS_A_RATE)))
		return pacer_usage_error("\"%s\" needs \"rate RATE\"",
					 a->command);
	if (a->which == CLASS_CHANGE && !settable)
		return pacer_usage_error("\"%s\" needs something to change: rate, burst, ceil, limit, target, rtt, overhead, mpu, gso or name",
					 a->command);
	return class_check_combination(a);
}

static int class_parse(int argc, char **argv, struct class_args *a)
{
	const struct class_keyword *kw;
	unsigned int bit;
	int ret;

	for (; argc > 0; argc--, argv++) {
		if (pacer_is_help(*argv)) {
			class_usage(stdout);
			a->help = true;
			return 0;
		}
		kw = class_keyword(*argv, a->which);
		if (!kw)
			return pacer_unknown_arg(*argv, a->command,
						 class_grammar(a->which));
		bit = 1U << (kw - class_keywords);
		if (a->seen & bit)
			return pacer_duplicate_arg(kw->name);
		a->seen |= bit;
		ret = pacer_next_value(&argc, &argv) ?: kw->parse(*argv, a);
		if (ret)
			return ret;
	}
	return class_check_required(a);
}

/* ---- netlink ---------------------------------------------------------- */

static int class_put(struct nl_msg *msg, const struct pacer_class_info *c)
{
	struct nlattr *nest = nla_nest_start(msg, PACER_A_CLASS);
	uint32_t has = c->has;

	if (!nest)
		return -EMSGSIZE;
#define HAS(attr) (has & PACER_BIT(PACER_CLASS_A_##attr))
	if ((HAS(ID) && nla_put_u16(msg, PACER_CLASS_A_ID, c->id) < 0) ||
	    (HAS(NAME) &&
	     nla_put_string(msg, PACER_CLASS_A_NAME, c->name) < 0) ||
	    (HAS(RATE) && nla_put_u64(msg, PACER_CLASS_A_RATE, c->rate) < 0) ||
	    (HAS(BURST) &&
	     nla_put_u32(msg, PACER_CLASS_A_BURST, c->burst) < 0) ||
	    (HAS(CEIL) && nla_put_u64(msg, PACER_CLASS_A_CEIL, c->ceil) < 0) ||
	    (HAS(LIMIT_US) &&
	     nla_put_u32(msg, PACER_CLASS_A_LIMIT_US, c->limit_us) < 0) ||
	    (HAS(LIMIT_BYTES) &&
	     nla_put_u32(msg, PACER_CLASS_A_LIMIT_BYTES, c->limit_bytes) < 0) ||
	    (HAS(TARGET_US) &&
	     nla_put_u32(msg, PACER_CLASS_A_TARGET_US, c->target_us) < 0) ||
	    (HAS(RTT_US) &&
	     nla_put_u32(msg, PACER_CLASS_A_RTT_US, c->rtt_us) < 0) ||
	    (HAS(OVERHEAD) &&
	     nla_put_s32(msg, PACER_CLASS_A_OVERHEAD, c->overhead) < 0) ||
	    (HAS(MPU) && nla_put_u32(msg, PACER_CLASS_A_MPU, c->mpu) < 0) ||
	    (HAS(GSO) && nla_put_u8(msg, PACER_CLASS_A_GSO, c->gso) < 0))
		return -EMSGSIZE;
#undef HAS
	nla_nest_end(msg, nest);
	return 0;
}

/**
 * pacer_class_msg() - a request about a device's classes
 * @nl: the socket
 * @cmd: the command
 * @flags: extra netlink flags, e.g. NLM_F_DUMP
 * @ifname: the device
 * @cls: the attributes to send in PACER_A_CLASS, NULL for none
 *
 * Return: the message, or NULL when out of memory.
 */
struct nl_msg *pacer_class_msg(const struct pnl *nl, uint8_t cmd, int flags,
			       const char *ifname,
			       const struct pacer_class_info *cls)
{
	struct nl_msg *msg = pnl_msg(nl, cmd, flags);

	if (msg && (nla_put_string(msg, PACER_A_IFNAME, ifname) < 0 ||
		    (cls && class_put(msg, cls)))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static const struct nla_policy class_policy[PACER_CLASS_A_MAX + 1] = {
	[PACER_CLASS_A_ID] = { .type = NLA_U16 },
	[PACER_CLASS_A_NAME] = { .type = NLA_STRING,
				 .maxlen = PACER_CLASS_NAME_LEN },
	[PACER_CLASS_A_RATE] = { .type = NLA_U64 },
	[PACER_CLASS_A_BURST] = { .type = NLA_U32 },
	[PACER_CLASS_A_CEIL] = { .type = NLA_U64 },
	[PACER_CLASS_A_LIMIT_US] = { .type = NLA_U32 },
	[PACER_CLASS_A_LIMIT_BYTES] = { .type = NLA_U32 },
	[PACER_CLASS_A_TARGET_US] = { .type = NLA_U32 },
	[PACER_CLASS_A_OVERHEAD] = { .type = NLA_S32 },
	[PACER_CLASS_A_MPU] = { .type = NLA_U32 },
	[PACER_CLASS_A_STATS] = { .type = NLA_NESTED },
	[PACER_CLASS_A_GSO] = { .type = NLA_U8 },
	[PACER_CLASS_A_QUEUE_LIMIT] = { .type = NLA_U32 },
	[PACER_CLASS_A_RTT_US] = { .type = NLA_U32 },
	[PACER_CLASS_A_LIMIT_AUTO] = { .type = NLA_FLAG },
};

static void class_decode_config(struct nlattr **tb, struct pacer_class_info *c)
{
	int i;

	for (i = 1; i <= PACER_CLASS_A_MAX; i++)
		if (tb[i] && i != PACER_CLASS_A_STATS && i != PACER_CLASS_A_PAD)
			c->has |= PACER_BIT(i);
	c->id = nla_get_u16(tb[PACER_CLASS_A_ID]);
	if (tb[PACER_CLASS_A_NAME])
		snprintf(c->name, sizeof(c->name), "%s",
			 nla_get_string(tb[PACER_CLASS_A_NAME]));
	/* The kernel leaves out an empty name: a described class has one. */
	if (tb[PACER_CLASS_A_RATE])
		c->has |= PACER_BIT(PACER_CLASS_A_NAME);
#define GET(attr, field, type) \
	if (tb[PACER_CLASS_A_##attr]) \
		c->field = nla_get_##type(tb[PACER_CLASS_A_##attr])
	GET(RATE, rate, u64);
	GET(BURST, burst, u32);
	GET(CEIL, ceil, u64);
	GET(LIMIT_US, limit_us, u32);
	GET(LIMIT_BYTES, limit_bytes, u32);
	GET(TARGET_US, target_us, u32);
	GET(RTT_US, rtt_us, u32);
	GET(OVERHEAD, overhead, s32);
	GET(MPU, mpu, u32);
	GET(GSO, gso, u8);
	GET(QUEUE_LIMIT, queue_limit, u32);
#undef GET
}

/**
 * pacer_class_decode() - decode a reply or an event about a class
 * @nlh: the message
 * @dev: the device it names
 * @cls: the class; cls->has says which attributes it carried
 *
 * Return: 0, or -EBADMSG if it is malformed or carries no class id.
 */
int pacer_class_decode(struct nlmsghdr *nlh, struct pacer_msg_dev *dev,
		       struct pacer_class_info *cls)
{
	struct nlattr *tb[PACER_A_MAX + 1], *ctb[PACER_CLASS_A_MAX + 1];

	memset(cls, 0, sizeof(*cls));
	if (pacer_msg_parse(nlh, tb, dev) || !tb[PACER_A_CLASS] ||
	    nla_parse_nested(ctb, PACER_CLASS_A_MAX, tb[PACER_A_CLASS],
			     class_policy) < 0 ||
	    !ctb[PACER_CLASS_A_ID])
		return -EBADMSG;

	class_decode_config(ctb, cls);
	if (ctb[PACER_CLASS_A_STATS]) {
		cls->has |= PACER_BIT(PACER_CLASS_A_STATS);
		return pacer_class_stats_decode(ctb[PACER_CLASS_A_STATS],
						&cls->stats);
	}
	return 0;
}

/* ---- output ----------------------------------------------------------- */

/**
 * pacer_class_print_config() - print a class's attributes but its id
 * @cls: the class; only the attributes it has are printed
 *
 * Text: " name s3 rate 20Mbit burst 128Kb ceil none limit 100ms ...", an
 * automatic limit as "limit auto 220ms"; JSON: name, rate_bps, burst,
 * ceil_bps, limit_us or limit_bytes, limit_auto, target_us, rtt_us,
 * overhead, mpu.
 */
void pacer_class_print_config(const struct pacer_class_info *cls)
{
	char buf[UNITS_BUF_LEN];
	uint32_t has = cls->has;

#define HAS(attr) (has & PACER_BIT(PACER_CLASS_A_##attr))
	if (HAS(NAME)) {
		print_string(PRINT_JSON, "name", NULL, cls->name);
		if (*cls->name)
			print_string(PRINT_FP, NULL, " name %s", cls->name);
	}
	if (HAS(RATE)) {
		print_u64(PRINT_JSON, "rate_bps", NULL, cls->rate);
		print_string(PRINT_FP, NULL, " rate %s", cls->rate ?
			     format_rate(buf, sizeof(buf), cls->rate) :
			     "unlimited");
	}
	if (HAS(BURST)) {
		print_uint(PRINT_JSON, "burst", NULL, cls->burst);
		print_string(PRINT_FP, NULL, " burst %s",
			     format_size(buf, sizeof(buf), cls->burst));
	}
	if (HAS(CEIL)) {
		print_u64(PRINT_JSON, "ceil_bps", NULL, cls->ceil);
		print_string(PRINT_FP, NULL, " ceil %s", cls->ceil ?
			     format_rate(buf, sizeof(buf), cls->ceil) : "none");
	}
	if (HAS(LIMIT_US)) {
		print_uint(PRINT_JSON, "limit_us", NULL, cls->limit_us);
		print_bool(PRINT_JSON, "limit_auto", NULL, HAS(LIMIT_AUTO));
		print_string(PRINT_FP, NULL, HAS(LIMIT_AUTO) ?
			     " limit auto %s" : " limit %s",
			     format_time(buf, sizeof(buf),
					 cls->limit_us * UINT64_C(1000)));
	}
	if (HAS(LIMIT_BYTES)) {
		print_uint(PRINT_JSON, "limit_bytes", NULL, cls->limit_bytes);
		print_string(PRINT_FP, NULL, " limit %s",
			     format_size(buf, sizeof(buf), cls->limit_bytes));
	}
	/* What a time limit comes to at the rate: the bytes that may queue. */
	if (HAS(QUEUE_LIMIT)) {
		print_uint(PRINT_JSON, "queue_limit_bytes", NULL,
			   cls->queue_limit);
		if (HAS(LIMIT_US))
			print_string(PRINT_FP, NULL, " (%s)",
				     format_size(buf, sizeof(buf),
						 cls->queue_limit));
	}
	if (HAS(TARGET_US)) {
		print_uint(PRINT_JSON, "target_us", NULL, cls->target_us);
		print_string(PRINT_FP, NULL, " target %s",
			     format_time(buf, sizeof(buf),
					 cls->target_us * UINT64_C(1000)));
	}
	if (HAS(RTT_US)) {
		print_uint(PRINT_JSON, "rtt_us", NULL, cls->rtt_us);
		print_string(PRINT_FP, NULL, " rtt %s",
			     format_time(buf, sizeof(buf),
					 cls->rtt_us * UINT64_C(1000)));
	}
	if (HAS(OVERHEAD))
		print_int(PRINT_ANY, "overhead", " overhead %d", cls->overhead);
	if (HAS(MPU))
		print_uint(PRINT_ANY, "mpu", " mpu %u", cls->mpu);
	if (HAS(GSO) && cls->gso < ARRAY_SIZE(gso_names))
		print_string(PRINT_ANY, "gso", " gso %s", gso_names[cls->gso]);
#undef HAS
}

static void class_print(const struct pacer_class_info *cls,
			const struct pacer_opts *opts)
{
	bool stats = opts->stats && (cls->has & PACER_BIT(PACER_CLASS_A_STATS));

	open_json_object(NULL);
	print_uint(PRINT_ANY, "id", "class %u", cls->id);
	pacer_class_print_config(cls);
	if (stats)
		pacer_class_stats_print(&cls->stats, opts->stats);
	close_json_object();
	print_nl();
	if (stats)
		print_nl();	/* a blank line between blocks */
}

/* ---- commands --------------------------------------------------------- */

/*
 * Report a refused request: the device's own errors as "dev show" does,
 * the others as "cannot VERB class ID ...: REASON".
 */
static int class_fail(const struct class_args *a, int err, const char *extack)
{
	unsigned int id = a->cls.id;

	if (err == -ENODEV || err == -EOPNOTSUPP)
		return pacer_dev_fail(a->ifname, err, extack);
	switch (a->which) {
	case CLASS_ADD:
		return pacer_fail_request(err, extack, false,
					  "cannot add class %u to device \"%s\"",
					  id, a->ifname);
	case CLASS_CHANGE:
		return pacer_fail_request(err, extack, false,
					  "cannot change class %u of device \"%s\"",
					  id, a->ifname);
	case CLASS_DEL:
		return pacer_fail_request(err, extack, false,
					  "cannot delete class %u of device \"%s\"",
					  id, a->ifname);
	}
	if (a->cls.has & PACER_BIT(PACER_CLASS_A_ID))
		return pacer_fail_request(err, extack, false,
					  "cannot show class %u of device \"%s\"",
					  id, a->ifname);
	return pacer_fail_request(err, extack, false,
				  "cannot list the classes of device \"%s\"",
				  a->ifname);
}

/* Open the output (the JSON array) once, before the first class. */
static void class_show_start(struct class_show_ctx *ctx)
{
	if (!ctx->started)
		new_json_obj(ctx->opts->json, ctx->opts->pretty);
	ctx->started = true;
}

static int class_show_reply(struct nl_msg *msg, void *arg)
{
	struct class_show_ctx *ctx = arg;
	struct pacer_class_info cls;
	struct pacer_msg_dev dev;
	int err;

	err = pacer_class_decode(nlmsg_hdr(msg), &dev, &cls);
	if (err)
		return err;
	if (ctx->opts->prometheus)
		return pacer_prom_add(&ctx->prom, &cls);
	class_show_start(ctx);
	class_print(&cls, ctx->opts);
	return 0;
}

/* Send the request of a command; replies go to @fn. */
static int class_request(const struct class_args *a, uint8_t cmd, int flags,
			 pnl_reply_fn fn, void *arg, struct class_show_ctx *ctx)
{
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg;
	struct pnl nl;
	int ret, err;

	ret = pacer_open(&nl);
	if (ret)
		goto out;
	msg = pacer_class_msg(&nl, cmd, flags, a->ifname,
			      a->cls.has ? &a->cls : NULL);
	if (!msg) {
		ret = pacer_fail("out of memory");
		goto out;
	}
	err = pnl_request(&nl, msg, fn, arg, extack, sizeof(extack));
	if (ctx && ctx->opts->prometheus) {
		if (!err)
			pacer_prom_print(stdout, &ctx->prom);
	} else if (ctx) {
		if (!err)
			class_show_start(ctx);	/* "[]" when there is none */
		if (ctx->started)
			delete_json_obj();
	}
	if (err)
		ret = class_fail(a, err, extack);
	else
		pacer_warn_extack(extack);
out:
	if (ctx)
		pacer_prom_free(&ctx->prom);	/* whether or not it was used */
	pnl_close(&nl);
	return ret;
}

/**
 * pacer_class_show() - "class show", or a command that is the same
 * @argc: argument count, after the command
 * @argv: arguments
 * @opts: global options
 * @command: the command's name, for messages ("class show")
 *
 * Return: the exit status.
 */
int pacer_class_show(int argc, char **argv, const struct pacer_opts *opts,
		     const char *command)
{
	struct class_args a = { .command = command, .which = CLASS_SHOW };
	struct class_show_ctx ctx = { .opts = opts };
	int ret;

	ret = class_parse(argc, argv, &a);
	if (ret || a.help)
		return ret;
	ctx.prom.ifname = a.ifname;
	return class_request(&a, PACER_CMD_CLASS_GET,
			     a.cls.has ? 0 : NLM_F_DUMP, class_show_reply, &ctx,
			     &ctx);
}

static int class_show(int argc, char **argv, const struct pacer_opts *opts)
{
	return pacer_class_show(argc, argv, opts, "class show");
}

/* add, change, del: one request; the reply (the class) is not printed. */
static int class_set(int argc, char **argv, unsigned int which,
		     const char *command, uint8_t cmd)
{
	struct class_args a = { .command = command, .which = which };
	int ret;

	ret = class_parse(argc, argv, &a);
	if (ret || a.help)
		return ret;
	return class_request(&a, cmd, 0, NULL, NULL, NULL);
}

static int class_add(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)opts;
	return class_set(argc, argv, CLASS_ADD, "class add",
			 PACER_CMD_CLASS_NEW);
}

static int class_change(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)opts;
	return class_set(argc, argv, CLASS_CHANGE, "class change",
			 PACER_CMD_CLASS_SET);
}

static int class_del(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)opts;
	return class_set(argc, argv, CLASS_DEL, "class del",
			 PACER_CMD_CLASS_DEL);
}

/**
 * do_class() - pacerctl class COMMAND ...
 * @argc: argument count, the command first
 * @argv: arguments
 * @opts: global options
 *
 * Return: the exit status.
 */
int do_class(int argc, char **argv, const struct pacer_opts *opts)
{
	return pacer_dispatch(class_cmds, ARRAY_SIZE(class_cmds), "command",
			      "class", argc, argv, opts);
}
