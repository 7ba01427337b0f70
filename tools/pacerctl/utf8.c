// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: UTF-8 as RFC 3629 defines it: no overlong forms, no
 * surrogates, nothing above U+10FFFF.
 */
#include "utf8.h"

static int continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

/**
 * utf8_char_len() - the length of the UTF-8 character @s starts with
 * @s: the text, not at its terminating NUL
 *
 * Return: 1 to 4, or 0 if the bytes at @s are not a UTF-8 character (a
 * stray continuation byte, a sequence cut short, an overlong form, a
 * surrogate, a code point above U+10FFFF, or 0xf5 to 0xff).
 */
size_t utf8_char_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;	/* the second byte's range */
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] < 0xc2)
		return 0;		/* continuation, or overlong 2 bytes */
	if (p[0] < 0xe0) {
		n = 2;
	} else if (p[0] < 0xf0) {
		n = 3;
		if (p[0] == 0xe0)
			lo = 0xa0;	/* overlong */
		else if (p[0] == 0xed)
			hi = 0x9f;	/* surrogates */
	} else if (p[0] < 0xf5) {
		n = 4;
		if (p[0] == 0xf0)
			lo = 0x90;	/* overlong */
		else if (p[0] == 0xf4)
			hi = 0x8f;	/* above U+10FFFF */
	} else {
		return 0;
	}
	if (p[1] < lo || p[1] > hi)
		return 0;		/* a NUL too: the sequence is cut short */
	for (i = 2; i < n; i++)
		if (!continuation(p[i]))
			return 0;
	return n;
}
