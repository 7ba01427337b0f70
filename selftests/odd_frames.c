// SPDX-License-Identifier: GPL-2.0
/*
 * odd_frames: a corpus of hand-built Ethernet frames, sent and checked.
 *
 * Usage:
 *	odd_frames info [-n N]
 *	odd_frames send [-n N] [-b BURST] [-g USEC] IFNAME
 *	odd_frames recv [-n N] [-e shaped|unshaped] [-s] [-t SECS] [-q SECS]
 *			[-r READYFILE] [-T IFNAME [-L]] [-P IFNAME]
 *			[-V IFNAME=TPID:VID[,TPID:VID]]...
 *
 * The corpus is a pure function of -n (frames per large category): the
 * sender writes it with AF_PACKET/SOCK_RAW and the receiver regenerates it
 * to compare.  Each frame's source MAC is 02:0d:SEQ (SEQ: 32 bits, big
 * endian), so even a 14-byte runt can be matched with what was sent.
 * Frames go out in bursts, the large categories round robin and the small
 * ones in two runs of their own (see corpus_index()), so that every
 * category has packets waiting in the shaper at the same time, more than
 * a flow may have queued before it becomes a candidate for a CE mark.
 *
 * What may change on the way, and nothing else (every byte is compared):
 * the ECN field of an IP header that sits where a parser that understands
 * the frame finds it, from ECT(0) or ECT(1) to CE, with the IPv4 header
 * checksum then correct over the whole header.  Each category has a policy:
 *
 *   must    IPv4/IPv6 directly on Ethernet or behind one 802.1Q tag: CE
 *	     allowed, and in a shaped run at least one frame must be marked
 *	     (a fix must not stop marking what pacer has always marked);
 *   may     IPv4/IPv6 behind QinQ (802.1ad + 802.1Q, or 802.1Q + 802.1Q),
 *	     IPv4 with options, IPv6 with an extension-header chain: CE
 *	     allowed if correct, not required (-s: "keep" for the last two);
 *   keep    everything else (MPLS, PPPoE, LLC/SNAP, non-IP ethertypes,
 *	     Not-ECT IPv4, bad version or IHL, truncated headers, runts):
 *	     not one byte may change.
 *
 * A frame must also arrive on the VLAN path (outer and inner VID) it was
 * sent on.  In an unshaped run (-e unshaped) no frame may change at all.
 *
 * Where the receiver looks (see odd_packets.sh for why): frames that the
 * kernel left untagged are caught after the shaper by sockets bound to
 * their ethertype on the plain device (-P; the stack delivers those after
 * tc ingress, so they see the re-injected frame only, and only frames with
 * sll_ifindex of that device count: frames of VLAN devices are delivered
 * to its protocol sockets too); tagged frames by an ETH_P_ALL socket on
 * the VLAN device of their outer tag (-V, with the tags the device has
 * consumed: the receiver puts them back, then the tag the kernel moved to
 * PACKET_AUXDATA).  -T adds an ETH_P_ALL socket on the plain device, whose
 * taps run before tc ingress: there each frame must be seen exactly once.
 * Its copies are compared too, but only reported: packet_rcv() clones, so
 * a copy shares its data with the packet that goes on to the shaper and
 * shows whatever the shaper writes before the copy is read.  -L reads the
 * tap only once the capture is over, which makes that visible for every
 * frame the shaper wrote to.
 *
 * recv stops once every frame has arrived (plus one second for
 * duplicates), after -q seconds without a frame, or after -t seconds.
 *
 * Output: TAP 13, one test per category and a few totals, the first bad
 * frames as hex diffs, and a last line "# summary key=value ..." for the
 * calling script.  Exit 0 if every test passed, 1 otherwise, 2 on usage or
 * setup errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>

#include "ksft.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define FRAME_MAX	2048
#define BIG_MIN		1000	/* frame length of large categories, tags included */
#define BIG_MAX		1400
#define SMALL_MIN	150	/* frames per small category, at least */
#define MAX_TAGS	2
#define MAX_CAPS	16
#define SHOW_MAX	12	/* bad frames shown in full, one per category */
#define ETH_P_EXPER	0x88b5	/* IEEE 802 local experimental ethertype */
#define ECN_MASK	3
#define ECT_1		1
#define ECT_0		2
#define ECN_CE		3

enum policy { POL_MUST, POL_MAY, POL_KEEP };

enum kind {
	K_IPV4, K_IPV6, K_IPV4_OPTS, K_IPV6_EXT, K_IPV4_NOTECT, K_MPLS,
	K_PPPOE, K_LLC, K_NONIP, K_IPV4_BADVER, K_IPV4_BADIHL, K_IPV6_BADVER,
	K_RUNT, K_IPV4_TRUNC, K_IPV4_TRUNC_OPTS, K_IPV6_TRUNC,
};

struct tag {
	uint16_t tpid;
	uint16_t vid;
};

struct category {
	const char *name;
	const char *what;
	enum policy pol;
	enum kind kind;
	bool small;		/* frames under 60 bytes (+ tags), see cat_count() */
	bool optional;		/* a "may" that -s turns into "keep" */
	int ntags;
	struct tag tags[MAX_TAGS];
};

#define Q(v)	{ ETH_P_8021Q, v }
#define AD(v)	{ ETH_P_8021AD, v }
#define CAT(n, w, p, k) .name = n, .what = w, .pol = p, .kind = k

/*
 * Inner VID 10 (0x00a) is what pacer's QinQ bug turns into 11: the low
 * byte of the TCI is where it believes the IPv4 TOS is, and 0x0a has the
 * ECT(0) bits.  Inner VID 42 (0x02a) does the same for IPv6, whose ECN
 * bits it believes in bits 4-5 of the TCI: 42 would become 58.
 */
