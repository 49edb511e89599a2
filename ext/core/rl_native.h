/* The servers' own commands for a held lock, without scripts ('scripts' => false, or NOPERM learnt):
 * what the driver (rl_lock.c) sends in place of its scripts for release, extend, validity and
 * forceUnlock, where that takes more than one command or reads more than one reply. Private to
 * core/. The argument: docs/design/acquisition-path.md#locks-without-scripts. */
#ifndef RL_NATIVE_H
#define RL_NATIVE_H

#include "core/rl_lock.h"

/* Several keys: DELEX key IFEQ token (DELIFEQ key token), once per key to every server; a server's
 * vote is yes when any key's was. The votes; -1 when out of memory. */
int rl_native_release_keys(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, double deadline, rl_outcome *outcomes);

/* Several keys: SET key token IFEQ token PX ttl, once per key; yes when every key's was. The votes;
 * -1 when out of memory. */
int rl_native_extend_keys(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, const char *ttl_text, size_t ttl_len, double deadline, rl_outcome *outcomes);

/* MULTI; GET key; PTTL key; EXEC for each key: a server votes yes, with its least ms left in
 * outcomes[i].integer, when every key holds token with an expiry. 0, or -1 when out of memory. */
int rl_native_held(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	const char *token, size_t token_len, double deadline, rl_outcome *outcomes);

/* DEL k1 k2 ...: the servers that ran it; -1 when out of memory. */
int rl_native_force_release(const rl_lock_io *io, const rl_lock_policy *policy, const rl_lock_keys *keys,
	double deadline, rl_outcome *outcomes);

#endif
