// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl monitor: changes and rates as they happen.
 *
 *   pacerctl [-j] [-p] [-s] monitor [ dev DEV ] [ count N ]
 *
 * Events: a socket joins the family's "events" multicast group and each
 * message (CLASS_NEW, CLASS_SET, CLASS_DEL, RULE_NEW, RULE_DEL, DEV_SET)
 * is decoded into struct pacer_class_info, struct pacer_rule_info or the
 * device's caps and printed on one line, "class new dev pacer0 id 10 rate
 * 20Mbit ...", or as one JSON object per line.
 *
 * With -s, also every second: a second socket dumps the classes of DEV
 * (CLASS_GET) and one line per class gives what changed since the
 * previous dump, as rates ("class rates dev pacer0 id 10 rx 20Mbit ...").
 *
 * "count N" stops after N events, or with -s after N seconds; else it
 * runs until interrupted (SIGINT, SIGTERM: exit status 0).
 */
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/pacer.h>
#include <netlink/genl/genl.h>

#include "nl.h"
#include "objects.h"
#include "pacerctl.h"
#include "print.h"
#include "units.h"

#define NS_PER_SEC UINT64_C(1000000000)
/*
 * The read buffer starts at MONITOR_BUF_LEN and grows to fit a longer
 * event, up to MONITOR_BUF_MAX: a "dev set" event carries a 48-byte
 * nest for each CPU that is online or has counted packets, over 64 KiB
 * from ~1,360 of them (a kernel may allow 8,192).  MONITOR_BUF_MAX
 * holds one for 300,000.
 */
#define MONITOR_BUF_LEN 65536
#define MONITOR_BUF_MAX (16 << 20)

/**
 * struct monitor_args - the arguments of "monitor"
 * @ifname: the device to watch, NULL for all (events only)
 * @count: stop after this many events (or seconds with -s); 0: never
 * @help: help was asked for and printed
 */
struct monitor_args {
	const char *ifname;
	uint64_t count;
	bool help;
};

/**
 * struct monitor_sample - the classes of the device at one instant
 * @cls: the classes, by increasing id
 * @n: how many
 * @cap: room for how many
 * @time_ns: when they were asked for, CLOCK_MONOTONIC
 * @ifname: the device's name then
 */
struct monitor_sample {
	struct pacer_class_info *cls;
	size_t n;
	size_t cap;
	uint64_t time_ns;
	char ifname[IF_NAMESIZE];
};

/**
 * struct monitor - the state of a monitor
 * @args: its arguments
 * @opts: global options
 * @ifindex: the device watched, 0 for all
 * @events: the socket in the events group
 * @buf: where events are read, grown to the longest so far
 * @buf_len: its size
 * @req: the socket for dumps (with -s)
 * @prev: the previous sample (with -s)
 * @cur: the sample being taken (with -s)
 * @seen: events printed, or seconds with -s
 */
struct monitor {
	struct monitor_args args;
	const struct pacer_opts *opts;
	uint32_t ifindex;
	struct pnl events;
	char *buf;
	size_t buf_len;
	struct pnl req;
	struct monitor_sample prev;
	struct monitor_sample cur;
	uint64_t seen;
};

static volatile sig_atomic_t monitor_stop;

static void monitor_usage(FILE *f)
{
	fputs("Usage: pacerctl [ -j ] [ -p ] [ -s ] monitor [ dev DEV ] [ count N ]\n"
	      "       pacerctl monitor help\n"
	      "\n"
	      "Prints the changes to classes, rules and a device's caps as they\n"
	      "happen, one line each: \"class new\", \"class change\", \"class del\",\n"
	      "\"rule new\", \"rule del\", \"dev set\", each with the device and the\n"
	      "object as it is afterwards; with -j one JSON object per line, its\n"
	      "\"event\" key naming the change.  dev DEV keeps only DEV's.\n"
	      "\n"
	      "With -s (DEV required), also every second one \"class rates\" line per\n"
	      "class of DEV: rx and tx rates (bit/s and packets/s), drops/s, CE\n"
	      "marks/s, the share of the packets sent that were delayed, and the\n"
	      "backlog, over the last second.\n"
	      "\n"
	      "Runs until interrupted, or until N events (with -s: N seconds).\n", f);
}

static int monitor_parse(int argc, char **argv, const struct pacer_opts *opts,
			 struct monitor_args *a)
{
	bool has_count = false;
	int ret, err;