static const struct category cats[] = {
	{ CAT("eth_ipv4", "IPv4/UDP on Ethernet, ECT(0)", POL_MUST, K_IPV4) },
	{ CAT("eth_ipv6", "IPv6/UDP on Ethernet, ECT(0)", POL_MUST, K_IPV6) },
	{ CAT("vlan_ipv4", "802.1Q 10, IPv4/UDP, ECT(0)", POL_MUST, K_IPV4),
	  .ntags = 1, .tags = { Q(10) } },
	{ CAT("vlan_ipv6", "802.1Q 10, IPv6/UDP, ECT(0)", POL_MUST, K_IPV6),
	  .ntags = 1, .tags = { Q(10) } },
	{ CAT("qinq_ipv4", "802.1ad 5 + 802.1Q 10, IPv4/UDP, ECT(0)",
	      POL_MAY, K_IPV4),
	  .ntags = 2, .tags = { AD(5), Q(10) } },
	{ CAT("qinq_ipv6", "802.1ad 5 + 802.1Q 42, IPv6/UDP, ECT(0)",
	      POL_MAY, K_IPV6),
	  .ntags = 2, .tags = { AD(5), Q(42) } },
	{ CAT("qq_ipv4", "802.1Q 7 + 802.1Q 10, IPv4/UDP, ECT(0)",
	      POL_MAY, K_IPV4),
	  .ntags = 2, .tags = { Q(7), Q(10) } },
	{ CAT("ipv4_opts", "IPv4 with options (IHL 6-15), ECT(0)",
	      POL_MAY, K_IPV4_OPTS),
	  .optional = true },
	{ CAT("ipv6_ext",
	      "IPv6, hop-by-hop/routing/fragment/dest-opts chains, ECT(0)",
	      POL_MAY, K_IPV6_EXT),
	  .optional = true },
	{ CAT("ipv4_notect", "IPv4/UDP on Ethernet, Not-ECT",
	      POL_KEEP, K_IPV4_NOTECT) },
	{ CAT("mpls_ipv4", "MPLS (0x8847), IPv4 ECT(0) inside",
	      POL_KEEP, K_MPLS) },
	{ CAT("pppoe_ipv4", "PPPoE session (0x8864), IPv4 ECT(0) inside",
	      POL_KEEP, K_PPPOE) },
	{ CAT("vlan_mpls", "802.1Q 10, MPLS, IPv4 ECT(0) inside",
	      POL_KEEP, K_MPLS),
	  .ntags = 1, .tags = { Q(10) } },
	{ CAT("qinq_pppoe", "802.1ad 5 + 802.1Q 10, PPPoE, IPv4 ECT(0) inside",
	      POL_KEEP, K_PPPOE),
	  .ntags = 2, .tags = { AD(5), Q(10) } },
	{ CAT("llc_snap", "802.3 length + LLC/SNAP, IPv4 ECT(0) inside",
	      POL_KEEP, K_LLC) },
	{ CAT("nonip", "ethertype 0x88b5, payload shaped like IPv4 ECT(0)",
	      POL_KEEP, K_NONIP) },
	{ CAT("ipv4_badver", "ethertype IPv4, version 0/5/6/7/15, TOS ECT(0)",
	      POL_KEEP, K_IPV4_BADVER) },
	{ CAT("ipv4_badihl", "IPv4, IHL 0-4, TOS ECT(0)",
	      POL_KEEP, K_IPV4_BADIHL) },
	{ CAT("ipv6_badver", "ethertype IPv6, version 0/4/7/15, TC ECT(0)",
	      POL_KEEP, K_IPV6_BADVER) },
	{ CAT("runt", "14-59 byte frames: bare IPv4/IPv6 headers, short 0x88b5",
	      POL_KEEP, K_RUNT),
	  .small = true },
	{ CAT("ipv4_trunc", "IPv4 header cut at 1-19 bytes, ECT(0)",
	      POL_KEEP, K_IPV4_TRUNC),
	  .small = true },
	{ CAT("ipv4_trunc_opts",
	      "IPv4, IHL 6-15, frame ends inside the options, ECT(0)",
	      POL_KEEP, K_IPV4_TRUNC_OPTS),
	  .small = true },
	{ CAT("ipv6_trunc", "IPv6 header cut at 1-39 bytes, ECT(0)",
	      POL_KEEP, K_IPV6_TRUNC),
	  .small = true },
};

#define NCATS	((int)ARRAY_SIZE(cats))

/* A frame of the corpus, or one received and put back together. */
struct frame {
	uint8_t data[FRAME_MAX];
	unsigned int len;
	int ntags;
	struct tag tags[MAX_TAGS + 2];
	int ip_off;		/* where a parser finds IPv4/IPv6, or -1 */
	int ip_ver;
};

/* Per category: what was sent, and what became of it. */
struct tally {
	unsigned int sent, bytes, received, ce, corrupted, wrong_vlan, dup;
	unsigned int pre_seen, pre_dup, pre_changed;
	unsigned int shown;
};

/* Per frame of the corpus. */
struct fate {
	uint16_t cat;
	uint16_t idx;
	uint8_t post;		/* copies seen after the shaper */
	uint8_t pre;		/* copies seen by the -T tap */
};

enum cap_kind { CAP_PLAIN, CAP_VLAN, CAP_TAP };

struct cap {
	int fd;
	int ifindex;
	char name[IFNAMSIZ];
	enum cap_kind kind;
	int ntags;		/* tags the device consumed, outer first */
	struct tag tags[MAX_TAGS];
	uint16_t proto;		/* CAP_PLAIN: the ethertype bound */
};

static unsigned int per_cat = 200;
static bool strict;
static bool shaped = true;
static struct fate *fates;
static unsigned int total;
static struct tally tally[NCATS];

