// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of dev.c's decoding of a PACER_CMD_DEV_GET reply, printing
 * TAP: the reply carries a nest per CPU that is online or has counted
 * packets, and every one of them is decoded, however many.  The replies
 * are built here with libnl, as the kernel builds them.  Run by "make
 * test".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <linux/pacer.h>
#include <netlink/genl/genl.h>

#include "objects.h"
#include "tap.h"


/* CPU @cpu's figures in the replies built here. */
static uint64_t rx_of(int cpu)
{
	return 1000000ULL * cpu + 1;
}

static uint64_t tx_of(int cpu)
{
	return 1000000ULL * cpu + 2;
}

static uint64_t joined_of(int cpu)
{
	return 1000000ULL * cpu + 3;
}

/*
 * A DEV_GET reply for "pacer0" with @ncpus CPU nests (CPUs 0, 2, 4 ...,
 * without PACER_CPU_STATS_A_RX_PACKETS in CPU @bad's), @per_nest of them
 * to a PACER_A_CPU_STATS (0: all in one), or without PACER_A_CPU_STATS
 * at all if @ncpus is negative.
 */
static struct nl_msg *reply_split(int ncpus, int bad, int per_nest)
{
	struct nl_msg *msg = nlmsg_alloc_size(64 + 64 * (ncpus + 1) + 4096);
	struct nlattr *nest, *one;
	int i;

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, 1, 1, 0x20, 0, 0, PACER_CMD_DEV_GET,
			 PACER_GENL_VERSION) ||
	    nla_put_u32(msg, PACER_A_IFINDEX, 7) < 0 ||
	    nla_put_string(msg, PACER_A_IFNAME, "pacer0") < 0 ||
	    nla_put_u32(msg, PACER_A_MAX_CLASSES, 100) < 0 ||
	    nla_put_u32(msg, PACER_A_MAX_RULES, 1000) < 0 ||
	    nla_put_u32(msg, PACER_A_CLASSES, 1) < 0 ||
	    nla_put_u32(msg, PACER_A_RULES, 0) < 0)
		goto fail;
	if (ncpus < 0)
		return msg;

	nest = nla_nest_start(msg, PACER_A_CPU_STATS);
	if (!nest)
		goto fail;
	for (i = 0; i < ncpus; i++) {
		int cpu = 2 * i;

		if (per_nest && i && !(i % per_nest)) {
			if (nla_nest_end(msg, nest) < 0)
				goto fail;
			nest = nla_nest_start(msg, PACER_A_CPU_STATS);
			if (!nest)
				goto fail;
		}
		one = nla_nest_start(msg, cpu + 1);
		if (!one ||
		    nla_put_u32(msg, PACER_CPU_STATS_A_CPU, cpu) < 0 ||
		    (cpu != bad &&
		     nla_put_u64(msg, PACER_CPU_STATS_A_RX_PACKETS,
				 rx_of(cpu)) < 0) ||
		    nla_put_u64(msg, PACER_CPU_STATS_A_TX_PACKETS,
				tx_of(cpu)) < 0 ||
		    nla_put_u64(msg, PACER_CPU_STATS_A_JOINED_PACKETS,
				joined_of(cpu)) < 0)
			goto fail;
		nla_nest_end(msg, one);
	}
	if (nla_nest_end_keep_empty(msg, nest) < 0)
		goto fail;	/* longer than its u16 nla_len can say */
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

static struct nl_msg *reply(int ncpus, int bad)
{
	return reply_split(ncpus, bad, 0);
}

/* Every CPU of a reply of reply(@ncpus, -1), in order. */
static bool cpus_match(const struct pacer_dev *dev, int ncpus)
{
	int i;

	if (dev->ncpus != ncpus)
		return false;
	for (i = 0; i < ncpus; i++) {
		const struct pacer_dev_cpu *c = &dev->cpu[i];
		int cpu = 2 * i;

		if (c->cpu != (uint32_t)cpu || c->rx_packets != rx_of(cpu) ||
		    c->tx_packets != tx_of(cpu) ||
		    c->joined_packets != joined_of(cpu))
			return false;
	}
	return true;
}

static void decodes_split(int ncpus, int per_nest)
{
	struct nl_msg *msg = reply_split(ncpus, -1, per_nest);
	struct pacer_dev dev;
	char what[128];
	int err;

	snprintf(what, sizeof(what),
		 "a reply with %d CPU nests, %d to a PACER_A_CPU_STATS: every one decoded, in order",
		 ncpus, per_nest ? per_nest : ncpus);
	if (!msg) {
		ok(0, what);
		return;
	}
	err = pacer_dev_decode(nlmsg_hdr(msg), &dev);
	ok(!err && dev.ifindex == 7 && !strcmp(dev.ifname, "pacer0") &&
	   dev.has_caps && dev.max_classes == 100 && cpus_match(&dev, ncpus),
	   what);
	pacer_dev_free(&dev);
	ok(!dev.cpu && !dev.ncpus, "pacer_dev_free() leaves no CPUs");
	pacer_dev_free(&dev);
	nlmsg_free(msg);
}

static void decodes(int ncpus)
{
	decodes_split(ncpus, 0);
}

int main(void)
{
	struct pacer_dev dev;
	struct nl_msg *msg;
	int err;

	decodes(1);
	decodes(2);
	decodes(1024);
	decodes(1025);
	/* The most a nest can hold: its nla_len is a u16, each CPU 48 bytes. */
	decodes(1365);
	/* More than a nest holds: the kernel sends several. */
	decodes_split(3000, 1300);
	decodes_split(3, 1);

	msg = reply(0, -1);
	err = msg ? pacer_dev_decode(nlmsg_hdr(msg), &dev) : -ENOMEM;
	ok(!err && !dev.ncpus && !dev.cpu,
	   "an empty PACER_A_CPU_STATS: no CPUs, nothing allocated");
	pacer_dev_free(&dev);
	nlmsg_free(msg);

	msg = reply(-1, -1);
	err = msg ? pacer_dev_decode(nlmsg_hdr(msg), &dev) : -ENOMEM;
	ok(!err && !dev.ncpus && !dev.cpu && dev.has_caps,
	   "no PACER_A_CPU_STATS: no CPUs");
	pacer_dev_free(&dev);
	nlmsg_free(msg);

	msg = reply(1300, 2 * 1299);
	err = msg ? pacer_dev_decode(nlmsg_hdr(msg), &dev) : -ENOMEM;
	ok(err == -EBADMSG,
	   "the last of 1300 CPU nests without rx_packets: -EBADMSG");
	pacer_dev_free(&dev);
	ok(!dev.cpu, "... and what was decoded is freed");
	nlmsg_free(msg);

	return tap_done("");
}
