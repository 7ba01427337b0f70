// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of stats.c's derived figures, printing TAP: what "class
 * show -s" derives from a class's counters (delay_p50_us, delay_p99_us,
 * delay_avg_us), for counters anywhere in their 64 bits.  Run by "make
 * test".
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pacer.h>

#include "objects.h"
#include "print.h"
#include "tap.h"
#include "test_json.h"

static void print_stats(const void *st)
{
	pacer_class_stats_print(st, 1);
}

/* What "class show -j -s" prints of @st; caller frees. */
static char *json_of(const struct pacer_class_stats *st)
{
	return json_capture(print_stats, st);
}

/* The value of "@key": in @json, or UINT64_MAX if it is not there. */
static uint64_t json_u64(const char *json, const char *key)
{
	char pattern[64];
	const char *p;

	snprintf(pattern, sizeof(pattern), "\"%s\":", key);
	p = json ? strstr(json, pattern) : NULL;
	return p ? strtoull(p + strlen(pattern), NULL, 10) : UINT64_MAX;
}

/*
 * A class that sent @low packets within 1us and @high within 5us (the
 * histogram's buckets 0 and 4): its p50 and p99 are @p50 and @p99 us.
 */
static void percentiles(uint64_t low, uint64_t high, uint64_t p50,
			uint64_t p99)
{
	static struct pacer_class_stats st;
	char what[160];
	char *json;

	memset(&st, 0, sizeof(st));
	st.has = PACER_BIT(PACER_STATS_A_TX_PACKETS) |
		 PACER_BIT(PACER_STATS_A_DELAY_NS_MAX) |
		 PACER_BIT(PACER_STATS_A_DELAY_HIST);
	st.v[PACER_STATS_A_TX_PACKETS] = low + high;
	st.v[PACER_STATS_A_DELAY_NS_MAX] = high ? 5000 : 1000;
	st.hist[0] = low;
	st.hist[4] = high;
	json = json_of(&st);
	snprintf(what, sizeof(what),
		 "%" PRIu64 " packets <=1us, %" PRIu64 " <=5us: p50 %" PRIu64 "us, p99 %" PRIu64 "us",
		 low, high, p50, p99);
	ok(json_u64(json, "delay_p50_us") == p50 &&
	   json_u64(json, "delay_p99_us") == p99, what);
	if (json && (json_u64(json, "delay_p50_us") != p50 ||
		     json_u64(json, "delay_p99_us") != p99))
		printf("# got p50 %" PRIu64 "us, p99 %" PRIu64 "us\n",
		       json_u64(json, "delay_p50_us"),
		       json_u64(json, "delay_p99_us"));
	free(json);
}

int main(void)
{
	percentiles(2, 1, 1, 5);
	percentiles(99, 1, 1, 1);
	percentiles(98, 2, 1, 5);
	/* past 2^64 / 100 packets: cum * 100 and total * pct must not wrap */
	percentiles(200000000000000000ULL, 100000000000000000ULL, 1, 5);
	percentiles(90000000000000000ULL, 100000000000000000ULL, 5, 5);
	percentiles(1000000000000000000ULL, 10000000000000000ULL, 1, 1);
	percentiles(9900000000000000000ULL, 100000000000000000ULL, 1, 1);
	percentiles(1, 18000000000000000000ULL, 5, 5);

	return tap_done("");
}