static const uint8_t dst_mac[ETH_ALEN] = { 0x02, 0, 0, 0, 0, 0x02 };
static const uint8_t v4_src[4] = { 198, 18, 0, 1 };
static const uint8_t v4_dst[4] = { 198, 18, 0, 2 };
static const uint8_t v6_src[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
static const uint8_t v6_dst[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 2 };

/* With the reason a failed call left in errno, if any. */
#define fatal(...)	ksft_fatal(errno, __VA_ARGS__)

/* ------------------------------------------------------------- corpus */

static uint32_t rnd(uint32_t *s)
{
	/* xorshift32: deterministic, and the same on both ends. */
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static uint16_t get16(const uint8_t *p)
{
	return p[0] << 8 | p[1];
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += get16(p + i);
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * Small frames need numbers to be at risk at all: a flow is a candidate for
 * a mark only with more than an MTU queued.  150 frames of 15-73 bytes are
 * ~6 KB per category, sent in two bursts (see corpus_index()).
 */
static unsigned int cat_count(int c)
{
	if (!cats[c].small)
		return per_cat;
	return per_cat > SMALL_MIN ? per_cat : SMALL_MIN;
}

/*
 * The send order.  The large categories go round robin, so that each has
 * packets waiting at the same time.  The small ones go in two bursts, at
 * three quarters of the rounds and at the end: one frame a round, a small
 * category would never have an MTU queued (DRR serves a flow an MTU a
 * round, it would get ~50 bytes), so pacer would never consider marking
 * it; in a burst it has a few KB queued, when the class holds the most.
 */
static void corpus_index(void)
{
	unsigned int round, seq = 0, i, from[NCATS] = { 0 };
	int c;

	total = 0;
	for (c = 0; c < NCATS; c++)
		total += cat_count(c);
	fates = calloc(total, sizeof(*fates));
	if (!fates)
		fatal("out of memory");
	for (round = 0; round < per_cat; round++) {
		for (c = 0; c < NCATS; c++)
			if (!cats[c].small) {
				fates[seq].cat = c;
				fates[seq].idx = round;
				seq++;
			}
		if (round != per_cat * 3 / 4 && round != per_cat - 1)
			continue;
		for (c = 0; c < NCATS; c++) {
			unsigned int upto = round == per_cat - 1 ?
					    cat_count(c) : cat_count(c) / 2;

			if (!cats[c].small)
				continue;
			for (i = from[c]; i < upto; i++) {
				fates[seq].cat = c;
				fates[seq].idx = i;
				seq++;
			}
			from[c] = upto;
		}
	}
	if (seq != total)
		fatal("corpus of %u frames, %u indexed", total, seq);
}

static void fill(uint8_t *p, unsigned int len, uint32_t *s)
{
	while (len--)
		*p++ = rnd(s);
}

/* The field is zeroed first: a header can be summed again after a change. */
static void ipv4_csum_set(uint8_t *ip, unsigned int hl)
{
	put16(ip + 10, 0);
	put16(ip + 10, csum_fold(csum_add(0, ip, hl)));
}

/*
 * A UDP datagram of @len bytes, random payload; @pseudo: the sum of the
 * addresses of the IP header, for the checksum.
 */
static void udp(uint8_t *u, unsigned int len, uint16_t sport, uint16_t dport,
		uint32_t pseudo, uint32_t *s)
{
	uint16_t sum;

	put16(u, sport);
	put16(u + 2, dport);
	put16(u + 4, len);
	put16(u + 6, 0);
	fill(u + 8, len - 8, s);
	sum = csum_fold(csum_add(pseudo + IPPROTO_UDP + len, u, len));
	put16(u + 6, sum ? sum : 0xffff);
}

/*
 * The UDP source port: each category's frames are four flows.  pacer
 * signals a flow about once in this corpus (once an episode), and two
 * flows that share a hash bucket share that signal: in four runs on the
 * debug kernel one flow of about 100 had no mark of its own.  A category
 * of one flow (IPv6's were) may go unmarked, and once in CI one did.
 */
static uint16_t flow_port(unsigned int seq)
{
	return 40000 + (seq & 3);
}

/*
 * An IPv4 header of @hl bytes (options: router alert, then NOPs) and a
 * UDP datagram filling @len bytes in all, checksums right.
 */
static void ipv4_udp(uint8_t *p, unsigned int len, unsigned int hl,
		     uint8_t tos, uint16_t id, uint16_t dport, uint32_t *s)
{
	memset(p, 0, hl);
	p[0] = 0x40 | hl / 4;
	p[1] = tos;
	put16(p + 2, len);
	put16(p + 4, id);
	put16(p + 6, 0x4000);		/* DF: a nonzero frag_off */
	p[8] = 64;
	p[9] = IPPROTO_UDP;
	memcpy(p + 12, v4_src, 4);
	memcpy(p + 16, v4_dst, 4);
	if (hl > 20) {
		p[20] = 0x94;		/* router alert */
		p[21] = 4;
		memset(p + 24, 1, hl - 24);	/* NOPs */
	}
	ipv4_csum_set(p, hl);
	udp(p + hl, len - hl, flow_port(id), dport, csum_add(0, p + 12, 8), s);
}

/* IPv6 header, the extension headers @ext (already chained), UDP. */
static void ipv6_udp(uint8_t *p, unsigned int len, uint8_t tc, uint8_t nh,
		     const uint8_t *ext, unsigned int extlen, unsigned int seq,
		     uint16_t dport, uint32_t *s)
{
	p[0] = 0x60 | tc >> 4;
	p[1] = tc << 4;
	p[2] = 0;
	p[3] = 0;
	put16(p + 4, len - 40);
	p[6] = extlen ? nh : IPPROTO_UDP;
	p[7] = 64;
	memcpy(p + 8, v6_src, 16);
	memcpy(p + 24, v6_dst, 16);
	memcpy(p + 40, ext, extlen);
	udp(p + 40 + extlen, len - 40 - extlen, flow_port(seq), dport,
	    csum_add(0, p + 8, 32), s);
}

/*
 * Extension-header chains, ending in UDP: hop-by-hop (PadN), routing
 * (segment routing, one segment, none left), fragment (offset 0, last:
 * an atomic fragment), destination options (PadN).
 */
static unsigned int ipv6_chain(uint8_t *ext, unsigned int variant,
			       uint8_t *first)
{
	static const uint8_t chains[4][5] = {
		{ IPPROTO_HOPOPTS, IPPROTO_UDP },
		{ IPPROTO_HOPOPTS, IPPROTO_DSTOPTS, IPPROTO_ROUTING, IPPROTO_UDP },
		{ IPPROTO_FRAGMENT, IPPROTO_UDP },
		{ IPPROTO_HOPOPTS, IPPROTO_ROUTING, IPPROTO_FRAGMENT,
		  IPPROTO_DSTOPTS, IPPROTO_UDP },
	};
	const uint8_t *ch = chains[variant % 4];
	unsigned int off = 0, i;

	*first = ch[0];
	for (i = 0; ch[i] != IPPROTO_UDP; i++) {
		uint8_t *h = ext + off;

		switch (ch[i]) {
		case IPPROTO_HOPOPTS:
		case IPPROTO_DSTOPTS:
			memset(h, 0, 8);
			h[1] = 0;		/* 8 bytes */
			h[2] = 1;		/* PadN, 4 bytes of padding */
			h[3] = 4;
			off += 8;
			break;
		case IPPROTO_ROUTING:
			memset(h, 0, 24);
			h[1] = 2;		/* 24 bytes */
			h[2] = 4;		/* segment routing */
			h[3] = 0;		/* segments left */
			memcpy(h + 8, v6_dst, 16);
			off += 24;
			break;
		case IPPROTO_FRAGMENT:
			memset(h, 0, 8);
			put16(h + 2, 0);	/* offset 0, M = 0 */
			h[4] = 0x0d;		/* identification */
			h[7] = variant;
			off += 8;
			break;
		}
		h[0] = ch[i + 1];
	}
	return off;
}

/*
 * Frame @seq of the corpus.  Sizes, payloads and header variants come from
 * a generator seeded with the sequence number.
 */
static void corpus_frame(unsigned int seq, struct frame *f)
{
	static const uint8_t bad_v4[] = { 0, 5, 6, 7, 15 };
	static const uint8_t bad_v6[] = { 0, 4, 7, 15 };
	const struct category *c = &cats[fates[seq].cat];
	unsigned int idx = fates[seq].idx, hl, len, l3, cut = 0;
	uint16_t dport = 5000 + fates[seq].cat;
	uint32_t s = seq * 2654435761u + 1;
	uint8_t *p = f->data, ext[64], tmp[128], nh;
	int i;

	rnd(&s);
	memset(f, 0, sizeof(*f));
	f->ip_off = -1;
	memcpy(p, dst_mac, ETH_ALEN);
	p[6] = 0x02;
	p[7] = 0x0d;
	p[8] = seq >> 24;
	p[9] = seq >> 16;
	p[10] = seq >> 8;
	p[11] = seq;
	len = 12;
	f->ntags = c->ntags;
	for (i = 0; i < c->ntags; i++) {
		f->tags[i] = c->tags[i];
		put16(p + len, c->tags[i].tpid);
		put16(p + len + 2, c->tags[i].vid);
		len += 4;
	}
	l3 = len + 2;		/* after the ethertype */
	f->len = c->small ? l3 : BIG_MIN + rnd(&s) % (BIG_MAX - BIG_MIN + 1);
	len = f->len - l3;	/* bytes after the ethertype */

	switch (c->kind) {
	case K_IPV4:
		put16(p + l3 - 2, ETH_P_IP);
		ipv4_udp(p + l3, len, 20, ECT_0, seq, dport, &s);
		f->ip_off = l3;
		f->ip_ver = 4;
		break;
	case K_IPV4_OPTS:
		put16(p + l3 - 2, ETH_P_IP);
		ipv4_udp(p + l3, len, 24 + 4 * (idx % 10), ECT_0, seq, dport, &s);
		f->ip_off = l3;
		f->ip_ver = 4;
		break;
	case K_IPV4_NOTECT:
		put16(p + l3 - 2, ETH_P_IP);
		ipv4_udp(p + l3, len, 20, 0, seq, dport, &s);
		break;
	case K_IPV6:
		put16(p + l3 - 2, ETH_P_IPV6);
		ipv6_udp(p + l3, len, ECT_0, 0, NULL, 0, seq, dport, &s);
		f->ip_off = l3;
		f->ip_ver = 6;
		break;
	case K_IPV6_EXT:
		put16(p + l3 - 2, ETH_P_IPV6);
		hl = ipv6_chain(ext, idx, &nh);
		ipv6_udp(p + l3, len, ECT_0, nh, ext, hl, seq, dport, &s);
		f->ip_off = l3;
		f->ip_ver = 6;
		break;
	case K_MPLS:
		put16(p + l3 - 2, ETH_P_MPLS_UC);
		/* label 100 + idx % 4, TC 0, bottom of stack, TTL 64 */
		p[l3] = 0;
		p[l3 + 1] = (100 + idx % 4) >> 4;
		p[l3 + 2] = (100 + idx % 4) << 4 | 1;
		p[l3 + 3] = 64;
		ipv4_udp(p + l3 + 4, len - 4, 20, ECT_0, seq, dport, &s);
		break;
	case K_PPPOE:
		put16(p + l3 - 2, ETH_P_PPP_SES);
		p[l3] = 0x11;		/* version 1, type 1 */
		p[l3 + 1] = 0;		/* session data */
		put16(p + l3 + 2, 0x1234);
		put16(p + l3 + 4, len - 6);
		put16(p + l3 + 6, 0x0021);	/* PPP: IPv4 */
		ipv4_udp(p + l3 + 8, len - 8, 20, ECT_0, seq, dport, &s);
		break;
	case K_LLC:
		put16(p + l3 - 2, len);	/* 802.3 length */
		memcpy(p + l3, "\xaa\xaa\x03\x00\x00\x00\x08\x00", 8);
		ipv4_udp(p + l3 + 8, len - 8, 20, ECT_0, seq, dport, &s);
		break;
	case K_NONIP:
		put16(p + l3 - 2, ETH_P_EXPER);
		ipv4_udp(p + l3, len, 20, ECT_0, seq, dport, &s);
		break;
	case K_IPV4_BADVER:
		put16(p + l3 - 2, ETH_P_IP);
		ipv4_udp(p + l3, len, 20, ECT_0, seq, dport, &s);
		p[l3] = bad_v4[idx % ARRAY_SIZE(bad_v4)] << 4 | 5;
		ipv4_csum_set(p + l3, 20);
		break;
	case K_IPV4_BADIHL:
		put16(p + l3 - 2, ETH_P_IP);
		ipv4_udp(p + l3, len, 20, ECT_0, seq, dport, &s);
		p[l3] = 0x40 | idx % 5;
		ipv4_csum_set(p + l3, 20);
		break;
	case K_IPV6_BADVER:
		put16(p + l3 - 2, ETH_P_IPV6);
		ipv6_udp(p + l3, len, ECT_0, 0, NULL, 0, seq, dport, &s);
		p[l3] = bad_v6[idx % ARRAY_SIZE(bad_v6)] << 4 | (p[l3] & 15);
		break;
	case K_RUNT:
		/* 14 to 59 bytes: bare headers, short experimental frames */
		switch (idx % 3) {
		case 0:
			put16(p + 12, ETH_P_IP);
			break;
		case 1:
			put16(p + 12, ETH_P_IPV6);
			break;
		default:
			put16(p + 12, ETH_P_EXPER);
			cut = 1 + idx % 45;
			ipv4_udp(tmp, 60, 20, ECT_0, seq, dport, &s);
		}
		break;
	case K_IPV4_TRUNC:
		put16(p + 12, ETH_P_IP);
		cut = 1 + idx % 19;
		ipv4_udp(tmp, 60, 20, ECT_0, seq, dport, &s);
		break;
	case K_IPV4_TRUNC_OPTS:
		put16(p + 12, ETH_P_IP);
		hl = 24 + 4 * (idx % 10);
		cut = 20 + idx % (hl - 20);
		ipv4_udp(tmp, 100, hl, ECT_0, seq, dport, &s);
		break;
	case K_IPV6_TRUNC:
		put16(p + 12, ETH_P_IPV6);
		cut = 1 + idx % 39;
		ipv6_udp(tmp, 60, ECT_0, 0, NULL, 0, seq, dport, &s);
		break;
	}
	/* A small kind built a whole header in tmp: the frame stops inside. */
	if (cut) {
		memcpy(p + 14, tmp, cut);
		f->len = 14 + cut;
	}
}

/* The VLAN tags at the front of a frame, as the stack would walk them. */
static int frame_tags(const uint8_t *d, unsigned int len, struct tag *tags,
		      int max)
{
	unsigned int off = 12;
	int n = 0;

	while (off + 4 <= len && n < max &&
	       (get16(d + off) == ETH_P_8021Q || get16(d + off) == ETH_P_8021AD)) {
		tags[n].tpid = get16(d + off);
		tags[n].vid = get16(d + off + 2) & 0xfff;
		n++;
		off += 4;
	}
	return n;
}

static void path_str(char *buf, size_t size, const struct tag *tags, int n)
{
	int i, o = 0;

	if (!n) {
		snprintf(buf, size, "untagged");
		return;
	}
	for (i = 0; i < n; i++)
		o += snprintf(buf + o, size - o, "%s%s %u", i ? " + " : "",
			      tags[i].tpid == ETH_P_8021AD ? "802.1ad" : "802.1Q",
			      tags[i].vid);
}

/* ----------------------------------------------------------- sockets */

static int ifindex_of(const char *name)
{
	struct ifreq ifr;
	int fd, ret;

	if (strlen(name) >= IFNAMSIZ)
		fatal("interface name too long: %s", name);
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		fatal("socket(AF_PACKET)");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, name);
	ret = ioctl(fd, SIOCGIFINDEX, &ifr);
	close(fd);
	if (ret < 0)
		fatal("no interface %s", name);
	return ifr.ifr_ifindex;
}

/* A packet socket bound to @proto on @ifindex; nothing queued before. */
static int packet_socket(int ifindex, uint16_t proto, bool rx)
{
	struct sockaddr_ll sll = {
		.sll_family = AF_PACKET,
		.sll_protocol = htons(proto),
		.sll_ifindex = ifindex,
	};
	int fd, one = 1, buf = 64 << 20;

	/* Protocol 0: no frame is queued until bind() says which. */
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	if (fd < 0)
		fatal("socket(AF_PACKET)");
	if (rx) {
		if (setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one,
			       sizeof(one)) < 0)
			fatal("PACKET_AUXDATA");
		/* The unshaped run delivers the corpus as fast as it is sent. */
		if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &buf,
			       sizeof(buf)) < 0 &&
		    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &buf, sizeof(buf)) < 0)
			fatal("SO_RCVBUF");
	} else {
		if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &buf,
			       sizeof(buf)) < 0 &&
		    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf)) < 0)
			fatal("SO_SNDBUF");
	}
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		fatal("bind to ifindex %d, protocol 0x%04x", ifindex, proto);
	return fd;
}

