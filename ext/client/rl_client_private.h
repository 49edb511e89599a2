/* What rl_client.c (acquisition) and rl_client_held.c (release, extend, validity) share: lending a
 * call its lane, the record every call ends with, what a round trip teaches the object. Private to
 * client/. */
#ifndef RL_CLIENT_PRIVATE_H
#define RL_CLIENT_PRIVATE_H

#include "client/rl_client.h"
#include "core/rl_dialect.h"

/* acquire(): a waiter found no lane again before its deadline (internal, never returned). */
#define RL_NO_LANE ((rl_acquire_status) -100)

/* A call starts: a lane for it, for its whole duration (docs/design/coroutines.md). token (NULL:
 * none): the held lock the call acts on; when a lane still owes that lock's late acquisition
 * replies, that lane and no other, waited for while lent. Otherwise the object's own lane, a free
 * spare, a new spare while fewer than maxConnectionSets exist, else the first to come free, waited
 * for (yielding to the other coroutines) up to wait_ms. Where nothing else can run meanwhile (no
 * waiter: no coroutine to give one back), it does not wait: a spare past the bound. NULL with *busy
 * set when no lane came in time (nothing is sent: the call fails), NULL alone when out of memory. */
rl_lane *rl_client_lend(rl_client *client, const char *token, size_t token_len, double wait_ms, int *busy);
/* The call ended: its votes become the object's "last call" (getLastErrors(), the observer), and
 * the calling coroutine's. */
void rl_client_give_back(rl_client *client, rl_lane *lane);
/* acquire: the lock just won on lane is bound to it while the lane owes replies. */
void rl_client_bind(rl_lane *lane, const char *token);

/* The tracked locks, made on first use. NULL when out of memory. */
rl_leases *rl_client_leases_of(rl_client *client);

/* Not done: "taken" when the servers that said so alone leave no quorum possible, else failed. */
rl_call_outcome rl_client_refused(const rl_client *client, const rl_lane *lane, rl_call_outcome taken);
/* The record of the call, and the per-process counters: the one place every call ends. */
void rl_client_finish(rl_client *client, rl_lane *lane, rl_call_op op, rl_lock_kind kind, rl_call_outcome outcome,
	int64_t attempts, double validity);

/* After a round trip: a server answered NOPERM to a script: from now on none is sent (core/rl_dialect.h).
 * 1 when learnt now and kind's op has a form of its own without scripts: the call is made again. */
int rl_client_learn_scripts_refused(rl_client *client, rl_lane *lane, rl_lock_kind kind, rl_dialect_op op);
/* Without scripts: ask the servers which native release they have, once per connection. */
void rl_client_learn_natives(rl_client *client, rl_lane *lane);

#endif
