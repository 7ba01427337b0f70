// SPDX-License-Identifier: GPL-2.0
/*
 * pacerctl: one generic netlink request at a time.
 *
 * pnl_request() sends a request, hands every reply to a callback, and ends
 * on the ACK (a "do"), on NLMSG_DONE (a dump) or on an error, whose extack
 * message it copies out.  The family is resolved with the same code path
 * (a CTRL_CMD_GETFAMILY request to nlctrl), so that a missing family comes
 * back as the kernel's -ENOENT.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>

#include "nl.h"

/**
 * struct pnl_req - the state of one request while its replies arrive
 * @fn: callback for each reply
 * @arg: its argument
 * @err: 0, or the first error (the kernel's or the callback's)
 * @done: the request is answered (ACK, NLMSG_DONE or error)
 * @dump_intr: a reply of the dump was flagged NLM_F_DUMP_INTR
 * @extack: where the kernel's message goes
 * @extack_len: its size
 */
struct pnl_req {
	pnl_reply_fn fn;
	void *arg;
	int err;
	bool done;
	bool dump_intr;
	char *extack;
	size_t extack_len;
};

/* libnl's error codes, back to the errno they were made from. */
static int pnl_errno(int nlerr)
{
	static const int map[] = {
		[NLE_INTR] = EINTR,
		[NLE_BAD_SOCK] = EBADF,
		[NLE_AGAIN] = EAGAIN,
		[NLE_NOMEM] = ENOMEM,
		[NLE_EXIST] = EEXIST,
		[NLE_INVAL] = EINVAL,
		[NLE_RANGE] = ERANGE,
		[NLE_MSGSIZE] = EMSGSIZE,
		[NLE_OPNOTSUPP] = EOPNOTSUPP,
		[NLE_AF_NOSUPPORT] = EAFNOSUPPORT,
		[NLE_OBJ_NOTFOUND] = ENOENT,
		[NLE_MSG_OVERFLOW] = ENOBUFS,
		[NLE_MSG_TRUNC] = EBADMSG,
		[NLE_MSG_TOOSHORT] = EBADMSG,
		[NLE_BUSY] = EBUSY,
		[NLE_PROTO_MISMATCH] = EPROTONOSUPPORT,
		[NLE_NOACCESS] = EACCES,
		[NLE_PERM] = EPERM,
		[NLE_NODEV] = ENODEV,
		[NLE_DUMP_INTR] = EINTR,
	};
	unsigned int i = nlerr < 0 ? -nlerr : nlerr;

	if (i < sizeof(map) / sizeof(map[0]) && map[i])
		return -map[i];
	return -EIO;
}

/*
 * Copy the extack message of an NLMSG_ERROR or NLMSG_DONE message; its
 * attributes start @hdrlen bytes into the payload.  A kernel that names a
 * missing attribute without a message gets a message made up from it.
 */
static void pnl_extack(struct nlmsghdr *nlh, int hdrlen, struct pnl_req *req)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	struct nlattr *msg;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || !req->extack_len)
		return;
	if (nlmsg_parse(nlh, hdrlen, tb, NLMSGERR_ATTR_MAX, NULL) < 0)
		return;

	msg = tb[NLMSGERR_ATTR_MSG];
	if (msg && nla_len(msg) > 0)
		snprintf(req->extack, req->extack_len, "%.*s",
			 (int)strnlen(nla_data(msg), nla_len(msg)),
			 (const char *)nla_data(msg));
	else if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
		 nla_len(tb[NLMSGERR_ATTR_MISS_TYPE]) >= 4)
		snprintf(req->extack, req->extack_len,
			 "attribute %u is missing from the request",
			 nla_get_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
}

/* Where an NLMSG_ERROR's attributes start, after the echoed request. */
static int pnl_err_hdrlen(struct nlmsghdr *nlh)
{
	struct nlmsgerr *e = nlmsg_data(nlh);
	int len = sizeof(*e);

	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    e->msg.nlmsg_len >= NLMSG_HDRLEN)
		len += e->msg.nlmsg_len - NLMSG_HDRLEN;
	return len;
}

