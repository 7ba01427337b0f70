// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of nl.c's reads, printing TAP: a message longer than a
 * buffer is read whole or not at all.  A "dev set" event or a DEV_GET
 * reply carries a nest per possible CPU, over 64 KiB on a machine with
 * ~1,400 of them.  The messages are sent from a second netlink socket
 * to the socket under test (one socket may send to another's port, no
 * kernel family is needed).  pnl_request()'s handling of a dump's parts
 * is tested the same way, the second socket, in a child, answering the
 * requests as the kernel would.  Run by "make test".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <linux/netlink.h>
#include <netlink/netlink.h>
#include <netlink/msg.h>

#include "nl.h"
#include "tap.h"

/* Longer than monitor.c's first buffer and than a few pages of libnl's. */
#define BIG_LEN 200000


/* The message of @len bytes with @seq: a header, then bytes from @seq. */
static void fill(char *buf, size_t len, uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	size_t i;

	memset(nlh, 0, sizeof(*nlh));
	nlh->nlmsg_len = len;
	nlh->nlmsg_type = NLMSG_MIN_TYPE;
	nlh->nlmsg_seq = seq;
	for (i = sizeof(*nlh); i < len; i++)
		buf[i] = (char)(seq + i);
}

static bool is_filled(const char *buf, size_t len, uint32_t seq)
{
	const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
	size_t i;

	if (nlh->nlmsg_len != len || nlh->nlmsg_seq != seq)
		return false;
	for (i = sizeof(*nlh); i < len; i++)
		if (buf[i] != (char)(seq + i))
			return false;
	return true;
}

/*
 * A socket that sends to @to's port; -1 (explained) if it cannot.  Each
 * socket's buffer is set to hold a long message and a short one: the
 * kernel caps it at twice net.core.wmem_max (rmem_max), 208 KiB each by
 * default.
 */
