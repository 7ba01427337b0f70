// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl dev: the pacer devices of this network namespace.
 *
 *   pacerctl [-j] [-p] [-s] dev show [ dev NAME ]
 *   pacerctl [-j] [-p] dev set dev NAME [ max_classes N ] [ max_rules N ]
 *                                [ max_memory SIZE ]
 *
 * Arguments are parsed into struct dev_show_args (dev_set_args), sent as
 * PACER_CMD_DEV_GET (a dump without NAME) or PACER_CMD_DEV_SET, and each
 * reply is decoded into struct pacer_dev (objects.h) and printed.
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
#include "units.h"

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
	{ PACER_DEV_STATS_ECN_UNPARSED, "ecn_unparsed", "tx", "ecn_unparsed" },
	{ PACER_DEV_STATS_DROPPED_NOT_REDIRECTED, "dropped_not_redirected",
	  "dropped", "not_redirected" },
	{ PACER_DEV_STATS_DROPPED_QUEUE_LIMIT, "dropped_queue_limit",
	  "dropped", "queue_limit" },
	{ PACER_DEV_STATS_DROPPED_CONGESTION, "dropped_congestion",
	  "dropped", "congestion" },
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
	[PACER_A_MAX_CLASSES ... PACER_A_MAX_MEMORY] = { .type = NLA_U32 },
	[PACER_A_CPU_STATS] = { .type = NLA_NESTED },
};

static const struct nla_policy cpu_stats_policy[PACER_CPU_STATS_A_MAX + 1] = {
	[PACER_CPU_STATS_A_CPU] = { .type = NLA_U32 },
	[PACER_CPU_STATS_A_RX_PACKETS] = { .type = NLA_U64 },
	[PACER_CPU_STATS_A_TX_PACKETS] = { .type = NLA_U64 },
	[PACER_CPU_STATS_A_JOINED_PACKETS] = { .type = NLA_U64 },
};

