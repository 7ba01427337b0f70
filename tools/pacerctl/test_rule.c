// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of rule.c and dump.c on rules, printing TAP: "rule add"'s
 * arguments (pacer_rule_parse_add(): what is refused, with which message,
 * and the attributes pacer_rule_put() sends for the rest), and a rule as
 * the kernel reports it (pacer_rule_decode()) printed by "rule show" and
 * "monitor" (pacer_rule_print(), text and JSON) and by "dump"
 * (pacer_rule_dump()).  The replies are built here with libnl, as the
 * kernel builds them (module/netlink.c, pacer_nl_put_rule()); a dump line
 * is parsed back and must send the attributes the reply had: "dump" then
 * "pacerctl -b" restores the rule exactly, also when the device's name has
 * characters that "pacerctl -b" reads as quotes or a comment (the line is
 * read back by pacer_batch() itself).  Run by "make test".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <linux/pacer.h>
#include <netlink/genl/genl.h>

#include "objects.h"
#include "pacerctl.h"
#include "print.h"
#include "tap.h"

#define MAX_ARGS 32

/* Output captured from stdout or stderr: start, then end (caller frees). */
struct capture {
	FILE **stream;
	FILE *real;
	char *text;
	size_t len;
};

static bool capture_start(struct capture *c, FILE **stream)
{
	c->stream = stream;
	c->real = *stream;
	c->text = NULL;
	c->len = 0;
	*stream = open_memstream(&c->text, &c->len);
	if (!*stream) {
		*stream = c->real;
		return false;
	}
	return true;
}

static char *capture_end(struct capture *c)
{
	fclose(*c->stream);
	*c->stream = c->real;
	return c->text;
}

/* @line split on spaces into @argv (pointing into @buf). */
static int split(const char *line, char *buf, size_t size, char **argv)
{
	char *save, *w;
	int argc = 0;

	snprintf(buf, size, "%s", line);
	for (w = strtok_r(buf, " ", &save); w && argc < MAX_ARGS;
	     w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	return argc;
}

/* "rule add" @line: its exit status, what it said (caller frees), its rule. */
static int parse(const char *line, struct pacer_rule_info *rule, char **err)
{
	char buf[512], *argv[MAX_ARGS];
	int argc = split(line, buf, sizeof(buf), argv), ret;
	const char *ifname;
	struct capture c;

	*err = NULL;
	if (!capture_start(&c, &stderr))
		return -ENOMEM;
	ret = pacer_rule_parse_add(argc, argv, &ifname, rule);
	*err = capture_end(&c);
	if (*err && **err)
		printf("# rule add %s: %s", line, *err);
	return ret;
}

/*
 * A message about a rule, as the kernel sends it: the device, then the
 * rule's nest; of the nest's attributes, @attrs (a PACER_RULE_A_*, then
 * its value, ..., ending with 0) or, with @attrs NULL, pacer_rule_put()'s
 * of @rule.
 */
static struct nl_msg *message(const int *attrs, const struct pacer_rule_info *rule)
{
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8 };
	static const uint8_t v4[4] = { 10, 1, 0, 0 };
	struct nl_msg *msg = nlmsg_alloc();
	struct nlattr *nest;
	int err = 0;

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, 1, 1, 0x20, 0, 0, PACER_CMD_RULE_NEW,
			 PACER_GENL_VERSION) ||
	    nla_put_u32(msg, PACER_A_IFINDEX, 7) < 0 ||
	    nla_put_string(msg, PACER_A_IFNAME, "pacer0") < 0)
		goto fail;
	if (!attrs) {
		if (pacer_rule_put(msg, rule))
			goto fail;
		return msg;
	}
	nest = nla_nest_start(msg, PACER_A_RULE);
	if (!nest)
		goto fail;
	for (; *attrs && !err; attrs += 2) {
		int v = attrs[1];

		switch (attrs[0]) {
		case PACER_RULE_A_PREF:
		case PACER_RULE_A_MARK:
		case PACER_RULE_A_MARK_MASK:
		case PACER_RULE_A_PRIO:
			err = nla_put_u32(msg, attrs[0], v);
			break;
		case PACER_RULE_A_CLASS:
		case PACER_RULE_A_SPORT_MIN:
		case PACER_RULE_A_SPORT_MAX:
		case PACER_RULE_A_DPORT_MIN:
		case PACER_RULE_A_DPORT_MAX:
			err = nla_put_u16(msg, attrs[0], v);
			break;
		case PACER_RULE_A_SRC:
		case PACER_RULE_A_DST:
			/* v: the address's length, 4 (10.1.0.0) or 16 (2001:db8::) */
			err = nla_put(msg, attrs[0], v, v == 4 ? v4 : v6);
			break;
		case PACER_RULE_A_MATCHES:
			err = nla_put_u64(msg, attrs[0], v);
			break;
		default:	/* FAMILY, the prefix lengths, PROTO */
			err = nla_put_u8(msg, attrs[0], v);
		}
	}
	if (err < 0)
		goto fail;
	nla_nest_end(msg, nest);
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

