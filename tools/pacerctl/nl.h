/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pacerctl: generic netlink requests on libnl-genl-3 (and the few
 * rtnetlink ones of "attach", with the same request loop).
 *
 * Every function returns 0 (or a count, or an id) on success and a
 * negative errno on failure; the kernel's extack message, when a request
 * gets one, is copied into a buffer the caller owns.
 */
#ifndef PACERCTL_NL_H
#define PACERCTL_NL_H

#include <stddef.h>
#include <stdint.h>
#include <netlink/msg.h>

/* Room for the kernel's extack message (it caps its own at 80 bytes). */
#define PNL_EXTACK_LEN 256

/**
 * struct pnl - a generic netlink socket bound to one family
 * @sk: the libnl socket
 * @family: the family's id, resolved by pnl_open()
 * @version: the family version requests are written for
 * @kernel_version: the family's version as the kernel reports it
 */
struct pnl {
	struct nl_sock *sk;
	int family;
	uint8_t version;
	unsigned int kernel_version;
};

/**
 * typedef pnl_reply_fn - called for each reply message of a request
 * @msg: the message; valid only during the call
 * @arg: the caller's argument
 *
 * Return: 0 to go on, or a negative errno that ends the request.
 */
typedef int (*pnl_reply_fn)(struct nl_msg *msg, void *arg);

int pnl_open(struct pnl *nl, const char *family, uint8_t version);
int pnl_open_route(struct pnl *nl);
void pnl_close(struct pnl *nl);
struct nl_msg *pnl_msg(const struct pnl *nl, uint8_t cmd, int flags);
int pnl_request(struct pnl *nl, struct nl_msg *msg, pnl_reply_fn fn,
		void *arg, char *extack, size_t extack_len);
int pnl_subscribe(struct pnl *nl, const char *group);
int pnl_recv_whole(struct pnl *nl, char **buf, size_t *size, size_t max,
		   size_t *len);

#endif /* PACERCTL_NL_H */