/* ------------------------------------------------------------- modes */

static int do_info(void)
{
	unsigned int seq, bytes = 0, n[3] = { 0 };
	struct frame f;

	for (seq = 0; seq < total; seq++) {
		corpus_frame(seq, &f);
		bytes += f.len;
		n[cats[fates[seq].cat].pol]++;
	}
	printf("frames=%u bytes=%u categories=%d must=%u may=%u keep=%u\n",
	       total, bytes, NCATS, n[POL_MUST], n[POL_MAY], n[POL_KEEP]);
	/* Frames per VLAN path, so a script can check the VLAN devices. */
	for (seq = 0; seq < total; seq++)
		if (!fates[seq].idx) {
			const struct category *c = &cats[fates[seq].cat];
			unsigned int k, cnt = 0;

			for (k = 0; k < total; k++) {
				const struct category *o = &cats[fates[k].cat];

				if (o->ntags == c->ntags &&
				    !memcmp(o->tags, c->tags, sizeof(c->tags)))
					cnt++;
			}
			printf("category=%s frames=%u path=", c->name,
			       cat_count(fates[seq].cat));
			if (!c->ntags)
				printf("-");
			for (k = 0; k < (unsigned int)c->ntags; k++)
				printf("%s%u", k ? "." : "", c->tags[k].vid);
			printf(" path_frames=%u\n", cnt);
		}
	return 0;
}

