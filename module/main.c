// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: an IFB-like device that paces redirected traffic.
 *
 * This file only sequences module init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>
#include <uapi/linux/pacer.h>

#include "pacer.h"

static int __init pacer_init(void)
{
	int err;

	err = pacer_device_init();
	if (err)
		return err;

	err = pacer_netlink_init();
	if (err)
		goto err_device;

	pr_info("version %s loaded\n", PACER_VERSION);
	return 0;

err_device:
	pacer_device_exit();
	return err;
}

static void __exit pacer_exit(void)
{
	pacer_netlink_exit();
	pacer_device_exit();
}

module_init(pacer_init);
module_exit(pacer_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("IFB-like device that paces redirected traffic per class");
MODULE_AUTHOR("The pacer developers");
MODULE_VERSION(PACER_VERSION);
MODULE_ALIAS_RTNL_LINK("pacer");
MODULE_ALIAS_GENL_FAMILY(PACER_GENL_NAME);
