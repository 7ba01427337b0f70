// SPDX-License-Identifier: GPL-2.0
/*
 * The pacer generic netlink family spoken raw: see genl_raw.h.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "genl_raw.h"
#include "ksft.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define BUF_SIZE	(128 * 1024)

uint16_t pacer_family;
unsigned long genl_stale;

const char *const pacer_cmd_names[PACER_CMD_MAX + 1] = {
	[PACER_CMD_UNSPEC] = "UNSPEC",
	[PACER_CMD_DEV_GET] = "DEV_GET",
	[PACER_CMD_CLASS_NEW] = "CLASS_NEW",
	[PACER_CMD_CLASS_SET] = "CLASS_SET",
	[PACER_CMD_CLASS_DEL] = "CLASS_DEL",
	[PACER_CMD_CLASS_GET] = "CLASS_GET",
	[PACER_CMD_RULE_NEW] = "RULE_NEW",
	[PACER_CMD_RULE_DEL] = "RULE_DEL",
	[PACER_CMD_RULE_GET] = "RULE_GET",
	[PACER_CMD_STATS_RESET] = "STATS_RESET",
	[PACER_CMD_DEV_SET] = "DEV_SET",
};

static int sock_fd = -1;
static uint32_t seq;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* ------------------------------------------------------------ requests */

void genl_msg_init(struct genl_msg *m, uint16_t type, uint16_t flags,
		   uint8_t cmd)
{
	struct genlmsghdr *g;

	memset(&m->u.nlh, 0, NLMSG_LENGTH(GENL_HDRLEN));
	m->n_attrs = 0;
	m->full = false;
	m->u.nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	m->u.nlh.nlmsg_type = type;
	m->u.nlh.nlmsg_flags = flags;
	m->u.nlh.nlmsg_seq = ++seq;
	g = NLMSG_DATA(&m->u.nlh);
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : PACER_GENL_VERSION;
}

int nla_put(struct genl_msg *m, uint16_t type, const void *data, size_t len)
{
	int off = NLMSG_ALIGN(m->u.nlh.nlmsg_len);
	struct nlattr *nla = (struct nlattr *)(m->u.data + off);

	if (off + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(m->u.data)) {
		m->full = true;
		return -1;
	}
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)nla + NLA_HDRLEN, data, len);
	memset((char *)nla + NLA_HDRLEN + len, 0, NLA_ALIGN(len) - len);
	m->u.nlh.nlmsg_len = off + NLA_HDRLEN + NLA_ALIGN(len);
	if (m->n_attrs < GENL_MSG_ATTRS)
		m->attr_off[m->n_attrs++] = off;
	return off;
}

int nla_put_string(struct genl_msg *m, uint16_t type, const char *s)
{
	return nla_put(m, type, s, strlen(s) + 1);
}

int nla_nest_start(struct genl_msg *m, uint16_t type)
{
	return nla_put(m, type | NLA_F_NESTED, NULL, 0);
}

void nla_nest_end(struct genl_msg *m, int off)
{
	struct nlattr *nla;

	if (off < 0)
		return;
	nla = (struct nlattr *)(m->u.data + off);
	nla->nla_len = m->u.nlh.nlmsg_len - off;
}

void pacer_req(struct genl_msg *m, uint8_t cmd, uint16_t flags,
	       const char *ifname)
{
	genl_msg_init(m, pacer_family, NLM_F_REQUEST | NLM_F_ACK | flags, cmd);
	nla_put_string(m, PACER_A_IFNAME, ifname);
}

int pacer_class_nest(struct genl_msg *m, uint16_t id)
{
	int nest = nla_nest_start(m, PACER_A_CLASS);

	nla_put_u16(m, PACER_CLASS_A_ID, id);
	return nest;
}

/* ------------------------------------------------------------- answers */

const struct nlattr *nla_find(const char *p, const char *end, int type)
{
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *nla = (const struct nlattr *)p;

		if (nla->nla_len < NLA_HDRLEN || p + nla->nla_len > end)
			return NULL;
		if ((nla->nla_type & NLA_TYPE_MASK) == type)
			return nla;
		p += NLA_ALIGN(nla->nla_len);
	}
	return NULL;
}

const struct nlattr *genl_attr(const struct nlmsghdr *nlh, int type)
{
	const char *p = (const char *)NLMSG_DATA(nlh) + GENL_HDRLEN;

	return nla_find(p, (const char *)nlh + nlh->nlmsg_len, type);
}