static const struct nla_policy dev_stats_policy[PACER_DEV_STATS_MAX + 1] = {
	[PACER_DEV_STATS_RX_PACKETS ... PACER_DEV_STATS_BACKLOG_BYTES] = {
		.type = NLA_U64
	},
	[PACER_DEV_STATS_DELAYED_PACKETS ... PACER_DEV_STATS_DROPPED_CONGESTION] = {
		.type = NLA_U64
	},
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
 * struct dev_set_args - the arguments of "dev set"
 * @ifname: the device
 * @max_classes: the new cap on classes, 0 to keep it
 * @max_rules: the new cap on rules, 0 to keep it
 * @max_memory: the new cap on queued bytes, 0 to keep it
 * @help: help was asked for and printed
 */
struct dev_set_args {
	const char *ifname;
	uint32_t max_classes;
	uint32_t max_rules;
	uint32_t max_memory;
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
static int dev_set(int argc, char **argv, const struct pacer_opts *opts);
static int dev_help(int argc, char **argv, const struct pacer_opts *opts);

static const struct pacerctl_cmd dev_cmds[] = {
	{ "show", dev_show, "the pacer devices of this network namespace" },
	{ "set", dev_set, "change a device's caps on classes, rules and memory" },
	{ "help", dev_help, "this text" },
};

static void dev_usage(FILE *f)
{
	fputs("Usage: pacerctl [ -j ] [ -p ] [ -s ] dev show [ dev NAME ]\n"
	      "       pacerctl [ -j ] [ -p ] dev set dev NAME [ max_classes N ] [ max_rules N ]\n"
	      "                                     [ max_memory SIZE ]\n"
	      "       pacerctl dev help\n"
	      "\n"
	      "Commands:\n", f);
	pacer_print_cmds(f, dev_cmds, ARRAY_SIZE(dev_cmds));
	fputs("\n"
	      "\"dev show\" lists every pacer device of this network namespace,\n"
	      "or only NAME, with how many classes and rules it has and may have;\n"
	      "-s adds the device's counters.\n"
	      "\"dev set\" changes the caps: max_classes (class 0 included) and\n"
	      "max_rules, each from 1 to the module parameter of the same name,\n"
	      "and max_memory, what the device's queues may hold, from 1m to the\n"
	      "module parameter (/sys/module/pacer/parameters/); each parameter\n"
	      "is also the default.  -s -s lists what each CPU received and\n"
	      "re-injected: a CPU re-injects the packets it received.\n", f);
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
			ret = pacer_parse_dev(&argc, &argv, &a->ifname);
			if (ret)
				return ret;
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

/* One CPU's nest of PACER_A_CPU_STATS. */
static int dev_decode_cpu(struct nlattr *a, struct pacer_dev_cpu *cpu)
{
	struct nlattr *tb[PACER_CPU_STATS_A_MAX + 1];

	if (nla_parse_nested(tb, PACER_CPU_STATS_A_MAX, a,
			     cpu_stats_policy) < 0 ||
	    !tb[PACER_CPU_STATS_A_CPU] ||
	    !tb[PACER_CPU_STATS_A_RX_PACKETS] ||
	    !tb[PACER_CPU_STATS_A_TX_PACKETS])
		return -EBADMSG;
	cpu->cpu = nla_get_u32(tb[PACER_CPU_STATS_A_CPU]);
	cpu->rx_packets = nla_get_u64(tb[PACER_CPU_STATS_A_RX_PACKETS]);
	cpu->tx_packets = nla_get_u64(tb[PACER_CPU_STATS_A_TX_PACKETS]);
	cpu->joined_packets = tb[PACER_CPU_STATS_A_JOINED_PACKETS] ?
		nla_get_u64(tb[PACER_CPU_STATS_A_JOINED_PACKETS]) : 0;
	return 0;
}

/*
 * What each CPU received and re-injected: as many as the message lists,
 * in however many PACER_A_CPU_STATS it took (one holds about 1,360).
 */
static int dev_decode_cpus(struct nlmsghdr *nlh, struct pacer_dev *dev)
{
	struct nlattr *attrs = genlmsg_attrdata(nlmsg_data(nlh), 0);
	int len = genlmsg_attrlen(nlmsg_data(nlh), 0);
	struct nlattr *nest, *a;
	int left, rem, n = 0;

	nla_for_each_attr(nest, attrs, len, left)
		if (nla_type(nest) == PACER_A_CPU_STATS)
			nla_for_each_nested(a, nest, rem)
				n++;
	if (!n)
		return 0;
	dev->cpu = calloc(n, sizeof(*dev->cpu));
	if (!dev->cpu)
		return -ENOMEM;

	nla_for_each_attr(nest, attrs, len, left) {
		if (nla_type(nest) != PACER_A_CPU_STATS)
			continue;
		nla_for_each_nested(a, nest, rem)
			if (dev_decode_cpu(a, &dev->cpu[dev->ncpus++]))
				return -EBADMSG;
	}
	return 0;
}

/**
 * pacer_dev_decode() - decode a PACER_CMD_DEV_GET reply or DEV_SET event
 * @nlh: the message
 * @dev: filled in, pointing into @nlh; free it with pacer_dev_free()
 *	whatever this returns
 *
 * Return: 0, -EBADMSG if the message is malformed, or -ENOMEM.
 */
int pacer_dev_decode(struct nlmsghdr *nlh, struct pacer_dev *dev)
{
	struct nlattr *tb[PACER_A_MAX + 1];
	struct pacer_msg_dev hdr;
	int err;

	memset(dev, 0, sizeof(*dev));
	if (pacer_msg_parse(nlh, tb, &hdr))
		return -EBADMSG;

	dev->ifindex = hdr.ifindex;
	dev->ifname = hdr.ifname;
	if (tb[PACER_A_MAX_CLASSES] && tb[PACER_A_MAX_RULES] &&
	    tb[PACER_A_CLASSES] && tb[PACER_A_RULES]) {
		dev->has_caps = true;
		dev->max_classes = nla_get_u32(tb[PACER_A_MAX_CLASSES]);
		dev->max_rules = nla_get_u32(tb[PACER_A_MAX_RULES]);
		dev->classes = nla_get_u32(tb[PACER_A_CLASSES]);
		dev->rules = nla_get_u32(tb[PACER_A_RULES]);
	}
	if (tb[PACER_A_MAX_MEMORY])
		dev->max_memory = nla_get_u32(tb[PACER_A_MAX_MEMORY]);
	if (tb[PACER_A_CPU_STATS]) {
		err = dev_decode_cpus(nlh, dev);
		if (err)
			return err;
	}
	if (tb[PACER_A_DEV_STATS])
		return dev_decode_stats(tb[PACER_A_DEV_STATS], dev);
	return 0;
}

/**
 * pacer_dev_free() - free what pacer_dev_decode() allocated
 * @dev: the device; freeing twice is harmless
 */
void pacer_dev_free(struct pacer_dev *dev)
{
	free(dev->cpu);
	dev->cpu = NULL;
	dev->ncpus = 0;
}

/* Text, -s -s: "    cpu 0 rx 1200 tx 1190 joined 10"; JSON: a "cpus" array. */
static void dev_print_cpus(const struct pacer_dev *dev)
{
	int i;

	open_json_array("cpus");
	for (i = 0; i < dev->ncpus; i++) {
		open_json_object(NULL);
		print_uint(PRINT_ANY, "cpu", "\n    cpu %u", dev->cpu[i].cpu);
		print_u64(PRINT_ANY, "rx_packets", " rx %" PRIu64,
			  dev->cpu[i].rx_packets);
		print_u64(PRINT_ANY, "tx_packets", " tx %" PRIu64,
			  dev->cpu[i].tx_packets);
		print_u64(PRINT_ANY, "joined_packets", " joined %" PRIu64,
			  dev->cpu[i].joined_packets);
		close_json_object();
	}
	close_json_array();
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
	if (dev->has_caps) {
		print_uint(PRINT_ANY, "classes", " classes %u", dev->classes);
		print_uint(PRINT_ANY, "max_classes", " max_classes %u",
			   dev->max_classes);
		print_uint(PRINT_ANY, "rules", " rules %u", dev->rules);
		print_uint(PRINT_ANY, "max_rules", " max_rules %u",
			   dev->max_rules);
	}
	if (dev->max_memory) {
		char buf[UNITS_BUF_LEN];

		print_uint(PRINT_JSON, "max_memory", NULL, dev->max_memory);
		print_string(PRINT_FP, NULL, " max_memory %s",
			     format_size(buf, sizeof(buf), dev->max_memory));
	}
	if (opts->stats && dev->has_stats)
		dev_print_stats(dev);
	if (opts->stats > 1 && dev->ncpus)
		dev_print_cpus(dev);
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

	err = pacer_dev_decode(nlmsg_hdr(msg), &dev);
	if (!err) {
		dev_show_start(ctx);
		dev_print(&dev, ctx->opts);
	}
	pacer_dev_free(&dev);
	return err;
}

/*
 * The request: PACER_CMD_DEV_GET for @ifname, or for every device (a dump)
 * without it; PACER_CMD_DEV_SET with the caps in @set.
 */
static struct nl_msg *dev_msg(const struct pnl *nl, const char *ifname,
			      const struct dev_set_args *set)
{
	uint8_t cmd = set ? PACER_CMD_DEV_SET : PACER_CMD_DEV_GET;
	struct nl_msg *msg;

	msg = pnl_msg(nl, cmd, ifname ? 0 : NLM_F_DUMP);
	if (msg &&
	    ((ifname && nla_put_string(msg, PACER_A_IFNAME, ifname) < 0) ||
	     (set && set->max_classes &&
	      nla_put_u32(msg, PACER_A_MAX_CLASSES, set->max_classes) < 0) ||
	     (set && set->max_rules &&
	      nla_put_u32(msg, PACER_A_MAX_RULES, set->max_rules) < 0) ||
	     (set && set->max_memory &&
	      nla_put_u32(msg, PACER_A_MAX_MEMORY, set->max_memory) < 0))) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/* Send the request; print every device the replies carry, as "dev show". */
static int dev_request(const struct pacer_opts *opts, const char *ifname,
		       const struct dev_set_args *set)
{
	struct dev_show_ctx ctx = { .opts = opts };
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg;
	struct pnl nl;
	int ret, err;

	ret = pacer_open(&nl);
	if (ret)
		goto out;

	msg = dev_msg(&nl, ifname, set);
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

	if (err && ifname)
		ret = pacer_dev_fail(ifname, err, extack);
	else if (err)
		ret = pacer_fail_request(err, extack, false,
					 "cannot list pacer devices");
	else
		pacer_warn_extack(extack);
out:
	pnl_close(&nl);
	return ret;
}

static int dev_show(int argc, char **argv, const struct pacer_opts *opts)
{
	struct dev_show_args args = { 0 };
	int ret;

	ret = dev_show_parse(argc, argv, &args);
	if (ret || args.help)
		return ret;
	return dev_request(opts, args.ifname, NULL);
}

/* "max_classes N": 1 to 65536 (class ids are 16-bit, class 0 included). */
static int dev_set_cap(int *argc, char ***argv, const char *keyword,
		       uint64_t max, uint32_t *cap)
{
	uint64_t v;
	int ret;

	if (*cap)
		return pacer_duplicate_arg(keyword);
	ret = pacer_next_value(argc, argv);
	if (ret)
		return ret;
	if (parse_uint(**argv, 10, max, &v) || !v)
		return pacer_usage_error("invalid %s \"%s\": expected 1 to %" PRIu64,
					 keyword, **argv, max);
	*cap = v;
	return 0;
}

/* "max_memory SIZE": 1m to 4g less a byte (a u32 of bytes). */
static int dev_set_memory(int *argc, char ***argv, uint32_t *cap)
{
	uint64_t v;
	int ret;

	if (*cap)
		return pacer_duplicate_arg("max_memory");
	ret = pacer_next_value(argc, argv);
	if (ret)
		return ret;
	if (parse_size(**argv, &v) || v < (1 << 20) || v > UINT32_MAX)
		return pacer_usage_error("invalid max_memory \"%s\": expected a size from 1m to 4294967295 bytes",
					 **argv);
	*cap = v;
	return 0;
}

static int dev_set_parse(int argc, char **argv, struct dev_set_args *a)
{
	int ret;

	for (; argc > 0; argc--, argv++) {
		if (!strcmp(*argv, "dev")) {
			ret = pacer_parse_dev(&argc, &argv, &a->ifname);
			if (ret)
				return ret;
		} else if (!strcmp(*argv, "max_classes")) {
			ret = dev_set_cap(&argc, &argv, "max_classes",
					  PACER_CLASS_ID_MAX + 1,
					  &a->max_classes);
			if (ret)
				return ret;
		} else if (!strcmp(*argv, "max_memory")) {
			ret = dev_set_memory(&argc, &argv, &a->max_memory);
			if (ret)
				return ret;
		} else if (!strcmp(*argv, "max_rules")) {
			ret = dev_set_cap(&argc, &argv, "max_rules", UINT32_MAX,
					  &a->max_rules);
			if (ret)
				return ret;
		} else if (pacer_is_help(*argv)) {
			dev_usage(stdout);
			a->help = true;
			return 0;
		} else {
			return pacer_unknown_arg(*argv, "dev set",
						 "dev NAME, max_classes N, max_rules N, max_memory SIZE");
		}
	}
	if (!a->ifname)
		return pacer_usage_error("dev set: \"dev NAME\" is required");
	if (!a->max_classes && !a->max_rules && !a->max_memory)
		return pacer_usage_error("dev set: nothing to change: give max_classes N, max_rules N or max_memory SIZE");
	return 0;
}

static int dev_set(int argc, char **argv, const struct pacer_opts *opts)
{
	struct dev_set_args args = { 0 };
	int ret;

	ret = dev_set_parse(argc, argv, &args);
	if (ret || args.help)
		return ret;
	/* The reply is the device as it is now. */
	return dev_request(opts, args.ifname, &args);
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
