// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of prometheus.c ("pacerctl -o prometheus class show"),
 * printing TAP: synthetic classes go through the formatter, the output is
 * checked line by line, then by "promtool check metrics" (Prometheus's own
 * parser and linter) when $PROMTOOL or promtool is there.
 *
 *   test_prometheus [OUT]   also keep the exposition in OUT
 *
 * PACER_REQUIRE_PROMTOOL=1 makes a missing promtool a failure, not a skip.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "objects.h"
#include "prometheus.h"
#include "tap.h"


/* @text holds @line as a whole line. */
static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *p = text;

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return 1;
		p++;
	}
	return 0;
}

static void want_line(const char *text, const char *line)
{
	char what[512];
	int found = has_line(text, line);

	snprintf(what, sizeof(what), "line: %s", line);
	ok(found, what);
	if (!found)
		printf("# not in the output\n");
}

/* How many lines start with @prefix. */
static int count_prefix(const char *text, const char *prefix)
{
	const char *p = text;
	size_t n = strlen(prefix);
	int c = 0;

	for (; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p))
		if (!strncmp(p, prefix, n))
			c++;
	return c;
}

/*
 * Every sample's metric family has had its # TYPE line before it, once,
 * and the samples of a family are together (what the text format asks).
 */
static int families_grouped(const char *text, char *why, size_t len)
{
	char seen[64][80], cur[80] = "", line[1024];
	const char *p = text, *nl;
	int nseen = 0, i;

	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		if (!strncmp(line, "# TYPE ", 7)) {
			char name[80];

			sscanf(line + 7, "%79s", name);
			for (i = 0; i < nseen; i++) {
				if (!strcmp(seen[i], name)) {
					snprintf(why, len, "TYPE %s twice", name);
					return 0;
				}
			}
			if (nseen < 64)
				strcpy(seen[nseen++], name);
			strcpy(cur, name);
		} else if (line[0] != '#') {
			size_t n = strcspn(line, "{ ");
			char name[80];

			snprintf(name, sizeof(name), "%.*s", (int)n, line);
			if (strncmp(name, cur, strlen(cur)) ||
			    (strcmp(name, cur) &&
			     strcmp(name + strlen(cur), "_bucket") &&
			     strcmp(name + strlen(cur), "_sum") &&
			     strcmp(name + strlen(cur), "_count"))) {
				snprintf(why, len, "%s outside its family (in %s)",
					 name, cur);
				return 0;
			}
		}
	}
	return 1;
}

