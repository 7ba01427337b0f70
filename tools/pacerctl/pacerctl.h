/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: what every object file shares: options, the command tables
 * and the helpers that parse arguments and report errors.
 */
#ifndef PACERCTL_H
#define PACERCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Exit statuses: 0 success, 1 failure (EXIT_FAILURE), 2 bad usage. */
#define EXIT_USAGE 2

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/**
 * struct pacer_opts - the global options, parsed before the object
 * @json: print JSON (-j)
 * @pretty: indent the JSON (-p; implies @json)
 * @stats: how many times -s was given
 * @prometheus: print counters in the Prometheus text format (-o prometheus)
 */
struct pacer_opts {
	bool json;
	bool pretty;
	int stats;
	bool prometheus;
};

/**
 * struct pacerctl_cmd - one keyword of a command table (an object or a command)
 * @name: the keyword
 * @run: runs it with the arguments that follow the keyword; returns an
 *	exit status
 * @help: one line for the usage text
 */
struct pacerctl_cmd {
	const char *name;
	int (*run)(int argc, char **argv, const struct pacer_opts *opts);
	const char *help;
};

/*
 * The objects, one line each: the keyword, and the one-line help.  Object
 * NAME is implemented by do_NAME() in NAME.c.
 */
#define PACER_OBJECTS(X) \
	X(dev, "pacer devices and their counters") \
	X(class, "traffic classes: rates, queues and their counters") \
	X(rule, "rules that send packets to classes") \
	X(stats, "class counters: show, reset") \
	X(monitor, "changes and per-class rates as they happen") \
	X(attach, "redirect a device's ingress or egress to a pacer device") \
	X(detach, "undo attach") \
	X(dump, "a device's configuration, as commands for -b")

#define PACER_DECLARE_OBJECT(name, help) \
	int do_##name(int argc, char **argv, const struct pacer_opts *opts);
PACER_OBJECTS(PACER_DECLARE_OBJECT)
#undef PACER_DECLARE_OBJECT

/* batch.c: -b FILE */
int pacer_batch(const char *path, bool force,
		const struct pacerctl_cmd *objects, size_t n,
		const struct pacer_opts *opts);

/* cli.c: dispatch and arguments */
void pacer_set_where(const char *where);
int pacer_dispatch(const struct pacerctl_cmd *cmds, size_t n, const char *what,
		   const char *context, int argc, char **argv,
		   const struct pacer_opts *opts);
void pacer_print_cmds(FILE *f, const struct pacerctl_cmd *cmds, size_t n);
int pacer_set_output(struct pacer_opts *opts, const char *fmt);
bool pacer_is_help(const char *arg);
int pacer_next_value(int *argc, char ***argv);
int pacer_check_ifname(const char *name);
int pacer_parse_dev(int *argc, char ***argv, const char **ifname);
int pacer_unknown_arg(const char *arg, const char *command,
		      const char *expected);
int pacer_duplicate_arg(const char *keyword);

/* dev.c: the errors of any request that names a device */
int pacer_dev_fail(const char *ifname, int err, const char *extack);

/* cli.c: the generic netlink family, opened or explained */
struct pnl;
int pacer_open(struct pnl *nl);

/* cli.c: messages, each one line on stderr starting "pacerctl: " */
int pacer_usage_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
int pacer_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int pacer_fail_request(int err, const char *extack, bool explained,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void pacer_warn_extack(const char *extack);

#endif /* PACERCTL_H */