	for (; argc > 0; argc--, argv++) {
		if (pacer_is_help(*argv)) {
			monitor_usage(stdout);
			a->help = true;
			return 0;
		}
		if (!strcmp(*argv, "dev")) {
			ret = pacer_parse_dev(&argc, &argv, &a->ifname);
			if (ret)
				return ret;
		} else if (!strcmp(*argv, "count")) {
			if (has_count)
				return pacer_duplicate_arg("count");
			ret = pacer_next_value(&argc, &argv);
			if (ret)
				return ret;
			err = parse_uint(*argv, 10, UINT64_MAX, &a->count);
			if (err == -EINVAL)
				return pacer_usage_error("invalid count \"%s\": expected a number from 1 up",
							 *argv);
			if (err || !a->count)
				return pacer_usage_error("count \"%s\" is out of range: expected 1 to %" PRIu64,
							 *argv, UINT64_MAX);
			has_count = true;
		} else {
			return pacer_unknown_arg(*argv, "monitor",
						 "[ dev DEV ] [ count N ]");
		}
	}
	if (opts->stats && !a->ifname)
		return pacer_usage_error("\"monitor\" with -s needs \"dev DEV\": the device whose classes to sample");
	return 0;
}

static uint64_t monitor_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

/* ---- events ----------------------------------------------------------- */

static const char *const event_names[PACER_CMD_MAX + 1] = {
	[PACER_CMD_CLASS_NEW] = "class new",
	[PACER_CMD_CLASS_SET] = "class change",
	[PACER_CMD_CLASS_DEL] = "class del",
	[PACER_CMD_RULE_NEW] = "rule new",
	[PACER_CMD_RULE_DEL] = "rule del",
	[PACER_CMD_DEV_SET] = "dev set",
};

/* "class new dev pacer0" / {"event": "class new", "ifname": ..., ... */
static void monitor_start_line(const struct monitor *m, const char *event,
			       const struct pacer_msg_dev *dev)
{
	new_json_record(m->opts->json, m->opts->pretty);
	open_json_object(NULL);
	print_string(PRINT_ANY, "event", "%s", event);
	print_string(PRINT_ANY, "ifname", " dev %s", dev->ifname);
	print_uint(PRINT_JSON, "ifindex", NULL, dev->ifindex);
}

static void monitor_end_line(void)
{
	close_json_object();
	print_nl();
	end_json_record();
}

/* "dev set dev pacer0 max_classes 100 max_rules 1000 max_memory 64Mb" */
static bool monitor_dev_event(const struct monitor *m, struct nlmsghdr *nlh)
{
	struct nlattr *tb[PACER_A_MAX + 1];
	char buf[UNITS_BUF_LEN];
	struct pacer_msg_dev dev;

	if (pacer_msg_parse(nlh, tb, &dev) || !tb[PACER_A_MAX_CLASSES] ||
	    !tb[PACER_A_MAX_RULES] || !tb[PACER_A_MAX_MEMORY] ||
	    (m->ifindex && dev.ifindex != m->ifindex))
		return false;
	monitor_start_line(m, "dev set", &dev);
	print_uint(PRINT_ANY, "max_classes", " max_classes %u",
		   nla_get_u32(tb[PACER_A_MAX_CLASSES]));
	print_uint(PRINT_ANY, "max_rules", " max_rules %u",
		   nla_get_u32(tb[PACER_A_MAX_RULES]));
	print_uint(PRINT_JSON, "max_memory", NULL,
		   nla_get_u32(tb[PACER_A_MAX_MEMORY]));
	print_string(PRINT_FP, NULL, " max_memory %s",
		     format_size(buf, sizeof(buf),
				 nla_get_u32(tb[PACER_A_MAX_MEMORY])));
	monitor_end_line();
	return true;
}

/* Print one event; return whether it counts (it is DEV's, if given). */
static bool monitor_event(struct monitor *m, struct nlmsghdr *nlh)
{
	struct genlmsghdr *genl = nlmsg_data(nlh);
	const char *event = NULL;
	struct pacer_class_info cls;
	struct pacer_rule_info rule;
	struct pacer_msg_dev dev;
	bool is_class;

	if (nlh->nlmsg_type == m->events.family &&
	    nlh->nlmsg_len >= NLMSG_LENGTH(GENL_HDRLEN) &&
	    genl->cmd <= PACER_CMD_MAX)
		event = event_names[genl->cmd];
	if (!event)
		return false;	/* not an event of ours */
	if (genl->cmd == PACER_CMD_DEV_SET)
		return monitor_dev_event(m, nlh);

	is_class = genl->cmd <= PACER_CMD_CLASS_DEL;
	if ((is_class ? pacer_class_decode(nlh, &dev, &cls) :
			pacer_rule_decode(nlh, &dev, &rule)) ||
	    (m->ifindex && dev.ifindex != m->ifindex))
		return false;

	monitor_start_line(m, event, &dev);
	if (is_class) {
		print_uint(PRINT_ANY, "id", " id %u", cls.id);
		pacer_class_print_config(&cls);
	} else {
		print_string(PRINT_FP, NULL, "%s", " ");
		rule.has &= ~PACER_BIT(PACER_RULE_A_MATCHES);
		pacer_rule_print(&rule);
	}
	monitor_end_line();
	return true;
}

