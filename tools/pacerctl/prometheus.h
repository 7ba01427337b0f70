/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: class counters in the Prometheus text format (-o prometheus).
 */
#ifndef PACERCTL_PROMETHEUS_H
#define PACERCTL_PROMETHEUS_H

#include <stddef.h>
#include <stdio.h>

struct pacer_class_info;

/**
 * struct pacer_prom - the classes of a device, collected to be printed
 *	metric by metric
 * @ifname: the device
 * @v: the classes
 * @n: how many
 * @cap: room in @v
 */
struct pacer_prom {
	const char *ifname;
	struct pacer_class_info *v;
	size_t n;
	size_t cap;
};

int pacer_prom_add(struct pacer_prom *prom,
		   const struct pacer_class_info *cls);
void pacer_prom_print(FILE *f, const struct pacer_prom *prom);
void pacer_prom_free(struct pacer_prom *prom);

#endif /* PACERCTL_PROMETHEUS_H */
