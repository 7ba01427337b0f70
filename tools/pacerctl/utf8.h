/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: UTF-8 for the formats that must be valid UTF-8 (JSON, the
 * Prometheus text format).  A class name is 15 bytes of anything; the
 * bytes that are not UTF-8 are written as U+FFFD, the rest unchanged.
 */
#ifndef PACERCTL_UTF8_H
#define PACERCTL_UTF8_H

#include <stddef.h>

/* U+FFFD REPLACEMENT CHARACTER, in UTF-8 */
#define UTF8_REPLACEMENT "\xef\xbf\xbd"

size_t utf8_char_len(const char *s);

#endif /* PACERCTL_UTF8_H */
