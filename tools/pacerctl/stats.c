// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl stats: the counters of a device's classes.
 *
 *   pacerctl [-j] [-p] stats show dev DEV [ id ID ]
 *   pacerctl stats reset dev DEV [ id ID ]
 *
 * "stats show" is "class show" with -s.  "stats reset" sends one
 * PACER_CMD_STATS_RESET: for one class, or for every class of the device
 * at once.
 *
 * This file also decodes and prints the counters (PACER_CLASS_A_STATS)
 * that "class show -s" shows, and derives what they tell together: the
 * share of packets delayed, the average and the 99th percentile sojourn.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pacer.h>
#include <netlink/attr.h>

#include "nl.h"
#include "objects.h"
#include "pacerctl.h"
#include "print.h"
#include "units.h"

/* ---- decoding and printing the counters -------------------------------- */

static const struct nla_policy stats_policy[PACER_STATS_A_MAX + 1] = {
	[PACER_STATS_A_RX_PACKETS ... PACER_STATS_A_DELAY_NS_MAX] = {
		.type = NLA_U64
	},
	[PACER_STATS_A_DELAY_HIST] = { .type = NLA_NESTED },
	[PACER_STATS_A_DROPPED_PACKETS ... PACER_STATS_A_DROPPED_BYTES] = {
		.type = NLA_U64
	},
	[PACER_STATS_A_DROPS] = { .type = NLA_NESTED },
	[PACER_STATS_A_ECN_MARKED ... PACER_STATS_A_BACKLOG_PEAK_BYTES] = {
		.type = NLA_U64
	},
	[PACER_STATS_A_ECN_UNPARSED] = { .type = NLA_U64 },
	[PACER_STATS_A_DELAY_US_TOTAL] = { .type = NLA_U64 },
};

/*
 * A nest of u64 counters numbered from 1, into @v[0 .. @n - 1].  Read
 * attribute by attribute: the kernel pads 64-bit values with attributes
 * of type PACER_STATS_A_PAD, a number that is also a histogram bucket's,
 * so padding (empty attributes) is skipped rather than parsed.
 */
static void stats_decode_counters(struct nlattr *nest, uint64_t *v, int n)
{
	struct nlattr *a;
	int rem;

	nla_for_each_nested(a, nest, rem)
		if (nla_type(a) >= 1 && nla_type(a) <= n &&
		    nla_len(a) >= (int)sizeof(uint64_t))
			v[nla_type(a) - 1] = nla_get_u64(a);
}

/**
 * pacer_class_stats_decode() - decode PACER_CLASS_A_STATS
 * @nest: the attribute
 * @st: the counters; st->has says which it carried
 *
 * Return: 0, or -EBADMSG if it is malformed.
 */
int pacer_class_stats_decode(struct nlattr *nest, struct pacer_class_stats *st)
{
	struct nlattr *tb[PACER_STATS_A_MAX + 1];
	int i;

	if (nla_parse_nested(tb, PACER_STATS_A_MAX, nest, stats_policy) < 0)
		return -EBADMSG;
	for (i = 1; i <= PACER_STATS_A_MAX; i++) {
		if (!tb[i] || i == PACER_STATS_A_PAD)
			continue;
		st->has |= PACER_BIT(i);
		if (i == PACER_STATS_A_DELAY_HIST)
			stats_decode_counters(tb[i], st->hist,
					      PACER_HIST_BUCKETS);
		else if (i == PACER_STATS_A_DROPS)
			stats_decode_counters(tb[i], st->drops + 1,
					      PACER_DROP_MAX);
		else
			st->v[i] = nla_get_u64(tb[i]);
	}
	return 0;
}

/*
 * What the counters tell once combined: of the packets sent, the share
 * that waited; their average sojourn; and the median and 99th percentile
 * sojourns, as the upper bounds of the histogram buckets that reach 50 %
 * and 99 %.
 */