static int do_send(const char *ifname, unsigned int burst, unsigned int gap_us)
{
	struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_halen = ETH_ALEN };
	struct timespec t0, t1, gap = { 0, gap_us * 1000L };
	unsigned int seq, bytes = 0;
	struct frame f;
	int fd;

	to.sll_ifindex = ifindex_of(ifname);
	memcpy(to.sll_addr, dst_mac, ETH_ALEN);
	fd = packet_socket(to.sll_ifindex, 0, false);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (seq = 0; seq < total; seq++) {
		corpus_frame(seq, &f);
		while (sendto(fd, f.data, f.len, 0, (struct sockaddr *)&to,
			      sizeof(to)) != (ssize_t)f.len) {
			/* A full device queue: let it drain, never skip. */
			if (errno != ENOBUFS && errno != EAGAIN)
				fatal("sendto, frame %u (%s, %u bytes)", seq,
				      cats[fates[seq].cat].name, f.len);
			nanosleep(&(struct timespec){ 0, 200000 }, NULL);
		}
		bytes += f.len;
		if (burst && gap_us && (seq + 1) % burst == 0)
			nanosleep(&gap, NULL);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("sent=%u bytes=%u ms=%ld\n", total, bytes,
	       (t1.tv_sec - t0.tv_sec) * 1000 +
	       (t1.tv_nsec - t0.tv_nsec) / 1000000);
	close(fd);
	return 0;
}

/* Receiver state. */
static struct cap caps[MAX_CAPS];
static int ncaps;
static unsigned int unmatched, foreign, truncated, pre_unmatched;
static unsigned int shown;