static int pnl_on_valid(struct nl_msg *msg, void *arg)
{
	struct pnl_req *req = arg;
	int err;

	/* After an error, read on to the end so the socket stays usable. */
	if (req->err)
		return NL_SKIP;
	err = req->fn ? req->fn(msg, req->arg) : 0;
	if (err < 0)
		req->err = err;
	return NL_OK;
}

static int pnl_on_error(struct sockaddr_nl *nla, struct nlmsgerr *e,
			void *arg)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct pnl_req *req = arg;

	(void)nla;
	if (!req->err)
		req->err = e->error < 0 ? e->error : -EPROTO;
	pnl_extack(nlh, pnl_err_hdrlen(nlh), req);
	req->done = true;
	return NL_STOP;
}

/* A successful ACK may still carry a message: a warning. */
static int pnl_on_ack(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct pnl_req *req = arg;

	pnl_extack(nlh, pnl_err_hdrlen(nlh), req);
	req->done = true;
	return NL_STOP;
}

/* NLMSG_DONE ends a dump; its payload is the dump's error, then extack. */
static int pnl_on_done(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	struct pnl_req *req = arg;
	int err = 0;

	if (nlmsg_datalen(nlh) >= (int)sizeof(err)) {
		memcpy(&err, nlmsg_data(nlh), sizeof(err));
		pnl_extack(nlh, sizeof(err), req);
	}
	if (err < 0 && !req->err)
		req->err = err;
	req->done = true;
	return NL_STOP;
}

/* Keep reading after an inconsistent dump, but remember it. */
static int pnl_on_dump_intr(struct nl_msg *msg, void *arg)
{
	struct pnl_req *req = arg;

	(void)msg;
	req->dump_intr = true;
	return NL_OK;
}

static struct nl_cb *pnl_callbacks(struct pnl_req *req)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);

	if (!cb)
		return NULL;
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, pnl_on_valid, req);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, pnl_on_ack, req);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, pnl_on_done, req);
	nl_cb_set(cb, NL_CB_DUMP_INTR, NL_CB_CUSTOM, pnl_on_dump_intr, req);
	nl_cb_err(cb, NL_CB_CUSTOM, pnl_on_error, req);
	return cb;
}

/**
 * pnl_request() - send a request and process its replies
 * @nl: an open socket
 * @msg: the request, from pnl_msg(); always freed
 * @fn: called for each reply, may be NULL; after it fails, the remaining
 *	replies are read and dropped
 * @arg: passed to @fn
 * @extack: buffer for the kernel's message (set to "" first), may be NULL
 * @extack_len: its size
 *
 * The kernel's message is an error's explanation when the request fails
 * and a warning when it succeeds.
 *
 * Return: 0, -EINTR if a dump was interrupted by a change (every reply was
 * still processed), the kernel's negative errno, or the first negative
 * value @fn returned.
 */
int pnl_request(struct pnl *nl, struct nl_msg *msg, pnl_reply_fn fn,
		void *arg, char *extack, size_t extack_len)
{
	struct pnl_req req = {
		.fn = fn,
		.arg = arg,
		.extack = extack,
		.extack_len = extack ? extack_len : 0,
	};
	struct nl_cb *cb;
	int ret;

	if (req.extack_len)
		extack[0] = '\0';

	cb = pnl_callbacks(&req);
	if (!cb) {
		nlmsg_free(msg);
		return -ENOMEM;
	}

	ret = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (ret < 0)
		req.err = pnl_errno(ret);

	while (ret >= 0 && !req.done) {
		ret = nl_recvmsgs_report(nl->sk, cb);
		if (ret == 0 && !req.done)
			ret = -NLE_FAILURE;	/* nothing to read: cannot happen */
		if (ret < 0 && !req.err)
			req.err = pnl_errno(ret);
	}
	nl_cb_put(cb);

	if (!req.err && req.dump_intr)
		return -EINTR;
	return req.err;
}

