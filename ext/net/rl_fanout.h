/* Sends one command to every server of a cluster at once and gathers the votes, deciding as soon
 * as the quorum is won or lost. All waiting happens in one poll() loop. No zvals. */
#ifndef RL_FANOUT_H
#define RL_FANOUT_H

#include "net/rl_cluster.h"
#include "protocol/rl_request.h"


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
void rl_fanout_bind(rl_cluster *cluster, rl_lock_io *io);

#endif
