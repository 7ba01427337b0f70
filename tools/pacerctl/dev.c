// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl dev: the pacer devices of this network namespace.
 *
 *   pacerctl [-j] [-p] [-s] dev show [ dev NAME ]
 *
 * Arguments are parsed into struct dev_show_args, sent as PACER_CMD_DEV_GET
 * (a dump without NAME), and each reply is decoded into struct pacer_dev
 * and printed.
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pacer.h>
#include <netlink/genl/genl.h>

#include "nl.h"
#include "objects.h"
#include "pacerctl.h"
#include "print.h"

/* The device counters, in the order printed (and as ethtool -S lists them). */
static const struct dev_stat {
	int attr;
	const char *key;	/* JSON key */
	const char *group;	/* text: the line it is on */
	const char *label;	/* text: its name on that line */
} dev_stats[] = {
	{ PACER_DEV_STATS_RX_PACKETS, "rx_packets", "rx", "packets" },
	{ PACER_DEV_STATS_RX_BYTES, "rx_bytes", "rx", "bytes" },
	{ PACER_DEV_STATS_TX_PACKETS, "tx_packets", "tx", "packets" },
	{ PACER_DEV_STATS_TX_BYTES, "tx_bytes", "tx", "bytes" },
	{ PACER_DEV_STATS_DELAYED_PACKETS, "delayed_packets", "tx", "delayed" },
	{ PACER_DEV_STATS_ECN_MARKED, "ecn_marked", "tx", "ecn_marked" },
	{ PACER_DEV_STATS_DROPPED_NOT_REDIRECTED, "dropped_not_redirected",
	  "dropped", "not_redirected" },
	{ PACER_DEV_STATS_DROPPED_QUEUE_LIMIT, "dropped_queue_limit",
	  "dropped", "queue_limit" },
	{ PACER_DEV_STATS_DROPPED_MEMORY, "dropped_memory",
	  "dropped", "memory" },
	{ PACER_DEV_STATS_DROPPED_REINJECT, "dropped_reinject",
	  "dropped", "reinject" },
	{ PACER_DEV_STATS_DROPPED_FLUSH, "dropped_flush", "dropped", "flush" },
	{ PACER_DEV_STATS_BACKLOG_PACKETS, "backlog_packets",
	  "backlog", "packets" },
	{ PACER_DEV_STATS_BACKLOG_BYTES, "backlog_bytes", "backlog", "bytes" },
};

static const struct nla_policy msg_policy[PACER_A_MAX + 1] = {
	[PACER_A_IFINDEX] = { .type = NLA_U32 },
	[PACER_A_IFNAME] = { .type = NLA_STRING, .maxlen = IF_NAMESIZE },
	[PACER_A_DEV_STATS] = { .type = NLA_NESTED },
	[PACER_A_CLASS] = { .type = NLA_NESTED },
	[PACER_A_RULE] = { .type = NLA_NESTED },
};

static const struct nla_policy dev_stats_policy[PACER_DEV_STATS_MAX + 1] = {
	[PACER_DEV_STATS_RX_PACKETS ... PACER_DEV_STATS_BACKLOG_BYTES] = {
		.type = NLA_U64
	},
	[PACER_DEV_STATS_DELAYED_PACKETS ... PACER_DEV_STATS_ECN_MARKED] = {
		.type = NLA_U64
	},
};

/**
 * struct pacer_dev - a device as a PACER_CMD_DEV_GET reply describes it
 * @ifindex: its ifindex
 * @ifname: its name, pointing into the reply
 * @has_stats: the reply carried PACER_A_DEV_STATS
 * @has: which counters it carried, by attribute
 * @stats: their values, by attribute
 */
struct pacer_dev {
	uint32_t ifindex;
	const char *ifname;
	bool has_stats;
	bool has[PACER_DEV_STATS_MAX + 1];
	uint64_t stats[PACER_DEV_STATS_MAX + 1];
};

/**
 * struct dev_show_args - the arguments of "dev show"
 * @ifname: the device asked for, NULL for all
 * @help: help was asked for and printed
 */
struct dev_show_args {
	const char *ifname;
	bool help;
};

