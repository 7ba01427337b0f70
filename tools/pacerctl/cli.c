// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: what the object files share: keyword dispatch, argument
 * helpers, and one-line messages on stderr.
 */
#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/pacer.h>

#include "nl.h"
#include "pacerctl.h"

/* Where the command being run came from, in batch mode: "FILE:LINE". */
static const char *pacer_where;

/**
 * pacer_set_where() - name where the commands that follow come from
 * @where: "FILE:LINE", or NULL for the command line
 *
 * Every message names it, so a batch's error points at its line.
 */
void pacer_set_where(const char *where)
{
	pacer_where = where;
}

static void vmessage(const char *fmt, va_list ap)
{
	fputs("pacerctl: ", stderr);
	if (pacer_where)
		fprintf(stderr, "%s: ", pacer_where);
	vfprintf(stderr, fmt, ap);
}

/**
 * pacer_usage_error() - report a mistake on the command line
 * @fmt: printf format of a sentence naming the mistake
 *
 * Return: EXIT_USAGE.
 */
int pacer_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/**
 * pacer_fail() - report a failure that is not the command line's fault
 * @fmt: printf format of a sentence naming the problem
 *
 * Return: EXIT_FAILURE.
 */
int pacer_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_FAILURE;
}

/* strerror() with the few errnos pacerctl gives its own meaning. */
static const char *pacer_strerror(int err)
{
	switch (err) {
	case -EINTR:
		return "the list changed while it was read; run the command again";
	case -EBADMSG:
		return "malformed reply from the kernel";
	default:
		return strerror(-err);
	}
}

/**
 * pacer_fail_request() - report a request the kernel refused, on one line
 * @err: the negative errno
 * @extack: the kernel's message, "" or NULL if none
 * @explained: the sentence already says what @err means
 * @fmt: printf format of the sentence, naming the object
 *
 * Prints "pacerctl: SENTENCE: REASON".  REASON is the kernel's message,
 * or strerror when there is none; an explained sentence gets no REASON
 * unless the kernel's message says more than the sentence (it is neither
 * part of it nor strerror of @err).
 *
 * Return: EXIT_FAILURE.
 */
int pacer_fail_request(int err, const char *extack, bool explained,
		       const char *fmt, ...)
{
	const char *reason = NULL;
	char sentence[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sentence, sizeof(sentence), fmt, ap);
	va_end(ap);

	/* The kernel's NL_SET_ERR_MSG_MOD() names the module: drop that. */
	if (extack && !strncmp(extack, PACER_GENL_NAME ": ",
			       strlen(PACER_GENL_NAME ": ")))
		extack += strlen(PACER_GENL_NAME ": ");

	if (extack && *extack) {
		if (!explained || (!strcasestr(sentence, extack) &&
				   strcasecmp(extack, strerror(-err))))
			reason = extack;
	} else if (!explained) {
		reason = pacer_strerror(err);
	}

	if (reason)
		return pacer_fail("%s: %s", sentence, reason);
	return pacer_fail("%s", sentence);
}

/**
 * pacer_warn_extack() - print the message the kernel attached to a success
 * @extack: the message, "" if none
 */
void pacer_warn_extack(const char *extack)
{
	if (*extack)
		fprintf(stderr, "pacerctl: warning: %s\n", extack);
}

/**
 * pacer_open() - open the pacer generic netlink family
 * @nl: the socket; close it with pnl_close() whatever this returns
 *
 * Explains the failure when there is one.
 *
 * Return: 0 or EXIT_FAILURE.
 */
int pacer_open(struct pnl *nl)
{
	int err = pnl_open(nl, PACER_GENL_NAME, PACER_GENL_VERSION);

	if (err == -ENOENT)
		return pacer_fail("%s: generic netlink family not found; is the module loaded? (modprobe pacer)",
				  PACER_GENL_NAME);
	if (err)
		return pacer_fail("cannot open the %s generic netlink family: %s",
				  PACER_GENL_NAME, pacer_strerror(err));
	return 0;
}

/**
 * pacer_print_cmds() - list a command table for a usage text
 * @f: where to
 * @cmds: the table
 * @n: its size
 */