static int sender(const struct pnl *to)
{
	int size = 2 * BIG_LEN;
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		printf("# cannot open a netlink socket: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	setsockopt(nl_socket_get_fd(to->sk), SOL_SOCKET, SO_RCVBUF, &size,
		   sizeof(size));
	sa.nl_pid = nl_socket_get_local_port(to->sk);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		printf("# cannot connect to the socket: %s\n", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static bool send_msg(int fd, size_t len, uint32_t seq)
{
	char *buf = malloc(len);
	bool sent;

	if (!buf)
		return false;
	fill(buf, len, seq);
	sent = send(fd, buf, len, MSG_DONTWAIT) == (ssize_t)len;
	if (!sent)
		printf("# cannot send %zu bytes: %s\n", len, strerror(errno));
	free(buf);
	return sent;
}

static void test_recv_whole(struct pnl *nl, int fd)
{
	size_t size = 4096, len = 0;
	char *buf = malloc(size);
	int err;

	err = pnl_recv_whole(nl, &buf, &size, BIG_LEN, &len);
	ok(err == -EAGAIN, "pnl_recv_whole: -EAGAIN when nothing is queued");

	ok(send_msg(fd, 100, 1), "send 100 bytes");
	err = pnl_recv_whole(nl, &buf, &size, BIG_LEN, &len);
	ok(!err && len == 100 && size == 4096 && is_filled(buf, len, 1),
	   "pnl_recv_whole: 100 bytes into 4096, the buffer kept");

	ok(send_msg(fd, BIG_LEN, 2), "send 200000 bytes");
	err = pnl_recv_whole(nl, &buf, &size, BIG_LEN, &len);
	ok(!err && len == BIG_LEN && size >= BIG_LEN &&
	   is_filled(buf, len, 2),
	   "pnl_recv_whole: 200000 bytes whole, the buffer grown from 4096");

	/*
	 * Too long for a buffer that may grow to @max only: dropped whole,
	 * the next one read as it is.
	 */
	free(buf);
	size = 4096;
	buf = malloc(size);
	ok(send_msg(fd, BIG_LEN, 3) && send_msg(fd, 200, 4),
	   "send 200000 bytes, then 200");
	err = pnl_recv_whole(nl, &buf, &size, BIG_LEN / 2, &len);
	ok(err == -EMSGSIZE && len == BIG_LEN && size == 4096,
	   "pnl_recv_whole: 200000 bytes over a max of 100000: -EMSGSIZE, its length told");
	err = pnl_recv_whole(nl, &buf, &size, BIG_LEN / 2, &len);
	ok(!err && len == 200 && is_filled(buf, len, 4),
	   "pnl_recv_whole: the message after the dropped one read whole");
	err = pnl_recv_whole(nl, &buf, &size, BIG_LEN, &len);
	ok(err == -EAGAIN, "pnl_recv_whole: nothing left");
	free(buf);
}

static int on_valid(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	size_t *len = arg;

	*len = is_filled((char *)nlh, nlh->nlmsg_len, nlh->nlmsg_seq) ?
	       nlh->nlmsg_len : 0;
	return NL_STOP;
}

static int no_seq_check(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(void)arg;
	return NL_OK;
}

/*
 * pnl_request() reads with libnl's nl_recvmsgs(), whose buffer is a
 * page unless the socket peeks at each message's length first: a socket
 * from pnl_open*() must get a message of any length whole.
 */
static void test_libnl_recv(struct pnl *nl, int fd)
{
	struct nl_cb *cb = nl_cb_alloc(NL_CB_DEFAULT);
	size_t len = 0;
	int err;

	if (!cb) {
		ok(0, "nl_cb_alloc");
		return;
	}
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, on_valid, &len);
	nl_cb_set(cb, NL_CB_SEQ_CHECK, NL_CB_CUSTOM, no_seq_check, NULL);
	ok(send_msg(fd, BIG_LEN, 5), "send 200000 bytes");
	err = nl_recvmsgs(nl->sk, cb);
	ok(err >= 0 && len == BIG_LEN,
	   "nl_recvmsgs on a pnl socket: 200000 bytes whole");
	nl_cb_put(cb);
}

/*
 * The answer a fake kernel gives to the next request: @n messages, each
 * NLM_F_MULTI and, if its bit is in @intr, NLM_F_DUMP_INTR, then
 * NLMSG_DONE with @done_err and, if @msg, an extack message.
 */
struct fake_answer {
	int n;
	unsigned int intr;
	int done_err;
	const char *msg;
};

/* Append a message of @type, @flags and @seq with @len bytes of payload. */
static size_t put_msg(char *buf, size_t off, uint16_t type, uint16_t flags,
		      uint32_t seq, const void *data, size_t len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(buf + off);

	memset(nlh, 0, NLMSG_SPACE(len));
	nlh->nlmsg_len = NLMSG_LENGTH(len);
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	if (len)
		memcpy(NLMSG_DATA(nlh), data, len);
	return off + NLMSG_SPACE(len);
}

/*
 * In a child: read one request on @fd and answer it as @a says, each
 * message a datagram of its own, as the parts of a dump come.
 */
static void fake_kernel(int fd, const struct fake_answer *a)
{
	char req[4096], buf[512], done[64];
	struct nlmsghdr *nlh = (struct nlmsghdr *)req;
	struct nlattr *nla;
	size_t len, mlen;
	int i, pad = 0;

	if (recv(fd, req, sizeof(req), 0) < (ssize_t)sizeof(*nlh))
		_exit(1);
	for (i = 0; i < a->n; i++) {
		uint16_t flags = NLM_F_MULTI |
				 (a->intr & (1U << i) ? NLM_F_DUMP_INTR : 0);

		len = put_msg(buf, 0, NLMSG_MIN_TYPE, flags, nlh->nlmsg_seq,
			      &pad, sizeof(pad));
		if (send(fd, buf, len, 0) != (ssize_t)len)
			_exit(1);
	}
	/* NLMSG_DONE: the error, then the extack attributes. */
	memset(done, 0, sizeof(done));
	memcpy(done, &a->done_err, sizeof(a->done_err));
	len = sizeof(a->done_err);
	if (a->msg) {
		mlen = strlen(a->msg) + 1;
		nla = (struct nlattr *)(done + len);
		nla->nla_type = NLMSGERR_ATTR_MSG;
		nla->nla_len = NLA_HDRLEN + mlen;
		memcpy((char *)nla + NLA_HDRLEN, a->msg, mlen);
		len += NLA_ALIGN(nla->nla_len);
	}
	len = put_msg(buf, 0, NLMSG_DONE,
		      NLM_F_MULTI | (a->msg ? NLM_F_ACK_TLVS : 0),
		      nlh->nlmsg_seq, done, len);
	if (send(fd, buf, len, 0) != (ssize_t)len)
		_exit(1);
	_exit(0);
}

static int count_reply(struct nl_msg *msg, void *arg)
{
	(void)msg;
	(*(int *)arg)++;
	return 0;
}

/* pnl_request() of a dump that @fd, a fake kernel, answers as @a says. */
static int fake_dump(struct pnl *nl, int fd, const struct fake_answer *a,
		     int *replies, char *extack, size_t extack_len)
{
	struct nl_msg *msg = pnl_msg(nl, 1, NLM_F_DUMP);
	int err, status;
	pid_t pid;

	*replies = 0;
	if (!msg)
		return -ENOMEM;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		nlmsg_free(msg);
		return -errno;
	}
	if (!pid)
		fake_kernel(fd, a);
	err = pnl_request(nl, msg, count_reply, replies, extack, extack_len);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		printf("# the fake kernel failed\n");
	return err;
}

