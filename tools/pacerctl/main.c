// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: configure and watch pacer devices.
 *
 *   pacerctl [OPTIONS] OBJECT [COMMAND [ARGS]]
 *   pacerctl [OPTIONS] [-force] -b FILE
 *
 * OPTIONS: -j, -p, -s, -n NETNS (as ip -n), -V, -h.
 *
 * main() parses the global options and hands the rest to the object
 * table; each object file parses its own commands and arguments.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pacerctl.h"

#ifndef PACER_VERSION
#define PACER_VERSION "0.1"
#endif

static int do_help(int argc, char **argv, const struct pacer_opts *opts);

#define PACER_OBJECT_ENTRY(name, help) { #name, do_##name, help },
static const struct pacerctl_cmd objects[] = {
	PACER_OBJECTS(PACER_OBJECT_ENTRY)
	{ "help", do_help, "this text, or an object's (help OBJECT)" },
};
#undef PACER_OBJECT_ENTRY

static void usage(FILE *f)
{
	fputs("Usage: pacerctl [OPTIONS] OBJECT [COMMAND [ARGS]]\n"
	      "       pacerctl [OPTIONS] [ -force ] -b FILE\n"
	      "       pacerctl OBJECT help\n"
	      "\n"
	      "Objects:\n", f);
	pacer_print_cmds(f, objects, ARRAY_SIZE(objects));
	fputs("\n"
	      "Options:\n"
	      "    -j, --json        print JSON\n"
	      "    -p, --pretty      print indented JSON (implies -j)\n"
	      "    -s, --stats       add counters (repeat for more detail)\n"
	      "    -o, --output FMT  text (the default), json (as -j), or prometheus:\n"
	      "                      \"class show\" counters in the Prometheus text\n"
	      "                      format, for node_exporter's textfile collector;\n"
	      "                      of -o, -j and -p the last one given wins\n"
	      "    -n, --netns NAME  run in network namespace NAME (as ip -n: one\n"
	      "                      that \"ip netns add\" made, /var/run/netns/NAME)\n"
	      "    -b, --batch FILE  run the commands in FILE (- for standard\n"
	      "                      input), one a line, # for comments; stop at\n"
	      "                      the first that fails, naming its line\n"
	      "    -force            with -b: run every line, fail if one did\n"
	      "    -V, --version     print the version\n"
	      "    -h, --help        print this text\n"
	      "\n"
	      "Objects and commands may be shortened, as with ip: the first in the\n"
	      "list that starts so is meant (\"pacerctl d s\" is \"pacerctl dev\n"
	      "show\"; \"det\" is \"detach\"); their arguments (dev, id, rate ...)\n"
	      "may not.\n", f);
}

/* "help" alone, or "help OBJECT" for that object's help. */
static int do_help(int argc, char **argv, const struct pacer_opts *opts)
{
	char *help[] = { argv[0], "help", NULL };

	if (argc < 1) {
		usage(stdout);
		return EXIT_SUCCESS;
	}
	if (argc > 1)
		return pacer_unknown_arg(argv[1], "help", "[ OBJECT ]");
	if (pacer_is_help(argv[0])) {
		usage(stdout);
		return EXIT_SUCCESS;
	}
	return pacer_dispatch(objects, ARRAY_SIZE(objects) - 1, "object",
			      NULL, 2, help, opts);
}

static int unknown_option(int opt, const char *arg)
{
	static const char expected[] = "expected one of: -j, -p, -s, -o FMT, -n NAME, -b FILE, -force, -V, -h";

	if (opt)
		return pacer_usage_error("unknown option \"-%c\"; %s", opt,
					 expected);
	return pacer_usage_error("unknown option \"%s\"; %s", arg, expected);
}