static void add_cap(const char *name, enum cap_kind kind, uint16_t proto,
		    const struct tag *tags, int ntags)
{
	struct cap *c;

	if (ncaps == MAX_CAPS)
		fatal("too many capture sockets");
	c = &caps[ncaps++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->ifindex = ifindex_of(name);
	c->kind = kind;
	c->proto = proto;
	c->ntags = ntags;
	memcpy(c->tags, tags, ntags * sizeof(*tags));
	c->fd = packet_socket(c->ifindex, kind == CAP_PLAIN ? proto : ETH_P_ALL,
			      true);
}

/* -V NAME=TPID:VID[,TPID:VID] */
static void parse_vlan_cap(char *arg)
{
	struct tag tags[MAX_TAGS];
	char *eq = strchr(arg, '='), *p, *end;
	int n = 0;

	if (!eq)
		fatal("-V %s: want IFNAME=TPID:VID[,TPID:VID]", arg);
	*eq = 0;
	for (p = eq + 1; *p; ) {
		unsigned long tpid, vid;

		if (n == MAX_TAGS)
			fatal("-V: at most %d tags", MAX_TAGS);
		errno = 0;
		tpid = strtoul(p, &end, 16);
		if (*end != ':' || (tpid != ETH_P_8021Q && tpid != ETH_P_8021AD))
			fatal("-V: bad TPID in %s", p);
		vid = strtoul(end + 1, &end, 10);
		if (vid > 4095 || (*end && *end != ','))
			fatal("-V: bad VID in %s", p);
		tags[n].tpid = tpid;
		tags[n].vid = vid;
		n++;
		p = *end ? end + 1 : end;
	}
	if (!n)
		fatal("-V %s: no tag", arg);
	add_cap(arg, CAP_VLAN, 0, tags, n);
}

/* The protocols under which the stack delivers the corpus's untagged frames. */
static void plain_caps(const char *ifname)
{
	static const uint16_t protos[] = {
		ETH_P_IP, ETH_P_IPV6, ETH_P_MPLS_UC, ETH_P_PPP_SES,
		ETH_P_EXPER, ETH_P_802_2,
	};
	unsigned int seq, i;
	struct frame f;

	for (i = 0; i < ARRAY_SIZE(protos); i++)
		add_cap(ifname, CAP_PLAIN, protos[i], NULL, 0);
	/* A frame under a protocol nobody listens to would look lost. */
	for (seq = 0; seq < total; seq++) {
		uint16_t type;

		corpus_frame(seq, &f);
		if (f.ntags)
			continue;
		type = get16(f.data + 12);
		if (type < ETH_P_802_3_MIN)
			type = ETH_P_802_2;
		for (i = 0; i < ARRAY_SIZE(protos); i++)
			if (protos[i] == type)
				break;
		if (i == ARRAY_SIZE(protos))
			fatal("frame %u has ethertype 0x%04x, not captured",
			      seq, type);
	}
}

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void hexrow(const char *label, const uint8_t *d, unsigned int len,
		   unsigned int row, const uint8_t *other, unsigned int olen)
{
	char line[128];
	unsigned int i;
	int o;

	o = snprintf(line, sizeof(line), "  %-4s %04x:", label, row);
	for (i = row; i < row + 16 && i < len; i++)
		o += snprintf(line + o, sizeof(line) - o,
			      i < olen && d[i] == other[i] ? " %02x" : "*%02x",
			      d[i]);
	diag("%s", line);
}

/* Show a bad frame: what differs, then the rows around it in hex. */
static void show_diff(unsigned int seq, const char *what, const struct frame *s,
		      const struct frame *r, const struct cap *cap)
{
	char sp[64], rp[64], list[256];
	unsigned int i, n = 0, rows = 0, last_row = ~0u, max;
	int o = 0;

	if (tally[fates[seq].cat].shown++ || shown++ >= SHOW_MAX)
		return;
	path_str(sp, sizeof(sp), s->tags, s->ntags);
	path_str(rp, sizeof(rp), r->tags, r->ntags);
	max = s->len > r->len ? s->len : r->len;
	for (i = 0; i < max; i++)
		if (i >= s->len || i >= r->len || s->data[i] != r->data[i]) {
			if (n < 12)
				o += snprintf(list + o, sizeof(list) - o,
					      " @%u %02x>%02x", i,
					      i < s->len ? s->data[i] : 0,
					      i < r->len ? r->data[i] : 0);
			n++;
		}
	diag("frame %u (%s #%u), %s: sent %u bytes on %s, got %u bytes on %s via %s",
	     seq, cats[fates[seq].cat].name, fates[seq].idx, what, s->len, sp,
	     r->len, rp, cap->name);
	diag(" %u byte(s) differ (offset sent>got):%s%s", n, list,
	     n > 12 ? " ..." : "");
	for (i = 0; i < max && rows < 4; i++) {
		if (i < s->len && i < r->len && s->data[i] == r->data[i])
			continue;
		if ((i & ~15u) == last_row)
			continue;
		last_row = i & ~15u;
		hexrow("sent", s->data, s->len, last_row, r->data, r->len);
		hexrow("got", r->data, r->len, last_row, s->data, s->len);
		rows++;
	}
}

static bool ipv4_csum_ok(const uint8_t *ip, unsigned int room)
{
	unsigned int hl = (ip[0] & 15) * 4;

	return hl >= 20 && hl <= room && csum_fold(csum_add(0, ip, hl)) == 0;
}

/*
 * Is @r what @s became by a correct CE mark, and nothing else?  The only
 * bytes that may differ: the TOS byte and the checksum of an IPv4 header,
 * the second byte of an IPv6 header (its ECN bits), at the offset where
 * the header really is.
 */
static bool legit_ce(const struct frame *s, const struct frame *r)
{
	unsigned int off = s->ip_off, i;

	if (s->ip_off < 0 || r->len != s->len)
		return false;
	for (i = 0; i < s->len; i++) {
		if (s->data[i] == r->data[i])
			continue;
		if (s->ip_ver == 4 &&
		    (i == off + 1 || i == off + 10 || i == off + 11))
			continue;
		if (s->ip_ver == 6 && i == off + 1)
			continue;
		return false;
	}
	if (s->ip_ver == 4) {
		uint8_t was = s->data[off + 1] & ECN_MASK;

		return (was == ECT_0 || was == ECT_1) &&
		       r->data[off + 1] == (s->data[off + 1] | ECN_CE) &&
		       ipv4_csum_ok(r->data + off, r->len - off);
	}
	{
		uint8_t was = s->data[off + 1] >> 4 & ECN_MASK;

		return (was == ECT_0 || was == ECT_1) &&
		       r->data[off + 1] == (s->data[off + 1] | ECN_CE << 4);
	}
}

static enum policy effective_policy(int c)
{
	if (strict && cats[c].optional)
		return POL_KEEP;
	return cats[c].pol;
}

/* One frame received on @cap: put it back together and judge it. */
static void judge(struct cap *cap, const uint8_t *buf, unsigned int len,
		  const struct tpacket_auxdata *aux)
{
	static struct frame r, s;
	unsigned int seq, off = 12, extra;
	struct tally *t;
	int i, cat;

	if (len < 12) {
		foreign++;
		return;
	}
	memcpy(r.data, buf, 12);
	/*
	 * The tags the VLAN device consumed, outer first, then the one the
	 * kernel moved to the auxdata.  The device's tags come back with the
	 * TCI the corpus uses (priority 0): vlan_do_receive() keeps only the
	 * VID, in the choice of device.
	 */
	for (i = 0; i < cap->ntags; i++) {
		put16(r.data + off, cap->tags[i].tpid);
		put16(r.data + off + 2, cap->tags[i].vid);
		off += 4;
	}
	if (aux && (aux->tp_status & TP_STATUS_VLAN_VALID)) {
		put16(r.data + off, (aux->tp_status & TP_STATUS_VLAN_TPID_VALID) ?
				    aux->tp_vlan_tpid : ETH_P_8021Q);
		put16(r.data + off + 2, aux->tp_vlan_tci);
		off += 4;
	}
	extra = off - 12;
	if (len + extra > sizeof(r.data)) {
		truncated++;
		return;
	}
	memcpy(r.data + off, buf + 12, len - 12);
	r.len = len + extra;
	r.ntags = frame_tags(r.data, r.len, r.tags, MAX_TAGS + 2);

	if (buf[6] != 0x02 || buf[7] != 0x0d) {
		foreign++;
		return;
	}
	seq = (uint32_t)buf[8] << 24 | buf[9] << 16 | buf[10] << 8 | buf[11];
	if (seq >= total) {
		if (cap->kind == CAP_TAP)
			pre_unmatched++;
		else
			unmatched++;
		return;
	}
	cat = fates[seq].cat;
	t = &tally[cat];
	if (cap->kind == CAP_TAP) {
		if (fates[seq].pre++) {
			t->pre_dup++;
			return;
		}
		t->pre_seen++;
		corpus_frame(seq, &s);
		if (r.len != s.len || memcmp(r.data, s.data, s.len)) {
			t->pre_changed++;
			show_diff(seq, "TAP COPY DIFFERS", &s, &r, cap);
		}
		return;
	}
	if (fates[seq].post++) {
		t->dup++;
		return;
	}
	t->received++;
	corpus_frame(seq, &s);
	if (r.ntags != s.ntags ||
	    memcmp(r.tags, s.tags, s.ntags * sizeof(s.tags[0]))) {
		t->wrong_vlan++;
		show_diff(seq, "WRONG VLAN", &s, &r, cap);
		return;
	}
	if (r.len == s.len && !memcmp(r.data, s.data, s.len))
		return;
	/* In an unshaped run a mark is counted here and fails the category. */
	if (effective_policy(cat) != POL_KEEP && legit_ce(&s, &r)) {
		t->ce++;
		if (!shaped)
			show_diff(seq, "CE MARKED (unshaped run)", &s, &r, cap);
		return;
	}
	t->corrupted++;
	show_diff(seq, "CORRUPTED", &s, &r, cap);
}

static bool all_in(bool want_pre)
{
	unsigned int seq;

	for (seq = 0; seq < total; seq++)
		if (!fates[seq].post || (want_pre && !fates[seq].pre))
			return false;
	return true;
}

/* Read and judge what @cap has queued; returns the frames judged. */
static unsigned int drain(struct cap *cap)
{
	static uint8_t buf[FRAME_MAX + 64];
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	} ctl;
	struct sockaddr_ll from;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	unsigned int judged = 0;
	ssize_t n;

	for (;;) {
		const struct tpacket_auxdata *aux = NULL;
		struct cmsghdr *cm;

		msg.msg_name = &from;
		msg.msg_namelen = sizeof(from);
		msg.msg_control = &ctl;
		msg.msg_controllen = sizeof(ctl);
		n = recvmsg(cap->fd, &msg, MSG_DONTWAIT | MSG_TRUNC);
		if (n < 0)
			break;
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
			if (cm->cmsg_level == SOL_PACKET &&
			    cm->cmsg_type == PACKET_AUXDATA)
				aux = (void *)CMSG_DATA(cm);
		if ((size_t)n > sizeof(buf)) {
			truncated++;
			continue;
		}
		/*
		 * Protocol sockets of the plain device also get what its VLAN
		 * devices received (as their orig_dev): those count where
		 * their own socket saw them.
		 */
		if (from.sll_pkttype == PACKET_OUTGOING ||
		    from.sll_ifindex != cap->ifindex)
			continue;
		judge(cap, buf, n, aux);
		judged++;
	}
	if (errno != EAGAIN && errno != EWOULDBLOCK)
		fatal("recvmsg on %s", cap->name);
	return judged;
}

