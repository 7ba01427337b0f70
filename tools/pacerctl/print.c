// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: text and JSON output from one print path.
 *
 * The JSON writer is only what pacerctl needs: objects, arrays, strings,
 * integers (printed exactly, never through a double), fractions and null,
 * with optional indentation.  Output goes to stdout, either as one array
 * (new_json_obj()) or as a stream of records, one per line
 * (new_json_record(), for "monitor").
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "print.h"
#include "utf8.h"

#define JSON_MAX_DEPTH 16

static struct {
	bool json;
	bool pretty;
	int depth;
	bool has_items[JSON_MAX_DEPTH];	/* per level: a comma is due */
} out;

static void json_indent(void)
{
	int i;

	if (!out.pretty)
		return;
	putchar('\n');
	for (i = 0; i < out.depth; i++)
		fputs("    ", stdout);
}

/*
 * A JSON string, always valid UTF-8: control characters, '"' and '\\'
 * escaped, UTF-8 characters as they are, and each byte that is not part
 * of one (a class name is bytes) as \ufffd, the replacement character.
 */
static void json_escaped(const char *s)
{
	size_t n;

	putchar('"');
	for (; *s; s += n ?: 1) {
		unsigned char c = *s;

		n = c < 0x80 ? 1 : utf8_char_len(s);
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c == '\n')
			fputs("\\n", stdout);
		else if (c == '\t')
			fputs("\\t", stdout);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else if (n == 1)
			putchar(c);
		else if (n)
			fwrite(s, 1, n, stdout);
		else
			fputs("\\ufffd", stdout);
	}
	putchar('"');
}

/* Start a member: comma, indentation, and the key inside objects. */
static void json_member(const char *key)
{
	if (out.has_items[out.depth])
		putchar(',');
	out.has_items[out.depth] = true;
	if (out.depth > 0)
		json_indent();
	if (key) {
		json_escaped(key);
		fputs(out.pretty ? ": " : ":", stdout);
	}
}

static void json_open(const char *key, char bracket)
{
	json_member(key);
	putchar(bracket);
	if (out.depth < JSON_MAX_DEPTH - 1)
		out.depth++;
	out.has_items[out.depth] = false;
}

static void json_close(char bracket)
{
	bool had_items = out.has_items[out.depth];

	if (out.depth > 0)
		out.depth--;
	if (had_items)
		json_indent();
	putchar(bracket);
}

/**
 * new_json_obj() - choose the output mode; in JSON, open the top array
 * @json: print JSON rather than text
 * @pretty: indent the JSON
 */
void new_json_obj(bool json, bool pretty)
{
	out.json = json;
	out.pretty = json && pretty;
	out.depth = 0;
	out.has_items[0] = false;
	if (out.json)
		json_open(NULL, '[');
}

/**
 * delete_json_obj() - in JSON, close the top array and end the line
 */
void delete_json_obj(void)
{
	if (!out.json)
		return;
	json_close(']');
	putchar('\n');
}

/**
 * new_json_record() - start one record of a stream: in JSON, the caller
 *	then prints one top-level object, with no array around it
 * @json: print JSON rather than text
 * @pretty: indent the JSON
 *
 * End the record with end_json_record().
 */
void new_json_record(bool json, bool pretty)
{
	out.json = json;
	out.pretty = json && pretty;
	out.depth = 0;
	out.has_items[0] = false;
}

/**
 * end_json_record() - end a record of a stream: in JSON, end its line;
 *	either way, flush it so that a reader sees it at once
 */
void end_json_record(void)
{
	if (out.json)
		putchar('\n');
	fflush(stdout);
}

/**
 * is_json_context() - whether the output is JSON
 *
 * Return: true in JSON mode.
 */
bool is_json_context(void)
{
	return out.json;
}

/**
 * open_json_object() - start a JSON object (nothing in text)
 * @key: its key inside an object, NULL inside an array
 */
void open_json_object(const char *key)
{
	if (out.json)
		json_open(key, '{');
}

/**
 * close_json_object() - end the JSON object opened last
 */
void close_json_object(void)
{
	if (out.json)
		json_close('}');
}

/**
 * open_json_array() - start a JSON array (nothing in text)
 * @key: its key inside an object, NULL inside an array
 */
