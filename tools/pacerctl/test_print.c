// SPDX-License-Identifier: GPL-2.0
/*
 * Unit test of print.c's JSON strings, printing TAP: a class name is 15
 * bytes of anything, and the JSON must still be valid UTF-8.  UTF-8
 * passes unchanged; each byte that is not part of a UTF-8 character
 * becomes \ufffd; control characters, '"' and '\' are escaped.  Run by
 * "make test" (and "make test-print").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print.h"
#include "test_json.h"
#include "utf8.h"

static int tests, failed;
static FILE *tap;

static void ok(int cond, const char *what)
{
	tests++;
	if (!cond)
		failed++;
	fprintf(tap, "%sok %d - %s\n", cond ? "" : "not ", tests, what);
}

static void print_name(const void *name)
{
	print_string(PRINT_ANY, "name", " name %s", name);
}

/* @name as a JSON member, as "class show -j" prints it; caller frees. */
static char *json_of(const char *name)
{
	return json_capture(print_name, name);
}

/* @bytes C-escaped, for the test's description. */
static void shown(char *buf, size_t size, const char *bytes)
{
	size_t n = 0;

	for (; *bytes && n + 5 < size; bytes++) {
		unsigned char c = *bytes;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			n += snprintf(buf + n, size - n, "\\x%02x", c);
		else
			buf[n++] = c;
	}
	buf[n] = '\0';
}

static void name_is(const char *name, const char *want_value)
{
	char what[256], in[96], want[128], *got = json_of(name);

	shown(in, sizeof(in), name);
	snprintf(want, sizeof(want), "[{\"name\":\"%s\"}]\n", want_value);
	snprintf(what, sizeof(what), "name \"%s\" -> %s", in, want_value);
	ok(got && !strcmp(got, want), what);
	if (got && strcmp(got, want)) {
		shown(in, sizeof(in), got);
		fprintf(tap, "# got %s\n", in);
	}
	free(got);
}

static void char_len(const char *s, size_t want)
{
	char what[128], in[64];
	size_t got = utf8_char_len(s);

	shown(in, sizeof(in), s);
	snprintf(what, sizeof(what), "utf8_char_len(\"%s\") = %zu", in, want);
	ok(got == want, what);
	if (got != want)
		fprintf(tap, "# got %zu\n", got);
}

int main(void)
{
	tap = stdout;
	fprintf(tap, "TAP version 13\n");

	/* ASCII, and what JSON escapes */
	name_is("s3", "s3");
	name_is("", "");
	name_is("a \"b\" c\\d", "a \\\"b\\\" c\\\\d");
	name_is("a\nb\tc\x01" "d\x1f", "a\\nb\\tc\\u0001d\\u001f");
	name_is("del\x7f", "del\x7f");

	/* UTF-8 passes unchanged: 2, 3 and 4 bytes, the extremes */
	name_is("caf\xc3\xa9", "caf\xc3\xa9");
	name_is("\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac");
	name_is("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80");
	name_is("\xc2\x80\xdf\xbf", "\xc2\x80\xdf\xbf");
	name_is("\xe0\xa0\x80\xef\xbf\xbf", "\xe0\xa0\x80\xef\xbf\xbf");
	name_is("\xed\x9f\xbf\xee\x80\x80", "\xed\x9f\xbf\xee\x80\x80");
	name_is("\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
		"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf");

	/* each byte that is not UTF-8: \ufffd */
	name_is("a\xff" "b", "a\\ufffdb");
	name_is("\xe9t\xe9", "\\ufffdt\\ufffd");		/* Latin-1 */
	name_is("\x80", "\\ufffd");				/* stray continuation */
	name_is("\xc3", "\\ufffd");				/* cut short at the end */
	name_is("\xe6\x97x", "\\ufffd\\ufffdx");		/* cut short */
	name_is("\xc0\xaf", "\\ufffd\\ufffd");			/* overlong '/' */
	name_is("\xc1\xbf", "\\ufffd\\ufffd");			/* overlong */
	name_is("\xe0\x80\xaf", "\\ufffd\\ufffd\\ufffd");	/* overlong */
	name_is("\xf0\x80\x80\xaf", "\\ufffd\\ufffd\\ufffd\\ufffd"); /* overlong */
	name_is("\xed\xa0\x80", "\\ufffd\\ufffd\\ufffd");	/* surrogate */
	name_is("\xf4\x90\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd"); /* > U+10FFFF */
	name_is("\xf5\x80\x80\x80", "\\ufffd\\ufffd\\ufffd\\ufffd");
	name_is("\xfe\xff", "\\ufffd\\ufffd");
	name_is("ok\xc3\xa9\xff\xc3\xa9", "ok\xc3\xa9\\ufffd\xc3\xa9");

	char_len("a", 1);
	char_len("\xc3\xa9", 2);
	char_len("\xe2\x82\xac", 3);
	char_len("\xf0\x9f\x98\x80", 4);
	char_len("\xc3", 0);
	char_len("\xe2\x82", 0);
	char_len("\xf0\x9f\x98", 0);
	char_len("\xc2\xc2", 0);
	char_len("\xbf", 0);

	fprintf(tap, "1..%d\n", tests);
	fprintf(tap, "# %d passed, %d failed\n", tests - failed, failed);
	return failed ? 1 : 0;
}