/*
 * Read and print the events queued on the socket.
 * Return: 0, or EXIT_FAILURE (explained).
 */
static int monitor_read_events(struct monitor *m)
{
	struct nlmsghdr *nlh;
	size_t dgram_len;
	int len, err;

	for (;;) {
		err = pnl_recv_whole(&m->events, &m->buf, &m->buf_len,
				     MONITOR_BUF_MAX, &dgram_len);
		if (err == -EAGAIN || err == -EWOULDBLOCK || err == -EINTR)
			return 0;
		if (err == -ENOBUFS) {
			fprintf(stderr, "pacerctl: warning: events were lost: the socket's receive buffer overflowed\n");
			continue;
		}
		if (err == -EMSGSIZE)
			return pacer_fail("cannot read an event of %zu bytes: more than the %d bytes pacerctl reads",
					  dgram_len, MONITOR_BUF_MAX);
		if (err == -ENOMEM)
			return pacer_fail("cannot read an event of %zu bytes: out of memory",
					  dgram_len);
		if (err)
			return pacer_fail("cannot read events: %s",
					  strerror(-err));
		len = dgram_len;
		for (nlh = (struct nlmsghdr *)m->buf; NLMSG_OK(nlh, len);
		     nlh = NLMSG_NEXT(nlh, len)) {
			if (!monitor_event(m, nlh) || !m->args.count ||
			    m->opts->stats)
				continue;
			if (++m->seen == m->args.count) {
				monitor_stop = 1;
				return 0;
			}
		}
	}
}

/* ---- rates (-s) ------------------------------------------------------- */

static int monitor_on_class(struct nl_msg *msg, void *arg)
{
	struct monitor_sample *s = arg;
	struct pacer_class_info *more;
	struct pacer_msg_dev dev;
	int err;

	if (s->n == s->cap) {
		more = reallocarray(s->cls, s->cap * 2 + 8, sizeof(*s->cls));
		if (!more)
			return -ENOMEM;
		s->cls = more;
		s->cap = s->cap * 2 + 8;
	}
	err = pacer_class_decode(nlmsg_hdr(msg), &dev, &s->cls[s->n]);
	if (err)
		return err;
	snprintf(s->ifname, sizeof(s->ifname), "%s", dev.ifname);
	s->n++;
	return 0;
}

static int monitor_on_dev(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[PACER_A_MAX + 1];
	struct pacer_msg_dev dev;

	if (pacer_msg_parse(nlmsg_hdr(msg), tb, &dev))
		return -EBADMSG;
	*(uint32_t *)arg = dev.ifindex;
	return 0;
}

/* Send a request about the watched device (by ifindex, once resolved). */
static int monitor_request(struct monitor *m, uint8_t cmd, int flags,
			   pnl_reply_fn fn, void *arg)
{
	char extack[PNL_EXTACK_LEN];
	struct nl_msg *msg = pnl_msg(&m->req, cmd, flags);
	int err;

	if (!msg || (m->ifindex ?
		     nla_put_u32(msg, PACER_A_IFINDEX, m->ifindex) :
		     nla_put_string(msg, PACER_A_IFNAME, m->args.ifname)) < 0) {
		nlmsg_free(msg);
		return pacer_fail("out of memory");
	}
	err = pnl_request(&m->req, msg, fn, arg, extack, sizeof(extack));
	/*
	 * A class added or deleted while the dump of the classes was read
	 * flags it (NLM_F_DUMP_INTR: -EINTR, every reply handled), and it
	 * still has each of the other classes once: the kernel resumes it
	 * at the id after the last one sent.  It is a sample like any other,
	 * the class that came or went in it or not, and a monitor is not
	 * ended by another command's change.
	 */
	if (err == -EINTR && (flags & NLM_F_DUMP))
		err = 0;
	if (err)
		return pacer_dev_fail(m->args.ifname, err, extack);
	return 0;
}

static int monitor_sample(struct monitor *m)
{
	m->cur.n = 0;
	m->cur.time_ns = monitor_now();
	return monitor_request(m, PACER_CMD_CLASS_GET, NLM_F_DUMP,
			       monitor_on_class, &m->cur);
}