struct stats_derived {
	double delayed_share;
	uint64_t delay_avg_us;
	uint64_t delay_p50_us;
	uint64_t delay_p99_us;
};

/*
 * The PCT-th percentile: the upper bound (in us) of the first bucket
 * where the cumulative count reaches PCT % of all; for the last bucket,
 * which has no bound, the longest sojourn, rounded up to the microsecond.
 * The counts are 64-bit: in 128 bits, the sum and the products with 100
 * and PCT do not wrap (they would from 2^64 / 100 packets).
 */
static uint64_t stats_quantile_us(const struct pacer_class_stats *st,
				  unsigned int pct)
{
	unsigned __int128 total = 0, cum = 0;
	int i;

	for (i = 0; i < PACER_HIST_BUCKETS; i++)
		total += st->hist[i];
	if (!total)
		return 0;
	for (i = 0; i < PACER_HIST_BUCKETS - 1; i++) {
		cum += st->hist[i];
		if (cum * 100 >= total * pct)	/* exact: no float */
			return pacer_hist_bound_us(i);
	}
	return (st->v[PACER_STATS_A_DELAY_NS_MAX] + 999) / 1000;
}

static void stats_derive(const struct pacer_class_stats *st,
			 struct stats_derived *d)
{
	uint64_t tx = st->v[PACER_STATS_A_TX_PACKETS];

	d->delayed_share = 0;
	d->delay_avg_us = 0;
	if (tx) {
		d->delayed_share =
			(double)st->v[PACER_STATS_A_DELAYED_PACKETS] / tx;
		/*
		 * Rounded to the nearest microsecond; from the sum in ns
		 * only for a module that sends no sum in us (that one wraps).
		 */
		if (st->has & PACER_BIT(PACER_STATS_A_DELAY_US_TOTAL))
			d->delay_avg_us =
				(st->v[PACER_STATS_A_DELAY_US_TOTAL] + tx / 2) / tx;
		else
			d->delay_avg_us =
				(st->v[PACER_STATS_A_DELAY_NS_TOTAL] / tx + 500) /
				1000;
	}
	d->delay_p50_us = stats_quantile_us(st, 50);
	d->delay_p99_us = stats_quantile_us(st, 99);
}

/* The JSON keys of the scalar counters, by attribute. */
static const char *const stats_keys[PACER_STATS_A_MAX + 1] = {
	[PACER_STATS_A_RX_PACKETS] = "rx_packets",
	[PACER_STATS_A_RX_BYTES] = "rx_bytes",
	[PACER_STATS_A_TX_PACKETS] = "tx_packets",
	[PACER_STATS_A_TX_BYTES] = "tx_bytes",
	[PACER_STATS_A_DELAYED_PACKETS] = "delayed_packets",
	[PACER_STATS_A_DELAYED_BYTES] = "delayed_bytes",
	[PACER_STATS_A_DELAY_NS_TOTAL] = "delay_ns_total",
	[PACER_STATS_A_DELAY_US_TOTAL] = "delay_us_total",
	[PACER_STATS_A_DELAY_NS_MAX] = "delay_ns_max",
	[PACER_STATS_A_DROPPED_PACKETS] = "dropped_packets",
	[PACER_STATS_A_DROPPED_BYTES] = "dropped_bytes",
	[PACER_STATS_A_ECN_MARKED] = "ecn_marked",
	[PACER_STATS_A_ECN_UNPARSED] = "ecn_unparsed",
	[PACER_STATS_A_BACKLOG_PACKETS] = "backlog_packets",
	[PACER_STATS_A_BACKLOG_BYTES] = "backlog_bytes",
	[PACER_STATS_A_BACKLOG_PEAK_BYTES] = "backlog_peak_bytes",
};

