/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The pacer generic netlink family spoken raw, without libnl (genl_raw.c):
 * what nl_raw and nl_fuzz need to build any request, well-formed or not,
 * send it and read its answer, extack included.
 *
 * genl_open() first: it opens the socket (NETLINK_EXT_ACK, NETLINK_CAP_ACK)
 * and resolves the family, or exits KSFT_SKIP if the module is not loaded.
 */
#ifndef PACER_GENL_RAW_H
#define PACER_GENL_RAW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/pacer.h>

/*
 * Part of what an nl_fuzz seed means: a request stops growing at
 * GENL_MSG_MAX bytes, and a corruption picks among its first
 * GENL_MSG_ATTRS attributes.
 */
#define GENL_MSG_MAX	2048
#define GENL_MSG_ATTRS	96
#define GENL_WAIT_MS	10000	/* longest wait for one request's answer */
#define GENL_EXTACK_MAX	256	/* an extack message, cut to fit */

/* A request being built. */
struct genl_msg {
	union {
		struct nlmsghdr nlh;
		char data[GENL_MSG_MAX];
	} u;
	/* Where the attributes went, in order: a fuzzer can corrupt one. */
	uint16_t attr_off[GENL_MSG_ATTRS];
	int n_attrs;
	bool full;		/* an attribute did not fit */
};

/* What came back for one request. */
struct genl_answer {
	int error;		/* of the ACK, error or DONE; 0 if none */
	bool answered;		/* an ACK, error or DONE came */
	int objects;		/* family messages: replies, dump parts */
	bool timeout;
	bool overrun;		/* ENOBUFS: the socket dropped answers */
	int send_errno;
	char msg[GENL_EXTACK_MAX];	/* NLMSGERR_ATTR_MSG, "" if none */
	int offs;		/* NLMSGERR_ATTR_OFFS, -1 if none */
	int miss_type;		/* NLMSGERR_ATTR_MISS_TYPE, -1 if none */
	int miss_nest;		/* NLMSGERR_ATTR_MISS_NEST, -1 if none */
};

/* Called for each family message of an answer. */
typedef void (*genl_obj_fn)(const struct nlmsghdr *nlh, void *arg);

extern uint16_t pacer_family;
/* Answers met that belonged to earlier requests (ones that timed out). */
extern unsigned long genl_stale;
/* Indexed by command number, PACER_CMD_MAX included. */
extern const char *const pacer_cmd_names[];

void genl_open(void);

/* ------------------------------------------------------------ requests */

void genl_msg_init(struct genl_msg *m, uint16_t type, uint16_t flags,
		   uint8_t cmd);

/* Append an attribute; returns its offset, or -1 if the message is full. */
int nla_put(struct genl_msg *m, uint16_t type, const void *data, size_t len);

static inline int nla_put_u8(struct genl_msg *m, uint16_t type, uint8_t v)
{
	return nla_put(m, type, &v, sizeof(v));
}

static inline int nla_put_u16(struct genl_msg *m, uint16_t type, uint16_t v)
{
	return nla_put(m, type, &v, sizeof(v));
}

static inline int nla_put_u32(struct genl_msg *m, uint16_t type, uint32_t v)
{
	return nla_put(m, type, &v, sizeof(v));
}

/* 64-bit values: the kernel takes them unaligned from requests. */
static inline int nla_put_u64(struct genl_msg *m, uint16_t type, uint64_t v)
{
	return nla_put(m, type, &v, sizeof(v));
}

int nla_put_string(struct genl_msg *m, uint16_t type, const char *s);
int nla_nest_start(struct genl_msg *m, uint16_t type);
void nla_nest_end(struct genl_msg *m, int off);

/* A pacer request naming the device @ifname, with NLM_F_ACK. */
void pacer_req(struct genl_msg *m, uint8_t cmd, uint16_t flags,
	       const char *ifname);
/* Open PACER_A_CLASS with the class id in it; returns the nest's offset. */
int pacer_class_nest(struct genl_msg *m, uint16_t id);

/* ------------------------------------------------------------- answers */

/*
 * Send @len bytes of @m and read its answer into @a, calling @obj for each
 * family message.  With @marker, an NLMSG_NOOP with NLM_F_ACK follows and
 * its ACK ends the wait (a dump still runs to its end): for requests that
 * may get no answer.  Never waits longer than GENL_WAIT_MS.
 */
void genl_exchange(struct genl_msg *m, size_t len, bool marker,
		   struct genl_answer *a, genl_obj_fn obj, void *arg);

/*
 * A request of the test's own (setup, checks, cleanup): sent with NLM_F_ACK,
 * it must be answered, else the test exits KSFT_ERROR.
 */
void genl_transact(struct genl_msg *m, struct genl_answer *a,
		   genl_obj_fn obj, void *arg);

/* The attribute @type among those from @p to @end, or NULL. */
const struct nlattr *nla_find(const char *p, const char *end, int type);
/* A top-level attribute of a family message. */
const struct nlattr *genl_attr(const struct nlmsghdr *nlh, int type);
/* An attribute inside the top-level nest @nest_type. */
const struct nlattr *genl_nest_attr(const struct nlmsghdr *nlh,
				    int nest_type, int type);

bool nla_get_bytes(const struct nlattr *nla, void *v, size_t len);
/* The payload of @nla (NULL: absent) into *@p, if it holds that much. */
#define nla_get(nla, p)	nla_get_bytes(nla, p, sizeof(*(p)))
/* A string attribute into @buf, cut to fit; false if @nla is NULL. */
bool nla_get_str(const struct nlattr *nla, char *buf, size_t size);

#endif