/* The rule nest of @msg; NULL if it has none. */
static struct nlattr *rule_nest(struct nl_msg *msg)
{
	return nlmsg_find_attr(nlmsg_hdr(msg), GENL_HDRLEN, PACER_A_RULE);
}

/* The u8 attribute @type of the nest of @msg; -1 if it has none. */
static int nest_u8(struct nl_msg *msg, int type)
{
	struct nlattr *nest = rule_nest(msg), *a;

	a = nest ? nla_find(nla_data(nest), nla_len(nest), type) : NULL;
	return a ? nla_get_u8(a) : -1;
}

static bool nest_has(struct nl_msg *msg, int type)
{
	struct nlattr *nest = rule_nest(msg);

	return nest && nla_find(nla_data(nest), nla_len(nest), type);
}

/*
 * The rule nests of @a and @b hold the same attributes with the same
 * values, but for the counter: in any order, each type at most once.
 */
static bool same_rule(struct nl_msg *a, struct nl_msg *b)
{
	struct nlattr *na = rule_nest(a), *nb = rule_nest(b), *x, *y;
	int rem, na_n = 0, nb_n = 0;

	if (!na || !nb)
		return false;
	nla_for_each_nested(x, na, rem) {
		if (nla_type(x) == PACER_RULE_A_MATCHES ||
		    nla_type(x) == PACER_RULE_A_PAD)
			continue;
		y = nla_find(nla_data(nb), nla_len(nb), nla_type(x));
		if (!y || nla_len(x) != nla_len(y) ||
		    memcmp(nla_data(x), nla_data(y), nla_len(x))) {
			printf("# attribute %d differs\n", nla_type(x));
			return false;
		}
		na_n++;
	}
	nla_for_each_nested(y, nb, rem)
		if (nla_type(y) != PACER_RULE_A_MATCHES &&
		    nla_type(y) != PACER_RULE_A_PAD)
			nb_n++;
	if (na_n != nb_n)
		printf("# %d attributes, then %d\n", na_n, nb_n);
	return na_n == nb_n;
}

/* What "rule show" (@json: -j) prints of the rule of @msg; caller frees. */
static char *shown(struct nl_msg *msg, bool json)
{
	struct pacer_rule_info rule;
	struct pacer_msg_dev dev;
	struct capture c;

	if (pacer_rule_decode(nlmsg_hdr(msg), &dev, &rule) ||
	    !capture_start(&c, &stdout))
		return NULL;
	new_json_obj(json, false);
	open_json_object(NULL);
	pacer_rule_print(&rule);
	close_json_object();
	print_nl();
	delete_json_obj();
	return capture_end(&c);
}