static const char *const drop_keys[PACER_DROP_MAX + 1] = {
	[PACER_DROP_QUEUE_LIMIT] = "queue_limit",
	[PACER_DROP_MEMORY] = "memory",
	[PACER_DROP_REINJECT] = "reinject",
	[PACER_DROP_FLUSH] = "flush",
	[PACER_DROP_CONGESTION] = "congestion",
};

static void stats_json_hist(const struct pacer_class_stats *st)
{
	int i;

	open_json_array("delay_hist");
	for (i = 0; i < PACER_HIST_BUCKETS; i++) {
		open_json_object(NULL);
		if (i < PACER_HIST_BUCKETS - 1)
			print_u64(PRINT_JSON, "le_us", NULL,
				  pacer_hist_bound_us(i));
		else
			print_null(PRINT_JSON, "le_us", NULL, NULL);
		print_u64(PRINT_JSON, "packets", NULL, st->hist[i]);
		close_json_object();
	}
	close_json_array();
}

/* JSON: the "stats" object, its keys in the order of the attributes. */
static void stats_json(const struct pacer_class_stats *st,
		       const struct stats_derived *d)
{
	int i, r;

	open_json_object("stats");
	for (i = 1; i <= PACER_STATS_A_MAX; i++) {
		if (!(st->has & PACER_BIT(i)))
			continue;
		if (i == PACER_STATS_A_DELAY_HIST) {
			stats_json_hist(st);
		} else if (i == PACER_STATS_A_DROPS) {
			open_json_object("drops");
			for (r = 1; r <= PACER_DROP_MAX; r++)
				print_u64(PRINT_JSON, drop_keys[r], NULL,
					  st->drops[r]);
			close_json_object();
		} else if (stats_keys[i]) {
			print_u64(PRINT_JSON, stats_keys[i], NULL, st->v[i]);
		}
	}
	print_float(PRINT_JSON, "delayed_share", NULL, d->delayed_share);
	print_u64(PRINT_JSON, "delay_avg_us", NULL, d->delay_avg_us);
	print_u64(PRINT_JSON, "delay_p50_us", NULL, d->delay_p50_us);
	print_u64(PRINT_JSON, "delay_p99_us", NULL, d->delay_p99_us);
	close_json_object();
}

/* Text, -s -s: " sojourn histogram: <=4us 3, <=10us 10, >1.05s 1" */
static void stats_text_hist(const struct pacer_class_stats *st)
{
	char buf[UNITS_BUF_LEN];
	const char *sep = "";
	int i;

	printf("\n sojourn histogram:");
	for (i = 0; i < PACER_HIST_BUCKETS; i++) {
		bool last = i == PACER_HIST_BUCKETS - 1;

		if (!st->hist[i])
			continue;
		/* the last bucket: more than the one before it */
		format_time(buf, sizeof(buf),
			    1000 * pacer_hist_bound_us(i - last));
		printf("%s %s%s %" PRIu64, sep, last ? ">" : "<=", buf,
		       st->hist[i]);
		sep = ",";
	}
	if (!*sep)
		printf(" empty");
}

/*
 * Text:
 *  Received 1300 bytes 13 pkt
 *  Sent 1234 bytes 12 pkt (dropped 1, backlog 0b 0p)
 *  delayed 10 pkt (83.3%) 12000 bytes, sojourn avg 1.2ms p50 <=1ms
 *   p99 <=4.1ms max 5.1ms   (one line)
 *  drops 66 bytes: queue_limit 1 memory 0 reinject 0 flush 0 congestion 0,
 *   ecn_marked 0 ecn_unparsed 0, backlog peak 64Kb   (all on one line)
 */
