/* Sends one command to every server at once and gathers the votes, deciding as soon as the
 * quorum is won or lost. All waiting happens in one poll() loop. No zvals. */
#ifndef RL_FANOUT_H
#define RL_FANOUT_H

#include "rl_conn.h"
#include "rl_pool.h"
#include "rl_reply.h"

typedef struct rl_command {
	int argc;
	const char **argv;
	const size_t *argvlen;
} rl_command;

typedef struct rl_cluster {
	size_t count;
	rl_endpoint *endpoints;
	rl_conn *conns;
	/* Pipelined after every new connect (after the endpoint's AUTH/SELECT, whose replies are
	 * checked), ahead of the first command; their replies are dropped. */
	const rl_command *greeting;
	size_t greeting_count;
	rl_pool *pool; /* where connections come from and go back to; NULL: private connections */
	long owner_pid; /* the process the connections were opened in (see rl_process_id) */
} rl_cluster;

/* One server as parsed from the PHP side. Strings need not be NUL-terminated; NULL = absent. */
typedef struct rl_endpoint_spec {
	const char *host;
	size_t host_len;
	int port;
	double timeout_ms;
	const char *username;
	size_t username_len;
	const char *password;
	size_t password_len;
	int database;
} rl_endpoint_spec;

typedef struct rl_request {
	rl_command command;
	rl_command fallback; /* sent after a NOSCRIPT error (EVAL for EVALSHA); argc 0 when none */
	rl_expect expect;
	/* 0: stop as soon as the quorum is won or lost. 1: once won, keep reading until every server
	 * answered, failed or timed out (validity() needs every PTTL); still stops when lost. */
	int wait_all;
} rl_request;

/* Allocates count endpoints and connections (hosts are copied). NULL on allocation failure. */
rl_cluster *rl_cluster_create(size_t count);
/* Copies spec into endpoint index. Returns 0, or -1 when out of memory. */
int rl_cluster_set_endpoint_spec(rl_cluster *cluster, size_t index, const rl_endpoint_spec *spec);

/* Takes connections from pool and gives them back to it on destroy. Returns 0, or -1 when out
 * of memory (the cluster then keeps private connections). */
int rl_cluster_use_pool(rl_cluster *cluster, rl_pool *pool);

/* How long unlock()/validity()/extend() may wait in all: the largest server timeout, a server
 * without one (timeout 0, "no limit") counting as RL_DEFAULT_CALL_BOUND_MS. */
#define RL_DEFAULT_CALL_BOUND_MS 1000.0
double rl_cluster_call_bound(const rl_cluster *cluster);

/* Closes the connections, or checks them in to the pool, and frees everything. */
void rl_cluster_destroy(rl_cluster *cluster);

/* Runs request on every server. Fills outcomes[count]; servers undecided when the quorum was
 * settled stay RL_OUTCOME_PENDING and their replies are dropped by the next call. Gives up on
 * the whole call at deadline_ms (absolute, rl_now_ms clock; 0 = none). Returns the yes votes. */
unsigned rl_fanout_run(rl_cluster *cluster, const rl_request *request, unsigned quorum,
	double deadline_ms, rl_outcome *outcomes);

/* Queues command everywhere it can and sends it without waiting for replies. */
void rl_fanout_send(rl_cluster *cluster, const rl_command *command);

/* Reads and drops stale replies until until_ms: a sleep that keeps the connections in step. */
void rl_fanout_drain_until(rl_cluster *cluster, double until_ms);

/* Points io's run, send, pause and now at this cluster (io->random stays the caller's). */
struct rl_lock_io;
void rl_fanout_bind(rl_cluster *cluster, struct rl_lock_io *io);

#endif