const struct nlattr *genl_nest_attr(const struct nlmsghdr *nlh,
				    int nest_type, int type)
{
	const struct nlattr *nest = genl_attr(nlh, nest_type);

	if (!nest)
		return NULL;
	return nla_find((const char *)nest + NLA_HDRLEN,
			(const char *)nest + nest->nla_len, type);
}

bool nla_get_bytes(const struct nlattr *nla, void *v, size_t len)
{
	if (!nla || nla->nla_len < NLA_HDRLEN + len)
		return false;
	memcpy(v, (const char *)nla + NLA_HDRLEN, len);
	return true;
}

bool nla_get_str(const struct nlattr *nla, char *buf, size_t size)
{
	if (!nla)
		return false;
	snprintf(buf, size, "%.*s", (int)(nla->nla_len - NLA_HDRLEN),
		 (const char *)nla + NLA_HDRLEN);
	return true;
}

/* The extack TLVs from @p to @end. */
static void parse_tlvs(const char *p, const char *end, struct genl_answer *a)
{
	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *nla = (const struct nlattr *)p;

		if (nla->nla_len < NLA_HDRLEN || p + nla->nla_len > end)
			break;
		switch (nla->nla_type & NLA_TYPE_MASK) {
		case NLMSGERR_ATTR_MSG:
			nla_get_str(nla, a->msg, sizeof(a->msg));
			break;
		case NLMSGERR_ATTR_OFFS:
			nla_get(nla, &a->offs);
			break;
		case NLMSGERR_ATTR_MISS_TYPE:
			nla_get(nla, &a->miss_type);
			break;
		case NLMSGERR_ATTR_MISS_NEST:
			nla_get(nla, &a->miss_nest);
			break;
		}
		p += NLA_ALIGN(nla->nla_len);
	}
}

static void parse_error(const struct nlmsghdr *nlh, struct genl_answer *a)
{
	const struct nlmsgerr *err = NLMSG_DATA(nlh);
	const char *end = (const char *)nlh + nlh->nlmsg_len;
	const char *p;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
		return;
	a->error = err->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*err)))
		return;
	p = (const char *)err + sizeof(*err);
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		p += NLMSG_ALIGN(err->msg.nlmsg_len) - NLMSG_HDRLEN;
	parse_tlvs(p, end, a);
}

static void parse_done(const struct nlmsghdr *nlh, struct genl_answer *a)
{
	const char *end = (const char *)nlh + nlh->nlmsg_len;

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(int)))
		return;
	a->error = *(const int *)NLMSG_DATA(nlh);
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS)
		parse_tlvs((const char *)NLMSG_DATA(nlh) +
			   NLA_ALIGN(sizeof(int)), end, a);
}

/*
 * Send @len bytes of @m, followed with @marker by an NLMSG_NOOP with
 * NLM_F_ACK and sequence number @ms: in the same datagram when netlink will
 * get past @m to it, else in a second one.
 */
static int send_req(struct genl_msg *m, size_t len, bool marker, uint32_t ms)
{
	struct nlmsghdr noop = {
		.nlmsg_len = NLMSG_HDRLEN,
		.nlmsg_type = NLMSG_NOOP,
		.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK,
		.nlmsg_seq = ms,
	};
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct iovec iov[2] = {
		{ .iov_base = m->u.data, .iov_len = len },
		{ .iov_base = &noop, .iov_len = sizeof(noop) },
	};
	struct msghdr mh = {
		.msg_name = &kernel,
		.msg_namelen = sizeof(kernel),
		.msg_iov = iov,
		.msg_iovlen = 1,
	};
	uint32_t nlmsg_len = m->u.nlh.nlmsg_len;
	bool together = nlmsg_len >= NLMSG_HDRLEN &&
			NLMSG_ALIGN(nlmsg_len) == len;

	if (marker && together)
		mh.msg_iovlen = 2;
	if (sendmsg(sock_fd, &mh, MSG_DONTWAIT) < 0)
		return -errno;
	if (marker && !together) {
		mh.msg_iov = &iov[1];
		if (sendmsg(sock_fd, &mh, MSG_DONTWAIT) < 0)
			ksft_fatal(errno, "sendmsg (NLMSG_NOOP)");
	}
	return 0;
}

/*
 * The kernel handles a request inside sendmsg(), so the answer is usually
 * queued already: poll() only when the socket is empty.
 */
void genl_exchange(struct genl_msg *m, size_t len, bool marker,
		   struct genl_answer *a, genl_obj_fn obj, void *arg)
{
	static char buf[BUF_SIZE];
	uint32_t s = m->u.nlh.nlmsg_seq, ms = marker ? ++seq : 0;
	bool marker_seen = !marker, multi = false, done = false;
	long long deadline;
	int err;