/**
 * struct dev_show_ctx - the state of "dev show" while replies arrive
 * @opts: global options
 * @started: the output is started (the JSON array is open)
 */
struct dev_show_ctx {
	const struct pacer_opts *opts;
	bool started;
};

static int dev_show(int argc, char **argv, const struct pacer_opts *opts);
static int dev_help(int argc, char **argv, const struct pacer_opts *opts);

static const struct pacerctl_cmd dev_cmds[] = {
	{ "show", dev_show, "the pacer devices of this network namespace" },
	{ "help", dev_help, "this text" },
};

static void dev_usage(FILE *f)
{
	fputs("Usage: pacerctl [ -j ] [ -p ] [ -s ] dev show [ dev NAME ]\n"
	      "       pacerctl dev help\n"
	      "\n"
	      "Commands:\n", f);
	pacer_print_cmds(f, dev_cmds, ARRAY_SIZE(dev_cmds));
	fputs("\n"
	      "\"dev show\" lists every pacer device of this network namespace,\n"
	      "or only NAME; -s adds the device's counters.\n", f);
}

static int dev_help(int argc, char **argv, const struct pacer_opts *opts)
{
	(void)argc;
	(void)argv;
	(void)opts;
	dev_usage(stdout);
	return EXIT_SUCCESS;
}

/**
 * pacer_dev_fail() - report a request about a device that the kernel refused
 * @ifname: the device
 * @err: the negative errno
 * @extack: the kernel's message, "" if none
 *
 * Return: EXIT_FAILURE.
 */
int pacer_dev_fail(const char *ifname, int err, const char *extack)
{
	switch (err) {
	case -ENODEV:
		return pacer_fail_request(err, extack, true,
					  "device \"%s\" does not exist",
					  ifname);
	case -EOPNOTSUPP:
		return pacer_fail_request(err, extack, true,
					  "device \"%s\" is not a pacer device",
					  ifname);
	default:
		return pacer_fail_request(err, extack, false, "device \"%s\"",
					  ifname);
	}
}

static int dev_show_parse(int argc, char **argv, struct dev_show_args *a)
{
	int ret;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "dev")) {
			if (a->ifname)
				return pacer_duplicate_arg("dev");
			ret = pacer_next_value(&argc, &argv) ?:
			      pacer_check_ifname(*argv);
			if (ret)
				return ret;
			a->ifname = *argv;
		} else if (pacer_is_help(*argv)) {
			dev_usage(stdout);
			a->help = true;
			return 0;
		} else {
			return pacer_unknown_arg(*argv, "dev show", "dev NAME");
		}
	}
	return 0;
}

static int dev_decode_stats(struct nlattr *nest, struct pacer_dev *dev)
{
	struct nlattr *tb[PACER_DEV_STATS_MAX + 1];
	size_t i;

	if (nla_parse_nested(tb, PACER_DEV_STATS_MAX, nest,
			     dev_stats_policy) < 0)
		return -EBADMSG;

	dev->has_stats = true;
	for (i = 0; i < ARRAY_SIZE(dev_stats); i++) {
		int attr = dev_stats[i].attr;

		if (tb[attr]) {
			dev->has[attr] = true;
			dev->stats[attr] = nla_get_u64(tb[attr]);
		}
	}
	return 0;
}

/**
 * pacer_msg_parse() - the top-level attributes of a reply or an event
 * @nlh: the message
 * @tb: its attributes, PACER_A_MAX + 1 of them
 * @dev: the device it names
 *
 * Return: 0, or -EBADMSG if it is malformed or names no device.
 */
int pacer_msg_parse(struct nlmsghdr *nlh, struct nlattr **tb,
		    struct pacer_msg_dev *dev)
{
	if (genlmsg_parse(nlh, 0, tb, PACER_A_MAX, msg_policy) < 0 ||
	    !tb[PACER_A_IFINDEX] || !tb[PACER_A_IFNAME])
		return -EBADMSG;
	dev->ifindex = nla_get_u32(tb[PACER_A_IFINDEX]);
	dev->ifname = nla_get_string(tb[PACER_A_IFNAME]);
	return 0;
}

