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

/* Runs n requests (plain commands, no batch or natives of their own) on every server in one round
 * trip: pipelined in one write per server, each reply the vote of its own request, or of spread rows
 * (rl_request.spread: a request that answers for several, each row judged on its own). Row r's
 * outcomes are outcomes[r * count .. r * count + count) and its yes votes votes[r], the rows in the
 * requests' order (one per request, spread for a spread request); each is judged
 * as rl_fanout_run judges one (the eviction guard on every vote), and the call waits until every
 * request's quorum is decided and every member a healing request awaits has answered, within
 * deadline_ms. A server that fails or times out fails every request it had not answered. 0, or -1
 * when out of memory (nothing sent). Sentinel members: use rl_fanout_run. */
int rl_fanout_run_many(rl_cluster *cluster, const rl_request *requests, unsigned n, unsigned quorum,
	double deadline_ms, rl_outcome *outcomes, unsigned *votes);

/* Reads and drops stale replies until until_ms: a sleep that keeps the connections in step. */
void rl_fanout_drain_until(rl_cluster *cluster, double until_ms);

/* Points io's run, send, pause and now at this cluster (io->random stays the caller's). */
void rl_fanout_bind(rl_cluster *cluster, rl_lock_io *io);

#endif