/* What "dump" prints of the rule of @msg; caller frees. */
static char *dumped(struct nl_msg *msg)
{
	struct pacer_rule_info rule;
	struct pacer_msg_dev dev;
	struct capture c;

	if (pacer_rule_decode(nlmsg_hdr(msg), &dev, &rule) ||
	    !capture_start(&c, &stdout))
		return NULL;
	pacer_rule_dump("pacer0", &rule);
	return capture_end(&c);
}

static void text_is(const char *what, char *got, const char *want)
{
	ok(got && !strcmp(got, want), what);
	if (got && strcmp(got, want))
		printf("# got:  %s# want: %s", got, want);
	free(got);
}

/*
 * A rule the kernel reports with @attrs: "rule show" prints @text, -j
 * @json; "dump" @dump, whose "rule add" line restores the same rule.
 */
static void reported(const char *what, const int *attrs, const char *text,
		     const char *json, const char *dump)
{
	struct nl_msg *msg = message(attrs, NULL), *again = NULL;
	struct pacer_rule_info rule;
	char buf[256], *line, *err;
	int ret;

	snprintf(buf, sizeof(buf), "%s: rule show", what);
	text_is(buf, msg ? shown(msg, false) : NULL, text);
	snprintf(buf, sizeof(buf), "%s: rule show -j", what);
	text_is(buf, msg ? shown(msg, true) : NULL, json);
	line = msg ? dumped(msg) : NULL;
	snprintf(buf, sizeof(buf), "%s: dump", what);
	text_is(buf, line ? strdup(line) : NULL, dump);

	snprintf(buf, sizeof(buf), "%s: the dump's line sends the rule reported",
		 what);
	ret = -1;
	if (line && !strncmp(line, "rule add ", 9)) {
		line[strcspn(line, "\n")] = '\0';
		ret = parse(line + 9, &rule, &err);
		free(err);
		again = ret ? NULL : message(NULL, &rule);
	}
	ok(!ret && again && same_rule(msg, again), buf);
	free(line);
	nlmsg_free(again);
	nlmsg_free(msg);
}

/* "rule add @line" is refused, exit 2, saying @want. */
static void refused(const char *line, const char *want)
{
	struct pacer_rule_info rule;
	char what[256], *err;
	int ret = parse(line, &rule, &err);

	snprintf(what, sizeof(what), "rule add %s: exit 2, \"%s\"", line, want);
	ok(ret == EXIT_USAGE && err && strstr(err, want), what);
	free(err);
}

/*
 * "rule add @line" is taken, and sends PACER_RULE_A_FAMILY @family (-1:
 * none) with @src and @dst (there or not).
 */
static void sends(const char *line, int family, bool src, bool dst)
{
	struct pacer_rule_info rule;
	struct nl_msg *msg = NULL;
	char what[256], *err;
	int ret = parse(line, &rule, &err);

	free(err);
	snprintf(what, sizeof(what),
		 "rule add %s: sends family %d%s%s", line, family,
		 src ? ", src" : "", dst ? ", dst" : "");
	if (!ret)
		msg = message(NULL, &rule);
	ok(!ret && msg && nest_u8(msg, PACER_RULE_A_FAMILY) == family &&
	   nest_has(msg, PACER_RULE_A_SRC) == src &&
	   nest_has(msg, PACER_RULE_A_DST) == dst, what);
	nlmsg_free(msg);
}

#define ATTRS(...) ((const int[]){ __VA_ARGS__, 0 })

/* What the "rule" lines of a batch asked for: the last one's device and rule. */
static struct {
	char ifname[64];
	struct pacer_rule_info rule;
	int ret;
} batched;

/* "rule add ..." in a batch: parsed as pacerctl parses it, not sent. */
static int batch_rule(int argc, char **argv, const struct pacer_opts *opts)
{
	const char *ifname = NULL;

	(void)opts;
	if (argc < 1 || strcmp(argv[0], "add"))
		return EXIT_USAGE;
	batched.ret = pacer_rule_parse_add(argc - 1, argv + 1, &ifname,
					   &batched.rule);
	snprintf(batched.ifname, sizeof(batched.ifname), "%s",
		 ifname ? ifname : "");
	return batched.ret;
}

