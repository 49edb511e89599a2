/* Persistent connections: idle, authenticated connections kept per process (per thread under
 * ZTS) for later RedLock objects and later requests. Plain C, no zvals.
 *
 * A connection is in the pool only while nobody uses it: a RedLock object checks it out on its
 * first command and checks it in when it is freed. Check-in never waits: a READY connection goes
 * in as it is, with the replies it still owes counted and its deadline, and the next user's
 * rl_conn_begin_call() drops those replies as they arrive, or closes it once they are overdue,
 * like any connection of its own. (Waiting at check-in cost every PHP-FPM request up to 25 ms
 * per slow server.) Connecting, broken or closed ones are closed. */
#ifndef RL_POOL_H
#define RL_POOL_H

#include <stddef.h>
#include <stdint.h>
#include "net/rl_conn.h"

#define RL_POOL_DEFAULT_MAX_IDLE 64

typedef struct rl_pool_entry {
	char *key;  /* rl_pool_key() of the endpoint it was opened for */
	rl_conn *conn; /* authenticated and SELECTed for that key */
} rl_pool_entry;

/* Fills 16 bytes with a fresh random secret (a CSPRNG, with a fallback that never fails). */
typedef void (*rl_pool_secret_fn)(unsigned char secret[16]);

typedef struct rl_pool {
	rl_pool_entry *entries; /* oldest first */
	size_t count;
	size_t max_idle;
	uint64_t secret[2];     /* keys the credential hash: a random secret per process */
	rl_pool_secret_fn draw; /* draws it, at init and again in a forked child */
	long owner_pid;         /* a forked child must not share its parent's sockets, nor its secret */
	uint64_t reused;        /* check-outs served from the pool */
	uint64_t discarded;     /* connections closed at check-in or check-out instead of reused */
} rl_pool;

/* draw gives the secret, now and again whenever the pool finds itself in a forked child. */
void rl_pool_init(rl_pool *pool, size_t max_idle, rl_pool_secret_fn draw);

/* Closes every idle connection and frees the pool's memory. */
void rl_pool_destroy(rl_pool *pool);

size_t rl_pool_idle(const rl_pool *pool);

#endif