void pacer_print_cmds(FILE *f, const struct pacerctl_cmd *cmds, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, "    %-10s %s\n", cmds[i].name, cmds[i].help);
}

/* "dev, help" */
static void pacer_list_names(char *buf, size_t len,
			     const struct pacerctl_cmd *cmds, size_t n)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s",
				 i ? ", " : "", cmds[i].name);
}

/*
 * The entry @arg names: the exact keyword, else the first in table order
 * that it is a prefix of, as ip does ("d" is "dev", not "detach"; tables
 * list the keywords used most first).
 */
static const struct pacerctl_cmd *pacer_lookup(const struct pacerctl_cmd *cmds,
					    size_t n, const char *arg)
{
	const struct pacerctl_cmd *found = NULL;
	size_t i, len = strlen(arg);

	for (i = 0; i < n; i++) {
		if (!strcmp(cmds[i].name, arg))
			return &cmds[i];
		if (len && !found && !strncmp(cmds[i].name, arg, len))
			found = &cmds[i];
	}
	return found;
}

/**
 * pacer_dispatch() - run the table entry that the first argument names
 * @cmds: the table; with no argument its first entry runs
 * @n: its size
 * @what: what the keywords are, for messages ("object", "command")
 * @context: the keywords before, for messages ("dev"), or NULL
 * @argc: argument count, the keyword included
 * @argv: arguments, the keyword first
 * @opts: global options
 *
 * Return: the exit status of the entry, or EXIT_USAGE for an unknown
 * keyword.
 */
int pacer_dispatch(const struct pacerctl_cmd *cmds, size_t n, const char *what,
		   const char *context, int argc, char **argv,
		   const struct pacer_opts *opts)
{
	const struct pacerctl_cmd *cmd;
	char names[256];

	if (argc < 1)
		return cmds[0].run(0, argv, opts);

	cmd = pacer_lookup(cmds, n, argv[0]);
	if (cmd)
		return cmd->run(argc - 1, argv + 1, opts);

	pacer_list_names(names, sizeof(names), cmds, n);
	if (context)
		return pacer_usage_error("unknown %s \"%s\" for \"%s\"; expected one of: %s",
					 what, argv[0], context, names);
	return pacer_usage_error("unknown %s \"%s\"; expected one of: %s",
				 what, argv[0], names);
}

/**
 * pacer_set_output() - an output format option: the last one given wins
 * @opts: the options so far
 * @fmt: "text", "json" or "prometheus" (-o FMT; -j and -p are "json")
 *
 * Each of -o FMT, -j and -p replaces the format any of them set before:
 * "-j -o text" prints text, "-o prometheus -j" JSON.  Indenting (-p) is
 * not a format: it stays on, for JSON chosen after it.
 *
 * Return: 0, or -EINVAL (@opts unchanged) for another @fmt.
 */
int pacer_set_output(struct pacer_opts *opts, const char *fmt)
{
	bool json = !strcmp(fmt, "json");
	bool prometheus = !strcmp(fmt, "prometheus");

	if (!json && !prometheus && strcmp(fmt, "text"))
		return -EINVAL;
	opts->json = json;
	opts->prometheus = prometheus;
	return 0;
}

/**
 * pacer_is_help() - whether an argument asks for help
 * @arg: the argument
 *
 * Return: true for "help".
 */
bool pacer_is_help(const char *arg)
{
	return !strcmp(arg, "help");
}

/**
 * pacer_next_value() - step from a keyword to its value
 * @argc: remaining argument count, the keyword included
 * @argv: remaining arguments, the keyword first
 *
 * Return: 0 with *@argv at the value, or EXIT_USAGE (explained) when the
 * keyword is the last argument.
 */
int pacer_next_value(int *argc, char ***argv)
{
	if (*argc < 2)
		return pacer_usage_error("\"%s\" needs a value", **argv);
	(*argc)--;
	(*argv)++;
	return 0;
}

/*
 * What dev_valid_name() refuses in a name besides '/' and ':': a byte the
 * kernel's isspace() takes, the C locale's white space and also 0xa0 (a
 * no-break space in Latin-1).  NULL for a byte it takes.
 */