/*
 * "dump" of a rule of device @ifname, run by "pacerctl -b": the line
 * names @ifname and sends the rule reported.
 */
static void dump_restores(const char *ifname)
{
	static const struct pacerctl_cmd objects[] = {
		{ "rule", batch_rule, "" },
	};
	struct nl_msg *msg = message(ATTRS(PACER_RULE_A_PREF, 6,
					   PACER_RULE_A_CLASS, 7,
					   PACER_RULE_A_PROTO, 17), NULL);
	char path[] = "/tmp/test_rule.XXXXXX", what[128], *said = NULL;
	struct pacer_opts opts = { 0 };
	struct pacer_rule_info rule;
	struct nl_msg *again = NULL;
	struct pacer_msg_dev dev;
	struct capture c;
	FILE *f = NULL;
	int fd, ret = -1;

	memset(&batched, 0, sizeof(batched));
	fd = mkstemp(path);
	if (fd >= 0)
		f = fdopen(fd, "w");
	if (f && msg && !pacer_rule_decode(nlmsg_hdr(msg), &dev, &rule)) {
		/* as "dump" writes it: pacer_rule_dump() on stdout */
		FILE *real = stdout;

		stdout = f;
		pacer_rule_dump(ifname, &rule);
		stdout = real;
	}
	if (f && !fclose(f) && capture_start(&c, &stderr)) {
		ret = pacer_batch(path, false, objects, ARRAY_SIZE(objects),
				  &opts);
		said = capture_end(&c);
	} else if (fd >= 0 && !f) {
		close(fd);
	}
	if (said && *said)
		printf("# %s", said);
	if (!ret && !batched.ret)
		again = message(NULL, &batched.rule);
	snprintf(what, sizeof(what),
		 "dump of a rule of device '%s', run by -b, restores it there",
		 ifname);
	ok(!ret && !strcmp(batched.ifname, ifname) && again &&
	   same_rule(msg, again), what);
	if (strcmp(batched.ifname, ifname))
		printf("# device read back: '%s'\n", batched.ifname);
	free(said);
	nlmsg_free(again);
	nlmsg_free(msg);
	unlink(path);
}

