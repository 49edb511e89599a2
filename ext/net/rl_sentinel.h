/* A member managed by Redis Sentinel: its sentinels, the master's name, and the master's address
 * learnt from them (SENTINEL GET-MASTER-ADDR-BY-NAME), cached in the member's endpoint until the
 * master fails. The rules (when to ask again, why a replica never votes) are argued in
 * docs/design/sentinel.md. No zvals; the sentinels' sockets are rl_conn's. */
#ifndef RL_SENTINEL_H
#define RL_SENTINEL_H

#include <stddef.h>
#include "net/rl_conn.h"
#include "net/rl_seeds.h"

/* One member as parsed from the PHP side. Strings NUL-terminated; NULL = absent. */
typedef struct rl_sentinel_spec {
	rl_seeds_spec sentinels;  /* their ACL user and password, not the master's; their timeout and TLS the
	                           * master's (sentinels://) */
	const char *master_name;
} rl_sentinel_spec;

typedef enum {
	RL_SENTINEL_UNRESOLVED = 0, /* never asked: a pooled connection to the member may serve first */
	RL_SENTINEL_RESOLVED,       /* the endpoint's host and port are the master's */
	RL_SENTINEL_STALE           /* the master failed us: ask before the next connection, pooled or not */
} rl_sentinel_state;

typedef struct rl_sentinel {
	size_t count;
	rl_endpoint *sentinels; /* host, port, timeout, the sentinels' credentials and TLS */
	char *master_name;
	char *identity;         /* "host:port,host:port/NAME": pool key, description, duplicates */
	rl_sentinel_state state;
	/* After every sentinel failed, the member fails at once with the same reason until then, rather
	 * than make each call wait for silent sentinels again (rl_now_ms clock). */
	double quiet_until;
	char failure[RL_MESSAGE_MAX];
} rl_sentinel;

#define RL_SENTINEL_RETRY_MS 1000.0

/* NULL when out of memory. */
rl_sentinel *rl_sentinel_create(const rl_sentinel_spec *spec);
void rl_sentinel_free(rl_sentinel *sentinel);

/* Whether pooled connections may serve the member: not once its master failed it (they may lead there). */
static inline int rl_sentinel_pool_ok(const rl_endpoint *endpoint)
{
	return endpoint->sentinel == NULL || endpoint->sentinel->state != RL_SENTINEL_STALE;
}

/* At the start of a call, rl_conn_begin_call closed the member's connection: the server closed it
 * (Sentinel closes the clients of a master it demotes), or it was out of step: the member asks again. */
static inline void rl_sentinel_note_closed(rl_endpoint *endpoint)
{
	if (endpoint->sentinel != NULL) {
		endpoint->sentinel->state = RL_SENTINEL_STALE;
	}
}

#endif
