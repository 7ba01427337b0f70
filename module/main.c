// SPDX-License-Identifier: GPL-2.0
/*
 * pacer: an IFB-like device that paces redirected traffic.
 *
 * This file only sequences module init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kstrtox.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>
#include <uapi/linux/pacer.h>

#include "pacer.h"

unsigned int pacer_max_classes = PACER_CLASS_ID_MAX + 1;
unsigned int pacer_max_rules = 131072;
unsigned int pacer_max_memory = 64 << 20;
unsigned int pacer_flows = 4096;

static int pacer_param_set_count(const char *val, const struct kernel_param *kp,
				 unsigned int max)
{
	unsigned int n;
	int err;

	err = kstrtouint(val, 0, &n);
	if (err)
		return err;
	if (n < 1 || n > max)
		return -ERANGE;
	*(unsigned int *)kp->arg = n;
	return 0;
}

static int pacer_param_set_classes(const char *val,
				   const struct kernel_param *kp)
{
	/* Class ids are u16: 0 (the default class) to 65535. */
	return pacer_param_set_count(val, kp, PACER_CLASS_ID_MAX + 1);
}

static int pacer_param_set_rules(const char *val,
				 const struct kernel_param *kp)
{
	return pacer_param_set_count(val, kp, 1U << 24);
}

static int pacer_param_set_memory(const char *val,
				  const struct kernel_param *kp)
{
	/* At least a few jumbo frames; at most what a u32 counts. */
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	if (n < (1 << 20))
		return -ERANGE;
	*(unsigned int *)kp->arg = n;
	return 0;
}

static int pacer_param_set_flows(const char *val,
				 const struct kernel_param *kp)
{
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	if (n < 64 || n > (1 << 20) || !is_power_of_2(n))
		return -ERANGE;
	*(unsigned int *)kp->arg = n;
	return 0;
}

static const struct kernel_param_ops pacer_param_classes_ops = {
	.set = pacer_param_set_classes,
	.get = param_get_uint,
};

static const struct kernel_param_ops pacer_param_rules_ops = {
	.set = pacer_param_set_rules,
	.get = param_get_uint,
};

module_param_cb(max_classes, &pacer_param_classes_ops, &pacer_max_classes,
		0644);
MODULE_PARM_DESC(max_classes,
		 "most classes a device may have, class 0 included (1-65536, default 65536)");
module_param_cb(max_rules, &pacer_param_rules_ops, &pacer_max_rules, 0644);
MODULE_PARM_DESC(max_rules,
		 "most rules a device may have (1-16777216, default 131072)");

static const struct kernel_param_ops pacer_param_memory_ops = {
	.set = pacer_param_set_memory,
	.get = param_get_uint,
};

static const struct kernel_param_ops pacer_param_flows_ops = {
	.set = pacer_param_set_flows,
	.get = param_get_uint,
};

module_param_cb(max_memory, &pacer_param_memory_ops, &pacer_max_memory, 0644);
MODULE_PARM_DESC(max_memory,
		 "most bytes (skb truesize) a device may queue, all classes together (from 1 MiB, default 64 MiB)");
module_param_cb(flows, &pacer_param_flows_ops, &pacer_flows, 0644);
MODULE_PARM_DESC(flows,
		 "flow buckets of a new device, shared by its classes (a power of two, 64-1048576, default 4096)");

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