static const struct pacer_class_info *
monitor_find(const struct monitor_sample *s, uint16_t id)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->cls[mid].id == id)
			return &s->cls[mid];
		if (s->cls[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* How much a counter grew; after a reset, all it counts now. */
static uint64_t monitor_delta(const struct pacer_class_info *cur,
			      const struct pacer_class_info *prev, int attr)
{
	uint64_t now = cur->stats.v[attr];
	uint64_t before = prev ? prev->stats.v[attr] : 0;

	return now >= before ? now - before : now;
}

/* @n per second over @ns nanoseconds, rounded. */
static uint64_t monitor_per_sec(uint64_t n, uint64_t ns)
{
	return ns ? (uint64_t)((double)n * NS_PER_SEC / ns + 0.5) : 0;
}

static void monitor_print_rate(const char *dir, const char *bps_key,
			       const char *pps_key, uint64_t bytes,
			       uint64_t packets, uint64_t ns)
{
	char buf[UNITS_BUF_LEN];
	uint64_t bps = monitor_per_sec(bytes * 8, ns);

	print_u64(PRINT_JSON, bps_key, NULL, bps);
	print_string(PRINT_FP, NULL, dir,
		     format_rate_approx(buf, sizeof(buf), bps));
	print_u64(PRINT_ANY, pps_key, " %" PRIu64 "pps",
		  monitor_per_sec(packets, ns));
}

/*
 * "class rates dev pacer0 id 10 name s3 rx 20Mbit 1650pps tx 19Mbit
 * 1630pps dropped 2pps ecn_marked 0pps delayed 83.3% backlog 64Kb 40p"
 */
static void monitor_print_class(const struct monitor *m,
				const struct pacer_msg_dev *dev,
				const struct pacer_class_info *c,
				const struct pacer_class_info *p, uint64_t ns)
{
	uint64_t tx = monitor_delta(c, p, PACER_STATS_A_TX_PACKETS);
	uint64_t delayed = monitor_delta(c, p, PACER_STATS_A_DELAYED_PACKETS);
	double share = tx ? (double)delayed / tx : 0;
	char buf[UNITS_BUF_LEN];

	monitor_start_line(m, "class rates", dev);
	print_uint(PRINT_ANY, "id", " id %u", c->id);
	print_string(PRINT_JSON, "name", NULL, c->name);
	if (*c->name)
		print_string(PRINT_FP, NULL, " name %s", c->name);
	print_u64(PRINT_JSON, "interval_us", NULL, ns / 1000);
	monitor_print_rate(" rx %s", "rx_bps", "rx_pps",
			   monitor_delta(c, p, PACER_STATS_A_RX_BYTES),
			   monitor_delta(c, p, PACER_STATS_A_RX_PACKETS), ns);
	monitor_print_rate(" tx %s", "tx_bps", "tx_pps",
			   monitor_delta(c, p, PACER_STATS_A_TX_BYTES), tx, ns);
	print_u64(PRINT_ANY, "dropped_pps", " dropped %" PRIu64 "pps",
		  monitor_per_sec(monitor_delta(c, p,
						PACER_STATS_A_DROPPED_PACKETS),
				  ns));
	print_u64(PRINT_ANY, "ecn_marked_pps", " ecn_marked %" PRIu64 "pps",
		  monitor_per_sec(monitor_delta(c, p, PACER_STATS_A_ECN_MARKED),
				  ns));
	print_float(PRINT_JSON, "delayed_share", NULL, share);
	print_float(PRINT_FP, NULL, " delayed %.1f%%", share * 100);
	print_u64(PRINT_JSON, "backlog_bytes", NULL,
		  c->stats.v[PACER_STATS_A_BACKLOG_BYTES]);
	print_string(PRINT_FP, NULL, " backlog %s",
		     format_size(buf, sizeof(buf),
				 c->stats.v[PACER_STATS_A_BACKLOG_BYTES]));
	print_u64(PRINT_ANY, "backlog_packets", " %" PRIu64 "p",
		  c->stats.v[PACER_STATS_A_BACKLOG_PACKETS]);
	monitor_end_line();
}

/* Sample the classes again and print what changed since the last time. */
static int monitor_tick(struct monitor *m)
{
	struct pacer_msg_dev dev = {
		.ifindex = m->ifindex,
		.ifname = m->cur.ifname,
	};
	struct monitor_sample tmp;
	uint64_t ns;
	size_t i;
	int ret;

	ret = monitor_sample(m);
	if (ret)
		return ret;
	ns = m->cur.time_ns - m->prev.time_ns;
	for (i = 0; i < m->cur.n; i++)
		monitor_print_class(m, &dev, &m->cur.cls[i],
				    monitor_find(&m->prev, m->cur.cls[i].id),
				    ns);
	tmp = m->prev;
	m->prev = m->cur;
	m->cur = tmp;
	if (m->args.count && ++m->seen == m->args.count)
		monitor_stop = 1;
	return 0;
}

/* ---- the loop --------------------------------------------------------- */

static void monitor_on_signal(int sig)
{
	(void)sig;
	monitor_stop = 1;
}

/*
 * SIGINT and SIGTERM end the loop (poll() returns EINTR), exit status 0.
 * What they did before is kept in @old, for monitor_signals_restore().
 */
static void monitor_signals(struct sigaction old[2])
{
	struct sigaction sa = { .sa_handler = monitor_on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old[0]);
	sigaction(SIGTERM, &sa, &old[1]);
}

/* SIGINT and SIGTERM as they were before monitor_signals(). */
static void monitor_signals_restore(const struct sigaction old[2])
{
	sigaction(SIGINT, &old[0], NULL);
	sigaction(SIGTERM, &old[1], NULL);
}

/* Until stopped: events as they come, and with -s a sample every second. */
static int monitor_loop(struct monitor *m)
{
	struct pollfd pfd = { .fd = nl_socket_get_fd(m->events.sk),
			      .events = POLLIN };
	uint64_t next = m->prev.time_ns + NS_PER_SEC, now;
	int timeout = -1, ret = 0;

	while (!monitor_stop && !ret) {
		if (m->opts->stats) {
			now = monitor_now();
			timeout = next > now ?
				  (next - now + 999999) / 1000000 : 0;
		}
		if (poll(&pfd, 1, timeout) < 0 && errno != EINTR)
			return pacer_fail("cannot wait for events: %s",
					  strerror(errno));
		if (pfd.revents)
			ret = monitor_read_events(m);
		if (ret || monitor_stop || !m->opts->stats ||
		    monitor_now() < next)
			continue;
		ret = monitor_tick(m);
		/* Keep to whole seconds from the start, unless far behind. */
		next += NS_PER_SEC;
		if (next < m->prev.time_ns)
			next = m->prev.time_ns + NS_PER_SEC;
	}
	return ret;
}

/* Open the sockets, find the device, take the first sample. */
static int monitor_setup(struct monitor *m)
{
	int ret, err;

	ret = pacer_open(&m->req);
	if (ret)
		return ret;
	if (m->args.ifname) {
		ret = monitor_request(m, PACER_CMD_DEV_GET, 0, monitor_on_dev,
				      &m->ifindex);
		if (ret)
			return ret;
	}
	ret = pacer_open(&m->events);
	if (ret)
		return ret;
	err = pnl_subscribe(&m->events, PACER_MCGRP_EVENTS);
	if (err == -ENOENT)
		return pacer_fail("the %s family has no \"%s\" multicast group: is the module older than pacerctl?",
				  PACER_GENL_NAME, PACER_MCGRP_EVENTS);
	if (err)
		return pacer_fail("cannot join the \"%s\" multicast group of %s: %s",
				  PACER_MCGRP_EVENTS, PACER_GENL_NAME,
				  strerror(-err));
	if (m->opts->stats) {
		ret = monitor_sample(m);
		m->prev = m->cur;
		m->cur = (struct monitor_sample){ 0 };
	}
	return ret;
}

/**
 * do_monitor() - pacerctl monitor [ dev DEV ] [ count N ]
 * @argc: argument count
 * @argv: arguments
 * @opts: global options
 *
 * Return: the exit status.
 */
int do_monitor(int argc, char **argv, const struct pacer_opts *opts)
{
	struct monitor m = { .opts = opts };
	struct sigaction old[2];
	int ret;

	ret = monitor_parse(argc, argv, opts, &m.args);
	if (ret || m.args.help)
		return ret;

	ret = monitor_setup(&m);
	if (!ret) {
		m.buf = malloc(MONITOR_BUF_LEN);
		m.buf_len = MONITOR_BUF_LEN;
		ret = m.buf ? 0 : pacer_fail("out of memory");
	}
	/*
	 * A batch (-b) may run monitor more than once, and other commands
	 * after it: each monitor starts with monitor_stop clear (the last
	 * one's "count N" left it set, and the next would stop at once), and
	 * the signals go back to ending pacerctl once it is done.
	 */
	if (!ret) {
		monitor_stop = 0;
		monitor_signals(old);
		ret = monitor_loop(&m);
		monitor_signals_restore(old);
	}
	free(m.buf);
	free(m.prev.cls);
	free(m.cur.cls);
	pnl_close(&m.events);
	pnl_close(&m.req);
	return ret;
}