static int run_promtool(const char *path, char *out, size_t len)
{
	const char *tool = getenv("PROMTOOL");
	char cmd[1024];
	size_t n = 0;
	FILE *p;
	int st;

	if (!tool || !*tool)
		tool = "promtool";
	snprintf(cmd, sizeof(cmd), "command -v '%s' >/dev/null 2>&1", tool);
	if (system(cmd))
		return -1;
	snprintf(cmd, sizeof(cmd), "'%s' check metrics <'%s' 2>&1", tool, path);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int main(int argc, char **argv)
{
	struct pacer_prom prom = { .ifname = "pacer0" };
	struct pacer_class_info c;
	char why[256] = "", *text = NULL, tool_out[8192], path[] = "/tmp/pacer-prom.XXXXXX";
	size_t len = 0;
	FILE *f;
	int fd, rc;

	/* Class 0: no name, nothing happened. */
	memset(&c, 0, sizeof(c));
	pacer_prom_add(&prom, &c);

	/* Class 10 "s3": traffic, delays, drops of every reason. */
	memset(&c, 0, sizeof(c));
	c.id = 10;
	strcpy(c.name, "s3");
	c.stats.v[PACER_STATS_A_RX_PACKETS] = 1000;
	c.stats.v[PACER_STATS_A_RX_BYTES] = 1514000;
	c.stats.v[PACER_STATS_A_TX_PACKETS] = 990;
	c.stats.v[PACER_STATS_A_TX_BYTES] = 1498860;
	c.stats.v[PACER_STATS_A_DELAYED_PACKETS] = 700;
	c.stats.v[PACER_STATS_A_DELAYED_BYTES] = 1059800;
	c.stats.v[PACER_STATS_A_DELAY_NS_TOTAL] = 1234567891;
	c.stats.v[PACER_STATS_A_DELAY_NS_MAX] = 52000000;
	c.stats.v[PACER_STATS_A_DROPPED_PACKETS] = 10;
	c.stats.v[PACER_STATS_A_DROPPED_BYTES] = 15140;
	c.stats.v[PACER_STATS_A_ECN_MARKED] = 7;
	c.stats.v[PACER_STATS_A_ECN_UNPARSED] = 1;
	c.stats.v[PACER_STATS_A_BACKLOG_PEAK_BYTES] = 65536;
	c.stats.drops[PACER_DROP_QUEUE_LIMIT] = 6;
	c.stats.drops[PACER_DROP_MEMORY] = 2;
	c.stats.drops[PACER_DROP_REINJECT] = 1;
	c.stats.drops[PACER_DROP_FLUSH] = 1;
	c.stats.hist[0] = 290;
	c.stats.hist[7] = 400;		/* up to 8 us */
	c.stats.hist[55] = 299;		/* up to 32,768 us */
	c.stats.hist[PACER_HIST_BUCKETS - 1] = 1;
	pacer_prom_add(&prom, &c);

	/*
	 * Class 11: a name with every character the format escapes, UTF-8
	 * ("é") and a byte that is not (0xff, written as U+FFFD).
	 */
	memset(&c, 0, sizeof(c));
	c.id = 11;
	strcpy(c.name, "a \"b\" c\\d\ne\xff\xc3\xa9");
	c.stats.v[PACER_STATS_A_BACKLOG_PACKETS] = 3;
	c.stats.v[PACER_STATS_A_BACKLOG_BYTES] = 4542;
	pacer_prom_add(&prom, &c);

	/* Class 65535: counters at their limits. */
	memset(&c, 0, sizeof(c));
	c.id = PACER_CLASS_ID_MAX;
	c.stats.v[PACER_STATS_A_RX_PACKETS] = UINT64_MAX;
	c.stats.v[PACER_STATS_A_DELAY_NS_TOTAL] = UINT64_MAX;
	c.stats.hist[0] = UINT64_MAX;
	pacer_prom_add(&prom, &c);

	/*
	 * Class 12: the sum in us and the one in ns, which wrapped: _sum is
	 * the one in us (1e6 s of sojourn, 1e15 ns, then 2^64 ns more).
	 */
	memset(&c, 0, sizeof(c));
	c.id = 12;
	c.stats.has = PACER_BIT(PACER_STATS_A_DELAY_US_TOTAL) |
		      PACER_BIT(PACER_STATS_A_DELAY_NS_TOTAL);
	c.stats.v[PACER_STATS_A_DELAY_US_TOTAL] = 18446745073709551ULL;
	c.stats.v[PACER_STATS_A_DELAY_NS_TOTAL] = 1000000000000000ULL;
	pacer_prom_add(&prom, &c);

	f = open_memstream(&text, &len);
	if (!f)
		return 1;
	pacer_prom_print(f, &prom);
	fclose(f);
	pacer_prom_free(&prom);

	printf("TAP version 13\n");
	want_line(text, "# TYPE pacer_class_rx_packets_total counter");
	want_line(text, "pacer_class_rx_packets_total{dev=\"pacer0\",class=\"0\"} 0");
	want_line(text, "pacer_class_rx_packets_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 1000");
	want_line(text, "pacer_class_rx_bytes_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 1514000");
	want_line(text, "pacer_class_tx_packets_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 990");
	want_line(text, "pacer_class_tx_bytes_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 1498860");
	want_line(text, "pacer_class_delayed_packets_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 700");
	want_line(text, "pacer_class_delayed_bytes_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 1059800");
	want_line(text, "pacer_class_dropped_packets_total{dev=\"pacer0\",class=\"10\",name=\"s3\",reason=\"queue_limit\"} 6");
	want_line(text, "pacer_class_dropped_packets_total{dev=\"pacer0\",class=\"10\",name=\"s3\",reason=\"memory\"} 2");
	want_line(text, "pacer_class_dropped_packets_total{dev=\"pacer0\",class=\"10\",name=\"s3\",reason=\"reinject\"} 1");
	want_line(text, "pacer_class_dropped_packets_total{dev=\"pacer0\",class=\"10\",name=\"s3\",reason=\"flush\"} 1");
	want_line(text, "pacer_class_dropped_bytes_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 15140");
	want_line(text, "pacer_class_ecn_marked_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 7");
	want_line(text, "pacer_class_ecn_unparsed_total{dev=\"pacer0\",class=\"10\",name=\"s3\"} 1");
	want_line(text, "pacer_class_backlog_packets{dev=\"pacer0\",class=\"11\",name=\"a \\\"b\\\" c\\\\d\\ne\xef\xbf\xbd\xc3\xa9\"} 3");
	want_line(text, "pacer_class_backlog_bytes{dev=\"pacer0\",class=\"11\",name=\"a \\\"b\\\" c\\\\d\\ne\xef\xbf\xbd\xc3\xa9\"} 4542");
	want_line(text, "pacer_class_backlog_peak_bytes{dev=\"pacer0\",class=\"10\",name=\"s3\"} 65536");
	want_line(text, "# TYPE pacer_class_sojourn_seconds histogram");
	want_line(text, "pacer_class_sojourn_seconds_bucket{dev=\"pacer0\",class=\"10\",name=\"s3\",le=\"0.000001\"} 290");
	want_line(text, "pacer_class_sojourn_seconds_bucket{dev=\"pacer0\",class=\"10\",name=\"s3\",le=\"0.000004\"} 290");
	want_line(text, "pacer_class_sojourn_seconds_bucket{dev=\"pacer0\",class=\"10\",name=\"s3\",le=\"0.000008\"} 690");
	want_line(text, "pacer_class_sojourn_seconds_bucket{dev=\"pacer0\",class=\"10\",name=\"s3\",le=\"0.032768\"} 989");
	want_line(text, "pacer_class_sojourn_seconds_bucket{dev=\"pacer0\",class=\"10\",name=\"s3\",le=\"0.524288\"} 989");
	want_line(text, "pacer_class_sojourn_seconds_bucket{dev=\"pacer0\",class=\"10\",name=\"s3\",le=\"+Inf\"} 990");
	want_line(text, "pacer_class_sojourn_seconds_count{dev=\"pacer0\",class=\"10\",name=\"s3\"} 990");
	want_line(text, "pacer_class_sojourn_seconds_sum{dev=\"pacer0\",class=\"10\",name=\"s3\"} 1.234567891");
	want_line(text, "pacer_class_sojourn_max_seconds{dev=\"pacer0\",class=\"10\",name=\"s3\"} 0.052000000");
	want_line(text, "pacer_class_rx_packets_total{dev=\"pacer0\",class=\"65535\"} 18446744073709551615");
	want_line(text, "pacer_class_sojourn_seconds_sum{dev=\"pacer0\",class=\"65535\"} 18446744073.709551615");
	want_line(text, "pacer_class_sojourn_seconds_sum{dev=\"pacer0\",class=\"12\"} 18446745073.709551");
	ok(count_prefix(text, "# TYPE ") == 15, "15 metric families");
	ok(count_prefix(text, "# HELP ") == 15, "each with a HELP line");
	ok(count_prefix(text, "pacer_class_sojourn_seconds_bucket{") ==
	   5 * PACER_HIST_BUCKETS, "a bucket per histogram bucket and class");
	ok(count_prefix(text, "pacer_class_dropped_packets_total{") ==
	   5 * PACER_DROP_MAX, "a drop sample per reason and class");
	ok(families_grouped(text, why, sizeof(why)),
	   "every sample follows its family's TYPE line, families not split");
	if (*why)
		printf("# %s\n", why);

	fd = mkstemp(path);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len)
		return 1;
	close(fd);
	if (argc > 1) {
		f = fopen(argv[1], "w");
		if (f) {
			fwrite(text, 1, len, f);
			fclose(f);
		}
	}
	rc = run_promtool(path, tool_out, sizeof(tool_out));
	if (rc < 0 && !(getenv("PACER_REQUIRE_PROMTOOL") &&
			!strcmp(getenv("PACER_REQUIRE_PROMTOOL"), "1"))) {
		tap_tests++;
		printf("ok %d - promtool check metrics # SKIP promtool not found\n",
		       tap_tests);
	} else {
		char *l;

		for (l = strtok(tool_out, "\n"); l; l = strtok(NULL, "\n"))
			printf("# promtool: %s\n", l);
		ok(rc == 0, rc < 0 ? "promtool check metrics (promtool not found)" :
		   "promtool check metrics: the exposition parses and lints clean");
	}
	unlink(path);
	free(text);
	return tap_done("# ");
}