static const char *ifname_bad_byte(unsigned char c)
{
	switch (c) {
	case '/':
		return "'/'";
	case ':':
		return "':'";
	case ' ':
		return "a space";
	case '\t':
		return "a tab";
	case '\n':
		return "a newline";
	case '\v':
		return "a vertical tab";
	case '\f':
		return "a form feed";
	case '\r':
		return "a carriage return";
	case 0xa0:
		return "byte 0xa0 (white space to the kernel)";
	}
	return NULL;
}

/* @name with control bytes as \t, \r, \x01 ..., so that a message stays one line. */
static char *ifname_shown(const char *name)
{
	size_t len = strlen(name);
	char *shown = malloc(4 * len + 1), *p = shown;
	unsigned char c;

	if (!shown)
		return NULL;
	for (; (c = *name); name++) {
		if (c >= 0x20 && c != 0x7f) {
			*p++ = c;
			continue;
		}
		*p++ = '\\';
		switch (c) {
		case '\t':
			*p++ = 't';
			break;
		case '\n':
			*p++ = 'n';
			break;
		case '\v':
			*p++ = 'v';
			break;
		case '\f':
			*p++ = 'f';
			break;
		case '\r':
			*p++ = 'r';
			break;
		default:
			p += sprintf(p, "x%02x", c);
		}
	}
	*p = '\0';
	return shown;
}

/**
 * pacer_check_ifname() - check a device name as the kernel would
 * @name: the name
 *
 * dev_valid_name()'s rules: 1 to IFNAMSIZ - 1 bytes, not "." or "..", no
 * '/', ':' or byte the kernel's isspace() takes.
 *
 * Return: 0, or EXIT_USAGE (explained).
 */
int pacer_check_ifname(const char *name)
{
	static const char expected[] = "expected 1 to 15 bytes, none of them '/', ':' or white space (space, \\t, \\n, \\v, \\f, \\r or byte 0xa0), and not \".\" or \"..\"";
	size_t i, len = strlen(name);
	const char *bad = NULL;
	char *shown;
	int ret;

	for (i = 0; i < len && !bad; i++)
		bad = ifname_bad_byte(name[i]);
	if (len && len < IFNAMSIZ && !bad && strcmp(name, ".") &&
	    strcmp(name, ".."))
		return 0;

	shown = ifname_shown(name);
	if (!shown)
		return pacer_fail("out of memory");
	if (!len || len >= IFNAMSIZ)
		ret = pacer_usage_error("invalid device name \"%s\": %zu bytes long; %s",
					shown, len, expected);
	else if (bad)
		ret = pacer_usage_error("invalid device name \"%s\": %s at byte %zu; %s",
					shown, bad, i, expected);
	else
		ret = pacer_usage_error("invalid device name \"%s\": %s",
					shown, expected);
	free(shown);
	return ret;
}

/**
 * pacer_parse_dev() - "dev NAME": the device a command is about
 * @argc: argument count, at "dev"; advanced past NAME
 * @argv: arguments, at "dev"; advanced past NAME
 * @ifname: set to NAME
 *
 * Return: 0, or EXIT_USAGE (with a message) if NAME is missing, invalid or
 * a second one.
 */
int pacer_parse_dev(int *argc, char ***argv, const char **ifname)
{
	int ret;

	if (*ifname)
		return pacer_duplicate_arg("dev");
	ret = pacer_next_value(argc, argv) ?: pacer_check_ifname(**argv);
	if (ret)
		return ret;
	*ifname = **argv;
	return 0;
}

/**
 * pacer_unknown_arg() - report an argument a command does not take
 * @arg: the argument
 * @command: the command ("dev show")
 * @expected: its arguments ("dev NAME")
 *
 * Return: EXIT_USAGE.
 */
int pacer_unknown_arg(const char *arg, const char *command,
		      const char *expected)
{
	return pacer_usage_error("unknown argument \"%s\" for \"%s\"; expected: %s",
				 arg, command, expected);
}

/**
 * pacer_duplicate_arg() - report a keyword given twice
 * @keyword: the keyword
 *
 * Return: EXIT_USAGE.
 */
int pacer_duplicate_arg(const char *keyword)
{
	return pacer_usage_error("\"%s\" is given twice", keyword);
}