/* Build a request for family @family. */
static struct nl_msg *pnl_msg_for(int family, uint8_t version, uint8_t cmd,
				  int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (msg && !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				flags, cmd, version)) {
		nlmsg_free(msg);
		msg = NULL;
	}
	return msg;
}

/**
 * pnl_msg() - start a request of the socket's family
 * @nl: a socket opened by pnl_open()
 * @cmd: the command
 * @flags: extra netlink flags, e.g. NLM_F_DUMP
 *
 * Return: the message to add attributes to, or NULL when out of memory.
 */
struct nl_msg *pnl_msg(const struct pnl *nl, uint8_t cmd, int flags)
{
	return pnl_msg_for(nl->family, nl->version, cmd, flags);
}

static int pnl_on_family(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct pnl *nl = arg;
	int err;

	err = genlmsg_parse(nlmsg_hdr(msg), 0, tb, CTRL_ATTR_MAX, NULL);
	if (err < 0 || !tb[CTRL_ATTR_FAMILY_ID] ||
	    nla_len(tb[CTRL_ATTR_FAMILY_ID]) < 2)
		return -EBADMSG;

	nl->family = nla_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (tb[CTRL_ATTR_VERSION] && nla_len(tb[CTRL_ATTR_VERSION]) >= 4)
		nl->kernel_version = nla_get_u32(tb[CTRL_ATTR_VERSION]);
	return 0;
}

/* Ask nlctrl for @name's id; -ENOENT when no such family is registered. */
static int pnl_resolve(struct pnl *nl, const char *name)
{
	struct nl_msg *msg;

	msg = pnl_msg_for(GENL_ID_CTRL, 1, CTRL_CMD_GETFAMILY, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, CTRL_ATTR_FAMILY_NAME, name) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}

	nl->family = 0;
	return pnl_request(nl, msg, pnl_on_family, nl, NULL, 0) ?:
	       (nl->family ? 0 : -EBADMSG);
}

/* A socket of @protocol that asks for extended, capped ACKs. */
static int pnl_connect(struct pnl *nl, int protocol)
{
	int one = 1;
	int err;

	memset(nl, 0, sizeof(*nl));
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;

	errno = 0;
	err = nl_connect(nl->sk, protocol);
	/*
	 * libnl has no code for some of socket()'s errors (EMFILE, ENFILE)
	 * and says NLE_FAILURE; errno still holds what the kernel said.
	 */
	if (err == -NLE_FAILURE && errno)
		return -errno;
	if (err < 0)
		return pnl_errno(err);

	/* Kernels before 4.12 lack these; errors then carry no message. */
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		   &one, sizeof(one));
	setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		   &one, sizeof(one));
	nl_socket_enable_msg_peek(nl->sk);
	return 0;
}

/**
 * pnl_open() - open a generic netlink socket for one family
 * @nl: filled in; close it with pnl_close() whatever this returns
 * @family: the family's name
 * @version: the version of the family that requests are written for
 *
 * The socket asks for extended ACKs, capped so that errors do not echo
 * the request.
 *
 * Return: 0, -ENOENT if the family is not registered, or another negative
 * errno.
 */
int pnl_open(struct pnl *nl, const char *family, uint8_t version)
{
	int err = pnl_connect(nl, NETLINK_GENERIC);

	if (err)
		return err;
	nl->version = version;
	return pnl_resolve(nl, family);
}

/**
 * pnl_open_route() - open an rtnetlink socket, for tc requests
 * @nl: filled in; close it with pnl_close() whatever this returns
 *
 * Requests are built by the caller (pnl_msg() is for generic netlink
 * only) and sent with pnl_request(), with the same extended ACKs.
 *
 * Return: 0 or a negative errno.
 */
int pnl_open_route(struct pnl *nl)
{
	return pnl_connect(nl, NETLINK_ROUTE);
}

/**
 * struct pnl_group - a multicast group being looked up
 * @name: its name
 * @id: its id, 0 until found
 */
struct pnl_group {
	const char *name;
	uint32_t id;
};