	memset(a, 0, sizeof(*a));
	a->offs = a->miss_type = a->miss_nest = -1;
	err = send_req(m, len, marker, ms);
	if (err) {
		a->send_errno = -err;
		return;
	}
	deadline = now_ms() + GENL_WAIT_MS;
	for (;;) {
		struct pollfd pfd = { .fd = sock_fd, .events = POLLIN };
		long long left;
		struct nlmsghdr *nlh;
		ssize_t n;

		if (marker ? marker_seen && (!multi || done) : done)
			return;
		n = recv(sock_fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				left = deadline - now_ms();
				if (left <= 0) {
					a->timeout = true;
					return;
				}
				if (poll(&pfd, 1, left) < 0 && errno != EINTR)
					ksft_fatal(errno, "poll");
				continue;
			}
			if (errno == ENOBUFS) {
				/*
				 * Answers were dropped: this one may be
				 * among them; later ones are told by seq.
				 */
				a->overrun = true;
				return;
			}
			ksft_fatal(errno, "recv");
		}
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (marker && nlh->nlmsg_seq == ms) {
				if (nlh->nlmsg_type == NLMSG_ERROR)
					marker_seen = true;
				continue;
			}
			if (nlh->nlmsg_seq != s) {
				genl_stale++;
				continue;
			}
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				parse_error(nlh, a);
				a->answered = done = true;
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				parse_done(nlh, a);
				a->answered = done = true;
			} else {
				a->objects++;
				if (nlh->nlmsg_flags & NLM_F_MULTI)
					multi = true;
				if (obj)
					obj(nlh, arg);
			}
		}
	}
}

void genl_transact(struct genl_msg *m, struct genl_answer *a,
		   genl_obj_fn obj, void *arg)
{
	uint8_t cmd = ((struct genlmsghdr *)NLMSG_DATA(&m->u.nlh))->cmd;
	const char *name = m->u.nlh.nlmsg_type != pacer_family ?
			   "CTRL_CMD_GETFAMILY" :
			   cmd <= PACER_CMD_MAX ? pacer_cmd_names[cmd] :
			   "unknown command";

	if (m->full)
		ksft_fatal(0, "%s request too large", name);
	/* Else a request without a reply would be answered by silence. */
	m->u.nlh.nlmsg_flags |= NLM_F_ACK;
	genl_exchange(m, m->u.nlh.nlmsg_len, false, a, obj, arg);
	if (a->send_errno)
		ksft_fatal(a->send_errno, "sendmsg (%s)", name);
	if (a->timeout || a->overrun)
		ksft_fatal(0, "no answer to a %s request within %d ms%s", name,
			   GENL_WAIT_MS, a->overrun ? " (ENOBUFS)" : "");
}

/* --------------------------------------------------------------- setup */

static void sock_open(void)
{
	int one = 1, size = 1 << 20;

	sock_fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sock_fd < 0)
		ksft_fatal(errno, "socket");
	if (setsockopt(sock_fd, SOL_NETLINK, NETLINK_EXT_ACK, &one,
		       sizeof(one)) ||
	    setsockopt(sock_fd, SOL_NETLINK, NETLINK_CAP_ACK, &one,
		       sizeof(one)))
		ksft_fatal(errno, "setsockopt");
	/*
	 * Capped by rmem_max when unprivileged: fine, answers are drained
	 * after every request.
	 */
	setsockopt(sock_fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
}

static void family_reply(const struct nlmsghdr *nlh, void *arg)
{
	nla_get(genl_attr(nlh, CTRL_ATTR_FAMILY_ID), (uint16_t *)arg);
}

void genl_open(void)
{
	struct genl_answer a;
	struct genl_msg m;

	sock_open();
	genl_msg_init(&m, GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK,
		      CTRL_CMD_GETFAMILY);
	nla_put_string(&m, CTRL_ATTR_FAMILY_NAME, PACER_GENL_NAME);
	genl_transact(&m, &a, family_reply, &pacer_family);
	if (a.error == -ENOENT)
		ksft_exit_skip("generic netlink family \"%s\" not found",
			       PACER_GENL_NAME);
	if (a.error)
		ksft_fatal(-a.error, "resolving \"%s\"", PACER_GENL_NAME);
	if (!pacer_family)
		ksft_fatal(0, "CTRL_CMD_GETFAMILY: no CTRL_ATTR_FAMILY_ID");
}
