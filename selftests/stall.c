// SPDX-License-Identifier: GPL-2.0
/*
 * stall: keep one CPU from everything below real-time priority, in slices.
 *
 * Usage:
 *	stall CPU ON_MS PERIOD_MS SECS
 *
 * Pinned to CPU at SCHED_FIFO priority 50, it spins for ON_MS out of every
 * PERIOD_MS, for SECS seconds: a NAPI thread on that CPU (threaded NAPI
 * runs at SCHED_OTHER) then runs late by up to ON_MS, as a release does on
 * a CPU that softirq work or another tenant holds.  On stdout: the stalls
 * made and the milliseconds spun, to check the premise against.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "ksft.h"

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 50 };
	long long start, end, slice, spun = 0;
	long cpu, on_ms, period_ms, secs, stalls = 0;
	cpu_set_t set;

	ksft_init("stall");
	if (argc != 5)
		ksft_fatal(0, "usage: stall CPU ON_MS PERIOD_MS SECS");
	cpu = ksft_arg(argv[1], "CPU", 0, CPU_SETSIZE - 1);
	period_ms = ksft_arg(argv[3], "PERIOD_MS", 1, 10000);
	on_ms = ksft_arg(argv[2], "ON_MS", 0, period_ms);
	secs = ksft_arg(argv[4], "SECS", 1, 3600);

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_fatal(errno, "sched_setaffinity to CPU %ld", cpu);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		ksft_fatal(errno, "sched_setscheduler SCHED_FIFO 50");

	start = ksft_now_ns();
	end = start + secs * 1000000000LL;
	for (slice = start; slice < end; slice += period_ms * 1000000LL) {
		long long t = ksft_now_ns(), until = slice + on_ms * 1000000LL;
		struct timespec next;

		if (t < until) {
			while (ksft_now_ns() < until)
				;
			spun += ksft_now_ns() - t;
			stalls++;
		}
		next.tv_sec = (slice + period_ms * 1000000LL) / 1000000000LL;
		next.tv_nsec = (slice + period_ms * 1000000LL) % 1000000000LL;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	printf("stalls %ld spun_ms %lld\n", stalls, spun / 1000000);
	return 0;
}
