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

/* A label value: backslash, double quote and newline escaped. */
static void prom_label(const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			printf("\\%c", *s);
		else if (*s == '\n')
			fputs("\\n", stdout);
		else
			putchar(*s);
	}
}

static void prom_labels(const struct pacer_prom *prom,
		      const struct pacer_class_info *c, const char *extra)
{
	fputs("{dev=\"", stdout);
	prom_label(prom->ifname);
	printf("\",class=\"%u\"", c->id);
	if (*c->name) {
		fputs(",name=\"", stdout);
		prom_label(c->name);
		putchar('"');
	}
	if (extra)
		printf(",%s", extra);
	putchar('}');
}

static void prom_family(const char *name, const char *type, const char *help)
{
	printf("# HELP pacer_class_%s %s\n", name, help);
	printf("# TYPE pacer_class_%s %s\n", name, type);
}

/* A counter family: one sample per class, from stats attribute @attr. */
static void prom_counter(const struct pacer_prom *prom, const char *name,
		       const char *help, int attr)
{
	size_t i;

	prom_family(name, "counter", help);
	for (i = 0; i < prom->n; i++) {
		printf("pacer_class_%s", name);
		prom_labels(prom, &prom->v[i], NULL);
		printf(" %" PRIu64 "\n", prom->v[i].stats.v[attr]);
	}
}

static void prom_gauge(const struct pacer_prom *prom, const char *name,
		     const char *help, int attr)
{
	size_t i;

	prom_family(name, "gauge", help);
	for (i = 0; i < prom->n; i++) {
		printf("pacer_class_%s", name);
		prom_labels(prom, &prom->v[i], NULL);
		printf(" %" PRIu64 "\n", prom->v[i].stats.v[attr]);
	}
}

static const char *const prom_reasons[PACER_DROP_MAX + 1] = {
	[PACER_DROP_QUEUE_LIMIT] = "queue_limit",
	[PACER_DROP_MEMORY] = "memory",
	[PACER_DROP_REINJECT] = "reinject",
	[PACER_DROP_FLUSH] = "flush",
};

static void prom_drops(const struct pacer_prom *prom)
{
	char label[64];
	size_t i;
	int r;

	prom_family("dropped_packets_total", "counter",
		  "Packets dropped, by reason: queue_limit (the class limit), memory (the device cap), reinject (the original device was gone), flush (class deleted or device down).");
	for (i = 0; i < prom->n; i++) {
		for (r = 1; r <= PACER_DROP_MAX; r++) {
			snprintf(label, sizeof(label), "reason=\"%s\"",
				 prom_reasons[r]);
			fputs("pacer_class_dropped_packets_total", stdout);
			prom_labels(prom, &prom->v[i], label);
			printf(" %" PRIu64 "\n", prom->v[i].stats.drops[r]);
		}
	}
}

/* The sojourn histogram: bucket i holds sojourns up to 2^i us. */
static void prom_sojourn(const struct pacer_prom *prom)
{
	char label[64];
	size_t i;
	int b;

	prom_family("sojourn_seconds", "histogram",
		  "How long re-injected packets waited in the class.");
	for (i = 0; i < prom->n; i++) {
		const struct pacer_class_stats *st = &prom->v[i].stats;
		uint64_t cum = 0;

		for (b = 0; b < PACER_HIST_BUCKETS; b++) {
			cum += st->hist[b];
			if (b == PACER_HIST_BUCKETS - 1)
				snprintf(label, sizeof(label), "le=\"+Inf\"");
			else
				snprintf(label, sizeof(label), "le=\"%.6f\"",
					 (double)(UINT64_C(1) << b) / 1e6);
			fputs("pacer_class_sojourn_seconds_bucket", stdout);
			prom_labels(prom, &prom->v[i], label);
			printf(" %" PRIu64 "\n", cum);
		}
		fputs("pacer_class_sojourn_seconds_count", stdout);
		prom_labels(prom, &prom->v[i], NULL);
		printf(" %" PRIu64 "\n", cum);
		fputs("pacer_class_sojourn_seconds_sum", stdout);
		prom_labels(prom, &prom->v[i], NULL);
		printf(" %.9f\n",
		       (double)st->v[PACER_STATS_A_DELAY_NS_TOTAL] / 1e9);
	}
}

/**
 * pacer_prom_print() - print the classes' counters
 * @prom: the classes
 */
void pacer_prom_print(const struct pacer_prom *prom)
{
	prom_counter(prom, "rx_packets_total", "Packets that arrived in the class.",
		   PACER_STATS_A_RX_PACKETS);
	prom_counter(prom, "rx_bytes_total",
		   "Bytes of those, Ethernet header included.",
		   PACER_STATS_A_RX_BYTES);
	prom_counter(prom, "tx_packets_total", "Packets re-injected.",
		   PACER_STATS_A_TX_PACKETS);
	prom_counter(prom, "tx_bytes_total", "Bytes re-injected.",
		   PACER_STATS_A_TX_BYTES);
	prom_counter(prom, "delayed_packets_total",
		   "Re-injected packets that could not leave on arrival.",
		   PACER_STATS_A_DELAYED_PACKETS);
	prom_counter(prom, "delayed_bytes_total", "Bytes of those.",
		   PACER_STATS_A_DELAYED_BYTES);
	prom_drops(prom);
	prom_counter(prom, "dropped_bytes_total", "Bytes dropped, all reasons.",
		   PACER_STATS_A_DROPPED_BYTES);
	prom_counter(prom, "ecn_marked_total",
		   "Packets marked CE instead of dropped.",
		   PACER_STATS_A_ECN_MARKED);
	prom_counter(prom, "ecn_unparsed_total",
		   "Packets due a CE mark without an IP header pacer could locate, left unchanged.",
		   PACER_STATS_A_ECN_UNPARSED);
	prom_gauge(prom, "backlog_packets", "Packets queued now.",
		 PACER_STATS_A_BACKLOG_PACKETS);
	prom_gauge(prom, "backlog_bytes", "Bytes queued now.",
		 PACER_STATS_A_BACKLOG_BYTES);
	prom_gauge(prom, "backlog_peak_bytes",
		 "The largest backlog since the counters were reset.",
		 PACER_STATS_A_BACKLOG_PEAK_BYTES);
	prom_sojourn(prom);
}
