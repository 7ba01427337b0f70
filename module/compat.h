/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacer: what differs between the kernels pacer builds against (Debian
 * 12's 6.1 and 6.12, Debian 13's backported 7.3), in one place, keyed on
 * the kernel's version (LINUX_VERSION_CODE), as WireGuard's compat layer
 * is.  Each entry names the release that made the change; the code
 * elsewhere uses the helpers below and never tests a version itself.
 */
#ifndef _PACER_COMPAT_H
#define _PACER_COMPAT_H

#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/version.h>
#include <net/genetlink.h>

/* Building against kernel @maj.@min or a later one. */
#define PACER_KERNEL_SINCE(maj, min) \
	(LINUX_VERSION_CODE >= KERNEL_VERSION(maj, min, 0))

/* 6.5 moved skb_gso_segment() out of <linux/netdevice.h>. */
#if PACER_KERNEL_SINCE(6, 5)
#include <net/gso.h>
#endif

/* 6.12 renamed <asm/unaligned.h> <linux/unaligned.h>. */
#if PACER_KERNEL_SINCE(6, 12)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/**
 * pacer_netdev_set_lltx() - tell the core not to take the device's tx lock
 *	around ndo_start_xmit
 * @dev: the device, being set up
 *
 * 6.12 turned the feature flag NETIF_F_LLTX into dev->lltx.
 */
static inline void pacer_netdev_set_lltx(struct net_device *dev)
{
#if PACER_KERNEL_SINCE(6, 12)
	dev->lltx = true;
#else
	dev->features |= NETIF_F_LLTX;
#endif
}

/**
 * pacer_hrtimer_setup() - initialise an hrtimer with its function
 * @timer: the timer
 * @function: what it runs when it fires
 * @clock: its clock
 * @mode: its mode
 *
 * 6.13 added hrtimer_setup(), and a later release took hrtimer_init()
 * away (Debian 13's 7.3 has none).
 */
static inline void pacer_hrtimer_setup(struct hrtimer *timer,
				       enum hrtimer_restart (*function)(struct hrtimer *),
				       clockid_t clock, enum hrtimer_mode mode)
{
#if PACER_KERNEL_SINCE(6, 13)
	hrtimer_setup(timer, function, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = function;
#endif
}

/**
 * pacer_dump_attrs() - the attributes of the request a dump answers,
 *	parsed against the family's policy
 * @cb: the dump's callback
 *
 * 6.6 put a struct genl_info in struct genl_dumpit_info, with the
 * attributes in it.
 *
 * Return: the attributes, indexed by type.
 */
static inline struct nlattr **pacer_dump_attrs(struct netlink_callback *cb)
{
#if PACER_KERNEL_SINCE(6, 6)
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/**
 * pacer_mirred_may_nest_same_dev() - whether tc mirred redirects a packet
 *	to a device it is already redirecting to on this CPU
 *
 * pacer sends a packet that need not wait on from inside its xmit, which
 * tc mirred called.  What the stack sends in answer from there (a TCP
 * ACK, an echo reply, a forwarded packet) may be redirected to the same
 * pacer device, a nested redirect to it.  6.1 allows that, within its
 * nesting limit.  6.12 (Debian's 6.12.117) takes it for a loop and drops
 * the packet ("tc mirred: loop on device"): with pacer attached to both
 * sides of a veth, every echo reply was lost.  There pacer re-injects
 * what it took at ingress through the CPU's backlog instead (reinject.c).
 */
static inline bool pacer_mirred_may_nest_same_dev(void)
{
	return !PACER_KERNEL_SINCE(6, 12);
}

#endif /* _PACER_COMPAT_H */
