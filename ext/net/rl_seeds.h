/* The servers a learnt member asks where to go: a Sentinel member's sentinels (rl_sentinel.h), a
 * Cluster member's seeds (rl_shards.h). One endpoint each, all with the same credentials, timeout and
 * TLS. No zvals. */
#ifndef RL_SEEDS_H
#define RL_SEEDS_H

#include <stddef.h>
#include "net/rl_conn.h"

/* As parsed from the PHP side. Strings NUL-terminated; NULL = absent. */
typedef struct rl_seeds_spec {
	size_t count;
	const char *const *hosts;
	const int *ports;
	const char *username;
	const char *password;
	double timeout_ms;
	const rl_tls_config *tls; /* NULL: plain TCP */
} rl_seeds_spec;

/* spec's endpoints (calloc'd, one at least): NULL when out of memory. */
rl_endpoint *rl_seeds_create(const rl_seeds_spec *spec);

/* Frees count endpoints of rl_seeds_create (seeds may be NULL). */
void rl_seeds_free(rl_endpoint *seeds, size_t count);

/* "host:port,...,host:port" ([host] for IPv6), malloc'd with room for extra bytes more, its length in
 * *at: NULL when out of memory. */
char *rl_seeds_identity(const rl_endpoint *seeds, size_t count, size_t extra, size_t *at);

/* The spec seeds were made from, for a copy: hosts and ports (RL_URI_SENTINELS_MAX each) are the
 * caller's, the strings seeds'. */
void rl_seeds_spec_of(const rl_endpoint *seeds, size_t count, const char **hosts, int *ports, rl_seeds_spec *spec);

#endif