void open_json_array(const char *key)
{
	if (out.json)
		json_open(key, '[');
}

/**
 * close_json_array() - end the JSON array opened last
 */
void close_json_array(void)
{
	if (out.json)
		json_close(']');
}

/* Whether a value of type @t is printed in the current mode as text. */
static bool want_text(enum output_type t, const char *fmt)
{
	return !out.json && (t & PRINT_FP) && fmt;
}

static bool want_json(enum output_type t, const char *key)
{
	return out.json && (t & PRINT_JSON) && key;
}

/**
 * print_string() - print a string value
 * @t: where it appears (PRINT_FP, PRINT_JSON or PRINT_ANY)
 * @key: its JSON key
 * @fmt: its text format, with one %s
 * @value: the string
 */
void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value)
{
	if (want_json(t, key)) {
		json_member(key);
		json_escaped(value);
	} else if (want_text(t, fmt)) {
		printf(fmt, value);
	}
}

/**
 * print_u64() - print an unsigned 64-bit value
 * @t: where it appears (PRINT_FP, PRINT_JSON or PRINT_ANY)
 * @key: its JSON key
 * @fmt: its text format, with one %" PRIu64 "
 * @value: the value
 */
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t value)
{
	if (want_json(t, key)) {
		json_member(key);
		printf("%" PRIu64, value);
	} else if (want_text(t, fmt)) {
		printf(fmt, value);
	}
}

/**
 * print_uint() - print an unsigned int value
 * @t: where it appears (PRINT_FP, PRINT_JSON or PRINT_ANY)
 * @key: its JSON key
 * @fmt: its text format, with one %u
 * @value: the value
 */
void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int value)
{
	if (want_json(t, key)) {
		json_member(key);
		printf("%u", value);
	} else if (want_text(t, fmt)) {
		printf(fmt, value);
	}
}

/**
 * print_bool() - print a truth value: JSON true or false
 * @t: where it appears (PRINT_FP, PRINT_JSON or PRINT_ANY)
 * @key: its JSON key
 * @fmt: its text format, with one %s ("true" or "false")
 * @value: the value
 */
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool value)
{
	if (want_json(t, key)) {
		json_member(key);
		fputs(value ? "true" : "false", stdout);
	} else if (want_text(t, fmt)) {
		printf(fmt, value ? "true" : "false");
	}
}

/**
 * print_int() - print a signed int value
 * @t: where it appears (PRINT_FP, PRINT_JSON or PRINT_ANY)
 * @key: its JSON key
 * @fmt: its text format, with one %d
 * @value: the value
 */
void print_int(enum output_type t, const char *key, const char *fmt,
	       int value)
{
	if (want_json(t, key)) {
		json_member(key);
		printf("%d", value);
	} else if (want_text(t, fmt)) {
		printf(fmt, value);
	}
}

/**
 * print_float() - print a fraction or another inexact number
 * @t: where it appears (PRINT_FP, PRINT_JSON or PRINT_ANY)
 * @key: its JSON key
 * @fmt: its text format, with one double conversion (%f, %g, ...)
 * @value: the value; JSON gets 6 significant digits, null if not finite
 */
void print_float(enum output_type t, const char *key, const char *fmt,
		 double value)
{
	if (want_json(t, key)) {
		json_member(key);
		if (isfinite(value))
			printf("%.6g", value);
		else
			fputs("null", stdout);
	} else if (want_text(t, fmt)) {
		printf(fmt, value);
	}
}

/**
 * print_null() - print a JSON null, or a text that stands for it
 * @t: where it appears (PRINT_FP, PRINT_JSON or PRINT_ANY)
 * @key: its JSON key
 * @fmt: its text format, with one %s
 * @value: the text for @fmt
 */
void print_null(enum output_type t, const char *key, const char *fmt,
		const char *value)
{
	if (want_json(t, key)) {
		json_member(key);
		fputs("null", stdout);
	} else if (want_text(t, fmt)) {
		printf(fmt, value);
	}
}

/**
 * print_nl() - end a line of text (nothing in JSON)
 */
void print_nl(void)
{
	if (!out.json)
		putchar('\n');
}
