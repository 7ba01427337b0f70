// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of cli.c's output format options, printing TAP: of -o FMT,
 * -j and -p, the last one given wins; -p's indenting stays on.  main()
 * hands each of them, in order, to pacer_set_output().  Run by "make
 * test".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pacerctl.h"
#include "tap.h"


/* The options as main() sets them from @args: "-j", "-p", or a FMT of -o. */
static int apply(struct pacer_opts *opts, const char *const *args)
{
	int err;

	memset(opts, 0, sizeof(*opts));
	for (; *args; args++) {
		if (!strcmp(*args, "-j")) {
			pacer_set_output(opts, "json");
		} else if (!strcmp(*args, "-p")) {
			pacer_set_output(opts, "json");
			opts->pretty = true;
		} else {
			err = pacer_set_output(opts, *args);
			if (err)
				return err;
		}
	}
	return 0;
}

/* @what: @args give JSON (@json), Prometheus (@prom) or text; @pretty. */
static void gives(const char *what, const char *const *args, bool json,
		  bool prom, bool pretty)
{
	struct pacer_opts opts;
	int err = apply(&opts, args);

	ok(!err && opts.json == json && opts.prometheus == prom &&
	   opts.pretty == pretty, what);
}

#define ARGS(...) ((const char *const[]){ __VA_ARGS__, NULL })

int main(void)
{
	struct pacer_opts opts;

	gives("-o text: text", ARGS("text"), false, false, false);
	gives("-o json: JSON", ARGS("json"), true, false, false);
	gives("-o prometheus: Prometheus", ARGS("prometheus"), false, true,
	      false);
	gives("-j: JSON", ARGS("-j"), true, false, false);
	gives("-p: indented JSON", ARGS("-p"), true, false, true);
	gives("-j -o text: text", ARGS("-j", "text"), false, false, false);
	gives("-o json -o text: text", ARGS("json", "text"), false, false,
	      false);
	gives("-o text -j: JSON", ARGS("text", "-j"), true, false, false);
	gives("-j -o prometheus: Prometheus", ARGS("-j", "prometheus"), false,
	      true, false);
	gives("-o prometheus -j: JSON", ARGS("prometheus", "-j"), true, false,
	      false);
	gives("-o prometheus -o json: JSON", ARGS("prometheus", "json"), true,
	      false, false);
	gives("-o prometheus -o text: text", ARGS("prometheus", "text"),
	      false, false, false);
	gives("-p -o text: text", ARGS("-p", "text"), false, false, true);
	gives("-p -o text -j: indented JSON", ARGS("-p", "text", "-j"), true,
	      false, true);
	gives("-j -p: indented JSON", ARGS("-j", "-p"), true, false, true);
	gives("-o prometheus -p: indented JSON", ARGS("prometheus", "-p"),
	      true, false, true);

	ok(apply(&opts, ARGS("-j", "yaml")) == -EINVAL && opts.json,
	   "-j -o yaml: -EINVAL, -j's JSON unchanged");
	ok(apply(&opts, ARGS("JSON")) == -EINVAL, "-o JSON: -EINVAL");

	return tap_done("");
}
