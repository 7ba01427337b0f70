// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl -o prometheus: class counters in the Prometheus text exposition
 * format (0.0.4), what node_exporter's textfile collector reads and
 * "promtool check metrics" checks.
 *
 * Every sample of a metric must follow its HELP and TYPE lines, so the
 * classes are collected first and printed metric by metric:
 *
 *   # HELP pacer_class_rx_packets_total Packets that arrived in the class.
 *   # TYPE pacer_class_rx_packets_total counter
 *   pacer_class_rx_packets_total{dev="pacer0",class="10",name="s3"} 12
 *
 * Counters end in _total and sizes in _bytes, the sojourn histogram is a
 * histogram in seconds (cumulative buckets, _sum and _count), drops
 * carry a "reason" label, and the backlog is a gauge.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pacer.h>

#include "objects.h"
#include "prometheus.h"
#include "utf8.h"
#include "pacerctl.h"

/**
 * pacer_prom_add() - keep a class for the output
 * @prom: the classes so far
 * @cls: the class
 *
 * Return: 0 or -ENOMEM.
 */
int pacer_prom_add(struct pacer_prom *prom, const struct pacer_class_info *cls)
{
	if (prom->n == prom->cap) {
		size_t cap = prom->cap ? 2 * prom->cap : 16;
		struct pacer_class_info *v = realloc(prom->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		prom->v = v;
		prom->cap = cap;
	}
	prom->v[prom->n++] = *cls;
	return 0;
}

/**
 * pacer_prom_free() - forget the classes
 * @prom: the classes
 */
void pacer_prom_free(struct pacer_prom *prom)
{
	free(prom->v);
	memset(prom, 0, sizeof(*prom));
}

/*
 * A label value: backslash, double quote and newline escaped, and, as the
 * format must be UTF-8, each byte that is not part of a UTF-8 character
 * (a class name is bytes) written as U+FFFD.
 */
static void prom_label(FILE *f, const char *s)
{
	size_t n;

	for (; *s; s += n ?: 1) {
		n = utf8_char_len(s);
		if (*s == '\\' || *s == '"')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", f);
		else if (n)
			fwrite(s, 1, n, f);
		else
			fputs(UTF8_REPLACEMENT, f);
	}
}

/* A sample's name and labels: pacer_class_NAME{dev=..,class=..[,name=..][,EXTRA]} */
static void prom_sample(FILE *f, const struct pacer_prom *prom,
			const struct pacer_class_info *c, const char *name,
			const char *extra)
{
	fprintf(f, "pacer_class_%s{dev=\"", name);
	prom_label(f, prom->ifname);
	fprintf(f, "\",class=\"%u\"", c->id);
	if (*c->name) {
		fputs(",name=\"", f);
		prom_label(f, c->name);
		fputc('"', f);
	}
	if (extra)
		fprintf(f, ",%s", extra);
	fputc('}', f);
}

static void prom_family(FILE *f, const char *name, const char *type,
			const char *help)
{
	fprintf(f, "# HELP pacer_class_%s %s\n", name, help);
	fprintf(f, "# TYPE pacer_class_%s %s\n", name, type);
}

/* A counter or gauge family: one sample per class, from stats attribute @attr. */
static void prom_scalar(FILE *f, const struct pacer_prom *prom,
			const char *name, const char *type, const char *help,
			int attr)
{
	size_t i;

	prom_family(f, name, type, help);
	for (i = 0; i < prom->n; i++) {
		prom_sample(f, prom, &prom->v[i], name, NULL);
		fprintf(f, " %" PRIu64 "\n", prom->v[i].stats.v[attr]);
	}
}

static const char *const prom_reasons[PACER_DROP_MAX + 1] = {
	[PACER_DROP_QUEUE_LIMIT] = "queue_limit",
	[PACER_DROP_MEMORY] = "memory",
	[PACER_DROP_REINJECT] = "reinject",
	[PACER_DROP_FLUSH] = "flush",
	[PACER_DROP_CONGESTION] = "congestion",
};

/* dropped_packets is their sum: sum by (class) of this family. */
static void prom_drops(FILE *f, const struct pacer_prom *prom)
{
	char label[64];
	size_t i;
	int r;

	prom_family(f, "dropped_packets_total", "counter",
		    "Packets dropped, by reason: queue_limit (the class limit), memory (the device cap), reinject (the original device was gone or down), flush (class deleted or device down), congestion (the signal to a sender that is not ECN-capable).");
	for (i = 0; i < prom->n; i++) {
		for (r = 1; r <= PACER_DROP_MAX; r++) {
			snprintf(label, sizeof(label), "reason=\"%s\"",
				 prom_reasons[r]);
			prom_sample(f, prom, &prom->v[i],
				    "dropped_packets_total", label);
			fprintf(f, " %" PRIu64 "\n", prom->v[i].stats.drops[r]);
		}
	}
}

/* Nanoseconds as seconds, exactly (no binary fraction on the way). */
static void prom_seconds(FILE *f, uint64_t ns)
{
	fprintf(f, " %" PRIu64 ".%09" PRIu64 "\n", ns / 1000000000,
		ns % 1000000000);
}

static void prom_seconds_us(FILE *f, uint64_t us)
{
	fprintf(f, " %" PRIu64 ".%06" PRIu64 "\n", us / 1000000, us % 1000000);
}

/* The sojourn histogram: bucket i holds sojourns up to its bound. */
static void prom_sojourn(FILE *f, const struct pacer_prom *prom)
{
	char label[64];
	size_t i;
	int b;

	prom_family(f, "sojourn_seconds", "histogram",
		    "How long re-injected packets waited in the class.");
	for (i = 0; i < prom->n; i++) {
		const struct pacer_class_stats *st = &prom->v[i].stats;
		uint64_t cum = 0, us;

		for (b = 0; b < PACER_HIST_BUCKETS; b++) {
			cum += st->hist[b];
			us = pacer_hist_bound_us(b);
			if (b == PACER_HIST_BUCKETS - 1)
				snprintf(label, sizeof(label), "le=\"+Inf\"");
			else
				snprintf(label, sizeof(label),
					 "le=\"%" PRIu64 ".%06" PRIu64 "\"",
					 us / 1000000, us % 1000000);
			prom_sample(f, prom, &prom->v[i],
				    "sojourn_seconds_bucket", label);
			fprintf(f, " %" PRIu64 "\n", cum);
		}
		prom_sample(f, prom, &prom->v[i], "sojourn_seconds_sum", NULL);
		/* The sum in ns wraps (a day at 10 Gbit/s, 200 ms queued). */
		if (st->has & PACER_BIT(PACER_STATS_A_DELAY_US_TOTAL))
			prom_seconds_us(f, st->v[PACER_STATS_A_DELAY_US_TOTAL]);
		else
			prom_seconds(f, st->v[PACER_STATS_A_DELAY_NS_TOTAL]);
		prom_sample(f, prom, &prom->v[i], "sojourn_seconds_count",
			    NULL);
		fprintf(f, " %" PRIu64 "\n", cum);
	}
	prom_family(f, "sojourn_max_seconds", "gauge",
		    "The longest a re-injected packet waited in the class since the counters were reset.");
	for (i = 0; i < prom->n; i++) {
		prom_sample(f, prom, &prom->v[i], "sojourn_max_seconds", NULL);
		prom_seconds(f, prom->v[i].stats.v[PACER_STATS_A_DELAY_NS_MAX]);
	}
}

/**
 * pacer_prom_print() - print the classes' counters
 * @f: where to
 * @prom: the classes
 *
 * Every counter of a class is there: each stats attribute a family of
 * its own, but dropped_packets (the sum of the per-reason samples),
 * delay_ns_total, delay_us_total and the histogram (sojourn_seconds:
 * _sum, _bucket,
 * _count) and delay_ns_max (sojourn_max_seconds).
 */
void pacer_prom_print(FILE *f, const struct pacer_prom *prom)
{
	static const struct {
		const char *name, *type, *help;
		int attr;
	} scalars[] = {
		{ "rx_packets_total", "counter",
		  "Packets that arrived in the class.",
		  PACER_STATS_A_RX_PACKETS },
		{ "rx_bytes_total", "counter",
		  "Bytes of those, Ethernet header included.",
		  PACER_STATS_A_RX_BYTES },
		{ "tx_packets_total", "counter", "Packets re-injected.",
		  PACER_STATS_A_TX_PACKETS },
		{ "tx_bytes_total", "counter", "Bytes re-injected.",
		  PACER_STATS_A_TX_BYTES },
		{ "delayed_packets_total", "counter",
		  "Re-injected packets that could not leave on arrival.",
		  PACER_STATS_A_DELAYED_PACKETS },
		{ "delayed_bytes_total", "counter", "Bytes of those.",
		  PACER_STATS_A_DELAYED_BYTES },
		{ "dropped_bytes_total", "counter",
		  "Bytes dropped, all reasons.", PACER_STATS_A_DROPPED_BYTES },
		{ "ecn_marked_total", "counter",
		  "Packets marked CE instead of dropped.",
		  PACER_STATS_A_ECN_MARKED },
		{ "ecn_unparsed_total", "counter",
		  "Packets due a CE mark without an IP header pacer could locate, left unchanged.",
		  PACER_STATS_A_ECN_UNPARSED },
		{ "backlog_packets", "gauge", "Packets queued now.",
		  PACER_STATS_A_BACKLOG_PACKETS },
		{ "backlog_bytes", "gauge", "Bytes queued now.",
		  PACER_STATS_A_BACKLOG_BYTES },
		{ "backlog_peak_bytes", "gauge",
		  "The largest backlog since the counters were reset.",
		  PACER_STATS_A_BACKLOG_PEAK_BYTES },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(scalars); i++) {
		prom_scalar(f, prom, scalars[i].name, scalars[i].type,
			    scalars[i].help, scalars[i].attr);
		if (scalars[i].attr == PACER_STATS_A_DELAYED_BYTES)
			prom_drops(f, prom);
	}
	prom_sojourn(f, prom);
}
