/* What rl_client.c (acquisition) and rl_client_held.c (release, extend, validity) share: lending a
 * call its lane, the record every call ends with, what a round trip teaches the object. Private to
 * client/. */
#ifndef RL_CLIENT_PRIVATE_H
#define RL_CLIENT_PRIVATE_H

#include "client/rl_client.h"

/* A call starts: the object's own lane, unless another call (a suspended coroutine's) holds it.
 * NULL when out of memory. */
rl_lane *rl_client_lend(rl_client *client);
/* The call ended: its votes become the object's "last call" (getLastErrors(), the observer). */
void rl_client_give_back(rl_client *client, rl_lane *lane);

/* The tracked locks, made on first use. NULL when out of memory. */
rl_leases *rl_client_leases_of(rl_client *client);

/* Not done: "taken" when the servers that said so alone leave no quorum possible, else failed. */
rl_call_outcome rl_client_refused(const rl_client *client, const rl_lane *lane, rl_call_outcome taken);
/* The record of the call, and the per-process counters: the one place every call ends. */
void rl_client_finish(rl_client *client, rl_lane *lane, rl_call_op op, rl_lock_kind kind, rl_call_outcome outcome,
	int64_t attempts, double validity);

/* After a round trip: a server answered NOPERM to a script: from now on none is sent. 1 when learnt now. */
int rl_client_learn_scripts_refused(rl_client *client, rl_lane *lane);
/* Without scripts: ask the servers which native release they have, once per connection. */
void rl_client_learn_natives(rl_client *client, rl_lane *lane);

#endif
