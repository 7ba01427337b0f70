/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: text and JSON output from one print path, after iproute2's
 * json_print.h.
 *
 * Each value is printed once, with both a JSON key and a text format;
 * PRINT_FP values appear only in text, PRINT_JSON values only in JSON.
 * In JSON mode the whole output is one array, opened by new_json_obj()
 * and closed by delete_json_obj(); or a stream of records, one object
 * per line, each between new_json_record() and end_json_record().
 */
#ifndef PACERCTL_PRINT_H
#define PACERCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>

enum output_type {
	PRINT_FP = 1,
	PRINT_JSON = 2,
	PRINT_ANY = PRINT_FP | PRINT_JSON,
};

void new_json_obj(bool json, bool pretty);
void delete_json_obj(void);
bool is_json_context(void);
void new_json_record(bool json, bool pretty);
void end_json_record(void);

void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(const char *key);
void close_json_array(void);

/* @fmt is a printf format with one conversion for @value (text only). */
void print_string(enum output_type t, const char *key, const char *fmt,
		  const char *value);
void print_uint(enum output_type t, const char *key, const char *fmt,
		unsigned int value);
void print_u64(enum output_type t, const char *key, const char *fmt,
	       uint64_t value);
void print_int(enum output_type t, const char *key, const char *fmt,
	       int value);
void print_bool(enum output_type t, const char *key, const char *fmt,
		bool value);
void print_float(enum output_type t, const char *key, const char *fmt,
		 double value);
void print_null(enum output_type t, const char *key, const char *fmt,
		const char *value);
void print_nl(void);

#endif /* PACERCTL_PRINT_H */