/*
 * @lazy_tap: leave the tap's copies queued until the end, so that every
 * frame pacer marks is marked while its tap copy still waits: a copy that
 * then differs from what was sent shares its data with the packet pacer
 * wrote to.
 */
static void capture(long deadline_ms, long quiet_ms, bool want_pre,
		    bool lazy_tap)
{
	struct pollfd pfd[MAX_CAPS];
	long start = now_ms(), last = 0, done_at = 0, now;
	int i;

	for (i = 0; i < ncaps; i++) {
		/* poll() skips negative descriptors. */
		pfd[i].fd = lazy_tap && caps[i].kind == CAP_TAP ? -1 : caps[i].fd;
		pfd[i].events = POLLIN;
	}
	for (;;) {
		now = now_ms();
		if (now - start >= deadline_ms)
			break;
		if (last && now - last >= quiet_ms)
			break;
		if (done_at && now - done_at >= 1000)
			break;
		if (poll(pfd, ncaps, 100) < 0) {
			if (errno == EINTR)
				continue;
			fatal("poll");
		}
		for (i = 0; i < ncaps; i++)
			if ((pfd[i].revents & POLLIN) && drain(&caps[i]) &&
			    caps[i].kind != CAP_TAP)
				last = now_ms();
		if (!done_at && all_in(want_pre && !lazy_tap))
			done_at = now_ms();
	}
	for (i = 0; i < ncaps; i++)
		if (caps[i].kind == CAP_TAP)
			drain(&caps[i]);
}

static const char *pol_name(enum policy p)
{
	return p == POL_MUST ? "must" : p == POL_MAY ? "may" : "keep";
}