static int pnl_on_groups(struct nl_msg *msg, void *arg)
{
	struct nlattr *tb[CTRL_ATTR_MAX + 1];
	struct nlattr *gtb[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct pnl_group *group = arg;
	struct nlattr *grp;
	int rem;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, tb, CTRL_ATTR_MAX, NULL) < 0)
		return -EBADMSG;
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return 0;
	nla_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS], rem) {
		if (nla_parse_nested(gtb, CTRL_ATTR_MCAST_GRP_MAX, grp,
				     NULL) < 0)
			return -EBADMSG;
		if (gtb[CTRL_ATTR_MCAST_GRP_NAME] &&
		    gtb[CTRL_ATTR_MCAST_GRP_ID] &&
		    nla_len(gtb[CTRL_ATTR_MCAST_GRP_ID]) >= 4 &&
		    !nla_strcmp(gtb[CTRL_ATTR_MCAST_GRP_NAME], group->name))
			group->id = nla_get_u32(gtb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return 0;
}

/**
 * pnl_subscribe() - join one of the family's multicast groups
 * @nl: a socket opened by pnl_open()
 * @group: the group's name
 *
 * The group's id comes from nlctrl (CTRL_ATTR_MCAST_GROUPS), as libnl's
 * genl_ctrl_resolve_grp() finds it, through pnl_request().  The socket
 * then receives the group's messages, with port id and sequence 0.
 *
 * Return: 0, -ENOENT if the family has no such group, or another
 * negative errno.
 */
int pnl_subscribe(struct pnl *nl, const char *group)
{
	struct pnl_group g = { .name = group };
	struct nl_msg *msg;
	int err;

	msg = pnl_msg_for(GENL_ID_CTRL, 1, CTRL_CMD_GETFAMILY, 0);
	if (!msg)
		return -ENOMEM;
	if (nla_put_u16(msg, CTRL_ATTR_FAMILY_ID, nl->family) < 0) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	err = pnl_request(nl, msg, pnl_on_groups, &g, NULL, 0);
	if (err)
		return err;
	if (!g.id)
		return -ENOENT;
	err = nl_socket_add_membership(nl->sk, g.id);
	return err < 0 ? pnl_errno(err) : 0;
}

/**
 * pnl_recv_whole() - read the next datagram whole, without waiting
 * @nl: an open socket
 * @buf: a buffer from malloc(), or NULL; grown (realloc()) to fit
 * @size: its size, updated when it grows
 * @max: the most it may grow to
 * @len: set to the datagram's length, also when it is dropped
 *
 * A datagram is never cut to the buffer: its length is peeked first
 * (MSG_PEEK | MSG_TRUNC) and @buf grown to hold it, then it is read.
 * One longer than @max, or than @buf can grow to, is read and dropped,
 * so that the next one can be read after it.
 *
 * Return: 0; -EMSGSIZE (longer than @max) or -ENOMEM, the datagram
 * dropped; or recv()'s negative errno, -EAGAIN when none is queued and
 * -ENOBUFS when some were lost to the socket's receive buffer.
 */
int pnl_recv_whole(struct pnl *nl, char **buf, size_t *size, size_t max,
		   size_t *len)
{
	int fd = nl_socket_get_fd(nl->sk);
	ssize_t n;
	char *more;
	int err = 0;

	n = recv(fd, *buf, *size, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	*len = n;
	if (*len > *size) {
		more = *len <= max ? realloc(*buf, *len) : NULL;
		if (more) {
			*buf = more;
			*size = *len;
		} else {
			err = *len > max ? -EMSGSIZE : -ENOMEM;
		}
	}
	n = err ? recv(fd, NULL, 0, MSG_DONTWAIT) :
		  recv(fd, *buf, *len, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	return err;
}

/**
 * pnl_close() - close a socket opened by pnl_open() or pnl_open_route()
 * @nl: the socket; closing twice is harmless
 */
void pnl_close(struct pnl *nl)
{
	nl_socket_free(nl->sk);
	nl->sk = NULL;
}