static void stats_text(const struct pacer_class_stats *st,
		       const struct stats_derived *d, int level)
{
	char b1[UNITS_BUF_LEN], b2[UNITS_BUF_LEN], b3[UNITS_BUF_LEN];
	char b4[UNITS_BUF_LEN];
	const uint64_t *v = st->v;
	int r;

	printf("\n Received %" PRIu64 " bytes %" PRIu64 " pkt",
	       v[PACER_STATS_A_RX_BYTES], v[PACER_STATS_A_RX_PACKETS]);
	printf("\n Sent %" PRIu64 " bytes %" PRIu64 " pkt (dropped %" PRIu64
	       ", backlog %s %" PRIu64 "p)",
	       v[PACER_STATS_A_TX_BYTES], v[PACER_STATS_A_TX_PACKETS],
	       v[PACER_STATS_A_DROPPED_PACKETS],
	       format_size(b1, sizeof(b1), v[PACER_STATS_A_BACKLOG_BYTES]),
	       v[PACER_STATS_A_BACKLOG_PACKETS]);
	printf("\n delayed %" PRIu64 " pkt (%.1f%%) %" PRIu64
	       " bytes, sojourn avg %s p50 <=%s p99 <=%s max %s",
	       v[PACER_STATS_A_DELAYED_PACKETS], d->delayed_share * 100,
	       v[PACER_STATS_A_DELAYED_BYTES],
	       format_time(b1, sizeof(b1), d->delay_avg_us * 1000),
	       format_time(b4, sizeof(b4), d->delay_p50_us * 1000),
	       format_time(b2, sizeof(b2), d->delay_p99_us * 1000),
	       format_time(b3, sizeof(b3), v[PACER_STATS_A_DELAY_NS_MAX]));
	printf("\n drops %" PRIu64 " bytes:", v[PACER_STATS_A_DROPPED_BYTES]);
	for (r = 1; r <= PACER_DROP_MAX; r++)
		printf(" %s %" PRIu64, drop_keys[r], st->drops[r]);
	printf(", ecn_marked %" PRIu64 " ecn_unparsed %" PRIu64
	       ", backlog peak %s",
	       v[PACER_STATS_A_ECN_MARKED], v[PACER_STATS_A_ECN_UNPARSED],
	       format_size(b1, sizeof(b1),
			   v[PACER_STATS_A_BACKLOG_PEAK_BYTES]));
	if (level > 1)
		stats_text_hist(st);
}

/**
 * pacer_class_stats_print() - print the counters of a class
 * @st: the counters
 * @level: how many times -s was given; from 2, text shows the histogram
 *
 * JSON: a "stats" object, the counters under their attribute's name, then
 * delayed_share, delay_avg_us, delay_p50_us and delay_p99_us.  Text: four lines (five
 * with the histogram), each starting with a new line.
 */
void pacer_class_stats_print(const struct pacer_class_stats *st, int level)
{
	struct stats_derived d;

	stats_derive(st, &d);
	if (is_json_context())
		stats_json(st, &d);
	else
		stats_text(st, &d, level);
}

/* ---- commands --------------------------------------------------------- */


/**
 * struct stats_reset_args - the arguments of "stats reset"
 * @ifname: the device
 * @cls: PACER_CLASS_A_ID when one class is meant (cls.has says so)
 * @help: help was asked for and printed
 */
struct stats_reset_args {
	const char *ifname;
	struct pacer_class_info cls;
	bool help;
};

static int stats_show(int argc, char **argv, const struct pacer_opts *opts);
static int stats_reset(int argc, char **argv, const struct pacer_opts *opts);
static int stats_help(int argc, char **argv, const struct pacer_opts *opts);

static const struct pacerctl_cmd stats_cmds[] = {
	{ "show", stats_show, "the classes and their counters (class show -s)" },
	{ "reset", stats_reset, "zero the counters of one class or of all" },
	{ "help", stats_help, "this text" },
};

static void stats_usage(FILE *f)
{
	fputs("Usage: pacerctl [ -j ] [ -p ] stats show dev DEV [ id ID ]\n"
	      "       pacerctl stats reset dev DEV [ id ID ]\n"
	      "       pacerctl stats help\n"
	      "\n"
	      "Commands:\n", f);
	pacer_print_cmds(f, stats_cmds, ARRAY_SIZE(stats_cmds));
	fputs("\n"
	      "\"stats reset\" zeroes the counters of class ID, or of every class of\n"
	      "DEV without id; packets still queued then count as received, so that\n"
	      "rx = tx + dropped + backlog still holds.  The device's own totals\n"
	      "(\"dev show -s\", ip -s link, ethtool -S) are not reset.\n", f);
}