int main(void)
{
	/* "family": sent as PACER_RULE_A_FAMILY; a prefix sends its own */
	sends("dev pacer0 family inet6 class 10", AF_INET6, false, false);
	sends("dev pacer0 family inet proto tcp class 10", AF_INET, false,
	      false);
	sends("dev pacer0 family INET6 class 10", AF_INET6, false, false);
	sends("dev pacer0 src 10.0.0.0/8 class 10", AF_INET, true, false);
	sends("dev pacer0 dst 2001:db8::/32 class 10", AF_INET6, false, true);
	sends("dev pacer0 family inet src 10.0.0.0/8 class 10", AF_INET, true,
	      false);
	sends("dev pacer0 family inet6 src 2001:db8::1 dst ::/0 class 10",
	      AF_INET6, true, true);
	sends("dev pacer0 class 10", -1, false, false);

	/* what is refused, and how */
	refused("dev pacer0 family ipx class 10",
		"invalid family \"ipx\": expected inet (IPv4) or inet6 (IPv6)");
	refused("dev pacer0 family 10 class 10",
		"invalid family \"10\": expected inet (IPv4) or inet6 (IPv6)");
	refused("dev pacer0 family ipv4 class 10", "invalid family \"ipv4\"");
	refused("dev pacer0 family inet src 2001:db8::/32 class 10",
		"family \"inet\" and src \"2001:db8::/32\" are of different families: family inet takes IPv4 prefixes only");
	refused("dev pacer0 dst 10.0.0.1 family inet6 class 10",
		"family \"inet6\" and dst \"10.0.0.1\" are of different families: family inet6 takes IPv6 prefixes only");
	refused("dev pacer0 family inet6 src 2001:db8::1 dst 10.0.0.1 class 10",
		"src \"2001:db8::1\" and dst \"10.0.0.1\" are of different families");
	refused("dev pacer0 family inet family inet class 10",
		"\"family\" is given twice");
	refused("dev pacer0 class 10 family", "\"family\" needs a value");
	refused("dev pacer0 pref 5 family inet", "needs \"class ID\"");
	refused("dev pacer0 class 65536",
		"class \"65536\" is out of range: expected 0 to 65535");
	refused("dev pacer0 class ten",
		"invalid class \"ten\": expected a class id from 0 to 65535");

	/* rules as the kernel reports them */
	reported("family inet6 alone",
		 ATTRS(PACER_RULE_A_PREF, 1, PACER_RULE_A_CLASS, 10,
		       PACER_RULE_A_FAMILY, AF_INET6, PACER_RULE_A_MATCHES, 5),
		 "pref 1 family inet6 class 10 (matches 5)\n",
		 "[{\"pref\":1,\"family\":\"inet6\",\"class\":10,\"matches\":5}]\n",
		 "rule add dev pacer0 pref 1 family inet6 class 10\n");
	reported("family inet with proto and dport",
		 ATTRS(PACER_RULE_A_PREF, 2, PACER_RULE_A_CLASS, 3,
		       PACER_RULE_A_FAMILY, AF_INET, PACER_RULE_A_PROTO, 6,
		       PACER_RULE_A_DPORT_MIN, 80, PACER_RULE_A_DPORT_MAX, 80,
		       PACER_RULE_A_MATCHES, 0),
		 "pref 2 family inet proto tcp dport 80 class 3 (matches 0)\n",
		 "[{\"pref\":2,\"family\":\"inet\",\"proto\":6,\"dport\":\"80\",\"class\":3,\"matches\":0}]\n",
		 "rule add dev pacer0 pref 2 family inet proto 6 dport 80 class 3\n");
	reported("src: the family is the prefix's",
		 ATTRS(PACER_RULE_A_PREF, 3, PACER_RULE_A_CLASS, 4,
		       PACER_RULE_A_FAMILY, AF_INET, PACER_RULE_A_SRC, 4,
		       PACER_RULE_A_SRC_PLEN, 16, PACER_RULE_A_MATCHES, 1),
		 "pref 3 src 10.1.0.0/16 class 4 (matches 1)\n",
		 "[{\"pref\":3,\"src\":\"10.1.0.0/16\",\"class\":4,\"matches\":1}]\n",
		 "rule add dev pacer0 pref 3 src 10.1.0.0/16 class 4\n");
	reported("dst, IPv6: the family is the prefix's",
		 ATTRS(PACER_RULE_A_PREF, 4, PACER_RULE_A_CLASS, 5,
		       PACER_RULE_A_FAMILY, AF_INET6, PACER_RULE_A_DST, 16,
		       PACER_RULE_A_DST_PLEN, 32, PACER_RULE_A_MATCHES, 2),
		 "pref 4 dst 2001:db8::/32 class 5 (matches 2)\n",
		 "[{\"pref\":4,\"dst\":\"2001:db8::/32\",\"class\":5,\"matches\":2}]\n",
		 "rule add dev pacer0 pref 4 dst 2001:db8::/32 class 5\n");
	reported("no criterion: every packet",
		 ATTRS(PACER_RULE_A_PREF, 5, PACER_RULE_A_CLASS, 0,
		       PACER_RULE_A_MATCHES, 7),
		 "pref 5 class 0 (matches 7)\n",
		 "[{\"pref\":5,\"class\":0,\"matches\":7}]\n",
		 "rule add dev pacer0 pref 5 class 0\n");

	/*
	 * A device name may hold any byte but '/', ':' and white space:
	 * also quotes, a '#' and a backslash.
	 */
	dump_restores("pacer0");
	dump_restores("p\"0");
	dump_restores("p'0");
	dump_restores("#p0");
	dump_restores("p\\0");
	dump_restores("p\"'#\\");

	return tap_done("");
}
