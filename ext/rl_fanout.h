/* Sends one command to every server of a cluster at once and gathers the votes, deciding as soon
 * as the quorum is won or lost. All waiting happens in one poll() loop. No zvals. */
#ifndef RL_FANOUT_H
#define RL_FANOUT_H

#include "rl_cluster.h"
#include "rl_reply.h"



typedef struct rl_request {
	rl_command command;
	rl_command fallback; /* sent after a NOSCRIPT error (EVAL for EVALSHA); argc 0 when none */
	rl_expect expect;
	/* Optional, for votes that are not plain yes/no (a semaphore's slots): whether the outcomes so
	 * far (PENDING for servers still out) leave the call undecided. NULL: until the quorum of yes
	 * votes is won or lost. */
	int (*undecided)(const rl_outcome *outcomes, size_t count, unsigned quorum);
	/* Sent instead of command to a connection whose server has it (rl_conn.h RL_NATIVE_*): [0] for
	 * DELEX, [1] for DELIFEQ; argc 0 when none. Same expect, no fallback. */
	rl_command native[2];
} rl_request;

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
