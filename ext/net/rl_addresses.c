/* Lists of socket addresses: built from getaddrinfo()'s answer in the order we try them, or at once
 * for numeric addresses and localhost; reference-counted. See rl_addresses_private.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/rl_platform.h"
#include "net/rl_resolve.h"
#include "net/rl_addresses_private.h"
#include "net/rl_net_private.h"

#ifdef _WIN32
# include <winsock2.h>
# include <ws2tcpip.h>
#else
# include <arpa/inet.h>
# include <netdb.h>
# include <netinet/in.h>
#endif

/* count slots, one reference. shared: released under rl_resolve_lock() (the cache hands it out). */
static rl_addresses *rl_addresses_new(size_t count, int shared)
{
	rl_addresses *a = malloc(sizeof(*a) + count * sizeof(a->items[0]));

	if (a != NULL) {
		a->refs = 1;
		a->shared = (unsigned char) shared;
		a->count = 0;
	}
	return a;
}

/* Whatever port a test resolver (or NSS module) put there, ours is the one asked for. */
static void set_port(rl_sockaddr *s, int port)
{
	if (s->u.any.sa_family == AF_INET) {
		s->u.v4.sin_port = htons((unsigned short) port);
	} else {
		s->u.v6.sin6_port = htons((unsigned short) port);
	}
}

/* ip (an in_addr for AF_INET, an in6_addr for AF_INET6) and port into the next slot. */
static void add(rl_addresses *a, int family, const void *ip, int port)
{
	rl_sockaddr *s = &a->items[a->count++];

	memset(s, 0, sizeof(*s));
	if (family == AF_INET) {
		s->len = sizeof(s->u.v4);
		memcpy(&s->u.v4.sin_addr, ip, sizeof(s->u.v4.sin_addr));
	} else {
		s->len = sizeof(s->u.v6);
		memcpy(&s->u.v6.sin6_addr, ip, sizeof(s->u.v6.sin6_addr));
	}
	s->u.any.sa_family = family;
	set_port(s, port);
}

static int same_address(const struct addrinfo *a, const struct addrinfo *b)
{
	return a->ai_family == b->ai_family && a->ai_addrlen == b->ai_addrlen
		&& memcmp(a->ai_addr, b->ai_addr, a->ai_addrlen) == 0;
}

/* getaddrinfo()'s list as we try it: its first address first (the system's preference, RFC
 * 6724), then the two families taking turns, so that a family that does not work here (no IPv6
 * route, a server listening on IPv4 only) costs one attempt, not every address of that family. */
rl_addresses *rl_addresses_from(const struct addrinfo *list, int port, int shared)
{
	const struct addrinfo *by_family[2][RL_RESOLVE_MAX_ADDRESSES];
	size_t n[2] = {0, 0}, taken[2] = {0, 0}, k;
	const struct addrinfo *p;
	rl_addresses *a;
	int turn = -1;

	for (p = list; p != NULL && n[0] + n[1] < RL_RESOLVE_MAX_ADDRESSES; p = p->ai_next) {
		int fam = p->ai_family == AF_INET6 ? 1 : 0;
		int duplicate = 0;

		if ((p->ai_family != AF_INET && p->ai_family != AF_INET6) || p->ai_addr == NULL
			|| p->ai_addrlen > sizeof(((rl_sockaddr *) 0)->u)) {
			continue;
		}
		for (k = 0; k < n[fam] && !duplicate; k++) {
			duplicate = same_address(by_family[fam][k], p);
		}
		if (!duplicate) {
			by_family[fam][n[fam]++] = p;
			turn = turn < 0 ? fam : turn;
		}
	}
	if (turn < 0 || (a = rl_addresses_new(n[0] + n[1], shared)) == NULL) {
		return NULL;
	}
	while (taken[0] < n[0] || taken[1] < n[1]) {
		if (taken[turn] < n[turn]) {
			const struct addrinfo *ai = by_family[turn][taken[turn]++];
			rl_sockaddr *s = &a->items[a->count++];

			memset(s, 0, sizeof(*s));
			memcpy(&s->u, ai->ai_addr, ai->ai_addrlen);
			s->len = (socklen_t) ai->ai_addrlen;
			set_port(s, port);
		}
		turn = !turn;
	}
	return a;
}