/* -n NAME: what follows runs in that network namespace, as with ip -n. */
static int enter_netns(const char *name)
{
	char path[512];
	int fd, err;

	if (!*name || strchr(name, '/') ||
	    snprintf(path, sizeof(path), "/var/run/netns/%s", name) >=
	    (int)sizeof(path))
		return pacer_usage_error("invalid network namespace name \"%s\": expected a name \"ip netns\" lists",
					 name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pacer_fail("cannot open network namespace \"%s\": %s",
				  name, strerror(errno));
	err = setns(fd, CLONE_NEWNET);
	close(fd);
	if (err)
		return pacer_fail("cannot enter network namespace \"%s\": %s",
				  name, strerror(errno));
	return -1;
}

/*
 * The options before the object; tc's single-dash "-force" and "-batch"
 * and ip's "-netns" are taken too, wherever an option may stand, but
 * never as an option's value ("-b -force" reads the file "-force").  Sets
 * *batch to -b's FILE.
 */
static int parse_options(int argc, char **argv, struct pacer_opts *opts,
			 const char **batch, bool *force)
{
	static const struct option longopts[] = {
		{ "netns", required_argument, NULL, 'n' },
		{ "output", required_argument, NULL, 'o' },
		{ "batch", required_argument, NULL, 'b' },
		{ "force", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "stats", no_argument, NULL, 's' },
		{ "statistics", no_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const words[][2] = {
		{ "-force", "--force" },
		{ "-batch", "--batch" },
		{ "-netns", "--netns" },
	};
	const char *said = NULL, *opt;
	int c, i, ret, said_at = -1;

	opterr = 0;	/* our own messages */
	for (;;) {
		/*
		 * Between two calls argv[optind] is where the next option
		 * starts: getopt has already taken the values of those before.
		 * A word is rewritten there, and what was said kept for errors.
		 */
		for (i = 0; optind < argc && i < (int)ARRAY_SIZE(words); i++) {
			if (!strcmp(argv[optind], words[i][0])) {
				said = argv[optind];
				said_at = optind;
				argv[optind] = (char *)words[i][1];
				break;
			}
		}
		c = getopt_long(argc, argv, "+:n:o:b:jpsVh", longopts, NULL);
		if (c == -1)
			break;
		switch (c) {
		case 'o':
			if (pacer_set_output(opts, optarg))
				return pacer_usage_error("invalid output format \"%s\": expected text, json or prometheus",
							 optarg);
			break;
		case 'n':
			ret = enter_netns(optarg);
			if (ret >= 0)
				return ret;
			break;
		case 'b':
			*batch = optarg;
			break;
		case 'f':
			*force = true;
			break;
		case 'j':
			pacer_set_output(opts, "json");
			break;
		case 'p':
			pacer_set_output(opts, "json");
			opts->pretty = true;
			break;
		case 's':
			opts->stats++;
			break;
		case 'V':
			printf("pacerctl %s\n", PACER_VERSION);
			return EXIT_SUCCESS;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		case ':':
			opt = optind - 1 == said_at ? said : argv[optind - 1];
			if (optopt == 'n')
				return pacer_usage_error("\"%s\" needs a network namespace NAME",
							 opt);
			if (optopt == 'o')
				return pacer_usage_error("\"%s\" needs a FORMAT: text, json or prometheus",
							 opt);
			return pacer_usage_error("\"%s\" needs a FILE (- for standard input)",
						 opt);
		default:
			return unknown_option(optopt, argv[optind - 1]);
		}
	}
	return -1;	/* go on */
}

int main(int argc, char **argv)
{
	struct pacer_opts opts = { 0 };
	const char *batch = NULL;
	bool force = false;
	int ret;

	ret = parse_options(argc, argv, &opts, &batch, &force);
	if (ret >= 0)
		return ret;

	argc -= optind;
	argv += optind;
	if (batch && argc > 0)
		return pacer_usage_error("-b FILE takes its commands from FILE, not \"%s\"",
					 argv[0]);
	if (force && !batch)
		return pacer_usage_error("-force goes with -b FILE");
	if (!batch && argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}

	if (batch)
		ret = pacer_batch(batch, force, objects, ARRAY_SIZE(objects),
				  &opts);
	else
		ret = pacer_dispatch(objects, ARRAY_SIZE(objects), "object",
				     NULL, argc, argv, &opts);

	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pacerctl: cannot write the output: %s\n",
			strerror(errno));
		return EXIT_FAILURE;
	}
	return ret;
}