static int stats_help(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)argc;
	(void)argv;
	(void)opts;
	stats_usage(stdout);
	return EXIT_SUCCESS;
}

static int stats_show(int argc, char **argv, const struct pacer_opts *opts)
{
	struct pacer_opts o = *opts;
	int i;

	/* Keywords are at even positions: "help" there is this text. */
	for (i = 0; i < argc; i += 2) {
		if (pacer_is_help(argv[i])) {
			stats_usage(stdout);
			return EXIT_SUCCESS;
		}
	}
	if (!o.stats)
		o.stats = 1;
	return pacer_class_show(argc, argv, &o, "stats show");
}

static int stats_reset_parse(int argc, char **argv,
			     struct stats_reset_args *a)
{
	int ret;

	for (; argc > 0; argc--, argv++) {
		if (pacer_is_help(*argv)) {
			stats_usage(stdout);
			a->help = true;
			return 0;
		}
		if (!strcmp(*argv, "dev")) {
			ret = pacer_parse_dev(&argc, &argv, &a->ifname);
			if (ret)
				return ret;
		} else if (!strcmp(*argv, "id")) {
			if (a->cls.has)
				return pacer_duplicate_arg("id");
			ret = pacer_next_value(&argc, &argv) ?:
			      pacer_class_parse_id("id", *argv, &a->cls.id);
			if (ret)
				return ret;
			a->cls.has = PACER_BIT(PACER_CLASS_A_ID);
		} else {
			return pacer_unknown_arg(*argv, "stats reset",
						 "dev DEV [ id ID ]");
		}
	}
	if (!a->ifname)
		return pacer_usage_error("\"stats reset\" needs \"dev DEV\"");
	return 0;
}

static int stats_reset_fail(const struct stats_reset_args *a, int err,
			    const char *extack)
{
	if (err == -ENODEV || err == -EOPNOTSUPP)
		return pacer_dev_fail(a->ifname, err, extack);
	if (a->cls.has)
		return pacer_fail_request(err, extack, false,
					  "cannot reset the counters of class %u of device \"%s\"",
					  a->cls.id, a->ifname);
	return pacer_fail_request(err, extack, false,
				  "cannot reset the counters of device \"%s\"",
				  a->ifname);
}

static int stats_reset(int argc, char **argv, const struct pacer_opts *opts)
{
	struct stats_reset_args a = { 0 };
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg;
	struct pnl nl;
	int ret, err;

	(void)opts;
	ret = stats_reset_parse(argc, argv, &a);
	if (ret || a.help)
		return ret;

	ret = pacer_open(&nl);
	if (ret)
		goto out;
	msg = pacer_class_msg(&nl, PACER_CMD_STATS_RESET, 0, a.ifname,
			      a.cls.has ? &a.cls : NULL);
	if (!msg) {
		ret = pacer_fail("out of memory");
		goto out;
	}
	err = pnl_request(&nl, msg, NULL, NULL, extack, sizeof(extack));
	if (err)
		ret = stats_reset_fail(&a, err, extack);
	else
		pacer_warn_extack(extack);
out:
	pnl_close(&nl);
	return ret;
}

/**
 * do_stats() - pacerctl stats COMMAND ...
 * @argc: argument count, the command first
 * @argv: arguments
 * @opts: global options
 *
 * Return: the exit status.
 */
int do_stats(int argc, char **argv, const struct pacer_opts *opts)
{
	return pacer_dispatch(stats_cmds, ARRAY_SIZE(stats_cmds), "command",
			      "stats", argc, argv, opts);
}
