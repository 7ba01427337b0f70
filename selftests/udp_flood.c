// SPDX-License-Identifier: GPL-2.0
/*
 * udp_flood: small UDP datagrams from a socket, flat out, from one CPU.
 *
 * Usage:
 *	udp_flood CPU SRC_PORT DST_ADDR[-LAST_ADDR] DST_PORT SECS
 *
 * Pinned to CPU, it sends 18-byte datagrams (60-byte frames, as pktgen's
 * "pkt_size 60") from SRC_PORT to DST_ADDR:DST_PORT with sendmmsg(), 64 a
 * call, for SECS seconds, and prints how many went out.  With a range of
 * addresses the datagrams go to each in turn (a packet for each of many
 * classes, from one process).  Unlike pktgen,
 * which holds a reference to every packet while the receive path it sets
 * off runs, a socket's packets are nobody else's: the receiver's IP layer
 * need not clone them, as with a NIC's.  The socket is not connected, so
 * the ICMP errors a closed port answers with do not stop it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ksft.h"

#define BATCH		64
#define PAYLOAD		18

int main(int argc, char **argv)
{
	static char payload[PAYLOAD];
	struct sockaddr_in src = { .sin_family = AF_INET };
	static struct sockaddr_in dst[BATCH];
	struct mmsghdr msgs[BATCH];
	struct iovec iov = { .iov_base = payload, .iov_len = PAYLOAD };
	long long end, sent = 0, refused = 0;
	struct in_addr first, last;
	long cpu, secs, port;
	uint32_t addr;
	char *dash;
	cpu_set_t set;
	int fd, i, n;

	ksft_init("udp_flood");
	if (argc != 6)
		ksft_fatal(0, "usage: udp_flood CPU SRC_PORT DST_ADDR[-LAST_ADDR] DST_PORT SECS");
	cpu = ksft_arg(argv[1], "CPU", 0, CPU_SETSIZE - 1);
	src.sin_port = htons(ksft_arg(argv[2], "SRC_PORT", 1, 65535));
	dash = strchr(argv[3], '-');
	if (dash)
		*dash = '\0';
	if (inet_pton(AF_INET, argv[3], &first) != 1)
		ksft_fatal(0, "DST_ADDR: \"%s\" is not an IPv4 address",
			   argv[3]);
	last = first;
	if (dash && (inet_pton(AF_INET, dash + 1, &last) != 1 ||
		     ntohl(last.s_addr) < ntohl(first.s_addr)))
		ksft_fatal(0, "LAST_ADDR: \"%s\" is not an IPv4 address at or above %s",
			   dash + 1, argv[3]);
	port = ksft_arg(argv[4], "DST_PORT", 1, 65535);
	secs = ksft_arg(argv[5], "SECS", 1, 3600);

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		ksft_fatal(errno, "pinning to CPU %ld", cpu);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		ksft_fatal(errno, "socket");
	if (bind(fd, (struct sockaddr *)&src, sizeof(src)))
		ksft_fatal(errno, "binding to port %s", argv[2]);

	memset(msgs, 0, sizeof(msgs));
	/* Every datagram the same: one payload, one iovec. */
	for (i = 0; i < BATCH; i++) {
		dst[i].sin_family = AF_INET;
		dst[i].sin_port = htons(port);
		msgs[i].msg_hdr.msg_name = &dst[i];
		msgs[i].msg_hdr.msg_namelen = sizeof(dst[i]);
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}

	end = ksft_now_ns() + secs * 1000000000LL;
	addr = ntohl(first.s_addr);
	while (ksft_now_ns() < end) {
		for (i = 0; i < BATCH; i++) {
			dst[i].sin_addr.s_addr = htonl(addr);
			addr = addr == ntohl(last.s_addr) ? ntohl(first.s_addr) :
							    addr + 1;
		}
		n = sendmmsg(fd, msgs, BATCH, 0);
		if (n > 0) {
			sent += n;
			continue;
		}
		/* A full queue on the way: the flood goes on. */
		if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR)
			continue;
		/* An ICMP error may still reach an unconnected socket. */
		if (errno == ECONNREFUSED) {
			refused++;
			continue;
		}
		ksft_fatal(errno, "sendmmsg to %s:%s", argv[3], argv[4]);
	}
	close(fd);
	printf("sent %lld refused %lld\n", sent, refused);
	return 0;
}