static int ascii_equal_nocase(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char x = (char) (*a >= 'A' && *a <= 'Z' ? *a + 32 : *a);
		if (x != *b) {
			return 0;
		}
	}
	return *a == *b;
}

/* Digits and dots only ("127.1", "10.0.0.1.") or a colon (IPv6 with a scope, "fe80::1%eth0"):
 * no DNS name looks like that, so getaddrinfo(AI_NUMERICHOST) settles it without a lookup. */
static int looks_numeric(const char *host)
{
	const char *c;

	if (strchr(host, ':') != NULL) {
		return 1;
	}
	for (c = host; *c; c++) {
		if (!((*c >= '0' && *c <= '9') || *c == '.')) {
			return 0;
		}
	}
	return host[0] != '\0';
}

/* Addresses that need no lookup: 1 with *out, 0 when host is a name, -1 out of memory. The hot
 * path (benchmarks and most setups use "127.0.0.1"): inet_pton and one malloc, no syscall.
 * "localhost" is the loopback addresses without asking anyone (RFC 6761, 6.3): IPv4 first, as
 * a default redis-server listens there, then ::1; each is tried, whatever /etc/hosts says. */
int rl_addresses_numeric(const char *host, int port, rl_addresses **out)
{
	struct in_addr v4;
	struct in6_addr v6;
	int is_v4 = inet_pton(AF_INET, host, &v4) == 1;

	if (is_v4 || (strchr(host, ':') != NULL && inet_pton(AF_INET6, host, &v6) == 1)) {
		if ((*out = rl_addresses_new(1, 0)) == NULL) {
			return -1;
		}
		add(*out, is_v4 ? AF_INET : AF_INET6, is_v4 ? (const void *) &v4 : (const void *) &v6, port);
		return 1;
	}
	if (ascii_equal_nocase(host, "localhost") || ascii_equal_nocase(host, "localhost.")) {
		if ((*out = rl_addresses_new(2, 0)) == NULL) {
			return -1;
		}
		v4.s_addr = htonl(INADDR_LOOPBACK);
		add(*out, AF_INET, &v4, port);
		add(*out, AF_INET6, &in6addr_loopback, port);
		return 1;
	}
	if (looks_numeric(host)) {
		struct addrinfo hints, *list = NULL;

		memset(&hints, 0, sizeof(hints));
		hints.ai_family = AF_UNSPEC;
		hints.ai_socktype = SOCK_STREAM;
		hints.ai_flags = AI_NUMERICHOST;
		if (getaddrinfo(host, NULL, &hints, &list) == 0) {
			*out = rl_addresses_from(list, port, 0);
			freeaddrinfo(list);
			return *out != NULL ? 1 : -1;
		}
		/* Not an address after all ("1.2.3.4.5"): the resolver says what it is. */
	}
	return 0;
}

size_t rl_addresses_count(const rl_addresses *a)
{
	return a->count;
}

const struct sockaddr *rl_addresses_get(const rl_addresses *a, size_t i, socklen_t *len)
{
	if (i >= a->count) {
		return NULL;
	}
	*len = a->items[i].len;
	return &a->items[i].u.any;
}

void rl_addresses_release(rl_addresses *a)
{
	int last;

	if (a == NULL) {
		return;
	}
	if (!a->shared) {
		free(a);
		return;
	}
	rl_resolve_lock();
	last = --a->refs == 0;
	rl_resolve_unlock();
	if (last) {
		free(a);
	}
}

void rl_address_text(const struct sockaddr *address, char *buf, size_t size)
{
	const void *ip = address->sa_family == AF_INET6 ? (const void *) &((const struct sockaddr_in6 *) address)->sin6_addr
		: (const void *) &((const struct sockaddr_in *) address)->sin_addr;

	if (size == 0) {
		return;
	}
	if (inet_ntop(address->sa_family, ip, buf, (socklen_t) size) == NULL) {
		snprintf(buf, size, "?");
	}
}