/*
 * A dump's parts as pnl_request() reads them: every reply is handled, and
 * one part flagged NLM_F_DUMP_INTR (a class added or deleted between two
 * of them) makes it -EINTR, which callers tell apart from a failure:
 * "monitor -s" keeps such a sample.  A dump's error comes in NLMSG_DONE,
 * with its extack message.
 */
static void test_dump_replies(struct pnl *nl, int fd)
{
	struct sockaddr_nl sa;
	socklen_t salen = sizeof(sa);
	char extack[PNL_EXTACK_LEN];
	int err, replies;

	if (getsockname(fd, (struct sockaddr *)&sa, &salen) < 0) {
		ok(0, "getsockname of the fake kernel");
		return;
	}
	nl_socket_set_peer_port(nl->sk, sa.nl_pid);
	nl->family = NLMSG_MIN_TYPE;

	err = fake_dump(nl, fd, &(struct fake_answer){ .n = 3 }, &replies,
			extack, sizeof(extack));
	ok(!err && replies == 3, "pnl_request: a dump of 3 parts, 3 replies, 0");

	err = fake_dump(nl, fd, &(struct fake_answer){ .n = 3, .intr = 2 },
			&replies, extack, sizeof(extack));
	ok(err == -EINTR && replies == 3,
	   "pnl_request: a dump whose second part is flagged NLM_F_DUMP_INTR: every reply handled, -EINTR");

	err = fake_dump(nl, fd, &(struct fake_answer){
				.n = 1, .done_err = -ENODEV,
				.msg = "pacer: the device was deleted during the dump" },
			&replies, extack, sizeof(extack));
	ok(err == -ENODEV && replies == 1 &&
	   !strcmp(extack, "pacer: the device was deleted during the dump"),
	   "pnl_request: a dump that fails after a part: its error and extack message from NLMSG_DONE");

	err = fake_dump(nl, fd, &(struct fake_answer){ .n = 0 }, &replies,
			extack, sizeof(extack));
	ok(!err && !replies && !*extack,
	   "pnl_request: the next request on the socket reads its own answer");
}

/*
 * A socket the kernel refuses is reported as what it said, not as libnl's
 * catch-all NLE_FAILURE (which read "Input/output error"): out of file
 * descriptors, EMFILE.
 */
static void test_connect_error(void)
{
	struct rlimit old, none;
	struct pnl nl;
	int err;

	if (getrlimit(RLIMIT_NOFILE, &old)) {
		ok(0, "getrlimit(RLIMIT_NOFILE)");
		return;
	}
	none = old;
	/* 0, 1 and 2 are open, and the senders' sockets are closed. */
	none.rlim_cur = 3;
	setrlimit(RLIMIT_NOFILE, &none);
	err = pnl_open_route(&nl);
	setrlimit(RLIMIT_NOFILE, &old);
	pnl_close(&nl);
	printf("# pnl_open_route() without a free descriptor: %s\n",
	       strerror(-err));
	ok(err == -EMFILE, "pnl_open_route: no descriptor left reads EMFILE");
}

int main(void)
{
	struct pnl nl;
	int err, fd;

	err = pnl_open_route(&nl);
	if (err) {
		printf("1..0 # SKIP cannot open a netlink socket: %s\n",
		       strerror(-err));
		pnl_close(&nl);
		return 0;
	}
	fd = sender(&nl);
	if (fd < 0) {
		printf("1..0 # SKIP no socket to send from\n");
		pnl_close(&nl);
		return 0;
	}

	test_recv_whole(&nl, fd);
	test_libnl_recv(&nl, fd);
	test_dump_replies(&nl, fd);

	close(fd);
	pnl_close(&nl);
	test_connect_error();
	return tap_done("");
}