static int report(bool want_pre, bool lazy, const char *tap_name)
{
	unsigned int seq, sum_sent = 0, sum_rx = 0, sum_ce = 0, sum_bad = 0;
	unsigned int sum_vlan = 0, sum_lost = 0, sum_dup = 0, sum_pre = 0;
	unsigned int sum_pre_dup = 0, sum_pre_changed = 0, lost[NCATS] = { 0 };
	unsigned int sum_signal_lost = 0;
	int c, ret;

	for (seq = 0; seq < total; seq++) {
		tally[fates[seq].cat].sent++;
		if (!fates[seq].post)
			lost[fates[seq].cat]++;
	}
	for (c = 0; c < NCATS; c++) {
		struct tally *t = &tally[c];
		enum policy pol = effective_policy(c);
		/*
		 * Shaped, a sender that cannot take a CE mark gets its
		 * congestion signal as a loss: the script checks those
		 * against the class's drops.congestion.
		 */
		bool signal_loss = shaped && cats[c].kind == K_IPV4_NOTECT;
		bool ok = !t->corrupted && !t->wrong_vlan &&
			  (!lost[c] || signal_loss) && !t->dup;

		if (shaped ? pol == POL_MUST && !t->ce : t->ce > 0)
			ok = false;
		tap(ok, "%s [%s%s]: sent %u, received %u, CE %u, corrupted %u, wrong VLAN %u, lost %u, duplicated %u (%s)",
		    cats[c].name, pol_name(pol),
		    shaped && pol == POL_MUST ? ", CE expected" : "",
		    t->sent, t->received, t->ce, t->corrupted, t->wrong_vlan,
		    lost[c], t->dup, cats[c].what);
		sum_sent += t->sent;
		sum_rx += t->received;
		sum_ce += t->ce;
		sum_bad += t->corrupted;
		sum_vlan += t->wrong_vlan;
		sum_lost += lost[c];
		if (signal_loss)
			sum_signal_lost += lost[c];
		sum_dup += t->dup;
		sum_pre += t->pre_seen;
		sum_pre_dup += t->pre_dup;
		sum_pre_changed += t->pre_changed;
	}
	tap(!unmatched && !truncated,
	    "no frame unmatched (%u: source MAC 02:0d but a sequence number never sent) or truncated (%u); %u foreign frames ignored",
	    unmatched, truncated, foreign);
	if (want_pre) {
		tap(sum_pre == total && !sum_pre_dup && !pre_unmatched,
		    "tap on %s (before tc ingress): %u of %u frames, each once (%u seen twice or more, %u unmatched)",
		    tap_name, sum_pre, total, sum_pre_dup, pre_unmatched);
		/*
		 * Not a test: the tap's copy shares its data with the packet
		 * that goes on to pacer (packet_rcv() clones), so it shows
		 * whatever pacer writes before it is read.
		 */
		diag("tap copies that differ from what was sent when read: %u%s",
		     sum_pre_changed, lazy ? " (read after the capture: -L)" : "");
	}
	if (shaped)
		tap(sum_ce > 0, "CE marks seen in the shaped run: %u", sum_ce);
	else
		tap(!sum_ce, "no CE mark in the unshaped run: %u", sum_ce);
	ret = ksft_finish();
	printf("# summary sent=%u received=%u ce=%u corrupted=%u wrong_vlan=%u lost=%u signal_lost=%u dup=%u unmatched=%u pre_seen=%u pre_dup=%u pre_changed=%u",
	       sum_sent, sum_rx, sum_ce, sum_bad, sum_vlan, sum_lost,
	       sum_signal_lost, sum_dup, unmatched + truncated, sum_pre,
	       sum_pre_dup, sum_pre_changed);
	for (c = 0; c < NCATS; c++)
		printf(" %s=%u/%u/%u/%u/%u", cats[c].name, tally[c].received,
		       tally[c].ce, tally[c].corrupted, tally[c].wrong_vlan,
		       lost[c]);
	printf("\n");
	return ret;
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"Usage: odd_frames info [-n N]\n"
		"       odd_frames send [-n N] [-b BURST] [-g USEC] IFNAME\n"
		"       odd_frames recv [-n N] [-e shaped|unshaped] [-s] [-t SECS] [-q SECS]\n"
		"                       [-r READYFILE] [-T IFNAME [-L]] [-P IFNAME]\n"
		"                       [-V IFNAME=TPID:VID[,TPID:VID]]...\n");
	exit(KSFT_ERROR);
}

int main(int argc, char **argv)
{
	unsigned int burst = 32, gap_us = 1000;
	long deadline = 120, quiet = 5;
	const char *mode, *ready = NULL, *tap_if = NULL, *plain = NULL;
	char *vlans[MAX_CAPS];
	int opt, nvlans = 0, i;
	bool lazy = false;

	ksft_init("odd_frames");
	if (argc < 2)
		usage();
	mode = argv[1];
	argv++;
	argc--;
	while ((opt = getopt(argc, argv, "n:b:g:e:st:q:r:T:LP:V:")) != -1) {
		switch (opt) {
		case 'n':
			per_cat = strtoul(optarg, NULL, 10);
			if (per_cat < 1 || per_cat > 60000)
				fatal("-n: 1 to 60000");
			break;
		case 'b':
			burst = strtoul(optarg, NULL, 10);
			break;
		case 'g':
			gap_us = strtoul(optarg, NULL, 10);
			break;
		case 'e':
			if (!strcmp(optarg, "shaped"))
				shaped = true;
			else if (!strcmp(optarg, "unshaped"))
				shaped = false;
			else
				usage();
			break;
		case 's':
			strict = true;
			break;
		case 't':
			deadline = strtol(optarg, NULL, 10);
			break;
		case 'q':
			quiet = strtol(optarg, NULL, 10);
			break;
		case 'r':
			ready = optarg;
			break;
		case 'T':
			tap_if = optarg;
			break;
		case 'L':
			lazy = true;
			break;
		case 'P':
			plain = optarg;
			break;
		case 'V':
			if (nvlans == MAX_CAPS)
				fatal("too many -V");
			vlans[nvlans++] = optarg;
			break;
		default:
			usage();
		}
	}
	errno = 0;
	corpus_index();

	if (!strcmp(mode, "info")) {
		if (optind != argc)
			usage();
		return do_info();
	}
	if (!strcmp(mode, "send")) {
		if (optind != argc - 1)
			usage();
		return do_send(argv[optind], burst, gap_us);
	}
	if (strcmp(mode, "recv") || optind != argc)
		usage();

	if (plain)
		plain_caps(plain);
	for (i = 0; i < nvlans; i++)
		parse_vlan_cap(vlans[i]);
	if (tap_if)
		add_cap(tap_if, CAP_TAP, 0, NULL, 0);
	if (!ncaps)
		fatal("recv: nothing to capture on (-P, -V, -T)");
	if (ready) {
		int fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0)
			fatal("%s", ready);
		close(fd);
	}
	ksft_print_header();
	diag("corpus: %d categories, %u frames (%u per large category); %s run%s",
	     NCATS, total, per_cat, shaped ? "shaped" : "unshaped",
	     strict ? ", strict" : "");
	capture(deadline * 1000, quiet * 1000, tap_if != NULL, lazy);
	return report(tap_if != NULL, lazy, tap_if ? tap_if : "");
}
