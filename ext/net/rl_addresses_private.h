/* What rl_resolve.c and rl_addresses.c share (and verify/unit/resolve_test.c, which includes both): the
 * address list's layout and how one is made. Not for the connection layer: it uses rl_net_private.h. */
#ifndef RL_ADDRESSES_PRIVATE_H
#define RL_ADDRESSES_PRIVATE_H

#include <stddef.h>
#ifdef _WIN32
# include <winsock2.h>
# include <ws2tcpip.h>
#else
# include <netdb.h>
# include <netinet/in.h>
# include <sys/socket.h>
#endif
#include "net/rl_resolve.h"

typedef struct rl_sockaddr {
	socklen_t len;
	union {
		struct sockaddr any;
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} u;
} rl_sockaddr;

struct rl_addresses {
	unsigned refs;        /* under g_lock when shared */
	unsigned char shared; /* 0: one owner (a numeric address), released without the lock */
	size_t count;
	rl_sockaddr items[];
};

/* getaddrinfo()'s list as we try it (see rl_addresses.c), with port set on each. NULL when it holds
 * no IPv4/IPv6 address, or out of memory. */
rl_addresses *rl_addresses_from(const struct addrinfo *list, int port, int shared);

/* Addresses that need no lookup: 1 with *out (not shared), 0 when host is a name, -1 out of memory. */
int rl_addresses_numeric(const char *host, int port, rl_addresses **out);

/* "127.0.0.1", "::1": an address without its port, for messages (verify/unit/resolve_test.c's). */
void rl_address_text(const struct sockaddr *address, char *buf, size_t size);

/* rl_resolve.c's mutex: guards the reference counts of shared lists. */
void rl_resolve_lock(void);
void rl_resolve_unlock(void);

#endif
