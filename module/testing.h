/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: what the KUnit suite (module/tests/) may call.
 *
 * The suite is a module of its own, built only against kernels with
 * CONFIG_KUNIT (the debug kernel).  There the functions it tests are
 * exported to it in the namespace the kernel keeps for KUnit, and nowhere
 * else: EXPORT_SYMBOL_IF_KUNIT() as <kunit/visibility.h> defines it from
 * 6.2, the same way here (6.1 has no such header).
 */
#ifndef _PACER_TESTING_H
#define _PACER_TESTING_H

#include <linux/export.h>

#ifndef EXPORT_SYMBOL_IF_KUNIT
#if IS_ENABLED(CONFIG_KUNIT)
#define EXPORT_SYMBOL_IF_KUNIT(symbol) \
	EXPORT_SYMBOL_NS(symbol, EXPORTED_FOR_KUNIT_TESTING)
#else
#define EXPORT_SYMBOL_IF_KUNIT(symbol)
#endif
#endif

#endif /* _PACER_TESTING_H */