static int dev_decode(struct nl_msg *msg, struct pacer_dev *dev)
{
	struct nlattr *tb[PACER_A_MAX + 1];
	struct pacer_msg_dev hdr;

	memset(dev, 0, sizeof(*dev));
	if (pacer_msg_parse(nlmsg_hdr(msg), tb, &hdr))
		return -EBADMSG;

	dev->ifindex = hdr.ifindex;
	dev->ifname = hdr.ifname;
	if (tb[PACER_A_DEV_STATS])
		return dev_decode_stats(tb[PACER_A_DEV_STATS], dev);
	return 0;
}

/*
 * Text: one line per group ("    rx packets 1 bytes 60"); JSON: one
 * "stats" object.
 */
static void dev_print_stats(const struct pacer_dev *dev)
{
	const char *group = NULL;
	size_t i;

	open_json_object("stats");
	for (i = 0; i < ARRAY_SIZE(dev_stats); i++) {
		const struct dev_stat *s = &dev_stats[i];

		if (!dev->has[s->attr])
			continue;
		if (!group || strcmp(group, s->group)) {
			group = s->group;
			print_string(PRINT_FP, NULL, "\n    %s", group);
		}
		print_string(PRINT_FP, NULL, " %s", s->label);
		print_u64(PRINT_ANY, s->key, " %" PRIu64, dev->stats[s->attr]);
	}
	close_json_object();
}

static void dev_print(const struct pacer_dev *dev,
		      const struct pacer_opts *opts)
{
	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%s:", dev->ifname);
	print_uint(PRINT_ANY, "ifindex", " ifindex %u", dev->ifindex);
	if (opts->stats && dev->has_stats)
		dev_print_stats(dev);
	close_json_object();
	print_nl();
}

/* Open the output (the JSON array) once, before the first device. */
static void dev_show_start(struct dev_show_ctx *ctx)
{
	if (!ctx->started)
		new_json_obj(ctx->opts->json, ctx->opts->pretty);
	ctx->started = true;
}

static int dev_show_reply(struct nl_msg *msg, void *arg)
{
	struct dev_show_ctx *ctx = arg;
	struct pacer_dev dev;
	int err;

	err = dev_decode(msg, &dev);
	if (err)
		return err;
	dev_show_start(ctx);
	dev_print(&dev, ctx->opts);
	return 0;
}

static struct nl_msg *dev_show_msg(const struct pnl *nl,
				   const struct dev_show_args *a)
{
	struct nl_msg *msg;

	msg = pnl_msg(nl, PACER_CMD_DEV_GET, a->ifname ? 0 : NLM_F_DUMP);
	if (msg && a->ifname &&
	    nla_put_string(msg, PACER_A_IFNAME, a->ifname) < 0) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

static int dev_show(int argc, char **argv, const struct pacer_opts *opts)
{
	struct dev_show_ctx ctx = { .opts = opts };
	struct dev_show_args args = { 0 };
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg;
	struct pnl nl;
	int ret, err;

	ret = dev_show_parse(argc, argv, &args);
	if (ret || args.help)
		return ret;

	ret = pacer_open(&nl);
	if (ret)
		goto out;

	msg = dev_show_msg(&nl, &args);
	if (!msg) {
		ret = pacer_fail("out of memory");
		goto out;
	}

	err = pnl_request(&nl, msg, dev_show_reply, &ctx, extack,
			  sizeof(extack));
	if (!err)
		dev_show_start(&ctx);	/* "[]" when there is none */
	if (ctx.started)
		delete_json_obj();

	if (err && args.ifname)
		ret = pacer_dev_fail(args.ifname, err, extack);
	else if (err)
		ret = pacer_fail_request(err, extack, false,
					 "cannot list pacer devices");
	else
		pacer_warn_extack(extack);
out:
	pnl_close(&nl);
	return ret;
}

/**
 * do_dev() - pacerctl dev COMMAND ...
 * @argc: argument count, the command first
 * @argv: arguments
 * @opts: global options
 *
 * Return: the exit status.
 */
int do_dev(int argc, char **argv, const struct pacer_opts *opts)
{
	return pacer_dispatch(dev_cmds, ARRAY_SIZE(dev_cmds), "command",
			      "dev", argc, argv, opts);
}
