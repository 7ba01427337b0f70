// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: configure and watch pacer devices.
 *
 *   pacerctl [OPTIONS] OBJECT [COMMAND [ARGS]]
 *
 * main() parses the global options and hands the rest to the object
 * table; each object file parses its own commands and arguments.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	      "       pacerctl OBJECT help\n"
	      "\n"
	      "Objects:\n", f);
	pacer_print_cmds(f, objects, ARRAY_SIZE(objects));
	fputs("\n"
	      "Options:\n"
	      "    -j, --json        print JSON\n"
	      "    -p, --pretty      print indented JSON (implies -j)\n"
	      "    -s, --stats       add counters (repeat for more detail)\n"
	      "    -V, --version     print the version\n"
	      "    -h, --help        print this text\n"
	      "\n"
	      "Keywords may be shortened, as with ip: the first in the list that\n"
	      "starts so is meant (\"pacerctl d s\" is \"pacerctl dev show\";\n"
	      "\"det\" is \"detach\").\n", f);
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
	static const char expected[] = "expected one of: -j, -p, -s, -V, -h";

	if (opt)
		return pacer_usage_error("unknown option \"-%c\"; %s", opt,
					 expected);
	return pacer_usage_error("unknown option \"%s\"; %s", arg, expected);
}

static int parse_options(int argc, char **argv, struct pacer_opts *opts)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "stats", no_argument, NULL, 's' },
		{ "statistics", no_argument, NULL, 's' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;	/* our own messages */
	while ((c = getopt_long(argc, argv, "+jpsVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			opts->json = true;
			break;
		case 'p':
			opts->json = true;
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
		default:
			return unknown_option(optopt, argv[optind - 1]);
		}
	}
	return -1;	/* go on */
}

int main(int argc, char **argv)
{
	struct pacer_opts opts = { 0 };
	int ret;

	ret = parse_options(argc, argv, &opts);
	if (ret >= 0)
		return ret;

	argc -= optind;
	argv += optind;
	if (argc < 1) {
		usage(stderr);
		return EXIT_USAGE;
	}

	ret = pacer_dispatch(objects, ARRAY_SIZE(objects), "object", NULL,
			     argc, argv, &opts);

	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "pacerctl: cannot write the output: %s\n",
			strerror(errno));
		return EXIT_FAILURE;
	}
	return ret;
}
