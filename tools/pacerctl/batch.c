// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl -b FILE: many commands in one run, as tc -batch runs them.
 *
 * One command a line, as it would follow "pacerctl" on a command line
 * (the global options of the run apply to each); "#" starts a comment,
 * blank lines are skipped, words are separated by white space, and quotes
 * keep white space in a word (name "a b", name 'a b'; see batch_split()).
 * A line with a NUL byte is a usage error.
 * The first line that fails stops the run, named in the message
 * ("pacerctl: FILE:12: ..."; "stdin:12" for standard input), so nothing
 * after it is applied; with -force every line runs and the run fails if
 * any line did.  FILE "-" is standard input.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pacerctl.h"

/* Words of one line; a line longer than this is refused. */
#define BATCH_WORDS_MAX	256

static bool batch_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/*
 * Split @line in place into words, as a shell would for the quoting a
 * configuration needs: white space separates words; "#" at the start of a
 * word starts a comment to the end of the line; single quotes keep
 * everything up to the next single quote; double quotes keep white space
 * and "#", and in them \" is a double quote, \\ a backslash, \n a newline
 * and \t a tab (what "pacerctl dump" writes for such characters in a
 * name).  Quotes may start or end inside a word: name a"b c" is "ab c".
 * Return: the number of words, or -1 for an unterminated quote, -2 for
 * too many words.
 */
static int batch_split(char *line, char **words)
{
	char *in = line, *out, q;
	int n = 0;

	for (;;) {
		while (batch_space(*in))
			in++;
		if (!*in || *in == '#')
			return n;
		if (n == BATCH_WORDS_MAX)
			return -2;
		words[n++] = out = in;
		while (*in && !batch_space(*in)) {
			if (*in != '"' && *in != '\'') {
				*out++ = *in++;
				continue;
			}
			q = *in++;
			while (*in && *in != q) {
				if (q == '"' && *in == '\\' && in[1]) {
					switch (in[1]) {
					case '"':
					case '\\':
						*out++ = in[1];
						in += 2;
						continue;
					case 'n':
						*out++ = '\n';
						in += 2;
						continue;
					case 't':
						*out++ = '\t';
						in += 2;
						continue;
					}
				}
				*out++ = *in++;
			}
			if (*in != q)
				return -1;
			in++;
		}
		if (*in)
			in++;
		*out = '\0';
	}
}

/**
 * pacer_batch() - run the commands of a file
 * @path: the file, "-" for standard input
 * @force: go on after a line that fails
 * @objects: the object table, as main() dispatches the command line
 * @n: its size
 * @opts: the global options, for every line
 *
 * Return: 0 if every line succeeded; else the exit status of the first
 * line that failed (without @force), or EXIT_FAILURE (with it).
 */
int pacer_batch(const char *path, bool force,
		const struct pacerctl_cmd *objects, size_t n,
		const struct pacer_opts *opts)
{
	char *words[BATCH_WORDS_MAX], *where, *nul, *line = NULL;
	bool stdin_ = !strcmp(path, "-");
	const char *name = stdin_ ? "stdin" : path;
	/* "NAME:LINE", however long NAME is */
	size_t where_len = strlen(name) + sizeof(":18446744073709551615");
	unsigned long lineno = 0;
	int ret = 0, argc, rc;
	size_t cap = 0;
	ssize_t len;
	FILE *f;

	where = malloc(where_len);
	if (!where)
		return pacer_fail("out of memory");
	f = stdin_ ? stdin : fopen(path, "r");
	if (!f) {
		free(where);
		return pacer_fail("cannot read \"%s\": %s", path,
				  strerror(errno));
	}
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		snprintf(where, where_len, "%s:%lu", name, lineno);
		pacer_set_where(where);
		/* The line would end at a NUL, and the rest of it be lost. */
		nul = memchr(line, '\0', len);
		argc = nul ? -3 : batch_split(line, words);
		if (argc == 0)
			continue;
		if (argc == -3)
			rc = pacer_usage_error("a NUL byte at column %td: expected a line of text",
					       nul - line + 1);
		else if (argc == -1)
			rc = pacer_usage_error("a quote is not closed");
		else if (argc == -2)
			rc = pacer_usage_error("more than %d words",
					       BATCH_WORDS_MAX);
		else
			rc = pacer_dispatch(objects, n, "object", NULL, argc,
					    words, opts);
		fflush(stdout);
		if (rc) {
			if (!force) {
				ret = rc;
				break;
			}
			ret = EXIT_FAILURE;
		}
	}
	pacer_set_where(NULL);
	if (!ret && ferror(f))
		ret = pacer_fail("cannot read \"%s\": %s", path,
				 strerror(errno));
	free(line);
	free(where);
	if (!stdin_)
		fclose(f);
	return ret;
}
